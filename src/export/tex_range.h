/* A range of a 3DS texture level's PNG, made from the level's bytes in its reader: the
 * rows of 8x8 PICA tiles the range needs (they lie one after another), decoded alone
 * (export/png.h: nm_png_write_range). Shared by the two drivers of 3DS textures, CMB's
 * tex/ and CMAB's txpt/, as their range producers (lib/tree.h). */
#ifndef NM_TEX_RANGE_H
#define NM_TEX_RANGE_H

#include "codec/pica.h"
#include "export/tex_inverse.h"
#include "lib/out.h"

/* Bytes [off, off + len) of the PNG (channels 1..4) that decoding level l (l->len bytes
 * at l->off of l->r, l->w x l->h texels) and nm_png_write would make. file and chunk name
 * the level in errors. */
nm_status nm_pica_png_range(nm_pica_format fmt, const nm_tex_level *l, unsigned channels,
			    const char *file, const char *chunk, uint64_t off, size_t len,
			    nm_out *o, nm_error *err);

#endif
