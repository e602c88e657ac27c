/* LzS (3DS: Majora's Mask 3D archives; FORMATS.md 4.9): Okumura's LZSS behind a 16-byte
 * header: "LzS\x01", a u32 we do not know, u32le decompressed size, u32le compressed
 * size (the bytes after the header). Groups of 8 tokens behind a flag byte read from its
 * lowest bit. Bit 1: one literal byte. Bit 0: b0 b1, a position in a 4096-byte ring
 * b0 | (b1 & 0xF0) << 4 and a length (b1 & 15) + 3. The ring starts as zeros with its
 * write position at 0xFEE; every output byte is also written to the ring. */
#ifndef NM_CODEC_LZS_H
#define NM_CODEC_LZS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

#define NM_LZS_HEADER_LEN 16u
/* Where the ring's write position starts: 4096 - 18, the longest match. */
#define NM_LZS_RING_START 0xFEEu

bool nm_lzs_probe(const uint8_t *head, size_t len);

/* The announced decompressed size; NM_E_FORMAT when src is not LzS or is too short. */
nm_status nm_lzs_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			nm_error *err);

/* As nm_yaz0_decode. The ring's zeros are part of the format, so a reference to ring
 * bytes not yet written gives zeros (real files use them), never an error. The input
 * ends at the header's compressed size when src_len holds more. No ring is kept: a ring
 * position is a distance back into dst. */
nm_status nm_lzs_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			const char *name, nm_error *err, size_t *done);

/* The most input bytes (header included) decoding n output bytes can read. */
uint64_t nm_lzs_input_bound(uint64_t n);

/* An LzS stream of src (fixtures, apply; the cheapest parse, nm_lz_parse): literals,
 * references into what was written (overlapping too) and, for zeros near the start,
 * into the ring's initial zeros. */
nm_status nm_lzs_encode(const uint8_t *src, size_t len, nm_out *out);

#endif
