/* J3D animation driver (src/formats/j3danim) on files the fixture writer builds:
 * Hermite worked by hand (a two-key segment of four frames, tangent modes 0 and 1),
 * rotation shift, truncation and s16 wrap, colour clamps, every loop mode, every kind's
 * tree, the size-field-over-file quirk, BTP entries past the declared count, key times
 * outside the duration, the parse API a glb writer would use, and hostile counts and
 * offsets (a clear error naming file, block and offset; every truncation walks clean).
 * Every tree is also walked whole: each file yields exactly its announced size, and
 * nothing is produced at mount. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures/j3danim_writer.h"
#include "formats/driver.h"
#include "formats/j3danim/j3danim.h"
#include "lib/bytes.h"
#include "tests/walk.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static uint8_t *build(const j3daw_anim *a, size_t *len)
{
	uint8_t *b = j3daw_build(a, len);
	ck_assert_ptr_nonnull(b);
	return b;
}

/* A tree of the bytes; the build must succeed; nothing is produced by it. */
static nm_tree *tree_of(const uint8_t *b, size_t len)
{
	nm_tree *t;
	nm_error err;
	ck_assert_msg(walk_build(b, len, "fixture.bck", &t, &err) == NM_OK, "build: %s", err.msg);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	return t;
}

static nm_tree *anim_tree(const j3daw_anim *a)
{
	size_t len;
	uint8_t *b = build(a, &len);
	nm_tree *t = tree_of(b, len);
	free(b);
	return t;
}

static char *must_read(nm_tree *t, const char *path)
{
	char *s = walk_read(t, path, NULL);
	ck_assert_msg(s != NULL, "cannot read %s", path);
	return s;
}

#define CK_CONTAINS(text, line) \
	ck_assert_msg(strstr((text), (line)) != NULL, "missing \"%s\" in:\n%s", (line), (text))

/* Column col of row (0 = the first row after the header) of a CSV file. */
static double csv_cell(nm_tree *t, const char *path, unsigned row, unsigned col)
{
	char *s = must_read(t, path);
	char *p = strchr(s, '\n');
	for (unsigned r = 0; p && r < row; r++)
		p = strchr(p + 1, '\n');
	ck_assert_msg(p != NULL, "%s has no row %u", path, row);
	p++;
	for (unsigned c = 0; c < col; c++) {
		p = strchr(p, ',');
		ck_assert_msg(p != NULL, "%s row %u has no column %u", path, row, col);
		p++;
	}
	double v = strtod(p, NULL);
	free(s);
	return v;
}

/* Rows of a CSV (lines after the header). */
static unsigned csv_rows(nm_tree *t, const char *path)
{
	char *s = must_read(t, path);
	unsigned n = 0;
	for (char *p = s; *p; p++)
		n += *p == '\n';
	free(s);
	return n - 1;
}

/* Walk all of it: no file fails, each at its announced size. */
static void walk_clean(nm_tree *t)
{
	walk_stats st = { 0 };
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_eq(st.failed, 0);
}

#define CLOSET(a, b, tol) ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol), \
					"%.9g is not %.9g", (double)(a), (double)(b))
#define CLOSE(a, b) CLOSET(a, b, 1e-6 * (1 + fabs((double)(b))))

/* ---- Hermite by hand ------------------------------------------------------------------------ */

/* translation_x of joint 0: keys (0, 0) and (4, 8), out-tangent of the first 1, in-tangent
 * of the second 0, a segment of L = 4 frames. h10 = s^3 - 2s^2 + s, h01 = -2s^3 + 3s^2:
 *   f = 1 (s = 1/4): 0.140625 * (1 * 4) + 0.15625 * 8 = 1.8125
 *   f = 2 (s = 1/2): 0.125 * 4 + 0.5 * 8 = 4.5          (4.125 without the x L)
 *   f = 3 (s = 3/4): 0.046875 * 4 + 0.84375 * 8 = 6.9375
 * then 8 from the last key on. Mode 1 stores in and out per key: the segment takes the
 * first key's out (1) and the second's in (0); the others (5, 9) must not matter. */
static const float mode0_keys[] = { 0, 0, 1, 4, 8, 0 };
static const float mode1_keys[] = { 0, 0, 5, 1, 4, 8, 0, 9 };
static const double by_hand[6] = { 0, 1.8125, 4.5, 6.9375, 8, 8 };

