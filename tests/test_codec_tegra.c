/* Known-answer tests for the Tegra X1 block-linear layout (codec/tegra_swizzle.h).
 * Offsets inside a GOB are worked out by hand from the formula in the header; block
 * heights and surface sizes come from three independent places: the Tropical Freeze
 * corpus (each zlib stream ends exactly at the surface size), and the block heights and
 * cube-map sizes the tegra_swizzle crate's tests record from Smash Ultimate nutexb
 * footers (numbers only). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/tegra_swizzle.h"

START_TEST(gob_offsets)
{
	/* One GOB (64 bytes x 8 rows): 16-byte runs, rows in pairs, halves of 32 bytes. */
	ck_assert_uint_eq(nm_tegra_offset(0, 0, 1, 1), 0);
	ck_assert_uint_eq(nm_tegra_offset(15, 0, 1, 1), 15);
	ck_assert_uint_eq(nm_tegra_offset(16, 0, 1, 1), 32);
	ck_assert_uint_eq(nm_tegra_offset(31, 0, 1, 1), 47);
	ck_assert_uint_eq(nm_tegra_offset(32, 0, 1, 1), 256);
	ck_assert_uint_eq(nm_tegra_offset(48, 0, 1, 1), 288);
	ck_assert_uint_eq(nm_tegra_offset(0, 1, 1, 1), 16);
	ck_assert_uint_eq(nm_tegra_offset(16, 1, 1, 1), 48);
	ck_assert_uint_eq(nm_tegra_offset(0, 2, 1, 1), 64);
	ck_assert_uint_eq(nm_tegra_offset(0, 7, 1, 1), 3 * 64 + 16);
	ck_assert_uint_eq(nm_tegra_offset(63, 7, 1, 1), 511);
}
END_TEST

START_TEST(block_offsets)
{
	/* Block height 2: the second GOB row follows the first GOB in the same column. */
	ck_assert_uint_eq(nm_tegra_offset(0, 8, 1, 2), 512);
	ck_assert_uint_eq(nm_tegra_offset(0, 16, 1, 2), 1024);
	/* Two GOBs across, block height 2: the next column is the next block (1024 bytes),
	 * the next block row starts after both columns. */
	ck_assert_uint_eq(nm_tegra_offset(64, 0, 2, 2), 1024);
	ck_assert_uint_eq(nm_tegra_offset(64, 8, 2, 2), 1536);
	ck_assert_uint_eq(nm_tegra_offset(0, 16, 2, 2), 2048);
	ck_assert_uint_eq(nm_tegra_offset(65, 17, 2, 2), 3072 + 16 + 1);
}
END_TEST

START_TEST(block_heights)
{
	/* Rows of 4x4 blocks of nutexb textures 36, 48, 168, 176, 340, 360 texels high. */
	ck_assert_uint_eq(nm_tegra_block_height(9), 1);
	ck_assert_uint_eq(nm_tegra_block_height(12), 2);
	ck_assert_uint_eq(nm_tegra_block_height(42), 4);
	ck_assert_uint_eq(nm_tegra_block_height(44), 8);
	ck_assert_uint_eq(nm_tegra_block_height(85), 8);
	ck_assert_uint_eq(nm_tegra_block_height(90), 16);
	ck_assert_uint_eq(nm_tegra_block_height(1), 1);
	/* The corpus: 512 x 512 ASTC 8x5 is 103 block rows, stored in blocks of 16 GOBs. */
	ck_assert_uint_eq(nm_tegra_block_height(103), 16);
	/* Smaller levels halve the block height while they fit in half a block. */
	ck_assert_uint_eq(nm_tegra_level_block_height(6, 2), 1);
	ck_assert_uint_eq(nm_tegra_level_block_height(9, 2), 2);
	ck_assert_uint_eq(nm_tegra_level_block_height(65, 16), 16);
	ck_assert_uint_eq(nm_tegra_level_block_height(64, 16), 8);
	ck_assert_uint_eq(nm_tegra_level_block_height(1, 16), 1);
}
END_TEST

static const struct surface_case {
	uint32_t w, h;
	unsigned bw, bh, bytes;
	uint32_t levels, layers;
	uint64_t size;
} surface_cases[] = {
	/* Decompressed GPU chunks of the corpus TXTRs: ASTC 8x5, 5x4 and RGBA8. */
	{ 1024, 1024, 8, 5, 16, 11, 1, 701440 },
	{ 2048, 2048, 5, 4, 16, 12, 1, 4515328 },
	{ 64, 128, 8, 5, 16, 8, 1, 8192 },
	{ 128, 256, 8, 5, 16, 9, 1, 24576 },
	{ 1, 1, 1, 1, 4, 1, 1, 512 },
	/* Six-layer surfaces (cube maps) of 16-byte 4x4 blocks, and uncompressed ones. */
	{ 128, 128, 4, 4, 16, 8, 6, 147456 },
	{ 16, 16, 4, 4, 16, 5, 6, 15360 },
	{ 256, 256, 4, 4, 16, 9, 6, 540672 },
	{ 288, 288, 4, 4, 16, 9, 6, 1204224 },
	{ 512, 512, 4, 4, 16, 10, 6, 2113536 },
	{ 64, 64, 4, 4, 16, 7, 6, 49152 },
	{ 16, 16, 1, 1, 4, 1, 6, 6144 },
	{ 16, 16, 4, 4, 8, 1, 6, 3072 },
	{ 2048, 2048, 4, 4, 16, 1, 6, 25165824 },
	{ 64, 64, 1, 1, 16, 1, 6, 393216 },
};

