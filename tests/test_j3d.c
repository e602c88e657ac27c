/* J3D driver tests: the fixture writer's files (every chunk compared with the data that
 * went in), broken files (every truncation, absurd counts, cut and overlapping
 * packets), and the corpus (every file produced at its announced size, PNGs read back
 * at the header's size, mesh.obj's triangle and vertex counts against an independent
 * display-list count, faces against normals, and random byte flips). Every one of
 * them also shows that its sizes are known at mount: building the tree and stat-ing
 * all of it produce nothing. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fixtures/j3d_writer.h"
#include "formats/driver.h"
#include "lib/bytes.h"
#include "lib/tree.h"
#include "tests/walk.h"

/* ---- helpers ---------------------------------------------------------------------- */


/* A tree over a copy of buf under opt (NULL: the defaults); NULL when the build fails
 * (*status says why). */
static nm_tree *tree_of_opts(const uint8_t *buf, size_t len, const nm_options *opt,
			     nm_status *status, nm_error *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, len);
	nm_reader *r;
	nm_error e;
	if (!err)
		err = &e;
	ck_assert_int_eq(nm_reader_new_memory("fixture.bmd", copy, len, &r, err), NM_OK);
	nm_tree *t = nm_tree_new(opt);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	nm_status s = nm_build_any(r, t, nm_tree_root(t), err);
	if (status)
		*status = s;
	if (s != NM_OK) {
		nm_tree_free(t);
		return NULL;
	}
	return t;
}

static nm_tree *tree_of(const uint8_t *buf, size_t len, nm_status *status, nm_error *err)
{
	return tree_of_opts(buf, len, NULL, status, err);
}

/* The fixture writer's bytes (malloc'd). */
static uint8_t *fixture_bytes(j3dw_opts o, size_t *len)
{
	uint8_t *buf = j3dw_build(&o, len);
	ck_assert_ptr_nonnull(buf);
	return buf;
}

static nm_tree *fixture_tree(j3dw_opts o)
{
	size_t len;
	uint8_t *buf = fixture_bytes(o, &len);
	nm_error err;
	nm_status s;
	nm_tree *t = tree_of(buf, len, &s, &err);
	free(buf);
	ck_assert_msg(t, "build failed: %s", err.msg);
	return t;
}

/* Whole file at path, NUL-terminated; NULL (and the error) when it fails. */
static char *read_file(nm_tree *t, const char *path, size_t *len, nm_error *err)
{
	nm_node *n;
	uint64_t size;
	if (nm_resolve(t, path, &n, err) != NM_OK || nm_size(t, n, &size, err) != NM_OK)
		return NULL;
	char *buf = malloc(size + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = 0;
	while (got < size) {
		size_t k;
		if (nm_read(t, n, got, buf + got, size - got, &k, err) != NM_OK) {
			free(buf);
			return NULL;
		}
		ck_assert_msg(k > 0, "%s: short read at %zu of %llu", path, got,
			      (unsigned long long)size);
		got += k;
	}
	size_t extra;
	ck_assert_int_eq(nm_read(t, n, got, buf, 1, &extra, err), NM_OK);
	ck_assert_uint_eq(extra, 0);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

static char *must_read(nm_tree *t, const char *path, size_t *len)
{
	nm_error err;
	char *s = read_file(t, path, len, &err);
	ck_assert_msg(s, "%s: %s", path, err.msg);
	return s;
}

static bool exists(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	return nm_resolve(t, path, &n, &err) == NM_OK;
}

#define CK_CONTAINS(text, line) \
	ck_assert_msg(strstr((text), (line)) != NULL, "missing line: %s", (line))

/* The value of "key: " in a key: value text, or NULL. */
static const char *value_of(const char *text, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ':' && p[kl + 1] == ' ') {
			const char *v = p + kl + 2;
			size_t l = strcspn(v, "\n");
			if (l >= n)
				l = n - 1;
			memcpy(out, v, l);
			out[l] = '\0';
			return out;
		}
	return NULL;
}

static void csv_float(char *out, float f)
{
	snprintf(out, 32, "%+.8e", (double)f);
}

/* PNG bytes -> RGBA (malloc'd), with the size libpng reads. */
static uint8_t *png_rgba(const char *png, size_t len, unsigned *w, unsigned *h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&img, png, len))
		return NULL;
	img.format = PNG_FORMAT_RGBA;
	uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		free(px);
		png_image_free(&img);
		return NULL;
	}
	*w = img.width;
	*h = img.height;
	return px;
}

/* A read that failed: allowed for broken input, but only as a reader sees it (EIO, or
 * EFBIG past the output limit) and with a message; never as a file whose bytes differ
 * from its announced size (the tree's "internal error"). */
static void ck_read_failure(nm_status s, const nm_error *err, const char *path)
{
	ck_assert_msg(!strstr(err->msg, "internal error"), "%s: %s", path, err->msg);
	ck_assert_msg(s == NM_E_IO || s == NM_E_FORMAT || s == NM_E_UNSUPPORTED || s == NM_E_LIMIT,
		      "%s: status %d: %s", path, s, err->msg);
	ck_assert_msg(err->msg[0], "%s: failed without a message", path);
}

static void walk_failure(void *ctx, walk_step step, const char *path, nm_status s,
			 const nm_error *err)
{
	const bool *strict = ctx;
	ck_assert_msg(!*strict, "%s: %s", path, err->msg);
	if (step == WALK_READ)
		ck_read_failure(s, err, path);
}

/* Walk every file of the tree (tests/walk.c): produce it, check the size. Returns files
 * seen. With strict, a file that fails to produce fails the test. */
static size_t walk(nm_tree *t, bool strict)
{
	walk_opts o = { .on_failure = walk_failure, .ctx = &strict };
	walk_stats st;
	walk_tree_opts(t, &o, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	return st.files;
}

/* What `ls -lR` does: list every directory, stat every node. */
static void stat_walk(nm_tree *t, nm_node *dir)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	ck_assert_msg(nm_children(t, dir, &kids, &n, &err) == NM_OK, "%s", err.msg);
	for (size_t i = 0; i < n; i++) {
		uint64_t size;
		ck_assert_msg(nm_size(t, kids[i], &size, &err) == NM_OK, "%s: %s",
			      nm_node_name(kids[i]), err.msg);
		if (nm_node_type(kids[i]) == NM_NODE_DIR)
			stat_walk(t, kids[i]);
	}
}

/* Every size is known at mount: building the tree and stat-ing all of it produced no
 * file and populated no directory (nothing was decoded). */
static void ck_stat_decodes_nothing(nm_tree *t, const char *what)
{
	stat_walk(t, nm_tree_root(t));
	ck_assert_msg(nm_tree_productions(t) == 0, "%s: build and stat produced %llu files",
		      what, (unsigned long long)nm_tree_productions(t));
	ck_assert_msg(nm_tree_populations(t) == 0, "%s: build and stat populated %llu "
		      "directories", what, (unsigned long long)nm_tree_populations(t));
}

/* ---- fixture: tree shape and texts ---------------------------------------------- */

START_TEST(test_info_and_layout)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "format: J3D model (BMD/BDL/BMT)\n");
	CK_CONTAINS(info, "type: J3D2bmd3\n");
	CK_CONTAINS(info, "chunk_order: INF1 VTX1 EVP1 DRW1 JNT1 SHP1 MAT3 TEX1\n");
	CK_CONTAINS(info, "joints: 3\n");
	CK_CONTAINS(info, "materials: 2\n");
	CK_CONTAINS(info, "shapes: 2\n");
	CK_CONTAINS(info, "textures: 14\n");
	CK_CONTAINS(info, "vertices: 6\n");
	CK_CONTAINS(info, "packets: 3\n");
	CK_CONTAINS(info, "envelopes: 1\n");
	CK_CONTAINS(info, "draw_matrices: 4\n");
	free(info);
	static const char *const dirs[] = { "inf1", "vtx1", "evp1", "drw1", "jnt1", "shp1",
					    "mat3", "tex1" };
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char p[64];
		snprintf(p, sizeof p, "%s/raw.bin", dirs[i]);
		ck_assert_msg(exists(t, p), "%s", p);
		snprintf(p, sizeof p, "%s/header.txt", dirs[i]);
		ck_assert_msg(exists(t, p), "%s", p);
	}
	ck_assert(!exists(t, "mdl3"));
	/* Reading the chunk headers, listing and stat of text files produce nothing. */
	nm_node **kids;
	size_t n;
	nm_error err;
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &n, &err), NM_OK);
	char *h = must_read(t, "inf1/header.txt", NULL);
	CK_CONTAINS(h, "magic: INF1\n");
	CK_CONTAINS(h, "offset: 0x20\n");
	free(h);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_hierarchy)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	char *h = must_read(t, "inf1/hierarchy.txt", NULL);
	ck_assert_str_eq(h, "joint 0 root\n"
			    "  material 0 mat_a\n"
			    "    shape 0\n"
			    "  joint 1 arm\n"
			    "    material 1 mat_b\n"
			    "      shape 1\n"
			    "    joint 2 hand\n");
	free(h);
	nm_tree_free(t);
}
END_TEST

static void append_floats(char *dst, const float *f, int n)
{
	for (int i = 0; i < n; i++) {
		char b[32];
		csv_float(b, f[i]);
		strcat(dst, b);
		strcat(dst, i + 1 == n ? "\n" : ",");
	}
}

