/* Grezzo animation driver tests: CMAB and CSAB fixtures built by
 * tests/fixtures/grezzo_anim_writer.c (every CMAB type and both track headers; CSAB v3
 * with float and s16 rotations, v5 constant, linear and Hermite tracks), sampled values
 * worked by hand, hostile counts and offsets, and the real CMABs inside
 * ../shared/corpus/zar and gar (errors: 0; every stored key in the key CSVs). No real
 * CSAB exists here: the CSAB cases test the reading of FORMATS.md 10.11 as written. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures/grezzo_anim_writer.h"
#include "export/png.h"
#include "formats/driver.h"
#include "formats/grezzo_anim/grezzo_anim.h"
#include "lib/tree.h"
#include "tests/walk.h"

/* ---- helpers ---------------------------------------------------------------------- */

static nm_tree *build_ok(const uint8_t *data, size_t len)
{
	nm_tree *t;
	nm_error err = { 0 };
	nm_status s = walk_build(data, len, "fx.anim", &t, &err);
	ck_assert_msg(s == NM_OK, "build failed: %s", err.msg);
	return t;
}

static char *must_read(nm_tree *t, const char *path)
{
	char *s = walk_read(t, path, NULL);
	ck_assert_msg(s != NULL, "%s missing", path);
	return s;
}

static void assert_contains(nm_tree *t, const char *path, const char *needle)
{
	char *s = must_read(t, path);
	ck_assert_msg(strstr(s, needle) != NULL, "%s lacks \"%s\":\n%s", path, needle, s);
	free(s);
}

/* The number in row `row` (0 = first data row), column `col` of a CSV. */
static double csv_at(const char *csv, unsigned row, unsigned col)
{
	const char *p = strchr(csv, '\n');
	for (unsigned r = 0; p && r < row; r++)
		p = strchr(p + 1, '\n');
	ck_assert_msg(p != NULL, "row %u missing", row);
	p++;
	for (unsigned c = 0; c < col; c++) {
		p = strchr(p, ',');
		ck_assert_msg(p != NULL, "column %u missing", col);
		p++;
	}
	return strtod(p, NULL);
}

static unsigned csv_rows(const char *csv)
{
	unsigned n = 0;
	for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		n++;
	return n;
}

static double cell(nm_tree *t, const char *path, unsigned row, unsigned col)
{
	char *s = must_read(t, path);
	double v = csv_at(s, row, col);
	free(s);
	return v;
}

#define ck_near(a, b) ck_assert_msg(fabs((double)(a) - (b)) <= 1e-5 * (1 + fabs((double)(b))), \
				    "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))

