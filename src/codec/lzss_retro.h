/* Retro Studios LZSS (Tropical Freeze GPU buffers, FORMATS.md 6.5 and 9).
 *
 * Two reference forms share one item layout (groups of 8 items behind a flag byte read
 * MSB first; a 0 flag is one literal unit of 1, 2 or 4 bytes):
 *  - short references (Wii U modes 1-3, Switch tags 1-3 and 4-6): b0 b1, count =
 *    (b0 >> 4) + bias units (bias 3/2/1 for units 1/2/4), distance = (b0 & 15) << 8 | b1
 *    units;
 *  - long references (Switch tags 7-9 and 10-12): a b c, count = a + 1 units, distance
 *    = b << 8 | c units.
 * The item bytes come from memory or from the arithmetic-coded stream (arith_retro.h). */
#ifndef NM_CODEC_LZSS_RETRO_H
#define NM_CODEC_LZSS_RETRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "codec/arith_retro.h"
#include "lib/status.h"

typedef struct nm_lzss_kind {
	unsigned unit;   /* 1, 2 or 4 bytes */
	bool long_refs;  /* 3-byte references */
} nm_lzss_kind;

/* Where the item bytes come from: p[0..len) in memory, or ar if it is not NULL. */
typedef struct nm_lzss_src {
	const uint8_t *p;
	size_t len, pos;
	nm_arith_decoder *ar;
} nm_lzss_src;

/* Decode items into dst.
 *  - until_end false: stop once dst_len bytes are out (an item that overshoots is cut
 *    at dst_len); NM_E_FORMAT if the source ends first.
 *  - until_end true: go on until the source ends at an item boundary (memory: no byte
 *    left; arithmetic: the end symbol); NM_E_LIMIT if that would pass dst_len.
 * dst may be NULL to only count (references are still checked). Never writes past
 * dst_len. NM_E_FORMAT for distance 0, a reference before the start of the output, or a
 * source that ends inside an item. *out_len: bytes produced. */
nm_status nm_lzss_run(nm_lzss_kind k, nm_lzss_src *s, uint8_t *dst, size_t dst_len,
		      bool until_end, size_t *out_len);

/* The Wii U form: a 4-byte header (mode 0 stored, 1/2/3 short references with units of
 * 1/2/4 bytes; bytes 1..3 zero), then the items; decodes exactly dst_len bytes.
 * NM_E_FORMAT for a bad header or a stream that ends before dst_len bytes. */
nm_status nm_lzss_retro_decompress(const uint8_t *src, size_t src_len,
				   uint8_t *dst, size_t dst_len);

/* Compress (for fixtures and tests): the items alone, no header, malloc'd. A greedy
 * matcher is enough. The Wii U form with its header is nm_gpu_encode with tags 0..3. */
nm_status nm_lzss_compress(nm_lzss_kind k, const uint8_t *src, size_t src_len,
			   uint8_t **out, size_t *out_len);

#endif
