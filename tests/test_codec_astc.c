/* Tests for the ASTC decoder over libastcenc (codec/astc.h): hand-made void-extent and
 * error blocks with their values worked out from the specification, images encoded by
 * libastcenc's own compressor decoded by us and by libastcenc (equal but for the FP16
 * rounding of libastcenc's 8-bit output: never more than 1 apart), edges, limits, and
 * the context's memory. The corpus references are compared in tests/test_txtr.c. */
#include <check.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/astc.h"
#include "lib/options.h"

/* A void-extent block: block mode 0x1FC, LDR (bit 9 clear), reserved bits and all
 * extents set ("the whole texture"), then the colour as four little-endian UNORM16. */
static void void_extent(uint8_t b[16], uint16_t r, uint16_t g, uint16_t bl, uint16_t a)
{
	b[0] = 0xFC;
	b[1] = 0xFD;
	memset(b + 2, 0xFF, 6);
	const uint16_t c[4] = { r, g, bl, a };
	for (int i = 0; i < 4; i++) {
		b[8 + 2 * i] = (uint8_t)c[i];
		b[9 + 2 * i] = (uint8_t)(c[i] >> 8);
	}
}

static void ck_all(const uint8_t *rgba, size_t n, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	for (size_t i = 0; i < n; i++)
		if (rgba[4 * i] != r || rgba[4 * i + 1] != g || rgba[4 * i + 2] != b ||
		    rgba[4 * i + 3] != a)
			ck_abort_msg("texel %zu = %u,%u,%u,%u, expected %u,%u,%u,%u", i, rgba[4 * i],
				     rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3], r, g, b, a);
}

START_TEST(constant_block)
{
	uint8_t blk[16], rgba[5 * 4 * 4];
	const nm_options *opt = nm_options_defaults();
	void_extent(blk, 0x1234, 0x8080, 0xFFFF, 0x0000);
	/* UNORM16 to 8 bits: (C * 255 + 32768) >> 16: 0x1234 -> 18, 0x8080 -> 128. */
	ck_assert_int_eq(nm_astc_decode(opt, 5, 4, false, blk, 16, 5, 4, rgba), NM_OK);
	ck_all(rgba, 20, 18, 128, 255, 0);
	/* sRGB: the top 8 bits. */
	ck_assert_int_eq(nm_astc_decode(opt, 5, 4, true, blk, 16, 5, 4, rgba), NM_OK);
	ck_all(rgba, 20, 0x12, 0x80, 0xFF, 0x00);
	/* An FP16 (HDR) colour is not LDR: the error colour. */
	blk[1] |= 0x02;
	ck_assert_int_eq(nm_astc_decode(opt, 5, 4, false, blk, 16, 5, 4, rgba), NM_OK);
	ck_all(rgba, 20, 255, 0, 255, 255);
}
END_TEST

START_TEST(error_block)
{
	/* Block mode 0 is reserved: an error block, magenta. */
	uint8_t blk[16] = { 0 }, rgba[4 * 4 * 4];
	ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), 4, 4, false, blk, 16, 4, 4, rgba),
			 NM_OK);
	ck_all(rgba, 16, 255, 0, 255, 255);
}
END_TEST

/* A smooth image with some noise and alpha, so that blocks use partitions, both weight
 * planes and many endpoint modes. */
static uint8_t *test_image(unsigned w, unsigned h, uint32_t seed)
{
	uint8_t *p = malloc((size_t)w * h * 4);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			seed = seed * 1103515245u + 12345u;
			uint8_t *px = p + ((size_t)y * w + x) * 4;
			px[0] = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1));
			px[1] = (uint8_t)(y * 255 / (h > 1 ? h - 1 : 1));
			px[2] = (uint8_t)((x * y) ^ (seed >> 24 & 0x1F));
			px[3] = (uint8_t)(((x / 3 + y / 2) & 1) ? 255 : seed >> 16);
		}
	return p;
}

static const unsigned sizes[][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 }, { 6, 6 },
				     { 8, 5 }, { 8, 6 }, { 8, 8 }, { 10, 5 }, { 10, 6 },
				     { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };

