/* GX CMPR: a DXT1 variant. An 8x8 block holds four 4x4 sub-blocks in Z order
 * (TL, TR, BL, BR); each sub-block is two big-endian RGB565 endpoints and four
 * row bytes whose top two bits index the leftmost texel (PC DXT1 is the reverse). */
#include <string.h>

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
static void sub_block(const uint8_t *src, uint8_t *tile, unsigned x0, unsigned y0)
{
	unsigned c0 = nm_gx_be16(src), c1 = nm_gx_be16(src + 2);
	uint8_t pal[4][4];

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
