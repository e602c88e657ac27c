/* PICA200 (Nintendo 3DS) texture decoding and encoding: 8x8 Morton-tiled texels,
 * ETC1/ETC1A4. Pure buffer <-> RGBA8 functions; see FORMATS.md section 1. */
#ifndef NM_CODEC_PICA_H
#define NM_CODEC_PICA_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

typedef enum nm_pica_format {
	NM_PICA_RGBA8 = 0, NM_PICA_RGB8, NM_PICA_RGBA5551, NM_PICA_RGB565,
	NM_PICA_RGBA4, NM_PICA_LA8, NM_PICA_HILO8, NM_PICA_L8, NM_PICA_A8,
	NM_PICA_LA4, NM_PICA_L4, NM_PICA_A4, NM_PICA_ETC1, NM_PICA_ETC1A4,
	NM_PICA_FORMAT_COUNT,
	NM_PICA_UNKNOWN = -1
} nm_pica_format;

/* CMB stores a GL-style code ((data type << 16) | pixel format). */
nm_pica_format nm_pica_format_from_gl(uint32_t gl_code);
const char *nm_pica_format_name(nm_pica_format f);   /* "RGBA8", "ETC1A4", ...; NULL if unknown */
unsigned nm_pica_bits_per_pixel(nm_pica_format f);   /* 0 for unknown */

/* Bytes one mip level of w x h occupies; 0 if w or h is not a positive multiple of 8
 * (PICA's tile granularity), either exceeds NM_DIMENSION_MAX (16384), or the format
 * is unknown. */
size_t nm_pica_level_size(nm_pica_format f, unsigned w, unsigned h);

/* Decode one level into rgba (w*h*4 bytes, row 0 = first tile strip, no flip).
 * src_len must be >= nm_pica_level_size(); otherwise NM_E_FORMAT (also for bad
 * dimensions or an unknown format). NM_E_INVAL if rgba is NULL. */
nm_status nm_pica_decode(nm_pica_format f, const uint8_t *src, size_t src_len,
			 unsigned w, unsigned h, uint8_t *rgba);

/* The same, the rows of tiles split over at most threads threads (lib/bands.h) when the
 * level is large enough to gain from it; the same bytes whatever threads is. */
nm_status nm_pica_decode_threads(nm_pica_format f, const uint8_t *src, size_t src_len,
				 unsigned w, unsigned h, uint8_t *rgba, unsigned threads);

/* Encode one w x h level of RGBA8 (as nm_pica_decode gives it) into dst, in the same
 * tiles and byte order: nm_pica_level_size() bytes. Direct formats pack each channel's
 * nearest code under the decoder's bit replication; L formats store the BT.601 luma
 * of RGB (a grey texel keeps its value), A formats the alpha, HILO8 R and G. So a level
 * nm_pica_decode made encodes back to the same bytes. ETC1 and ETC1A4: Android's
 * libETC1 encoder per 4x4 block (every texel weighed, transparent or not), ETC1A4's
 * alpha nibbles rounded to nearest. Deterministic; allocates nothing. NM_E_INVAL for
 * NULL buffers, a dst shorter than the level, or what nm_pica_level_size refuses. */
nm_status nm_pica_encode(nm_pica_format f, const uint8_t *rgba, unsigned w, unsigned h,
			 uint8_t *dst, size_t dst_len);

#endif
