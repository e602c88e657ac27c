/* The inverse of a texture level's PNG (doc/apply.md), shared by every driver: the
 * edited PNG is read (export/png_read.h), encoded in the texture's own format by the
 * driver's callback and patched over that level's bytes. An edited level 0 also makes
 * every other level of its chain, each the box filter of the one above it
 * (codec/mip.h), encoded and patched as derived patches (lib/edit.h): a level whose own
 * PNG is edited in the same run replaces its derived patch, whatever order the files
 * come in, and the check of the new model (nm_apply_verify) looks for the given ones.
 *
 * A PNG whose texels are the ones the level shows now is no edit (an image editor that
 * saved it again, or a batch that saved every level, changes no level and makes none:
 * a lossy level is not encoded a second time), and a patch that would set the bytes a
 * level already has is left out. The chain knows no format: the layout of the levels
 * (where each one's bytes are, in which reader), the encoder and the decoder come from
 * the driver; the PICA callbacks at the end serve the two drivers of 3DS textures. */
#ifndef NM_TEX_INVERSE_H
#define NM_TEX_INVERSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "codec/pica.h"
#include "lib/edit.h"

/* One level of a chain: its size in texels and where its encoded bytes are. */
typedef struct nm_tex_level {
	unsigned w, h;
	nm_reader *r;
	uint64_t off;
	size_t len;
} nm_tex_level;

/* Encode level of w x h RGBA8 texels into dst (len bytes: the level's). A texture that
 * cannot be encoded (a format with no encoder, a limit) returns NM_E_UNSUPPORTED,
 * NM_E_LIMIT or NM_E_INVAL with err's message saying why: a refusal of the edit. Other
 * statuses mean the model could not be read. ed: for a patch of its own beside the
 * level's (a palette), or NULL when only the bytes are wanted. */
typedef nm_status (*nm_tex_encode_fn)(void *ctx, unsigned level, const uint8_t *rgba,
				      unsigned w, unsigned h, uint8_t *dst, size_t len,
				      nm_edit *ed, nm_error *err);

/* Decode level's bytes src[0..len) into w x h RGBA8 as the tree's PNG shows them. */
typedef nm_status (*nm_tex_decode_fn)(void *ctx, unsigned level, const uint8_t *src,
				      size_t len, unsigned w, unsigned h, uint8_t *rgba,
				      nm_error *err);

typedef struct nm_tex_chain {
	const nm_tex_level *levels;   /* 0 first; each level's sides nm_mip_side of the last */
	unsigned nlevels;
	nm_tex_encode_fn encode;
	nm_tex_decode_fn decode;
	void *ctx;
	const nm_options *opt;        /* limits for the texels and the encoded bytes */
	const char *file, *chunk;     /* the model and its chunk, for messages and patches */
} nm_tex_chain;

/* The inverse of level's PNG, png[0..len): patches of that level, and of every other
 * level when it is level 0; or a refusal through ed (not a PNG, another size, a format
 * with no encoder...). A status only when the model cannot be read. */
nm_status nm_tex_invert(const nm_tex_chain *c, unsigned level, const uint8_t *png, size_t len,
			nm_edit *ed, nm_error *err);

/* PICA textures (CMB's tex/, a CMAB's txpt/): the encoder and decoder callbacks of a
 * chain whose ctx is an nm_tex_pica. */
typedef struct nm_tex_pica {
	nm_pica_format fmt;
	const char *file, *chunk;     /* for messages */
} nm_tex_pica;
nm_status nm_tex_pica_encode(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			     unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err);
nm_status nm_tex_pica_decode(void *ctx, unsigned level, const uint8_t *src, size_t len,
			     unsigned w, unsigned h, uint8_t *rgba, nm_error *err);

/* The RGBA8 texels of every level made from level 0's (levels[0] is the caller's
 * w x h x 4 bytes; levels 1.. are malloc'd through nm_alloc into out[1..n)): for the
 * tests and for a driver that encodes a chain as a whole. NM_E_INVAL when a level's
 * size is not half the one above it. */
nm_status nm_tex_mip_chain(const nm_tex_chain *c, uint8_t **levels, nm_error *err);

#endif