static void check_by_hand(uint16_t mode, const float *data)
{
	j3daw_target tg = { .tracks = { [6] = { 2, mode, data } } };
	j3daw_anim a = { .kind = J3DANIM_BCK, .loop = 2, .duration = 6, .targets = &tg,
			 .ntargets = 1 };
	nm_tree *t = anim_tree(&a);
	ck_assert_uint_eq(csv_rows(t, "joints/0/sampled.csv"), 6);
	for (unsigned f = 0; f < 6; f++) {
		CLOSE(csv_cell(t, "joints/0/sampled.csv", f, 0), f);
		CLOSE(csv_cell(t, "joints/0/sampled.csv", f, 7), by_hand[f]);
		/* empty tracks: scale 1, rotation 0, translation 0 */
		CLOSE(csv_cell(t, "joints/0/sampled.csv", f, 1), 1);
		CLOSE(csv_cell(t, "joints/0/sampled.csv", f, 4), 0);
		CLOSE(csv_cell(t, "joints/0/sampled.csv", f, 8), 0);
	}
	/* The keys as stored: frame, value, tangent in, tangent out (mode 0: one tangent). */
	const char *k = "joints/0/translation_x.csv";
	ck_assert_uint_eq(csv_rows(t, k), 2);
	CLOSE(csv_cell(t, k, 1, 0), 4);
	CLOSE(csv_cell(t, k, 1, 1), 8);
	CLOSE(csv_cell(t, k, 0, 2), mode ? 5 : 1);
	CLOSE(csv_cell(t, k, 0, 3), 1);
	CLOSE(csv_cell(t, k, 1, 3), mode ? 9 : 0);
	ck_assert(!walk_exists(t, "joints/0/translation_y.csv")); /* empty: no CSV */
	char *tt = must_read(t, "joints/0/target.txt");
	char line[64];
	snprintf(line, sizeof line, "translation_x: 2 keys from translation[0], tangent mode %u\n",
		 mode);
	CK_CONTAINS(tt, line);
	CK_CONTAINS(tt, "translation_y: none\n");
	free(tt);
	walk_clean(t);
	nm_tree_free(t);
}

START_TEST(hermite_mode0) { check_by_hand(0, mode0_keys); }
END_TEST

START_TEST(hermite_mode1) { check_by_hand(1, mode1_keys); }
END_TEST

/* The shared evaluator against the double-precision one on a long curve, and the game's
 * bisection picking the same segment as the linear rule. */
START_TEST(j3d_sampler_matches_double)
{
	nm_key k[5] = { { -1, 3, 0.5f, 0.5f }, { 7, -20, 2, -1 }, { 7, 40, 0, 0 },
			{ 30, 1000, 10, 3 }, { 31, 2, 0, 0 } };
	for (double f = -3; f < 35; f += 0.25) {
		double d = nm_keys_sample(k, 5, NM_INTERP_HERMITE, f, 0);
		for (int o = 0; o < 2; o++) {
			float s = nm_keys_sample_j3d(k, 5, o ? NM_J3D_ORDER_S16 : NM_J3D_ORDER_F32,
						     (float)f, 0);
			ck_assert_msg(fabs(s - d) <= 1e-4 * (1 + fabs(d)), "f %g order %d: %g vs %g",
				      f, o, s, d);
		}
	}
	/* Two keys at one time make a step: from frame 7 on, the second one's curve. */
	ck_assert(nm_keys_sample_j3d(k, 5, NM_J3D_ORDER_F32, 7, 0) == 40);
	/* Times out of order: the game's halving search still ends on a segment of positive
	 * length (keys[base] <= f < keys[base + 1]): frame 4 of 0, 5, 2, 8 lies between the
	 * keys at 2 and 8 (s = 1/3: 3 + 7/27). */
	nm_key bad[4] = { { 0, 1, 0, 0 }, { 5, 2, 0, 0 }, { 2, 3, 0, 0 }, { 8, 4, 0, 0 } };
	for (float f = 0; f < 9; f += 0.5f)
		ck_assert(isfinite(nm_keys_sample_j3d(bad, 4, NM_J3D_ORDER_S16, f, 0)));
	CLOSE(nm_keys_sample_j3d(bad, 4, NM_J3D_ORDER_F32, 4, 0), 3 + 7.0 / 27);
	/* A NaN time: no division by it, the segment's first key. */
	nm_key nan_key[3] = { { 0, 1, 0, 0 }, { NAN, 2, 0, 0 }, { 8, 4, 0, 0 } };
	ck_assert(nm_keys_sample_j3d(nan_key, 3, NM_J3D_ORDER_F32, 4, 0) == 1);
	ck_assert(nm_keys_sample_j3d(k, 0, NM_J3D_ORDER_F32, 1, 7.5f) == 7.5f);
	ck_assert(nm_keys_sample_j3d(k, 1, NM_J3D_ORDER_F32, 100, 7.5f) == 3);
}
END_TEST

/* ---- rotations ------------------------------------------------------------------------------ */