static void put32(uint8_t *p, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p, size_t at)
{
	return (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 |
	       (uint32_t)p[at + 3] << 24;
}

static void walk_clean(nm_tree *t)
{
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_eq(st.failed, 0);
}

/* ---- CMAB fixtures ---------------------------------------------------------------- */

/* The sample grezzo_anim_writer.h describes. */
static uint8_t *cmab_fixture(size_t *len, int32_t size_extra)
{
	return gw_sample_cmab(size_extra, len);
}

START_TEST(test_cmab_types)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	nm_tree *t = build_ok(f, len);
	/* Listing and stat-ing everything produces nothing: sizes come from counts. */
	walk_stats st;
	walk_opts sizes = { .sizes_only = true };
	walk_tree_opts(t, &sizes, &st);
	ck_assert_uint_gt(st.files, 30);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	walk_clean(t);
	char *info = must_read(t, "/info.txt");
	static const char *const lines[] = { "kind: cmab", "loop: repeat (0x1)", "duration: 8",
					     "targets: 5", "tracks: 8", "keys: 18",
					     "track_headers: long and short", "textures: 3",
					     "strings: 3", "errors: 0" };
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		ck_assert_msg(strstr(info, lines[i]), "info.txt lacks %s:\n%s", lines[i], info);
	free(info);

	/* Linear: 0 -> 1 over ten frames; clamped at the duration's end is not reached. */
	const char *tr = "/mads/0_translation_material_4_channel_0";
	char path[256];
	snprintf(path, sizeof path, "%s/translation_s.csv", tr);
	char *keys = must_read(t, path);
	ck_assert_uint_eq(csv_rows(keys), 2);
	ck_near(csv_at(keys, 1, 0), 10);
	ck_near(csv_at(keys, 1, 1), 1.0);
	ck_assert_msg(isnan(csv_at(keys, 1, 2)), "a linear key has no tangent");
	free(keys);
	snprintf(path, sizeof path, "%s/sampled.csv", tr);
	char *smp = must_read(t, path);
	ck_assert_msg(strncmp(smp, "frame,translation_s,translation_t\n", 34) == 0, "%s", smp);
	ck_assert_uint_eq(csv_rows(smp), 8);
	ck_near(csv_at(smp, 3, 1), 0.3);
	ck_near(csv_at(smp, 7, 1), 0.7);
	ck_assert_msg(isnan(csv_at(smp, 3, 2)), "a missing track is the material's value: nan");
	free(smp);

	/* Step: the last key at or before the frame; the palette names its textures. */
	const char *pal = "/mads/1_palette_material_1_channel_1";
	static const double step[8] = { 0, 0, 2, 2, 2, 1, 1, 1 };
	snprintf(path, sizeof path, "%s/sampled.csv", pal);
	for (unsigned f = 0; f < 8; f++)
		ck_near(cell(t, path, f, 1), step[f]);
	snprintf(path, sizeof path, "%s/header.txt", pal);
	assert_contains(t, path, "key_textures: 0=tex_a, 2=tex_c, 1=tex_b");
	assert_contains(t, path, "short header");
	assert_contains(t, "/txpt/tex_b.txt", "width: 8");
	assert_contains(t, "/strt/strings.txt", "2: tex_c");

	/* Hermite over four frames (type 3 has no channel): by hand, s = f / 4,
	 * v = (s^3 - 2s^2 + s) * (1 * 4) + (-2s^3 + 3s^2) * 2; the key values at 0 and 4,
	 * the last value after. Without the x4 frame 2 would give 1.125. */
	const char *sc = "/mads/2_scale_material_2/sampled.csv";
	static const double herm[8] = { 0, 0.875, 1.5, 1.875, 2, 2, 2, 2 };
	for (unsigned f = 0; f < 8; f++)
		ck_near(cell(t, sc, f, 1), herm[f]);
	ck_assert_msg(isnan(cell(t, sc, 0, 2)), "scale_t has no track");
	ck_near(cell(t, sc, 5, 3), 0.5);
	assert_contains(t, "/mads/2_scale_material_2/header.txt", "channel: none");

	/* Colour: Hermite (short form), linear, step, no alpha. */
	const char *col = "/mads/3_color_material_3_channel_2/sampled.csv";
	ck_near(cell(t, col, 2, 1), 1.5);
	ck_near(cell(t, col, 2, 2), 0.2);
	ck_near(cell(t, col, 2, 3), 2.0);
	ck_assert_msg(isnan(cell(t, col, 2, 4)), "alpha has no track");
	ck_near(cell(t, "/mads/3_color_material_3_channel_2/red.csv", 0, 3), 1.0);

	/* Clamping before the first key (frame 3) and after the last (frame 6). */
	const char *rot = "/mads/4_rotation_material_0_channel_1/sampled.csv";
	static const double late[8] = { 0.25, 0.25, 0.25, 0.25, 5.0 / 12, 7.0 / 12, 0.75, 0.75 };
	for (unsigned f = 0; f < 8; f++)
		ck_near(cell(t, rot, f, 1), late[f]);
	nm_tree_free(t);
	free(f);
}
END_TEST

