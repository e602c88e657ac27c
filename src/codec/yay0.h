/* Yay0 (N64, GameCube; FORMATS.md 3.8): Yaz0's tokens in three streams. Header 16 bytes:
 * "Yay0", u32be decompressed size, u32be offset of the link stream, u32be offset of the
 * chunk stream (from the start of the header). Flags from 0x10, read from the top bit
 * (the encoder writes them as u32be words). Bit 1: one literal byte from the chunk
 * stream. Bit 0: a u16be link, distance (v & 0xFFF) + 1, length (v >> 12) + 2, or when
 * v >> 12 is 0 the next chunk byte + 0x12. */
#ifndef NM_CODEC_YAY0_H
#define NM_CODEC_YAY0_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

#define NM_YAY0_HEADER_LEN 16u

bool nm_yay0_probe(const uint8_t *head, size_t len);

/* The announced decompressed size; NM_E_FORMAT when src is not Yay0 or is too short for
 * its header. */
nm_status nm_yay0_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			 nm_error *err);

/* As nm_yaz0_decode: the first dst_len bytes, every read of each stream bounds-checked
 * against src_len, NM_E_FORMAT naming the input offset. */
nm_status nm_yay0_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			 const char *name, nm_error *err, size_t *done);

/* Yay0's streams sit where its header puts them, so no bound follows from n alone:
 * UINT64_MAX (read the whole stream). nm_yay0_prefix_bound gives one from the header. */
uint64_t nm_yay0_input_bound(uint64_t n);

/* The most input bytes decoding n output bytes can read, from the 16 header bytes. */
uint64_t nm_yay0_prefix_bound(const uint8_t head[NM_YAY0_HEADER_LEN], uint64_t n);

/* A Yay0 stream of src into out (fixtures, apply; the cheapest parse, nm_lz_parse):
 * flags as u32be words, then the links, then the chunks; literals, short and long
 * links, overlapping copies. */
nm_status nm_yay0_encode(const uint8_t *src, size_t len, nm_out *out);

#endif
