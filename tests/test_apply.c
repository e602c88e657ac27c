/* Inverses and the apply layer (lib/edit.h, export/record.h, src/edit): every record
 * file reads its own bytes back as no change; a tree nobody edits keeps no inverses for
 * its records; edits in memory encode to the bytes the fields' types say; conflicts and
 * a compressed member that outgrows its room are refused; a folder's files are each
 * applied on their own (edit/folder.h). tests/apply.sh covers the command. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edit/apply.h"
#include "edit/folder.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"
#include "formats/driver.h"
#include "lib/bytes.h"
#include "lib/edit.h"
#include "tests/fixtures/archive_writer.h"
#include "tests/fixtures/cmb_writer.h"
#include "tests/apply_util.h"
#include "tests/walk.h"

static uint8_t *records_cmb(uint32_t version, size_t *len)
{
	uint8_t *d = fx_cmb_records(version, len);
	ck_assert_ptr_nonnull(d);
	return d;
}

static nm_tree *editable_tree(const uint8_t *d, size_t len)
{
	return apply_editable_tree(d, len, "r.cmb");
}

static const uint32_t versions[] = { 6, 10, 12, 15 };

START_TEST(fixture_records_read_back_as_no_change)
{
	size_t len;
	uint8_t *d = records_cmb(versions[_i], &len);
	nm_tree *t = editable_tree(d, len);
	/* a material, a combiner, two bones, positions and texture coordinates */
	check_own_bytes(t, "fixture", 6);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(corpus_records_read_back_as_no_change)
{
	static const char *const exts[] = { ".cmb", NULL };
	check_corpus_own_bytes("cmb", exts, 1);
}
END_TEST

START_TEST(no_record_inverses_unless_editable)
{
	size_t len;
	uint8_t *d = records_cmb(10, &len);
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(d, len, "r.cmb", &t, &err), NM_OK);
	nm_node *n;
	nm_inverse_fn fn;
	void *ctx, *arg;
	ck_assert_int_eq(nm_resolve(t, "/mats/0.txt", &n, &err), NM_OK);
	ck_assert(!nm_node_inverse(t, n, &fn, &ctx, &arg));
	/* A slice's inverse is the tree's own: nothing to keep. */
	ck_assert_int_eq(nm_resolve(t, "/mats/raw.bin", &n, &err), NM_OK);
	ck_assert(nm_node_inverse(t, n, &fn, &ctx, &arg));
	ck_assert_int_eq(nm_resolve(t, "/mesh.obj", &n, &err), NM_OK);
	ck_assert(!nm_node_inverse(t, n, &fn, &ctx, &arg));
	nm_tree_free(t);
	free(d);
}
END_TEST

/* Each kind of field encodes in its own type at its own offset (CMB v10: materials at
 * their chunk's offset + 0x0C; FORMATS.md 4.4). */
