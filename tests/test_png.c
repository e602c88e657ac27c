/* The PNG writer (src/export/png.c): nm_png_size is the number of bytes written, libpng
 * reads every written file back to the same pixels, and the layout is the documented one,
 * byte for byte. */
#include <check.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include "export/png.h"

static uint64_t be32(const uint8_t *p)
{
	return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
}

static const png_uint_32 formats[5] = { 0, PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB,
					PNG_FORMAT_RGBA };

/* Write w x h of pseudo-random pixels with the given channels, check the size against the
 * formula, the chunk layout, and the pixels libpng reads back. */
static void round_trip(unsigned w, unsigned h, unsigned channels)
{
	size_t npx = (size_t)w * h;
	uint8_t *rgba = malloc(npx * 4);
	ck_assert_ptr_nonnull(rgba);
	uint32_t seed = w * 2654435761u ^ h * 40503u ^ channels;
	for (size_t i = 0; i < npx * 4; i++) {
		seed = seed * 1103515245u + 12345u;
		rgba[i] = (uint8_t)(seed >> 16);
	}
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_png_write(&o, rgba, w, h, channels), NM_OK);
	ck_assert_uint_eq(o.len, nm_png_size(w, h, channels));

	/* Layout: signature, IHDR, one IDAT per stored block of NM_PNG_BLOCK raw bytes, IEND. */
	uint64_t raw = (uint64_t)h * ((uint64_t)w * channels + 1);
	uint64_t blocks = (raw + NM_PNG_BLOCK - 1) / NM_PNG_BLOCK, idats = 0;
	size_t at = 8;
	ck_assert_mem_eq(o.data + at + 4, "IHDR", 4);
	at += 12 + be32(o.data + at);
	while (memcmp(o.data + at + 4, "IDAT", 4) == 0) {
		ck_assert_uint_le(be32(o.data + at), NM_PNG_BLOCK + 5 + 2 + 4);
		at += 12 + be32(o.data + at);
		idats++;
	}
	ck_assert_uint_eq(idats, blocks);
	ck_assert_mem_eq(o.data + at + 4, "IEND", 4);
	ck_assert_uint_eq(at + 12, o.len);

	/* libpng checks every CRC and zlib the adler32 while reading. */
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	ck_assert(png_image_begin_read_from_memory(&img, o.data, o.len));
	ck_assert_uint_eq(img.width, w);
	ck_assert_uint_eq(img.height, h);
	ck_assert_uint_eq(img.format, formats[channels]);
	uint8_t *back = malloc(npx * channels);
	ck_assert_ptr_nonnull(back);
	ck_assert_msg(png_image_finish_read(&img, NULL, back, 0, NULL), "%ux%u/%u: %s", w, h,
		      channels, img.message);
	static const unsigned src_channel[5][4] = { { 0 }, { 0 }, { 0, 3 }, { 0, 1, 2 },
						    { 0, 1, 2, 3 } };
	for (size_t i = 0; i < npx; i++)
		for (unsigned c = 0; c < channels; c++)
			if (back[i * channels + c] != rgba[i * 4 + src_channel[channels][c]])
				ck_abort_msg("%ux%u/%u: pixel %zu channel %u differs", w, h,
					     channels, i, c);
	free(back);
	free(rgba);
	nm_out_free(&o);
}

START_TEST(png_small_and_odd_shapes)
{
	static const unsigned dims[][2] = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 3, 5 }, { 13, 17 },
					    { 64, 64 }, { 255, 3 }, { 1000, 1 }, { 333, 197 } };
	for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
		for (unsigned c = 1; c <= 4; c++)
			round_trip(dims[d][0], dims[d][1], c);
}
END_TEST

/* Raw sizes at and around a block boundary, and rows longer than a block, so that rows
 * and blocks split each other every way. */
START_TEST(png_block_boundaries)
{
	round_trip(65534, 1, 1);  /* raw 65535: exactly one full block */
	round_trip(65534, 2, 1);  /* exactly two full blocks */
	round_trip(65535, 1, 1);  /* one byte into a second block */
	round_trip(16385, 3, 4);  /* rows of 65541 bytes */
	round_trip(21846, 2, 3);  /* rows of 65539 bytes */
	round_trip(70001, 3, 2);  /* rows spanning three blocks */
	round_trip(181, 181, 2);  /* many rows per block */
}
END_TEST

