/* A PAK model's META blob (FORMATS.md §6.4: GPU offset, read buffers, vertex and index
 * buffers with their offsets and compressed and decompressed sizes) written again for
 * the model's new bytes, when the PAK is laid out again (repack.c). Only the layout
 * every blob we can check has is rewritten: one read buffer that is the GPU chunk's
 * data (its offset from the file or from the GPU offset), the buffers back to back in
 * it; each buffer's new compressed size is where its stream ends, decoding to its own
 * decompressed size. Anything else is refused: a stale blob would point the game at
 * the wrong bytes. */
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"

/* The GPU chunk of the asset r (its descriptor's and data's offsets, its size). */
static bool find_gpu(nm_reader *r, rfrm_item *gpu, nm_error *err)
{
	rfrm_item form;
	if (rfrm_read_form(r, 0, nm_reader_size(r), &form, err) != NM_OK)
		return false;
	for (uint64_t off = form.data_off; off < rfrm_item_end(&form);) {
		if (rfrm_read_item(r, off, rfrm_item_end(&form), gpu, err) != NM_OK)
			return false;
		if (!gpu->is_form && memcmp(gpu->id, "GPU ", 4) == 0)
			return true;
		off = rfrm_item_end(gpu);
	}
	nm_fail(err, NM_E_FORMAT, nm_reader_name(r), "GPU", NM_NO_OFFSET, "no GPU chunk");
	return false;
}

static int by_offset(const void *x, const void *y)
{
	const uint8_t *a = *(const uint8_t *const *)x, *b = *(const uint8_t *const *)y;
	uint32_t u = nm_be32(a + 4), v = nm_be32(b + 4);
	return u < v ? -1 : u > v;
}

nm_status rfrm_meta_rewrite(const rfrm_pak *p, const rfrm_pak_entry *e, const uint8_t *now,
			    uint64_t now_len, uint8_t *blob_out, nm_error *err)
{
	const char *name = nm_reader_name(p->r);
	const uint8_t *blob = p->meta_data + e->meta;
	size_t blen = e->meta_len;
#define REFUSE(...) nm_fail(err, NM_E_UNSUPPORTED, name, e->dir, NM_NO_OFFSET, __VA_ARGS__)
	if (rfrm_meta_length(blob, blen) != blen)
		return REFUSE("its META blob is not in the layout apply rewrites (FORMATS.md "
			      "6.4), and its GPU buffers would move");
	uint32_t nread = nm_be32(blob + 8);
	if (nread != 1)
		return REFUSE("its META blob lists %u read buffers; apply rewrites one", nread);
	nm_reader *was, *is;
	uint8_t *copy = malloc(now_len ? (size_t)now_len : 1);
	if (!copy)
		return nm_fail(err, NM_E_NOMEM, name, e->dir, NM_NO_OFFSET, "out of memory");
	memcpy(copy, now, (size_t)now_len);
	if (nm_reader_new_memory(e->dir, copy, (size_t)now_len, &is, err) != NM_OK)
		return err->code;
	if (nm_reader_new_window(p->r, e->dir, e->off, e->size, &was, err) != NM_OK) {
		nm_reader_close(is);
		return err->code;
	}
	rfrm_item old_gpu, new_gpu;
	nm_status s = find_gpu(was, &old_gpu, err) && find_gpu(is, &new_gpu, err) ? NM_OK
										 : err->code;
	uint32_t gpu_offset = nm_be32(blob + 4), rsize = nm_be32(blob + 12),
		 roff = nm_be32(blob + 16);
	int64_t shift = (int64_t)new_gpu.data_off - (int64_t)old_gpu.data_off;
	bool file_rel = roff == old_gpu.data_off, gpu_rel = (uint64_t)gpu_offset + roff ==
							      old_gpu.data_off;
	if (s == NM_OK && (rsize != old_gpu.size || (!file_rel && !gpu_rel) ||
			   (gpu_offset != old_gpu.off && gpu_offset != old_gpu.data_off)))
		s = REFUSE("its META blob's read buffer is not its GPU chunk's data");
	/* Every buffer entry, in the order of their offsets: back to back from 0. */
	uint32_t nvb = nm_be32(blob + 20), nib = nm_be32(blob + 24 + 16 * (size_t)nvb);
	size_t n = (size_t)nvb + nib;
	uint8_t **ent = s == NM_OK ? malloc((n ? n : 1) * sizeof *ent) : NULL;
	if (s == NM_OK && !ent)
		s = nm_fail(err, NM_E_NOMEM, name, e->dir, NM_NO_OFFSET, "out of memory");
	if (s == NM_OK) {
		memcpy(blob_out, blob, blen);
		for (size_t i = 0; i < nvb; i++)
			ent[i] = blob_out + 24 + 16 * i;
		for (size_t i = 0; i < nib; i++)
			ent[nvb + i] = blob_out + 28 + 16 * (size_t)nvb + 16 * i;
		qsort(ent, n, sizeof *ent, by_offset);
	}
	uint8_t *src = NULL;
	if (s == NM_OK)
		s = nm_reader_load(is, new_gpu.data_off, (size_t)new_gpu.size, "GPU", &src, err);
	uint64_t old_at = 0, at = 0;
	for (size_t i = 0; s == NM_OK && i < n; i++) {
		size_t used;
		if (nm_be32(ent[i] + 4) != old_at || nm_be32(ent[i]) != 0)
			s = REFUSE("its META blob's buffers are not back to back in its GPU chunk");
		else if (nm_gpu_decode(src + at, (size_t)(new_gpu.size - at), NULL,
				       nm_be32(ent[i] + 12), &used) != NM_OK)
			s = nm_fail(err, NM_E_FORMAT, name, e->dir, new_gpu.data_off + at, "a "
				    "buffer of the new GPU chunk does not decode to its META size");
		if (s != NM_OK)
			break;
		old_at += nm_be32(ent[i] + 8);
		nm_put_be32(ent[i] + 4, (uint32_t)at);
		nm_put_be32(ent[i] + 8, (uint32_t)used);
		at += used;
	}
	if (s == NM_OK && (old_at != old_gpu.size || at != new_gpu.size))
		s = REFUSE("its META blob's buffers do not fill its GPU chunk");
	if (s == NM_OK) {
		nm_put_be32(blob_out + 4, (uint32_t)((int64_t)gpu_offset + shift));
		nm_put_be32(blob_out + 12, (uint32_t)new_gpu.size);
		nm_put_be32(blob_out + 16, file_rel ? (uint32_t)((int64_t)roff + shift) : roff);
	}
#undef REFUSE
	free(src);
	free(ent);
	nm_reader_close(was);
	nm_reader_close(is);
	return s;
}
