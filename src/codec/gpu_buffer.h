/* One Tropical Freeze GPU buffer: a big-endian u32 codec tag, then its stream
 * (FORMATS.md 6.5 and 9). Wii U files use tags 0-3, Switch files 0-13:
 *
 *   0x00 stored           0x01-0x03 LZSS, units 1/2/4, 2-byte references
 *   0x04-0x06 the same over the arithmetic-coded byte stream
 *   0x07-0x09 LZSS, units 1/2/4, 3-byte references
 *   0x0a-0x0c the same over the arithmetic-coded byte stream
 *   0x0d zlib
 *
 * zlib and arithmetic-coded streams end by themselves; stored and plain LZSS streams
 * need their decompressed size (or must use up what they are given). */
#ifndef NM_CODEC_GPU_BUFFER_H
#define NM_CODEC_GPU_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

#define NM_GPU_TAG_LEN 4
#define NM_GPU_TAG_STORED 0x00u
#define NM_GPU_TAG_ZLIB 0x0du
#define NM_GPU_TAG_COUNT 14u

typedef struct nm_gpu_codec {
	uint32_t tag;
	const char *label;    /* short enum name for text files: "LZSS32_LONG_ARITH" */
	const char *name;     /* for messages: "LZSS, 4-byte units, 3-byte references, ..." */
	unsigned unit;        /* LZSS unit; 0 for stored and zlib */
	bool long_refs;
	bool arith;
	bool ends_itself;     /* zlib and arithmetic-coded streams */
	uint64_t max_ratio;   /* no stream of n bytes decodes to more than n * max_ratio + 64 */
} nm_gpu_codec;

/* The codec of the 4-byte tag at p, or NULL for an unknown tag. */
const nm_gpu_codec *nm_gpu_codec_of(const uint8_t p[NM_GPU_TAG_LEN]);
const nm_gpu_codec *nm_gpu_codec_by_tag(uint32_t tag);

/* Decode the buffer at src (tag included, src_len bytes available: the buffer and
 * possibly what follows it) to exactly dst_len bytes. *used: the bytes the buffer
 * occupies, tag included (stored: 4 + dst_len; LZSS: up to its last item; arithmetic:
 * through its end symbol and padding; zlib: through its trailer). NM_E_FORMAT if the
 * stream is broken, shorter than dst_len, or (self-ending streams) longer. dst may
 * be NULL: the same checks, nothing kept (where a buffer ends, without its bytes). */
nm_status nm_gpu_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			size_t *used);

/* The first dst_len bytes of the buffer at src (src_len bytes available), decoding no
 * further: for a read of the start of a file made from it. Unlike nm_gpu_decode, the
 * stream past them is not checked (a whole decode may still find it broken or of
 * another length). NM_E_FORMAT if it breaks or ends before dst_len bytes. */
nm_status nm_gpu_decode_prefix(const uint8_t *src, size_t src_len, uint8_t *dst,
			       size_t dst_len);

/* Size a buffer without keeping its bytes: a zlib or arithmetic-coded stream by its own
 * end; a stored or plain LZSS stream by using up src_len (the last buffer of a chunk).
 * NM_E_LIMIT past max bytes. */
nm_status nm_gpu_measure(const uint8_t *src, size_t src_len, size_t max, size_t *out_len,
			 size_t *used);

/* Encode src as a buffer with this tag (fixtures, tests, benchmarks): malloc'd. */
nm_status nm_gpu_encode(uint32_t tag, const uint8_t *src, size_t len, uint8_t **out,
			size_t *out_len);

#endif
