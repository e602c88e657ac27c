/* BC1-BC5 encoding (bcn.h): BC1-BC3 by libsquish's best fit, block by block
 * (bcn_squish.cpp), BC4 and BC5 here, by a search of endpoint pairs scored under our
 * own decoder (nm_bc4_block's truncated interpolation). BC7 has no encoder. */
#include <string.h>
#include "codec/bcn.h"

#define WINDOW_IN 4   /* endpoints tried inside the block's range, from each end */
#define WINDOW_OUT 1  /* and outside it: truncation pulls the inner values down */

/* The eight values a BC4 block with endpoints a0, a1 decodes to (as nm_bc4_block). */
static void bc4_palette(unsigned a0, unsigned a1, unsigned v[8])
{
	v[0] = a0;
	v[1] = a1;
	if (a0 > a1) {
		for (unsigned i = 1; i <= 6; i++)
			v[1 + i] = ((7 - i) * a0 + i * a1) / 7;
	} else {
		for (unsigned i = 1; i <= 4; i++)
			v[1 + i] = ((5 - i) * a0 + i * a1) / 5;
		v[6] = 0;
		v[7] = 255;
	}
}

/* Squared error of the texels that count (mask bit t) under endpoints a0, a1; with
 * idx non-NULL, each texel's nearest index (ties: the lower). */
static unsigned bc4_error(const uint8_t val[16], unsigned mask, unsigned a0, unsigned a1,
			  unsigned idx[16])
{
	unsigned pal[8], total = 0;
	bc4_palette(a0, a1, pal);
	for (unsigned t = 0; t < 16; t++) {
		unsigned best = 0, best_err = ~0u;
		for (unsigned i = 0; i < 8; i++) {
			int d = (int)val[t] - (int)pal[i];
			if ((unsigned)(d * d) < best_err) {
				best_err = (unsigned)(d * d);
				best = i;
			}
		}
		if (idx)
			idx[t] = best;
		if (mask >> t & 1)
			total += best_err;
	}
	return total;
}

static unsigned clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v;
}

/* Best pair in one mode: high endpoint near hi, low near lo; six_mode stores the low
 * one first (a0 <= a1: four steps, then 0 and 255). */
static void bc4_search(const uint8_t val[16], unsigned mask, int lo, int hi, int six_mode,
		       unsigned *best_a0, unsigned *best_a1, unsigned *best_err)
{
	for (int h = hi + WINDOW_OUT; h >= hi - WINDOW_IN; h--)
		for (int l = lo - WINDOW_OUT; l <= lo + WINDOW_IN; l++) {
			unsigned ch = clamp255(h), cl = clamp255(l);
			unsigned a0 = six_mode ? cl : ch, a1 = six_mode ? ch : cl;
			if (six_mode ? a0 > a1 : a0 <= a1)
				continue;
			unsigned e = bc4_error(val, mask, a0, a1, NULL);
			if (e < *best_err) {
				*best_err = e;
				*best_a0 = a0;
				*best_a1 = a1;
				if (e == 0)
					return;
			}
		}
}

/* One BC4 block for 16 values (mask: the texels inside the image). */
static void bc4_encode_block(const uint8_t val[16], unsigned mask, uint8_t out[8])
{
	int lo = 255, hi = 0, lo6 = 255, hi6 = 0;
	for (unsigned t = 0; t < 16; t++) {
		if (!(mask >> t & 1))
			continue;
		lo = val[t] < lo ? val[t] : lo;
		hi = val[t] > hi ? val[t] : hi;
		/* The six-value mode holds 0 and 255 itself: its endpoints span the rest. */
		if (val[t] != 0 && val[t] != 255) {
			lo6 = val[t] < lo6 ? val[t] : lo6;
			hi6 = val[t] > hi6 ? val[t] : hi6;
		}
	}
	if (lo6 > hi6)
		lo6 = hi6 = lo;
	unsigned a0 = 0, a1 = 0, err = ~0u, idx[16];
	bc4_search(val, mask, lo, hi, 0, &a0, &a1, &err);
	if (err)
		bc4_search(val, mask, lo6, hi6, 1, &a0, &a1, &err);
	bc4_error(val, mask, a0, a1, idx);
	uint64_t bits = 0;
	for (int t = 15; t >= 0; t--)
		bits = bits << 3 | idx[t];
	out[0] = (uint8_t)a0;
	out[1] = (uint8_t)a1;
	for (unsigned i = 2; i < 8; i++, bits >>= 8)
		out[i] = (uint8_t)bits;
}

unsigned nm_bcn_gather(const uint8_t *rgba, unsigned w, unsigned h, unsigned x0, unsigned y0,
		       uint8_t out[64])
{
	unsigned mask = 0;
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			unsigned sx = x0 + x, sy = y0 + y;
			if (sx < w && sy < h)
				mask |= 1u << (y * 4 + x);
			sx = sx < w ? sx : w - 1;
			sy = sy < h ? sy : h - 1;
			memcpy(out + 4 * (y * 4 + x), rgba + ((size_t)sy * w + sx) * 4, 4);
		}
	return mask;
}

static void encode_block(nm_bcn_format f, const uint8_t texels[64], unsigned mask,
			 uint8_t *out)
{
	if (f <= NM_BC3) {
		nm_squish_block(f, texels, mask, out);
		return;
	}
	for (unsigned c = 0; c < (f == NM_BC5 ? 2u : 1u); c++) {
		uint8_t val[16];
		for (unsigned t = 0; t < 16; t++)
			val[t] = texels[4 * t + c];
		bc4_encode_block(val, mask, out + 8 * c);
	}
}

const char *nm_bcn_no_encoder(nm_bcn_format f)
{
	if (f == NM_BC7)
		return "BC7 has no encoder here (libsquish has none, and the project writes "
		       "none of its own)";
	return nm_bcn_block_bytes(f) ? NULL : "unknown BCn format";
}

nm_status nm_bcn_encode(nm_bcn_format f, const uint8_t *rgba, unsigned w, unsigned h,
			uint8_t *dst, size_t dst_len)
{
	if (f == NM_BC7)
		return NM_E_UNSUPPORTED;
	size_t bytes = nm_bcn_block_bytes(f);
	unsigned bxs = (w + 3) / 4, bys = (h + 3) / 4;
	if (!bytes || !w || !h || w > 65535 || h > 65535 || !rgba || !dst ||
	    dst_len < (size_t)bxs * bys * bytes)
		return NM_E_INVAL;
	for (unsigned by = 0; by < bys; by++)
		for (unsigned bx = 0; bx < bxs; bx++) {
			uint8_t texels[64];
			unsigned mask = nm_bcn_gather(rgba, w, h, bx * 4, by * 4, texels);
			encode_block(f, texels, mask, dst);
			dst += bytes;
		}
	return NM_OK;
}
