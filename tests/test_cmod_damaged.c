/* CMOD files that Celestia's binary loader accepts although they are odd (a primitive
 * group naming a material past the count, an empty texture name, a trailing byte,
 * repeated attributes...): we keep going as it does and name the oddity in info.txt and
 * in the record's own text. Also NaN vertex values, whose bits must survive the text.
 * Every tree here is walked whole: sizes exact, nothing fails. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/fixtures/cmod_writer.h"
#include "tests/check_expect.h"

static const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
static const uint32_t tri_idx[3] = { 0, 1, 2 };

/* A mesh of one triangle, positions f3, with a trilist group per material index. */
static void triangle_mesh(nm_out *o, const uint32_t *materials, unsigned ngroups)
{
	cmodw_mesh m = { .nattrs = 1, .semantic = { 0 }, .format = { 2 }, .nverts = 3,
			 .vertices = (const uint8_t *)tri, .ngroups = ngroups };
	for (unsigned g = 0; g < ngroups; g++)
		m.groups[g] = (cmodw_group){ 0, materials[g], 3, tri_idx };
	cmodw_mesh_write(o, &m);
}

static const cmodw_material plain = { .diffuse = { 1, 0, 0 }, .specpower = 1, .opacity = 1,
				      .blend = -1 };

static nm_tree *build_clean(nm_out *o)
{
	return expect_clean_build(o->data, o->len, "odd.cmod");
}



