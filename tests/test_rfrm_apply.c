/* Tropical Freeze model edits written back (doc/apply.md, doc/rfrm.md): every record
 * file of the fixture models (alone and in a PAK) and of the corpus CMDL/SMDL/WMDL files
 * reads its own bytes back as no change; a material and a mesh field encode in their
 * stored types and change only their bytes; derived lines are refused.
 * tests/apply_rfrm.sh runs the command on a corpus file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/apply_util.h"
#include "tests/fixtures/rfrm_writer.h"
#include "tests/walk.h"

static rfx_buf sample(const char *form, int codec, rfx_buf *meta)
{
	rfx_sample s;
	rfx_buf b = { 0 };
	rfx_sample_init(&s, 7);
	ck_assert_int_eq(rfx_sample_write(&s, form, codec, false, &b, meta), 0);
	return b;
}

/* The sample CMDL (zlib, META appended) and its tree, opened for editing. */
static nm_tree *sample_tree(rfx_buf *b)
{
	rfx_buf meta = { 0 };
	*b = sample("CMDL", RFX_ZLIB, &meta);
	ck_assert_int_eq(rfx_append_meta(b, &meta), 0);
	rfx_buf_free(&meta);
	return apply_editable_tree(b->data, b->len, "f.cmdl");
}

static const char *const forms[] = { "CMDL", "SMDL", "WMDL" };

START_TEST(fixture_records_read_back_as_no_change)
{
	rfx_buf meta = { 0 };
	rfx_buf b = sample(forms[_i % 3], _i < 3 ? RFX_ZLIB : RFX_LZSS16, &meta);
	ck_assert_int_eq(rfx_append_meta(&b, &meta), 0);
	nm_tree *t = apply_editable_tree(b.data, b.len, "f.cmdl");
	/* mtrl/0.txt and the two meshes */
	check_own_bytes(t, "fixture", 3);
	nm_tree_free(t);
	rfx_buf_free(&b);
	rfx_buf_free(&meta);
}
END_TEST

START_TEST(fixture_pak_records_read_back_as_no_change)
{
	rfx_buf meta = { 0 }, pak = { 0 };
	rfx_buf b = sample("CMDL", RFX_ZLIB, &meta);
	rfx_asset a[1] = { { "CMDL", { 0 }, "models/sample", b.data, b.len, meta.data, meta.len } };
	rfx_guid(a[0].guid, 1);
	ck_assert_int_eq(rfx_pak_write_as(a, 1, true, &pak), 0);
	nm_tree *t = apply_editable_tree(pak.data, pak.len, "f.pak");
	check_own_bytes(t, "fixture pak", 3);
	nm_tree_free(t);
	rfx_buf_free(&pak);
	rfx_buf_free(&b);
	rfx_buf_free(&meta);
}
END_TEST

START_TEST(corpus_records_read_back_as_no_change)
{
	/* every model has at least a material and a mesh */
	static const char *const exts[] = { ".cmdl", ".smdl", ".wmdl", NULL };
	check_corpus_own_bytes("cmdl", exts, 2);
}
END_TEST

/* Bytes where a and b differ (the same length). */
static size_t differing(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += a[i] != b[i];
	return n;
}

/* One line of path set to value: OUT differs from the model in at most max bytes, and
 * its tree shows the line. */
static void edit_one(const char *path, const char *key, const char *value, size_t max)
{
	rfx_buf b;
	nm_tree *t = sample_tree(&b);
	size_t len, problems;
	uint8_t *out = apply_one(t, path, key, value, &len, &problems);
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(problems, 0);
	ck_assert_uint_eq(len, b.len);
	size_t d = differing(out, b.data, len);
	ck_assert_uint_gt(d, 0);
	ck_assert_uint_le(d, max);
	nm_tree *t2 = apply_editable_tree(out, len, "f.cmdl");
	size_t n;
	char *text = walk_read(t2, path, &n);
	char line[128];
	snprintf(line, sizeof line, "\n%s: %s\n", key, value);
	ck_assert_msg(text && strstr(text, line), "%s has no '%s: %s'", path, key, value);
	free(text);
	nm_tree_free(t2);
	free(out);
	nm_tree_free(t);
	rfx_buf_free(&b);
}

START_TEST(material_and_mesh_fields_encode)
{
	edit_one("/mtrl/0.txt", "flags", "0x12345", 3);
	edit_one("/mesh/0.txt", "field_10", "513", 2);
	edit_one("/mesh/1.txt", "primitive", "TRIANGLES (0x3)", 1);
}
END_TEST

/* A changed line that cannot be encoded: no OUT, one problem. */
static void refused(const char *path, const char *key, const char *value)
{
	rfx_buf b;
	nm_tree *t = sample_tree(&b);
	size_t len, problems;
	uint8_t *out = apply_one(t, path, key, value, &len, &problems);
	ck_assert_msg(out == NULL && problems == 1, "%s: %s: %s was not refused once", path, key,
		      value);
	nm_tree_free(t);
	rfx_buf_free(&b);
}

START_TEST(derived_and_out_of_range_are_refused)
{
	refused("/mesh/0.txt", "index_count", "3");
	refused("/mesh/0.txt", "field_12", "256");
	refused("/mtrl/0.txt", "parameters", "1");
	refused("/mtrl/0.txt", "name", "other");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rfrm_apply");
	TCase *tc = tcase_create("records");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, fixture_records_read_back_as_no_change, 0, 6);
	tcase_add_test(tc, fixture_pak_records_read_back_as_no_change);
	tcase_add_test(tc, corpus_records_read_back_as_no_change);
	tcase_add_test(tc, material_and_mesh_fields_encode);
	tcase_add_test(tc, derived_and_out_of_range_are_refused);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