/* The parsed records a glb writer would use, without the tree. */
START_TEST(test_cmab_records)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	nm_reader *r;
	ck_assert_int_eq(nm_reader_new_memory("fx.cmab", f, len, &r, NULL), NM_OK);
	nm_tree *t = nm_tree_new(NULL);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	ga_anim a;
	nm_error err;
	ck_assert_int_eq(ga_parse(r, t, &a, &err), NM_OK);
	ck_assert_int_eq(a.kind, GA_CMAB);
	ck_assert_uint_eq(a.ntargets, 5);
	const ga_target *g = &a.targets[2];
	ck_assert(g->ok);
	ck_assert_uint_eq(g->type, 3);
	ck_assert_int_eq(g->track[0]->interp, NM_INTERP_HERMITE);
	ck_assert_ptr_null(g->track[1]);
	ck_near(ga_track_sample(g->track[0], 2.0), 1.5);
	ck_near(ga_track_sample(g->track[0], 2.5), 1.71875); /* s = 5/8 */
	ck_assert(isnan(ga_track_sample(g->track[1], 2.0)));
	ck_assert_str_eq(a.textures[2].name, "tex_c");
	nm_tree_free(t);
}
END_TEST

/* txpt's textures as PNGs (8 x 8 RGBA8, every byte 0x40 + index), and a texture whose
 * bytes the file lacks: an error naming it. */
START_TEST(test_txpt_png)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	nm_tree *t = build_ok(f, len);
	size_t n;
	char *png = walk_read(t, "/txpt/tex_b.png", &n);
	ck_assert_ptr_nonnull(png);
	ck_assert_uint_eq(n, nm_png_size(8, 8, 4));
	uint8_t row[33];
	row[0] = 0; /* the filter byte, then 8 pixels of 0x41 0x41 0x41 0x41 */
	memset(row + 1, 0x41, 32);
	ck_assert_ptr_nonnull(memmem(png, n, row, sizeof row));
	free(png);
	assert_contains(t, "/txpt/tex_b.txt", "format: RGBA8 (0x14016752)");
	nm_tree_free(t);
	/* Cut inside the last texture: it alone fails, with its offset. */
	uint32_t texdata = get32(f, 0x1C);
	t = build_ok(f, texdata + 2 * 256 + 100);
	assert_contains(t, "/txpt/error.txt", "texture 2 (tex_c): level 0 needs 256 bytes at 0x");
	ck_assert(!walk_exists(t, "/txpt/tex_c.png"));
	ck_assert(walk_exists(t, "/txpt/tex_b.png"));
	assert_contains(t, "/info.txt", "errors: 1");
	walk_clean(t);
	nm_tree_free(t);
	free(f);
}
END_TEST

/* A size field up to 64 bytes past the file is accepted and said (FORMATS.md 10.10). */
START_TEST(test_size_quirk)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 64);
	nm_tree *t = build_ok(f, len);
	assert_contains(t, "/info.txt", "quirks: the size field counts 64 bytes");
	assert_contains(t, "/info.txt", "errors: 0");
	nm_tree_free(t);
	free(f);
	f = cmab_fixture(&len, 0);
	t = build_ok(f, len);
	char *info = must_read(t, "/info.txt");
	ck_assert_ptr_null(strstr(info, "quirks"));
	free(info);
	nm_tree_free(t);
	free(f);
}
END_TEST

/* An animation whose mads offset points past the list (at the list's first mmad, as a
 * randomizer's CMAB does): the list right after the animation header is read, the tree
 * is the same, and header.txt says what the offset was. One pointing at something
 * other than a list where none follows the header is still refused. */
