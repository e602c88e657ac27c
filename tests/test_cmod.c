/* CMOD driver: fixtures from tests/fixtures/cmod_writer.c with known data, broken files,
 * and every corpus file. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/driver.h"
#include "lib/bytes.h"
#include "tests/fixtures/cmod_writer.h"
#include "tests/walk.h"

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* stat every node as `ls -lR` would; returns the number of files. */
static size_t stat_everything(nm_tree *t, nm_node *dir)
{
	nm_node **kids;
	size_t n, files = 0;
	uint64_t size;
	nm_error err;
	ck_assert_int_eq(nm_children(t, dir, &kids, &n, &err), NM_OK);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(nm_size(t, kids[i], &size, &err), NM_OK);
		files += nm_node_type(kids[i]) != NM_NODE_DIR;
		if (nm_node_type(kids[i]) == NM_NODE_DIR)
			files += stat_everything(t, kids[i]);
	}
	return files;
}

START_TEST(sample_tree)
{
	size_t len;
	uint8_t *bytes = cmodw_sample(&len);
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(bytes, len, "sample.cmod", &t, &err), NM_OK);
	ck_assert_uint_eq(stat_everything(t, nm_tree_root(t)), 18); /* with model.glb */
	ck_assert_uint_eq(nm_tree_productions(t), 0); /* every size known without decoding */

	char *info = walk_read(t, "/info.txt", NULL);
	ck_assert_ptr_nonnull(info);
	ck_assert(strncmp(info, "format: Celestia binary CMOD\n", 29) == 0);
	ck_assert_ptr_nonnull(strstr(info, "materials: 2\nmeshes: 1\nvertices: 24\nindices: 48\ntriangles: 16\n"));
	free(info);

	char *mat = walk_read(t, "/materials/1.txt", NULL);
	ck_assert_ptr_nonnull(strstr(mat, "diffuse: 0.2 0.6 1\n"));
	ck_assert_ptr_nonnull(strstr(mat, "opacity: 0.5\n"));
	ck_assert_ptr_nonnull(strstr(mat, "blend: add (0x1)\n"));
	ck_assert_ptr_nonnull(strstr(mat, "specular_map: sample_spec.png\n"));
	ck_assert_ptr_nonnull(strstr(mat, "emissive_map: sample_glow.png\n"));
	ck_assert_ptr_nonnull(strstr(mat, "unknown_token: 1008 float1"));
	free(mat);

	char *desc = walk_read(t, "/meshes/0/vertexdesc.txt", NULL);
	ck_assert_str_eq(desc, "position f3\nnormal f3\ntexcoord0 f2\ncolor0 ub4\npointsize f1\n");
	free(desc);

	/* vertices.csv against the bytes the writer put in the file. */
	char *csv = walk_read(t, "/meshes/0/vertices.csv", NULL);
	ck_assert_ptr_nonnull(csv);
	char *line = strtok(csv, "\n");
	ck_assert_str_eq(line, "position_x,position_y,position_z,normal_x,normal_y,normal_z,"
			       "texcoord0_u,texcoord0_v,color0_r,color0_g,color0_b,color0_a,pointsize");
	const uint8_t *v = bytes + 16; /* skip the header, then find the vertex block */
	const uint8_t *vtx = NULL;
	for (size_t i = 16; i + 6 < len; i++)
		if (nm_le16(bytes + i) == 1013 && nm_le32(bytes + i + 2) == 24) {
			vtx = bytes + i + 6;
			break;
		}
	ck_assert_ptr_nonnull(vtx);
	(void)v;
	for (int row = 0; row < 24; row++) {
		line = strtok(NULL, "\n");
		ck_assert_ptr_nonnull(line);
		const uint8_t *p = vtx + row * 40;
		char *s = line;
		for (int c = 0; c < 8; c++) {
			float want = nm_le_f32(p + 4 * c), got = strtof(s, &s);
			ck_assert_msg(want == got, "row %d col %d: %g != %g", row, c, want, got);
			ck_assert(*s == ',');
			s++;
		}
		for (int c = 0; c < 4; c++) {
			ck_assert_uint_eq(strtoul(s, &s, 10), p[32 + c]);
			s++;
		}
		ck_assert(strtof(s, NULL) == nm_le_f32(p + 36));
	}
	ck_assert_ptr_null(strtok(NULL, "\n"));
	free(csv);

	char *prim = walk_read(t, "/meshes/0/primitives/1.txt", NULL);
	ck_assert_ptr_nonnull(strstr(prim, "type: tristrip (0x1)\nmaterial: 1\ncount: 6\n"));
	ck_assert_ptr_nonnull(strstr(prim, "indices:\n16 17 19 18 18 18\n"));
	free(prim);
	prim = walk_read(t, "/meshes/0/primitives/3.txt", NULL);
	ck_assert_ptr_nonnull(strstr(prim, "type: linelist (0x3)\nmaterial: -1\n"));
	ck_assert_ptr_nonnull(strstr(prim, "indices:\n 0  1\n 1  2\n"));
	free(prim);

	/* OBJ: 8 list triangles + 4 strip + 4 fan triangles, the zero-area ones that join
	 * strips included (export/triangulate.h: one rule for every count); lines and
	 * points are left out. */
	char *obj = walk_read(t, "/mesh.obj", NULL);
	size_t faces = 0, dropped = 0, verts = 0;
	for (char *l = strtok(obj, "\n"); l; l = strtok(NULL, "\n")) {
		faces += l[0] == 'f';
		dropped += l[0] == '#' && l[1] == ' ' && l[2] == ' ';
		verts += l[0] == 'v' && l[1] == ' ';
	}
	ck_assert_uint_eq(faces, 16);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_eq(verts, 24);
	free(obj);
	char *mtl = walk_read(t, "/mesh.mtl", NULL);
	ck_assert_ptr_nonnull(strstr(mtl, "newmtl material0\nKd 0.8 0.1 0.1\n"));
	ck_assert_ptr_nonnull(strstr(mtl, "map_Kd sample_diffuse.png\n"));
	free(mtl);

	char *ascii = walk_read(t, "/model.ascii.cmod", NULL);
	ck_assert(strncmp(ascii, "#celmodel__ascii\n", 17) == 0);
	/* Every property the material stores, defaults too (the fixture stores them all),
	 * in Celestia's writer's order. */
	ck_assert_ptr_nonnull(strstr(ascii, "material\ndiffuse 0.8 0.1 0.1\nemissive 0 0 0\n"
					    "specular 1 1 1\nspecpower 32\nopacity 1\n"
					    "texture0 \"sample_diffuse.png\"\nnormalmap \"sample_normal.png\"\n"
					    "end_material\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "blend add\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "vertices 24\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "\ntristrip 1 6\n16 17 19 18 18 18\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "\nsprites 1 4\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "end_mesh\n"));
	free(ascii);

	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(st.size_mismatches, 0);
	nm_tree_free(t);
	free(bytes);
}
END_TEST

/* Cutting the sample at every offset: an error, or a partial tree that never crashes and
 * never produces a file of the wrong size. */
/* nextposition (10) and scalefactor (11) have no keyword in Celestia's ASCII reader:
 * ours reads them (so that the model reads back whole), and the ASCII form has them. */
START_TEST(semantics_without_keyword)
{
	float verts[2 * 5] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	uint32_t idx[1] = { 1 };
	cmodw_mesh m = { .nattrs = 3, .semantic = { 0, 10, 11 }, .format = { 0, 2, 0 },
			 .nverts = 2, .vertices = (const uint8_t *)verts, .ngroups = 1,
			 .groups = { { 5, UINT32_MAX, 1, idx } } };
	nm_out o;
	nm_tree *t;
	nm_error err;
	nm_out_init(&o);
	cmodw_header(&o);
	cmodw_mesh_write(&o, &m);
	ck_assert_int_eq(walk_build(o.data, o.len, "sem.cmod", &t, &err), NM_OK);
	char *csv = walk_read(t, "/meshes/0/vertices.csv", NULL);
	const char *want = "position,nextposition_x,nextposition_y,nextposition_z,scalefactor\n"
			   "+1.00000000e+00,+2.00000000e+00,+3.00000000e+00,+4.00000000e+00,"
			   "+5.00000000e+00\n";
	ck_assert(strncmp(csv, want, strlen(want)) == 0);
	free(csv);
	char *ascii = walk_read(t, "/model.ascii.cmod", NULL);
	ck_assert_ptr_nonnull(strstr(ascii, "position f1\nnextposition f3\nscalefactor f1\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "vertices 2\n+1.00000000e+00 +2.00000000e+00 "
					    "+3.00000000e+00 +4.00000000e+00 +5.00000000e+00\n"));
	ck_assert_ptr_nonnull(strstr(ascii, "\npoints -1 1\n1\n"));
	free(ascii);
	/* Points are not in the OBJ. */
	char *obj = walk_read(t, "/mesh.obj", NULL);
	ck_assert_ptr_null(strstr(obj, "\nf "));
	free(obj);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

START_TEST(truncation_everywhere)
{
	size_t len;
	uint8_t *bytes = cmodw_sample(&len);
	size_t built = 0, clean = 0;
	for (size_t cut = 0; cut < len; cut++) {
		nm_tree *t;
		nm_error err;
		if (walk_build(bytes, cut, "cut.cmod", &t, &err) != NM_OK) {
			ck_assert_msg(strncmp(err.msg, "cut.cmod: ", 10) == 0, "%s", err.msg);
			continue;
		}
		built++;
		walk_stats st;
		walk_tree(t, &st);
		ck_assert_uint_eq(st.size_mismatches, 0);
		/* A partial tree says why it is partial, unless the cut fell exactly at the
		 * end of a record: then it is a valid file. */
		char *e = walk_read(t, "/error.txt", NULL);
		if (e)
			ck_assert_msg(strstr(e, "ends inside") || strstr(e, "past the end"), "%s", e);
		else
			clean++;
		ck_assert_uint_eq(st.failed, 0);
		free(e);
		nm_tree_free(t);
	}
	ck_assert_uint_gt(built, 0); /* cuts after the first material keep it */
	/* The bare header (an empty model) and after each material, each also with one more
	 * byte (a token the file ends inside: ignored with a note, as Celestia does). */
	ck_assert_uint_eq(clean, 6);
	free(bytes);
}
END_TEST

static nm_status build_bytes(nm_out *o, nm_tree **t, nm_error *err)
{
	return walk_build(o->data, o->len, "bad.cmod", t, err);
}

START_TEST(unknown_top_level_token)
{
	nm_out o;
	nm_tree *t;
	nm_error err;
	nm_out_init(&o);
	cmodw_header(&o);
	cmodw_u16(&o, 1008);
	ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
	ck_assert_str_eq(err.msg, "bad.cmod: top level at 0x10: unknown token 1008 "
				  "(expected material 1001 or mesh 1009)");
	nm_out_free(&o);

	/* An ASCII file is read by its grammar: a bad token is named with its line. */
	nm_out_init(&o);
	nm_out_str(&o, "#celmodel__ascii\nmaterial\nspecular 1 x 1\nend_material\n");
	ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
	ck_assert_str_eq(err.msg, "bad.cmod:3: expected a number after 'specular', found 'x'");
	nm_out_free(&o);
}
END_TEST

static void one_triangle_mesh(nm_out *o, uint32_t nverts, uint32_t bad_index)
{
	float verts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	uint32_t idx[3] = { 0, 1, bad_index };
	cmodw_mesh m = { .nattrs = 1, .semantic = { 0 }, .format = { 2 }, .nverts = nverts,
			 .vertices = (const uint8_t *)verts, .ngroups = 1,
			 .groups = { { 0, UINT32_MAX, 3, idx } } };
	cmodw_header(o);
	cmodw_mesh_write(o, &m);
}

START_TEST(index_out_of_range)
{
	nm_out o;
	nm_tree *t;
	nm_error err;
	nm_out_init(&o);
	one_triangle_mesh(&o, 3, 3);
	ck_assert_int_eq(build_bytes(&o, &t, &err), NM_OK); /* indices are read lazily */
	ck_assert_ptr_null(walk_read(t, "/meshes/0/primitives/0.txt", NULL));
	ck_assert_ptr_null(walk_read(t, "/mesh.obj", NULL));
	ck_assert_ptr_null(walk_read(t, "/model.ascii.cmod", NULL));
	nm_node *n;
	char buf[16];
	size_t got;
	nm_resolve(t, "/meshes/0/primitives/0.txt", &n, &err);
	ck_assert_int_eq(nm_read(t, n, 0, buf, sizeof buf, &got, &err), NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "index 3 is not below the vertex count 3"));
	ck_assert_ptr_nonnull(strstr(err.msg, "bad.cmod: indices at 0x"));
	/* The vertices are fine and still readable. */
	char *csv = walk_read(t, "/meshes/0/vertices.csv", NULL);
	ck_assert_uint_eq(count_lines(csv), 4);
	free(csv);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

START_TEST(absurd_counts)
{
	/* 2^31 vertices of 12 bytes in a 60-byte file: refused at mount, nothing allocated. */
	nm_out o;
	nm_tree *t;
	nm_error err;
	nm_out_init(&o);
	one_triangle_mesh(&o, 3, 0);
	for (size_t i = 16; i + 6 < o.len; i++)
		if (nm_le16(o.data + i) == 1013) {
			uint32_t huge = 1u << 31;
			memcpy(o.data + i + 2, &huge, 4);
			break;
		}
	ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "2147483648 vertices of 12 bytes run past the end"));
	nm_out_free(&o);

	/* An index count of 2^32-1. */
	nm_out_init(&o);
	one_triangle_mesh(&o, 3, 0);
	size_t at = o.len - 2 - 12 - 4; /* the group's count field */
	memset(o.data + at, 0xff, 4);
	ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "indices of 4 bytes run past the end"));
	nm_out_free(&o);
}
END_TEST

