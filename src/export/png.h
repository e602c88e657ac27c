/* PNG output through libpng, with stored (uncompressed) deflate blocks and no filters.
 * That choice makes the file size a function of width, height and channels alone, so
 * a texture's st_size is exact before anything is decoded (DESIGN.md "Laziness, sizes"). */
#ifndef NM_PNG_H
#define NM_PNG_H

#include <stdint.h>
#include "lib/out.h"

#define NM_PNG_MAX_DIM 16384

/* rgba: w*h*4 bytes. channels: 1 grey (from R), 2 grey+alpha (R, A), 3 RGB, 4 RGBA. */
nm_status nm_png_write(nm_out *o, const uint8_t *rgba, unsigned w, unsigned h,
		       unsigned channels);

/* The exact byte count nm_png_write produces for these dimensions; 0 if they are out of
 * range (0 or > NM_PNG_MAX_DIM) or libpng fails. Cached per shape; thread-safe. */
uint64_t nm_png_size(unsigned w, unsigned h, unsigned channels);

#endif
