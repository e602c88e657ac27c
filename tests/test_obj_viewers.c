/* mesh.obj and mesh.mtl as viewers read them (issue 12), each shown on the corpus file
 * whose viewer report named the problem:
 *   - map_Kd is the texture the CMB combiners take the colour from, not slot 0
 *     (fin_lm3d_Shadowma.cmb: slot 0 is a white shadow map);
 *   - one face form in a whole file (fin_mkdd_babyluigi_course.bmd mixed v/vt and
 *     v/vt/vn, and VTK drew 80 of its 7,263 faces);
 *   - vertex colours as `v x y z r g b` (fin_pikmin2_flower_red.bmd imported grey);
 *   - an `o` per mesh or shape (Blender made one object);
 *   - a CMOD map with a wildcard extension names a file a viewer can open (galileo.cmod).
 * Exits 77 without the corpus. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/check_main.h"
#include "tests/walk.h"

static char corpus[4096];

static nm_tree *open_corpus(const char *rel)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", corpus, rel);
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(path, NULL, &t, &err) == NM_OK, "%s: %s", rel, err.msg);
	return t;
}

static char *cat(nm_tree *t, const char *path)
{
	char *s = walk_read(t, path, NULL);
	ck_assert_msg(s != NULL, "%s does not read", path);
	return s;
}

START_TEST(cmb_colour_texture)
{
	nm_tree *t = open_corpus("cmb/fin_lm3d_Shadowma.cmb");
	char *mtl = cat(t, "mesh.mtl");
	/* Every material reads (CONSTANT + TEXTURE0) * TEXTURE1 or MODULATE(.., TEXTURE1):
	 * the colour is binding 1, shadowma_00, never the shadow map in binding 0. */
	ck_assert_uint_eq(walk_count_lines(mtl, "map_Kd tex/shadowma_00.png"), 3);
	ck_assert_ptr_null(strstr(mtl, "map_Kd tex/shadowmap.png"));
	free(mtl);
	nm_tree_free(t);
	/* A model whose first stage is MODULATE(TEXTURE0, ..) keeps slot 0. */
	t = open_corpus("cmb/fin_oot3d_zelda_cow.cmb");
	mtl = cat(t, "mesh.mtl");
	char *m0 = cat(t, "mats/0.txt");
	const char *name = strstr(m0, "texture0_name: ");
	ck_assert_ptr_nonnull(name);
	char want[128];
	snprintf(want, sizeof want, "map_Kd tex/%.*s.png", (int)strcspn(name + 15, "\n"), name + 15);
	ck_assert_msg(strstr(mtl, want), "%s not in\n%s", want, mtl);
	free(m0);
	free(mtl);
	nm_tree_free(t);
}
END_TEST

START_TEST(one_face_form)
{
	nm_tree *t = open_corpus("bmd/fin_mkdd_babyluigi_course.bmd");
	char *obj = cat(t, "mesh.obj");
	unsigned faces = 0;
	size_t width = 0;
	for (char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (p[0] != 'f')
			continue;
		size_t len = strcspn(p, "\n");
		unsigned slashes = 0;
		for (size_t k = 0; k < len; k++)
			slashes += p[k] == '/';
		/* v/vt/vn in every corner of every face (the file has both kinds somewhere). */
		ck_assert_uint_eq(slashes, 6);
		ck_assert_ptr_null(memmem(p, len, "//", 2));
		if (!width)
			width = len;
		ck_assert_uint_eq(len, width);
		faces++;
	}
	ck_assert_uint_eq(faces, 7263);
	/* The placeholders the groups without texcoords or normals point at. */
	ck_assert_uint_gt(walk_count_lines(obj, "vt "), 0);
	ck_assert_uint_gt(walk_count_lines(obj, "vn "), 0);
	free(obj);
	nm_tree_free(t);
}
END_TEST

START_TEST(vertex_colours)
{
	nm_tree *t = open_corpus("bmd/fin_pikmin2_flower_red.bmd");
	char *obj = cat(t, "mesh.obj");
	unsigned v = 0, coloured = 0;
	for (char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "v ", 2))
			continue;
		float x[7];
		int n = sscanf(p + 2, "%f %f %f %f %f %f %f", &x[0], &x[1], &x[2], &x[3], &x[4],
			       &x[5], &x[6]);
		/* Six numbers on the line (sscanf runs into the next line's tag otherwise). */
		ck_assert_int_eq(n, 6);
		for (int c = 3; c < 6; c++)
			ck_assert(x[c] >= 0.0f && x[c] <= 1.0f);
		coloured += x[3] != x[4] || x[4] != x[5];
		v++;
	}
	ck_assert_uint_gt(v, 0);
	/* A red flower: most vertices are not grey. */
	ck_assert_uint_gt(coloured, v / 2);
	free(obj);
	nm_tree_free(t);
}
END_TEST

START_TEST(objects)
{
	/* Every corpus CMOD has one mesh (galileo: 13 groups in one object). */
	static const char *const files[] = { "cmb/fin_lm3d_Shadowma.cmb", "bmd/fin_sms_fisha.bmd",
					     "cmod/galileo.cmod" };
	static const unsigned min_objects[] = { 2, 2, 1 };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		nm_tree *t = open_corpus(files[i]);
		char *obj = cat(t, "mesh.obj");
		unsigned o = walk_count_lines(obj, "o "), g = walk_count_lines(obj, "g ");
		ck_assert_msg(o >= min_objects[i] && o <= g, "%s: %u objects, %u groups", files[i],
			      o, g);
		/* An object begins before any of its groups. */
		const char *first_o = strstr(obj, "\no "), *first_g = strstr(obj, "\ng ");
		ck_assert(first_o && first_g && first_o < first_g);
		free(obj);
		nm_tree_free(t);
	}
}
END_TEST

START_TEST(cmod_wildcard)
{
	nm_tree *t = open_corpus("cmod/galileo.cmod");
	char *mtl = cat(t, "mesh.mtl");
	ck_assert_uint_gt(walk_count_lines(mtl, "map_Kd galileo_tex_02.png"), 0);
	for (const char *p = mtl; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, "map_", 4) == 0 || strncmp(p, "norm ", 5) == 0)
			ck_assert_msg(memchr(p, '*', strcspn(p, "\n")) == NULL, "%.60s", p);
	/* The model's own name stays in the tree's material text. */
	free(mtl);
	nm_tree_free(t);
}
END_TEST

static Suite *obj_suite(void)
{
	Suite *s = suite_create("obj_viewers");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cmb_colour_texture);
	tcase_add_test(tc, one_face_form);
	tcase_add_test(tc, vertex_colours);
	tcase_add_test(tc, objects);
	tcase_add_test(tc, cmod_wildcard);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	snprintf(corpus, sizeof corpus, "%s/../shared/corpus", top ? top : ".");
	char probe[8192];
	snprintf(probe, sizeof probe, "%s/cmb/fin_lm3d_Shadowma.cmb", corpus);
	FILE *f = fopen(probe, "rb");
	if (!f) {
		printf("test_obj_viewers: no corpus at %s: skipped\n", corpus);
		return 77;
	}
	fclose(f);
	return nm_check_run(obj_suite());
}
