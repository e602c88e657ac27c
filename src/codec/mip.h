/* Mip levels made from the one above them, for a texture whose level 0 alone was
 * edited: each level a box filter of the previous one. Pure buffer -> buffer. */
#ifndef NM_CODEC_MIP_H
#define NM_CODEC_MIP_H

#include <stdint.h>
#include "lib/status.h"

/* A side of the next level: half, rounded down, at least 1 (the GX, PICA and TXTR
 * chains all halve so). */
static inline unsigned nm_mip_side(unsigned side)
{
	return side > 1 ? side / 2 : 1;
}

/* The next level of a w x h RGBA8 level into out (nm_mip_side(w) x nm_mip_side(h)):
 * each texel the rounded mean of the 2x2 texels above it (2x1 or 1x2 where a side is
 * already 1; an odd side's last row or column is left out, as the halved size drops
 * it), every channel alike, alpha not weighted. NM_E_INVAL for a zero size or NULL. */
nm_status nm_mip_box(const uint8_t *rgba, unsigned w, unsigned h, uint8_t *out);

#endif