/* 4000 empty materials (8 bytes each in the file, far more in memory): read whole under
 * the default limits; under a 64 KiB max_file_size the material array stops growing at
 * the limit, and what was read before it is shown with the reason. */
START_TEST(records_under_the_limit)
{
	nm_out o;
	nm_out_init(&o);
	cmodw_header(&o);
	for (int i = 0; i < 4000; i++) {
		cmodw_u16(&o, 1001);
		cmodw_u16(&o, 1002);
	}
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(o.data, o.len, "many.cmod", &t, &err), NM_OK);
	char *info = walk_read(t, "/info.txt", NULL);
	ck_assert_ptr_nonnull(strstr(info, "materials: 4000\n"));
	ck_assert_ptr_null(strstr(info, "error:"));
	free(info);
	nm_tree_free(t);

	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 64 << 10;
	ck_assert_int_eq(walk_build_with(o.data, o.len, "many.cmod", &opt, &t, &err), NM_OK);
	info = walk_read(t, "/info.txt", NULL);
	ck_assert_ptr_nonnull(info);
	const char *n = strstr(info, "materials: ");
	ck_assert_ptr_nonnull(n);
	long kept = strtol(n + 11, NULL, 10);
	ck_assert_msg(kept > 0 && kept < 4000, "%ld materials kept", kept);
	ck_assert_msg(strstr(info, "error: many.cmod: materials at 0x") &&
		      strstr(info, "more than max_file_size"), "%s", info);
	free(info);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* A file whose first material starts with TOKEN and a u16 VALUE (0x12 and 0x14). */