START_TEST(test_mads_offset_off)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	uint32_t an = get32(f, 0x14);
	ck_assert_uint_eq(get32(f, an + 12), 0x14);    /* the list right after the header */
	nm_tree *good = build_ok(f, len);
	uint32_t first_mmad = an + 0x14 + get32(f, an + 0x14 + 8);
	put32(f, an + 12, first_mmad - an);
	nm_tree *t = build_ok(f, len);
	char *want = must_read(good, "/mads/header.txt"), *got = must_read(t, "/mads/header.txt");
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	char line[200];
	snprintf(line, sizeof line, "mads_offset: 0x%x (the animation's offset points at 0x%x, "
		 "where no mads is; the list right after the animation header is read)\n",
		 an + 0x14, first_mmad);
	assert_contains(t, "/header.txt", line);
	assert_contains(t, "/info.txt", "errors: 0");
	walk_clean(t);
	nm_tree_free(t);
	nm_tree_free(good);
	memcpy(f + an + 0x14, "xxxx", 4);             /* no list after the header either */
	nm_error err = { 0 };
	ck_assert_int_ne(walk_build(f, len, "fx.cmab", &t, &err), NM_OK);
	ck_assert_msg(strstr(err.msg, "expected the magic \"mads\"") != NULL, "%s", err.msg);
	free(f);
}
END_TEST

/* ---- CSAB fixtures ---------------------------------------------------------------- */

/* The sample grezzo_anim_writer.h describes. */
static uint8_t *csab_v3(size_t *len)
{
	return gw_sample_csab(3, len);
}

#define CSAB_HEADER "frame,scale_x,scale_y,scale_z,rotation_x,rotation_y,rotation_z," \
		    "translation_x,translation_y,translation_z\n"

START_TEST(test_csab_v3)
{
	size_t len;
	uint8_t *f = csab_v3(&len);
	nm_tree *t = build_ok(f, len);
	walk_clean(t);
	assert_contains(t, "/info.txt", "kind: csab");
	assert_contains(t, "/info.txt", "version: 3 (Ocarina of Time 3D tracks)");
	assert_contains(t, "/info.txt", "targets: 2");
	assert_contains(t, "/info.txt", "tracks: 6");
	assert_contains(t, "/info.txt", "keys: 12");
	assert_contains(t, "/info.txt", "errors: 0");
	assert_contains(t, "/joints/header.txt", "bone_to_anod: 0 -1 -1 1");
	char *smp = must_read(t, "/joints/0/sampled.csv");
	ck_assert_msg(strncmp(smp, CSAB_HEADER, strlen(CSAB_HEADER)) == 0, "%s", smp);
	ck_assert_uint_eq(csv_rows(smp), 12);
	/* Float rotations are radians: 0.5 rad at frame 5 of the linear track. */
	ck_near(csv_at(smp, 5, 4), 0.5 * 180 / M_PI);
	/* Hermite in radians: out-tangent 0.25 rad/frame over 4 frames, at frame 2:
	 * 0.125 * 1 + 0.5 * 0.5 = 0.375 rad. */
	ck_near(csv_at(smp, 2, 5), 0.375 * 180 / M_PI);
	ck_near(csv_at(smp, 1, 7), 2.0);
	ck_near(csv_at(smp, 11, 7), 8.0);
	ck_assert_msg(isnan(csv_at(smp, 1, 1)), "no scale track: the bind value, nan");
	free(smp);
	ck_near(cell(t, "/joints/0/rotation_x.csv", 1, 1), 180 / M_PI);
	/* s16 rotations: value / 32767 * 180 degrees. */
	ck_near(cell(t, "/joints/3/rotation_z.csv", 1, 1), 16384 * 180.0 / 32767);
	ck_near(cell(t, "/joints/3/sampled.csv", 2, 6), 8192 * 180.0 / 32767);
	ck_near(cell(t, "/joints/3/sampled.csv", 1, 4), 8192 * 180.0 / 32767);
	ck_near(cell(t, "/joints/3/sampled.csv", 3, 1), 6.0);
	assert_contains(t, "/joints/3/header.txt", "rotations_s16: 1");
	assert_contains(t, "/joints/3/header.txt", "s16 rotation keys");
	nm_tree_free(t);
	free(f);
}
END_TEST

