/* ASTC (LDR, 2D blocks of 4x4 up to 12x12 texels) through ARM's reference codec,
 * libastcenc (Debian libastcenc-dev), into RGBA8.
 *
 * libastcenc decodes each block: block mode, partitions, colour endpoint modes and
 * their unquantization, the weight grid and its infill, void-extent and error blocks.
 * We take its result per block (astcenc_get_block_info) and do only the last step, the
 * interpolation of each texel between its two endpoints, in integers as the ASTC
 * specification writes it: C = (E0 * (64 - w) + E1 * w + 32) >> 6 with 16-bit
 * endpoints E = e * 257, then 8 bits = (C * 255 + 32768) >> 16. Why not
 * astcenc_decompress_image: libastcenc 4.2 (Debian 12) turns every texel into an FP16
 * value before writing 8 bits (the specification's decode_float16 mode), which drops
 * the low bits of C; about 1% of the samples of the corpus textures then differ by one
 * from a decoder that keeps C exact, as the exporter of the five corpus references
 * does (tests/test_txtr.c compares all five pixel for pixel).
 *
 * sRGB formats use the sRGB profile, whose interpolation runs on the 8-bit endpoints;
 * the result is the stored (sRGB-encoded) value: no conversion to linear. Void-extent
 * blocks give their UNORM16 colour converted the same way (sRGB: its top 8 bits). Error
 * blocks (and FP16 void-extent blocks, which the LDR profiles do not decode) are
 * magenta, as the specification says.
 *
 * Memory: libastcenc allocates a context of about 33 MiB whatever the texture (its
 * tables are sized for the largest block; what it touches, 4 to 17 MiB, grows with the
 * block). A context is kept per block size and profile in use, up to three (building
 * one costs 5-45 ms), and shared by every decode of that size at once; so a process
 * holds at most three. nm_astc_decode refuses with NM_E_LIMIT, before libastcenc
 * allocates anything, when max_file_size is below NM_ASTC_CONTEXT_BYTES. */
#ifndef NM_CODEC_ASTC_H
#define NM_CODEC_ASTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/options.h"
#include "lib/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NM_ASTC_BLOCK_BYTES 16u
/* What libastcenc 4.2 allocates for a decoding context (32.6 MiB, measured by
 * tests/test_codec_astc.c for every block size), rounded up. */
#define NM_ASTC_CONTEXT_BYTES (34u << 20)

/* One of the 14 2D block sizes of the specification (4x4 ... 12x12)? */
bool nm_astc_block_size_ok(unsigned bw, unsigned bh);

/* Decode w x h texels: src holds ceil(w / bw) x ceil(h / bh) blocks of 16 bytes, row by
 * row (NM_E_FORMAT if src_len is shorter); rgba gets w * h * 4 bytes. NM_E_INVAL for a
 * block size the specification does not have or a zero size, NM_E_LIMIT when opt's
 * max_file_size is below NM_ASTC_CONTEXT_BYTES, NM_E_NOMEM / NM_E_UNSUPPORTED when
 * libastcenc cannot make a context or does not give block information. */
nm_status nm_astc_decode(const nm_options *opt, unsigned bw, unsigned bh, bool srgb,
			 const uint8_t *src, size_t src_len, unsigned w, unsigned h,
			 uint8_t *rgba);

/* The same, the rows of blocks split over at most threads threads (lib/bands.h) when
 * the texture is large enough to gain from it; the same bytes whatever threads is. */
nm_status nm_astc_decode_threads(const nm_options *opt, unsigned threads, unsigned bw,
				 unsigned bh, bool srgb, const uint8_t *src, size_t src_len,
				 unsigned w, unsigned h, uint8_t *rgba);

/* Encode w x h RGBA8 texels with libastcenc's compressor (fast preset, LDR), for
 * fixtures, tests and the benchmark: dst gets the blocks, row by row. */
nm_status nm_astc_encode(unsigned bw, unsigned bh, const uint8_t *rgba, unsigned w,
			 unsigned h, uint8_t *dst, size_t dst_len);

/* Encode one w x h level of RGBA8 for a texture (TXTR): libastcenc's compressor with
 * its medium preset, fixed, one thread, so the same texels give the same bytes; the
 * sRGB profile for an sRGB format, as nm_astc_decode decodes it. dst gets ceil(w / bw)
 * x ceil(h / bh) blocks, row by row. Its context is as large as a decoding one (32.6
 * MiB with libastcenc 4.2 for every block size and both profiles, measured with
 * mallinfo2, and compressing allocates nothing more): NM_E_LIMIT before libastcenc
 * allocates anything when opt's max_file_size is below NM_ASTC_CONTEXT_BYTES; NM_E_INVAL for a block size
 * the specification lacks, a zero size, NULL buffers or a short dst; NM_E_NOMEM. */
nm_status nm_astc_encode_level(const nm_options *opt, unsigned bw, unsigned bh, bool srgb,
			       const uint8_t *rgba, unsigned w, unsigned h, uint8_t *dst,
			       size_t dst_len);

/* Start building the decoding context for this block size and profile on a thread of
 * its own, unless one is kept or being built: a producer about to decode calls it before
 * it fetches its blocks (a TXTR inflating its surface), so that the milliseconds of both
 * overlap on two CPUs; the first decode of that size waits for the context instead of
 * building another. Does nothing when opt's max_file_size refuses a context, the block
 * size is not one of the specification's, every slot is in use, or no thread starts
 * (the decode then builds it as before). */
void nm_astc_prepare(const nm_options *opt, unsigned bw, unsigned bh, bool srgb);

/* libastcenc's own decode of the same blocks (its 8-bit output, through FP16), for the
 * tests that compare the two. */
nm_status nm_astc_decode_reference(unsigned bw, unsigned bh, const uint8_t *src,
				   size_t src_len, unsigned w, unsigned h, uint8_t *rgba);

/* Decoding contexts built so far (tests). The decoders keep one per block size and
 * profile, up to three, shared by every decode of that size at once; a fourth size
 * rebuilds the least recently used one not in use. */
unsigned long nm_astc_contexts_made(void);

/* Free the cached contexts (tools and tests that measure memory): the decoding ones not
 * in use, and the compressing one nm_astc_encode and nm_astc_encode_level keep after
 * their first call (one at a time, for the last block size, profile and preset asked
 * for). */
void nm_astc_release(void);

#ifdef __cplusplus
}
#endif

#endif
