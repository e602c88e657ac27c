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

/* Rows [y0, y1) of an image as RGBA8 (w * 4 bytes a row, row 0 first) into rgba. y0 is a
 * multiple of the image's band; y1 too, or the image's height. */
typedef nm_status (*nm_png_rows_fn)(void *arg, unsigned y0, unsigned y1, uint8_t *rgba,
				    nm_error *err);

/* An image nm_png_write_range makes a PNG of, a band of rows at a time. */
typedef struct nm_png_image {
	unsigned w, h, channels;
	unsigned band;           /* rows its decoder makes together (a row of blocks or tiles) */
	nm_png_rows_fn rows;
	void *arg;
	const char *file, *chunk;   /* what a refused allocation names */
	uint64_t at;
} nm_png_image;

/* Below this size a range that reaches the end is made from every row; above it, declined. */
#define NM_PNG_RANGE_WHOLE (2u * NM_PNG_BLOCK)

/* Bytes [off, off + len) of what nm_png_write makes of the image, from the rows of the
 * IDAT chunks the range touches (each chunk whole, for its CRC): the cost grows with len,
 * not with the image, so the head of a large texture needs a few of its rows (a range
 * producer, lib/tree.h). The zlib stream's adler32 near the end needs every row:
 * NM_E_UNSUPPORTED for a range that reaches it (the whole file is produced then), unless
 * the file is below NM_PNG_RANGE_WHOLE. NM_E_INVAL for a range outside the file. */
nm_status nm_png_write_range(nm_out *o, const nm_png_image *img, uint64_t off, size_t len,
			     nm_error *err);

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
