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
	size_t off = 0, filled = 0, len = (size_t)x->gpu->size;
	while (s == NM_OK && off < len) {
		uint64_t at = x->gpu->data_off + off;
		if (len - off < NM_GPU_TAG_LEN) {
			s = nm_fail(err, NM_E_FORMAT, x->name, "GPU", at,
				    "%zu bytes after the last buffer: too few for a codec tag",
				    len - off);
			break;
		}
		size_t made = 0, used = 0;
		s = one_buffer(x, src + off, len - off, at, dst + filled, (size_t)size - filled,
			       &made, &used, err);
		filled += made;
		off += used;
	}
	free(src);
	if (s != NM_OK)
		return s;
	if (filled < x->surf.span)
		return nm_fail(err, NM_E_FORMAT, x->name, "GPU", x->gpu->data_off,
			       "the buffers decode to %zu bytes; the texels reach byte %llu of the %llu-byte surface",
			       filled, (unsigned long long)x->surf.span, (unsigned long long)size);
	memset(dst + filled, 0, (size_t)size - filled);
	o->len += (size_t)size;
	return NM_OK;
}