/* Every block size: ours and libastcenc's own decode agree within 1 (its FP16 step),
 * and exactly on most samples. Sizes that are not a multiple of the block test the
 * clipped edge blocks. */
START_TEST(matches_libastcenc)
{
	unsigned bw = sizes[_i][0], bh = sizes[_i][1], w = 37, h = 29;
	uint8_t *img = test_image(w, h, (uint32_t)_i + 1);
	size_t blocks = (size_t)((w + bw - 1) / bw) * ((h + bh - 1) / bh) * 16;
	uint8_t *enc = malloc(blocks), *ours = malloc((size_t)w * h * 4),
		*ref = malloc((size_t)w * h * 4);
	ck_assert_int_eq(nm_astc_encode(bw, bh, img, w, h, enc, blocks), NM_OK);
	memset(ours, 0xA5, (size_t)w * h * 4);
	ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), bw, bh, false, enc, blocks, w, h,
					ours), NM_OK);
	ck_assert_int_eq(nm_astc_decode_reference(bw, bh, enc, blocks, w, h, ref), NM_OK);
	size_t same = 0;
	for (size_t i = 0; i < (size_t)w * h * 4; i++) {
		int d = ours[i] - ref[i];
		if (d < -1 || d > 1)
			ck_abort_msg("%ux%u: sample %zu is %u, libastcenc says %u", bw, bh, i, ours[i],
				     ref[i]);
		same += d == 0;
	}
	ck_assert_msg(same * 10 >= (size_t)w * h * 4 * 9, "%ux%u: only %zu samples equal", bw, bh,
		      same);
	free(img);
	free(enc);
	free(ours);
	free(ref);
}
END_TEST

/* Decoded in bands of block rows on several threads, a texture is the same texels. */
START_TEST(bands_same_texels)
{
	unsigned w = 512, h = 1024;   /* 128 x 256 blocks of 4x4: two bands or more */
	uint8_t *img = test_image(w, h, 7);
	size_t blocks = (size_t)(w / 4) * (h / 4) * 16, n = (size_t)w * h * 4;
	uint8_t *enc = malloc(blocks), *one = malloc(n), *many = malloc(n);
	ck_assert_int_eq(nm_astc_encode(4, 4, img, w, h, enc, blocks), NM_OK);
	ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), 4, 4, false, enc, blocks, w, h,
					one), NM_OK);
	for (unsigned threads = 2; threads <= 5; threads += 3) {
		memset(many, 0xA5, n);
		ck_assert_int_eq(nm_astc_decode_threads(nm_options_defaults(), threads, 4, 4, false,
							enc, blocks, w, h, many), NM_OK);
		ck_assert_msg(memcmp(one, many, n) == 0, "%u threads differ", threads);
	}
	free(img);
	free(enc);
	free(one);
	free(many);
}
END_TEST

START_TEST(rejects)
{
	uint8_t blk[32] = { 0 }, rgba[8 * 8 * 4];
	const nm_options *opt = nm_options_defaults();
	ck_assert_int_eq(nm_astc_decode(opt, 7, 7, false, blk, 32, 4, 4, rgba), NM_E_INVAL);
	ck_assert_int_eq(nm_astc_decode(opt, 4, 4, false, blk, 32, 0, 4, rgba), NM_E_INVAL);
	/* 5 x 4 texels of 4x4 blocks: two blocks, 32 bytes; 31 is short. */
	ck_assert_int_eq(nm_astc_decode(opt, 4, 4, false, blk, 31, 5, 4, rgba), NM_E_FORMAT);
	ck_assert_int_eq(nm_astc_decode(opt, 4, 4, false, blk, 32, 5, 4, rgba), NM_OK);
	ck_assert(nm_astc_block_size_ok(12, 12) && nm_astc_block_size_ok(8, 5));
	ck_assert(!nm_astc_block_size_ok(5, 8) && !nm_astc_block_size_ok(3, 3));
}
END_TEST

