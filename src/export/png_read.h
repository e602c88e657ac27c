/* Reading an edited PNG back (nmodel apply): any valid PNG into RGBA8.
 *
 * Every colour type and depth PNG has (grey, grey+alpha, palette with or without tRNS,
 * RGB, RGBA; 1 to 16 bits; Adam7 interlaced or not) becomes w x h texels of 4 bytes,
 * the samples as stored: grey becomes r = g = b, a missing alpha 255, tRNS its alpha,
 * 16 bits the nearest 8-bit value. No gamma or colour profile is applied: a texture
 * stores values, and the tree's own PNGs carry none (png.h). Read with libpng, whose
 * width, height and chunk sizes are limited before it allocates; the texels come from
 * nm_alloc under the caller's options. */
#ifndef NM_PNG_READ_H
#define NM_PNG_READ_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/options.h"

/* API: png[0..len) of a texture level that must be want_w x want_h -> *rgba (malloc'd,
 * want_w * want_h * 4 bytes) or a refusal: NM_E_FORMAT "NAME: is not a PNG (...)" or
 * "NAME: is broken (...)", NM_E_INVAL "NAME: is 64x32, the texture level is 32x32: a
 * texture of another size changes the model's layout, which apply does not do",
 * NM_E_LIMIT from nm_alloc. name NULL: the message is the reason alone, for a caller
 * that names the file itself (apply's refusals, nm_edit_refuse). */
nm_status nm_png_read_level(const nm_options *opt, const uint8_t *png, size_t len,
			    const char *name, unsigned want_w, unsigned want_h, uint8_t **rgba,
			    nm_error *err);

#endif
