/* Known-answer tests for the PICA200 texture decoder and the ETC1 block decoder.
 * Every expected value below was worked out by hand from FORMATS.md section 1. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/etc1.h"
#include "codec/pica.h"
#include "tests/known_image.h"

/* Storage index of the texel at [y][x] inside one 8x8 tile: bits of the index,
 * LSB first, are x0 y0 x1 y1 x2 y2. */
static const uint8_t morton_grid[8][8] = {
	{ 0, 1, 4, 5, 16, 17, 20, 21 },
	{ 2, 3, 6, 7, 18, 19, 22, 23 },
	{ 8, 9, 12, 13, 24, 25, 28, 29 },
	{ 10, 11, 14, 15, 26, 27, 30, 31 },
	{ 32, 33, 36, 37, 48, 49, 52, 53 },
	{ 34, 35, 38, 39, 50, 51, 54, 55 },
	{ 40, 41, 44, 45, 56, 57, 60, 61 },
	{ 42, 43, 46, 47, 58, 59, 62, 63 },
};

#define CK_PX(img, w, x, y, r, g, b, a) do { \
	const uint8_t *p_ = (img) + ((size_t)(y) * (w) + (size_t)(x)) * 4; \
	ck_assert_msg(p_[0] == (r) && p_[1] == (g) && p_[2] == (b) && p_[3] == (a), \
		      "pixel (%u,%u) = %u,%u,%u,%u, want %u,%u,%u,%u", \
		      (unsigned)(x), (unsigned)(y), p_[0], p_[1], p_[2], p_[3], \
		      (unsigned)(r), (unsigned)(g), (unsigned)(b), (unsigned)(a)); \
} while (0)

/* Poison the output first so a pixel the decoder forgot cannot pass by luck. */
static void decode_ok(nm_pica_format f, const uint8_t *src, size_t len,
		      unsigned w, unsigned h, uint8_t *out)
{
	memset(out, 0xCD, (size_t)w * h * 4);
	ck_assert_int_eq(nm_pica_decode(f, src, len, w, h, out), NM_OK);
}

/* ---- tiling ---- */

START_TEST(test_morton_l8_8x8)
{
	uint8_t src[64], out[8 * 8 * 4];
	static const struct { unsigned i, x, y; } spots[] = {
		{ 0, 0, 0 }, { 1, 1, 0 }, { 2, 0, 1 }, { 3, 1, 1 }, { 4, 2, 0 },
		{ 5, 3, 0 }, { 8, 0, 2 }, { 13, 3, 2 }, { 16, 4, 0 }, { 21, 7, 0 },
		{ 32, 0, 4 }, { 42, 0, 7 }, { 54, 6, 5 }, { 63, 7, 7 },
	};

	for (unsigned i = 0; i < 64; i++)
		src[i] = (uint8_t)i;
	decode_ok(NM_PICA_L8, src, sizeof src, 8, 8, out);
	for (size_t k = 0; k < sizeof spots / sizeof spots[0]; k++) {
		unsigned v = spots[k].i;
		CK_PX(out, 8, spots[k].x, spots[k].y, v, v, v, 255);
	}
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 8; x++) {
			unsigned v = morton_grid[y][x];
			CK_PX(out, 8, x, y, v, v, v, 255);
		}
}
END_TEST

START_TEST(test_tiles_16x16)
{
	uint8_t src[256], out[16 * 16 * 4];

	for (unsigned i = 0; i < 256; i++)
		src[i] = (uint8_t)i;
	decode_ok(NM_PICA_L8, src, sizeof src, 16, 16, out);
	/* Tiles row-major: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right. */
	CK_PX(out, 16, 7, 7, 63, 63, 63, 255);
	CK_PX(out, 16, 8, 0, 64, 64, 64, 255);
	CK_PX(out, 16, 0, 8, 128, 128, 128, 255);
	CK_PX(out, 16, 9, 8, 193, 193, 193, 255);
	CK_PX(out, 16, 15, 15, 255, 255, 255, 255);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 16; x++) {
			unsigned v = ((y / 8) * 2 + x / 8) * 64 + morton_grid[y % 8][x % 8];
			CK_PX(out, 16, x, y, v, v, v, 255);
		}
}
END_TEST

