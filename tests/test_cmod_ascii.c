/* ASCII CMOD: the spellings model.ascii.cmod uses read back bit for bit through our
 * reader (parse_ascii.c), so binary -> ASCII -> binary is the identity; and what the
 * reader refuses, it names by file, line and token. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
#include "lib/options.h"
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
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