/* The sample grezzo_anim_writer.h describes. */
static uint8_t *csab_v5(size_t *len)
{
	return gw_sample_csab(5, len);
}

START_TEST(test_csab_v5)
{
	size_t len;
	uint8_t *f = csab_v5(&len);
	nm_tree *t = build_ok(f, len);
	walk_clean(t);
	assert_contains(t, "/info.txt", "version: 5 (Majora's Mask 3D tracks)");
	assert_contains(t, "/info.txt", "loop: once (0x0)");
	assert_contains(t, "/info.txt", "errors: 0");
	assert_contains(t, "/header.txt", "unknown_10: 40 40 40");
	const char *s = "/joints/1/sampled.csv";
	/* Constant: 10 * 0.5 - 1 = 4 at every frame. */
	for (unsigned fr = 0; fr < 5; fr++)
		ck_near(cell(t, s, fr, 1), 4.0);
	/* Per-frame translation (u16): raw * 0.5 - 1 = 0, 1, 2, then held. */
	ck_near(cell(t, s, 0, 7), 0.0);
	ck_near(cell(t, s, 2, 7), 2.0);
	ck_near(cell(t, s, 4, 7), 2.0);
	/* Per-frame rotation (s16, radians): -100 * 0.01 = -1 rad. */
	ck_near(cell(t, s, 0, 6), -180 / M_PI);
	ck_near(cell(t, s, 2, 6), 180 / M_PI);
	/* Hermite keys after the 4-byte header. */
	ck_near(cell(t, s, 2, 8), 1.5);
	ck_near(cell(t, "/joints/1/translation_x.csv", 2, 1), 2.0);
	assert_contains(t, "/joints/1/header.txt", "v5 constant");
	assert_contains(t, "/joints/1/header.txt", "scale 0.5, bias 1");
	nm_tree_free(t);
	free(f);
}
END_TEST

/* ---- hostile input ---------------------------------------------------------------- */

/* Every prefix of a file: the build fails naming the file, or the tree walks with
 * every size exact. */
static void truncations(const uint8_t *f, size_t len)
{
	for (size_t n = 0; n < len; n++) {
		nm_tree *t;
		nm_error err = { 0 };
		if (walk_build(f, n, "cut.anim", &t, &err) != NM_OK) {
			ck_assert_msg(strstr(err.msg, "cut.anim") != NULL, "%zu: %s", n, err.msg);
			continue;
		}
		walk_stats st;
		walk_tree(t, &st);
		ck_assert_uint_eq(st.size_mismatches, 0);
		nm_tree_free(t);
	}
}

START_TEST(test_truncations)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	truncations(f, len);
	free(f);
	f = csab_v3(&len);
	truncations(f, len);
	free(f);
	f = csab_v5(&len);
	truncations(f, len);
	free(f);
}
END_TEST

static void build_fails(const uint8_t *f, size_t len, const char *want)
{
	nm_tree *t;
	nm_error err = { 0 };
	ck_assert_int_ne(walk_build(f, len, "bad.anim", &t, &err), NM_OK);
	ck_assert_msg(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"", err.msg, want);
}