/* Shift 1: rotation_z keys (0, 0) and (2, 20000): frame 1 is 10000 << 1 = 20000 units =
 * 109.86328125 degrees; frame 2 is 20000 << 1 = 40000, which as an s16 wraps to -25536 =
 * -140.2734375 degrees. The key CSV shows the key unwrapped: 40000 units = 219.7265625.
 * rotation_x, constant 0x1000: 0x2000 = 45 degrees. rotation_y keys (0, 0) and (3, 10),
 * frame 1: 10 x (-2/27 + 3/9) = 2.59 truncated to 2, << 1 = 4 units. */
START_TEST(rotation_shift_wrap_truncation)
{
	static const float rz[] = { 0, 0, 0, 2, 20000, 0 }, rx[] = { 0x1000 },
			   ry[] = { 0, 0, 0, 3, 10, 0 };
	j3daw_target tg = { .tracks = { [3] = { 1, 0, rx }, [4] = { 2, 0, ry },
					[5] = { 2, 0, rz } } };
	j3daw_anim a = { .kind = J3DANIM_BCK, .shift = 1, .duration = 4, .targets = &tg,
			 .ntargets = 1 };
	nm_tree *t = anim_tree(&a);
	const char *s = "joints/0/sampled.csv";
	CLOSE(csv_cell(t, s, 1, 6), 109.86328125);
	CLOSE(csv_cell(t, s, 2, 6), -140.2734375);
	CLOSE(csv_cell(t, s, 3, 6), -140.2734375);
	CLOSE(csv_cell(t, s, 0, 4), 45);
	CLOSE(csv_cell(t, s, 1, 5), 4 * 180.0 / 32768);
	CLOSE(csv_cell(t, "joints/0/rotation_z.csv", 1, 1), 219.7265625);
	CLOSE(csv_cell(t, "joints/0/rotation_x.csv", 0, 1), 45);
	char *info = must_read(t, "info.txt");
	CK_CONTAINS(info, "rotation_shift: 1\n");
	CK_CONTAINS(info, "kind: BCK (ANK1: ");
	CK_CONTAINS(info, "targets: 1\ntracks: 9\nanimated_tracks: 3\nkeys: 5\n");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	walk_clean(t);
	nm_tree_free(t);
}
END_TEST

/* Keys outside [0, duration]: a first key at -1 and a last past the end; sampling
 * clamps (frame 0 lies inside the first segment, the last frames hold the last key). */
START_TEST(key_times_outside_duration)
{
	static const float tx[] = { -1, 10, 0, 2, 20, 0, 9, 30, 0 };
	j3daw_target tg = { .tracks = { [6] = { 3, 0, tx } } };
	j3daw_anim a = { .kind = J3DANIM_BCK, .duration = 5, .targets = &tg, .ntargets = 1 };
	nm_tree *t = anim_tree(&a);
	const char *s = "joints/0/sampled.csv";
	/* frame 0: s = 1/3 between (-1, 10) and (2, 20): 10 + 10 x (3s^2 - 2s^3) = 12.59... */
	double s3 = 1.0 / 3;
	CLOSET(csv_cell(t, s, 0, 7), 10 + 10 * (3 * s3 * s3 - 2 * s3 * s3 * s3), 1e-5);
	CLOSE(csv_cell(t, s, 2, 7), 20);
	CLOSE(csv_cell(t, "joints/0/translation_x.csv", 0, 0), -1);
	walk_clean(t);
	nm_tree_free(t);
}
END_TEST

/* ---- loop modes ------------------------------------------------------------------------------ */

START_TEST(loop_modes)
{
	static const char *const want[] = { "once (0)", "once_and_reset (1)", "repeat (2)",
					    "mirror_once (3)", "mirror_repeat (4)", "unknown (5)" };
	static const float v[] = { 1 };
	j3daw_target tg = { .tracks = { [0] = { 1, 0, v } } };
	for (int m = 0; m < 6; m++) {
		j3daw_anim a = { .kind = m % 2 ? J3DANIM_BCA : J3DANIM_BCK, .loop = (uint8_t)m,
				 .duration = 3, .targets = &tg, .ntargets = 1 };
		nm_tree *t = anim_tree(&a);
		char *info = must_read(t, "info.txt"), line[64];
		snprintf(line, sizeof line, "loop_mode: %s\n", want[m]);
		CK_CONTAINS(info, line);
		free(info);
		nm_tree_free(t);
	}
}
END_TEST

/* ---- colours ---------------------------------------------------------------------------------- */

/* BPK red keys (0, -50) and (2, 300): clamped to 0 at frame 0, 125 at frame 1, 255 at
 * frame 2 and on; green keys (0, 0) and (3, 10): 2.59 truncated to 2; blue constant 300
 * is used raw into a byte: 300 & 0xFF = 44; alpha empty: 0. */