START_TEST(test_vertex_csvs)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	static char want[16384];
	/* positions: 6 known rows, then zero rows from the 32-byte padding (64/6 = 10). */
	strcpy(want, "x,y,z\n");
	for (int i = 0; i < 10; i++) {
		float f[3] = { 0, 0, 0 };
		for (int k = 0; i < J3DW_NPOS && k < 3; k++)
			f[k] = j3dw_pos[i][k] / (float)(1 << J3DW_POS_SHIFT);
		append_floats(want, f, 3);
	}
	char *got = must_read(t, "vtx1/positions.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	strcpy(want, "x,y,z\n");
	for (int i = 0; i < 32 / 3; i++) {
		float f[3] = { 0, 0, 0 };
		for (int k = 0; i < J3DW_NNRM && k < 3; k++)
			f[k] = j3dw_nrm[i][k] / (float)(1 << J3DW_NRM_SHIFT);
		append_floats(want, f, 3);
	}
	got = must_read(t, "vtx1/normals.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	strcpy(want, "r,g,b,a\n");
	for (int i = 0; i < 32 / 4; i++) {
		char row[32];
		const uint8_t z[4] = { 0 };
		const uint8_t *c = i < J3DW_NCLR0 ? j3dw_clr0[i] : z;
		snprintf(row, sizeof row, "%3u,%3u,%3u,%3u\n", c[0], c[1], c[2], c[3]);
		strcat(want, row);
	}
	got = must_read(t, "vtx1/colors0.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	strcpy(want, "r,g,b,a\n");
	for (int i = 0; i < 32 / 2; i++) {
		char row[32];
		unsigned v = i < J3DW_NCLR1 ? j3dw_clr1[i] : 0;
		snprintf(row, sizeof row, "%3u,%3u,%3u,%3u\n", j3dw_x5(v >> 11), j3dw_x6(v >> 5),
			 j3dw_x5(v), 255);
		strcat(want, row);
	}
	got = must_read(t, "vtx1/colors1.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	strcpy(want, "s,t\n");
	for (int i = 0; i < 64 / 8; i++) {
		float f[2] = { 0, 0 };
		if (i < J3DW_NTEX0) {
			f[0] = j3dw_tex0[i][0];
			f[1] = j3dw_tex0[i][1];
		}
		append_floats(want, f, 2);
	}
	got = must_read(t, "vtx1/texcoords0.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	strcpy(want, "s\n");
	for (int i = 0; i < 32 / 2; i++) {
		float f = i < J3DW_NTEX1 ? j3dw_tex1[i] / (float)(1 << J3DW_TEX1_SHIFT) : 0;
		append_floats(want, &f, 1);
	}
	got = must_read(t, "vtx1/texcoords1.csv", NULL);
	ck_assert_str_eq(got, want);
	free(got);

	got = must_read(t, "vtx1/formats.txt", NULL);
	CK_CONTAINS(got, "format0_attribute: POS (0x9)\n");
	CK_CONTAINS(got, "format0_type: S16 (0x3)\n");
	CK_CONTAINS(got, "format2_type: RGBA8 (0x5)\n");
	CK_CONTAINS(got, "format3_type: RGB565 (0x0)\n");
	CK_CONTAINS(got, "positions_count: 10\n");
	free(got);
	ck_assert(!exists(t, "vtx1/nbt.csv"));
	ck_assert(!exists(t, "vtx1/texcoords2.csv"));
	nm_tree_free(t);
}
END_TEST

START_TEST(test_skinning_tables)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	char *got = must_read(t, "evp1/envelopes.csv", NULL);
	ck_assert_str_eq(got, "envelope,joint,weight\n"
			      "    0,    0,+2.50000000e-01\n"
			      "    0,    1,+7.50000000e-01\n");
	free(got);
	got = must_read(t, "drw1/entries.csv", NULL);
	ck_assert_str_eq(got, "entry,kind,index\n"
			      "    0,   joint,    0\n"
			      "    1,   joint,    1\n"
			      "    2,envelope,    0\n"
			      "    3,   joint,    2\n");
	free(got);
	got = must_read(t, "evp1/inverse_bind/1.txt", NULL);
	CK_CONTAINS(got, "joint_name: arm\n");
	CK_CONTAINS(got, "matrix_row0: -1 0 0 5\n");
	CK_CONTAINS(got, "matrix_row2: 0 0 1 -3\n");
	free(got);
	nm_tree_free(t);
}
END_TEST

/* Rows "key_rowR: a b c d" of a joint text into m[12]. */
static void parse_matrix(const char *text, const char *key, double *m)
{
	for (int r = 0; r < 3; r++) {
		char k[64], v[256];
		snprintf(k, sizeof k, "%s_row%d", key, r);
		ck_assert_msg(value_of(text, k, v, sizeof v), "no %s", k);
		ck_assert_int_eq(sscanf(v, "%lf %lf %lf %lf", &m[4 * r], &m[4 * r + 1],
					&m[4 * r + 2], &m[4 * r + 3]), 4);
	}
}

static void ck_matrix(const double *got, const double *want, double tol, const char *what)
{
	for (int i = 0; i < 12; i++)
		ck_assert_msg(fabs(got[i] - want[i]) <= tol, "%s[%d] = %g, want %g", what, i,
			      got[i], want[i]);
}

START_TEST(test_joints)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	double m[12];
	char *j0 = must_read(t, "jnt1/joints/0.txt", NULL);
	CK_CONTAINS(j0, "name: root\n");
	CK_CONTAINS(j0, "parent: -1\n");
	CK_CONTAINS(j0, "translation: 1 2 3\n");
	parse_matrix(j0, "world_matrix", m);
	const double w0[12] = { 1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3 };
	ck_matrix(m, w0, 1e-6, "world(root)");
	free(j0);

	/* arm: Rz(180) then translate (4, 0, 0), under root. */
	char *j1 = must_read(t, "jnt1/joints/1.txt", NULL);
	CK_CONTAINS(j1, "parent: 0\n");
	CK_CONTAINS(j1, "parent_name: root\n");
	/* 0x8000 is 180 degrees (the game's unit; 32767 would be 179.994507). */
	CK_CONTAINS(j1, "rotation_raw: 0 0 -32768\n");
	CK_CONTAINS(j1, "rotation_degrees: 0 0 -180\n");
	parse_matrix(j1, "world_matrix", m);
	const double w1[12] = { -1, 0, 0, 5, 0, -1, 0, 2, 0, 0, 1, 3 };
	ck_matrix(m, w1, 1e-6, "world(arm)");
	free(j1);

	/* hand: T(1,0,0) Rz(0) Ry(90) Rx(90) S(2) under arm. Ry(90) Rx(90) =
	 * [[0 1 0] [0 0 -1] [-1 0 0]] (Rx Ry would be [[0 0 1] [1 0 0] [0 1 0]]). */
	char *j2 = must_read(t, "jnt1/joints/2.txt", NULL);
	CK_CONTAINS(j2, "parent: 1\n");
	parse_matrix(j2, "local_matrix", m);
	const double l2[12] = { 0, 2, 0, 1, 0, 0, -2, 0, -2, 0, 0, 0 };
	/* 16384 is exactly 90 degrees: exact to float precision (with pi / 32767 it was
	 * off by 5e-5). */
	ck_matrix(m, l2, 1e-6, "local(hand)");
	parse_matrix(j2, "world_matrix", m);
	/* world(arm) * local: rows 0 and 1 negate, translation (5-1, 2, 3). */
	const double w2[12] = { 0, -2, 0, 4, 0, 0, 2, 2, -2, 0, 0, 3 };
	ck_matrix(m, w2, 1e-6, "world(hand)");
	char *by = must_read(t, "jnt1/by_name/hand.txt", NULL);
	ck_assert_str_eq(by, j2);
	free(by);
	free(j2);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_shapes)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	char *h = must_read(t, "shp1/0/header.txt", NULL);
	CK_CONTAINS(h, "matrix_type: SINGLE (0x0)\n");
	CK_CONTAINS(h, "attribute0: POS (0x9) INDEX16 (0x3)\n");
	CK_CONTAINS(h, "attribute1: NRM (0xa) INDEX8 (0x2)\n");
	CK_CONTAINS(h, "vertex_size: 5\n");
	CK_CONTAINS(h, "material: 0\n");
	CK_CONTAINS(h, "material_name: mat_a\n");
	CK_CONTAINS(h, "triangles: 8\n");
	free(h);
	/* GX order: strip (0 1 2)(2 1 3), triangles, quad (0 1 2)(0 2 3), fan from 0. */
	char *tri = must_read(t, "shp1/0/triangles.csv", NULL);
	ck_assert_str_eq(tri,
		"packet,v0_pos,v0_nrm,v0_clr0,v0_tex0,v1_pos,v1_nrm,v1_clr0,v1_tex0,"
		"v2_pos,v2_nrm,v2_clr0,v2_tex0\n"
		"    0,    0,  0,  0,  0,    1,  1,  1,  1,    2,  2,  2,  2\n"
		"    0,    2,  2,  2,  2,    1,  1,  1,  1,    3,  3,  0,  3\n"
		"    0,    3,  0,  1,  4,    4,  1,  2,  0,    5,  2,  0,  1\n"
		"    0,    0,  0,  0,  0,    1,  0,  0,  1,    2,  0,  0,  2\n"
		"    0,    0,  0,  0,  0,    2,  0,  0,  2,    3,  0,  0,  3\n"
		"    0,    0,  3,  0,  0,    1,  3,  0,  1,    2,  3,  0,  2\n"
		"    0,    0,  3,  0,  0,    2,  3,  0,  2,    3,  3,  0,  3\n"
		"    0,    0,  3,  0,  0,    3,  3,  0,  3,    4,  3,  0,  4\n");
	free(tri);
	ck_assert(!exists(t, "shp1/0/lines.csv"));
	ck_assert(!exists(t, "shp1/0/points.csv"));
	/* Shape 1: matrix slots through the packets' tables; 0xFFFF keeps slot 0. */
	tri = must_read(t, "shp1/1/triangles.csv", NULL);
	ck_assert_str_eq(tri,
		"packet,v0_drw,v0_pos,v0_tex1,v1_drw,v1_pos,v1_tex1,v2_drw,v2_pos,v2_tex1\n"
		"    0,    0,  0,  0,    2,  1,  1,    2,  2,  2\n"
		"    1,    0,  0,  0,    3,  1,  1,    0,  2,  2\n"
		"    1,    0,  2,  2,    3,  1,  1,    3,  3,  0\n");
	free(tri);
	char *lines = must_read(t, "shp1/1/lines.csv", NULL);
	ck_assert_str_eq(lines,
		"packet,v0_drw,v0_pos,v0_tex1,v1_drw,v1_pos,v1_tex1\n"
		"    0,    0,  3,  0,    2,  4,  1\n"
		"    1,    0,  0,  0,    0,  1,  1\n"
		"    1,    0,  1,  1,    0,  2,  2\n");
	free(lines);
	char *pts = must_read(t, "shp1/1/points.csv", NULL);
	ck_assert_str_eq(pts, "packet,v0_drw,v0_pos,v0_tex1\n"
			      "    1,    0,  5,  0\n"
			      "    1,    3,  5,  1\n");
	free(pts);
	char *pk = must_read(t, "shp1/1/packets/1.txt", NULL);
	CK_CONTAINS(pk, "slot0: keep (0xffff)\n");
	CK_CONTAINS(pk, "slot1: 3 (joint 2 hand)\n");
	free(pk);
	pk = must_read(t, "shp1/1/packets/0.txt", NULL);
	CK_CONTAINS(pk, "slot1: 2 (envelope 0)\n");
	free(pk);
	nm_tree_free(t);
}
END_TEST

static void check_material0(const char *m, bool v21)
{
	static const char *const lines[] = {
		"name: mat_a\n", "mode: OPAQUE (0x1)\n", "cull_mode: FRONT (0x1)\n",
		"color_channel_count: 1\n", "material_color0: 255 128 64 255\n",
		"color_channel0_lighting: 1\n", "color_channel0_material_source: VTX (0x1)\n",
		"color_channel0_light_mask: 0x05\n",
		"color_channel0_diffuse_function: CLAMP (0x2)\n",
		"color_channel0_attenuation_function: SPOT (0x1)\n",
		"texgen_count: 1\n", "texgen0_type: MTX2x4 (0x1)\n",
		"texgen0_source: TEX0 (0x4)\n", "texgen0_matrix: IDENTITY (0x3c)\n",
		"tex_matrix0_maya: 1\n", "tex_matrix0_mapping_mode: 1\n",
		"tex_matrix0_center: 0.5 0.5 0\n", "tex_matrix0_scale: 2 3\n",
		"tex_matrix0_rotation_degrees: 90\n", "tex_matrix0_translation: 0.5 0.25\n",
		"texture0_index: 0\n", "texture0: 10\n", "texture0_file: tex1/cmpr.png\n",
		"tev_stage_count: 2\n", "konst_color0: 1 2 3 4\n",
		"tev_color0: -5 300 128 255\n",
		"tev_order0_texcoord: TEXCOORD0 (0x0)\n", "tev_order0_texmap: TEXMAP0 (0x0)\n",
		"tev_order0_channel: COLOR0A0 (0x4)\n",
		"tev_stage0_color_a: TEXC (0x8)\n", "tev_stage0_color_b: RASC (0xa)\n",
		"tev_stage0_color_c: TEXA (0x9)\n", "tev_stage0_color_d: ZERO (0xf)\n",
		"tev_stage0_color_bias: ADDHALF (0x1)\n", "tev_stage0_color_scale: SCALE_4 (0x2)\n",
		"tev_stage0_alpha_a: TEXA (0x4)\n", "tev_stage0_alpha_op: SUB (0x1)\n",
		"tev_stage0_alpha_scale: DIVIDE_2 (0x3)\n",
		"tev_stage0_alpha_register: TEVREG0 (0x1)\n",
		"tev_stage1_index: 1\n", "tev_stage1_color_b: KONST (0xe)\n",
		"tev_stage1_color_op: COMP_R8_GT (0x8)\n",
		"tev_stage1_color_register: TEVREG2 (0x3)\n",
		"konst_color_select0: KCSEL_K0 (0xc)\n", "konst_color_select1: KCSEL_7_8 (0x1)\n",
		"konst_alpha_select0: KASEL_K0_A (0x1c)\n",
		"konst_alpha_select1: KASEL_3_8 (0x5)\n",
		"swap_mode0_texture: SWAP1 (0x1)\n", "swap_table0: R G B A\n",
		"fog_type: PERSP_LIN (0x2)\n", "fog_center: 320\n", "fog_end_z: 1000\n",
		"fog_color: 9 8 7 6\n",
		"fog_range_adjust_table: 0 100 200 300 400 500 600 700 800 900\n",
		"alpha_compare_function0: GREATER (0x4)\n", "alpha_compare_reference0: 128\n",
		"alpha_compare_op: AND (0x0)\n", "alpha_compare_function1: ALWAYS (0x7)\n",
		"blend_mode: BLEND (0x1)\n", "blend_source_factor: SRCALPHA (0x4)\n",
		"blend_destination_factor: INVSRCALPHA (0x5)\n", "blend_logic_op: COPY (0x3)\n",
		"z_mode_test: 1\n", "z_mode_function: LEQUAL (0x3)\n",
		"z_compare_before_texture: 1\n", "dither: 1\n", "nbt_scale: 1 1 1\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		CK_CONTAINS(m, lines[i]);
	if (v21)
		ck_assert_ptr_null(strstr(m, "ambient_color"));
	else
		CK_CONTAINS(m, "ambient_color0: 50 50 50 255\n");
}

START_TEST(test_materials)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	char *m = must_read(t, "mat3/0.txt", NULL);
	check_material0(m, false);
	free(m);
	m = must_read(t, "mat3/1.txt", NULL);
	CK_CONTAINS(m, "name: mat_b\n");
	CK_CONTAINS(m, "cull_mode: BACK (0x2)\n");
	CK_CONTAINS(m, "material_color0: 10 20 30 40\n");
	CK_CONTAINS(m, "texture0_file: tex1/i4.png\n");
	CK_CONTAINS(m, "tev_stage_count: 1\n");
	free(m);
	m = must_read(t, "mesh.mtl", NULL);
	CK_CONTAINS(m, "newmtl m0_mat_a\n");
	CK_CONTAINS(m, "map_Kd tex1/cmpr.png\n");
	CK_CONTAINS(m, "newmtl m1_mat_b\n");
	CK_CONTAINS(m, "map_Kd tex1/i4.png\n");
	free(m);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_mat2)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD2 });
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "type: J3D2bmd2\n");
	CK_CONTAINS(info, "materials: 2\n");
	ck_assert_ptr_null(strstr(info, "unknown_chunk"));
	free(info);
	ck_assert(!exists(t, "mat3"));
	char *m = must_read(t, "mat2/0.txt", NULL);
	check_material0(m, true);
	free(m);
	m = must_read(t, "mat2/header.txt", NULL);
	CK_CONTAINS(m, "layout: MAT2");
	free(m);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_mdl3)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BDL4 });
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "type: J3D2bdl4\n");
	free(info);
	char *p = must_read(t, "mdl3/0.txt", NULL);
	CK_CONTAINS(p, "material_name: mat_a\n");
	CK_CONTAINS(p, "tev_offset: 0x50\n");
	CK_CONTAINS(p, "bp 0x28 RAS1_TREF0 = 0x3c03c9\n");
	CK_CONTAINS(p, "bp 0x40 PE_ZMODE = 0x000017\n");
	CK_CONTAINS(p, "xf 0x100a XF_AMBIENT0 = 0x323232ff\n");
	CK_CONTAINS(p, "xf 0x1040 XF_TEX0 = 0x00005280\n");
	CK_CONTAINS(p, "xf 0x1041 XF_TEX1 = 0x00005120\n");
	CK_CONTAINS(p, "xf 0x0078 MATRIX[120] = 0x3f800000 (+1.00000000e+00)\n");
	CK_CONTAINS(p, "cp 0x50 CP_VCD_LO = 0x00000600\n");
	CK_CONTAINS(p, "xf 0x045f NORMAL_MATRIX[95] = 0x3f000000 (+5.00000000e-01)\n");
	CK_CONTAINS(p, "xf 0x0460 = 0x12345678\n");
	CK_CONTAINS(p, "xf 0x0505 DUALTEX_MATRIX[5] = 0xff800000 (           -inf)\n");
	CK_CONTAINS(p, "xf 0x0600 LIGHT[0] = 0x7fc00000 (            nan)\n");
	CK_CONTAINS(p, "bp 0x05 unknown = 0x010203\n");
	CK_CONTAINS(p, "cp 0x00 unknown = 0xdeadbeef\n");
	CK_CONTAINS(p, "xf_load_indexed position index=4660 address=0x0ff count=12\n");
	CK_CONTAINS(p, "xf_load_indexed light index=7 address=0x600 count=1\n");
	CK_CONTAINS(p, "call_display_list address=0x80001000 size=123456\n");
	CK_CONTAINS(p, "invalidate_vertex_cache\n");
	CK_CONTAINS(p, "nop_bytes: ");
	free(p);
	p = must_read(t, "mdl3/1.txt", NULL);
	CK_CONTAINS(p, "bp 0xf3 TEV_ALPHAFUNC = 0x3f0000\n");
	CK_CONTAINS(p, "unknown opcode 0xff at 0x5");
	free(p);
	nm_tree_free(t);
}
END_TEST

