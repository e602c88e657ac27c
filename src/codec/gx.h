/* GX (GameCube/Wii) texture decoding and encoding: block-tiled texels, palettes, CMPR.
 * Pure buffer <-> RGBA8 functions; see FORMATS.md section 2. All data big-endian. */
#ifndef NM_CODEC_GX_H
#define NM_CODEC_GX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/options.h"
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

/* Encode one w x h level of RGBA8 (as nm_gx_decode gives it) into dst, in the same
 * blocks and byte order: nm_gx_level_size() bytes. Deterministic.
 * - Direct formats: each channel's nearest code under the decoder's bit replication;
 *   I/IA formats store the BT.601 luma of RGB (a grey texel keeps its value; I4/I8
 *   ignore alpha, which GX derives from intensity); RGB5A3 per texel the nearer of its
 *   opaque 5:5:5 and its 4:4:4:3 form (opaque on a tie). A level nm_gx_decode made
 *   encodes back to the same bytes.
 * - CMPR: libsquish's BC1 endpoints per 4x4 sub-block, indices chosen under GX's own
 *   3/8-5/8 palette; alpha below 128 is transparent.
 * - C4, C8, C14X2: palette holds palette_count big-endian entries of palette_fmt, in
 *   and out. When every texel's colour is one of its entries (as decoded), it is kept
 *   and only indices are written; otherwise it is replaced by a palette of at most
 *   min(palette_count, 16 / 256 / 16384) entries (libimagequant's when the image has
 *   more colours than that, else its own colours; the unused ones of those entries
 *   zero, entries past them untouched) and *palette_changed (may be NULL) says so. Its work memory (about 54 bytes a texel) is
 *   checked against opt's max_file_size first: NM_E_LIMIT. NM_E_NOMEM.
 * NM_E_INVAL for NULL buffers, a short dst, what nm_gx_level_size refuses, or an
 * indexed format without a palette or with an unknown palette format. */
nm_status nm_gx_encode(const nm_options *opt, unsigned fmt, const uint8_t *rgba, unsigned w,
		       unsigned h, uint8_t *dst, size_t dst_len, uint8_t *palette,
		       size_t palette_count, unsigned palette_fmt, bool *palette_changed);

#endif
