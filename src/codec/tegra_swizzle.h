/* Tegra X1 (Switch) block-linear surfaces: the layout of every texture the Switch GPU
 * samples, and how to turn one level back into rows.
 *
 * Units: a level is `rows` rows of `row_bytes` bytes, where a row is one row of texels
 * (uncompressed formats) or of blocks (BCn, ASTC: row_bytes = blocks across x block
 * bytes). Storage is made of GOBs (groups of bytes) of 64 bytes x 8 rows = 512 bytes;
 * a GOB holds its rows in this order (x in bytes within the GOB, y its row):
 *
 *     offset = (x / 32) * 256 + (y / 2) * 64 + (x % 32 / 16) * 32 + (y % 2) * 16 + x % 16
 *
 * GOBs are stacked `block_height` high (1, 2, 4, 8 or 16) into blocks; blocks run left
 * to right, then top to bottom. A surface holds every level of layer 0 (each level
 * starting right after the previous one), then layer 1..., each layer padded to a whole
 * block of GOBs. The block height of level 0 is the driver's default for its height
 * (nm_tegra_block_height); smaller levels halve it while they fit in half a block.
 *
 * Facts from Ryujinx's SizeCalculator and the tegra_swizzle crate (both read, nothing
 * copied); checked on the Tropical Freeze corpus, whose zlib streams end exactly at the
 * surface size computed here. Pure functions, no allocation. */
#ifndef NM_CODEC_TEGRA_SWIZZLE_H
#define NM_CODEC_TEGRA_SWIZZLE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

#define NM_TEGRA_GOB_BYTES 512u
#define NM_TEGRA_GOB_WIDTH 64u   /* bytes */
#define NM_TEGRA_GOB_ROWS 8u
#define NM_TEGRA_MAX_LEVELS 17u  /* 65536 x 65536 down to 1 x 1 */
/* Bounds that keep every size below 2^63 (and far beyond any real texture). */
#define NM_TEGRA_MAX_SIDE (1u << 20)
#define NM_TEGRA_MAX_LAYERS (1u << 16)

/* The block height (in GOBs) the driver gives level 0 of a surface `rows` rows high. */
unsigned nm_tegra_block_height(uint64_t rows);
/* The block height of a level `rows` high in a surface whose level 0 uses bh0. */
unsigned nm_tegra_level_block_height(uint64_t rows, unsigned bh0);

/* Bytes a level occupies: whole GOB columns by whole blocks. 0 if a size is 0. */
uint64_t nm_tegra_level_size(uint64_t row_bytes, uint64_t rows, unsigned block_height);
/* Bytes from the level's start through its last texel byte: what a decoder needs of a
 * level (the rest is padding). 0 if a size is 0. */
uint64_t nm_tegra_level_span(uint64_t row_bytes, uint64_t rows, unsigned block_height);
/* Where byte x of row y lies in a level `gobs_x` GOBs wide. */
uint64_t nm_tegra_offset(uint64_t x, uint64_t y, uint64_t gobs_x, unsigned block_height);

/* Rows of one level: dst gets rows x row_bytes bytes. src must hold the level
 * (nm_tegra_level_size bytes, or at least its span): NM_E_FORMAT if it does not, NM_E_INVAL
 * for a block height that is not 1..16 and a power of two, or a zero size. */
nm_status nm_tegra_deswizzle(const uint8_t *src, size_t src_len, uint64_t row_bytes,
			     uint64_t rows, unsigned block_height, uint8_t *dst);
/* Rows [row0, row1) of the level alone (row0 a multiple of NM_TEGRA_GOB_ROWS): dst gets
 * (row1 - row0) x row_bytes bytes, as nm_tegra_deswizzle's from row row0 on. src holds the
 * level from its start, at least through row1 - 1's last byte (NM_E_FORMAT if not); the
 * bytes before the block of GOBs holding row0 are not read. NM_E_INVAL as above, or for
 * rows outside the level. */
nm_status nm_tegra_deswizzle_rows(const uint8_t *src, size_t src_len, uint64_t row_bytes,
				  uint64_t rows, unsigned block_height, uint64_t row0,
				  uint64_t row1, uint8_t *dst);
/* The inverse, for fixtures and tests: dst (nm_tegra_level_size bytes) gets the level,
 * padding zeroed. */
nm_status nm_tegra_swizzle(const uint8_t *src, uint64_t row_bytes, uint64_t rows,
			   unsigned block_height, uint8_t *dst, size_t dst_len);

/* One level of a surface. */
typedef struct nm_tegra_level {
	uint32_t width, height;      /* texels */
	uint32_t blocks_x, blocks_y; /* format blocks (texels for uncompressed formats) */
	uint64_t row_bytes;          /* blocks_x x block bytes */
	unsigned block_height;       /* GOBs */
	uint64_t offset;             /* from the start of its layer */
	uint64_t size;               /* bytes in storage */
	uint64_t span;               /* bytes through its last texel */
	uint64_t linear_size;        /* blocks_x x blocks_y x block bytes: the level unpadded */
} nm_tegra_level;

typedef struct nm_tegra_surface {
	uint32_t levels, layers;
	unsigned block_height;       /* level 0's */
	uint64_t layer_size;         /* distance between layers (padded); the levels' sum for one layer */
	uint64_t size;               /* the whole surface */
	uint64_t span;               /* bytes through the last texel of the last layer */
	nm_tegra_level level[NM_TEGRA_MAX_LEVELS];
} nm_tegra_surface;

/* The layout of a 2D surface (cube maps and arrays: layers > 1) of a format whose blocks
 * are block_w x block_h texels of block_bytes bytes. Level k is max(1, width >> k) x
 * max(1, height >> k) texels, rounded up to whole blocks. NM_E_INVAL for a zero or
 * oversized argument (sides above NM_TEGRA_MAX_SIDE, more than NM_TEGRA_MAX_LAYERS or
 * NM_TEGRA_MAX_LEVELS, block sides above 16, block bytes above 16). */
nm_status nm_tegra_surface_layout(uint32_t width, uint32_t height, unsigned block_w,
				  unsigned block_h, unsigned block_bytes, uint32_t levels,
				  uint32_t layers, nm_tegra_surface *s);

#endif