START_TEST(test_tiles_non_square)
{
	uint8_t src[128], out[16 * 8 * 4];

	for (unsigned i = 0; i < 128; i++)
		src[i] = (uint8_t)i;
	decode_ok(NM_PICA_L8, src, sizeof src, 16, 8, out);
	CK_PX(out, 16, 8, 0, 64, 64, 64, 255);
	CK_PX(out, 16, 15, 7, 127, 127, 127, 255);
	CK_PX(out, 16, 7, 7, 63, 63, 63, 255);

	decode_ok(NM_PICA_L8, src, sizeof src, 8, 16, out);
	CK_PX(out, 8, 0, 8, 64, 64, 64, 255);
	CK_PX(out, 8, 1, 8, 65, 65, 65, 255);
	CK_PX(out, 8, 7, 15, 127, 127, 127, 255);
}
END_TEST

/* ---- byte formats: one 8x8 tile each (tests/known_image.h) ---- */

static const known_image tiles[] = {
	/* Memory order A, B, G, R. */
	{ "RGBA8", NM_PICA_RGBA8, 8, 8, 256,
	  KI_SETS(KI_SET(0, 0x11, 0x22, 0x33, 0x44), KI_SET(12, 0xA0, 0xB0, 0xC0, 0xD0),
		  KI_SET(252, 1, 2, 3, 4)),
	  KI_WANT(KI_PX(0, 0, 0x44, 0x33, 0x22, 0x11), KI_PX(1, 1, 0xD0, 0xC0, 0xB0, 0xA0),
		  KI_PX(7, 7, 4, 3, 2, 1), KI_PX(1, 0, 0, 0, 0, 0)) },
	/* Memory order B, G, R. */
	{ "RGB8", NM_PICA_RGB8, 8, 8, 192,
	  KI_SETS(KI_SET(0, 0x01, 0x02, 0x03), KI_SET(6, 0x10, 0x20, 0x30),
		  KI_SET(63, 0xAA, 0xBB, 0xCC)),
	  KI_WANT(KI_PX(0, 0, 3, 2, 1, 255), KI_PX(0, 1, 0x30, 0x20, 0x10, 255),
		  KI_PX(7, 0, 0xCC, 0xBB, 0xAA, 255), KI_PX(1, 0, 0, 0, 0, 255)) },
	/* 0xF821: R 31, G 0, B 16, A 1. 0xAA86: R 21, G 10, B 3, A 0. */
	{ "RGBA5551", NM_PICA_RGBA5551, 8, 8, 128,
	  KI_SETS(KI_SET(0, 0x21, 0xF8), KI_SET(2, 0x86, 0xAA)),
	  KI_WANT(KI_PX(0, 0, 255, 0, 132, 255), KI_PX(1, 0, 173, 82, 24, 0),
		  KI_PX(0, 1, 0, 0, 0, 0)) },
	/* 0x001F: only blue. Texel 4 = 0xAD49: R 21, G 42, B 9. */
	{ "RGB565", NM_PICA_RGB565, 8, 8, 128,
	  KI_SETS(KI_SET(0, 0x1F, 0x00), KI_SET(8, 0x49, 0xAD)),
	  KI_WANT(KI_PX(0, 0, 0, 0, 255, 255), KI_PX(2, 0, 173, 170, 74, 255),
		  KI_PX(1, 0, 0, 0, 0, 255)) },
	/* Texel 1 = 0x12AF. */
	{ "RGBA4", NM_PICA_RGBA4, 8, 8, 128,
	  KI_SETS(KI_SET(2, 0xAF, 0x12)),
	  KI_WANT(KI_PX(1, 0, 0x11, 0x22, 0xAA, 0xFF), KI_PX(0, 0, 0, 0, 0, 0)) },
	/* Texel 8: A then L. */
	{ "LA8", NM_PICA_LA8, 8, 8, 128,
	  KI_SETS(KI_SET(16, 0x40, 0xC8)),
	  KI_WANT(KI_PX(0, 2, 0xC8, 0xC8, 0xC8, 0x40), KI_PX(0, 0, 0, 0, 0, 0)) },
	/* Texel 2: G then R. */
	{ "HILO8", NM_PICA_HILO8, 8, 8, 128,
	  KI_SETS(KI_SET(4, 0x12, 0x34)),
	  KI_WANT(KI_PX(0, 1, 0x34, 0x12, 0, 255), KI_PX(0, 0, 0, 0, 0, 255)) },
	{ "A8", NM_PICA_A8, 8, 8, 64,
	  KI_SETS(KI_SET(5, 0x7F)),
	  KI_WANT(KI_PX(3, 0, 255, 255, 255, 0x7F), KI_PX(0, 0, 255, 255, 255, 0)) },
	/* High nibble L, low nibble A. */
	{ "LA4", NM_PICA_LA4, 8, 8, 64,
	  KI_SETS(KI_SET(3, 0xA3)),
	  KI_WANT(KI_PX(1, 1, 0xAA, 0xAA, 0xAA, 0x33), KI_PX(0, 0, 0, 0, 0, 0)) },
	{ "A4", NM_PICA_A4, 8, 8, 32,
	  KI_SETS(KI_SET(0, 0x2D)),
	  KI_WANT(KI_PX(0, 0, 255, 255, 255, 0xDD), KI_PX(1, 0, 255, 255, 255, 0x22),
		  KI_PX(0, 1, 255, 255, 255, 0)) },
};