/* Group 1 names material 7 of 1: parsing goes on to the second mesh. */
START_TEST(material_index_past_the_count)
{
	static const uint32_t mats[2] = { 0, 7 };
	nm_out o;
	nm_out_init(&o);
	cmodw_header(&o);
	cmodw_material_write(&o, &plain);
	triangle_mesh(&o, mats, 2);
	triangle_mesh(&o, mats, 1);
	nm_tree *t = build_clean(&o);
	static const expectation want[] = {
		HAS("/info.txt", "meshes: 2\n"),
		HAS("/info.txt", "oddities: 1\noddity: mesh 0: primitive group 1 uses material 7 "
		    "of 1: Celestia draws it without a material\n"),
		HAS("/meshes/0/header.txt", "note: primitive group 1 uses material 7 of 1"),
		HAS("/meshes/0/primitives/1.txt", "material: 7\nnote: no such material: Celestia "
		    "draws the group without one\n"),
		LACKS("/meshes/0/primitives/0.txt", "note:"),
		HAS("/meshes/1/primitives/0.txt", "material: 0\n"),
		/* The ASCII form keeps the index (Celestia's ASCII reader takes any index
		 * >= -1); the OBJ gives that group no material rather than one mesh.mtl
		 * lacks. */
		HAS("/model.ascii.cmod", "\ntrilist 7 3\n"),
		HAS("/model.ascii.cmod", "# primitive group 1 uses material 7 of 1"),
		HAS("/mesh.obj", "g mesh0_group0\nusemtl material0\n"),
		LACKS("/mesh.obj", "material7"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* An empty texture name: left out, as Celestia does; the rest of the material and the
 * model are read. Also a name with a NUL byte (left out) and one Celestia refuses but
 * we can show (kept, with a note). */
START_TEST(texture_names_celestia_skips)
{
	static const uint32_t mats[2] = { 0, 1 };
	cmodw_material empty = plain, odd = plain;
	empty.texture[0] = "";
	empty.texture[1] = "normal.png";
	odd.texture[2] = "maps/spec.png";
	nm_out o;
	nm_out_init(&o);
	cmodw_header(&o);
	cmodw_material_write(&o, &empty);
	cmodw_material_write(&o, &odd);
	/* Material 2: an emissive map named "a\0b", then an opacity. */
	cmodw_u16(&o, 1001);
	cmodw_u16(&o, 1007);
	cmodw_u16(&o, 3);
	cmodw_u16(&o, 5);
	cmodw_u16(&o, 3);
	nm_out_write(&o, "a\0b", 3);
	cmodw_u16(&o, 1006);
	cmodw_u16(&o, 1);
	cmodw_f32(&o, 0.25f);
	cmodw_u16(&o, 1002);
	triangle_mesh(&o, mats, 2);
	nm_tree *t = build_clean(&o);
	static const expectation want[] = {
		HAS("/info.txt", "materials: 3\nmeshes: 1\n"),
		HAS("/info.txt", "oddities: 3\n"),
		HAS("/materials/0.txt", "normal_map: normal.png\n"),
		LACKS("/materials/0.txt", "diffuse_map"),
		HAS("/materials/0.txt", "note: texture0 name \"\" at 0x"),
		HAS("/materials/0.txt", "left out, as Celestia does (it is empty)\n"),
		HAS("/materials/1.txt", "specular_map: maps/spec.png\n"),
		HAS("/materials/1.txt", "note: specularmap name \"maps/spec.png\" at 0x"),
		HAS("/materials/1.txt", ": Celestia does not load it (it refuses '/' in file "
		    "names)\n"),
		HAS("/materials/2.txt", "opacity: 0.25\n"),
		HAS("/materials/2.txt", "note: emissivemap name \"a\\x00b\" at 0x"),
		LACKS("/materials/2.txt", "emissive_map"),
		HAS("/model.ascii.cmod", "normalmap \"normal.png\"\n# texture0 name \"\" at 0x"),
		LACKS("/mesh.mtl", "map_Kd"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* A byte after the last record: Celestia's load() stops quietly at a token the file ends
 * inside. A material after a mesh, no vertices, no attributes, semantics 10/11 and a
 * repeated attribute are refused or resolved by Celestia: we show the file and say so. */
START_TEST(other_oddities)
{
	static const uint32_t mats[1] = { 0 };
	nm_out o;
	nm_out_init(&o);
	cmodw_header(&o);
	triangle_mesh(&o, mats, 1);
	cmodw_material_write(&o, &plain);
	/* Mesh 1: position f3 twice (the second wins in Celestia), nextposition f3. */
	float two[2 * 9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const uint32_t zeros[3] = { 0, 0, 0 };
	cmodw_mesh twice = { .nattrs = 3, .semantic = { 0, 0, 10 }, .format = { 2, 2, 2 },
			     .nverts = 1, .vertices = (const uint8_t *)two, .ngroups = 1,
			     .groups = { { 0, 0, 3, zeros } } };
	cmodw_mesh_write(&o, &twice);
	cmodw_mesh none = { .nattrs = 0 };
	cmodw_mesh_write(&o, &none);
	nm_out_char(&o, 'x');
	nm_tree *t = build_clean(&o);
	static const expectation want[] = {
		HAS("/info.txt", "meshes: 3\n"),
		HAS("/info.txt", "oddities: 6\n"),
		HAS("/info.txt", "oddity: 1 byte at 0x"),
		HAS("/info.txt", "after the last record: ignored, as Celestia does\n"),
		HAS("/info.txt", "oddity: material 0 at 0x"),
		HAS("/info.txt", "comes after a mesh: Celestia refuses the file\n"),
		HAS("/meshes/1/header.txt", "appears again: Celestia uses the last one\n"),
		HAS("/meshes/1/header.txt", "note: attribute nextposition at 0x"),
		HAS("/meshes/2/header.txt", "note: no vertex attributes: Celestia refuses the file\n"
		    "note: no vertices: Celestia refuses the file\n"),
		HAS("/meshes/1/vertices.csv", "position_x,position_y,position_z,position~2_x,"
		    "position~2_y,position~2_z,nextposition_x,"),
		/* The OBJ takes the position Celestia would: the second. */
		HAS("/mesh.obj", "v +4.00000000e+00 +5.00000000e+00 +6.00000000e+00\n"),
		{ NULL, NULL, 0 },
	};
	expect_all(t, want);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* NaN vertex values keep sign and payload in vertices.csv and model.ascii.cmod. */
START_TEST(nan_bits_survive)
{
	static const uint32_t bits[3] = { 0xffc12345, 0x7fc00001, 0x7fc00000 };
	float v[3];
	memcpy(v, bits, sizeof v);
	uint32_t idx[1] = { 0 };
	cmodw_mesh m = { .nattrs = 1, .semantic = { 0 }, .format = { 2 }, .nverts = 1,
			 .vertices = (const uint8_t *)v, .ngroups = 1,
			 .groups = { { 5, UINT32_MAX, 1, idx } } };
	nm_out o;
	nm_out_init(&o);
	cmodw_header(&o);
	cmodw_mesh_write(&o, &m);
	nm_tree *t = build_clean(&o);
	/* Each value right-aligned in the 15 bytes every CSV float takes. */
	const char *a = " -nan(0x412345)", *b = "  nan(0x400001)", *c = "            nan";
	char want[128];
	snprintf(want, sizeof want, "vertices 1\n%s %s %s\n", a, b, c);
	expect(t, "/model.ascii.cmod", want);
	snprintf(want, sizeof want, "\n%s,%s,%s\n", a, b, c);
	expect(t, "/meshes/0/vertices.csv", want);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

static Suite *cmod_damaged_suite(void)
{
	Suite *s = suite_create("cmod_damaged");
	TCase *tc = tcase_create("cmod_damaged");
	tcase_add_test(tc, material_index_past_the_count);
	tcase_add_test(tc, texture_names_celestia_skips);
	tcase_add_test(tc, other_oddities);
	tcase_add_test(tc, nan_bits_survive);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(cmod_damaged_suite)