/* BP registers without a name, past the end of the table of the range they fall in
 * (0xBC-0xBF after TX_SETTLUT_I7) and between ranges: the register's number and
 * "unknown", never a read past a name table (issue 13). */
START_TEST(test_mdl3_unnamed_bp)
{
	static const uint8_t dl[] = {
		0x61, 0xBC, 0x12, 0x34, 0x56, 0x61, 0xBD, 0, 0, 1, 0x61, 0xBE, 0, 0, 2,
		0x61, 0xBF, 0, 0, 3, 0x61, 0x9C, 0, 0, 4, 0x61, 0x70, 0, 0, 5,
		0x61, 0xFF, 0, 0, 6, 0x61, 0xBB, 0, 0, 7,
	};
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BDL4, .mdl3_dl = dl,
					       .mdl3_dl_len = sizeof dl });
	char *p = must_read(t, "mdl3/0.txt", NULL);
	CK_CONTAINS(p, "bp 0xbc unknown = 0x123456\n");
	CK_CONTAINS(p, "bp 0xbd unknown = 0x000001\n");
	CK_CONTAINS(p, "bp 0xbe unknown = 0x000002\n");
	CK_CONTAINS(p, "bp 0xbf unknown = 0x000003\n");
	CK_CONTAINS(p, "bp 0x9c unknown = 0x000004\n");
	CK_CONTAINS(p, "bp 0x70 unknown = 0x000005\n");
	CK_CONTAINS(p, "bp 0xff unknown = 0x000006\n");
	CK_CONTAINS(p, "bp 0xbb TX_SETTLUT_I7 = 0x000007\n");
	free(p);
	nm_tree_free(t);
}
END_TEST

/* Level `level` of texture tex in the PNG at path matches what the writer put in. */
static void ck_texture_png(nm_tree *t, const char *path, int tex, unsigned level)
{
	size_t len;
	char *png = must_read(t, path, &len);
	unsigned w, h;
	uint8_t *px = png_rgba(png, len, &w, &h);
	ck_assert_msg(px, "%s does not read back", path);
	ck_assert_uint_eq(w, j3dw_tex_width[tex] >> level);
	ck_assert_uint_eq(h, j3dw_tex_height[tex] >> level);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint8_t e[4];
			bool alpha_only;
			j3dw_expected(tex, level, x, y, e, &alpha_only);
			const uint8_t *g = px + 4 * ((size_t)y * w + x);
			for (int c = alpha_only ? 3 : 0; c < 4; c++)
				if (g[c] != e[c])
					ck_abort_msg("%s (%u,%u) channel %d = %u, want %u", path, x, y,
						     c, g[c], e[c]);
		}
	free(px);
	free(png);
}

