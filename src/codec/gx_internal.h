/* Shared by gx.c and gx_cmpr.c only; not part of the public codec API. */
#ifndef NM_CODEC_GX_INTERNAL_H
#define NM_CODEC_GX_INTERNAL_H

#include <stdint.h>

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

#endif
