/* Tegra X1 block-linear layout (see tegra_swizzle.h). */
#include <string.h>
#include "codec/tegra_swizzle.h"

static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static int valid_block_height(unsigned bh)
{
	return bh >= 1 && bh <= 16 && (bh & (bh - 1)) == 0;
}

/* The driver rounds one and a half times the height to the next block: a surface gets
 * the largest block height that its height, so extended, fills. */
unsigned nm_tegra_block_height(uint64_t rows)
{
	uint64_t h = rows + rows / 2;
	return h >= 128 ? 16 : h >= 64 ? 8 : h >= 32 ? 4 : h >= 16 ? 2 : 1;
}

unsigned nm_tegra_level_block_height(uint64_t rows, unsigned bh0)
{
	unsigned bh = bh0;
	while (bh > 1 && rows <= (uint64_t)(bh / 2) * NM_TEGRA_GOB_ROWS)
		bh /= 2;
	return bh;
}

uint64_t nm_tegra_level_size(uint64_t row_bytes, uint64_t rows, unsigned block_height)
{
	if (!row_bytes || !rows || !valid_block_height(block_height))
		return 0;
	uint64_t gobs_x = div_up(row_bytes, NM_TEGRA_GOB_WIDTH);
	uint64_t blocks_y = div_up(rows, (uint64_t)NM_TEGRA_GOB_ROWS * block_height);
	return gobs_x * blocks_y * block_height * NM_TEGRA_GOB_BYTES;
}

/* Inside a GOB: two halves of 32 bytes, each four pairs of rows, each pair two runs of
 * 16 bytes per row. */
static inline uint64_t gob_offset(uint64_t x, uint64_t y)
{
	return (x / 32) * 256 + (y / 2) * 64 + (x % 32 / 16) * 32 + (y % 2) * 16 + x % 16;
}

uint64_t nm_tegra_offset(uint64_t x, uint64_t y, uint64_t gobs_x, unsigned block_height)
{
	uint64_t block_rows = (uint64_t)NM_TEGRA_GOB_ROWS * block_height;
	uint64_t block = (y / block_rows) * gobs_x + x / NM_TEGRA_GOB_WIDTH;
	uint64_t gob = block * block_height + (y % block_rows) / NM_TEGRA_GOB_ROWS;
	return gob * NM_TEGRA_GOB_BYTES + gob_offset(x % NM_TEGRA_GOB_WIDTH, y % NM_TEGRA_GOB_ROWS);
}

/* The offset grows with the block (row of blocks, then column), then the GOB within
 * the block, then inside the GOB with x and y separately: the last byte of the last
 * row is the furthest. */
uint64_t nm_tegra_level_span(uint64_t row_bytes, uint64_t rows, unsigned block_height)
{
	if (!row_bytes || !rows || !valid_block_height(block_height))
		return 0;
	uint64_t gobs_x = div_up(row_bytes, NM_TEGRA_GOB_WIDTH);
	return nm_tegra_offset(row_bytes - 1, rows - 1, gobs_x, block_height) + 1;
}

/* Copy one level either way. A GOB row is four runs of 16 bytes that are contiguous on
 * both sides, so the copy works run by run; runs cut by the level's right edge are
 * shortened, rows below its bottom skipped. */
static void copy_rows(const uint8_t *src, uint8_t *dst, uint64_t row_bytes, uint64_t rows,
		      unsigned block_height, int to_linear, uint64_t gy0, uint64_t gy1)
{
	uint64_t gobs_x = div_up(row_bytes, NM_TEGRA_GOB_WIDTH);
	for (uint64_t gy = gy0; gy < gy1; gy++) {
		uint64_t y0 = gy * NM_TEGRA_GOB_ROWS;
		uint64_t block_row = gy / block_height, in_block = gy % block_height;
		for (uint64_t gx = 0; gx < gobs_x; gx++) {
			uint64_t x0 = gx * NM_TEGRA_GOB_WIDTH;
			uint64_t gob = ((block_row * gobs_x + gx) * block_height + in_block) *
				       NM_TEGRA_GOB_BYTES;
			for (uint64_t y = 0; y < NM_TEGRA_GOB_ROWS && y0 + y < rows; y++) {
				for (uint64_t x = 0; x < NM_TEGRA_GOB_WIDTH && x0 + x < row_bytes;
				     x += 16) {
					uint64_t n = row_bytes - (x0 + x);
					if (n > 16)
						n = 16;
					uint64_t sw = gob + gob_offset(x, y);
					uint64_t li = (y0 + y - gy0 * NM_TEGRA_GOB_ROWS) *
							      row_bytes + x0 + x;
					if (to_linear)
						memcpy(dst + li, src + sw, (size_t)n);
					else
						memcpy(dst + sw, src + li, (size_t)n);
				}
			}
		}
	}
}

