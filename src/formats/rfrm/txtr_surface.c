/* gpu/surface.bin: the GPU chunk's buffers, decompressed one after another, are the
 * surface (see txtr.h). Its size is known from HEAD alone (nm_tegra_surface_layout), so
 * every buffer is sized against what is left of it:
 *  - zlib and arithmetic-coded streams end by themselves;
 *  - a stored or plain LZSS stream has no end of its own: it takes the rest of the
 *    chunk, so it can only be the last buffer.
 * The buffers must use up the chunk. A surface that comes out short is padded with
 * zeros, as long as every texel of every level and layer is inside what was decoded:
 * the game's loader stops at the end of its input, and the 1x1 RGBA8 corpus texture's
 * LZSS stream stops 2 bytes into the padding of its only GOB. */
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "formats/rfrm/txtr.h"
#include "lib/alloc.h"

/* One buffer at src (what is left of the chunk) into dst (what is left of the
 * surface): *out_len bytes made, *used bytes taken. */
static nm_status one_buffer(const rfrm_txtr *x, const uint8_t *src, size_t src_len,
			    uint64_t at, uint8_t *dst, size_t room, size_t *out_len, size_t *used,
			    nm_error *err)
{
	const nm_gpu_codec *c = nm_gpu_codec_of(src);
	if (!c)
		return nm_fail(err, NM_E_FORMAT, x->name, "GPU", at,
			       "unknown codec tag %02x %02x %02x %02x", src[0], src[1], src[2],
			       src[3]);
	/* The common case first: one buffer that ends by itself and fills the surface. */
	if (c->ends_itself && nm_gpu_decode(src, src_len, dst, room, used) == NM_OK) {
		*out_len = room;
		return NM_OK;
	}
	nm_status s = nm_gpu_measure(src, src_len, room, out_len, used);
	if (s == NM_E_LIMIT)
		return nm_fail(err, NM_E_FORMAT, x->name, "GPU", at,
			       "%s buffer decodes to more than the %zu bytes left of the %llu-byte surface",
			       c->label, room, (unsigned long long)x->surf.size);
	if (s != NM_OK)
		return nm_fail(err, s, x->name, "GPU", at, "%s buffer is broken (%s)", c->label,
			       nm_status_str(s));
	s = nm_gpu_decode(src, *used, dst, *out_len, used);
	if (s != NM_OK)
		return nm_fail(err, s, x->name, "GPU", at, "%s buffer is broken (%s)", c->label,
			       nm_status_str(s));
	return NM_OK;
}

/* Every buffer of the GPU chunk src[0..len) in turn into dst (size bytes; NULL: sized
 * only), each one's tag and what it made and used told to each (may be NULL). *filled:
 * the bytes made in all. */
static nm_status walk_buffers(const rfrm_txtr *x, const uint8_t *src, size_t len, uint8_t *dst,
			      size_t size, size_t *filled,
			      void (*each)(void *ctx, const uint8_t *tag, size_t made, size_t used),
			      void *ctx, nm_error *err)
{
	nm_status s = NM_OK;
	size_t off = 0;
	*filled = 0;
	while (s == NM_OK && off < len) {
		uint64_t at = x->gpu->data_off + off;
		if (len - off < NM_GPU_TAG_LEN)
			return nm_fail(err, NM_E_FORMAT, x->name, "GPU", at,
				       "%zu bytes after the last buffer: too few for a codec tag",
				       len - off);
		size_t made = 0, used = 0;
		s = one_buffer(x, src + off, len - off, at, dst ? dst + *filled : NULL,
			       size - *filled, &made, &used, err);
		if (s == NM_OK && each)
			each(ctx, src + off, made, used);
		*filled += made;
		off += used;
	}
	if (s == NM_OK && *filled < x->surf.span)
		return nm_fail(err, NM_E_FORMAT, x->name, "GPU", x->gpu->data_off,
			       "the buffers decode to %zu bytes; the texels reach byte %llu of the %llu-byte surface",
			       *filled, (unsigned long long)x->surf.span, (unsigned long long)size);
	return s;
}

nm_status rfrm_txtr_surface(rfrm_txtr *x, nm_out *o, nm_error *err)
{
	const uint64_t size = x->surf.size;
	uint8_t *dst = nm_out_reserve(o, (size_t)size);
	if (!dst)
		return nm_out_status(o) == NM_E_LIMIT
			       ? nm_fail_limit(err, o->opt, size, x->name, "GPU", x->gpu->off)
			       : nm_fail(err, NM_E_NOMEM, x->name, "GPU", x->gpu->off,
					 "out of memory");
	uint8_t *src = NULL;
	nm_status s = nm_reader_load(x->r, x->gpu->data_off, (size_t)x->gpu->size, "GPU", &src,
				     err);
	if (s != NM_OK)
		return s;
	size_t filled = 0;
	s = walk_buffers(x, src, (size_t)x->gpu->size, dst, (size_t)size, &filled, NULL, NULL,
			 err);
	free(src);
	if (s != NM_OK)
		return s;
	memset(dst + filled, 0, (size_t)size - filled);
	o->len += (size_t)size;
	return NM_OK;
}

