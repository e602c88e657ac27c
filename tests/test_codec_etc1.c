/* The ETC1 block decoder against a reference written here from the specification
 * (Khronos OES_compressed_ETC1_RGB8_texture, section "ETC1 compressed texture image
 * formats"): the block as its eight big-endian bytes, each field read bit by bit,
 * one pixel at a time, with plain comparisons for the clamp. The decoder under test
 * works on whole words and builds palettes; agreeing on every mode, flip, table,
 * delta and clamp is the point. Every test runs once per kernel (AVX2, SSE2,
 * portable); one this build or CPU lacks says so and passes. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/etc1.h"
#include "codec/pica.h"
#include "tests/prng.h"

/* ---- the reference ---- */

/* Bit n of the 64-bit block, numbered as the specification does (63 = first byte's
 * top bit). */
static unsigned ref_bit(const uint8_t be[8], unsigned n)
{
	return (be[7 - n / 8] >> (n % 8)) & 1;
}

/* Bits hi..lo as a number. */
static unsigned ref_field(const uint8_t be[8], unsigned hi, unsigned lo)
{
	unsigned v = 0;

	for (unsigned n = hi + 1; n-- > lo;)
		v = v << 1 | ref_bit(be, n);
	return v;
}

/* The specification's modifier table: one row per codeword, one column per pixel
 * index (MSB, LSB) = 00, 01, 10, 11. */
static const int ref_modifier[8][4] = {
	{ 2, 8, -2, -8 }, { 5, 17, -5, -17 }, { 9, 29, -9, -29 }, { 13, 42, -13, -42 },
	{ 18, 60, -18, -60 }, { 24, 80, -24, -80 }, { 33, 106, -33, -106 },
	{ 47, 183, -47, -183 },
};

struct ref_stats { unsigned long low, high; };   /* channels clamped to 0, to 255 */

/* Pixel (x, y) of block be: rgb[3]. A differential base whose sum leaves 0..31 (the
 * specification leaves it undefined) wraps to five bits, as the decoder documents. */
static void ref_pixel(const uint8_t be[8], unsigned x, unsigned y, uint8_t rgb[3],
		      struct ref_stats *st)
{
	unsigned flip = ref_bit(be, 32), diff = ref_bit(be, 33);
	unsigned second = flip ? y >= 2 : x >= 2;
	unsigned table = second ? ref_field(be, 36, 34) : ref_field(be, 39, 37);
	unsigned index = ref_bit(be, 16 + 4 * x + y) << 1 | ref_bit(be, 4 * x + y);

	for (unsigned c = 0; c < 3; c++) {
		unsigned top = 63 - 8 * c;   /* R at 63, G at 55, B at 47 */
		int base;

		if (diff) {
			int b = (int)ref_field(be, top, top - 4);
			int d = (int)ref_field(be, top - 5, top - 7);

			if (d >= 4)
				d -= 8;
			if (second)
				b = (b + d + 32) % 32;
			base = b << 3 | b >> 2;
		} else {
			int b = (int)(second ? ref_field(be, top - 4, top - 7)
					     : ref_field(be, top, top - 3));
			base = b << 4 | b;
		}
		int v = base + ref_modifier[table][index];
		if (v < 0) {
			v = 0;
			st->low++;
		} else if (v > 255) {
			v = 255;
			st->high++;
		}
		rgb[c] = (uint8_t)v;
	}
}

/* ---- comparing ---- */

static struct ref_stats stats;

static const char *const kernel_names[] = { "AVX2", "SSE2", "portable" };
#define KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])
static nm_etc1_decode_fn *kernel;

/* Take kernel i for this test; false (and a line saying so) when it is missing. */
static int use_kernel(int i, const char *test)
{
	kernel = nm_etc1_decoder_named(kernel_names[i]);
	if (!kernel)
		printf("codec_etc1: %s: no %s kernel in this build or on this CPU, not run\n",
		       test, kernel_names[i]);
	return kernel != NULL;
}

static void be_bytes(uint64_t word, uint8_t be[8])
{
	for (unsigned i = 0; i < 8; i++)
		be[i] = (uint8_t)(word >> (56 - 8 * i));
}

/* Decode into the middle of a larger image (row stride 40 bytes, the block at x = 2,
 * y = 1) and check every pixel against the reference, alpha against nibble 4x + y
 * of alpha widened, and that nothing around the block was written. */
