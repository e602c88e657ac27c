/* ASCII CMOD: the spellings model.ascii.cmod uses read back bit for bit through our
 * reader (parse_ascii.c), so binary -> ASCII -> binary is the identity; and what the
 * reader refuses, it names by file, line and token. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
#include "lib/edit.h"
#include "lib/options.h"
#include "tests/fixtures/cmod_writer.h"
#include "tests/walk.h"

static float bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The model's model.ascii.cmod read back as binary. */
static void ascii_of(const nm_out *bin, char **ascii, size_t *len)
{
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(bin->data, bin->len, "x.cmod", &t, &err), NM_OK);
	*ascii = walk_read(t, "/model.ascii.cmod", len);
	ck_assert_ptr_nonnull(*ascii);
	nm_tree_free(t);
}

static void assert_round_trip(const nm_out *bin, char **ascii_out)
{
	char *ascii;
	size_t len;
	ascii_of(bin, &ascii, &len);
	nm_out back;
	nm_out_init(&back);
	cmod_notes notes = { 0 };
	cmod_ascii_fault fault;
	nm_error err;
	nm_status s = cmod_ascii_to_binary("x.cmod", (const uint8_t *)ascii, len, &back, &notes,
					   &fault, &err);
	ck_assert_msg(s == NM_OK, "%s", err.msg);
	ck_assert_uint_eq(notes.n, 0);
	ck_assert_uint_eq(back.len, bin->len);
	ck_assert_msg(memcmp(back.data, bin->data, bin->len) == 0, "the bytes differ");
	nm_out_free(&back);
	if (ascii_out)
		*ascii_out = ascii;
	else
		free(ascii);
}

/* -0, infinities, NaNs with payloads (a signalling one too), in materials and in
 * vertices; texture names with quotes, backslashes, control bytes, UTF-8 and a byte
 * that is not UTF-8; nextposition, which only our reader knows. */
START_TEST(spellings_round_trip)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_write(&o, CMOD_MAGIC, CMOD_MAGIC_LEN);
	cmod_material mat = {
		.stored = CMOD_HAS_DIFFUSE | CMOD_HAS_SPECULAR | CMOD_HAS_EMISSIVE |
			  CMOD_HAS_SPECPOWER | CMOD_HAS_OPACITY | CMOD_HAS_BLEND,
		.diffuse = { -0.0f, bits(0x7fa12345), bits(0x7f800001) },
		.specular = { INFINITY, -INFINITY, bits(0xffc00000) },
		.emissive = { 0.1f, bits(0x00000001), -3.4028235e38f },
		.specpower = bits(0x7fc00000), .opacity = 1.0f, .blend = 0,
		.texture = { "a\"b\\c.png", "tab\there\x01\x7f.png", "caf\xc3\xa9 \xff\xfe.png",
			     "line\nbreak.*" },
	};
	cmod_bin_material(&o, &mat);
	cmod_attr attrs[3] = { { CMOD_POSITION, CMOD_F3, 0 }, { CMOD_COLOR0, CMOD_UB4, 12 },
			       { CMOD_NEXTPOSITION, CMOD_F1, 16 } };
	cmod_bin_mesh_begin(&o, attrs, 3, 2);
	float v0[3] = { -0.0f, INFINITY, bits(0xff812345) };
	float v1[3] = { bits(0x7f800002), 1e-45f, 16777217.0f };
	for (int i = 0; i < 3; i++)
		cmod_bin_f32(&o, v0[i]);
	nm_out_write(&o, "\x00\x7f\x80\xff", 4);
	cmod_bin_f32(&o, -0.0f);
	for (int i = 0; i < 3; i++)
		cmod_bin_f32(&o, v1[i]);
	nm_out_write(&o, "\x01\x02\x03\x04", 4);
	cmod_bin_f32(&o, NAN);
	cmod_bin_group(&o, CMOD_TRILIST, UINT32_MAX, 3);
	for (uint32_t i = 0; i < 3; i++)
		cmod_bin_u32(&o, i % 2);
	cmod_bin_u16(&o, CMOD_END_MESH);

	char *ascii;
	assert_round_trip(&o, &ascii);
	/* The words themselves, as doc/cmod.md lists them. */
	ck_assert_ptr_nonnull(strstr(ascii, "diffuse -0 nan(0x212345) nan(0x000001)\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "specular inf -inf -nan\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "specpower nan\nopacity 1\nblend normal\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "texture0 \"a\\\"b\\\\c.png\"\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "normalmap \"tab\\u0009here\\u0001\\u007f.png\"\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "specularmap \"caf\xc3\xa9 \\xff\\xfe.png\"\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "emissivemap \"line\\u000abreak.*\"\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "nextposition f1\n"));
	ck_assert_msg(strstr(ascii, "\n-0.00000000e+00            +inf  -nan(0x012345)"
					    "   0 127 128 255 -0.00000000e+00\n"), "%s", ascii);
	free(ascii);
	nm_out_free(&o);
}
END_TEST

/* Material values are read as Celestia reads them, through a double: every float,
 * however spelled, comes back. Random bit patterns, many models' worth. */
START_TEST(material_values_through_a_double)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	nm_out o;
	nm_out_init(&o);
	nm_out_write(&o, CMOD_MAGIC, CMOD_MAGIC_LEN);
	for (int i = 0; i < 20000; i++) {
		cmod_material mat = { .stored = CMOD_HAS_DIFFUSE | CMOD_HAS_SPECPOWER };
		float *f[4] = { &mat.diffuse[0], &mat.diffuse[1], &mat.diffuse[2], &mat.specpower };
		for (int k = 0; k < 4; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			*f[k] = bits((uint32_t)x);
		}
		cmod_bin_material(&o, &mat);
	}
	assert_round_trip(&o, NULL);
	nm_out_free(&o);
}
END_TEST

