/* Nintendo "CX" LZ77, LZ10 and LZ11 (GBA, DS, 3DS; FORMATS.md 4.9). Header: a type byte
 * (0x10 LZ10, 0x11 LZ11) and a u24le decompressed size; a size of 0 is followed by a
 * u32le size (8 header bytes). Then groups of 8 tokens behind a flag byte read from its
 * top bit. Bit 0: one literal byte. Bit 1: a back-reference, distance = 12 bits + 1:
 *   LZ10  b0 b1: length (b0 >> 4) + 3, distance (b0 & 15) << 8 | b1
 *   LZ11  the top nibble of b0 picks the form:
 *         >= 2   b0 b1:        length nibble + 1 (3..16)
 *         0      b0 b1 b2:     length 8 bits + 0x11 (17..272)
 *         1      b0 b1 b2 b3:  length 16 bits + 0x111 (273..65808)
 *         the length's bits follow the nibble; the last 12 bits are the distance. */
#ifndef NM_CODEC_LZ_CX_H
#define NM_CODEC_LZ_CX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

typedef enum nm_lz_cx_variant { NM_LZ10 = 0x10, NM_LZ11 = 0x11 } nm_lz_cx_variant;

/* Every function here also takes the stream behind an "LZ77" tag (DS and Wii games
 * store it so); nm_lz_cx_tag_len: 4 when src starts with that tag, else 0. */
size_t nm_lz_cx_tag_len(const uint8_t *src, size_t len);

/* The type byte is all the magic there is, so this also wants a nonzero size and a
 * first token that is a literal (a back-reference cannot come first), where head holds
 * them. */
bool nm_lz_cx_probe(const uint8_t *head, size_t len);

/* The announced size (either variant: the first byte says which); NM_E_FORMAT when src
 * is neither or is too short for its header. nm_lz_cx_variant_of: which one (the type
 * byte), once the header is known to be good. */
nm_status nm_lz_cx_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			  nm_error *err);
nm_lz_cx_variant nm_lz_cx_variant_of(const uint8_t *src, size_t len);

/* As nm_yaz0_decode, for LZ10 and LZ11. */
nm_status nm_lz_cx_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			  const char *name, nm_error *err, size_t *done);

/* The most input bytes (header included) decoding n output bytes can read. */
uint64_t nm_lz_cx_input_bound(uint64_t n);

/* A stream of src in the variant (fixtures, apply; the cheapest parse, nm_lz_parse):
 * literals and every reference form the variant has, overlapping copies; the 8-byte
 * header when len is 0 or needs more than 24 bits. */
nm_status nm_lz_cx_encode(nm_lz_cx_variant v, const uint8_t *src, size_t len, nm_out *out);

#endif
