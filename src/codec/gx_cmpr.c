/* GX CMPR: a DXT1 variant, decoded and encoded. An 8x8 block holds four 4x4 sub-blocks in Z order
 * (TL, TR, BL, BR); each sub-block is two big-endian RGB565 endpoints and four
 * row bytes whose top two bits index the leftmost texel (PC DXT1 is the reverse). */
#include <string.h>

#include "codec/bcn.h"
#include "codec/gx_internal.h"

static void rgb565(unsigned c, uint8_t out[4])
{
	out[0] = nm_gx_expand5((c >> 11) & 0x1F);
	out[1] = nm_gx_expand6((c >> 5) & 0x3F);
	out[2] = nm_gx_expand5(c & 0x1F);
	out[3] = 255;
}

/* Four-colour mode uses the GX hardware's 3/8-5/8 weights (not DXT1's 1/3-2/3) on
 * the already-expanded 8-bit channels, truncating: (5*a + 3*b) >> 3. The
 * three-colour midpoint truncates too: (a + b) >> 1. Truncation is what the
 * hardware-accurate emulators do, so our PNGs match what players saw. */
static void cmpr_palette(unsigned c0, unsigned c1, uint8_t pal[4][4])
{
	rgb565(c0, pal[0]);
	rgb565(c1, pal[1]);
	if (c0 > c1) {
		for (int k = 0; k < 3; k++) {
			pal[2][k] = (uint8_t)((5u * pal[0][k] + 3u * pal[1][k]) >> 3);
			pal[3][k] = (uint8_t)((3u * pal[0][k] + 5u * pal[1][k]) >> 3);
		}
		pal[2][3] = pal[3][3] = 255;
	} else {
		for (int k = 0; k < 3; k++)
			pal[2][k] = (uint8_t)((pal[0][k] + pal[1][k]) >> 1);
		pal[2][3] = 255;
		/* Transparent black, not "c2 with A=0": exporters that ignore alpha
		 * then show black holes instead of a misleading colour. */
		memset(pal[3], 0, 4);
	}
}

static void sub_block(const uint8_t *src, uint8_t *tile, unsigned x0, unsigned y0)
{
	uint8_t pal[4][4];

	cmpr_palette(nm_gx_be16(src), nm_gx_be16(src + 2), pal);
	for (unsigned y = 0; y < 4; y++) {
		unsigned row = src[4 + y];
		for (unsigned x = 0; x < 4; x++) {
			unsigned idx = (row >> (6 - 2 * x)) & 3;
			memcpy(tile + ((y0 + y) * 8 + x0 + x) * 4, pal[idx], 4);
		}
	}
}

void nm_gx_cmpr_block(const uint8_t *src, uint8_t tile[8 * 8 * 4])
{
	for (unsigned s = 0; s < 4; s++)
		sub_block(src + 8 * s, tile, (s & 1) * 4, (s >> 1) * 4);
}

/* Encoding: libsquish's BC1 fit gives the two endpoints (its choice of mode with them:
 * three colours and transparent black when a texel's alpha is below 128), then each
 * texel takes the nearest colour of the palette GX decodes from them, 3/8-5/8 and
 * truncation included, so the error is the least our decoder allows with those
 * endpoints. */
static void encode_sub_block(const uint8_t *rgba, unsigned w, unsigned h, unsigned x0,
			     unsigned y0, uint8_t out[8])
{
	uint8_t texels[64], bc1[8], pal[4][4];
	unsigned mask = nm_bcn_gather(rgba, w, h, x0, y0, texels);

	nm_squish_block(NM_BC1, texels, mask, bc1);
	unsigned c0 = bc1[0] | (unsigned)bc1[1] << 8, c1 = bc1[2] | (unsigned)bc1[3] << 8;
	cmpr_palette(c0, c1, pal);
	int four = c0 > c1;
	out[0] = (uint8_t)(c0 >> 8);
	out[1] = (uint8_t)c0;
	out[2] = (uint8_t)(c1 >> 8);
	out[3] = (uint8_t)c1;
	for (unsigned y = 0; y < 4; y++) {
		unsigned row = 0;
		for (unsigned x = 0; x < 4; x++) {
			const uint8_t *px = texels + 4 * (y * 4 + x);
			unsigned best = 0, best_err = ~0u;
			if (!four && px[3] < 128) {
				best = 3;
			} else {
				for (unsigned i = 0; i < (four ? 4u : 3u); i++) {
					unsigned e = 0;
					for (int k = 0; k < 3; k++) {
						int d = (int)px[k] - pal[i][k];
						e += (unsigned)(d * d);
					}
					if (e < best_err) {
						best_err = e;
						best = i;
					}
				}
			}
			/* The leftmost texel in the top two bits. */
			row |= best << (6 - 2 * x);
		}
		out[4 + y] = (uint8_t)row;
	}
}

void nm_gx_cmpr_encode_block(const uint8_t *rgba, unsigned w, unsigned h, unsigned x0,
			     unsigned y0, uint8_t out[32])
{
	for (unsigned s = 0; s < 4; s++)
		encode_sub_block(rgba, w, h, x0 + (s & 1) * 4, y0 + (s >> 1) * 4, out + 8 * s);
}