START_TEST(test_tile)
{
	const known_image *k = &tiles[_i];
	uint8_t src[256], out[8 * 8 * 4];

	ki_source(k, src);
	decode_ok((nm_pica_format)k->format, src, k->len, k->w, k->h, out);
	ki_check(k, out);
}
END_TEST

START_TEST(test_l4)
{
	uint8_t src[64] = { 0 }, out[16 * 8 * 4];

	/* Even texel = low nibble. */
	src[0] = 0x1E;
	src[2] = 0x5C;
	src[31] = 0x70;
	decode_ok(NM_PICA_L4, src, 32, 8, 8, out);
	CK_PX(out, 8, 0, 0, 0xEE, 0xEE, 0xEE, 255);
	CK_PX(out, 8, 1, 0, 0x11, 0x11, 0x11, 255);
	CK_PX(out, 8, 2, 0, 0xCC, 0xCC, 0xCC, 255);
	CK_PX(out, 8, 3, 0, 0x55, 0x55, 0x55, 255);
	CK_PX(out, 8, 6, 7, 0, 0, 0, 255);
	CK_PX(out, 8, 7, 7, 0x77, 0x77, 0x77, 255);

	/* The second tile starts at byte 32, i.e. texel 64. */
	src[32] = 0x93;
	decode_ok(NM_PICA_L4, src, 64, 16, 8, out);
	CK_PX(out, 16, 0, 0, 0xEE, 0xEE, 0xEE, 255);
	CK_PX(out, 16, 8, 0, 0x33, 0x33, 0x33, 255);
	CK_PX(out, 16, 9, 0, 0x99, 0x99, 0x99, 255);
	CK_PX(out, 16, 8, 1, 0, 0, 0, 255);
}
END_TEST

/* ---- ETC1 ---- */

/* Selector code of each pixel in the test blocks, [y][x]; lo word 0x3C3CA55A
 * (LSBs 0xA55A, MSBs 0x3C3C) encodes exactly this, pixel k = (k/4, k%4). */
static const uint8_t sel_grid[4][4] = {
	{ 0, 3, 1, 2 },
	{ 1, 2, 0, 3 },
	{ 2, 1, 3, 0 },
	{ 3, 0, 2, 1 },
};