START_TEST(fields_encode_in_their_types)
{
	static const struct {
		const char *path, *key, *value;
		const char *field;      /* the line as the new model shows it */
	} cases[] = {
		{ "/mats/0.txt", "texture0_wrap_s", "0x8370", "texture0_wrap_s: MIRRORED_REPEAT (0x8370)" },
		{ "/mats/0.txt", "texture0_wrap_s", "33648", "texture0_wrap_s: MIRRORED_REPEAT (0x8370)" },
		{ "/mats/0.txt", "texture0_wrap_s", "unknown (0x1234)", "texture0_wrap_s: unknown (0x1234)" },
		{ "/mats/0.txt", "polygon_offset_units", "-32768", "polygon_offset_units: -32768" },
		{ "/mats/0.txt", "unknown_13a", "0xbeef", "unknown_13a: 0xbeef" },
		{ "/mats/0.txt", "blend_color", "-0 1e-45 -inf nan(0x412345)", "blend_color: -0 1e-45 -inf nan(0x412345)" },
		{ "/mats/0.txt", "combiner_buffer_color", "0.1 1.0 1e+30 3.4028235e+38", "combiner_buffer_color: 0.1 1 1e+30 3.4028235e+38" },
		{ "/mats/0.txt", "combiners", "-1 0 -1 -1 -1 -1", "combiners: -1 0 -1 -1 -1 -1" },
		{ "/mats/0.txt", "distribution0_lut_index", "-128", "distribution0_lut_index: -128" },
		{ "/skl/bones/1.txt", "id", "4095", "id: 4095" },
		{ "/skl/bones/1.txt", "parent", "-1", "parent: -1" },
		{ "/mats/combiners/0.txt", "constant_index", "4294967295", "constant_index: 4294967295" },
	};
	size_t len;
	uint8_t *d = records_cmb(10, &len);
	nm_tree *t = editable_tree(d, len);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t out_len, problems;
		uint8_t *out = apply_one(t, cases[i].path, cases[i].key, cases[i].value, &out_len,
					 &problems);
		ck_assert_msg(out, "%s: %s refused", cases[i].key, cases[i].value);
		ck_assert_uint_eq(out_len, len);
		nm_tree *t2 = editable_tree(out, out_len);
		size_t n;
		char *text = walk_read(t2, cases[i].path, &n);
		ck_assert_msg(strstr(text, cases[i].field), "%s not in\n%s", cases[i].field, text);
		/* Nothing else of the file changed: the bytes differ only in the field. */
		size_t diff = 0;
		for (size_t k = 0; k < len; k++)
			diff += out[k] != d[k];
		ck_assert_uint_ge(diff, 1);
		ck_assert_uint_le(diff, 16); /* four floats at most */
		free(text);
		nm_tree_free(t2);
		free(out);
	}
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(values_out_of_their_types_are_refused)
{
	static const struct { const char *key, *value; } cases[] = {
		{ "fog", "256" }, { "fog", "-1" }, { "polygon_offset_units", "32768" },
		{ "fog", "1.5" }, { "fog", "0x" }, { "fog", "" }, { "cull_mode", "unknown" },
		{ "cull_mode", "BACK (0x2)" }, { "blend_equation_rgb", "FUNC_ADD extra" },
		{ "blend_color", "1 2 3" }, { "blend_color", "1 2 3 4 5" },
		{ "blend_color", "1e39 0 0 0" }, { "blend_color", "0.1000000001 0 0 0" },
		{ "fog", "010x" },
	};
	size_t len;
	uint8_t *d = records_cmb(10, &len);
	nm_tree *t = editable_tree(d, len);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t out_len, problems;
		uint8_t *out = apply_one(t, "/mats/0.txt", cases[i].key, cases[i].value,
					 &out_len, &problems);
		ck_assert_msg(!out, "%s: %s was encoded", cases[i].key, cases[i].value);
		ck_assert_uint_eq(problems, 1);
	}
	nm_tree_free(t);
	free(d);
}
END_TEST

/* Every line, one after another (notes and changes), into ctx (4096 bytes). */
static void all_lines(const char *line, void *ctx)
{
	size_t at = strlen(ctx);
	snprintf((char *)ctx + at, 4096 - at, "%s\n", line);
}

/* mats/0.txt and mats/raw.bin both edited: the same bytes alike is fine, differently a
 * conflict naming both. */
START_TEST(conflicting_edits_are_refused)
{
	size_t len;
	uint8_t *d = records_cmb(10, &len);
	nm_tree *t = editable_tree(d, len);
	for (int differ = 0; differ < 2; differ++) {
		size_t tlen, rlen;
		char *text = with_line(t, "/mats/0.txt", "fog", "1", &tlen);
		uint8_t *raw = (uint8_t *)walk_read(t, "/mats/raw.bin", &rlen);
		ck_assert_uint_eq(raw[0x0C + 0x02], 0);
		raw[0x0C + 0x02] = differ ? 7 : 1; /* fog: the material's third byte */
		nm_apply *a = nm_apply_new(t);
		nm_error err;
		ck_assert_int_eq(nm_apply_file(a, "/mats/0.txt", (uint8_t *)text, tlen, "w/mats/0.txt", &err), NM_OK);
		ck_assert_int_eq(nm_apply_file(a, "/mats/raw.bin", raw, rlen, "w/mats/raw.bin", &err), NM_OK);
		nm_out out;
		nm_out_init(&out);
		bool changed;
		nm_status s = nm_apply_encode(a, &out, &changed, &err);
		char line[1024] = "";
		apply_first_problem(a, line, sizeof line);
		if (differ) {
			ck_assert_int_eq(s, NM_E_INVAL);
			ck_assert_msg(strstr(line, "conflicts with") && strstr(line, "w/mats/0.txt") &&
				      strstr(line, "w/mats/raw.bin"), "%s", line);
		} else {
			ck_assert_int_eq(s, NM_OK);
			ck_assert_str_eq(line, "");
		}
		nm_out_free(&out);
		nm_apply_free(a);
		free(text);
		free(raw);
	}
	nm_tree_free(t);
	free(d);
}
END_TEST

/* A Yaz0 RARC whose record member is Yaz0 too: the member is compressed again and
 * fits the room its table gives it (zeros after it) or the archive is laid out again
 * around it; the whole file is compressed again around that. */