START_TEST(test_textures)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	for (int tex = 0; tex < J3DW_NTEX; tex++)
		for (unsigned level = 0; level < j3dw_tex_levels[tex]; level++) {
			char path[96];
			if (level)
				snprintf(path, sizeof path, "tex1/%s.mip%u.png", j3dw_tex_files[tex], level);
			else
				snprintf(path, sizeof path, "tex1/%s.png", j3dw_tex_files[tex]);
			ck_texture_png(t, path, tex, level);
		}
	ck_assert(!exists(t, "tex1/mip.mip2.png"));
	char *txt = must_read(t, "tex1/shared.txt", NULL);
	CK_CONTAINS(txt, "format: RGB565 (0x4)\n");
	CK_CONTAINS(txt, "wrap_s: MIRROR (0x2)\n");
	CK_CONTAINS(txt, "shares_image_with: 4\n");
	CK_CONTAINS(txt, "shares_image_with_file: rgb565.png\n");
	free(txt);
	txt = must_read(t, "tex1/c14x2.txt", NULL);
	CK_CONTAINS(txt, "format: C14X2 (0xa)\n");
	CK_CONTAINS(txt, "palette_format: RGB5A3 (0x2)\n");
	CK_CONTAINS(txt, "palette_entries: 16\n");
	CK_CONTAINS(txt, "min_filter: LINEAR (0x1)\n");
	CK_CONTAINS(txt, "lod_bias: -0.5\n");
	free(txt);
	txt = must_read(t, "tex1/i8~2.txt", NULL);
	CK_CONTAINS(txt, "name: i8\n");
	CK_CONTAINS(txt, "format: RGBA8 (0x6)\n");
	free(txt);
	size_t len;
	free(must_read(t, "tex1/c4.palette.bin", &len));
	ck_assert_uint_eq(len, 32);
	free(must_read(t, "tex1/rgb565.bin", &len));
	ck_assert_uint_eq(len, 128);
	free(must_read(t, "tex1/mip.bin", &len));
	ck_assert_uint_eq(len, 128 + 32);
	ck_assert(!exists(t, "tex1/rgb565.palette.bin"));
	nm_tree_free(t);
}
END_TEST

/* The PNGs model.glb embeds, in order: each found by its signature and measured to its
 * IEND chunk (the BIN chunk holds them last, padded with zeros). */
static size_t glb_pngs(const char *glb, size_t len, const char **png, size_t *png_len,
		       size_t max)
{
	static const char sig[8] = "\x89PNG\r\n\x1a\n";
	size_t n = 0;
	for (size_t at = 0; n < max && at + 8 <= len; at++) {
		if (memcmp(glb + at, sig, 8) != 0)
			continue;
		size_t p = at + 8;
		while (p + 12 <= len) {
			const uint8_t *c = (const uint8_t *)glb + p;
			size_t body = nm_be32(c);
			p += 12 + body;
			if (memcmp(c + 4, "IEND", 4) == 0)
				break;
		}
		ck_assert_uint_le(p, len);
		png[n] = glb + at;
		png_len[n++] = p - at;
		at = p - 1;
	}
	return n;
}

/* GX samples I4 and I8 with alpha = intensity: tex1/i4.png is grey (the texture's own
 * layout), the glb's copy is grey+alpha so that a material blending with it keeps that
 * alpha. The fixture's material mat_b draws with i4. */
/* model.glb embeds the level-0 PNGs the tree shows (all but I4's and I8's): made after
 * them, it takes their bytes; made before them, it leaves its copies for their reads,
 * which then produce nothing. Either way every byte is what a fresh tree gives. */
START_TEST(test_glb_shares_pngs)
{
	nm_tree *a = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	nm_tree *b = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	size_t len_a, len_b;
	char *glb_a = must_read(a, "model.glb", &len_a); /* a: the glb first */
	uint64_t made = nm_tree_productions(a);
	unsigned shared = 0;
	for (int tex = 0; tex < J3DW_NTEX; tex++) {
		char path[96];
		snprintf(path, sizeof path, "tex1/%s.png", j3dw_tex_files[tex]);
		uint64_t before = nm_tree_productions(a);
		size_t n_a, n_b;
		char *png_a = must_read(a, path, &n_a);
		shared += nm_tree_productions(a) == before;
		char *png_b = must_read(b, path, &n_b); /* b: the PNGs first */
		ck_assert_msg(n_a == n_b && memcmp(png_a, png_b, n_a) == 0, "%s differs", path);
		free(png_a);
		free(png_b);
	}
	ck_assert_msg(shared > 0, "no level-0 PNG of %d was left by model.glb", J3DW_NTEX);
	ck_assert_uint_eq(made, 1);
	uint64_t before = nm_tree_productions(b);
	char *glb_b = must_read(b, "model.glb", &len_b);
	ck_assert_uint_eq(nm_tree_productions(b), before + 1);
	ck_assert_uint_eq(len_a, len_b);
	ck_assert(memcmp(glb_a, glb_b, len_a) == 0);
	free(glb_a);
	free(glb_b);
	nm_tree_free(a);
	nm_tree_free(b);
}
END_TEST

START_TEST(test_glb_intensity_alpha)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	size_t len;
	char *glb = must_read(t, "model.glb", &len);
	const char *png[J3DW_NTEX];
	size_t png_len[J3DW_NTEX];
	size_t n = glb_pngs(glb, len, png, png_len, J3DW_NTEX);
	int tex = J3DW_T_I4;
	bool found = false;
	for (size_t k = 0; k < n; k++) {
		png_image img = { .version = PNG_IMAGE_VERSION };
		ck_assert(png_image_begin_read_from_memory(&img, png[k], png_len[k]));
		png_uint_32 format = img.format;
		png_image_free(&img);
		unsigned w, h;
		uint8_t *px = png_rgba(png[k], png_len[k], &w, &h);
		ck_assert(px);
		if (w == j3dw_tex_width[tex] && h == j3dw_tex_height[tex] &&
		    format == PNG_FORMAT_GA) {
			found = true;
			for (unsigned y = 0; y < h; y++)
				for (unsigned x = 0; x < w; x++) {
					uint8_t e[4];
					bool alpha_only;
					j3dw_expected(tex, 0, x, y, e, &alpha_only);
					const uint8_t *g = px + 4 * ((size_t)y * w + x);
					ck_assert_msg(g[0] == e[0] && g[3] == e[0],
						      "(%u,%u): grey %u alpha %u, want %u for both",
						      x, y, g[0], g[3], e[0]);
				}
		}
		free(px);
	}
	ck_assert_msg(found, "no grey+alpha PNG of i4's size among the glb's %zu", n);
	free(glb);
	nm_tree_free(t);
}
END_TEST

/* mesh.obj of the fixture: counts, bind pose, V flip, reversed winding. */
typedef struct objv { double x, y, z; } objv;

static bool has_v(const objv *v, size_t n, double x, double y, double z)
{
	for (size_t i = 0; i < n; i++)
		if (fabs(v[i].x - x) < 1e-4 && fabs(v[i].y - y) < 1e-4 && fabs(v[i].z - z) < 1e-4)
			return true;
	return false;
}

START_TEST(test_mesh_obj)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	nm_node *n;
	nm_error err;
	uint64_t size;
	ck_assert_int_eq(nm_resolve(t, "mesh.obj", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);   /* known at mount */
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	size_t len;
	char *obj = must_read(t, "mesh.obj", &len);
	ck_assert_uint_eq(len, size);
	objv v[64], vn[64];
	size_t nv = 0, nvn = 0, nf = 0;
	double vt_first[2] = { -1, -1 };
	int first_face[3] = { 0, 0, 0 };
	/* Shape 1 has no normals: its faces point at one placeholder vn before the first
	 * group, so that every face of the file has the form v/vt/vn. */
	size_t placeholders = 0;
	bool in_group = false;
	for (char *line = strtok(obj, "\n"); line; line = strtok(NULL, "\n")) {
		in_group |= !strncmp(line, "g ", 2);
		if (!in_group && !strncmp(line, "vn ", 3)) {
			ck_assert_str_eq(line, "vn +0.00000000e+00 +0.00000000e+00 +1.00000000e+00");
			placeholders++;
		} else if (!strncmp(line, "v ", 2) && nv < 64) {
			ck_assert_int_eq(sscanf(line + 2, "%lf %lf %lf", &v[nv].x, &v[nv].y, &v[nv].z), 3);
			nv++;
		} else if (!strncmp(line, "vn ", 3) && nvn < 64) {
			ck_assert_int_eq(sscanf(line + 3, "%lf %lf %lf", &vn[nvn].x, &vn[nvn].y,
						&vn[nvn].z), 3);
			nvn++;
		} else if (!strncmp(line, "vt ", 3) && vt_first[0] < 0) {
			ck_assert_int_eq(sscanf(line + 3, "%lf %lf", &vt_first[0], &vt_first[1]), 2);
		} else if (!strncmp(line, "f ", 2)) {
			if (!nf)
				ck_assert_int_eq(sscanf(line + 2, "%d/%*d/%*d %d/%*d/%*d %d/%*d/%*d",
							&first_face[0], &first_face[1],
							&first_face[2]), 3);
			nf++;
		}
	}
	ck_assert_uint_eq(nf, J3DW_SHAPE0_TRIS + J3DW_SHAPE1_TRIS);
	/* One vertex per display-list vertex of a triangle primitive: shape 0's strip,
	 * triangles, quad and fan (4 + 3 + 4 + 5), shape 1's triangles and strip (3 + 4). */
	ck_assert_uint_eq(nv, 16 + 7);
	ck_assert_uint_eq(nvn, 16);
	ck_assert_uint_eq(placeholders, 1);
	/* Shape 0 hangs on the arm joint: world(arm) p = (5 - x, 2 - y, 3 + z). */
	double s = 1.0 / (1 << J3DW_POS_SHIFT);
	ck_assert(has_v(v, nv, 5 - j3dw_pos[0][0] * s, 2 - j3dw_pos[0][1] * s, 3 + j3dw_pos[0][2] * s));
	ck_assert(has_v(v, nv, 5 - j3dw_pos[5][0] * s, 2 - j3dw_pos[5][1] * s, 3 + j3dw_pos[5][2] * s));
	/* first vertex is the first of the first strip */
	ck_assert(fabs(v[0].x - (5 - j3dw_pos[0][0] * s)) < 1e-4);
	/* its normal (1, 0, 0) turned by Rz(180); its texcoord (0, 0) flipped to (0, 1) */
	ck_assert(fabs(vn[0].x + 1) < 1e-5 && fabs(vn[0].y) < 1e-5);
	ck_assert(fabs(vt_first[0]) < 1e-6 && fabs(vt_first[1] - 1) < 1e-6);
	/* Shape 1: root-bound vertex moved by (1, 2, 3); envelope vertex as stored (the
	 * fixture's inverse binds match the joints). */
	ck_assert(has_v(v, nv, j3dw_pos[0][0] * s + 1, j3dw_pos[0][1] * s + 2, j3dw_pos[0][2] * s + 3));
	ck_assert(has_v(v, nv, j3dw_pos[1][0] * s, j3dw_pos[1][1] * s, j3dw_pos[1][2] * s));
	/* The strip's first triangle (0 1 2) in GX order is written reversed: (1 3 2). */
	ck_assert_int_eq(first_face[0], 1);
	ck_assert_int_eq(first_face[1], 3);
	ck_assert_int_eq(first_face[2], 2);
	free(obj);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_unknown_and_order)
{
	nm_tree *a = fixture_tree((j3dw_opts){ .variant = J3DW_BDL4 });
	nm_tree *b = fixture_tree((j3dw_opts){ .variant = J3DW_BDL4, .unknown_chunk = true,
					       .shuffle = true });
	char *info = must_read(b, "info.txt", NULL);
	CK_CONTAINS(info, "chunk_order: TEX1 MAT3 MDL3 SHP1 INF1 JNT1 DRW1 EVP1 VTX1 ZZZ1\n");
	CK_CONTAINS(info, "unknown_chunk: ZZZ1 at 0x");
	free(info);
	char *h = must_read(b, "zzz1/header.txt", NULL);
	CK_CONTAINS(h, "magic: ZZZ1\n");
	CK_CONTAINS(h, "unknown chunk");
	free(h);
	size_t len;
	free(must_read(b, "zzz1/raw.bin", &len));
	ck_assert_uint_eq(len, 32);
	/* Walking by size, the order does not matter: the same files say the same. */
	static const char *const same[] = { "mesh.obj", "mesh.mtl", "mat3/0.txt",
					    "shp1/1/triangles.csv", "jnt1/joints/2.txt",
					    "tex1/cmpr.png", "mdl3/0.txt", "inf1/hierarchy.txt" };
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		size_t la, lb;
		char *x = must_read(a, same[i], &la), *y = must_read(b, same[i], &lb);
		if (strstr(same[i], "mdl3")) {
			/* offsets differ: compare from the first command */
			ck_assert_str_eq(strstr(x, "bp "), strstr(y, "bp "));
		} else {
			ck_assert_uint_eq(la, lb);
			ck_assert_msg(!memcmp(x, y, la), "%s differs", same[i]);
		}
		free(x);
		free(y);
	}
	nm_tree_free(a);
	nm_tree_free(b);
}
END_TEST