START_TEST(test_absurd_counts)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	/* mads entry count at 0x38 (mads at 0x34). */
	put32(f, 0x38, 0x40000000);
	build_fails(f, len, "bad.anim: mads at 0x38: a table of 1073741824 entry offsets");
	free(f);

	/* A track claiming 2^31 keys: its entry fails alone, named with its offset. */
	f = cmab_fixture(&len, 0);
	uint32_t mmad0 = 0x34 + get32(f, 0x3C);
	uint32_t track = mmad0 + 0x14;
	ck_assert_uint_eq(get32(f, track), 1);
	put32(f, track + 4, 0x80000000u);
	nm_tree *t = build_ok(f, len);
	walk_clean(t);
	char want[128];
	char *e = must_read(t, "/mads/0_translation_material_4_channel_0/error.txt");
	snprintf(want, sizeof want, "fx.anim: mmad 0 at 0x%x: 2147483648 keys of 8 bytes", track);
	ck_assert_msg(strstr(e, want), "%s", e);
	free(e);
	assert_contains(t, "/info.txt", "errors: 1");
	nm_tree_free(t);
	free(f);

	/* CSAB: an anod count past the file. */
	f = csab_v3(&len);
	put32(f, 0x18 + 0x18, 0x7FFFFFFF);
	build_fails(f, len, "animation at 0x30: a bone table of 4 entries and 2147483647 anod");
	free(f);
	/* An anod offset past the end: that bone fails alone. */
	f = csab_v3(&len);
	uint32_t table = 0x18 + 0x20 + 8;
	put32(f, table + 4, 0x7FFFFF00);
	t = build_ok(f, len);
	walk_clean(t);
	e = must_read(t, "/joints/anod_1/error.txt");
	ck_assert_msg(strstr(e, "anod 1 at 0x7fffff18: the 0x1c-byte bone entry runs past"), "%s", e);
	free(e);
	ck_assert(walk_exists(t, "/joints/0/sampled.csv"));
	nm_tree_free(t);
	free(f);
}
END_TEST

/* 1000 anods whose 9 offsets all point at one 4000-key track: read naively, 9000 copies
 * of it (576 MB of keys). The parse stops once the keys read outgrow the file. */