static void copy_level(const uint8_t *src, uint8_t *dst, uint64_t row_bytes, uint64_t rows,
		       unsigned block_height, int to_linear)
{
	copy_rows(src, dst, row_bytes, rows, block_height, to_linear, 0,
		  div_up(rows, NM_TEGRA_GOB_ROWS));
}

nm_status nm_tegra_deswizzle_rows(const uint8_t *src, size_t src_len, uint64_t row_bytes,
				  uint64_t rows, unsigned block_height, uint64_t row0,
				  uint64_t row1, uint8_t *dst)
{
	if (!row_bytes || !rows || !valid_block_height(block_height) || !src || !dst ||
	    row0 % NM_TEGRA_GOB_ROWS || row0 >= row1 || row1 > rows)
		return NM_E_INVAL;
	uint64_t gobs_x = div_up(row_bytes, NM_TEGRA_GOB_WIDTH);
	if (src_len < nm_tegra_offset(row_bytes - 1, row1 - 1, gobs_x, block_height) + 1)
		return NM_E_FORMAT;
	copy_rows(src, dst, row_bytes, row1, block_height, 1, row0 / NM_TEGRA_GOB_ROWS,
		  div_up(row1, NM_TEGRA_GOB_ROWS));
	return NM_OK;
}

nm_status nm_tegra_deswizzle(const uint8_t *src, size_t src_len, uint64_t row_bytes,
			     uint64_t rows, unsigned block_height, uint8_t *dst)
{
	if (!row_bytes || !rows || !valid_block_height(block_height) || !src || !dst)
		return NM_E_INVAL;
	if (src_len < nm_tegra_level_span(row_bytes, rows, block_height))
		return NM_E_FORMAT;
	copy_level(src, dst, row_bytes, rows, block_height, 1);
	return NM_OK;
}

nm_status nm_tegra_swizzle(const uint8_t *src, uint64_t row_bytes, uint64_t rows,
			   unsigned block_height, uint8_t *dst, size_t dst_len)
{
	if (!row_bytes || !rows || !valid_block_height(block_height) || !src || !dst)
		return NM_E_INVAL;
	uint64_t size = nm_tegra_level_size(row_bytes, rows, block_height);
	if (dst_len < size)
		return NM_E_FORMAT;
	memset(dst, 0, (size_t)size);
	copy_level(src, dst, row_bytes, rows, block_height, 0);
	return NM_OK;
}

/* Layers are padded to a whole block of GOBs, the block height being level 0's, shrunk
 * like a level's would be for level 0's height (Ryujinx's AlignLayerSize). */
static uint64_t align_layer(uint64_t size, uint64_t rows0, unsigned bh0)
{
	uint64_t unit = (uint64_t)nm_tegra_level_block_height(rows0, bh0) * NM_TEGRA_GOB_BYTES;
	return div_up(size, unit) * unit;
}

nm_status nm_tegra_surface_layout(uint32_t width, uint32_t height, unsigned block_w,
				  unsigned block_h, unsigned block_bytes, uint32_t levels,
				  uint32_t layers, nm_tegra_surface *s)
{
	if (!s || !width || !height || width > NM_TEGRA_MAX_SIDE || height > NM_TEGRA_MAX_SIDE ||
	    !block_w || !block_h || block_w > 16 || block_h > 16 || !block_bytes ||
	    block_bytes > 16 || !levels || levels > NM_TEGRA_MAX_LEVELS || !layers ||
	    layers > NM_TEGRA_MAX_LAYERS)
		return NM_E_INVAL;
	memset(s, 0, sizeof *s);
	s->levels = levels;
	s->layers = layers;
	uint64_t rows0 = div_up(height, block_h);
	s->block_height = nm_tegra_block_height(rows0);
	uint64_t off = 0;
	for (uint32_t k = 0; k < levels; k++) {
		nm_tegra_level *l = &s->level[k];
		l->width = width >> k ? width >> k : 1;
		l->height = height >> k ? height >> k : 1;
		l->blocks_x = (uint32_t)div_up(l->width, block_w);
		l->blocks_y = (uint32_t)div_up(l->height, block_h);
		l->row_bytes = (uint64_t)l->blocks_x * block_bytes;
		l->block_height = nm_tegra_level_block_height(l->blocks_y, s->block_height);
		l->offset = off;
		l->size = nm_tegra_level_size(l->row_bytes, l->blocks_y, l->block_height);
		l->span = nm_tegra_level_span(l->row_bytes, l->blocks_y, l->block_height);
		l->linear_size = l->row_bytes * l->blocks_y;
		off += l->size;
	}
	s->layer_size = layers > 1 ? align_layer(off, rows0, s->block_height) : off;
	s->size = s->layer_size * layers;
	const nm_tegra_level *last = &s->level[levels - 1];
	s->span = s->layer_size * (layers - 1) + last->offset + last->span;
	return NM_OK;
}
