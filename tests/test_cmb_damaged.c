/* CMB texture data that is not where the table says: a texture data offset of 0 (Luigi's
 * Mansion 3D rooms, whose textures live in another file) and texture entries whose data
 * ranges overlap. Fixtures from tests/fixtures/cmb_writer.c; every tree is walked whole
 * (exact sizes, nothing fails). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "tests/fixtures/cmb_writer.h"
#include "formats/driver.h"
#include "tests/check_expect.h"

#define L8 0x14016757

static uint8_t texels[2][64];

/* Two 8x8 L8 textures, a and b, packed one after the other (at 0x00 and 0x80). */
static fx_model two_textures(fx_texture *tx)
{
	for (int i = 0; i < 64; i++) {
		texels[0][i] = 0x11;
		texels[1][i] = 0x22;
	}
	tx[0] = (fx_texture){ .name = "a", .gl_format = L8, .width = 8, .height = 8, .mips = 1,
			      .data = texels[0], .data_len = 64 };
	tx[1] = (fx_texture){ .name = "b", .gl_format = L8, .width = 8, .height = 8, .mips = 1,
			      .data = texels[1], .data_len = 64 };
	return (fx_model){ .version = 15, .name = "room", .tex = tx, .ntex = 2 };
}

static nm_tree *build_walked(const fx_model *m)
{
	size_t len;
	uint8_t *d = fx_cmb_write(m, &len, NULL);
	ck_assert_ptr_nonnull(d);
	nm_tree *t = expect_clean_build(d, len, "room.cmb");
	free(d);
	return t;
}

/* Offset 0: the .bin files are empty (not the file's first bytes), no PNGs, and every
 * text says the data is external rather than "not inside the file". */