START_TEST(surface_sizes)
{
	const struct surface_case *c = &surface_cases[_i];
	nm_tegra_surface s;
	ck_assert_int_eq(nm_tegra_surface_layout(c->w, c->h, c->bw, c->bh, c->bytes, c->levels,
						 c->layers, &s), NM_OK);
	ck_assert_msg(s.size == c->size, "%ux%u, %ux%u blocks of %u bytes, %u levels, %u layers: %llu bytes, expected %llu",
		      c->w, c->h, c->bw, c->bh, c->bytes, c->levels, c->layers,
		      (unsigned long long)s.size, (unsigned long long)c->size);
}
END_TEST

START_TEST(layout_fields)
{
	nm_tegra_surface s;
	ck_assert_int_eq(nm_tegra_surface_layout(512, 512, 8, 5, 16, 2, 1, &s), NM_OK);
	/* 64 x 103 blocks of 16 bytes: 16 GOB columns, 103 rows padded to 128. */
	ck_assert_uint_eq(s.level[0].blocks_x, 64);
	ck_assert_uint_eq(s.level[0].blocks_y, 103);
	ck_assert_uint_eq(s.level[0].block_height, 16);
	ck_assert_uint_eq(s.level[0].size, 16 * 128 * 64);
	ck_assert_uint_eq(s.level[0].linear_size, 64 * 103 * 16);
	/* Level 1: 256 x 256, 32 x 52 blocks, block height 8 (52 > 32 rows). */
	ck_assert_uint_eq(s.level[1].offset, 16 * 128 * 64);
	ck_assert_uint_eq(s.level[1].blocks_x, 32);
	ck_assert_uint_eq(s.level[1].blocks_y, 52);
	ck_assert_uint_eq(s.level[1].block_height, 8);
	/* The 1x1 RGBA8 corpus texture: one GOB, its texel the first 4 bytes. */
	ck_assert_int_eq(nm_tegra_surface_layout(1, 1, 1, 1, 4, 1, 1, &s), NM_OK);
	ck_assert_uint_eq(s.level[0].span, 4);
	ck_assert_uint_eq(s.span, 4);
	/* Six layers: the span reaches into the last one. */
	ck_assert_int_eq(nm_tegra_surface_layout(16, 16, 1, 1, 4, 1, 6, &s), NM_OK);
	ck_assert_uint_eq(s.layer_size, 1024);
	ck_assert_uint_eq(s.span, 5 * 1024 + s.level[0].span);
}
END_TEST

START_TEST(layout_rejects)
{
	nm_tegra_surface s;
	ck_assert_int_eq(nm_tegra_surface_layout(0, 4, 1, 1, 4, 1, 1, &s), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(4, 4, 1, 1, 0, 1, 1, &s), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(4, 4, 1, 1, 4, 0, 1, &s), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(4, 4, 1, 1, 4, 18, 1, &s), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(4, 4, 1, 1, 4, 1, 0, &s), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(NM_TEGRA_MAX_SIDE + 1, 4, 1, 1, 4, 1, 1, &s),
			 NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_surface_layout(4, 4, 17, 1, 4, 1, 1, &s), NM_E_INVAL);
	/* The largest surface the bounds allow still has a size (no overflow). */
	ck_assert_int_eq(nm_tegra_surface_layout(NM_TEGRA_MAX_SIDE, NM_TEGRA_MAX_SIDE, 1, 1, 16,
						 NM_TEGRA_MAX_LEVELS, NM_TEGRA_MAX_LAYERS, &s),
			 NM_OK);
	ck_assert(s.size > s.layer_size && s.size / NM_TEGRA_MAX_LAYERS == s.layer_size);
}
END_TEST

START_TEST(deswizzle_one_gob)
{
	/* A swizzled GOB whose byte at offset a is a / 2: each linear byte shows where it
	 * was stored. */
	uint8_t src[512], dst[512];
	for (int i = 0; i < 512; i++)
		src[i] = (uint8_t)(i / 2);
	ck_assert_int_eq(nm_tegra_deswizzle(src, sizeof src, 64, 8, 1, dst), NM_OK);
	ck_assert_uint_eq(dst[0], 0);
	ck_assert_uint_eq(dst[16], 32 / 2);              /* (16, 0) at 32 */
	ck_assert_uint_eq(dst[32], 256 / 2);             /* (32, 0) at 256 */
	ck_assert_uint_eq(dst[64], 16 / 2);              /* (0, 1) at 16 */
	ck_assert_uint_eq(dst[2 * 64], 64 / 2);          /* (0, 2) at 64 */
	ck_assert_uint_eq(dst[7 * 64 + 63], 511 / 2);    /* (63, 7) at 511 */
}
END_TEST

