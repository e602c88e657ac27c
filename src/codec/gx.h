/* GX (GameCube/Wii) texture decoding: block-tiled texels, palettes, CMPR.
 * Pure buffer -> RGBA8 functions; see FORMATS.md section 2. All input big-endian. */
#ifndef NM_CODEC_GX_H
#define NM_CODEC_GX_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

typedef enum nm_gx_format {
	NM_GX_I4 = 0x0, NM_GX_I8 = 0x1, NM_GX_IA4 = 0x2, NM_GX_IA8 = 0x3,
	NM_GX_RGB565 = 0x4, NM_GX_RGB5A3 = 0x5, NM_GX_RGBA8 = 0x6,
	NM_GX_C4 = 0x8, NM_GX_C8 = 0x9, NM_GX_C14X2 = 0xA, NM_GX_CMPR = 0xE
} nm_gx_format;

typedef enum nm_gx_palette_format {
	NM_GX_PAL_IA8 = 0, NM_GX_PAL_RGB565 = 1, NM_GX_PAL_RGB5A3 = 2
} nm_gx_palette_format;

const char *nm_gx_format_name(unsigned fmt);          /* NULL for an unknown id */
const char *nm_gx_palette_format_name(unsigned pfmt); /* NULL for an unknown id */
int nm_gx_format_is_indexed(unsigned fmt);            /* C4, C8, C14X2 */

/* Bytes of one w x h level (blocks padded); 0 for an unknown format or w/h of 0
 * (or above NM_DIMENSION_MAX, 16384, which also keeps the result far from size_t
 * overflow). */
size_t nm_gx_level_size(unsigned fmt, unsigned w, unsigned h);

/* Decode one level into rgba (w*h*4). For indexed formats, palette points at
 * palette_count big-endian u16 entries; indices >= palette_count decode as
 * transparent black. NM_E_FORMAT if src_len < nm_gx_level_size() or the format
 * or palette format is unknown.
 * Details (gx.c): I4/I8 give alpha = intensity, as GX samples them. w and h
 * must be 1..NM_DIMENSION_MAX (else NM_E_FORMAT). palette_fmt is checked only for
 * indexed formats, since direct-colour BTIs may carry any value there. NULL src or
 * rgba, or a NULL palette with palette_count > 0, is NM_E_INVAL. On error
 * rgba is left untouched. */
nm_status nm_gx_decode(unsigned fmt, const uint8_t *src, size_t src_len,
		       unsigned w, unsigned h,
		       const uint8_t *palette, size_t palette_count, unsigned palette_fmt,
		       uint8_t *rgba);

#endif