START_TEST(test_overlapping_tracks)
{
	enum { N = 1000, KEYS = 4000 };
	gw_key *keys = calloc(KEYS, sizeof *keys);
	for (int k = 0; k < KEYS; k++)
		keys[k] = (gw_key){ k, (float)k, 0, 0 };
	gw_csab_track big = { .form = GW_V3, .type = 1, .count = KEYS, .keys = keys };
	gw_anod *anods = calloc(N, sizeof *anods);
	for (int i = 0; i < N; i++)
		anods[i].bone = (uint16_t)i;
	anods[N - 1].track[0] = &big;
	gw_csab c = { .version = 3, .duration = 10, .anod = anods, .nanod = N };
	size_t len;
	uint8_t *f = gw_write_csab(&c, &len);
	uint32_t table = 0x18 + 0x20;
	uint32_t last = 0x18 + get32(f, table + 4 * (N - 1));
	for (int i = 0; i < N; i++) {
		uint32_t at = 0x18 + get32(f, table + 4 * (uint32_t)i);
		for (int k = 0; k < 9; k++) {
			uint32_t rel = last + 0x1C - at;
			ck_assert_uint_lt(rel, 0x10000);
			f[at + 8 + 2 * (uint32_t)k] = (uint8_t)rel;
			f[at + 9 + 2 * (uint32_t)k] = (uint8_t)(rel >> 8);
		}
	}
	nm_tree *t = build_ok(f, len);
	char *info = must_read(t, "/info.txt");
	ck_assert_msg(strstr(info, "errors: 0") == NULL, "%s", info);
	free(info);
	assert_contains(t, "/joints/anod_1/error.txt", "tracks overlap");
	walk_stats st;
	walk_opts o = { .sizes_only = true };
	walk_tree_opts(t, &o, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	nm_tree_free(t);
	free(f);
	free(anods);
	free(keys);
}
END_TEST

/* A duration no real animation has (a flipped byte): no sampled.csv, said in info.txt. */
START_TEST(test_long_duration)
{
	size_t len;
	uint8_t *f = cmab_fixture(&len, 0);
	put32(f, 0x24, GA_MAX_SAMPLED_FRAMES + 1);
	nm_tree *t = build_ok(f, len);
	assert_contains(t, "/info.txt", "sampled: none (the duration is past 65536 frames");
	ck_assert(!walk_exists(t, "/mads/0_translation_material_4_channel_0/sampled.csv"));
	ck_assert(walk_exists(t, "/mads/0_translation_material_4_channel_0/translation_s.csv"));
	nm_tree_free(t);
	put32(f, 0x24, GA_MAX_SAMPLED_FRAMES);
	t = build_ok(f, len);
	char *smp = must_read(t, "/mads/0_translation_material_4_channel_0/sampled.csv");
	ck_assert_uint_eq(csv_rows(smp), GA_MAX_SAMPLED_FRAMES);
	ck_near(csv_at(smp, GA_MAX_SAMPLED_FRAMES - 1, 1), 1.0);
	free(smp);
	nm_tree_free(t);
	free(f);
}
END_TEST

START_TEST(test_not_ours)
{
	static const uint8_t junk[8] = "cmab";
	build_fails(junk, 4, "bad.anim: cmab header at 0x0: the file ends inside the 0x20-byte");
	static const uint8_t csab[0x18] = "csab\0\0\0\0\3";
	build_fails(csab, sizeof csab, "the file holds no animation");
}
END_TEST

/* ---- corpus: the real CMABs inside the ZAR and GAR -------------------------------- */

/* An independent reading of the mmad tracks (FORMATS.md 10.12), straight from the
 * member's bytes: every key value must appear, formatted as the CSV writes floats, in
 * the key CSV of its row. */
static unsigned check_keys(nm_tree *t, const char *member, const uint8_t *d, size_t n)
{
	static const unsigned ntracks[6] = { 0, 2, 1, 3, 4, 1 };
	unsigned checked = 0;
	uint32_t an = get32(d, 0x14), mads = an + get32(d, an + 12), count = get32(d, mads + 4);
	char dirpath[600];
	snprintf(dirpath, sizeof dirpath, "%s/mads", member);
	nm_node *mdir, **kids;
	size_t nkids;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, dirpath, &mdir, &err), NM_OK);
	ck_assert_int_eq(nm_children(t, mdir, &kids, &nkids, &err), NM_OK);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t m = mads + get32(d, mads + 8 + 4 * i), type = get32(d, m + 4);
		ck_assert(type >= 1 && type <= 5);
		const char *dname = NULL;
		char prefix[16];
		snprintf(prefix, sizeof prefix, "%u_", i);
		for (size_t k = 0; k < nkids; k++)
			if (strncmp(nm_node_name(kids[k]), prefix, strlen(prefix)) == 0)
				dname = nm_node_name(kids[k]);
		ck_assert_msg(dname, "%s: no directory for entry %u", member, i);
		size_t first = type == 3 ? 0x0C : 0x10;
		for (unsigned s = 0; s < ntracks[type]; s++) {
			uint32_t off = d[m + first + 2 * s] | (uint32_t)d[m + first + 2 * s + 1] << 8;
			if (!off)
				continue;
			uint32_t tr = m + off, w0 = get32(d, tr);
			uint32_t tt = w0 >= 0x10000 ? (w0 & 0xFFFF) : w0;
			uint32_t kc = w0 >= 0x10000 ? w0 >> 16 : get32(d, tr + 4);
			static const char *const names[6][4] = {
				{ 0 }, { "translation_s", "translation_t" }, { "texture" },
				{ "scale_s", "scale_t", "scale_q" }, { "red", "green", "blue", "alpha" },
				{ "rotation" } };
			char path[1000];
			snprintf(path, sizeof path, "%s/%s/%s.csv", dirpath, dname, names[type][s]);
			char *csv = must_read(t, path);
			const char *line = strchr(csv, '\n');
			for (uint32_t k = 0; k < kc; k++) {
				size_t at = tr + 16 + k * (tt == 2 ? 16 : 8);
				float v;
				uint32_t u = get32(d, at + 4);
				memcpy(&v, &u, 4);
				char want[64];
				snprintf(want, sizeof want, ",%+.8e,", (double)v);
				ck_assert_msg(line && strstr(line + 1, want) &&
					      strstr(line + 1, want) < strchr(line + 1, '\n'),
					      "%s row %u lacks %s", path, k, want);
				line = strchr(line + 1, '\n');
				checked++;
			}
			free(csv);
		}
	}
	return checked;
}

