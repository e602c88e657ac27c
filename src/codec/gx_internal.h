/* Shared by gx.c and gx_cmpr.c only; not part of the public codec API. */
#ifndef NM_CODEC_GX_INTERNAL_H
#define NM_CODEC_GX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/options.h"
#include "lib/status.h"

/* Bit replication rather than v * 255 / max: it is what the hardware does, and it
 * maps 0 -> 0 and max -> 255 exactly with no division. */
static inline uint8_t nm_gx_expand3(unsigned v)
{
	return (uint8_t)((v << 5) | (v << 2) | (v >> 1));
}

static inline uint8_t nm_gx_expand4(unsigned v)
{
	return (uint8_t)((v << 4) | v);
}

static inline uint8_t nm_gx_expand5(unsigned v)
{
	return (uint8_t)((v << 3) | (v >> 2));
}

static inline uint8_t nm_gx_expand6(unsigned v)
{
	return (uint8_t)((v << 2) | (v >> 4));
}

static inline unsigned nm_gx_be16(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

/* Decode one 32-byte CMPR block into an 8x8 RGBA tile (row-major, 8 texels a row). */
void nm_gx_cmpr_block(const uint8_t *src, uint8_t tile[8 * 8 * 4]);

/* A known format's block: texels across and down, bytes; 0 for an unknown one (gx.c). */
int nm_gx_block_shape(unsigned fmt, unsigned *bw, unsigned *bh, unsigned *bytes);

/* One TLUT entry v (NM_GX_PAL_*) as RGBA8, as the decoder shows it (gx.c), and the
 * entry nearest an RGBA8 texel (gx_encode.c): the inverse on what the first gives. */
void nm_gx_tlut_entry(unsigned v, unsigned pfmt, uint8_t px[4]);
unsigned nm_gx_tlut_pack(const uint8_t px[4], unsigned pfmt);

/* Encode the 8x8 CMPR block at (x0, y0) of a w x h RGBA8 image (gx_cmpr.c). */
void nm_gx_cmpr_encode_block(const uint8_t *rgba, unsigned w, unsigned h, unsigned x0,
			     unsigned y0, uint8_t out[32]);

/* The palette index of each of the n texels of rgba (gx_palette.c): the palette's own
 * (*palette untouched, *changed false) when every texel's colour is one of its first
 * min(count, max_index + 1) entries, else a new palette of at most that many entries
 * written over those (the rest of them zero, *changed true). NM_E_LIMIT when the work buffers
 * (about 20 bytes a texel) pass opt's max_file_size, NM_E_NOMEM. */
nm_status nm_gx_palette_indices(const nm_options *opt, const uint8_t *rgba, size_t n,
				uint8_t *palette, size_t count, unsigned pfmt,
				unsigned max_index, uint16_t *idx, bool *changed);

#endif