static void material_start(nm_out *o, uint16_t token, uint16_t value)
{
	nm_out_init(o);
	cmodw_header(o);
	cmodw_u16(o, 1001);
	cmodw_u16(o, token);
	cmodw_u16(o, value);
}

START_TEST(bad_values)
{
	static const struct { uint16_t tok, a, b; const char *msg; } cases[] = {
		{ 1015, 3, 0, "material 0 at 0x12: unknown blend mode 3" },
		{ 1007, 4, 5, "material 0 at 0x12: unknown texture semantic 4" },
		{ 1003, 1, 0, "material 0 at 0x14: a material colour has value type 1, expected 7" },
		{ 1009, 0, 0, "material 0 at 0x12: token 1009 is not allowed inside a material" },
		{ 1999, 9, 0, "material 0 at 0x12: unknown token 1999 has unknown value type 9" },
		{ 1016, 3, 0, "material 0 at 0x12: unknown illumination model 3 (Cosmographia's "
			      "token 1016)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		nm_out o;
		nm_tree *t;
		nm_error err;
		material_start(&o, cases[i].tok, cases[i].a);
		cmodw_u16(&o, cases[i].b);
		cmodw_u32(&o, 0);
		cmodw_u16(&o, 1002);
		ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
		ck_assert_msg(strstr(err.msg, cases[i].msg), "%s", err.msg);
		nm_out_free(&o);
	}
}
END_TEST

/* Cosmographia's token 1016 (its CmodLoader: a bare u16 illumination model, as real
 * Cassini, Huygens and Juno models carry it before their colours): read, shown, and the
 * geometry after it kept. An unknown token with the same bare value is skipped by a
 * guessed type; the error that follows names it. */
START_TEST(cosmographia_illumination)
{
	static const float brown[3] = { 0.25f, 0.2f, 0.05f };
	for (int known = 1; known >= 0; known--) {
		nm_out o;
		nm_tree *t;
		nm_error err;
		material_start(&o, known ? 1016 : 1017, 2);
		cmodw_u16(&o, 1003);
		cmodw_u16(&o, 7);
		for (int k = 0; k < 3; k++)
			cmodw_f32(&o, brown[k]);
		cmodw_u16(&o, 1002);
		float verts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
		uint32_t idx[3] = { 0, 1, 2 };
		cmodw_mesh m = { .nattrs = 1, .semantic = { 0 }, .format = { 2 }, .nverts = 3,
				 .vertices = (const uint8_t *)verts, .ngroups = 1,
				 .groups = { { 0, 0, 3, idx } } };
		cmodw_mesh_write(&o, &m);
		if (!known) {
			ck_assert_int_eq(build_bytes(&o, &t, &err), NM_E_FORMAT);
			ck_assert_str_eq(err.msg, "bad.cmod: material 0 at 0x1e: unknown token 52429 "
					 "has unknown value type 15948 (after unknown token 1017 "
					 "at 0x12, skipped as if its value had type 2)");
			nm_out_free(&o);
			continue;
		}
		ck_assert_int_eq(build_bytes(&o, &t, &err), NM_OK);
		char *mat = walk_read(t, "/materials/0.txt", NULL);
		ck_assert_ptr_nonnull(mat);
		ck_assert_msg(strstr(mat, "diffuse: 0.25 0.2 0.05\n"), "%s", mat);
		ck_assert_msg(strstr(mat, "illumination: blinn_phong_reflective (0x2)\n"), "%s", mat);
		ck_assert_msg(strstr(mat, "note: illumination model at 0x12: Cosmographia's token "
				      "1016"), "%s", mat);
		ck_assert_ptr_null(strstr(mat, "unknown_token"));
		free(mat);
		char *info = walk_read(t, "/info.txt", NULL);
		ck_assert_msg(strstr(info, "meshes: 1\n") && strstr(info, "errors: 0\n"), "%s", info);
		free(info);
		char *obj = walk_read(t, "/mesh.obj", NULL);
		ck_assert_msg(strstr(obj, "\nf "), "%s", obj);
		free(obj);
		char *ascii = walk_read(t, "/model.ascii.cmod", NULL);
		ck_assert_msg(strstr(ascii, "\n# illumination blinn_phong_reflective: "), "%s",
			      ascii);
		free(ascii);
		nm_tree_free(t);
		nm_out_free(&o);
	}
}
END_TEST

/* Every corpus CMOD: mounts, all files have their announced size, and vertices.csv has as
 * many rows as the binary's vertex count (read here straight from the file). */
START_TEST(corpus_files)
{
	char *dir = walk_corpus_dir("cmod");
	if (!dir)
		return;
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".cmod"))
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		nm_tree *t;
		nm_error err;
		ck_assert_msg(nm_open_model(path, NULL, &t, &err) == NM_OK, "%s", err.msg);
		walk_stats st;
		walk_tree(t, &st);
		ck_assert_msg(st.failed == 0 && st.size_mismatches == 0, "%s", e->d_name);

		/* Independent count: find the first 1013 token after a 1012 and read the u32. */
		FILE *f = fopen(path, "rb");
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		uint8_t *b = malloc((size_t)size);
		fseek(f, 0, SEEK_SET);
		ck_assert_int_eq(fread(b, 1, (size_t)size, f), size);
		fclose(f);
		uint32_t want = 0;
		for (long i = 16; i + 8 < size; i += 2)
			if (nm_le16(b + i) == 1012 && nm_le16(b + i + 2) == 1013) {
				want = nm_le32(b + i + 4);
				break;
			}
		free(b);
		char *csv = walk_read(t, "/meshes/0/vertices.csv", NULL);
		ck_assert_ptr_nonnull(csv);
		ck_assert_uint_eq(count_lines(csv) - 1, want);
		free(csv);
		printf("corpus %s: %zu files, %llu bytes, %u vertices in mesh 0\n", e->d_name,
		       st.files, (unsigned long long)st.bytes, want);
		nm_tree_free(t);
		n++;
	}
	closedir(d);
	ck_assert_int_gt(n, 0);
	free(dir);
}
END_TEST

static Suite *cmod_suite(void)
{
	Suite *s = suite_create("cmod");
	TCase *tc = tcase_create("cmod");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, sample_tree);
	tcase_add_test(tc, semantics_without_keyword);
	tcase_add_test(tc, truncation_everywhere);
	tcase_add_test(tc, unknown_top_level_token);
	tcase_add_test(tc, cosmographia_illumination);
	tcase_add_test(tc, index_out_of_range);
	tcase_add_test(tc, absurd_counts);
	tcase_add_test(tc, records_under_the_limit);
	tcase_add_test(tc, bad_values);
	tcase_add_test(tc, corpus_files);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(cmod_suite)
