/* BC1-BC5 and BC7 (DXT1/3/5, RGTC1/2, BPTC: 4x4 blocks of 8 or 16 bytes) into RGBA8.
 *
 * BC1-BC3 go through libsquish (Debian libsquish-dev). libsquish 1.15 also names BC4
 * and BC5, but only its compressor handles them: its decompressor reads any block as
 * BC1. BC4 and BC5 are therefore ours (bcn.c): each channel is one BC3 alpha block, and
 * tests/test_codec_bcn.c checks ours against libsquish's BC3 alpha bit for bit (every
 * endpoint pair, both modes, every index). Like libsquish, the interpolated values are
 * truncated ((6 * a0 + 1 * a1) / 7...), not rounded.
 *
 * Output: BC1 (with its transparent black), BC2, BC3 as RGBA; BC4 as grey (r, r, r,
 * 255); BC5 as (r, g, 0, 255). Only the UNORM variants: SNORM BC4/BC5 are not decoded.
 *
 * BC7 is ours too (bc7.c; Debian has no C library that decodes it): RGBA, checked bit for
 * bit against Pillow's decoder by tests/bc7.sh. BC6H (half floats) is not decoded.
 *
 * Encoding (bcn_encode.c): BC1-BC3 by libsquish, BC4/BC5 ours, BC7 refused. */
#ifndef NM_CODEC_BCN_H
#define NM_CODEC_BCN_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nm_bcn_format { NM_BC1, NM_BC2, NM_BC3, NM_BC4, NM_BC5, NM_BC7 } nm_bcn_format;

/* 8 for BC1 and BC4, 16 for the others; 0 for an unknown format. */
unsigned nm_bcn_block_bytes(nm_bcn_format f);

/* Decode w x h texels: src holds ceil(w / 4) x ceil(h / 4) blocks, row by row
 * (NM_E_FORMAT if src_len is shorter); rgba gets w * h * 4 bytes. NM_E_INVAL for an
 * unknown format, a zero size or a side above 65535. */
nm_status nm_bcn_decode(nm_bcn_format f, const uint8_t *src, size_t src_len, unsigned w,
			unsigned h, uint8_t *rgba);

/* One BC4 block (a BC3 alpha block): its 16 values, row by row. */
void nm_bc4_block(const uint8_t block[8], uint8_t out[16]);

/* One BC7 block: its 16 texels, RGBA row by row (a reserved block: all 0). */
void nm_bc7_block(const uint8_t block[16], uint8_t out[64]);

/* Encode w x h RGBA8 texels into the blocks nm_bcn_decode reads (row by row, dst_len
 * at least ceil(w / 4) * ceil(h / 4) block bytes). BC1-BC3: libsquish's best fit
 * (iterative cluster fit) per block; BC4 (from R) and BC5 (R, G): ours, the endpoint
 * pair near each block's range with the least squared error under nm_bc4_block, each
 * texel its nearest index. Texels past the image's edge are left out of every fit.
 * Deterministic; allocates nothing. NM_E_UNSUPPORTED for BC7 (nm_bcn_no_encoder says
 * why), NM_E_INVAL for bad arguments or a short dst. */
nm_status nm_bcn_encode(nm_bcn_format f, const uint8_t *rgba, unsigned w, unsigned h,
			uint8_t *dst, size_t dst_len);

/* Why f cannot be encoded, naming it ("BC7 has no encoder here ..."); NULL when it can. */
const char *nm_bcn_no_encoder(nm_bcn_format f);

/* The 4x4 texels at (x0, y0) of a w x h RGBA8 image, row by row into out; past the
 * image's edge the edge texel again. Returns the mask of the texels inside (bit
 * y * 4 + x), so that no fit weighs the others (nm_bcn_encode, GX's CMPR). */
unsigned nm_bcn_gather(const uint8_t *rgba, unsigned w, unsigned h, unsigned x0, unsigned y0,
		       uint8_t out[64]);

/* One BC1-BC3 block by libsquish's iterative cluster fit: 16 texels row by row, mask
 * bit t set for the texels that count (nm_bcn_encode, GX's CMPR). */
void nm_squish_block(nm_bcn_format f, const uint8_t rgba[64], unsigned mask, uint8_t *block);

/* libsquish itself (bcn_squish.cpp): decode BC1-BC3 (the same contract as
 * nm_bcn_decode), and encode any of BC1-BC5 (fixtures, tests, the benchmark); NM_E_INVAL
 * for BC7, which it has no encoder for. */
nm_status nm_squish_decode(nm_bcn_format f, const uint8_t *src, size_t src_len, unsigned w,
			   unsigned h, uint8_t *rgba);
nm_status nm_squish_encode(nm_bcn_format f, const uint8_t *rgba, unsigned w, unsigned h,
			   uint8_t *dst, size_t dst_len);

#ifdef __cplusplus
}
#endif

#endif