START_TEST(colour_clamps)
{
	static const float r[] = { 0, -50, 0, 2, 300, 0 }, g[] = { 0, 0, 0, 3, 10, 0 },
			   b[] = { 300 };
	j3daw_target tg = { .name = "body", .tracks = { { 2, 0, r }, { 2, 0, g }, { 1, 0, b } } };
	j3daw_anim a = { .kind = J3DANIM_BPK, .duration = 4, .targets = &tg, .ntargets = 1 };
	nm_tree *t = anim_tree(&a);
	const char *s = "materials/body/mat_color0/sampled.csv";
	char *head = must_read(t, s);
	ck_assert(strncmp(head, "frame,red,green,blue,alpha\n", 27) == 0);
	free(head);
	CLOSE(csv_cell(t, s, 0, 1), 0);
	CLOSE(csv_cell(t, s, 1, 1), 125);
	CLOSE(csv_cell(t, s, 2, 1), 255);
	CLOSE(csv_cell(t, s, 3, 1), 255);
	CLOSE(csv_cell(t, s, 1, 2), 2);
	CLOSE(csv_cell(t, s, 0, 3), 44);
	CLOSE(csv_cell(t, s, 0, 4), 0);
	CLOSE(csv_cell(t, "materials/body/mat_color0/red.csv", 0, 1), -50);
	char *tt = must_read(t, "materials/body/mat_color0/target.txt");
	CK_CONTAINS(tt, "material: body\n");
	free(tt);
	walk_clean(t);
	nm_tree_free(t);

	/* BRK: a C register clamps to -1024..1023, a K register to 0..255. */
	static const float c[] = { 0, -2000, 0, 2, 1500, 0 };
	j3daw_target tgs[2] = {
		{ .name = "eye", .slot = 1, .tracks = { { 2, 0, c } } },
		{ .name = "eye", .slot = 3, .konst = true, .tracks = { { 2, 0, c } } },
	};
	j3daw_anim brk = { .kind = J3DANIM_BRK, .duration = 3, .targets = tgs, .ntargets = 2 };
	t = anim_tree(&brk);
	const char *cs = "materials/eye/tev_color1/sampled.csv", *ks = "materials/eye/tev_konst3/sampled.csv";
	CLOSE(csv_cell(t, cs, 0, 1), -1024);
	CLOSE(csv_cell(t, cs, 1, 1), -250);
	CLOSE(csv_cell(t, cs, 2, 1), 1023);
	CLOSE(csv_cell(t, ks, 0, 1), 0);
	CLOSE(csv_cell(t, ks, 2, 1), 255);
	tt = must_read(t, "materials/eye/tev_konst3/target.txt");
	CK_CONTAINS(tt, "target: tev_konst_register\n");
	CK_CONTAINS(tt, "register: 3\n");
	free(tt);
	walk_clean(t);
	nm_tree_free(t);
}
END_TEST

/* ---- the other kinds --------------------------------------------------------------------------- */

/* BTK: the game samples S/T scale, Q rotation and S/T translation; the rest are shown
 * as keys but marked unused. calc_type 0x801514a8 (a tool's pointer) is basic. */
START_TEST(btk_tracks)
{
	static const float sc[] = { 2 }, rq[] = { 0, 0, 0, 10, 0x1000, 0 }, rs[] = { 99 },
			   tt_[] = { 0, 0, 0.1f, 10, 1, 0.1f };
	j3daw_target tg = { .name = "water", .slot = 2, .center = { 0.5f, 0.5f, 0 },
			    .tracks = { [0] = { 1, 0, sc }, [1] = { 1, 0, rs },
					[5] = { 2, 1 - 1, tt_ }, [7] = { 2, 0, rq } } };
	j3daw_anim a = { .kind = J3DANIM_BTK, .shift = 2, .duration = 11, .targets = &tg,
			 .ntargets = 1, .calc_type = 0x801514A8 };
	nm_tree *t = anim_tree(&a);
	const char *d = "materials/water/tex_matrix2/";
	char p[128];
	snprintf(p, sizeof p, "%ssampled.csv", d);
	char *s = must_read(t, p);
	ck_assert(strncmp(s, "frame,scale_s,scale_t,rotation_q,translation_s,translation_t\n",
			  61) == 0);
	free(s);
	CLOSE(csv_cell(t, p, 10, 3), 90);            /* 0x1000 << 2 = 0x4000 */
	CLOSE(csv_cell(t, p, 3, 1), 2);
	CLOSE(csv_cell(t, p, 3, 2), 1);              /* scale_t empty */
	CLOSE(csv_cell(t, p, 10, 5), 1);
	snprintf(p, sizeof p, "%starget.txt", d);
	s = must_read(t, p);
	CK_CONTAINS(s, "tex_matrix: 2\n");
	CK_CONTAINS(s, "center: 0.5 0.5 0\n");
	CK_CONTAINS(s, "rotation_s: constant rotation[0] (not used by the game)\n");
	free(s);
	s = must_read(t, "info.txt");
	CK_CONTAINS(s, "calc_type: basic (0x801514a8)\n");
	CK_CONTAINS(s, "quirk: calc_type is neither 0 nor 1");
	free(s);
	walk_clean(t);
	nm_tree_free(t);
}
END_TEST

