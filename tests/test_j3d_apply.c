/* J3D edits written back (doc/apply.md, doc/j3d.md): every record file and vertex CSV
 * of the fixture writer's models and of the corpus reads its own bytes back as no
 * change; joints, materials, texture headers, vertex arrays and texture levels encode
 * in their stored types, with what depends on them (EVP1's inverse binds, the mips of
 * an edited level 0, a shared palette) handled as the doc says; values the fields
 * cannot hold are refused. tests/apply.sh runs the command on corpus files. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gx.h"
#include "edit/apply.h"
#include "export/png.h"
#include "export/png_read.h"
#include "formats/driver.h"
#include "lib/edit.h"
#include "tests/apply_util.h"
#include "tests/fixtures/j3d_writer.h"
#include "tests/walk.h"

static uint8_t *fixture(enum j3dw_variant v, size_t *len)
{
	uint8_t *d = j3dw_build(&(j3dw_opts){ .variant = v }, len);
	ck_assert_ptr_nonnull(d);
	return d;
}

static const char *const variant_names[] = { "f.bmd", "f.bdl", "f.bmd", "f.bmt" };

START_TEST(fixture_records_read_back_as_no_change)
{
	size_t len;
	uint8_t *d = fixture((enum j3dw_variant)_i, &len);
	nm_tree *t = apply_editable_tree(d, len, variant_names[_i]);
	/* BMT3: materials and texture headers only; the models also joints and arrays. */
	check_own_bytes(t, variant_names[_i], _i == J3DW_BMT3 ? 16 : 25);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(bti_header_reads_back_as_no_change)
{
	for (int k = 0; k < J3DW_NTEX; k++) {
		size_t len;
		uint8_t *d = j3dw_bti(k, &len);
		ck_assert_ptr_nonnull(d);
		nm_tree *t = apply_editable_tree(d, len, "t.bti");
		check_own_bytes(t, j3dw_tex_files[k], 1);
		nm_tree_free(t);
		free(d);
	}
}
END_TEST

/* Every J3D file of the corpus, archives and the folder's too (the walk goes into
 * their members). */
START_TEST(corpus_records_read_back_as_no_change)
{
	static const char *const dirs[] = { "bmd", "bdl", "rarc", "folder/sms_sky" };
	size_t files = 0, checked = 0;
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		char *dir = walk_corpus_dir(dirs[k]);
		if (!dir)
			continue;
		DIR *dd = opendir(dir);
		ck_assert_ptr_nonnull(dd);
		struct dirent *e;
		while ((e = readdir(dd)) != NULL) {
			if (e->d_name[0] == '.' || strstr(e->d_name, ".btk"))
				continue;
			char path[4200];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			/* An archive may hold no model (fin_hierarchy.arc). */
			checked += check_file_own_bytes(path, e->d_name,
							strcmp(dirs[k], "rarc") ? 1 : 0);
			files++;
		}
		closedir(dd);
		free(dir);
	}
	if (!files)
		printf("no J3D corpus: the corpus check ran on nothing\n");
	else
		printf("corpus: %zu record files and CSVs of %zu J3D files read back\n", checked,
		       files);
}
END_TEST

static nm_tree *fixture_tree(uint8_t **d, size_t *len)
{
	*d = fixture(J3DW_BMD3, len);
	return apply_editable_tree(*d, *len, "f.bmd");
}

/* The line of key in path of t, without "key: ". */
static char *line_of(nm_tree *t, const char *path, const char *key)
{
	size_t n;
	char *text = walk_read(t, path, &n);
	ck_assert_ptr_nonnull(text);
	char *p = text, *out = NULL;
	size_t kl = strlen(key);
	while (p && *p && !out) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			char *nl = strchr(p, '\n');
			out = strndup(p + kl + 2, nl ? (size_t)(nl - p) - kl - 2 : strlen(p + kl + 2));
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(text);
	ck_assert_msg(out, "%s: no %s", path, key);
	return out;
}

static void rows(nm_tree *t, const char *path, const char *key, double m[12])
{
	for (int r = 0; r < 3; r++) {
		char k[64];
		snprintf(k, sizeof k, "%s_row%d", key, r);
		char *v = line_of(t, path, k);
		ck_assert_int_eq(sscanf(v, "%lf %lf %lf %lf", &m[4 * r], &m[4 * r + 1],
					&m[4 * r + 2], &m[4 * r + 3]), 4);
		free(v);
	}
}

