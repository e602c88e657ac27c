/* BC1-BC5 and BC7 (see bcn.h): BC1-BC3 by libsquish, BC4 and BC5 here, BC7 in bc7.c. */
#include <string.h>
#include "codec/bcn.h"

unsigned nm_bcn_block_bytes(nm_bcn_format f)
{
	switch (f) {
	case NM_BC1: case NM_BC4: return 8;
	case NM_BC2: case NM_BC3: case NM_BC5: case NM_BC7: return 16;
	}
	return 0;
}

/* Two 8-bit endpoints, then 16 three-bit indices, little-endian from bit 16. With
 * a0 > a1, six values between them; otherwise four, then 0 and 255. */
void nm_bc4_block(const uint8_t block[8], uint8_t out[16])
{
	unsigned a0 = block[0], a1 = block[1];
	uint8_t v[8] = { (uint8_t)a0, (uint8_t)a1 };
	if (a0 > a1) {
		for (unsigned i = 1; i <= 6; i++)
			v[1 + i] = (uint8_t)(((7 - i) * a0 + i * a1) / 7);
	} else {
		for (unsigned i = 1; i <= 4; i++)
			v[1 + i] = (uint8_t)(((5 - i) * a0 + i * a1) / 5);
		v[6] = 0;
		v[7] = 255;
	}
	uint64_t bits = 0;
	for (int i = 7; i >= 2; i--)
		bits = bits << 8 | block[i];
	for (int t = 0; t < 16; t++, bits >>= 3)
		out[t] = v[bits & 7];
}

/* One block of a format decoded here into its 16 texels, RGBA row by row. */
static void block_rgba(nm_bcn_format f, const uint8_t *blk, uint8_t out[64])
{
	if (f == NM_BC7) {
		nm_bc7_block(blk, out);
		return;
	}
	uint8_t r[16], g[16];
	nm_bc4_block(blk, r);
	if (f == NM_BC5)
		nm_bc4_block(blk + 8, g);
	for (unsigned t = 0; t < 16; t++) {
		uint8_t *px = out + 4 * t;
		px[0] = r[t];
		px[1] = f == NM_BC5 ? g[t] : r[t];
		px[2] = f == NM_BC5 ? 0 : r[t];
		px[3] = 255;
	}
}

static void decode_blocks(nm_bcn_format f, const uint8_t *src, unsigned w, unsigned h,
			  uint8_t *rgba)
{
	unsigned bx_count = (w + 3) / 4, by_count = (h + 3) / 4;
	size_t block_bytes = nm_bcn_block_bytes(f);
	for (unsigned by = 0; by < by_count; by++)
		for (unsigned bx = 0; bx < bx_count; bx++) {
			uint8_t texels[64];
			block_rgba(f, src + ((size_t)by * bx_count + bx) * block_bytes, texels);
			/* The last row and column of blocks may hang over the image. */
			unsigned cols = w - bx * 4 < 4 ? w - bx * 4 : 4;
			for (unsigned y = 0; y < 4 && by * 4 + y < h; y++)
				memcpy(rgba + ((size_t)(by * 4 + y) * w + bx * 4) * 4, texels + 16 * y,
				       4 * cols);
		}
}

nm_status nm_bcn_decode(nm_bcn_format f, const uint8_t *src, size_t src_len, unsigned w,
			unsigned h, uint8_t *rgba)
{
	if (!nm_bcn_block_bytes(f) || !w || !h || w > 65535 || h > 65535 || !src || !rgba)
		return NM_E_INVAL;
	if (f <= NM_BC3)
		return nm_squish_decode(f, src, src_len, w, h, rgba);
	if (src_len < (size_t)((w + 3) / 4) * ((h + 3) / 4) * nm_bcn_block_bytes(f))
		return NM_E_FORMAT;
	decode_blocks(f, src, w, h, rgba);
	return NM_OK;
}