/* Swizzle then deswizzle shapes with partial GOBs, runs cut at the right edge, several
 * block heights: the rows must come back, and the padding must stay outside the span. */
START_TEST(round_trips)
{
	static const struct { uint64_t row_bytes, rows; unsigned bh; } cases[] = {
		{ 1, 1, 1 }, { 5, 3, 1 }, { 17, 9, 2 }, { 64, 8, 1 }, { 100, 37, 4 },
		{ 130, 130, 16 }, { 4, 1, 1 }, { 256, 64, 8 }, { 48, 200, 16 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint64_t rb = cases[c].row_bytes, rows = cases[c].rows;
		unsigned bh = cases[c].bh;
		uint64_t size = nm_tegra_level_size(rb, rows, bh);
		uint64_t span = nm_tegra_level_span(rb, rows, bh);
		ck_assert(span > 0 && span <= size);
		uint8_t *lin = malloc(rb * rows), *sw = malloc(size), *back = malloc(rb * rows);
		for (uint64_t i = 0; i < rb * rows; i++)
			lin[i] = (uint8_t)(i * 7 + c + 1) | 1;   /* never 0: padding is 0 */
		ck_assert_int_eq(nm_tegra_swizzle(lin, rb, rows, bh, sw, size), NM_OK);
		ck_assert_msg(sw[span - 1] != 0, "case %zu: the last texel byte is at span - 1", c);
		for (uint64_t i = span; i < size; i++)
			if (sw[i] != 0)
				ck_abort_msg("case %zu: byte %llu past the span is set", c,
					     (unsigned long long)i);
		ck_assert_int_eq(nm_tegra_deswizzle(sw, size, rb, rows, bh, back), NM_OK);
		ck_assert_msg(memcmp(lin, back, rb * rows) == 0, "case %zu differs", c);
		/* The span is enough; one byte less is not. */
		ck_assert_int_eq(nm_tegra_deswizzle(sw, span, rb, rows, bh, back), NM_OK);
		ck_assert_int_eq(nm_tegra_deswizzle(sw, span - 1, rb, rows, bh, back), NM_E_FORMAT);
		/* Every run of GOB rows alone, from the bytes through its last row only: the
		 * same rows. */
		for (uint64_t r0 = 0; r0 < rows; r0 += NM_TEGRA_GOB_ROWS)
			for (uint64_t r1 = r0 + 1; r1 <= rows; r1 += 5) {
				uint64_t gobs_x = (rb + 63) / 64;
				size_t need = (size_t)nm_tegra_offset(rb - 1, r1 - 1, gobs_x, bh) + 1;
				memset(back, 0, rb * rows);
				ck_assert_int_eq(nm_tegra_deswizzle_rows(sw, need, rb, rows, bh, r0, r1,
									 back), NM_OK);
				ck_assert_msg(memcmp(lin + r0 * rb, back, (r1 - r0) * rb) == 0,
					      "case %zu: rows %llu..%llu differ", c,
					      (unsigned long long)r0, (unsigned long long)r1);
				ck_assert_int_eq(nm_tegra_deswizzle_rows(sw, need - 1, rb, rows, bh, r0,
									 r1, back), NM_E_FORMAT);
			}
		ck_assert_int_eq(nm_tegra_deswizzle_rows(sw, size, rb, rows, bh, 1, rows, back),
				 NM_E_INVAL);   /* row0 inside a GOB row */
		ck_assert_int_eq(nm_tegra_deswizzle_rows(sw, size, rb, rows, bh, 0, rows + 1, back),
				 NM_E_INVAL);
		free(lin);
		free(sw);
		free(back);
	}
}
END_TEST

START_TEST(bad_arguments)
{
	uint8_t buf[512] = { 0 }, out[64];
	ck_assert_int_eq(nm_tegra_deswizzle(buf, sizeof buf, 8, 8, 3, out), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_deswizzle(buf, sizeof buf, 0, 8, 1, out), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_deswizzle(buf, sizeof buf, 8, 0, 1, out), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_deswizzle(buf, sizeof buf, 8, 8, 32, out), NM_E_INVAL);
	ck_assert_int_eq(nm_tegra_swizzle(out, 8, 8, 1, buf, 511), NM_E_FORMAT);
	ck_assert_uint_eq(nm_tegra_level_size(8, 8, 3), 0);
	ck_assert_uint_eq(nm_tegra_level_span(0, 8, 1), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("codec_tegra");
	TCase *tc = tcase_create("block-linear");
	tcase_add_test(tc, gob_offsets);
	tcase_add_test(tc, block_offsets);
	tcase_add_test(tc, block_heights);
	tcase_add_loop_test(tc, surface_sizes, 0, sizeof surface_cases / sizeof surface_cases[0]);
	tcase_add_test(tc, layout_fields);
	tcase_add_test(tc, layout_rejects);
	tcase_add_test(tc, deswizzle_one_gob);
	tcase_add_test(tc, round_trips);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
