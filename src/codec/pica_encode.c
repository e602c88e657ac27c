/* PICA200 texture encoding (pica.h): the inverse of pica.c's texels and blocks, which
 * pica.c's walk over the 8x8 Morton tiles puts in place (nm_pica_encode). Every direct format is exact bit packing, each channel the
 * code whose widening is nearest (codec/quantize.h), so decoding and encoding again
 * gives the same bytes. ETC1's colour comes from Android's libETC1 encoder, whose
 * block is the standard big-endian word: PICA stores the same word little-endian. */
#include <android/ETC1/etc1.h>

#include "codec/pica.h"
#include "codec/etc1.h"
#include "codec/pica_internal.h"
#include "codec/quantize.h"

static void put16le(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Texel n of the stream from its RGBA8 px (pica.c's decode_texel backwards). */
void nm_pica_encode_texel(nm_pica_format f, const uint8_t *px, uint8_t *dst, size_t n)
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

/* One 4x4 block: libETC1's colour word reversed into PICA's order and, for ETC1A4, the
 * alpha word before it (nibble 4x + y, little-endian). */
void nm_pica_encode_etc1_block(int alpha, const uint8_t *rgba, size_t row, uint8_t *out)
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