START_TEST(png_4096_square)
{
	round_trip(4096, 4096, 4);
	round_trip(4096, 4096, 1);
}
END_TEST

START_TEST(png_bytes_are_fixed)
{
	/* 2 x 1 RGB: the whole file, byte for byte (computed independently of this writer). */
	static const uint8_t want[75] = {
		0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49,
		0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02,
		0x00, 0x00, 0x00, 0x7b, 0x40, 0xe8, 0xdd, 0x00, 0x00, 0x00, 0x12, 0x49, 0x44,
		0x41, 0x54, 0x78, 0x01, 0x01, 0x07, 0x00, 0xf8, 0xff, 0x00, 0x11, 0x22, 0x33,
		0xaa, 0xbb, 0xcc, 0x06, 0x23, 0x02, 0x98, 0xd4, 0x43, 0xec, 0x9a, 0x00, 0x00,
		0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82
	};
	static const uint8_t px[8] = { 0x11, 0x22, 0x33, 0xff, 0xaa, 0xbb, 0xcc, 0xff };
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_png_write(&o, px, 2, 1, 3), NM_OK);
	ck_assert_uint_eq(o.len, sizeof want);
	ck_assert_mem_eq(o.data, want, sizeof want);
	nm_out_free(&o);
}
END_TEST

START_TEST(png_size_formula)
{
	/* 51 fixed bytes, 17 per block, plus the raw rows. */
	ck_assert_uint_eq(nm_png_size(1, 1, 4), 51 + 17 + 5);
	ck_assert_uint_eq(nm_png_size(65534, 2, 1), 51 + 2 * 17 + 131070);
	ck_assert_uint_eq(nm_png_size(16384, 16384, 3),
			  51 + 17 * ((16384ull * 49153 + 65534) / 65535) + 16384ull * 49153);
	ck_assert_uint_eq(nm_png_size(0, 4, 4), 0);
	ck_assert_uint_eq(nm_png_size(4, 0, 4), 0);
	ck_assert_uint_eq(nm_png_size(4, 4, 0), 0);
	ck_assert_uint_eq(nm_png_size(4, 4, 5), 0);
	ck_assert_uint_eq(nm_png_size(0x80000000u, 1, 1), 0);
	ck_assert_uint_gt(nm_png_size(0x7FFFFFFFu, 0x7FFFFFFFu, 4), 0); /* no overflow */
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_png_write(&o, NULL, 0, 1, 4), NM_E_INVAL);
	ck_assert_uint_eq(o.len, 0);
	nm_out_free(&o);
}
END_TEST

/* A w x h RGBA8 image of bytes that follow no rows (malloc'd). */
static uint8_t *noise(unsigned w, unsigned h, unsigned shift)
{
	size_t n = (size_t)w * h * 4;
	uint8_t *rgba = malloc(n);
	ck_assert_ptr_nonnull(rgba);
	for (size_t i = 0; i < n; i++)
		rgba[i] = (uint8_t)(i * 2654435761u >> shift);
	return rgba;
}

/* Written in bands on several threads (o.threads), a PNG is the same bytes as written on
 * one: each band's IDAT chunks at their fixed offsets, the adler32s combined. Shapes
 * whose rows and blocks cut each other, in every channel count. */
START_TEST(png_bands_same_bytes)
{
	static const unsigned dims[][2] = { { 2048, 1024 }, { 1501, 1499 }, { 4097, 555 } };
	for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
		for (unsigned c = 1; c <= 4; c++) {
			unsigned w = dims[d][0], h = dims[d][1];
			uint8_t *rgba = noise(w, h, 13);
			nm_out one;
			nm_out_init(&one);
			ck_assert_int_eq(nm_png_write(&one, rgba, w, h, c), NM_OK);
			/* At least two bands of 16 blocks: the split happens. */
			ck_assert_uint_ge(one.len, 2 * 16 * NM_PNG_BLOCK);
			for (unsigned threads = 2; threads <= 9; threads += 7) {
				nm_out o;
				nm_out_init(&o);
				o.threads = threads;
				ck_assert_int_eq(nm_png_write(&o, rgba, w, h, c), NM_OK);
				ck_assert_uint_eq(o.len, one.len);
				ck_assert_msg(memcmp(o.data, one.data, one.len) == 0,
					      "%ux%u/%u on %u threads differs", w, h, c, threads);
				nm_out_free(&o);
			}
			nm_out_free(&one);
			free(rgba);
		}
}
END_TEST