START_TEST(compressed_members_compressed_again)
{
	size_t len;
	uint8_t *cmb = records_cmb(10, &len);
	static const uint8_t pad[64] = { 0 };
	arcw_file files[] = { { "m/r.cmb", cmb, len, ARCW_YAZ0 },
			      { "m/zeros.bin", pad, sizeof pad, ARCW_STORED } };
	nm_out arc, packed;
	nm_out_init(&arc);
	nm_out_init(&packed);
	ck_assert_int_eq(arcw_rarc(files, 2, "root", &arc, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, arc.data, arc.len, &packed), 0);
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build_with(packed.data, packed.len, "a.arc", &opt, &t, &err), NM_OK);
	static const char *const values[] = { "1 2 3 4", "200 100 50 255" };
	/* A stored member: its bytes change in place inside the whole file's stream. */
	size_t zl;
	uint8_t *z = (uint8_t *)walk_read(t, "/root/m/zeros.bin", &zl);
	ck_assert_uint_eq(zl, sizeof pad);
	z[3] = 0x55;
	nm_apply *a = nm_apply_new(t);
	ck_assert_int_eq(nm_apply_file(a, "/root/m/zeros.bin", z, zl, "zeros.bin", &err), NM_OK);
	nm_out out;
	bool changed;
	ck_assert_int_eq(nm_apply_encode(a, &out, &changed, &err), NM_OK);
	nm_tree *t2;
	ck_assert_int_eq(walk_build(out.data, out.len, "a2.arc", &t2, &err), NM_OK);
	uint8_t *z2 = (uint8_t *)walk_read(t2, "/root/m/zeros.bin", &zl);
	ck_assert_mem_eq(z2, z, sizeof pad);
	free(z2);
	free(z);
	nm_tree_free(t2);
	nm_out_free(&out);
	nm_apply_free(a);
	/* The compressed member: encoded again, it fits its room (zeros after it) or the
	 * archive is laid out again around it (rarc_repack): either way it reads back. */
	for (size_t i = 0; i < 2; i++) {
		size_t tl;
		char *text = with_line(t, "/root/m/r.cmb/mats/0.txt", "diffuse_color", values[i], &tl);
		a = nm_apply_new(t);
		ck_assert_int_eq(nm_apply_file(a, "/root/m/r.cmb/mats/0.txt", (uint8_t *)text, tl, "0.txt", &err), NM_OK);
		nm_status s = nm_apply_encode(a, &out, &changed, &err);
		if (s == NM_OK && changed) {
			ck_assert_int_eq(walk_build_with(out.data, out.len, "a2.arc", &opt, &t2, &err),
					 NM_OK);
			char *back = walk_read(t2, "/root/m/r.cmb/mats/0.txt", &tl);
			char want[64];
			snprintf(want, sizeof want, "diffuse_color: %s\n", values[i]);
			ck_assert_ptr_nonnull(strstr(back, want));
			ck_assert_uint_eq(nm_apply_verify(a, t2, &err), 0);
			free(back);
			nm_tree_free(t2);
			nm_out_free(&out);
		} else {
			char line[1024] = "";
			apply_first_problem(a, line, sizeof line);
			ck_assert_msg(s == NM_OK, "%s", line);
			ck_assert_str_eq(values[i], "200 100 50 255"); /* the value it has */
		}
		nm_apply_free(a);
		free(text);
	}
	/* Bytes that compress worse (a pattern of no repeats over the member's last
	 * half): the stream no longer fits, the archive is laid out again, the member
	 * reads back and the other member is the same. */
	size_t rl;
	uint8_t *raw = (uint8_t *)walk_read(t, "/root/m/r.cmb/raw.bin", &rl);
	uint32_t x = 12345;
	for (size_t k = rl / 2; k < rl; k++) {
		x = x * 1103515245u + 12345u;
		raw[k] = (uint8_t)(x >> 24);
	}
	a = nm_apply_new(t);
	ck_assert_int_eq(nm_apply_file(a, "/root/m/r.cmb/raw.bin", raw, rl, "raw.bin", &err), NM_OK);
	ck_assert_int_eq(nm_apply_encode(a, &out, &changed, &err), NM_OK);
	char notes[4096] = "";
	nm_apply_each_change(a, all_lines, notes);
	ck_assert_msg(strstr(notes, "laid out again"), "%s", notes);
	ck_assert_int_eq(walk_build(out.data, out.len, "a3.arc", &t2, &err), NM_OK);
	size_t bl, zl2;
	uint8_t *back = (uint8_t *)walk_read(t2, "/root/m/r.cmb/raw.bin", &bl);
	ck_assert_uint_eq(bl, rl);
	ck_assert_mem_eq(back, raw, rl);
	uint8_t *zeros = (uint8_t *)walk_read(t2, "/root/m/zeros.bin", &zl2);
	ck_assert_uint_eq(zl2, sizeof pad);
	ck_assert_mem_eq(zeros, pad, sizeof pad);
	free(zeros);
	free(back);
	nm_tree_free(t2);
	nm_out_free(&out);
	nm_apply_free(a);
	free(raw);
	nm_tree_free(t);
	nm_out_free(&arc);
	nm_out_free(&packed);
	free(cmb);
}
END_TEST