/* BTP: per-frame texture indices, held after the last; BVA: per-frame visibility;
 * BLK: keyed weight (empty: 1); BLA: per-frame weight. */
START_TEST(full_kinds)
{
	static const float idx[] = { 3, 4, 5 };
	j3daw_target tp = { .name = "face", .slot = 1, .tracks = { { 3, 0, idx } } };
	j3daw_anim btp = { .kind = J3DANIM_BTP, .duration = 5, .targets = &tp, .ntargets = 1 };
	nm_tree *t = anim_tree(&btp);
	const char *s = "materials/face/texture1/sampled.csv";
	CLOSE(csv_cell(t, s, 0, 1), 3);
	CLOSE(csv_cell(t, s, 2, 1), 5);
	CLOSE(csv_cell(t, s, 4, 1), 5);
	CLOSE(csv_cell(t, "materials/face/texture1/texture.csv", 1, 1), 4);
	walk_clean(t);
	nm_tree_free(t);

	static const float vis[] = { 1, 0 };
	j3daw_target sh[2] = { { .tracks = { { 2, 0, vis } } }, { .tracks = { { 1, 0, vis + 1 } } } };
	j3daw_anim bva = { .kind = J3DANIM_BVA, .duration = 3, .targets = sh, .ntargets = 2 };
	t = anim_tree(&bva);
	CLOSE(csv_cell(t, "shapes/0/sampled.csv", 0, 1), 1);
	CLOSE(csv_cell(t, "shapes/0/sampled.csv", 2, 1), 0);
	CLOSE(csv_cell(t, "shapes/1/sampled.csv", 1, 1), 0);
	walk_clean(t);
	nm_tree_free(t);

	static const float w[] = { 0, 0, 0, 4, 1, 0 };
	j3daw_target cl[2] = { { .tracks = { { 2, 0, w } } }, { 0 } };
	j3daw_anim blk = { .kind = J3DANIM_BLK, .duration = 5, .targets = cl, .ntargets = 2 };
	t = anim_tree(&blk);
	CLOSE(csv_cell(t, "clusters/0/sampled.csv", 2, 1), 0.5);
	CLOSE(csv_cell(t, "clusters/1/sampled.csv", 2, 1), 1);
	walk_clean(t);
	nm_tree_free(t);

	static const float fw[] = { 0.25f, 0.75f };
	j3daw_target fl = { .tracks = { { 2, 0, fw } } };
	j3daw_anim bla = { .kind = J3DANIM_BLA, .duration = 3, .targets = &fl, .ntargets = 1 };
	t = anim_tree(&bla);
	CLOSE(csv_cell(t, "clusters/0/sampled.csv", 0, 1), 0.25);
	CLOSE(csv_cell(t, "clusters/0/sampled.csv", 2, 1), 0.75);
	char *info = must_read(t, "info.txt");
	CK_CONTAINS(info, "kind: BLA (CLF1: ");
	free(info);
	walk_clean(t);
	nm_tree_free(t);
}
END_TEST

/* A BCA: per-frame values, rotations without a shift; the count may pass the duration. */
static const float bca_rot[] = { 0x4000, -0x4000, 0 };
static const float bca_tx[] = { 1, 2, 3 };
static const j3daw_target bca_joint = { .tracks = { [5] = { 3, 0, bca_rot },
						    [6] = { 3, 0, bca_tx } } };

