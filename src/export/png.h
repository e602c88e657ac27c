/* PNG output in one fixed layout, written here rather than by libpng so that every byte
 * is ours to predict: 8-bit samples, no interlace, filter 0 (None) on every row, and a
 * zlib stream of stored (uncompressed) deflate blocks of NM_PNG_BLOCK bytes (the last one
 * shorter), one block per IDAT chunk. The file size is then a closed formula of width,
 * height and channels (nm_png_size), so a texture's st_size is exact at mount without
 * touching a pixel (DESIGN.md "Laziness, sizes"), and the bytes are the same on every
 * machine and with every zlib. */
#ifndef NM_PNG_H
#define NM_PNG_H

#include <stdint.h>
#include "lib/out.h"
#include "lib/tree.h"

/* Raw (filter byte + samples) bytes per stored deflate block: deflate's largest. */
#define NM_PNG_BLOCK 65535u

/* rgba: w*h*4 bytes. channels: 1 grey (from R), 2 grey+alpha (R, A), 3 RGB, 4 RGBA.
 * Writes exactly nm_png_size(w, h, channels) bytes into o (reserved at once, so the
 * output's limit is checked before anything is allocated). NM_E_INVAL for a shape
 * nm_png_size refuses. */
nm_status nm_png_write(nm_out *o, const uint8_t *rgba, unsigned w, unsigned h,
		       unsigned channels);

/* The exact byte count nm_png_write produces: arithmetic only. 0 when w or h is 0 or
 * above PNG's 2^31 - 1, or channels is not 1..4. */
uint64_t nm_png_size(unsigned w, unsigned h, unsigned channels);

/* A PNG for another file to embed (model.glb): its size and producer (with ctx/arg),
 * those of a PNG the tree shows, or of a variant of it made for the embedding (J3D's
 * I4/I8 with their alpha). size 0: none. file: the PNG the tree shows with these very
 * bytes, in tree (NULL: none, or a variant): the embedding takes its bytes when they are
 * made already, and leaves them to it when it makes them (nm_tree_peek, nm_tree_offer). */
typedef struct nm_png_source {
	uint64_t size;
	nm_produce_fn produce;
	void *ctx, *arg;
	nm_tree *tree;
	nm_node *file;
} nm_png_source;

#endif