/* Joint 1 (arm) turned by 90 degrees about x: its entry stores 16384, and EVP1's inverse
 * binds of it and of the hand below it become the inverses of their new worlds; the
 * root's stays as it was, byte for byte. */
START_TEST(joint_edit_recomputes_inverse_binds)
{
	size_t len, out_len, problems;
	uint8_t *d;
	nm_tree *t = fixture_tree(&d, &len);
	char *ibm0 = walk_read(t, "/evp1/inverse_bind/0.txt", &(size_t){ 0 });
	uint8_t *out = apply_one(t, "/jnt1/joints/1.txt", "rotation_degrees", "90 0 -180",
				 &out_len, &problems);
	ck_assert_ptr_nonnull(out);
	nm_tree *t2 = apply_editable_tree(out, out_len, "f.bmd");
	char *raw = line_of(t2, "/jnt1/joints/1.txt", "rotation_raw");
	ck_assert_str_eq(raw, "16384 0 -32768");
	free(raw);
	for (int j = 1; j <= 2; j++) {
		char jp[64], ip[64];
		snprintf(jp, sizeof jp, "/jnt1/joints/%d.txt", j);
		snprintf(ip, sizeof ip, "/evp1/inverse_bind/%d.txt", j);
		double w[12], inv[12];
		rows(t2, jp, "world_matrix", w);
		rows(t2, ip, "matrix", inv);
		/* inv * w is the identity (3x4 affine). */
		for (int r = 0; r < 3; r++)
			for (int c = 0; c < 4; c++) {
				double v = inv[4 * r] * w[c] + inv[4 * r + 1] * w[4 + c] +
					   inv[4 * r + 2] * w[8 + c] + (c == 3 ? inv[4 * r + 3] : 0);
				ck_assert_msg(fabs(v - (r == c)) < 1e-5, "joint %d: [%d][%d] = %g", j,
					      r, c, v);
			}
	}
	char *ibm0_after = walk_read(t2, "/evp1/inverse_bind/0.txt", &(size_t){ 0 });
	ck_assert_str_eq(ibm0, ibm0_after);
	free(ibm0);
	free(ibm0_after);
	nm_tree_free(t2);
	free(out);
	/* The raw value alone does the same; a degree no s16 holds is refused. */
	out = apply_one(t, "/jnt1/joints/1.txt", "rotation_raw", "16384 0 -32768", &out_len,
			&problems);
	ck_assert_ptr_nonnull(out);
	free(out);
	ck_assert_ptr_null(apply_one(t, "/jnt1/joints/1.txt", "rotation_degrees", "90.001 0 -180",
				     &out_len, &problems));
	ck_assert_uint_eq(problems, 1);
	ck_assert_ptr_null(apply_one(t, "/jnt1/joints/1.txt", "world_matrix_row0", "1 0 0 0",
				     &out_len, &problems));
	ck_assert_ptr_null(apply_one(t, "/jnt1/joints/1.txt", "translation", "1 2",
				     &out_len, &problems));
	nm_tree_free(t);
	free(d);
}
END_TEST

struct edit_case {
	const char *path, *key, *value;
	const char *shown;        /* the line the new model shows, or NULL: refused */
};

static void run_cases(const struct edit_case *c, size_t n)
{
	size_t len;
	uint8_t *d;
	nm_tree *t = fixture_tree(&d, &len);
	for (size_t i = 0; i < n; i++) {
		size_t out_len, problems;
		uint8_t *out = apply_one(t, c[i].path, c[i].key, c[i].value, &out_len, &problems);
		if (!c[i].shown) {
			ck_assert_msg(!out, "%s %s: %s was encoded", c[i].path, c[i].key, c[i].value);
			ck_assert_uint_ge(problems, 1);
			continue;
		}
		ck_assert_msg(out, "%s %s: %s refused", c[i].path, c[i].key, c[i].value);
		ck_assert_uint_eq(out_len, len);
		nm_tree *t2 = apply_editable_tree(out, out_len, "f.bmd");
		char *v = line_of(t2, c[i].path, c[i].key);
		ck_assert_str_eq(v, c[i].shown);
		size_t diff = 0;
		for (size_t k = 0; k < len; k++)
			diff += out[k] != d[k];
		ck_assert_uint_ge(diff, 1);
		/* A joint's translation also moves EVP1's inverse bind of it (12 floats). */
		ck_assert_uint_le(diff, strncmp(c[i].path, "/jnt1", 5) ? 8 : 12 + 48);
		free(v);
		nm_tree_free(t2);
		free(out);
	}
	nm_tree_free(t);
	free(d);
}