START_TEST(bca_values)
{
	j3daw_anim a = { .kind = J3DANIM_BCA, .duration = 2, .targets = &bca_joint,
			 .ntargets = 1 };
	nm_tree *t = anim_tree(&a);
	const char *s = "joints/0/sampled.csv";
	ck_assert_uint_eq(csv_rows(t, s), 2);
	CLOSE(csv_cell(t, s, 0, 6), 90);
	CLOSE(csv_cell(t, s, 1, 6), -90);
	CLOSE(csv_cell(t, s, 1, 7), 2);
	CLOSE(csv_cell(t, "joints/0/rotation_z.csv", 2, 1), 0);
	char *info = must_read(t, "info.txt");
	ck_assert_ptr_null(strstr(info, "rotation_shift"));
	ck_assert_ptr_null(strstr(info, "file_kind"));
	free(info);
	walk_clean(t);
	nm_tree_free(t);
	/* A file FourCC naming another kind: read by the block, as the game's loader does. */
	size_t len;
	uint8_t *b = build(&a, &len);
	memcpy(b + 4, "bck1", 4);
	t = tree_of(b, len);
	info = must_read(t, "info.txt");
	CK_CONTAINS(info, "file_kind: bck1 (the block is ANF1: read as BCA");
	CK_CONTAINS(info, "kind: BCA (ANF1: ");
	free(info);
	CLOSE(csv_cell(t, "joints/0/sampled.csv", 1, 7), 2);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* Real BCAs declare 4..28 bytes more than they hold (the end padding): read as the game
 * does, info.txt says so. Cut into the values, the joint's error.txt says where. */
START_TEST(size_field_over_file)
{
	j3daw_anim a = { .kind = J3DANIM_BCA, .duration = 3, .targets = &bca_joint,
			 .ntargets = 1, .cut_tail = 12 };
	size_t len;
	uint8_t *b = build(&a, &len);
	ck_assert_uint_eq(nm_be32(b + 8), len + 12);
	nm_tree *t = tree_of(b, len);
	char *info = must_read(t, "info.txt");
	CK_CONTAINS(info, "fewer, cut short?)\n");
	CK_CONTAINS(info, "quirk: the size fields count 12 bytes past the end of the file");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	CLOSE(csv_cell(t, "joints/0/sampled.csv", 2, 7), 3);
	walk_clean(t);
	nm_tree_free(t);
	/* 4 more bytes cut: the last translation value is gone. */
	t = tree_of(b, len - 24);
	info = must_read(t, "info.txt");
	CK_CONTAINS(info, "errors: 1\n");
	ck_assert_ptr_null(strstr(info, "quirk"));
	free(info);
	char *e = must_read(t, "joints/0/error.txt");
	CK_CONTAINS(e, "fixture.bck: ANF1 at 0x");
	CK_CONTAINS(e, "translation_x of entry 0: 3 values from element 0 of the translation array");
	free(e);
	ck_assert(!walk_exists(t, "joints/0/sampled.csv"));
	walk_clean(t);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* The BTP of 10.7: an entry running past the declared index count, inside the file. */
START_TEST(btp_past_count)
{
	static const float idx[] = { 1, 2, 3, 4 };
	j3daw_target tp = { .name = "m", .tracks = { { 4, 0, idx } } };
	j3daw_anim a = { .kind = J3DANIM_BTP, .duration = 4, .targets = &tp, .ntargets = 1 };
	size_t len;
	uint8_t *b = build(&a, &len);
	b[0x20 + 0x0F] = 2; /* declared index count 2 */
	nm_tree *t = tree_of(b, len);
	char *info = must_read(t, "info.txt");
	CK_CONTAINS(info, "quirk: 1 tracks read values past their array's declared count");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	CLOSE(csv_cell(t, "materials/m/texture0/sampled.csv", 3, 1), 4);
	walk_clean(t);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* ---- the parse API ------------------------------------------------------------------------------ */

START_TEST(parse_api)
{
	j3daw_target tg = { .tracks = { [6] = { 2, 0, mode0_keys } } };
	j3daw_anim an = { .kind = J3DANIM_BCK, .loop = 2, .duration = 6, .targets = &tg,
			  .ntargets = 1 };
	size_t len;
	uint8_t *b = build(&an, &len);
	nm_reader *r;
	nm_error err;
	ck_assert_int_eq(nm_reader_new_memory("api.bck", b, len, &r, &err), NM_OK);
	j3danim *a;
	ck_assert_int_eq(j3danim_parse(r, &a, &err), NM_OK);
	ck_assert_int_eq(a->kind, J3DANIM_BCK);
	ck_assert_uint_eq(a->loop, 2);
	ck_assert_int_eq(a->duration, 6);
	ck_assert_uint_eq(a->ntargets, 1);
	ck_assert_ptr_null(a->targets[0].tracks[6].keys);
	ck_assert_int_eq(j3danim_load_keys(r, a, &err), NM_OK);
	const j3danim_track *tr = &a->targets[0].tracks[6];
	ck_assert_str_eq(tr->name, "translation_x");
	ck_assert_uint_eq(tr->count, 2);
	ck_assert(tr->keys[1].time == 4 && tr->keys[1].value == 8 && tr->keys[0].tan_out == 1);
	for (unsigned f = 0; f < 6; f++) {
		j3danim_trs trs;
		j3danim_sample_joint(a, &a->targets[0], (float)f, &trs);
		CLOSE(trs.translation[0], by_hand[f]);
		CLOSE(trs.scale[2], 1);
		ck_assert_int_eq(trs.angle[1], 0);
	}
	/* Between frames too (the game's frame counter is a float). */
	double h = 0.125; /* s at frame 0.5 */
	CLOSET(j3danim_sample(a, tr, tr->keys, 0.5f),
	       (h * h * h - 2 * h * h + h) * 4 + (-2 * h * h * h + 3 * h * h) * 8, 1e-6);
	j3danim_free(a);
	nm_reader_close(r);
}
END_TEST

/* A model still goes to the model driver, an animation to this one. */
START_TEST(probe_by_content)
{
	const nm_driver *d;
	nm_error err;
	static const float v[] = { 1 };
	j3daw_target tg = { .tracks = { { 1, 0, v } } };
	for (int k = 0; k < J3DANIM_NKINDS; k++) {
		j3daw_anim a = { .kind = (j3danim_kind)k, .duration = 1, .targets = &tg,
				 .ntargets = 1 };
		size_t len;
		uint8_t *b = build(&a, &len);
		nm_reader *r;
		ck_assert_int_eq(nm_reader_new_memory("p", b, len, &r, &err), NM_OK);
		ck_assert_int_eq(nm_driver_find(r, &d, &err), NM_OK);
		ck_assert_str_eq(d->name, "j3danim");
		nm_reader_close(r);
	}
	uint8_t model[0x40] = "J3D2bmd3";
	nm_reader *r;
	uint8_t *copy = malloc(sizeof model);
	memcpy(copy, model, sizeof model);
	ck_assert_int_eq(nm_reader_new_memory("m", copy, sizeof model, &r, &err), NM_OK);
	ck_assert_int_eq(nm_driver_find(r, &d, &err), NM_OK);
	ck_assert_str_eq(d->name, "j3d");
	nm_reader_close(r);
}
END_TEST

/* ---- hostile input ------------------------------------------------------------------------------ */

static const float h_keys[] = { 0, 0, 1, 4, 8, 0 };

/* The BCK fixture with the u32 at block offset rel set to v (or the u16 when wide is
 * false): a tree with ank1/error.txt saying msg, or a failed build saying msg. */
static void hostile(size_t rel, uint32_t v, bool wide, const char *where, const char *msg)
{
	j3daw_target tg = { .tracks = { [6] = { 2, 0, h_keys }, [3] = { 1, 0, h_keys } } };
	j3daw_anim a = { .kind = J3DANIM_BCK, .duration = 6, .targets = &tg, .ntargets = 1 };
	size_t len;
	uint8_t *b = build(&a, &len);
	if (wide) {
		b[0x20 + rel] = (uint8_t)(v >> 24);
		b[0x20 + rel + 1] = (uint8_t)(v >> 16);
		b[0x20 + rel + 2] = (uint8_t)(v >> 8);
		b[0x20 + rel + 3] = (uint8_t)v;
	} else {
		b[0x20 + rel] = (uint8_t)(v >> 8);
		b[0x20 + rel + 1] = (uint8_t)v;
	}
	nm_tree *t;
	nm_error err;
	nm_status s = walk_build(b, len, "bad.bck", &t, &err);
	if (!where) {
		ck_assert_int_ne(s, NM_OK);
		ck_assert_msg(strstr(err.msg, msg) != NULL, "%s lacks %s", err.msg, msg);
	} else {
		ck_assert_msg(s == NM_OK, "build: %s", err.msg);
		char *e = must_read(t, where);
		ck_assert_msg(strstr(e, msg) != NULL, "%s: \"%s\" lacks \"%s\"", where, e, msg);
		free(e);
		char *info = must_read(t, "info.txt");
		CK_CONTAINS(info, "errors: 1\n");
		free(info);
		walk_clean(t);
		nm_tree_free(t);
	}
	free(b);
}

START_TEST(hostile_counts_and_offsets)
{
	/* joint count 0xFFFF: the table passes the block */
	hostile(0x0C, 0xFFFF, false, "ank1/error.txt",
		"bad.bck: ANK1 at 0x60: joint table (0x35ffca bytes at block offset 0x40) runs past "
		"the end of the block");
	/* table offset far out */
	hostile(0x14, 0xFFFFFFF0, true, "ank1/error.txt", "bad.bck: ANK1 at 0x20: joint table");
	/* translation array offset past the block: the joint's tracks cannot be read */
	hostile(0x20, 0x7FFFFFFF, true, "joints/0/error.txt",
		"bad.bck: ANK1 at 0x20: translation_x of entry 0: 2 keys from element 0 of the "
		"translation array");
	/* block size below its header: nothing to show */
	hostile(0x04, 0x10, true, NULL, "bad.bck: ANK1 at 0x24: block size 0x10 is smaller "
		"than the 0x24-byte ANK1 header");
	/* the first key of the translation track far into the array */
	j3daw_target tg = { .tracks = { [6] = { 2, 0, h_keys } } };
	j3daw_anim a = { .kind = J3DANIM_BCK, .duration = 6, .targets = &tg, .ntargets = 1 };
	size_t len;
	uint8_t *b = build(&a, &len);
	uint32_t table = nm_be32(b + 0x20 + 0x14);
	/* translation_x is the third key table of the joint entry (sx rx tx ...) */
	b[0x20 + table + 12 + 2] = 0xFF;
	b[0x20 + table + 12 + 3] = 0xFF;
	nm_tree *t = tree_of(b, len);
	char *e = must_read(t, "joints/0/error.txt");
	CK_CONTAINS(e, "from element 65535 of the translation array");
	free(e);
	walk_clean(t);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* A material name table claiming 0xFFFF names; a BRK entry count past the block. */
START_TEST(hostile_tables)
{
	static const float v[] = { 5 };
	j3daw_target tg = { .name = "abc", .tracks = { { 1, 0, v } } };
	j3daw_anim a = { .kind = J3DANIM_BPK, .duration = 2, .targets = &tg, .ntargets = 1 };
	size_t len;
	uint8_t *b = build(&a, &len);
	uint32_t names = nm_be32(b + 0x20 + 0x20);
	b[0x20 + names] = 0xFF;
	b[0x20 + names + 1] = 0xFF;
	nm_tree *t = tree_of(b, len);
	char *e = must_read(t, "pak1/error.txt");
	CK_CONTAINS(e, "fixture.bck: PAK1 at 0x");
	CK_CONTAINS(e, "name table (0x40000 bytes at block offset 0x");
	free(e);
	walk_clean(t);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* Every truncation and a sample of byte flips of one file of every kind: a build that
 * fails says why; one that succeeds walks clean (every file its announced size; failures
 * only where an error.txt says so). No crash, no hang, no huge allocation. */
START_TEST(truncations_and_flips)
{
	/* f9: three keys of (time, value, tangent) where a kind keys its tracks, its first
	 * three values where it has one per frame. */
	static const float k4[] = { 0, 0, 1, 1, 4, 8, 0, 2 }, k1[] = { 3 },
			   f9[] = { 1, 0, 2, 3, 1, 0, 5, 2, 0 };
	for (int k = 0; k < J3DANIM_NKINDS; k++) {
		j3daw_target tg[2] = {
			{ .name = "m0", .tracks = { { 2, 1, k4 }, { 1, 0, k1 }, { 2, 0, k4 },
						    [5] = { 1, 0, k1 }, [7] = { 2, 1, k4 } } },
			{ .name = "m1", .konst = true, .post = true,
			  .tracks = { { 3, 0, f9 }, { 1, 0, k1 } } },
		};
		bool full = k == J3DANIM_BCA || k == J3DANIM_BTP || k == J3DANIM_BVA ||
			    k == J3DANIM_BLA;
		if (full)
			tg[0].tracks[0] = (j3daw_track){ 3, 0, f9 };
		j3daw_anim a = { .kind = (j3danim_kind)k, .shift = 3, .duration = 7, .targets = tg,
				 .ntargets = 2 };
		size_t len;
		uint8_t *b = build(&a, &len);
		for (size_t cut = 0; cut <= len; cut++) {
			nm_tree *t;
			nm_error err;
			if (walk_build(b, cut, "cut.bck", &t, &err) != NM_OK) {
				ck_assert_msg(strncmp(err.msg, "cut.bck: ", 9) == 0, "%s", err.msg);
				continue;
			}
			walk_stats st = { 0 };
			walk_tree(t, &st);
			ck_assert_uint_eq(st.size_mismatches, 0);
			nm_tree_free(t);
		}
		uint32_t seed = 12345u + (uint32_t)k;
		for (int n = 0; n < 300; n++) {
			uint8_t *c = malloc(len);
			memcpy(c, b, len);
			for (int f = 0; f < 3; f++) {
				seed = seed * 1103515245u + 12345u;
				size_t at = 0x20 + (seed >> 8) % (len - 0x20);
				seed = seed * 1103515245u + 12345u;
				c[at] ^= (uint8_t)(1u << ((seed >> 16) % 8));
			}
			nm_tree *t;
			nm_error err;
			if (walk_build(c, len, "flip.bck", &t, &err) == NM_OK) {
				walk_stats st = { 0 };
				walk_tree(t, &st);
				ck_assert_uint_eq(st.size_mismatches, 0);
				nm_tree_free(t);
			}
			free(c);
		}
		free(b);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("j3danim");
	TCase *tc = tcase_create("fixture");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hermite_mode0);
	tcase_add_test(tc, hermite_mode1);
	tcase_add_test(tc, j3d_sampler_matches_double);
	tcase_add_test(tc, rotation_shift_wrap_truncation);
	tcase_add_test(tc, key_times_outside_duration);
	tcase_add_test(tc, loop_modes);
	tcase_add_test(tc, colour_clamps);
	tcase_add_test(tc, btk_tracks);
	tcase_add_test(tc, full_kinds);
	tcase_add_test(tc, bca_values);
	tcase_add_test(tc, size_field_over_file);
	tcase_add_test(tc, btp_past_count);
	tcase_add_test(tc, parse_api);
	tcase_add_test(tc, probe_by_content);
	tcase_add_test(tc, hostile_counts_and_offsets);
	tcase_add_test(tc, hostile_tables);
	tcase_add_test(tc, truncations_and_flips);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
