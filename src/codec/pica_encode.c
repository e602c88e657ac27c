/* PICA200 texture encoding (pica.h): the inverse of pica.c, into the same 8x8 Morton
 * tiles and byte order. Every direct format is exact bit packing, each channel the
 * code whose widening is nearest (codec/quantize.h), so decoding and encoding again
 * gives the same bytes. ETC1's colour comes from Android's libETC1 encoder, whose
 * block is the standard big-endian word: PICA stores the same word little-endian. */
#include <android/ETC1/etc1.h>

#include "codec/pica.h"
#include "codec/etc1.h"
#include "codec/quantize.h"

#define TILE 8u

static void put16le(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Texel n of the stream from its RGBA8 px (the decoder's decode_texel backwards). */
static void encode_texel(nm_pica_format f, const uint8_t *px, uint8_t *dst, size_t n)
{
	unsigned bpp = nm_pica_bits_per_pixel(f);
	uint8_t *p = dst + n * (bpp / 8);
	unsigned r = px[0], g = px[1], b = px[2], a = px[3], v;

	switch (f) {
	case NM_PICA_RGBA8:
		p[0] = (uint8_t)a, p[1] = (uint8_t)b, p[2] = (uint8_t)g, p[3] = (uint8_t)r;
		break;
	case NM_PICA_RGB8:
		p[0] = (uint8_t)b, p[1] = (uint8_t)g, p[2] = (uint8_t)r;
		break;
	case NM_PICA_RGBA5551:
		put16le(p, nm_quantize_bits(r, 5) << 11 | nm_quantize_bits(g, 5) << 6 |
			   nm_quantize_bits(b, 5) << 1 | nm_quantize_bits(a, 1));
		break;
	case NM_PICA_RGB565:
		put16le(p, nm_quantize_bits(r, 5) << 11 | nm_quantize_bits(g, 6) << 5 |
			   nm_quantize_bits(b, 5));
		break;
	case NM_PICA_RGBA4:
		put16le(p, nm_quantize_bits(r, 4) << 12 | nm_quantize_bits(g, 4) << 8 |
			   nm_quantize_bits(b, 4) << 4 | nm_quantize_bits(a, 4));
		break;
	case NM_PICA_LA8:
		p[0] = (uint8_t)a, p[1] = (uint8_t)nm_luma(px);
		break;
	case NM_PICA_HILO8:
		p[0] = (uint8_t)g, p[1] = (uint8_t)r;
		break;
	case NM_PICA_L8:
		p[0] = (uint8_t)nm_luma(px);
		break;
	case NM_PICA_A8:
		p[0] = (uint8_t)a;
		break;
	case NM_PICA_LA4:
		p[0] = (uint8_t)(nm_quantize_bits(nm_luma(px), 4) << 4 | nm_quantize_bits(a, 4));
		break;
	case NM_PICA_L4:
	case NM_PICA_A4:
		/* The earlier texel in the low nibble; it is written first. */
		v = nm_quantize_bits(f == NM_PICA_L4 ? nm_luma(px) : a, 4);
		if (n & 1)
			dst[n / 2] |= (uint8_t)(v << 4);
		else
			dst[n / 2] = (uint8_t)v;
		break;
	default:
		break;
	}
}

static void encode_texels(nm_pica_format f, const uint8_t *rgba, unsigned w, unsigned h,
			  uint8_t *dst)
{
	size_t n = 0;

	for (unsigned ty = 0; ty < h; ty += TILE)
		for (unsigned tx = 0; tx < w; tx += TILE)
			for (unsigned i = 0; i < TILE * TILE; i++, n++) {
				/* Storage index bits, LSB first: x0 y0 x1 y1 x2 y2 (as pica.c). */
				unsigned x = (i & 1) | ((i >> 1) & 2) | ((i >> 2) & 4);
				unsigned y = ((i >> 1) & 1) | ((i >> 2) & 2) | ((i >> 3) & 4);

				encode_texel(f, rgba + ((size_t)(ty + y) * w + tx + x) * 4, dst, n);
			}
}

/* One 4x4 block at (bx, by): libETC1's colour word reversed into PICA's order and,
 * for ETC1A4, the alpha word before it (nibble 4x + y, little-endian). */
static void encode_etc1_block(int alpha, const uint8_t *rgba, size_t row, uint8_t *out)
{
	etc1_byte rgb[ETC1_DECODED_BLOCK_SIZE], be[ETC1_ENCODED_BLOCK_SIZE];
	uint64_t a = 0;

	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			const uint8_t *px = rgba + y * row + x * 4;
			etc1_byte *o = rgb + 3 * (x + 4 * y);
			o[0] = px[0], o[1] = px[1], o[2] = px[2];
			a |= (uint64_t)nm_quantize_bits(px[3], 4) << (4 * (4 * x + y));
		}
	/* Every texel counts, transparent or not: the tree's PNG shows their colour. */
	etc1_encode_block(rgb, 0xFFFF, be);
	if (alpha) {
		for (unsigned i = 0; i < 8; i++)
			out[i] = (uint8_t)(a >> (8 * i));
		out += 8;
	}
	for (unsigned i = 0; i < NM_ETC1_BLOCK_BYTES; i++)
		out[i] = be[NM_ETC1_BLOCK_BYTES - 1 - i];
}

static void encode_etc1(int alpha, const uint8_t *rgba, unsigned w, unsigned h, uint8_t *dst)
{
	size_t stride = alpha ? 16 : 8, row = (size_t)w * 4;

	for (unsigned ty = 0; ty < h; ty += TILE)
		for (unsigned tx = 0; tx < w; tx += TILE)
			/* Four 4x4 blocks per tile, Z order. */
			for (unsigned b = 0; b < 4; b++, dst += stride) {
				unsigned bx = tx + (b & 1) * 4, by = ty + (b >> 1) * 4;
				encode_etc1_block(alpha, rgba + (size_t)by * row + (size_t)bx * 4, row,
						  dst);
			}
}

nm_status nm_pica_encode(nm_pica_format f, const uint8_t *rgba, unsigned w, unsigned h,
			 uint8_t *dst, size_t dst_len)
{
	size_t need = nm_pica_level_size(f, w, h);

	if (need == 0 || !rgba || !dst || dst_len < need)
		return NM_E_INVAL;
	if (f == NM_PICA_ETC1 || f == NM_PICA_ETC1A4)
		encode_etc1(f == NM_PICA_ETC1A4, rgba, w, h, dst);
	else
		encode_texels(f, rgba, w, h, dst);
	return NM_OK;
}