START_TEST(texture_data_offset_zero)
{
	fx_texture tx[2];
	fx_model m = two_textures(tx);
	m.external_textures = true;
	nm_tree *t = build_walked(&m);
	size_t len = 1;
	char *bin = walk_read(t, "/tex/b.bin", &len);
	ck_assert_ptr_nonnull(bin);
	ck_assert_uint_eq(len, 0);
	free(bin);
	ck_assert(!walk_exists(t, "/tex/a.png"));
	ck_assert(!walk_exists(t, "/tex/b.png"));
	static const expectation want[] = {
		HAS("/tex/b.txt", "data_offset: 0x80\ndata_absolute: none (external)\n"),
		HAS("/tex/b.txt", "problem: the texture data is external: the header's texture "
		    "data offset is 0, so the data lies in another file\n"),
		HAS("/tex/header.txt", "texture_data: 0x0 (external: the data lies in another "
		    "file)\n"),
		HAS("/info.txt", "texture_data: 0x0 (external)\n"),
		LACKS("/tex/a.txt", "not inside the file"),
		LACKS("/tex/a.txt", "overlap"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	nm_tree_free(t);
}
END_TEST

/* b's stored offset points 0x20 bytes into a's 64: a's range runs into b's and is
 * flagged; b (the last) is not. Both are still shown as the table gives them. */
START_TEST(overlapping_texture_data)
{
	fx_texture tx[2];
	fx_model m = two_textures(tx);
	tx[1].shift = -0x60;
	nm_tree *t = build_walked(&m);
	expect(t, "/tex/a.txt", "overlap: the data (0x40 bytes from 0x");
	expect(t, "/tex/a.txt", ") runs into texture 1 at 0x");
	expect_not(t, "/tex/b.txt", "overlap");
	size_t len;
	char *bin = walk_read(t, "/tex/b.bin", &len);
	ck_assert_uint_eq(len, 64);
	ck_assert_uint_eq((uint8_t)bin[0], 0x11);  /* a's second half */
	ck_assert_uint_eq((uint8_t)bin[32], 0x00); /* the padding before b's real data */
	free(bin);
	nm_tree_free(t);

	/* Packed as the writer packs them: nothing is flagged. */
	m = two_textures(tx);
	t = build_walked(&m);
	expect_not(t, "/tex/a.txt", "overlap");
	nm_tree_free(t);
}
END_TEST

/* The absolute offset of a texture's data, from its NAME.txt. */
static size_t data_absolute(nm_tree *t, const char *path)
{
	char *txt = walk_read(t, path, NULL);
	ck_assert_ptr_nonnull(txt);
	const char *at = strstr(txt, "data_absolute: 0x");
	ck_assert_ptr_nonnull(at);
	size_t v = strtoul(at + strlen("data_absolute: 0x"), NULL, 16);
	free(txt);
	return v;
}

/* A file cut short inside the texture data: the texture whose bytes are missing is an
 * error of the file (tex/error.txt, counted in info.txt) naming the offset the bytes
 * should be at; the whole texture before it still decodes. A texture with a whole
 * level 0 and a missing mip keeps its PNG and is still an error. */
START_TEST(texture_data_cut_short)
{
	fx_texture tx[2];
	fx_model m = two_textures(tx);
	size_t len;
	uint8_t *d = fx_cmb_write(&m, &len, NULL);
	ck_assert_ptr_nonnull(d);
	nm_tree *t = expect_clean_build(d, len, "room.cmb");
	ck_assert(!walk_exists(t, "/tex/error.txt"));
	expect(t, "/info.txt", "errors: 0\n");
	char want[160];
	snprintf(want, sizeof want, "size_field: %zu\n", len);
	expect(t, "/info.txt", want);
	size_t b = data_absolute(t, "/tex/b.txt");
	nm_tree_free(t);

	nm_error err;
	ck_assert_msg(walk_build(d, b + 32, "room.cmb", &t, &err) == NM_OK, "%s", err.msg);
	expect_clean_walk(t);
	snprintf(want, sizeof want, "room.cmb: tex at 0x%zx: texture 1 (b): level 0 at 0x%zx "
		 "(0x40 bytes) runs past the end of the file\n", b, b);
	static const expectation rows[] = {
		HAS("/info.txt", "errors: 1\n"),
		HAS("/tex/b.txt", "levels_shown: 0\n"),
		LACKS("/tex/error.txt", "texture 0"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, rows);
	expect(t, "/tex/error.txt", want);
	/* The header's size says by how much the file is short. */
	snprintf(want, sizeof want, "size_field: %zu (the file has %zu bytes: %zu fewer, "
		 "cut short?)\n", len, b + 32, len - (b + 32));
	expect(t, "/info.txt", want);
	ck_assert(walk_exists(t, "/tex/a.png"));
	ck_assert(!walk_exists(t, "/tex/b.png"));
	nm_tree_free(t);

	/* Bytes after the size the header gives are noted, and are no error. */
	uint8_t *padded = calloc(1, len + 16);
	ck_assert_ptr_nonnull(padded);
	memcpy(padded, d, len);
	t = expect_clean_build(padded, len + 16, "room.cmb");
	snprintf(want, sizeof want, "size_field: %zu (the file has %zu bytes: 16 more after "
		 "the end it gives)\n", len, len + 16);
	expect(t, "/info.txt", want);
	expect(t, "/info.txt", "errors: 0\n");
	nm_tree_free(t);
	free(padded);
	free(d);

	/* 16x16 with two levels (256 + 64 bytes): cut inside level 1. */
	static uint8_t big[320];
	tx[1] = (fx_texture){ .name = "b", .gl_format = L8, .width = 16, .height = 16,
			      .mips = 2, .data = big, .data_len = sizeof big };
	d = fx_cmb_write(&m, &len, NULL);
	ck_assert_ptr_nonnull(d);
	t = expect_clean_build(d, len, "room.cmb");
	b = data_absolute(t, "/tex/b.txt");
	nm_tree_free(t);
	ck_assert_msg(walk_build(d, b + 256 + 8, "room.cmb", &t, &err) == NM_OK, "%s", err.msg);
	expect_clean_walk(t);
	snprintf(want, sizeof want, "texture 1 (b): level 1 at 0x%zx (0x40 bytes) runs past",
		 b + 256);
	expect(t, "/info.txt", "errors: 1\n");
	expect(t, "/tex/b.txt", "levels_shown: 1\n");
	expect(t, "/tex/error.txt", want);
	ck_assert(walk_exists(t, "/tex/b.png"));
	nm_tree_free(t);
	free(d);
}
END_TEST

static Suite *cmb_damaged_suite(void)
{
	Suite *s = suite_create("cmb_damaged");
	TCase *tc = tcase_create("cmb_damaged");
	tcase_add_test(tc, texture_data_offset_zero);
	tcase_add_test(tc, overlapping_texture_data);
	tcase_add_test(tc, texture_data_cut_short);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(cmb_damaged_suite)