static size_t heap_in_use(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

/* The context libastcenc allocates fits NM_ASTC_CONTEXT_BYTES for every block size
 * and both profiles (astc.h's claim), and a limit below it allocates nothing. */
START_TEST(context_memory)
{
	uint8_t blk[16], rgba[12 * 12 * 4];
	void_extent(blk, 1, 2, 3, 4);
	nm_options small;
	nm_options_init(&small);
	small.max_file_size = 16u << 20;
	nm_astc_release();
	size_t before = heap_in_use();
	ck_assert_int_eq(nm_astc_decode(&small, 4, 4, false, blk, 16, 4, 4, rgba), NM_E_LIMIT);
	ck_assert_uint_le(heap_in_use(), before + 4096);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int srgb = 0; srgb < 2; srgb++) {
			nm_astc_release();
			before = heap_in_use();
			ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), sizes[i][0],
							sizes[i][1], srgb, blk, 16, 1, 1, rgba),
					 NM_OK);
			size_t used = heap_in_use() - before;
			ck_assert_msg(used <= NM_ASTC_CONTEXT_BYTES,
				      "%ux%u: the context takes %zu bytes", sizes[i][0], sizes[i][1],
				      used);
		}
	nm_astc_release();
}
END_TEST

/* A context per block size and profile, kept: textures of two sizes decoded in turn
 * (a TXTR folder's diffuse 8x5 and normal 5x4) build two, not one per texture. */
START_TEST(contexts_kept_per_size)
{
	uint8_t blk[16], rgba[12 * 12 * 4];
	void_extent(blk, 1, 2, 3, 4);
	nm_astc_release();
	unsigned long before = nm_astc_contexts_made();
	static const unsigned turns[][2] = { { 8, 5 }, { 5, 4 }, { 8, 5 }, { 5, 4 }, { 8, 5 } };
	for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++)
		ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), turns[i][0], turns[i][1],
						false, blk, 16, 1, 1, rgba), NM_OK);
	ck_assert_uint_eq(nm_astc_contexts_made() - before, 2);
	/* sRGB is another profile: a third. */
	ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), 8, 5, true, blk, 16, 1, 1, rgba),
			 NM_OK);
	ck_assert_uint_eq(nm_astc_contexts_made() - before, 3);
	nm_astc_release();
}
END_TEST

/* A context prepared ahead is the one the next decode of its size uses (built once,
 * whether the decode comes before the thread is done or after); a size kept already,
 * or a limit below a context's size, prepares nothing. */
START_TEST(context_prepared_ahead)
{
	uint8_t blk[16], rgba[4], want[4];
	void_extent(blk, 1, 2, 3, 4);
	ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), 6, 6, false, blk, 16, 1, 1, want),
			 NM_OK);
	for (int turn = 0; turn < 2; turn++) {
		nm_astc_release();
		unsigned long before = nm_astc_contexts_made();
		nm_astc_prepare(nm_options_defaults(), 6, 6, false);
		if (turn == 1) /* the thread done before the decode asks */
			while (nm_astc_contexts_made() == before)
				usleep(1000);
		ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), 6, 6, false, blk, 16, 1, 1,
						rgba), NM_OK);
		ck_assert_mem_eq(rgba, want, 4);
		ck_assert_uint_eq(nm_astc_contexts_made() - before, 1);
		nm_astc_prepare(nm_options_defaults(), 6, 6, false);
		ck_assert_uint_eq(nm_astc_contexts_made() - before, 1);
	}
	nm_astc_release();
	nm_options small;
	nm_options_init(&small);
	small.max_file_size = 1u << 20;
	unsigned long before = nm_astc_contexts_made();
	nm_astc_prepare(&small, 6, 6, false);
	usleep(50000);
	ck_assert_uint_eq(nm_astc_contexts_made(), before);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("codec_astc");
	TCase *tc = tcase_create("astc");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, constant_block);
	tcase_add_test(tc, error_block);
	tcase_add_loop_test(tc, matches_libastcenc, 0, sizeof sizes / sizeof sizes[0]);
	tcase_add_test(tc, rejects);
	tcase_add_test(tc, bands_same_texels);
	tcase_add_test(tc, contexts_kept_per_size);
	tcase_add_test(tc, context_prepared_ahead);
	tcase_add_test(tc, context_memory);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
