/* zlib streams with hard output limits (Tropical Freeze Switch GPU buffers). */
#ifndef NM_CODEC_INFLATE_H
#define NM_CODEC_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

/* Inflate one zlib stream from src. Output goes to dst (capacity dst_cap); never
 * writes more. *out_len receives the bytes produced, *in_used the bytes of src the
 * stream occupied (so the next stream starts at src + *in_used).
 * NM_E_LIMIT if the stream would produce more than dst_cap; NM_E_FORMAT if it is
 * corrupt or ends before its end marker. */
nm_status nm_inflate_stream(const uint8_t *src, size_t src_len,
			    uint8_t *dst, size_t dst_cap,
			    size_t *out_len, size_t *in_used);

/* Measure a stream without keeping the output: total inflated size (bounded by
 * limit, else NM_E_LIMIT) and compressed length. */
nm_status nm_inflate_measure(const uint8_t *src, size_t src_len, size_t limit,
			     size_t *out_len, size_t *in_used);

#endif