/* Every fixture variant: sizes known at mount, and then every file yields exactly its
 * announced bytes. */
START_TEST(test_sizes_from_counts)
{
	static const j3dw_opts variants[] = {
		{ .variant = J3DW_BMD3 }, { .variant = J3DW_BDL4 }, { .variant = J3DW_BMD2 },
		{ .variant = J3DW_BDL4, .unknown_chunk = true, .shuffle = true },
		{ .variant = J3DW_BMD3, .absurd_dl_count = true },
	};
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		nm_tree *t = fixture_tree(variants[i]);
		char what[32];
		snprintf(what, sizeof what, "fixture variant %zu", i);
		ck_stat_decodes_nothing(t, what);
		walk(t, true);
		nm_tree_free(t);
	}
}
END_TEST

/* ---- broken input ---------------------------------------------------------------- */

START_TEST(test_absurd_vertex_count)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3, .absurd_dl_count = true });
	ck_assert(exists(t, "shp1/0"));
	char *e = must_read(t, "shp1/0/error.txt", NULL);
	CK_CONTAINS(e, "TRIANGLE_STRIP of 65535 vertices");
	CK_CONTAINS(e, "runs past the end of the display list");
	free(e);
	ck_assert(!exists(t, "shp1/0/triangles.csv"));
	ck_assert(exists(t, "shp1/0/header.txt"));
	ck_assert(exists(t, "shp1/1/triangles.csv"));
	char *obj = must_read(t, "mesh.obj", NULL);
	size_t nf = 0;
	for (char *p = obj; (p = strstr(p, "\nf ")); p++)
		nf++;
	ck_assert_uint_eq(nf, J3DW_SHAPE1_TRIS);
	free(obj);
	nm_tree_free(t);
}
END_TEST

/* A shape whose first draw makes no triangle (a strip of two vertices) and whose second
 * makes one: mesh.obj and triangles.csv hold that one triangle (issue 15: the OBJ
 * builder did arithmetic on its still-NULL triangle array). */
START_TEST(test_first_draw_without_triangles)
{
	static const uint8_t dl[] = {
		0x98, 0, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
		0x90, 0, 3, 0, 2, 2, 2, 2, 0, 3, 3, 0, 3, 0, 4, 0, 1, 4,
	};
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3, .shape0_dl = dl,
					       .shape0_dl_len = sizeof dl });
	ck_assert(!exists(t, "shp1/0/error.txt"));
	char *tri = must_read(t, "shp1/0/triangles.csv", NULL);
	ck_assert_str_eq(strchr(tri, '\n') + 1,
			 "    0,    2,  2,  2,  2,    3,  3,  0,  3,    4,  0,  1,  4\n");
	free(tri);
	char *obj = must_read(t, "mesh.obj", NULL);
	size_t nf = 0;
	for (char *p = obj; (p = strstr(p, "\nf ")); p++)
		nf++;
	ck_assert_uint_eq(nf, 1 + J3DW_SHAPE1_TRIS);
	free(obj);
	nm_tree_free(t);
}
END_TEST

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Offset of the first chunk with this magic. */
static size_t find_chunk(const uint8_t *b, size_t len, const char *magic)
{
	size_t off = 0x20;
	while (off + 8 <= len) {
		if (!memcmp(b + off, magic, 4))
			return off;
		uint32_t s = (uint32_t)b[off + 4] << 24 | (uint32_t)b[off + 5] << 16 |
			     (uint32_t)b[off + 6] << 8 | b[off + 7];
		off += s;
	}
	ck_abort_msg("no %s", magic);
	return 0;
}

START_TEST(test_absurd_counts)
{
	size_t len;
	uint8_t *good = fixture_bytes((j3dw_opts){ .variant = J3DW_BDL4 }, &len);
	uint8_t *b = malloc(len);
	nm_error err;
	nm_status s;
	/* Huge counts in every table header: an error file, never a huge allocation. */
	static const struct { const char *magic; size_t at; int width; } cases[] = {
		{ "SHP1", 0x08, 2 }, { "TEX1", 0x08, 2 }, { "JNT1", 0x08, 2 },
		{ "MAT3", 0x08, 2 }, { "EVP1", 0x08, 2 }, { "DRW1", 0x08, 2 },
		{ "MDL3", 0x08, 2 }, { "VTX1", 0x08, 4 }, { "INF1", 0x14, 4 },
		{ "JNT1", 0x0C, 4 }, { "TEX1", 0x10, 4 }, { "SHP1", 0x28, 4 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(b, good, len);
		size_t at = find_chunk(b, len, cases[i].magic) + cases[i].at;
		memset(b + at, 0xFF, (size_t)cases[i].width);
		nm_tree *t = tree_of(b, len, &s, &err);
		ck_assert_msg(t, "%s: %s", cases[i].magic, err.msg);
		walk(t, false);
		nm_tree_free(t);
	}
	/* A broken name table loses the names, not the textures. */
	memcpy(b, good, len);
	put32(b + find_chunk(b, len, "TEX1") + 0x10, 0xFFFFFFF0);
	nm_tree *t = tree_of(b, len, &s, &err);
	ck_assert_ptr_nonnull(t);
	char *h = must_read(t, "tex1/header.txt", NULL);
	CK_CONTAINS(h, "name_table_problem: ");
	free(h);
	ck_assert(exists(t, "tex1/texture13.png"));
	ck_assert(!exists(t, "tex1/error.txt"));
	nm_tree_free(t);
	/* Chunk count and sizes. */
	memcpy(b, good, len);
	put32(b + 12, 0xFFFFFFFF);
	t = tree_of(b, len, &s, &err);
	ck_assert_ptr_nonnull(t);
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "chunks: 9\n");
	CK_CONTAINS(info, "error: ");
	free(info);
	nm_tree_free(t);
	memcpy(b, good, len);
	put32(b + find_chunk(b, len, "SHP1") + 4, 0xFFFFFFF0);
	t = tree_of(b, len, &s, &err);
	ck_assert_ptr_nonnull(t);
	char *e = must_read(t, "shp1/error.txt", NULL);
	CK_CONTAINS(e, "runs past the end of the file");
	free(e);
	ck_assert(exists(t, "vtx1/positions.csv"));
	walk(t, false);
	nm_tree_free(t);
	memcpy(b, good, len);
	put32(b + find_chunk(b, len, "VTX1") + 4, 4);
	t = tree_of(b, len, &s, &err);
	ck_assert_ptr_nonnull(t);
	info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "smaller than its 8-byte header");
	free(info);
	nm_tree_free(t);
	free(b);
	free(good);
}
END_TEST

START_TEST(test_truncations)
{
	size_t len;
	uint8_t *good = fixture_bytes((j3dw_opts){ .variant = J3DW_BDL4, .unknown_chunk = true },
				      &len);
	for (size_t cut = 0; cut < len; cut++) {
		nm_status s;
		nm_error err;
		nm_tree *t = tree_of(good, cut, &s, &err);
		if (cut < 0x20 && cut >= 8) {
			ck_assert_msg(!t, "cut %zu: a header-less file must fail", cut);
			ck_assert_int_eq(s, NM_E_FORMAT);
			continue;
		}
		if (cut < 8) {
			ck_assert_ptr_null(t);   /* not even the magic: no driver */
			continue;
		}
		ck_assert_msg(t, "cut %zu: %s", cut, err.msg);
		ck_stat_decodes_nothing(t, "truncated fixture");
		walk(t, false);
		nm_tree_free(t);
	}
	free(good);
}
END_TEST

/* ---- corpus ------------------------------------------------------------------------ */

static char corpus_dir[2048];