nm_status rfrm_txtr_surface_prefix(const rfrm_txtr *x, uint8_t *dst, size_t n, nm_error *err)
{
	/* A stream holds its first n bytes in at most about as many (LZSS's flags add one in
	 * eight; a stored deflate block five in 64 KiB), and the buffers' tags in a few
	 * more: that much is read first, the whole chunk only if the decode runs out.
	 * (Twice n, as before, read 0.8 MB more than the decode used for the head of the
	 * corpus's 16.8 MB ASTC level: a millisecond of its ~12.) */
	uint64_t len = (uint64_t)n + n / 8 + 65536;
	if (len > x->gpu->size)
		len = x->gpu->size;
	for (;;) {
		uint8_t *src = NULL;
		nm_status s = nm_reader_load(x->r, x->gpu->data_off, (size_t)len, "GPU", &src, err);
		if (s != NM_OK)
			return s;
		if (len < NM_GPU_TAG_LEN || !nm_gpu_codec_of(src) ||
		    nm_gpu_decode_prefix(src, (size_t)len, dst, n) != NM_OK)
			s = NM_E_UNSUPPORTED;
		free(src);
		if (s == NM_OK || len == x->gpu->size)
			return s;
		len = x->gpu->size;
	}
}

/* The surface's new bytes into the GPU chunk's: each buffer of the chunk compressed again
 * with its own tag, from the part of the surface it made. The chunk may come out of
 * another length only where the reader it lies in can be laid out again. */
struct reencode {
	const rfrm_txtr *x;
	const uint8_t *plain;
	size_t at;          /* of plain, where the next buffer's part starts */
	nm_out *out;
	nm_status s;
	nm_error *err;
};

static void reencode_one(void *ctx, const uint8_t *tag, size_t made, size_t used)
{
	struct reencode *re = ctx;
	const nm_gpu_codec *c = nm_gpu_codec_of(tag);
	uint8_t *enc = NULL;
	size_t len = 0;
	(void)used;
	if (re->s != NM_OK)
		return;
	re->s = nm_gpu_encode(c->tag, re->plain + re->at, made, &enc, &len);
	if (re->s != NM_OK)
		nm_fail(re->err, re->s, re->x->name, "GPU", re->x->gpu->data_off,
			"the %s buffer cannot be compressed again", c->label);
	else
		nm_out_write(re->out, enc, len);
	free(enc);
	re->at += made;
}

nm_status rfrm_txtr_reencode(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			     nm_error *err)
{
	const rfrm_txtr *x = ctx;
	uint8_t *src = NULL;
	nm_status s = nm_reader_load(x->r, x->gpu->data_off, (size_t)x->gpu->size, "GPU", &src,
				     err);
	if (s != NM_OK)
		return s;
	struct reencode re = { x, plain, 0, out, NM_OK, err };
	size_t filled = 0;
	s = walk_buffers(x, src, (size_t)x->gpu->size, NULL, len, &filled, reencode_one, &re,
			 err);
	free(src);
	if (s == NM_OK)
		s = re.s;
	for (size_t i = filled; s == NM_OK && i < len; i++)
		if (plain[i])
			s = nm_fail(err, NM_E_UNSUPPORTED, x->name, "GPU", x->gpu->data_off,
				    "byte %zu of the surface, past what its buffers make, is no "
				    "longer zero", i);
	if (s == NM_OK)
		s = nm_out_status(out);
	/* Another length needs the RFRM chunk and form sizes written again: only a reader
	 * that can be laid out again (a repack hook) takes it. */
	nm_repack_fn repack;
	void *rctx;
	if (s == NM_OK && out->len != x->gpu->size && !nm_reader_repack_of(x->r, &repack, &rctx)) {
		const nm_gpu_codec *c = nm_gpu_codec_of(x->codec);
		s = nm_fail(err, NM_E_UNSUPPORTED, x->name, "GPU", x->gpu->data_off,
			    "the surface compressed again (%s) takes %zu bytes where the GPU chunk "
			    "has %llu: a GPU chunk of another size needs the RFRM chunk and form "
			    "sizes rewritten, which apply does not do yet", c ? c->label : "?",
			    out->len, (unsigned long long)x->gpu->size);
	}
	return s;
}