/* Individual block 0x824F0C60_3C3CA55A: base1 (0x88,0x44,0x00) table 3 (13,42),
 * base2 (0x22,0xFF,0xCC) table 0 (2,8). palette[sub][selector] = RGB. */
static const uint8_t indiv_pal[2][4][3] = {
	{ { 149, 81, 13 }, { 178, 110, 42 }, { 123, 55, 0 }, { 94, 26, 0 } },
	{ { 36, 255, 206 }, { 42, 255, 212 }, { 32, 253, 202 }, { 26, 247, 196 } },
};
#define INDIV_FLIP0 UINT64_C(0x824F0C603C3CA55A)
#define INDIV_FLIP1 UINT64_C(0x824F0C613C3CA55A)
static const uint8_t indiv_flip0_le[8] = { 0x5A, 0xA5, 0x3C, 0x3C, 0x60, 0x0C, 0x4F, 0x82 };

/* One 4x4 block viewed as a 4-pixel-wide image, for CK_PX. */
static const uint8_t *flat(uint8_t blk[4][4][4])
{
	return (const uint8_t *)blk;
}

static void check_block(uint8_t blk[4][4][4], const uint8_t pal[2][4][3], int flip)
{
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			unsigned sub = flip ? (y >= 2) : (x >= 2);
			const uint8_t *c = pal[sub][sel_grid[y][x]];
			CK_PX(flat(blk), 4, x, y, c[0], c[1], c[2], 255);
		}
}

START_TEST(test_etc1_individual_flip0)
{
	uint8_t blk[4][4][4];

	nm_etc1_decode_block(INDIV_FLIP0, blk);
	check_block(blk, indiv_pal, 0);
	/* Spelled out: left half from sub-block 1, right half from sub-block 2. */
	CK_PX(flat(blk), 4, 0, 0, 149, 81, 13, 255);
	CK_PX(flat(blk), 4, 1, 0, 94, 26, 0, 255);
	CK_PX(flat(blk), 4, 2, 0, 42, 255, 212, 255);
	CK_PX(flat(blk), 4, 0, 3, 94, 26, 0, 255);
	CK_PX(flat(blk), 4, 3, 3, 42, 255, 212, 255);
}
END_TEST

START_TEST(test_etc1_individual_flip1)
{
	uint8_t blk[4][4][4];

	nm_etc1_decode_block(INDIV_FLIP1, blk);
	check_block(blk, indiv_pal, 1);
	/* Top half from sub-block 1, bottom half from sub-block 2. */
	CK_PX(flat(blk), 4, 2, 0, 178, 110, 42, 255);
	CK_PX(flat(blk), 4, 3, 1, 94, 26, 0, 255);
	CK_PX(flat(blk), 4, 0, 2, 32, 253, 202, 255);
	CK_PX(flat(blk), 4, 1, 3, 36, 255, 206, 255);
}
END_TEST

START_TEST(test_etc1_differential)
{
	/* R1 20 dR -3, G1 5 dG +3, B1 31 dB -4; tables 7 (47,183) and 5 (24,80).
	 * base1 = (165,41,255), base2 = R 17, G 8, B 27 -> (140,66,222). */
	static const uint8_t pal[2][4][3] = {
		{ { 212, 88, 255 }, { 255, 224, 255 }, { 118, 0, 208 }, { 0, 0, 72 } },
		{ { 164, 90, 246 }, { 220, 146, 255 }, { 116, 42, 198 }, { 60, 0, 142 } },
	};
	uint8_t blk[4][4][4];

	nm_etc1_decode_block(UINT64_C(0xA52BFCF63C3CA55A), blk);
	check_block(blk, pal, 0);
	CK_PX(flat(blk), 4, 0, 3, 0, 0, 72, 255);
	CK_PX(flat(blk), 4, 3, 0, 116, 42, 198, 255);
}
END_TEST

