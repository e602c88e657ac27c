/* Retro Studios LZSS (Tropical Freeze GPU buffers, FORMATS.md 6.5): a 4-byte header whose
 * first byte is the mode (0 stored, 1/2/3 = 8/16/32-bit units). */
#ifndef NM_CODEC_LZSS_RETRO_H
#define NM_CODEC_LZSS_RETRO_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

/* Decompress src (header included) into exactly dst_len bytes.
 * Never writes past dst_len; NM_E_FORMAT for a bad mode, a back-reference before the
 * start of the output, or input that ends before dst_len bytes were produced. */
nm_status nm_lzss_retro_decompress(const uint8_t *src, size_t src_len,
				   uint8_t *dst, size_t dst_len);

/* Compress (for fixtures and tests): writes the 4-byte header and the stream for the
 * given mode (0..3) into a malloc'd buffer. A simple greedy matcher is enough. */
nm_status nm_lzss_retro_compress(int mode, const uint8_t *src, size_t src_len,
				 uint8_t **out, size_t *out_len);

#endif
