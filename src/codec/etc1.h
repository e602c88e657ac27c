/* ETC1 (Ericsson Texture Compression) 4x4 block decoder. Knows nothing about
 * how a container tiles or byte-orders its blocks; see FORMATS.md section 1.4. */
#ifndef NM_CODEC_ETC1_H
#define NM_CODEC_ETC1_H

#include <stddef.h>
#include <stdint.h>

#define NM_ETC1_BLOCK_BYTES 8

/* The alpha word of a block without alpha: every nibble 15, i.e. A = 255. */
#define NM_ETC1_OPAQUE UINT64_MAX

/* The 64-bit block word as the ETC1 specification numbers its bits (bit 63 =
 * first bit of the base colours, bits 31..0 = pixel selectors). Containers store
 * it either big-endian (KTX, PKM) or little-endian (PICA200); these build it (inline:
 * compilers make each one load). */
static inline uint64_t nm_etc1_word_be(const uint8_t b[NM_ETC1_BLOCK_BYTES])
{
	return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 |
	       (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
	       (uint64_t)b[6] << 8 | b[7];
}

static inline uint64_t nm_etc1_word_le(const uint8_t b[NM_ETC1_BLOCK_BYTES])
{
	return (uint64_t)b[7] << 56 | (uint64_t)b[6] << 48 | (uint64_t)b[5] << 40 |
	       (uint64_t)b[4] << 32 | (uint64_t)b[3] << 24 | (uint64_t)b[2] << 16 |
	       (uint64_t)b[1] << 8 | b[0];
}

/* Decode one block straight into an RGBA8 image: pixel (x, y) of the block goes to
 * dst + y * stride + 4 * x as R, G, B, A. Its alpha is nibble 4x + y of alpha (the
 * order the selectors use; PICA's ETC1A4 stores it so), widened to 8 bits:
 * NM_ETC1_OPAQUE for a format without alpha. A differential block whose base + delta
 * leaves 0..31 (undefined in ETC1, reused by ETC2 for other modes) wraps to 5 bits. */
typedef void nm_etc1_decode_fn(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride);

/* The fastest kernel this build has and this CPU runs ("AVX2", "SSE2", "portable":
 * its name in *name unless NULL); all give the same bytes. Asked once per image, it
 * costs nothing per block. */
nm_etc1_decode_fn *nm_etc1_decoder(const char **name);

/* One kernel by name, NULL when this build or this CPU lacks it (tests, bench). */
nm_etc1_decode_fn *nm_etc1_decoder_named(const char *name);

/* One block with nm_etc1_decoder()'s kernel. */
void nm_etc1_decode_rgba(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride);

/* The same into out[y][x] = {R, G, B, A}, A = 255. */
void nm_etc1_decode_block(uint64_t word, uint8_t out[4][4][4]);

#endif