START_TEST(test_etc1_modifier_tables)
{
	/* Base 0x88 everywhere, both sub-blocks on table t; pixels (0,0)..(0,3)
	 * select codes 0..3 (LSBs 0xA, MSBs 0xC): +small, +large, -small, -large. */
	static const uint8_t want[8][4] = {
		{ 138, 144, 134, 128 }, { 141, 153, 131, 119 },
		{ 145, 165, 127, 107 }, { 149, 178, 123, 94 },
		{ 154, 196, 118, 76 }, { 160, 216, 112, 56 },
		{ 169, 242, 103, 30 }, { 183, 255, 89, 0 },
	};
	uint8_t blk[4][4][4];

	for (unsigned t = 0; t < 8; t++) {
		uint64_t hi = 0x88888800u | t << 5 | t << 2;

		nm_etc1_decode_block(hi << 32 | 0x000C000Au, blk);
		for (unsigned y = 0; y < 4; y++)
			CK_PX(flat(blk), 4, 0, y, want[t][y], want[t][y], want[t][y], 255);
		CK_PX(flat(blk), 4, 1, 0, want[t][0], want[t][0], want[t][0], 255);
	}
}
END_TEST

START_TEST(test_etc1_words)
{
	static const uint8_t be[8] = { 0x82, 0x4F, 0x0C, 0x60, 0x3C, 0x3C, 0xA5, 0x5A };

	ck_assert(nm_etc1_word_be(be) == INDIV_FLIP0);
	ck_assert(nm_etc1_word_le(indiv_flip0_le) == INDIV_FLIP0);
}
END_TEST

/* Uniform individual block, all selectors 0 (+2, table 0), little-endian. */
static void uniform_block(uint8_t *dst, uint8_t nibble_pair)
{
	memset(dst, 0, 5);
	memset(dst + 5, nibble_pair, 3);
}

START_TEST(test_etc1_pica)
{
	uint8_t src[32], out[8 * 8 * 4];

	uniform_block(src + 0, 0x11);
	uniform_block(src + 8, 0x33);
	uniform_block(src + 16, 0x55);
	memcpy(src + 24, indiv_flip0_le, 8);
	decode_ok(NM_PICA_ETC1, src, sizeof src, 8, 8, out);
	/* Z order inside the tile: (0,0) (4,0) (0,4) (4,4). */
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			const uint8_t *c = indiv_pal[x >= 2][sel_grid[y][x]];
			CK_PX(out, 8, x, y, 19, 19, 19, 255);
			CK_PX(out, 8, 4 + x, y, 53, 53, 53, 255);
			CK_PX(out, 8, x, 4 + y, 87, 87, 87, 255);
			CK_PX(out, 8, 4 + x, 4 + y, c[0], c[1], c[2], 255);
		}
	CK_PX(out, 8, 5, 4, 94, 26, 0, 255);
	CK_PX(out, 8, 7, 7, 42, 255, 212, 255);
}
END_TEST

START_TEST(test_etc1a4_pica)
{
	static const uint8_t ramp[8] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE };
	uint8_t src[64] = { 0 }, out[8 * 8 * 4];

	memcpy(src + 0, ramp, 8);
	uniform_block(src + 8, 0x11);
	src[16] = 0x0A;
	uniform_block(src + 24, 0x33);
	memset(src + 32, 0xFF, 8);
	uniform_block(src + 40, 0x55);
	memset(src + 48, 0xFF, 8);
	memcpy(src + 56, indiv_flip0_le, 8);
	decode_ok(NM_PICA_ETC1A4, src, sizeof src, 8, 8, out);

	/* Nibble n is pixel (n/4, n%4): alpha = 17 * (4x + y). */
	CK_PX(out, 8, 0, 0, 19, 19, 19, 0);
	CK_PX(out, 8, 0, 1, 19, 19, 19, 17);
	CK_PX(out, 8, 0, 2, 19, 19, 19, 34);
	CK_PX(out, 8, 0, 3, 19, 19, 19, 51);
	CK_PX(out, 8, 1, 0, 19, 19, 19, 68);
	CK_PX(out, 8, 2, 1, 19, 19, 19, 153);
	CK_PX(out, 8, 3, 3, 19, 19, 19, 255);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			CK_PX(out, 8, x, y, 19, 19, 19, 17 * (4 * x + y));

	CK_PX(out, 8, 4, 0, 53, 53, 53, 0xAA);
	CK_PX(out, 8, 4, 1, 53, 53, 53, 0);
	CK_PX(out, 8, 5, 0, 53, 53, 53, 0);
	CK_PX(out, 8, 0, 4, 87, 87, 87, 255);
	CK_PX(out, 8, 3, 7, 87, 87, 87, 255);
	CK_PX(out, 8, 5, 4, 94, 26, 0, 255);
	CK_PX(out, 8, 7, 7, 42, 255, 212, 255);
}
END_TEST