START_TEST(material_fields_encode_in_their_types)
{
	static const struct edit_case cases[] = {
		{ "/mat3/0.txt", "material_color0", "1 2 3 4", "1 2 3 4" },
		{ "/mat3/0.txt", "cull_mode", "BACK", "BACK (0x2)" },
		{ "/mat3/0.txt", "cull_mode", "3", "ALL (0x3)" },
		{ "/mat3/0.txt", "tev_color0", "-1024 1023 0 -1", "-1024 1023 0 -1" },
		{ "/mat3/0.txt", "tex_matrix0_rotation_degrees", "-45", "-45" },
		{ "/mat3/0.txt", "tex_matrix0_maya", "0", "0" },
		{ "/mat3/0.txt", "tex_matrix0_scale", "0.5 1e-10", "0.5 1e-10" },
		{ "/mat3/0.txt", "texture0", "3", "3" },
		{ "/mat3/0.txt", "tev_order0_texmap", "TEXMAP1 (0x1)", "TEXMAP1 (0x1)" },
		{ "/mat3/0.txt", "material_color0", "256 0 0 0", NULL },
		{ "/mat3/0.txt", "cull_mode", "SIDEWAYS", NULL },
		{ "/mat3/0.txt", "cull_mode", "BACK (0x1)", NULL },
		{ "/mat3/0.txt", "material_color0_index", "1", NULL },
		{ "/mat3/0.txt", "tev_stage_count", "3", NULL },
		{ "/mat3/0.txt", "tex_matrix0_rotation_degrees", "0.1", NULL },
		{ "/mat3/0.txt", "tex_matrix0_mapping_mode", "64", NULL },
		{ "/tex1/i4.txt", "wrap_s", "MIRROR", "MIRROR (0x2)" },
		{ "/tex1/i4.txt", "lod_bias", "-1.5", "-1.5" },
		{ "/tex1/i4.txt", "max_lod", "0.125", "0.125" },
		{ "/tex1/i4.txt", "max_lod", "0.1", NULL },
		{ "/tex1/i4.txt", "width", "64", NULL },
		{ "/tex1/i4.txt", "format", "I8", NULL },
		{ "/tex1/i4.txt", "image_offset", "0x40", NULL },
		{ "/jnt1/joints/2.txt", "translation", "0.1 -0 1e+30", "0.1 -0 1e+30" },
		{ "/jnt1/joints/2.txt", "flags", "0xbeef", "0xbeef" },
		{ "/jnt1/joints/2.txt", "flags", "0x10000", NULL },
		{ "/jnt1/joints/2.txt", "parent", "0", NULL },
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

static void note_text(const char *line, void *ctx)
{
	char *buf = ctx;
	if (strstr(line, "note:"))
		snprintf(buf + strlen(buf), 2048 - strlen(buf), "%s\n", line);
}

/* ambient_color0 entry 0 is material 1's too: the edit is noted with its number; the
 * edited file's second slot on the same tev order entry, left as it was, is no edit. */
START_TEST(shared_material_entry_is_noted)
{
	size_t len;
	uint8_t *d;
	nm_tree *t = fixture_tree(&d, &len);
	size_t tl;
	char *text = with_line(t, "/mat3/0.txt", "ambient_color0", "9 9 9 9", &tl);
	nm_apply *a = nm_apply_new(t);
	nm_error err;
	ck_assert_int_eq(nm_apply_file(a, "/mat3/0.txt", (uint8_t *)text, tl, "w/mat3/0.txt",
				       &err), NM_OK);
	nm_out o;
	nm_out_init(&o);
	bool changed;
	ck_assert_int_eq(nm_apply_encode(a, &o, &changed, &err), NM_OK);
	nm_out_free(&o);
	char notes[2048] = "";
	nm_apply_each_change(a, note_text, notes);
	ck_assert_msg(strstr(notes, "ambient_color0") && strstr(notes, "material 1"), "%s", notes);
	nm_apply_free(a);
	free(text);
	text = with_line(t, "/mat3/0.txt", "tev_order0_channel", "COLOR1A1", &tl);
	size_t out_len, problems;
	uint8_t *out = apply_bytes(t, "/mat3/0.txt", (uint8_t *)text, tl, &out_len, &problems);
	ck_assert_ptr_nonnull(out);
	nm_tree *t2 = apply_editable_tree(out, out_len, "f.bmd");
	char *v = line_of(t2, "/mat3/0.txt", "tev_order1_channel");
	ck_assert_str_eq(v, "COLOR1A1 (0x5)"); /* the same entry */
	free(v);
	nm_tree_free(t2);
	free(out);
	free(text);
	nm_tree_free(t);
	free(d);
}
END_TEST

/* path's CSV with row (1-based after the header) replaced. */
static char *with_row(nm_tree *t, const char *path, unsigned row, const char *text,
		      size_t *len)
{
	size_t n;
	char *csv = walk_read(t, path, &n);
	ck_assert_ptr_nonnull(csv);
	char *out = malloc(n + 256);
	char *p = csv;
	size_t o = 0;
	for (unsigned line = 0; *p; line++) {
		char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (line == row)
			o += (size_t)sprintf(out + o, "%s\n", text);
		else
			memcpy(out + o, p, l), o += l;
		p += l;
	}
	free(csv);
	*len = o;
	return out;
}

/* Positions S16 with 8 fractional bits, colours 1 RGB565, texcoords 0 F32, texcoords 1
 * U16 with 12 fractional bits. */
START_TEST(vertex_values_quantise_exactly_or_not_at_all)
{
	static const struct {
		const char *path;
		unsigned row;
		const char *text, *shown;   /* shown NULL: refused */
	} cases[] = {
		{ "/vtx1/positions.csv", 2, "1.5,-2.25,127.99609375",
		  "+1.50000000e+00,-2.25000000e+00,+1.27996094e+02" },
		{ "/vtx1/positions.csv", 1, "0.001,0,0", NULL },
		{ "/vtx1/positions.csv", 1, "128,0,0", NULL },
		{ "/vtx1/positions.csv", 1, "0,0", NULL },
		{ "/vtx1/positions.csv", 1, "x,0,0", NULL },
		{ "/vtx1/colors1.csv", 2, "8,4,255,255", "  8,  4,255,255" },
		{ "/vtx1/colors1.csv", 2, "9,4,255,255", NULL },
		{ "/vtx1/colors1.csv", 2, "8,4,255,128", NULL },
		{ "/vtx1/colors0.csv", 1, "1,2,3,4", "  1,  2,  3,  4" },
		{ "/vtx1/texcoords0.csv", 1, "0.1,-7", "+1.00000001e-01,-7.00000000e+00" },
		{ "/vtx1/texcoords1.csv", 1, "0.000244140625", "+2.44140625e-04" },
		{ "/vtx1/texcoords1.csv", 1, "-1", NULL },
	};
	size_t len;
	uint8_t *d;
	nm_tree *t = fixture_tree(&d, &len);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t tl, out_len, problems;
		char *text = with_row(t, cases[i].path, cases[i].row, cases[i].text, &tl);
		uint8_t *out = apply_bytes(t, cases[i].path, (uint8_t *)text, tl, &out_len,
					   &problems);
		free(text);
		if (!cases[i].shown) {
			ck_assert_msg(!out, "%s: %s was encoded", cases[i].path, cases[i].text);
			continue;
		}
		ck_assert_msg(out, "%s: %s refused", cases[i].path, cases[i].text);
		nm_tree *t2 = apply_editable_tree(out, out_len, "f.bmd");
		size_t n;
		char *csv = walk_read(t2, cases[i].path, &n);
		ck_assert_msg(strstr(csv, cases[i].shown), "%s not in %s", cases[i].shown, csv);
		free(csv);
		nm_tree_free(t2);
		free(out);
	}
	nm_tree_free(t);
	free(d);
}
END_TEST

/* A w x h PNG of one colour. */
static uint8_t *solid_png(unsigned w, unsigned h, const uint8_t px[4], size_t *len)
{
	uint8_t *rgba = malloc((size_t)w * h * 4);
	for (size_t i = 0; i < (size_t)w * h; i++)
		memcpy(rgba + 4 * i, px, 4);
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_png_write(&o, rgba, w, h, 4), NM_OK);
	free(rgba);
	return nm_out_take(&o, len);
}