/* Each refusal names the file, the line and the token. */
START_TEST(refusals_name_line_and_token)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "#celmodel__ascii\nmaterial\nspecular 1 x 1\nend_material\n",
		  "t.cmod:3: expected a number after 'specular', found 'x'" },
		{ "#celmodel_binary\n", "t.cmod:1: expected \"#celmodel__ascii\" at the start" },
		{ "#celmodel__ascii\nmaterial\nblend fancy\nend_material\n",
		  "t.cmod:3: expected normal, add or premultiplied after 'blend', found 'fancy'" },
		{ "#celmodel__ascii\nmaterial\ntexture0 \"a\\qb\"\nend_material\n",
		  "t.cmod:3: expected a quoted texture name after 'texture0': the string '\"a\\q' "
		  "does not end, or has an escape other than \\\" \\\\ \\n \\uXXXX \\xHH" },
		{ "#celmodel__ascii\nmaterial\nend_material\nmesh\nvertexdesc\nposition f5\n",
		  "t.cmod:6: expected f1, f2, f3, f4 or ub4 after 'position', found 'f5'" },
		{ "#celmodel__ascii\nmesh\nvertexdesc\nposition f1\nend_vertexdesc\n"
		  "vertices 4000000000\n0 0\n",
		  "t.cmod:6: 4000000000 vertex values cannot fit in the 5 bytes left in the file" },
		{ "#celmodel__ascii\nmesh\nvertexdesc\ncolor0 ub4\nend_vertexdesc\n"
		  "vertices 1\n1 2 300 4\nend_mesh\n",
		  "t.cmod:7: an integer 0 to 255 '300' after 'color0 of mesh 0 vertex 0' is more "
		  "than 255" },
		{ "#celmodel__ascii\nmesh\nvertexdesc\nposition f1\nend_vertexdesc\n"
		  "vertices 1\n1e39\nend_mesh\n",
		  "t.cmod:7: '1e39' after 'position of mesh 0 vertex 0' is out of the float range "
		  "(Celestia refuses it; write inf or -inf for an infinity)" },
		{ "#celmodel__ascii\nmesh\nvertexdesc\nposition f1\nend_vertexdesc\n"
		  "vertices 1\n1\ntrilist -1 3\n0 0\n1\nend_mesh\n",
		  "t.cmod:10: index 1 of a trilist group is not below the vertex count 1" },
		{ "#celmodel__ascii\nmesh\nvertexdesc\nposition f1\nend_vertexdesc\n"
		  "vertices 1\n1\ntriangles 0 3\n",
		  "t.cmod:8: expected a primitive group (trilist, tristrip, trifan, linelist, "
		  "linestrip, points, sprites) or end_mesh after 'the vertices', found 'triangles'" },
		{ "#celmodel__ascii\nmaterial\ndiffuse 1 1 1\n",
		  "t.cmod:4: expected a material property or end_material after 'material', found "
		  "the end of the file" },
		{ "#celmodel__ascii\n\n@\n", "t.cmod:3: expected material or mesh after 'the "
		  "header', found '@'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		nm_out bin;
		nm_out_init(&bin);
		cmod_notes notes = { 0 };
		cmod_ascii_fault fault;
		nm_error err;
		nm_status s = cmod_ascii_to_binary("t.cmod", (const uint8_t *)cases[i].text,
						   strlen(cases[i].text), &bin, &notes, &fault, &err);
		ck_assert_int_eq(s, NM_E_FORMAT);
		ck_assert_str_eq(err.msg, cases[i].msg);
		ck_assert_uint_ne(fault.line, 0);
		cmod_notes_free(&notes);
		nm_out_free(&bin);
	}
}
END_TEST