static unsigned corpus_archive(const char *path)
{
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(path, NULL, &t, &err) == NM_OK, "%s", err.msg);
	unsigned files = 0;
	nm_node **top, **kids;
	size_t ntop, nkids;
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &top, &ntop, &err), NM_OK);
	for (size_t i = 0; i < ntop; i++) {
		if (nm_node_type(top[i]) != NM_NODE_DIR)
			continue;
		ck_assert_int_eq(nm_children(t, top[i], &kids, &nkids, &err), NM_OK);
		for (size_t k = 0; k < nkids; k++) {
			const char *name = nm_node_name(kids[k]);
			size_t l = strlen(name);
			if (l < 5 || strcmp(name + l - 5, ".cmab") != 0)
				continue;
			char member[512], p[600];
			snprintf(member, sizeof member, "/%s/%s", nm_node_name(top[i]), name);
			snprintf(p, sizeof p, "%s/info.txt", member);
			char *info = walk_read(t, p, NULL);
			ck_assert_msg(info && strstr(info, "errors: 0"), "%s: %s", p, info);
			free(info);
			snprintf(p, sizeof p, "%s/raw.bin", member);
			size_t n;
			char *raw = walk_read(t, p, &n);
			ck_assert_ptr_nonnull(raw);
			unsigned keys = check_keys(t, member, (const uint8_t *)raw, n);
			printf("%s%s: %u keys found in the key CSVs\n", path, member, keys);
			free(raw);
			files++;
		}
	}
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_eq(st.failed, 0);
	nm_tree_free(t);
	return files;
}

START_TEST(test_corpus)
{
	static const char *const archives[][2] = {
		{ "zar", "oot3dr_zelda_gi_melody.zar" }, { "gar", "mm3dr_zelda2_mag.gar.lzs" } };
	unsigned files = 0;
	for (size_t i = 0; i < 2; i++) {
		char *dir = walk_corpus_dir(archives[i][0]);
		if (!dir)
			continue;
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", dir, archives[i][1]);
		free(dir);
		FILE *probe = fopen(path, "rb");
		if (!probe) {
			printf("%s not found: skipped\n", path);
			continue;
		}
		fclose(probe);
		files += corpus_archive(path);
	}
	printf("%u real CMABs read with errors: 0\n", files);
}
END_TEST

static Suite *grezzo_anim_suite(void)
{
	Suite *s = suite_create("grezzo_anim");
	TCase *tc = tcase_create("fixtures");
	tcase_add_test(tc, test_cmab_types);
	tcase_add_test(tc, test_cmab_records);
	tcase_add_test(tc, test_size_quirk);
	tcase_add_test(tc, test_mads_offset_off);
	tcase_add_test(tc, test_txpt_png);
	tcase_add_test(tc, test_csab_v3);
	tcase_add_test(tc, test_csab_v5);
	suite_add_tcase(s, tc);
	TCase *bad = tcase_create("broken");
	tcase_set_timeout(bad, 120);
	tcase_add_test(bad, test_truncations);
	tcase_add_test(bad, test_absurd_counts);
	tcase_add_test(bad, test_overlapping_tracks);
	tcase_add_test(bad, test_long_duration);
	tcase_add_test(bad, test_not_ours);
	suite_add_tcase(s, bad);
	TCase *corpus = tcase_create("corpus");
	tcase_set_timeout(corpus, 120);
	tcase_add_test(corpus, test_corpus);
	suite_add_tcase(s, corpus);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(grezzo_anim_suite)