/* cmb_quantize against the decoder's arithmetic (component * scale, in float): an exact
 * value is stored, anything else refused with the nearest value the type holds. */
START_TEST(vertex_values_quantise_exactly_or_not_at_all)
{
	static const struct {
		uint16_t type;
		float scale, v;
		bool ok;
		uint8_t bytes[4];
		float near;
	} cases[] = {
		{ 0x1406, 1.0f, 0.1f, true, { 0xcd, 0xcc, 0xcc, 0x3d }, 0 },
		{ 0x1406, 0.5f, 3.0f, true, { 0, 0, 0xc0, 0x40 }, 0 },
		{ 0x1402, 1.0f / 256, -0.5f, true, { 0x80, 0xff }, 0 },
		{ 0x1402, 1.0f / 256, 0.001f, false, { 0 }, 0 },
		{ 0x1402, 1.0f / 256, 200.0f, false, { 0 }, 32767.0f / 256 },
		{ 0x1401, 1.0f, 255.0f, true, { 0xff }, 0 },
		{ 0x1401, 1.0f, 256.0f, false, { 0 }, 255.0f },
		{ 0x1401, 1.0f, -1.0f, false, { 0 }, 0.0f },
		{ 0x1400, 1.0f / 127, 1.0f, true, { 0x7f }, 0 },
		{ 0x1400, 1.0f / 127, 0.5f, false, { 0 }, 64.0f / 127 },
		{ 0x1403, 2.0f, 131070.0f, true, { 0xff, 0xff }, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cmb_attrib a = { .type = cases[i].type, .scale = cases[i].scale };
		a.type_size = cmb_data_type_size(a.type);
		uint8_t out[4] = { 0 };
		float near;
		bool ok = cmb_quantize(&a, cases[i].v, out, &near);
		ck_assert_msg(ok == cases[i].ok, "case %zu", i);
		if (ok)
			ck_assert_mem_eq(out, cases[i].bytes, a.type_size);
		else if (cases[i].near)
			ck_assert_msg(near == cases[i].near, "case %zu: near %g", i, (double)near);
	}
}
END_TEST

static void write_file(const char *path, const uint8_t *d, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(d, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s", path);
	uint8_t *b = malloc(1 << 20);
	*len = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

/* The new bytes of one CMB with its mats/0.txt set to text (the tree opened alone). */
static uint8_t *applied_alone(const uint8_t *d, size_t len, const char *text, size_t tlen,
			      size_t *out_len)
{
	nm_tree *t = editable_tree(d, len);
	nm_apply *a = nm_apply_new(t);
	nm_error err;
	nm_out out;
	bool changed;
	ck_assert_int_eq(nm_apply_file(a, "/mats/0.txt", (const uint8_t *)text, tlen, "0.txt", &err), NM_OK);
	ck_assert_int_eq(nm_apply_encode(a, &out, &changed, &err), NM_OK);
	ck_assert(changed);
	uint8_t *b = nm_out_take(&out, out_len);
	nm_apply_free(a);
	nm_tree_free(t);
	return b;
}

/* A folder's two files edited: one apply over both is refused (one file out), the
 * folder's apply writes each at its path, equal to its file applied alone, and shows
 * them in a folder tree; the folder itself is not written. */
START_TEST(folder_members_apply_on_their_own)
{
	char dir[] = "/tmp/nmodel-test-folder-XXXXXX", path[512], out[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	size_t xlen, ylen;
	uint8_t *x = records_cmb(10, &xlen), *y = records_cmb(15, &ylen);
	snprintf(path, sizeof path, "%s/x.cmb", dir);
	write_file(path, x, xlen);
	snprintf(path, sizeof path, "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	snprintf(path, sizeof path, "%s/sub/y.cmb", dir);
	write_file(path, y, ylen);
	nm_options opt = *nm_options_defaults();
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(nm_open_model(dir, &opt, &t, &err), NM_OK);
	size_t tx, ty;
	char *ex = with_line(t, "/x.cmb/mats/0.txt", "fog", "1", &tx);
	char *ey = with_line(t, "/sub/y.cmb/mats/0.txt", "fog", "1", &ty);

	nm_apply *a = nm_apply_new(t);
	ck_assert_int_eq(nm_apply_file(a, "x.cmb/mats/0.txt", (uint8_t *)ex, tx, "x", &err), NM_OK);
	ck_assert_int_eq(nm_apply_file(a, "sub/y.cmb/mats/0.txt", (uint8_t *)ey, ty, "y", &err), NM_OK);
	nm_out o;
	bool changed;
	ck_assert_int_eq(nm_apply_encode(a, &o, &changed, &err), NM_E_INVAL);
	char line[1024] = "";
	apply_first_problem(a, line, sizeof line);
	ck_assert_msg(strstr(line, "edits of two files at once"), "%s", line);
	nm_apply_free(a);

	char rel[64];
	nm_folder_apply *f = nm_folder_apply_new(t, dir);
	nm_folder_member(f, "sub/y.cmb/mats/0.txt", rel, sizeof rel);
	ck_assert_str_eq(rel, "sub/y.cmb");
	nm_folder_member(f, "sub/none", rel, sizeof rel);
	ck_assert_str_eq(rel, "");
	ck_assert_int_eq(nm_folder_apply_file(f, "x.cmb/mats/0.txt", (uint8_t *)ex, tx, "x", &err), NM_OK);
	ck_assert_int_eq(nm_folder_apply_file(f, "sub/y.cmb/mats/0.txt", (uint8_t *)ey, ty, "y", &err), NM_OK);
	ck_assert_int_eq(nm_folder_apply_encode(f, NULL, &changed, &err), NM_OK);
	ck_assert(changed);
	snprintf(out, sizeof out, "%s.out", dir);
	ck_assert_int_eq(nm_folder_apply_write(f, NULL, out, &opt, &err), NM_OK);
	const char *rels[2] = { "x.cmb", "sub/y.cmb" };
	const uint8_t *orig[2] = { x, y };
	size_t olen[2] = { xlen, ylen }, tlen[2] = { tx, ty };
	const char *texts[2] = { ex, ey };
	for (int i = 0; i < 2; i++) {
		size_t want_len, got_len;
		uint8_t *want = applied_alone(orig[i], olen[i], texts[i], tlen[i], &want_len);
		snprintf(path, sizeof path, "%s/%s", out, rels[i]);
		uint8_t *got = read_file(path, &got_len);
		ck_assert_msg(got_len == want_len && memcmp(got, want, want_len) == 0,
			      "%s differs from its file applied alone", path);
		snprintf(path, sizeof path, "%s/%s", dir, rels[i]);
		uint8_t *src = read_file(path, &got_len);
		ck_assert_msg(got_len == olen[i] && memcmp(src, orig[i], olen[i]) == 0,
			      "%s was written", path);
		free(want);
		free(got);
		free(src);
	}
	nm_tree *shown;
	ck_assert_int_eq(nm_folder_apply_open(f, &opt, &shown, &err), NM_OK);
	size_t slen;
	char *now = walk_read(shown, "/sub/y.cmb/mats/0.txt", &slen);
	ck_assert_msg(slen == ty && memcmp(now, ey, ty) == 0, "the folder shows the new file");
	free(now);
	nm_tree_free(shown);
	nm_folder_apply_free(f);
	free(ex);
	free(ey);
	nm_tree_free(t);
	free(x);
	free(y);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", out, rels[i]);
		unlink(path);
		snprintf(path, sizeof path, "%s/%s", dir, rels[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/sub", out);
	rmdir(path);
	rmdir(out);
	snprintf(path, sizeof path, "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("apply");
	TCase *tc = tcase_create("apply");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, fixture_records_read_back_as_no_change, 0, 4);
	tcase_add_test(tc, corpus_records_read_back_as_no_change);
	tcase_add_test(tc, no_record_inverses_unless_editable);
	tcase_add_test(tc, fields_encode_in_their_types);
	tcase_add_test(tc, values_out_of_their_types_are_refused);
	tcase_add_test(tc, conflicting_edits_are_refused);
	tcase_add_test(tc, compressed_members_compressed_again);
	tcase_add_test(tc, vertex_values_quantise_exactly_or_not_at_all);
	tcase_add_test(tc, folder_members_apply_on_their_own);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(suite)