/* ---- table, sizes, errors ---- */

/* Decoded in bands of tile rows on several threads, a level is the same texels: ETC1,
 * ETC1A4 (every bit pattern is a block) and a per-texel format, on random bytes. */
START_TEST(test_bands_same_texels)
{
	static const nm_pica_format fmts[] = { NM_PICA_ETC1, NM_PICA_ETC1A4, NM_PICA_RGB565 };
	unsigned w = 2048, h = 1024;   /* 128 rows of tiles: two bands or more */
	size_t n = (size_t)w * h * 4;
	uint8_t *src = malloc(n), *one = malloc(n), *many = malloc(n);
	ck_assert_ptr_nonnull(src);
	for (size_t i = 0; i < n; i++)
		src[i] = (uint8_t)(i * 2654435761u >> 11);
	for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
		size_t len = nm_pica_level_size(fmts[k], w, h);
		decode_ok(fmts[k], src, len, w, h, one);
		for (unsigned threads = 2; threads <= 5; threads += 3) {
			memset(many, 0xCD, n);
			ck_assert_int_eq(nm_pica_decode_threads(fmts[k], src, len, w, h, many, threads),
					 NM_OK);
			ck_assert_msg(memcmp(one, many, n) == 0, "%s on %u threads differs",
				      nm_pica_format_name(fmts[k]), threads);
		}
	}
	free(src);
	free(one);
	free(many);
}
END_TEST

START_TEST(test_bpp_and_names)
{
	static const unsigned bpp[NM_PICA_FORMAT_COUNT] = {
		32, 24, 16, 16, 16, 16, 16, 8, 8, 8, 4, 4, 4, 8
	};

	for (int f = 0; f < NM_PICA_FORMAT_COUNT; f++) {
		ck_assert_uint_eq(nm_pica_bits_per_pixel((nm_pica_format)f), bpp[f]);
		ck_assert_ptr_nonnull(nm_pica_format_name((nm_pica_format)f));
	}
	ck_assert_uint_eq(nm_pica_bits_per_pixel(NM_PICA_UNKNOWN), 0);
	ck_assert_uint_eq(nm_pica_bits_per_pixel(NM_PICA_FORMAT_COUNT), 0);
	ck_assert_str_eq(nm_pica_format_name(NM_PICA_RGBA8), "RGBA8");
	ck_assert_str_eq(nm_pica_format_name(NM_PICA_HILO8), "HILO8");
	ck_assert_str_eq(nm_pica_format_name(NM_PICA_LA4), "LA4");
	ck_assert_str_eq(nm_pica_format_name(NM_PICA_ETC1A4), "ETC1A4");
	ck_assert_ptr_null(nm_pica_format_name(NM_PICA_UNKNOWN));
	ck_assert_ptr_null(nm_pica_format_name(NM_PICA_FORMAT_COUNT));
}
END_TEST

START_TEST(test_level_size)
{
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 8, 8), 256);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGB8, 8, 8), 192);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGB565, 8, 16), 256);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_A8, 16, 16), 256);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_L4, 16, 8), 64);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_ETC1, 8, 8), 32);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_ETC1A4, 8, 8), 64);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_ETC1, 1024, 512), 262144);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 16384, 16384), (size_t)1 << 30);

	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 0, 8), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 8, 0), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 12, 8), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 8, 4), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_L4, 4, 4), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 16392, 8), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_RGBA8, 8, 16392), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_UNKNOWN, 8, 8), 0);
	ck_assert_uint_eq(nm_pica_level_size(NM_PICA_FORMAT_COUNT, 8, 8), 0);
}
END_TEST