static bool all_texels(nm_tree *t, const char *path, unsigned w, unsigned h,
		       const uint8_t px[4])
{
	size_t n;
	char *png = walk_read(t, path, &n);
	uint8_t *rgba;
	nm_error err;
	ck_assert_int_eq(nm_png_read_level(NULL, (uint8_t *)png, n, path, w, h, &rgba, &err),
			 NM_OK);
	bool same = true;
	for (size_t i = 0; i < (size_t)w * h && same; i++)
		same = memcmp(rgba + 4 * i, px, 4) == 0;
	free(rgba);
	free(png);
	return same;
}

/* Level 0 of each fixture texture (every GX format, the palettes, a mipmapped one)
 * painted white: the new model shows it white, and the mipmapped texture's level 1 too,
 * made from it. */
START_TEST(every_gx_format_encodes_a_level)
{
	static const uint8_t white[4] = { 255, 255, 255, 255 };
	size_t len;
	uint8_t *d;
	nm_tree *t = fixture_tree(&d, &len);
	for (int k = 0; k < J3DW_NTEX; k++) {
		if (k == J3DW_T_SHARED || k == J3DW_T_ODD)
			continue;
		unsigned w = j3dw_tex_width[k], h = j3dw_tex_height[k];
		char path[128];
		snprintf(path, sizeof path, "/tex1/%s.png", j3dw_tex_files[k]);
		size_t plen, out_len, problems;
		uint8_t *png = solid_png(w, h, white, &plen);
		uint8_t *out = apply_bytes(t, path, png, plen, &out_len, &problems);
		free(png);
		ck_assert_msg(out, "%s refused", path);
		nm_tree *t2 = apply_editable_tree(out, out_len, "f.bmd");
		ck_assert_msg(all_texels(t2, path, w, h, white), "%s is not white", path);
		if (j3dw_tex_levels[k] > 1) {
			snprintf(path, sizeof path, "/tex1/%s.mip1.png", j3dw_tex_files[k]);
			ck_assert_msg(all_texels(t2, path, w / 2, h / 2, white), "%s", path);
		}
		nm_tree_free(t2);
		free(out);
	}
	/* Another size: a layout change. */
	size_t plen, out_len, problems;
	uint8_t *png = solid_png(3, 3, white, &plen);
	ck_assert_ptr_null(apply_bytes(t, "/tex1/i4.png", png, plen, &out_len, &problems));
	free(png);
	nm_tree_free(t);
	free(d);
}
END_TEST

