/* What the texture encoders share: 8-bit values to n-bit codes, nearest under the
 * decoders' own widening. PICA and GX widen an n-bit code by bit replication (the
 * code repeated from the top bit down: 5 bits abcde -> abcdeabc), so the nearest code
 * is the one whose replication is nearest, not round(v * max / 255): they differ
 * for a few values (v = 132 in 5 bits: 16 widens to 132, round(132 * 31 / 255) = 16;
 * v = 4: 0 -> 0 and 1 -> 8 tie, the lower wins). Header-only, inline: the encoders
 * call these per texel. */
#ifndef NM_CODEC_QUANTIZE_H
#define NM_CODEC_QUANTIZE_H

#include <stdint.h>

/* An n-bit code (1 <= n <= 8) widened to 8 bits by bit replication. */
static inline unsigned nm_widen_bits(unsigned q, unsigned n)
{
	unsigned v = 0;
	for (int shift = 8 - (int)n; shift > -(int)n; shift -= (int)n)
		v |= shift >= 0 ? q << shift : q >> -shift;
	return v & 0xFF;
}

/* The n-bit code whose widening is nearest v (ties: the lower code). The linear guess
 * is at most one code away from it. */
static inline unsigned nm_quantize_bits(unsigned v, unsigned n)
{
	unsigned max = (1u << n) - 1, q = (v * max + 127) / 255, best = q;
	int best_err = 256;
	for (unsigned c = q ? q - 1 : 0; c <= q + 1 && c <= max; c++) {
		int err = (int)nm_widen_bits(c, n) - (int)v;
		if (err < 0)
			err = -err;
		if (err < best_err) {
			best_err = err;
			best = c;
		}
	}
	return best;
}

/* v rounded to the nearest value n bits can hold, as the decoder widens it. */
static inline uint8_t nm_round_bits(unsigned v, unsigned n)
{
	return (uint8_t)nm_widen_bits(nm_quantize_bits(v, n), n);
}

/* The luminance an L/I format stores for an RGB texel: BT.601 weights in 1/256ths
 * (77 + 150 + 29 = 256), rounded, so a grey texel (r = g = b, what the tree's PNGs of
 * these formats hold) keeps its value exactly. */
static inline unsigned nm_luma(const uint8_t *px)
{
	return (77u * px[0] + 150u * px[1] + 29u * px[2] + 128) >> 8;
}

#endif
