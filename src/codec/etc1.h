/* ETC1 (Ericsson Texture Compression) 4x4 block decoder. Knows nothing about
 * how a container tiles or byte-orders its blocks; see FORMATS.md section 1.4. */
#ifndef NM_CODEC_ETC1_H
#define NM_CODEC_ETC1_H

#include <stdint.h>

#define NM_ETC1_BLOCK_BYTES 8

/* The 64-bit block word as the ETC1 specification numbers its bits (bit 63 =
 * first bit of the base colours, bits 31..0 = pixel selectors). Containers store
 * it either big-endian (KTX, PKM) or little-endian (PICA200); these build it. */
uint64_t nm_etc1_word_be(const uint8_t b[NM_ETC1_BLOCK_BYTES]);
uint64_t nm_etc1_word_le(const uint8_t b[NM_ETC1_BLOCK_BYTES]);

/* Decode one block into out[y][x] = {R, G, B, A}; A is always 255, for the
 * caller to overwrite if its format carries alpha separately. A differential
 * block whose base + delta leaves 0..31 (undefined in ETC1, reused by ETC2
 * for other modes) wraps to 5 bits. */
void nm_etc1_decode_block(uint64_t word, uint8_t out[4][4][4]);

#endif