/* What Celestia lets pass and the binary form cannot keep: an unknown material property
 * (three numbers, skipped) and an empty texture name; said in info.txt. */
START_TEST(lenient_as_celestia)
{
	const char *text = "#celmodel__ascii # header comment\nmaterial\nshininess 1 2 3\n"
			   "texture0 \"\"\ndiffuse +.5 1. 2e-1\nend_material\n";
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(text, strlen(text), "l.cmod", &t, &err), NM_OK);
	char *info = walk_read(t, "/info.txt", NULL);
	ck_assert_ptr_nonnull(strstr(info, "format: Celestia ASCII CMOD\n"));
	ck_assert_ptr_nonnull(strstr(info, "oddity: line 3: unknown material property "
					   "'shininess' and its three numbers skipped"));
	ck_assert_ptr_nonnull(strstr(info, "oddity: line 4: texture0 name left out"));
	free(info);
	char *mat = walk_read(t, "/materials/0.txt", NULL);
	ck_assert_ptr_nonnull(strstr(mat, "diffuse: 0.5 1 0.2\n"));
	free(mat);
	nm_tree_free(t);
}
END_TEST

/* A vertex count the text can hold still passes through nm_alloc's limit: refused
 * before the buffer is made. */
START_TEST(limit_before_allocation)
{
	nm_out text;
	nm_out_init(&text);
	nm_out_str(&text, "#celmodel__ascii\nmesh\nvertexdesc\nposition f4\nend_vertexdesc\n"
			  "vertices 100000\n");
	for (int i = 0; i < 400000; i++)
		nm_out_str(&text, "0 ");
	nm_options opt = *nm_options_defaults();
	opt.max_file_size = 4096;
	nm_out bin;
	nm_out_init(&bin);
	bin.opt = &opt;
	cmod_notes notes = { 0 };
	cmod_ascii_fault fault;
	nm_error err;
	ck_assert_int_eq(cmod_ascii_to_binary("big.cmod", text.data, text.len, &bin, &notes,
					      &fault, &err), NM_E_LIMIT);
	ck_assert_msg(strstr(err.msg, "past max_file_size") != NULL, "%s", err.msg);
	ck_assert_uint_le(bin.cap, 4096);
	nm_out_free(&bin);
	nm_out_free(&text);
}
END_TEST

/* The sample model opened for editing, one file's text and its inverse. */
typedef struct inverse_of {
	nm_tree *t;
	uint8_t *model;
	char *text;
	size_t len;
	nm_inverse_fn fn;
	void *ctx, *arg;
} inverse_of;

static void open_inverse(inverse_of *x, const char *path)
{
	size_t len;
	nm_options opt = *nm_options_defaults();
	nm_error err;
	nm_node *node;
	opt.editable = true;
	x->model = cmodw_sample(&len);
	ck_assert_int_eq(walk_build_with(x->model, len, "s.cmod", &opt, &x->t, &err), NM_OK);
	x->text = walk_read(x->t, path, &x->len);
	ck_assert_int_eq(nm_resolve(x->t, path, &node, &err), NM_OK);
	ck_assert(nm_node_inverse(x->t, node, &x->fn, &x->ctx, &x->arg));
}

static void close_inverse(inverse_of *x)
{
	free(x->text);
	nm_tree_free(x->t);
	free(x->model);
}

/* Every material text of the sample (which stores every property), read back with its
 * own bytes, changes nothing; a changed colour is one patch of its 12 bytes. */
