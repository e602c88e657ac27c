/* CMB texture data that is not where the table says: a texture data offset of 0 (Luigi's
 * Mansion 3D rooms, whose textures live in CTXB files beside the model) and texture
 * entries whose data ranges overlap. Fixtures from tests/fixtures/cmb_writer.c; every
 * tree is walked whole (exact sizes, nothing fails). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixtures/archive_writer.h"
#include "tests/fixtures/cmb_writer.h"
#include "edit/apply.h"
#include "formats/driver.h"
#include "tests/apply_util.h"
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

static void write_file(const char *dir, const char *name, const uint8_t *d, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(d, 1, len, f), len);
	fclose(f);
}

static void write_ctxb(const char *dir, const char *name, const fx_texture *tx)
{
	size_t len;
	uint8_t *d = fx_ctxb_write(tx, &len);
	ck_assert_ptr_nonnull(d);
	write_file(dir, name, d, len);
	free(d);
}

/* The bytes of path in t (malloc'd), which must exist. */
static char *must_read(nm_tree *t, const char *path, size_t *len)
{
	char *d = walk_read(t, path, len);
	ck_assert_msg(d != NULL, "%s", path);
	return d;
}

/* path in t has the bytes of want_path in want. */
static void same_file(nm_tree *t, const char *path, nm_tree *want, const char *want_path)
{
	size_t len, want_len;
	char *got = must_read(t, path, &len), *w = must_read(want, want_path, &want_len);
	ck_assert_uint_eq(len, want_len);
	ck_assert_msg(memcmp(got, w, len) == 0, "%s differs from %s", path, want_path);
	free(got);
	free(w);
}

/* A CTXB alone: info.txt and the CMB's texture files for its one texture, the PNG the
 * same as the texture's inside a CMB. */
START_TEST(ctxb_alone)
{
	fx_texture tx[2];
	fx_model m = two_textures(tx);
	size_t len;
	uint8_t *d = fx_ctxb_write(&tx[1], &len);
	ck_assert_ptr_nonnull(d);
	nm_tree *t = expect_clean_build(d, len, "b.ctxb");
	free(d);
	static const expectation want[] = {
		HAS("/info.txt", "format: Grezzo CTXB texture"),
		HAS("/info.txt", "tex_chunk: 0x18\ntexture_data: 0x80\ntextures: 1\n"),
		HAS("/tex/b.txt", "data_absolute: 0x80\nlevels_shown: 1\n"),
		LACKS("/tex/b.txt", "problem"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	nm_tree *inside = build_walked(&m);
	same_file(t, "/tex/b.png", inside, "/tex/b.png");
	nm_tree_free(inside);
	nm_tree_free(t);
}
END_TEST

/* A room beside its CTXBs in a folder (and in an archive's folder): each texture reads
 * from the CTXB of its name (case aside), PNG for PNG the texture it would be inside the
 * file, and its text says where; a CTXB holding another size is not used, and says why;
 * alone the room is on its own again. */
START_TEST(room_textures_from_ctxb)
{
	char dir[] = "/tmp/nm_ctxb_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fx_texture tx[2];
	fx_model m = two_textures(tx);
	nm_tree *inside = build_walked(&m);
	write_ctxb(dir, "A.ctxb", &tx[0]);
	fx_texture wrong = tx[1];
	wrong.width = 16;
	wrong.height = 4;
	write_ctxb(dir, "b.ctxb", &wrong);
	m.external_textures = true;
	size_t len;
	uint8_t *room = fx_cmb_write(&m, &len, NULL);
	ck_assert_ptr_nonnull(room);
	write_file(dir, "room.cmb", room, len);
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(nm_open_model(dir, NULL, &t, &err), NM_OK);
	static const expectation want[] = {
		HAS("/room.cmb/tex/a.txt", "data_file: A.ctxb\ndata_absolute: 0x80 (in A.ctxb)\n"
		    "levels_shown: 1\n"),
		LACKS("/room.cmb/tex/a.txt", "problem"),
		HAS("/room.cmb/tex/b.txt", "problem: the texture data is external, and b.ctxb "
		    "beside the model cannot give it: it holds a 16x4 texture of format 0x14016757, "
		    "the model's entry says 8x8, 0x14016757\n"),
		HAS("/A.ctxb/info.txt", "textures: 1\n"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	ck_assert(!walk_exists(t, "/room.cmb/tex/b.png"));
	same_file(t, "/room.cmb/tex/a.png", inside, "/tex/a.png");
	size_t got_len;
	char *bin = must_read(t, "/room.cmb/tex/a.bin", &got_len);
	ck_assert_uint_eq(got_len, 64);
	ck_assert_uint_eq((uint8_t)bin[0], 0x11);
	free(bin);
	expect_clean_walk(t);
	nm_tree_free(t);
	/* An edit of the room's copy is refused, naming the CTXB whose tree edits it. */
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	ck_assert_int_eq(nm_open_model(dir, &opt, &t, &err), NM_OK);
	nm_apply *a = nm_apply_new(t);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(nm_apply_file(a, "/room.cmb/tex/a.png", (const uint8_t *)"x", 1,
				       "w/room.cmb/tex/a.png", &err), NM_OK);
	ck_assert_uint_eq(nm_apply_problems(a), 1);
	char why[1024] = "";
	apply_first_problem(a, why, sizeof why);
	ck_assert_msg(strstr(why, "w/room.cmb/tex/a.png") && strstr(why, "A.ctxb/tex/"), "%s",
		      why);
	nm_apply_free(a);
	nm_tree_free(t);
	/* In an archive: the same, from the member beside it in its folder. */
	size_t a_len;
	uint8_t *a_ctxb = fx_ctxb_write(&tx[0], &a_len);
	ck_assert_ptr_nonnull(a_ctxb);
	const arcw_file members[] = { { "room/room.cmb", room, len, ARCW_STORED },
				      { "room/a.ctxb", a_ctxb, a_len, ARCW_STORED } };
	nm_out zar;
	nm_out_init(&zar);
	ck_assert_int_eq(arcw_zar(members, 2, &zar, NULL), 0);
	nm_tree *in_zar = expect_clean_build(zar.data, zar.len, "room.zar");
	expect(in_zar, "/room/room.cmb/tex/a.txt", "data_file: a.ctxb\n");
	same_file(in_zar, "/room/room.cmb/tex/a.png", inside, "/tex/a.png");
	nm_tree_free(in_zar);
	nm_out_free(&zar);
	free(a_ctxb);
	/* The room alone. */
	nm_tree *alone = expect_clean_build(room, len, "room.cmb");
	expect(alone, "/tex/a.txt", "data_absolute: none (external)\n");
	ck_assert(!walk_exists(alone, "/tex/a.png"));
	nm_tree_free(alone);
	nm_tree_free(inside);
	free(room);
	static const char *const files[] = { "A.ctxb", "b.ctxb", "room.cmb" };
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
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
	tcase_add_test(tc, ctxb_alone);
	tcase_add_test(tc, room_textures_from_ctxb);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(cmb_damaged_suite)