static bool corpus_available(void)
{
	const char *top = getenv("top_srcdir");
	snprintf(corpus_dir, sizeof corpus_dir, "%s/../shared/corpus", top ? top : ".");
	struct stat st;
	return stat(corpus_dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f, "%s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Corpus files (bmd/ and bdl/), sorted. */
static size_t corpus_files(char files[][4096], size_t max)
{
	static const char *const sub[] = { "bmd", "bdl" };
	size_t n = 0;
	for (int s = 0; s < 2; s++) {
		char dir[2400];
		snprintf(dir, sizeof dir, "%s/%s", corpus_dir, sub[s]);
		struct dirent **names;
		int k = scandir(dir, &names, NULL, alphasort);
		for (int i = 0; i < k; i++) {
			if (names[i]->d_name[0] != '.' && n < max)
				snprintf(files[n++], 4096, "%s/%s", dir, names[i]->d_name);
			free(names[i]);
		}
		if (k >= 0)
			free(names);
	}
	return n;
}

/* An independent triangle count of a J3D file's display lists, and the vertices of its
 * triangle primitives (*verts): a minimal walk over the chunk list, SHP1's tables and
 * every packet, written apart from the driver. */
static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

static uint64_t count_dl_triangles(const uint8_t *d, size_t len, uint64_t *verts)
{
	const uint8_t *shp = NULL;
	size_t off = 0x20;
	for (uint32_t i = 0; i < be32(d + 12) && off + 8 <= len; i++) {
		if (!memcmp(d + off, "SHP1", 4))
			shp = d + off;
		off += be32(d + off + 4);
	}
	ck_assert_ptr_nonnull(shp);
	uint64_t tris = 0;
	*verts = 0;
	unsigned nshapes = be16(shp + 8);
	for (unsigned s = 0; s < nshapes; s++) {
		const uint8_t *e = shp + be32(shp + 0x0C) + 0x28 * s;
		unsigned npk = be16(e + 2), first = be16(e + 8);
		const uint8_t *a = shp + be32(shp + 0x18) + be16(e + 4);
		unsigned vsize = 0;
		for (; be32(a) != 0xFF; a += 8) {
			uint32_t attr = be32(a), type = be32(a + 4);
			if (type == 2)
				vsize += 1;
			else if (type == 3)
				vsize += 2;
			else if (type == 1)
				ck_assert_msg(attr <= 8, "direct vertex data in a corpus file");
			if (type == 1)
				vsize += 1;
		}
		for (unsigned p = 0; p < npk; p++) {
			const uint8_t *pe = shp + be32(shp + 0x28) + 8 * (first + p);
			const uint8_t *dl = shp + be32(shp + 0x20) + be32(pe + 4);
			size_t n = be32(pe), q = 0;
			while (q < n) {
				unsigned op = dl[q];
				if (op == 0) {
					q++;
					continue;
				}
				unsigned v = be16(dl + q + 1);
				switch (op & 0xF8) {
				case 0x90: tris += v / 3; break;
				case 0x98: case 0xA0: tris += v >= 3 ? v - 2 : 0; break;
				case 0x80: case 0x88: tris += v / 4 * 2; break;
				case 0xA8: case 0xB0: case 0xB8: break;
				default: ck_abort_msg("opcode 0x%02x in a corpus display list", op);
				}
				if (op < 0xA8)
					*verts += v;
				q += 3 + (size_t)v * vsize;
			}
		}
	}
	return tris;
}

/* Every cut of the fixture's first SHP1 and MDL3 packets (their size fields
 * shortened), so that a display list or command list ends inside each of its commands:
 * the sizes are still exact at mount, and every file then yields exactly those bytes
 * or fails as a reader sees it (ck_read_failure). A cut display list is a shape error
 * (error.txt, no CSVs, left out of mesh.obj); a cut MDL3 packet ends its text with a
 * line that says where. */
START_TEST(test_packet_cuts)
{
	size_t len;
	uint8_t *good = fixture_bytes((j3dw_opts){ .variant = J3DW_BDL4 }, &len);
	uint8_t *b = malloc(len);
	size_t shp = find_chunk(good, len, "SHP1"), mdl = find_chunk(good, len, "MDL3");
	/* The size field of each first packet: SHP1 packet table entry 0 (size, offset),
	 * MDL3 packet table entry 0 (offset, size). */
	const size_t fields[2] = { shp + be32(good + shp + 0x28), mdl + be32(good + mdl + 0x0C) + 4 };
	for (int k = 0; k < 2; k++) {
		uint32_t full = be32(good + fields[k]);
		ck_assert_uint_gt(full, 32);
		for (uint32_t cut = 0; cut <= full; cut++) {
			memcpy(b, good, len);
			put32(b + fields[k], cut);
			nm_status s;
			nm_error err;
			nm_tree *t = tree_of(b, len, &s, &err);
			ck_assert_msg(t, "cut %u: %s", cut, err.msg);
			ck_stat_decodes_nothing(t, k ? "cut MDL3 packet" : "cut display list");
			walk(t, true);
			if (k == 0)
				ck_assert(exists(t, "shp1/0/error.txt") != exists(t, "shp1/0/triangles.csv"));
			nm_tree_free(t);
		}
	}
	free(b);
	free(good);
}
END_TEST

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A J3D file of one chunk (SHP1: one shape, POS as an 8-bit index; or MDL3) whose
 * packets all point at the same list of `list` zero bytes (NOPs). */
static uint8_t *overlapping_packets(bool mdl3, uint32_t packets, uint32_t list, size_t *len)
{
	size_t tables = mdl3 ? 0x40 + 8 * (size_t)packets : 0x88 + 16 * (size_t)packets;
	size_t base = (tables + 31) & ~(size_t)31, chunk = base + list;
	*len = 0x20 + chunk;
	uint8_t *b = calloc(1, *len);
	ck_assert_ptr_nonnull(b);
	memcpy(b, "J3D2bdl4", 8);
	put32(b + 8, (uint32_t)*len);
	put32(b + 12, 1);
	memcpy(b + 16, "SVR3", 4);
	memset(b + 20, 0xFF, 12);
	uint8_t *c = b + 0x20;
	memcpy(c, mdl3 ? "MDL3" : "SHP1", 4);
	put32(c + 4, (uint32_t)chunk);
	if (mdl3) {
		put16(c + 8, packets);
		put32(c + 0x0C, 0x40);
		for (uint32_t i = 0; i < packets; i++) {
			put32(c + 0x40 + 8 * i, (uint32_t)(base - (0x40 + 8 * i)));
			put32(c + 0x44 + 8 * i, list);
		}
		return b;
	}
	put16(c + 8, 1);
	put32(c + 0x0C, 0x40);                    /* shape table */
	put32(c + 0x18, 0x68);                    /* attribute lists */
	put32(c + 0x1C, 0x80);                    /* matrix table: one entry, 0 */
	put32(c + 0x20, (uint32_t)base);          /* display lists */
	put32(c + 0x24, 0x88);                    /* matrix groups */
	put32(c + 0x28, 0x88 + 8 * packets);      /* packets */
	put16(c + 0x40 + 2, packets);
	put32(c + 0x68, 9);                       /* POS, INDEX8 */
	put32(c + 0x6C, 2);
	put32(c + 0x70, 0xFF);
	for (uint32_t i = 0; i < packets; i++) {
		put16(c + 0x88 + 8 * i + 2, 1);
		put32(c + 0x88 + 8 * (packets + i), list);
	}
	return b;
}

/* Packets that all point at one big list: the mount-time walks stop at their budget
 * (4 x the chunk + 1 MiB) and say so, instead of walking the list again and again. */
START_TEST(test_overlapping_packets)
{
	for (int k = 0; k < 2; k++) {
		size_t len;
		uint8_t *b = overlapping_packets(k, 32, 256 * 1024, &len);
		nm_status s;
		nm_error err;
		nm_tree *t = tree_of(b, len, &s, &err);
		free(b);
		ck_assert_msg(t, "%s", err.msg);
		ck_stat_decodes_nothing(t, "overlapping packets");
		char *e;
		walk(t, true);
		if (k) {
			char *p = must_read(t, "mdl3/0.txt", NULL);
			CK_CONTAINS(p, "nop_bytes: 262144\n");
			free(p);
			e = must_read(t, "mdl3/31.txt", NULL);
		} else {
			e = must_read(t, "shp1/0/error.txt", NULL);
		}
		CK_CONTAINS(e, "that overlap");
		free(e);
		nm_tree_free(t);
	}
}
END_TEST

/* mesh.obj: v and f lines, and how many faces agree with their vertex normals. */
static void obj_stats(char *obj, uint64_t *verts, uint64_t *faces, uint64_t *agree,
		      uint64_t *with_normals)
{
	size_t nv = 0, nn = 0, cv = 1024, cn = 1024;
	float *v = malloc(cv * 12), *vn = malloc(cn * 12);
	*faces = *agree = *with_normals = 0;
	/* A vn line before the first group is the placeholder that faces without normals
	 * refer to (every face has the form v/vt/vn): those faces are not compared. */
	bool in_group = false, placeholder = false;
	for (char *line = strtok(obj, "\n"); line; line = strtok(NULL, "\n")) {
		in_group |= !strncmp(line, "g ", 2);
		placeholder |= !in_group && !strncmp(line, "vn ", 3);
		if (!strncmp(line, "v ", 2)) {
			if (nv == cv)
				v = realloc(v, (cv *= 2) * 12);
			sscanf(line + 2, "%f %f %f", &v[3 * nv], &v[3 * nv + 1], &v[3 * nv + 2]);
			nv++;
		} else if (!strncmp(line, "vn ", 3)) {
			if (nn == cn)
				vn = realloc(vn, (cn *= 2) * 12);
			sscanf(line + 3, "%f %f %f", &vn[3 * nn], &vn[3 * nn + 1], &vn[3 * nn + 2]);
			nn++;
		} else if (!strncmp(line, "f ", 2)) {
			(*faces)++;
			int a[3], c[3];
			if (sscanf(line + 2, "%d/%*d/%d %d/%*d/%d %d/%*d/%d", &a[0], &c[0], &a[1], &c[1],
				   &a[2], &c[2]) != 6)
				continue;
			if (placeholder && c[0] == 1 && c[1] == 1 && c[2] == 1)
				continue;
			float *p0 = &v[3 * (a[0] - 1)], *p1 = &v[3 * (a[1] - 1)], *p2 = &v[3 * (a[2] - 1)];
			float e1[3], e2[3], g[3], s = 0;
			for (int k = 0; k < 3; k++) {
				e1[k] = p1[k] - p0[k];
				e2[k] = p2[k] - p0[k];
			}
			g[0] = e1[1] * e2[2] - e1[2] * e2[1];
			g[1] = e1[2] * e2[0] - e1[0] * e2[2];
			g[2] = e1[0] * e2[1] - e1[1] * e2[0];
			for (int k = 0; k < 3; k++)
				s += g[k] * (vn[3 * (c[0] - 1) + k] + vn[3 * (c[1] - 1) + k] +
					     vn[3 * (c[2] - 1) + k]);
			(*with_normals)++;
			*agree += s > 0;
		}
	}
	*verts = nv;
	free(v);
	free(vn);
}

START_TEST(test_corpus)
{
	if (!corpus_available()) {
		printf("test_j3d: no corpus at %s: corpus cases skipped\n", corpus_dir);
		return;
	}
	static char files[64][4096];
	size_t n = corpus_files(files, 64);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		nm_tree *t;
		nm_error err;
		ck_assert_msg(nm_open_model(files[i], NULL, &t, &err) == NM_OK, "%s: %s", files[i], err.msg);
		ck_stat_decodes_nothing(t, files[i]);
		size_t nfiles = walk(t, true);
		ck_assert_uint_gt(nfiles, 20);
		/* Every texture: its PNG (and mips) read back at the header's size. */
		nm_node *tex;
		if (nm_resolve(t, "tex1", &tex, &err) == NM_OK) {
			nm_node **kids;
			size_t nk;
			ck_assert_int_eq(nm_children(t, tex, &kids, &nk, &err), NM_OK);
			for (size_t k = 0; k < nk; k++) {
				const char *name = nm_node_name(kids[k]);
				size_t l = strlen(name);
				if (l < 5 || strcmp(name + l - 4, ".txt") || !strcmp(name, "header.txt"))
					continue;
				char p[600], v[64];
				snprintf(p, sizeof p, "tex1/%s", name);
				char *txt = must_read(t, p, NULL);
				ck_assert_msg(!strstr(txt, "\nerror: "), "%s: %s", files[i], txt);
				unsigned w = (unsigned)atoi(value_of(txt, "width", v, sizeof v));
				unsigned h = (unsigned)atoi(value_of(txt, "height", v, sizeof v));
				unsigned levels = (unsigned)atoi(value_of(txt, "levels_shown", v, sizeof v));
				free(txt);
				for (unsigned lv = 0; lv < levels; lv++) {
					if (lv)
						snprintf(p, sizeof p, "tex1/%.*s.mip%u.png", (int)(l - 4), name, lv);
					else
						snprintf(p, sizeof p, "tex1/%.*s.png", (int)(l - 4), name);
					size_t len;
					char *png = must_read(t, p, &len);
					unsigned pw, ph;
					uint8_t *px = png_rgba(png, len, &pw, &ph);
					ck_assert_msg(px, "%s: %s does not read back", files[i], p);
					ck_assert_uint_eq(pw, w >> lv ? w >> lv : 1);
					ck_assert_uint_eq(ph, h >> lv ? h >> lv : 1);
					free(px);
					free(png);
				}
			}
		}
		/* mesh.obj: triangle count against the independent walk; winding. */
		size_t flen;
		uint8_t *raw = load(files[i], &flen);
		uint64_t want_verts, want = count_dl_triangles(raw, flen, &want_verts);
		free(raw);
		char *obj = must_read(t, "mesh.obj", NULL);
		uint64_t verts, faces, agree, with_normals;
		obj_stats(obj, &verts, &faces, &agree, &with_normals);
		free(obj);
		ck_assert_msg(faces == want, "%s: mesh.obj has %llu faces, display lists %llu",
			      files[i], (unsigned long long)faces, (unsigned long long)want);
		/* one OBJ vertex per display-list vertex of a triangle primitive */
		ck_assert_msg(verts == want_verts, "%s: mesh.obj has %llu vertices, display lists "
			      "%llu", files[i], (unsigned long long)verts,
			      (unsigned long long)want_verts);
		ck_assert_msg(agree * 10 >= with_normals * 9,
			      "%s: only %llu of %llu faces agree with their normals", files[i],
			      (unsigned long long)agree, (unsigned long long)with_normals);
		nm_tree_free(t);
	}
}
END_TEST

/* A tiny deterministic generator (fixed seed: every run flips the same bytes). */
static uint64_t rng_state;
static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

START_TEST(test_corpus_flips)
{
	if (!corpus_available()) {
		printf("test_j3d: no corpus at %s: byte-flip cases skipped\n", corpus_dir);
		return;
	}
	static char files[64][4096];
	size_t n = corpus_files(files, 64);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		uint8_t *good = load(files[i], &len);
		rng_state = 0x6a3d + i;
		/* The 1 MB course costs far more per walk: fewer flips there. */
		unsigned rounds = len > 512 * 1024 ? 30 : 400;
		uint8_t *b = malloc(len);
		for (unsigned r = 0; r < rounds; r++) {
			memcpy(b, good, len);
			unsigned flips = 1 + rng() % 4;
			for (unsigned k = 0; k < flips; k++) {
				size_t at;
				if (rng() % 2) {
					at = rng() % len;
				} else {
					/* near a chunk start, where the tables are */
					size_t off = 0x20, c = rng() % 10;
					for (size_t j = 0; j < c && off + 8 <= len; j++) {
						uint32_t s = be32(good + off + 4);
						if (s < 8 || s > len - off)
							break;
						off += s;
					}
					at = (off + rng() % 0x200) % len;
				}
				b[at] ^= (uint8_t)(1 + rng() % 255);
			}
			nm_status s;
			nm_error err;
			nm_tree *t = tree_of(b, len, &s, &err);
			if (!t)
				continue;   /* an error is a fine answer */
			ck_stat_decodes_nothing(t, files[i]);
			walk(t, false);
			nm_tree_free(t);
		}
		free(b);
		free(good);
	}
}
END_TEST