START_TEST(material_records_read_back)
{
	for (int i = 0; i < 2; i++) {
		char path[32];
		inverse_of x;
		nm_error err;
		snprintf(path, sizeof path, "/materials/%d.txt", i);
		open_inverse(&x, path);
		nm_edit ed;
		nm_edit_init(&ed);
		ck_assert_int_eq(x.fn(x.ctx, x.arg, (const uint8_t *)x.text, x.len, &ed, &err), NM_OK);
		ck_assert_uint_eq(ed.npatches, 0);
		ck_assert_uint_eq(ed.nrefusals, 0);
		char *d = strstr(x.text, "diffuse: ");
		ck_assert_ptr_nonnull(d);
		char edited[4096];
		snprintf(edited, sizeof edited, "%.*sdiffuse: -0 inf nan(0x000001)%s",
			 (int)(d - x.text), x.text, strchr(d, '\n'));
		ck_assert_int_eq(x.fn(x.ctx, x.arg, (const uint8_t *)edited, strlen(edited), &ed,
				      &err), NM_OK);
		ck_assert_msg(ed.nrefusals == 0, "%s", ed.nrefusals ? ed.refusals[0].why : "");
		ck_assert_uint_eq(ed.npatches, 1);
		ck_assert_uint_eq(ed.patches[0].len, 12);
		ck_assert(memcmp(ed.patches[0].bytes, "\0\0\0\x80\0\0\x80\x7f\x01\0\x80\x7f", 12) == 0);
		nm_edit_free(&ed);
		close_inverse(&x);
	}
}
END_TEST

/* vertices.csv: a ub4 colour component is one byte, a float four, each written where the
 * vertex holds it; 300 is no ub4, and a row more is a layout change. */
START_TEST(vertex_rows_read_back)
{
	inverse_of x;
	nm_error err;
	open_inverse(&x, "/meshes/0/vertices.csv");
	char *csv = x.text;
	size_t n = x.len;
	/* Row 2 (the first vertex): color0_g 255 -> 7, pointsize 1 -> -0. */
	char *row = strchr(csv, '\n') + 1;
	const char *was = "  0,255,  0,255,+1.00000000e+00\n";
	char *at = strstr(row, was);
	ck_assert_ptr_nonnull(at);
	static const struct { const char *to; size_t patches, refusals; } cases[] = {
		{ "  0,7,  0,255,-0\n", 2, 0 },
		{ "  0,300,  0,255,+1.00000000e+00\n", 0, 1 },
		{ NULL, 0, 1 },
	};
	for (size_t i = 0; i < 3; i++) {
		nm_out e;
		nm_out_init(&e);
		if (cases[i].to) {
			nm_out_write(&e, csv, (size_t)(at - csv));
			nm_out_str(&e, cases[i].to);
			nm_out_str(&e, at + strlen(was));
		} else {
			nm_out_write(&e, csv, n);
			nm_out_str(&e, "1,2,3,4,5,6,7,8,9,10,11,12,13\n");
		}
		nm_edit ed;
		nm_edit_init(&ed);
		ck_assert_int_eq(x.fn(x.ctx, x.arg, e.data, e.len, &ed, &err), NM_OK);
		ck_assert_uint_eq(ed.npatches, cases[i].patches);
		ck_assert_uint_eq(ed.nrefusals, cases[i].refusals);
		if (i == 0) {
			ck_assert_uint_eq(ed.patches[0].len, 1);
			ck_assert_uint_eq(ed.patches[0].bytes[0], 7);
			ck_assert_str_eq(ed.patches[0].field, "color0_g");
			/* +1 is 00 00 80 3f, -0 00 00 00 80: the bytes that change. */
			ck_assert_uint_eq(ed.patches[1].len, 2);
			ck_assert(memcmp(ed.patches[1].bytes, "\0\x80", 2) == 0);
			ck_assert_str_eq(ed.patches[1].field, "pointsize");
		}
		if (i == 1)
			ck_assert_str_eq(ed.refusals[0].why, "300 is not an integer 0 to 255 (ub4)");
		nm_edit_free(&ed);
		nm_out_free(&e);
	}
	close_inverse(&x);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cmod_ascii");
	TCase *tc = tcase_create("cmod_ascii");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, spellings_round_trip);
	tcase_add_test(tc, material_values_through_a_double);
	tcase_add_test(tc, refusals_name_line_and_token);
	tcase_add_test(tc, lenient_as_celestia);
	tcase_add_test(tc, limit_before_allocation);
	tcase_add_test(tc, material_records_read_back);
	tcase_add_test(tc, vertex_rows_read_back);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