static void check_block(uint64_t word, uint64_t alpha)
{
	enum { STRIDE = 40, ROWS = 6, AT = 1 * STRIDE + 2 * 4 };
	uint8_t img[STRIDE * ROWS], be[8];

	memset(img, 0xA5, sizeof img);
	be_bytes(word, be);
	kernel(word, alpha, img + AT, STRIDE);
	for (unsigned y = 0; y < ROWS; y++)
		for (unsigned x = 0; x < STRIDE / 4; x++) {
			const uint8_t *p = img + y * STRIDE + x * 4;
			uint8_t want[4] = { 0xA5, 0xA5, 0xA5, 0xA5 };

			if (x >= 2 && x < 6 && y >= 1 && y < 5) {
				unsigned bx = x - 2, by = y - 1;

				ref_pixel(be, bx, by, want, &stats);
				want[3] = (uint8_t)(((alpha >> (4 * (4 * bx + by))) & 15) * 17);
			}
			/* Check records every assertion it passes: only failures call it. */
			if (memcmp(p, want, 4))
				ck_abort_msg("block %016llx alpha %016llx, image pixel (%u,%u) = "
					     "%u,%u,%u,%u, want %u,%u,%u,%u", (unsigned long long)word,
					     (unsigned long long)alpha, x, y, p[0], p[1], p[2], p[3],
					     want[0], want[1], want[2], want[3]);
		}
}

static uint64_t random_word(uint32_t *s)
{
	uint64_t hi = xorshift(s);
	return hi << 32 | xorshift(s);
}

/* ---- tests ---- */

/* The kernel nm_pica_decode uses is one of them, the first this CPU runs; and the
 * portable one is always there. */
START_TEST(test_kernel_choice)
{
	const char *name = NULL;
	nm_etc1_decode_fn *best = nm_etc1_decoder(&name);
	int i = 0;

	while (!nm_etc1_decoder_named(kernel_names[i]))
		i++;
	printf("codec_etc1: images use the %s kernel\n", name);
	ck_assert_str_eq(name, kernel_names[i]);
	ck_assert_ptr_eq(best, nm_etc1_decoder_named(name));
	ck_assert_ptr_nonnull(nm_etc1_decoder_named("portable"));
	ck_assert_ptr_null(nm_etc1_decoder_named("NEON9"));
}
END_TEST

/* The low byte of the colour half is the two tables, diff and flip: all 256, each
 * with random colours and selectors. */
START_TEST(test_every_mode_and_table)
{
	if (!use_kernel(_i, "every_mode_and_table"))
		return;
	uint32_t s = 0x1234567u;

	for (unsigned ctl = 0; ctl < 256; ctl++)
		for (unsigned n = 0; n < 64; n++) {
			uint64_t w = random_word(&s);

			w = (w & ~(UINT64_C(0xFF) << 32)) | (uint64_t)ctl << 32;
			check_block(w, NM_ETC1_OPAQUE);
		}
}
END_TEST

/* Every value of each channel's byte in both modes: individual, every pair of 4-bit
 * bases; differential, every 5-bit base with every 3-bit delta (sums below 0 and
 * above 31 included). Both flips, random tables and selectors. */
START_TEST(test_every_channel_byte)
{
	if (!use_kernel(_i, "every_channel_byte"))
		return;
	uint32_t s = 0xBEEFu;

	for (unsigned v = 0; v < 256; v++)
		for (unsigned c = 0; c < 3; c++)
			for (unsigned mode = 0; mode < 4; mode++) {   /* diff, flip */
				uint64_t w = random_word(&s);
				unsigned sh = 56 - 8 * c;

				w = (w & ~(UINT64_C(0xFF) << sh)) | (uint64_t)v << sh;
				w = (w & ~(UINT64_C(3) << 32)) | (uint64_t)mode << 32;
				check_block(w, NM_ETC1_OPAQUE);
			}
}
END_TEST

/* Clamping, spelled out: individual block, R base 0xFF, G 0x88, B 0x00, both
 * sub-blocks on table 7 (47, 183), flip 0. Column x selects code x in every row
 * (LSBs of columns 1 and 3, MSBs of columns 2 and 3). */
START_TEST(test_clamp_both_ends)
{
	if (!use_kernel(_i, "clamp_both_ends"))
		return;
	static const uint8_t want[4][3] = {
		{ 255, 183, 47 },   /* +47 */
		{ 255, 255, 183 },  /* +183: R and G clamp high */
		{ 208, 89, 0 },     /* -47: B clamps low */
		{ 72, 0, 0 },       /* -183: G and B clamp low */
	};
	uint64_t w = (uint64_t)(0xFF880000u | 7u << 5 | 7u << 2) << 32 | 0xFF00F0F0u;
	uint8_t img[4][4][4];

	kernel(w, NM_ETC1_OPAQUE, &img[0][0][0], 16);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			const uint8_t *p = img[y][x];

			ck_assert_msg(p[0] == want[x][0] && p[1] == want[x][1] &&
				      p[2] == want[x][2] && p[3] == 255,
				      "(%u,%u) = %u,%u,%u,%u", x, y, p[0], p[1], p[2], p[3]);
		}
	check_block(w, NM_ETC1_OPAQUE);
}
END_TEST

/* Random blocks with random alpha words, and a check that the random tests met
 * both clamps often (so that they could have failed there). */