START_TEST(test_corpus_truncations)
{
	if (!corpus_available()) {
		printf("test_j3d: no corpus at %s: truncation cases skipped\n", corpus_dir);
		return;
	}
	static char files[64][4096];
	size_t n = corpus_files(files, 64);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		uint8_t *good = load(files[i], &len);
		/* Every cut of the small files, about 150 cuts spread over the others, 20 over
		 * the 1 MB course (each of its walks decodes 10 MB of output). */
		size_t step = len <= 16384 ? 1 : len > 512 * 1024 ? len / 20 : len / 150;
		for (size_t cut = 0x20; cut < len; cut += step) {
			nm_status s;
			nm_error err;
			nm_tree *t = tree_of(good, cut, &s, &err);
			ck_assert_msg(t, "%s cut at %zu: %s", files[i], cut, err.msg);
			ck_stat_decodes_nothing(t, files[i]);
			walk(t, false);
			nm_tree_free(t);
		}
		free(good);
	}
}
END_TEST

/* ---- BTI (a standalone texture) and BMT (a material table) ------------------------------ */

static uint8_t *bti_bytes(int tex, size_t *len)
{
	uint8_t *b = j3dw_bti(tex, len);
	ck_assert_ptr_nonnull(b);
	return b;
}


/* Every texture of the writer as a .bti: the tree TEX1 shows for it, PNGs pixel for
 * pixel, raw.bin the file itself, sizes known at mount. */
START_TEST(test_bti_textures)
{
	int tex = _i;
	size_t len;
	uint8_t *b = bti_bytes(tex, &len);
	nm_error err;
	nm_status s;
	nm_tree *t = tree_of(b, len, &s, &err);
	ck_assert_msg(t, "%s: %s", j3dw_tex_files[tex], err.msg);
	ck_stat_decodes_nothing(t, j3dw_tex_files[tex]);
	char *info = must_read(t, "info.txt", NULL), line[64];
	CK_CONTAINS(info, "format: GX texture (BTI)\n");
	snprintf(line, sizeof line, "width: %u\n", j3dw_tex_width[tex]);
	CK_CONTAINS(info, line);
	snprintf(line, sizeof line, "levels_shown: %u\n", j3dw_tex_levels[tex]);
	CK_CONTAINS(info, line);
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	char *hdr = must_read(t, "header.txt", NULL);
	snprintf(line, sizeof line, "(0x%x)\n", j3dw_tex_format[tex]);
	CK_CONTAINS(hdr, line);
	CK_CONTAINS(hdr, "header_offset: 0x0\n");
	CK_CONTAINS(hdr, "lod_bias: -0.5\n");
	free(hdr);
	for (unsigned level = 0; level < j3dw_tex_levels[tex]; level++) {
		char path[64];
		if (level)
			snprintf(path, sizeof path, "texture.mip%u.png", level);
		else
			snprintf(path, sizeof path, "texture.png");
		ck_texture_png(t, path, tex, level);
	}
	size_t rlen;
	char *raw = must_read(t, "raw.bin", &rlen);
	ck_assert_uint_eq(rlen, len);
	ck_assert_mem_eq(raw, b, len);
	free(raw);
	ck_assert(exists(t, "texture.bin"));
	bool indexed = tex == J3DW_T_C4 || tex == J3DW_T_C8 || tex == J3DW_T_C14X2;
	ck_assert(exists(t, "texture.palette.bin") == indexed);
	ck_assert(!exists(t, "error.txt"));
	walk(t, true);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* One header byte (or u16/u32) set to a value a real BTI never has: the file is no
 * longer taken for a BTI (nothing else claims it either). */
typedef struct bti_change {
	const char *what;
	int tex;
	unsigned at, size;   /* size 1, 2 or 4 bytes, big-endian */
	uint32_t value;
} bti_change;

static const bti_change bti_changes[] = {
	{ "format 7", J3DW_T_I8, 0x00, 1, 7 },
	{ "format 0x0f", J3DW_T_I8, 0x00, 1, 0x0F },
	{ "alpha 3", J3DW_T_I8, 0x01, 1, 3 },
	{ "width 0", J3DW_T_I8, 0x02, 2, 0 },
	{ "width 1025", J3DW_T_I8, 0x02, 2, 1025 },
	{ "height 0", J3DW_T_I8, 0x04, 2, 0 },
	{ "wrap s 3", J3DW_T_I8, 0x06, 1, 3 },
	{ "wrap t 0x80", J3DW_T_I8, 0x07, 1, 0x80 },
	{ "palettes on for I8", J3DW_T_I8, 0x08, 1, 1 },
	{ "palette format 3", J3DW_T_I8, 0x09, 1, 3 },
	{ "palette entries for I8", J3DW_T_I8, 0x0A, 2, 16 },
	{ "mipmap flag 2", J3DW_T_I8, 0x10, 1, 2 },
	{ "edge LOD flag 2", J3DW_T_I8, 0x11, 1, 2 },
	{ "anisotropy 3", J3DW_T_I8, 0x13, 1, 3 },
	{ "min filter 6", J3DW_T_I8, 0x14, 1, 6 },
	{ "mag filter 2", J3DW_T_I8, 0x15, 1, 2 },
	{ "5 levels of an 8x8", J3DW_T_I8, 0x18, 1, 5 },
	{ "image inside the header", J3DW_T_I8, 0x1C, 4, 0x1F },
	{ "image past the end", J3DW_T_I8, 0x1C, 4, 0x40 },
	{ "image offset near 4 GiB", J3DW_T_I8, 0x1C, 4, 0xFFFFFFF0u },
	{ "C4 with palettes off", J3DW_T_C4, 0x08, 1, 0 },
	{ "C4 with no entries", J3DW_T_C4, 0x0A, 2, 0 },
	{ "C4 with 17 entries", J3DW_T_C4, 0x0A, 2, 17 },
	{ "C8 with 257 entries", J3DW_T_C8, 0x0A, 2, 257 },
	{ "C8 palette inside the header", J3DW_T_C8, 0x0C, 4, 0x10 },
	{ "C8 palette past the end", J3DW_T_C8, 0x0C, 4, 0x7FFFFFFF },
	{ "C14X2 palette format 3", J3DW_T_C14X2, 0x09, 1, 3 },
};

START_TEST(test_bti_probe_strict)
{
	const bti_change *c = &bti_changes[_i];
	size_t len;
	uint8_t *b = bti_bytes(c->tex, &len);
	/* Unchanged, it is a BTI. */
	nm_error err;
	nm_status s;
	nm_tree *t = tree_of(b, len, &s, &err);
	ck_assert_msg(t, "%s: %s", c->what, err.msg);
	nm_tree_free(t);
	for (unsigned k = 0; k < c->size; k++)
		b[c->at + k] = (uint8_t)(c->value >> (8 * (c->size - 1 - k)));
	t = tree_of(b, len, &s, &err);
	ck_assert_msg(!t && s == NM_E_UNSUPPORTED, "%s: still taken for a model", c->what);
	ck_assert_msg(strstr(err.msg, "not a model"), "%s: %s", c->what, err.msg);
	free(b);
}
END_TEST

/* Real files have junk in the byte at 0x19, alpha 0xCC (one tool's fill) and a palette
 * offset in direct formats: still BTIs. */
START_TEST(test_bti_probe_accepts_real_junk)
{
	size_t len;
	uint8_t *b = bti_bytes(J3DW_T_CMPR, &len);
	b[0x01] = 0xCC;
	b[0x19] = 0xA6;
	memcpy(b + 0x0C, "\0\0\x01\x20", 4);
	nm_error err;
	nm_status s;
	nm_tree *t = tree_of(b, len, &s, &err);
	ck_assert_msg(t, "%s", err.msg);
	char *hdr = must_read(t, "header.txt", NULL);
	CK_CONTAINS(hdr, "unknown_0x19: 166\n");
	CK_CONTAINS(hdr, "alpha: 204\n");
	free(hdr);
	ck_texture_png(t, "texture.png", J3DW_T_CMPR, 0);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* Every cut: not a BTI once the first level is cut, else the levels that fit. */
START_TEST(test_bti_truncations)
{
	size_t len;
	uint8_t *b = bti_bytes(J3DW_T_MIP, &len);
	size_t level0 = 0x20 + 8 * 8 * 2; /* RGB565 8x8 from 0x20 */
	for (size_t cut = 0; cut < len; cut++) {
		nm_error err;
		nm_status s;
		nm_tree *t = tree_of(b, cut, &s, &err);
		if (cut < level0) {
			ck_assert_msg(!t && s == NM_E_UNSUPPORTED, "cut at %zu: taken", cut);
			continue;
		}
		ck_assert_msg(t, "cut at %zu: %s", cut, err.msg);
		ck_assert(exists(t, "texture.png"));
		ck_assert(!exists(t, "texture.mip1.png"));
		walk(t, true);
		nm_tree_free(t);
	}
	free(b);
}
END_TEST

/* A texture wider than max_dimension: its header, no PNG, no error.txt. */
START_TEST(test_bti_max_dimension)
{
	size_t len;
	uint8_t *b = bti_bytes(J3DW_T_RGBA8, &len);
	nm_options opt;
	nm_options_init(&opt);
	opt.max_dimension = 2;
	nm_error err;
	nm_status s;
	nm_tree *t = tree_of_opts(b, len, &opt, &s, &err);
	ck_assert_msg(t, "%s", err.msg);
	ck_assert(!exists(t, "texture.png"));
	ck_assert(!exists(t, "error.txt"));
	char *hdr = must_read(t, "header.txt", NULL);
	CK_CONTAINS(hdr, "larger than max_dimension (2)");
	free(hdr);
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "levels_shown: 0\n");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	nm_tree_free(t);
	free(b);
}
END_TEST

/* No file of the corpus, and no fixture of another format, is taken for a BTI. */
START_TEST(test_bti_takes_no_other_file)
{
	extern const nm_driver nm_driver_bti;
	static const enum j3dw_variant j3dw_variant_list[] = { J3DW_BMD3, J3DW_BDL4, J3DW_BMD2,
							       J3DW_BMT3 };
	for (size_t v = 0; v < 4; v++) {
		size_t len;
		uint8_t *b = fixture_bytes((j3dw_opts){ .variant = j3dw_variant_list[v] }, &len);
		ck_assert(!nm_driver_bti.probe(b, len < NM_PROBE_BYTES ? len : NM_PROBE_BYTES, len));
		free(b);
	}
	if (!corpus_available()) {
		printf("test_j3d: no corpus at %s: BTI probe not tried on it\n", corpus_dir);
		return;
	}
	static const char *const sub[] = { "bmd", "bdl", "cmb", "cmdl", "cmod", "gar", "rarc",
					   "txtr", "zar" };
	size_t tried = 0;
	for (size_t d = 0; d < sizeof sub / sizeof *sub; d++) {
		char dir[2400];
		snprintf(dir, sizeof dir, "%s/%s", corpus_dir, sub[d]);
		struct dirent **names;
		int k = scandir(dir, &names, NULL, alphasort);
		for (int i = 0; i < k; i++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
			struct stat st;
			if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				size_t len;
				uint8_t *b = load(path, &len);
				ck_assert_msg(!nm_driver_bti.probe(b, len < NM_PROBE_BYTES ? len
									  : NM_PROBE_BYTES, len),
					      "%s is taken for a BTI", path);
				free(b);
				tried++;
			}
			free(names[i]);
		}
		if (k >= 0)
			free(names);
	}
	ck_assert_uint_gt(tried, 10);
}
END_TEST