/* A standalone BTI: its header's sampler fields and its image. */
START_TEST(bti_edits)
{
	size_t len, out_len, problems;
	uint8_t *d = j3dw_bti(J3DW_T_RGB5A3, &len);
	nm_tree *t = apply_editable_tree(d, len, "t.bti");
	uint8_t *out = apply_one(t, "/header.txt", "wrap_t", "REPEAT", &out_len, &problems);
	ck_assert_ptr_nonnull(out);
	nm_tree *t2 = apply_editable_tree(out, out_len, "t.bti");
	char *v = line_of(t2, "/header.txt", "wrap_t");
	ck_assert_str_eq(v, "REPEAT (0x1)");
	free(v);
	nm_tree_free(t2);
	free(out);
	static const uint8_t px[4] = { 0, 0x22, 0x44, 0x49 };   /* 4:4:4:3: exact */
	size_t plen;
	uint8_t *png = solid_png(j3dw_tex_width[J3DW_T_RGB5A3], j3dw_tex_height[J3DW_T_RGB5A3],
				 px, &plen);
	out = apply_bytes(t, "/texture.png", png, plen, &out_len, &problems);
	free(png);
	ck_assert_ptr_nonnull(out);
	t2 = apply_editable_tree(out, out_len, "t.bti");
	ck_assert(all_texels(t2, "/texture.png", j3dw_tex_width[J3DW_T_RGB5A3],
			     j3dw_tex_height[J3DW_T_RGB5A3], px));
	nm_tree_free(t2);
	free(out);
	nm_tree_free(t);
	free(d);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("j3d_apply");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, fixture_records_read_back_as_no_change, J3DW_BMD3, J3DW_BMT3 + 1);
	tcase_add_test(tc, bti_header_reads_back_as_no_change);
	tcase_add_test(tc, corpus_records_read_back_as_no_change);
	tcase_add_test(tc, joint_edit_recomputes_inverse_binds);
	tcase_add_test(tc, material_fields_encode_in_their_types);
	tcase_add_test(tc, shared_material_entry_is_noted);
	tcase_add_test(tc, vertex_values_quantise_exactly_or_not_at_all);
	tcase_add_test(tc, every_gx_format_encodes_a_level);
	tcase_add_test(tc, bti_edits);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(suite)
