/* Shared by pica.c and pica_encode.c only; not part of the public codec API. */
#ifndef NM_CODEC_PICA_INTERNAL_H
#define NM_CODEC_PICA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "codec/pica.h"

/* Texel n of a direct format's stream (tiles already folded into n) from RGBA8 px. */
void nm_pica_encode_texel(nm_pica_format f, const uint8_t *px, uint8_t *dst, size_t n);

/* One ETC1 (alpha 0) or ETC1A4 block, 8 or 16 bytes in PICA's order, from the 4x4
 * texels at rgba (row bytes apart). */
void nm_pica_encode_etc1_block(int alpha, const uint8_t *rgba, size_t row, uint8_t *out);

#endif
