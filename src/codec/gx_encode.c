/* GX texture encoding (gx.h): the inverse of gx.c, block by block in the same order and
 * layout. Direct formats are exact bit packing, each channel the code whose widening is
 * nearest (codec/quantize.h); CMPR is gx_cmpr.c's, the palette formats' indices and
 * palette gx_palette.c's. Texels of a block past the image's edge repeat the edge
 * texel: GX never samples them, and a palette index stays one the image uses. */
#include <stdlib.h>

#include "codec/gx.h"
#include "codec/gx_internal.h"
#include "codec/quantize.h"
#include "lib/alloc.h"

static void put16be(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static unsigned rgb565_pack(const uint8_t *px)
{
	return nm_quantize_bits(px[0], 5) << 11 | nm_quantize_bits(px[1], 6) << 5 |
	       nm_quantize_bits(px[2], 5);
}

static unsigned sq(int d)
{
	return (unsigned)(d * d);
}

/* RGB5A3 holds a texel either opaque in 5:5:5 (top bit set) or in 4:4:4 with 3 bits of
 * alpha: the form whose decoding is nearer, the opaque one on a tie (so a texel decoded
 * from either form encodes back to the same bits). */
static unsigned rgb5a3_pack(const uint8_t *px)
{
	unsigned op = 0x8000, al = nm_quantize_bits(px[3], 3) << 12;
	unsigned op_err = sq(255 - px[3]);
	unsigned al_err = sq((int)nm_widen_bits(al >> 12, 3) - px[3]);
	for (unsigned c = 0; c < 3; c++) {
		unsigned q5 = nm_quantize_bits(px[c], 5), q4 = nm_quantize_bits(px[c], 4);
		op |= q5 << (10 - 5 * c);
		al |= q4 << (8 - 4 * c);
		op_err += sq((int)nm_widen_bits(q5, 5) - px[c]);
		al_err += sq((int)nm_widen_bits(q4, 4) - px[c]);
	}
	return op_err <= al_err ? op : al;
}

unsigned nm_gx_tlut_pack(const uint8_t px[4], unsigned pfmt)
{
	switch (pfmt) {
	case NM_GX_PAL_IA8:
		return (unsigned)px[3] << 8 | nm_luma(px);
	case NM_GX_PAL_RGB565:
		return rgb565_pack(px);
	default:
		return rgb5a3_pack(px);
	}
}

/* Texel i of a block (row by row) from px; idx is its palette index (indexed formats). */
static void encode_texel(unsigned fmt, const uint8_t *px, unsigned idx, unsigned i,
			 uint8_t *b)
{
	unsigned nib;

	switch (fmt) {
	case NM_GX_I4:
	case NM_GX_C4:
		/* The even (left) texel in the high nibble; it is written first. */
		nib = fmt == NM_GX_I4 ? nm_quantize_bits(nm_luma(px), 4) : idx;
		if (i & 1)
			b[i / 2] |= (uint8_t)nib;
		else
			b[i / 2] = (uint8_t)(nib << 4);
		break;
	case NM_GX_I8:
		b[i] = (uint8_t)nm_luma(px);
		break;
	case NM_GX_IA4:
		b[i] = (uint8_t)(nm_quantize_bits(px[3], 4) << 4 | nm_quantize_bits(nm_luma(px), 4));
		break;
	case NM_GX_IA8:
		b[2 * i] = px[3];
		b[2 * i + 1] = (uint8_t)nm_luma(px);
		break;
	case NM_GX_RGB565:
		put16be(b + 2 * i, rgb565_pack(px));
		break;
	case NM_GX_RGB5A3:
		put16be(b + 2 * i, rgb5a3_pack(px));
		break;
	case NM_GX_RGBA8:
		/* (A, R) pairs in the first 32 bytes, (G, B) in the next. */
		b[2 * i] = px[3];
		b[2 * i + 1] = px[0];
		b[32 + 2 * i] = px[1];
		b[32 + 2 * i + 1] = px[2];
		break;
	case NM_GX_C8:
		b[i] = (uint8_t)idx;
		break;
	case NM_GX_C14X2:
		put16be(b + 2 * i, idx);
		break;
	}
}

static void encode_blocks(unsigned fmt, const uint8_t *rgba, const uint16_t *idx, unsigned w,
			  unsigned h, uint8_t *dst)
{
	unsigned bw, bh, bytes;
	nm_gx_block_shape(fmt, &bw, &bh, &bytes);
	for (unsigned y0 = 0; y0 < h; y0 += bh)
		for (unsigned x0 = 0; x0 < w; x0 += bw, dst += bytes) {
			if (fmt == NM_GX_CMPR) {
				nm_gx_cmpr_encode_block(rgba, w, h, x0, y0, dst);
				continue;
			}
			for (unsigned i = 0; i < bw * bh; i++) {
				unsigned x = x0 + i % bw, y = y0 + i / bw;
				size_t at = (size_t)(y < h ? y : h - 1) * w + (x < w ? x : w - 1);
				encode_texel(fmt, rgba + 4 * at, idx ? idx[at] : 0, i, dst);
			}
		}
}

static unsigned max_index(unsigned fmt)
{
	return fmt == NM_GX_C4 ? 0xF : fmt == NM_GX_C8 ? 0xFF : 0x3FFF;
}

nm_status nm_gx_encode(const nm_options *opt, unsigned fmt, const uint8_t *rgba, unsigned w,
		       unsigned h, uint8_t *dst, size_t dst_len, uint8_t *palette,
		       size_t palette_count, unsigned palette_fmt, bool *palette_changed)
{
	size_t need = nm_gx_level_size(fmt, w, h);
	int indexed = nm_gx_format_is_indexed(fmt);

	if (palette_changed)
		*palette_changed = false;
	if (need == 0 || !rgba || !dst || dst_len < need)
		return NM_E_INVAL;
	if (!indexed) {
		encode_blocks(fmt, rgba, NULL, w, h, dst);
		return NM_OK;
	}
	if (!palette || !palette_count || !nm_gx_palette_format_name(palette_fmt))
		return NM_E_INVAL;
	size_t n = (size_t)w * h, bytes;
	if (nm_alloc_check(opt, n, sizeof(uint16_t), &bytes) != NM_OK)
		return NM_E_LIMIT;
	uint16_t *idx = malloc(bytes);
	if (!idx)
		return NM_E_NOMEM;
	bool changed = false;
	nm_status s = nm_gx_palette_indices(opt, rgba, n, palette, palette_count, palette_fmt,
					    max_index(fmt), idx, &changed);
	if (s == NM_OK)
		encode_blocks(fmt, rgba, idx, w, h, dst);
	if (palette_changed)
		*palette_changed = s == NM_OK && changed;
	free(idx);
	return s;
}
