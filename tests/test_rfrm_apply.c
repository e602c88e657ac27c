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
	/* head/header.txt, mtrl/0.txt, the two meshes and the six attribute CSVs */
	check_own_bytes(t, "fixture", 10);
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
	check_own_bytes(t, "fixture pak", 10);
	nm_tree_free(t);
	rfx_buf_free(&pak);
	rfx_buf_free(&b);
	rfx_buf_free(&meta);
}
END_TEST

START_TEST(corpus_records_read_back_as_no_change)
{
	/* every model has a header, at least a material, a mesh and positions.csv */
	static const char *const exts[] = { ".cmdl", ".smdl", ".wmdl", NULL };
	check_corpus_own_bytes("cmdl", exts, 4);
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
	edit_one("/head/header.txt", "bounding_box", "-1 -2 -3 4 5 6.5", 24);
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
	refused("/head/header.txt", "opaque_meshes", "7");
	refused("/head/header.txt", "size", "7");
}
END_TEST

/* path's CSV with cell col of data row 0 (the second line) set to text. */
static char *with_cell(nm_tree *t, const char *path, unsigned col, const char *text,
		       size_t *len)
{
	size_t n;
	char *csv = walk_read(t, path, &n);
	ck_assert_ptr_nonnull(csv);
	char *row = strchr(csv, '\n') + 1, *cell = row;
	for (unsigned k = 0; k < col; k++)
		cell = strchr(cell, ',') + 1;
	size_t cell_len = strcspn(cell, ",\n");
	char *out = malloc(n + strlen(text) + 1);
	ck_assert_ptr_nonnull(out);
	size_t head = (size_t)(cell - csv);
	memcpy(out, csv, head);
	strcpy(out + head, text);
	strcpy(out + head + strlen(text), cell + cell_len);
	*len = strlen(out);
	free(csv);
	return out;
}

/* The sample in zlib without META (the walk places its buffers: a stream of another
 * length lays the model out again), or stored with META appended (the same length). */
static nm_tree *sample_tree_as(rfx_buf *b, bool with_meta)
{
	rfx_buf meta = { 0 };
	*b = sample("CMDL", with_meta ? RFX_STORED : RFX_ZLIB, &meta);
	if (with_meta)
		ck_assert_int_eq(rfx_append_meta(b, &meta), 0);
	rfx_buf_free(&meta);
	return apply_editable_tree(b->data, b->len, "f.cmdl");
}

START_TEST(a_position_encodes_in_its_compressed_buffer)
{
	rfx_buf b;
	nm_tree *t = sample_tree_as(&b, _i == 1);
	size_t len, out_len, problems;
	char *csv = with_cell(t, "/vbuf/0/positions.csv", 1, "+2.50000000e-01", &len);
	uint8_t *out = apply_bytes(t, "/vbuf/0/positions.csv", (uint8_t *)csv, len, &out_len,
				   &problems);
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(problems, 0);
	nm_tree *t2 = apply_editable_tree(out, out_len, "f.cmdl");
	size_t n;
	char *now = walk_read(t2, "/vbuf/0/positions.csv", &n);
	ck_assert_uint_eq(n, len);
	ck_assert_mem_eq(now, csv, len);
	free(now);
	nm_tree_free(t2);
	free(out);
	free(csv);
	nm_tree_free(t);
	rfx_buf_free(&b);
}
END_TEST

/* A value the component's format cannot hold: no OUT, one problem. */
static void cell_refused(const char *path, unsigned col, const char *text)
{
	rfx_buf b;
	nm_tree *t = sample_tree_as(&b, false);
	size_t len, out_len, problems;
	char *csv = with_cell(t, path, col, text, &len);
	uint8_t *out = apply_bytes(t, path, (uint8_t *)csv, len, &out_len, &problems);
	ck_assert_msg(out == NULL && problems == 1, "%s: %s was not refused once", path, text);
	free(csv);
	nm_tree_free(t);
	rfx_buf_free(&b);
}

START_TEST(values_a_format_cannot_hold_are_refused)
{
	cell_refused("/vbuf/0/texcoords0.csv", 0, "0.1");      /* RG16_FLOAT */
	cell_refused("/vbuf/0/colors.csv", 0, "0.5");          /* RGBA8_UNORM */
	cell_refused("/vbuf/0/bone_weights.csv", 0, "2");      /* RGBA16_UNORM */
	cell_refused("/vbuf/0/bone_indices.csv", 0, "256");    /* RGBA8_UINT */
	cell_refused("/vbuf/0/positions.csv", 0, "x");
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
	tcase_add_loop_test(tc, a_position_encodes_in_its_compressed_buffer, 0, 2);
	tcase_add_test(tc, values_a_format_cannot_hold_are_refused);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