START_TEST(test_random_blocks)
{
	if (!use_kernel(_i, "random_blocks"))
		return;
	uint32_t s = 0x2545F491u;

	memset(&stats, 0, sizeof stats);
	for (unsigned n = 0; n < 50000; n++) {
		uint64_t w = random_word(&s);

		check_block(w, random_word(&s));
	}
	ck_assert_uint_gt(stats.low, 10000);
	ck_assert_uint_gt(stats.high, 10000);
}
END_TEST

/* ETC1A4's alpha: nibble n is pixel (n / 4, n % 4), down the columns like the
 * selectors; a block of one alpha (the palette carries it) and a block where one
 * nibble differs from the rest (every pixel gets its own) must both be right. */
START_TEST(test_alpha_nibbles)
{
	if (!use_kernel(_i, "alpha_nibbles"))
		return;
	uint32_t s = 0xA1FAu;
	uint64_t w = random_word(&s);
	uint8_t img[4 * 4 * 4];

	kernel(w, UINT64_C(0xFEDCBA9876543210), img, 16);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			ck_assert_uint_eq(img[(y * 4 + x) * 4 + 3], 17 * (4 * x + y));
	check_block(w, UINT64_C(0xFEDCBA9876543210));
	check_block(w, UINT64_C(0x0123456789ABCDEF));
	for (uint64_t v = 0; v < 16; v++) {
		uint64_t same = v * UINT64_C(0x1111111111111111);

		check_block(w, same);
		for (unsigned n = 0; n < 16; n++)
			check_block(random_word(&s), same ^ (UINT64_C(1) + (v & 7)) << (4 * n));
	}
}
END_TEST

/* The words from the bytes of each storage order. */
START_TEST(test_words)
{
	static const uint8_t b[8] = { 0x82, 0x4F, 0x0C, 0x60, 0x3C, 0x3C, 0xA5, 0x5A };

	ck_assert(nm_etc1_word_be(b) == UINT64_C(0x824F0C603C3CA55A));
	ck_assert(nm_etc1_word_le(b) == UINT64_C(0x5AA53C3C600C4F82));
}
END_TEST

/* PICA: a 24 x 16 image (three tiles by two) of random blocks, ETC1 and ETC1A4, each
 * pixel against the reference at the block's place (tiles row-major, four blocks per
 * tile in Z order, little-endian words; ETC1A4's 8 alpha bytes first, FORMATS.md
 * section 1.4). */
START_TEST(test_pica_image)
{
	enum { W = 24, H = 16, BLOCKS = W * H / 16 };
	uint8_t src[BLOCKS * 16], out[W * H * 4];
	uint32_t s = 0x5EEDu;

	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)xorshift(&s);
	for (int alpha = 0; alpha < 2; alpha++) {
		size_t bytes = alpha ? 16 : 8;

		memset(out, 0xCD, sizeof out);
		ck_assert_int_eq(nm_pica_decode(alpha ? NM_PICA_ETC1A4 : NM_PICA_ETC1, src,
						BLOCKS * bytes, W, H, out), NM_OK);
		for (unsigned n = 0; n < BLOCKS; n++) {
			const uint8_t *blk = src + n * bytes;
			unsigned tile = n / 4, z = n % 4;
			unsigned x0 = tile % (W / 8) * 8 + (z & 1) * 4;
			unsigned y0 = tile / (W / 8) * 8 + (z >> 1) * 4;
			uint8_t be[8];

			for (unsigned i = 0; i < 8; i++)
				be[i] = blk[bytes - 1 - i];
			for (unsigned y = 0; y < 4; y++)
				for (unsigned x = 0; x < 4; x++) {
					const uint8_t *p = out + ((y0 + y) * W + x0 + x) * 4;
					/* Alpha byte x * 2 + y / 2: low nibble for y even. */
					uint8_t want[4], a = blk[x * 2 + y / 2];

					ref_pixel(be, x, y, want, &stats);
					want[3] = alpha ? (uint8_t)(((y & 1 ? a >> 4 : a) & 15) * 17) : 255;
					if (memcmp(p, want, 4))
						ck_abort_msg("%s (%u,%u) = %u,%u,%u,%u, want "
							     "%u,%u,%u,%u", alpha ? "ETC1A4" : "ETC1",
							     x0 + x, y0 + y, p[0], p[1], p[2], p[3],
							     want[0], want[1], want[2], want[3]);
				}
		}
	}
}
END_TEST

static Suite *etc1_suite(void)
{
	Suite *s = suite_create("codec_etc1");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kernel_choice);
	tcase_add_loop_test(tc, test_every_mode_and_table, 0, KERNELS);
	tcase_add_loop_test(tc, test_every_channel_byte, 0, KERNELS);
	tcase_add_loop_test(tc, test_clamp_both_ends, 0, KERNELS);
	tcase_add_loop_test(tc, test_random_blocks, 0, KERNELS);
	tcase_add_loop_test(tc, test_alpha_nibbles, 0, KERNELS);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_pica_image);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(etc1_suite)