START_TEST(test_decode_errors)
{
	static uint8_t src[256];
	uint8_t out[16 * 16 * 4];

	ck_assert_int_eq(nm_pica_decode(NM_PICA_RGBA8, src, 255, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_RGBA8, src, 256, 8, 8, out), NM_OK);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L4, src, 31, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_ETC1, src, 31, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_ETC1A4, src, 63, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_ETC1A4, src, 64, 8, 8, out), NM_OK);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_RGBA8, src, 256, 16, 16, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, src, 0, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, NULL, 0, 8, 8, out), NM_E_FORMAT);

	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, src, sizeof src, 8, 12, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, src, sizeof src, 0, 8, out), NM_E_FORMAT);
	/* Rejected from the header alone: neither buffer is touched. */
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, src, SIZE_MAX, 16392, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_UNKNOWN, src, sizeof src, 8, 8, out), NM_E_FORMAT);
	ck_assert_int_eq(nm_pica_decode(NM_PICA_L8, src, sizeof src, 8, 8, NULL), NM_E_INVAL);
}
END_TEST

START_TEST(test_format_from_gl)
{
	static const struct { uint32_t gl; nm_pica_format f; } codes[] = {
		{ 0x14016752, NM_PICA_RGBA8 },
		{ 0x14016754, NM_PICA_RGB8 },
		{ 0x80346752, NM_PICA_RGBA5551 },
		{ 0x83636754, NM_PICA_RGB565 },
		{ 0x80336752, NM_PICA_RGBA4 },
		{ 0x14016756, NM_PICA_A8 },
		{ 0x67616756, NM_PICA_A4 },
		{ 0x14016757, NM_PICA_L8 },
		{ 0x67616757, NM_PICA_L4 },
		{ 0x14016758, NM_PICA_LA8 },
		{ 0x67606758, NM_PICA_LA4 },
		{ 0x14016759, NM_PICA_HILO8 },
		{ 0x0000675A, NM_PICA_ETC1 },
		{ 0x1401675A, NM_PICA_ETC1 },
		{ 0x0000675B, NM_PICA_ETC1A4 },
		{ 0x1401675B, NM_PICA_ETC1A4 },
	};
	static const uint32_t bad[] = {
		0x14016753, 0x0000675C, 0x00006040, 0x00006050, 0x00006752, 0, 0xFFFFFFFF,
	};

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		ck_assert_int_eq(nm_pica_format_from_gl(codes[i].gl), codes[i].f);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_int_eq(nm_pica_format_from_gl(bad[i]), NM_PICA_UNKNOWN);
}
END_TEST

static Suite *pica_suite(void)
{
	Suite *s = suite_create("codec_pica");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_morton_l8_8x8);
	tcase_add_test(tc, test_tiles_16x16);
	tcase_add_test(tc, test_tiles_non_square);
	tcase_add_loop_test(tc, test_tile, 0, sizeof tiles / sizeof tiles[0]);
	tcase_add_test(tc, test_l4);
	tcase_add_test(tc, test_bands_same_texels);
	tcase_add_test(tc, test_etc1_individual_flip0);
	tcase_add_test(tc, test_etc1_individual_flip1);
	tcase_add_test(tc, test_etc1_differential);
	tcase_add_test(tc, test_etc1_modifier_tables);
	tcase_add_test(tc, test_etc1_words);
	tcase_add_test(tc, test_etc1_pica);
	tcase_add_test(tc, test_etc1a4_pica);
	tcase_add_test(tc, test_bpp_and_names);
	tcase_add_test(tc, test_level_size);
	tcase_add_test(tc, test_decode_errors);
	tcase_add_test(tc, test_format_from_gl);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(pica_suite)
