/* Yaz0 (GameCube/Wii/Switch; FORMATS.md 3.8): a 16-byte header ("Yaz0", u32be
 * decompressed size, 8 bytes the decoder ignores), then groups of 8 tokens behind a flag
 * byte read from its top bit. Bit 1: one literal byte. Bit 0: a back-reference b0 b1,
 * distance ((b0 & 15) << 8 | b1) + 1; length (b0 >> 4) + 2, or when b0 >> 4 is 0 a
 * third byte + 0x12 (so 3..0x111 bytes). */
#ifndef NM_CODEC_YAZ0_H
#define NM_CODEC_YAZ0_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"
#include "codec/lz_common.h"

#define NM_YAZ0_HEADER_LEN 16u

/* The magic, "Yaz0", at head (len bytes of it). */
bool nm_yaz0_probe(const uint8_t *head, size_t len);

/* The decompressed size the header announces; NM_E_FORMAT (naming name and offset)
 * when src is not a Yaz0 stream or is too short for its header. */
nm_status nm_yaz0_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			 nm_error *err);

/* Decode the first dst_len bytes of the output (dst_len at most the announced size: a
 * prefix is fine) from the stream src[0..src_len), header included. NM_E_FORMAT naming
 * the input offset when the stream ends early or a back-reference reaches before the
 * start of the output; NM_E_INVAL for dst_len past the announced size. Allocates
 * nothing; reads and writes only inside the two buffers; every token read produces
 * output, so the loop ends. Bytes after the last token needed are not read. *done (when
 * non-NULL) gets how many output bytes were decoded: dst_len, or on NM_E_FORMAT those
 * before the failure, every one of them right. */
nm_status nm_yaz0_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			 const char *name, nm_error *err, size_t *done);

/* The most input bytes (header included) decoding n output bytes can read. */
uint64_t nm_yaz0_input_bound(uint64_t n);

/* A Yaz0 stream of src[0..len) into out (fixtures, apply): literals, 2-byte and 3-byte
 * back-references, overlapping copies, from the cheapest parse (nm_lz_parse). NM_E_INVAL
 * past 4 GiB - 1 (the size field), NM_E_LIMIT when the parse's memory passes out's
 * max_file_size, else nm_out_status(out). */
/* What Yaz0's tokens cost (Yay0's are the same tokens in three streams). */
extern const nm_lz_costs nm_yaz0_costs;
nm_status nm_yaz0_encode(const uint8_t *src, size_t len, nm_out *out);

#endif
