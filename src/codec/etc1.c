#include "codec/etc1.h"

/* (small, large) modifier per table index; the selector picks the sign. */
static const int etc1_modifiers[8][2] = {
	{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}
};

uint64_t nm_etc1_word_be(const uint8_t b[NM_ETC1_BLOCK_BYTES])
{
	uint64_t w = 0;

	for (int i = 0; i < NM_ETC1_BLOCK_BYTES; i++)
		w = (w << 8) | b[i];
	return w;
}

uint64_t nm_etc1_word_le(const uint8_t b[NM_ETC1_BLOCK_BYTES])
{
	uint64_t w = 0;

	for (int i = NM_ETC1_BLOCK_BYTES - 1; i >= 0; i--)
		w = (w << 8) | b[i];
	return w;
}

static int expand4(unsigned n)
{
	return (int)(n << 4 | n);
}

static int expand5(unsigned n)
{
	return (int)(n << 3 | n >> 2);
}

static uint8_t clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

void nm_etc1_decode_block(uint64_t word, uint8_t out[4][4][4])
{
	uint32_t hi = (uint32_t)(word >> 32);
	uint32_t lo = (uint32_t)word;
	unsigned table[2] = { (hi >> 5) & 7, (hi >> 2) & 7 };
	int flip = hi & 1;
	int base[2][3];

	/* The three channels sit 8 bits apart, R highest. */
	for (int c = 0; c < 3; c++) {
		if (hi & 2) {
			unsigned sh = 27 - 8 * (unsigned)c;
			unsigned b1 = (hi >> sh) & 31;
			unsigned d = (hi >> (sh - 3)) & 7;
			/* Two's-complement 3-bit delta: adding d-8 mod 32 == d+24. */
			unsigned b2 = (b1 + (d < 4 ? d : d + 24)) & 31;

			base[0][c] = expand5(b1);
			base[1][c] = expand5(b2);
		} else {
			unsigned sh = 28 - 8 * (unsigned)c;

			base[0][c] = expand4((hi >> sh) & 15);
			base[1][c] = expand4((hi >> (sh - 4)) & 15);
		}
	}

	/* Selectors run down columns: pixel k is x = k/4, y = k%4. */
	for (unsigned k = 0; k < 16; k++) {
		unsigned x = k >> 2, y = k & 3;
		unsigned sub = flip ? y >> 1 : x >> 1;
		unsigned sel = ((lo >> (16 + k)) & 1) << 1 | ((lo >> k) & 1);
		int m = etc1_modifiers[table[sub]][sel & 1];

		if (sel & 2)
			m = -m;
		for (int c = 0; c < 3; c++)
			out[y][x][c] = clamp255(base[sub][c] + m);
		out[y][x][3] = 255;
	}
}