/* A BMT: MAT3 and TEX1 alone, shown as a BMD shows them. */
START_TEST(test_bmt)
{
	nm_tree *t = fixture_tree((j3dw_opts){ .variant = J3DW_BMT3 });
	nm_tree *bmd = fixture_tree((j3dw_opts){ .variant = J3DW_BMD3 });
	ck_stat_decodes_nothing(t, "bmt");
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "type: J3D2bmt3\n");
	CK_CONTAINS(info, "chunk_order: MAT3 TEX1\n");
	CK_CONTAINS(info, "materials: 2\n");
	CK_CONTAINS(info, "textures: 14\n");
	CK_CONTAINS(info, "shapes: 0\n");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	ck_assert(!exists(t, "shp1"));
	/* The same material texts (they name texture files, not offsets) and PNGs. */
	static const char *const same[] = { "mat3/0.txt", "mat3/1.txt", "tex1/cmpr.png",
					    "tex1/c8.png", "tex1/mip.mip1.png" };
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		size_t a, b;
		char *x = must_read(t, same[i], &a), *y = must_read(bmd, same[i], &b);
		ck_assert_msg(a == b && memcmp(x, y, a) == 0, "%s differs from the BMD's", same[i]);
		free(x);
		free(y);
	}
	walk(t, true);
	nm_tree_free(bmd);
	nm_tree_free(t);
}
END_TEST

/* A header that counts more chunks than a whole file holds (real Sunshine BMTs: TEX1
 * alone, count 2, the size field equal to the file's size) is not an error; a file cut
 * short at a chunk's end, whose size field says more, still is. */
START_TEST(test_count_over_whole_file)
{
	size_t len;
	uint8_t *b = fixture_bytes((j3dw_opts){ .variant = J3DW_BMT3 }, &len);
	ck_assert_uint_eq(be32(b + 8), len);
	ck_assert_uint_eq(be32(b + 12), 2);
	put32(b + 12, 3);
	nm_status s;
	nm_error err;
	nm_tree *t = tree_of(b, len, &s, &err);
	ck_assert_int_eq(s, NM_OK);
	char *info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "chunk_count_field: 3 (the file ends after 2, where its size field "
			  "says it ends)\n");
	CK_CONTAINS(info, "textures: 14\n");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	ck_assert(!exists(t, "error.txt"));
	nm_tree_free(t);

	/* MAT3 alone, the size field still the whole file's: cut short. */
	put32(b + 12, 2);
	size_t cut = find_chunk(b, len, "TEX1");
	t = tree_of(b, cut, &s, &err);
	ck_assert_int_eq(s, NM_OK);
	info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "chunk_count_field: 2\n");
	CK_CONTAINS(info, "the header lists 2 chunks but the file ends after 1");
	CK_CONTAINS(info, "errors: 1\n");
	free(info);
	ck_assert(exists(t, "error.txt"));
	nm_tree_free(t);

	/* The same bytes with the size field saying where they end: as shipped. */
	put32(b + 8, (uint32_t)cut);
	t = tree_of(b, cut, &s, &err);
	ck_assert_int_eq(s, NM_OK);
	info = must_read(t, "info.txt", NULL);
	CK_CONTAINS(info, "chunk_count_field: 2 (the file ends after 1, where its size field "
			  "says it ends)\n");
	CK_CONTAINS(info, "errors: 0\n");
	free(info);
	nm_tree_free(t);
	free(b);
}
END_TEST

static Suite *j3d_suite(void)
{
	Suite *s = suite_create("j3d");
	TCase *tc = tcase_create("fixture");
	tcase_add_test(tc, test_info_and_layout);
	tcase_add_test(tc, test_hierarchy);
	tcase_add_test(tc, test_vertex_csvs);
	tcase_add_test(tc, test_skinning_tables);
	tcase_add_test(tc, test_joints);
	tcase_add_test(tc, test_shapes);
	tcase_add_test(tc, test_materials);
	tcase_add_test(tc, test_mat2);
	tcase_add_test(tc, test_mdl3);
	tcase_add_test(tc, test_mdl3_unnamed_bp);
	tcase_add_test(tc, test_textures);
	tcase_add_test(tc, test_glb_intensity_alpha);
	tcase_add_test(tc, test_glb_shares_pngs);
	tcase_add_test(tc, test_mesh_obj);
	tcase_add_test(tc, test_unknown_and_order);
	tcase_add_test(tc, test_sizes_from_counts);
	suite_add_tcase(s, tc);
	TCase *bt = tcase_create("bti_bmt");
	tcase_add_loop_test(bt, test_bti_textures, 0, J3DW_NTEX);
	tcase_add_loop_test(bt, test_bti_probe_strict, 0,
			    (int)(sizeof bti_changes / sizeof *bti_changes));
	tcase_add_test(bt, test_bti_probe_accepts_real_junk);
	tcase_add_test(bt, test_bti_truncations);
	tcase_add_test(bt, test_bti_max_dimension);
	tcase_add_test(bt, test_bti_takes_no_other_file);
	tcase_add_test(bt, test_bmt);
	tcase_add_test(bt, test_count_over_whole_file);
	suite_add_tcase(s, bt);

	TCase *bad = tcase_create("broken");
	tcase_set_timeout(bad, 120);
	tcase_add_test(bad, test_absurd_vertex_count);
	tcase_add_test(bad, test_first_draw_without_triangles);
	tcase_add_test(bad, test_absurd_counts);
	tcase_add_test(bad, test_truncations);
	tcase_add_test(bad, test_packet_cuts);
	tcase_add_test(bad, test_overlapping_packets);
	suite_add_tcase(s, bad);
	TCase *corpus = tcase_create("corpus");
	tcase_set_timeout(corpus, 300);
	tcase_add_test(corpus, test_corpus);
	tcase_add_test(corpus, test_corpus_flips);
	tcase_add_test(corpus, test_corpus_truncations);
	suite_add_tcase(s, corpus);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(j3d_suite)