/* An image whose rows a range asks for, checked: each request aligned to the band and
 * inside the image; the rows it was asked for counted. */
struct rows_src {
	const uint8_t *rgba;
	unsigned w, h, band;
	uint64_t rows_made;
};

static nm_status copy_rows(void *arg, unsigned y0, unsigned y1, uint8_t *rgba, nm_error *err)
{
	struct rows_src *r = arg;
	(void)err;
	ck_assert_uint_eq(y0 % r->band, 0);
	ck_assert(y1 % r->band == 0 || y1 == r->h);
	ck_assert_uint_lt(y0, y1);
	ck_assert_uint_le(y1, r->h);
	memcpy(rgba, r->rgba + (size_t)y0 * r->w * 4, (size_t)(y1 - y0) * r->w * 4);
	r->rows_made += y1 - y0;
	return NM_OK;
}

/* Every range of a PNG made by nm_png_write_range is the same bytes as nm_png_write's:
 * the head, ranges across chunk and row edges, one byte; a range that reaches the
 * adler32 is declined for a large image and made for a small one. A head of 16 KiB asks
 * for the rows of one IDAT chunk, whatever the image's size. */
START_TEST(png_ranges_same_bytes)
{
	static const unsigned dims[][3] = { { 2048, 1024, 12 }, { 1501, 299, 8 }, { 37, 53, 4 },
					    { 4097, 300, 1 }, { 90, 90, 8 } };
	for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
		for (unsigned c = 1; c <= 4; c++) {
			unsigned w = dims[d][0], h = dims[d][1];
			uint8_t *rgba = noise(w, h, 11);
			nm_out whole;
			nm_out_init(&whole);
			ck_assert_int_eq(nm_png_write(&whole, rgba, w, h, c), NM_OK);
			struct rows_src src = { rgba, w, h, dims[d][2], 0 };
			nm_png_image img = { w, h, c, dims[d][2], copy_rows, &src, "t", "png", 0 };
			uint64_t size = whole.len, tail = size - 20;
			uint32_t seed = 12345;
			for (int k = 0; k < 60; k++) {
				uint64_t off = k == 0 ? 0 : k == 1 ? size - 1 : k == 2 ? tail - 5
					       : (seed = seed * 1103515245u + 12345u) % size;
				size_t len = k == 0 ? 16384 : k < 3 ? (size_t)k + 1 : 1 + (seed >> 7) % 200000;
				if (off + len > size)
					len = (size_t)(size - off);
				nm_out o;
				nm_out_init(&o);
				nm_error err;
				src.rows_made = 0;
				nm_status s = nm_png_write_range(&o, &img, off, len, &err);
				if (off + len > tail && size > NM_PNG_RANGE_WHOLE) {
					ck_assert_int_eq(s, NM_E_UNSUPPORTED);
					ck_assert_uint_eq(o.len, 0);
				} else {
					ck_assert_int_eq(s, NM_OK);
					ck_assert_uint_eq(o.len, len);
					ck_assert_msg(memcmp(o.data, whole.data + off, len) == 0,
						      "%ux%u/%u: %zu bytes at %llu differ", w, h, c, len,
						      (unsigned long long)off);
				}
				if (k == 0 && size > NM_PNG_RANGE_WHOLE) {
					/* One chunk's rows and a band either side at most. */
					uint64_t row_len = (uint64_t)w * c + 1;
					ck_assert_uint_le(src.rows_made,
							  NM_PNG_BLOCK / row_len + 2 + 2 * dims[d][2]);
				}
				nm_out_free(&o);
			}
			nm_out_free(&whole);
			free(rgba);
		}
}
END_TEST

static Suite *png_suite(void)
{
	Suite *s = suite_create("png");
	TCase *tc = tcase_create("png");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, png_small_and_odd_shapes);
	tcase_add_test(tc, png_block_boundaries);
	tcase_add_test(tc, png_4096_square);
	tcase_add_test(tc, png_bytes_are_fixed);
	tcase_add_test(tc, png_size_formula);
	tcase_add_test(tc, png_bands_same_bytes);
	tcase_add_test(tc, png_ranges_same_bytes);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(png_suite)
