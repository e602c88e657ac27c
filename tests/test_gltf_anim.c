/* Animations in model.glb (src/export/gltf_anim.h, gltf_rig.h) over the J3D fixture
 * under each scaling rule (fixtures/anim_glb.h): the size announced at mount is the
 * size produced, every production gives the same bytes, the BIN chunk grows by exactly
 * the animations' samples (times shared), a glb without animations is the model's own,
 * the JSON names the extensions it uses and leaves out what it cannot write, and the
 * joints' worlds at rest follow the rule (jnt1/ and the glb's inverse binds). The
 * validator and the animated worlds: tests/gltf_anim.sh. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures/anim_glb.h"
#include "formats/j3d/j3d.h"
#include "export/gltf.h"
#include "export/gltf_rig.h"
#include "lib/out.h"
#include "lib/tree_internal.h"

static uint8_t *must_read(nm_tree *t, const char *path, size_t *len)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	ck_assert_msg(nm_resolve(t, path, &n, &err) == NM_OK, "%s: %s", path, err.msg);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	uint8_t *buf = malloc(size + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = 0, k;
	while (got < size) {
		ck_assert_msg(nm_read(t, n, got, buf + got, size - got, &k, &err) == NM_OK,
			      "%s: %s", path, err.msg);
		ck_assert_uint_gt(k, 0);
		got += k;
	}
	ck_assert_int_eq(nm_read(t, n, got, buf, 1, &k, &err), NM_OK);
	ck_assert_uint_eq(k, 0);
	buf[size] = 0;
	*len = size;
	return buf;
}

static nm_tree *tree(int rule)
{
	nm_error err;
	nm_tree *t = anim_glb_tree(rule, &err);
	ck_assert_msg(t, "rule %d: %s", rule, err.msg);
	return t;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The JSON chunk as a string (malloc'd) and the BIN chunk's length. */
static char *json_of(const uint8_t *glb, size_t len, uint32_t *bin_len)
{
	ck_assert_uint_ge(len, 28);
	ck_assert_uint_eq(le32(glb + 8), len);
	uint32_t jl = le32(glb + 12);
	ck_assert_uint_le(20 + (uint64_t)jl + 8, len);
	char *j = malloc(jl + 1);
	memcpy(j, glb + 20, jl);
	j[jl] = 0;
	*bin_len = le32(glb + 20 + jl);
	ck_assert_uint_eq(20 + (uint64_t)jl + 8 + *bin_len, len);
	return j;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
		n++;
	return n;
}

/* Announced size = bytes produced, and two more productions give the same bytes. */
START_TEST(test_size_and_bytes)
{
	nm_tree *t = tree(_i);
	size_t len;
	uint8_t *glb = must_read(t, "anim/model.glb", &len);
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "anim/model.glb", &n, &err), NM_OK);
	for (int k = 0; k < 2; k++) {
		nm_out o;
		nm_out_init(&o);
		ck_assert_int_eq(n->produce(n->ctx, n->arg, &o, &err), NM_OK);
		ck_assert_uint_eq(o.len, len);
		ck_assert_msg(memcmp(o.data, glb, len) == 0, "production %d differs", k);
		nm_out_free(&o);
	}
	free(glb);
	nm_tree_free(t);
}
END_TEST

/* The BIN chunk grows by the samples alone: times once per distinct length (21, 1 and
 * 10 frames), then each channel's values (floats; visibility one byte a frame, padded
 * to 4). */
START_TEST(test_bin_layout)
{
	nm_tree *t = tree(0);
	size_t len, len0;
	uint8_t *glb = must_read(t, "anim/model.glb", &len);
	uint8_t *plain = must_read(t, "model.glb", &len0);
	uint32_t bin, bin0;
	char *j = json_of(glb, len, &bin), *j0 = json_of(plain, len0, &bin0);
	const uint64_t times = 4 * (21 + 1 + 10);
	const uint64_t swing = 21 * 12 /* root S */ + 21 * (12 + 16 + 12) /* arm T R S */ +
			       16 /* hand R, constant */;
	const uint64_t blink = 10 * 16 + 10 * 8 + 10 * 4 + 8 + 12;
	ck_assert_uint_eq(bin, bin0 + times + swing + blink);
	/* The model's own bytes come first, unchanged. */
	uint32_t jl = le32(glb + 12), jl0 = le32(plain + 12);
	ck_assert_int_eq(memcmp(glb + 28 + jl, plain + 28 + jl0, bin0), 0);
	ck_assert_uint_eq(count(j, "\"input\":"), 5 + 5);
	ck_assert_uint_eq(count(j, "\"type\":\"SCALAR\",\"min\":[0],\"max\":["), 3);
	free(j);
	free(j0);
	free(glb);
	free(plain);
	nm_tree_free(t);
}
END_TEST

START_TEST(test_json)
{
	nm_tree *t = tree(_i);
	size_t len;
	uint8_t *glb = must_read(t, "anim/model.glb", &len);
	uint32_t bin;
	char *j = json_of(glb, len, &bin);
	ck_assert_ptr_nonnull(strstr(j, ",\"extensionsUsed\":[\"KHR_animation_pointer\","
				     "\"KHR_node_visibility\",\"KHR_texture_transform\"]"));
	ck_assert_ptr_null(strstr(j, "extensionsRequired"));
	ck_assert_uint_eq(count(j, "\"KHR_texture_transform\":{}"), 1);
	ck_assert_uint_eq(count(j, "\"KHR_node_visibility\":{\"visible\":true}"), 1);
	ck_assert_uint_eq(count(j, "{\"name\":\"swing\",\"channels\""), 1);
	ck_assert_uint_eq(count(j, "{\"name\":\"blink\",\"channels\""), 1);
	/* The channel on material 99 (the model has 2) is left out. */
	ck_assert_ptr_null(strstr(j, "/materials/99"));
	ck_assert_uint_eq(count(j, "/materials/0/pbrMetallicRoughness/baseColorFactor"), 1);
	ck_assert_uint_eq(count(j, "extensions/KHR_texture_transform/"), 3);
	ck_assert_uint_eq(count(j, "/extensions/KHR_node_visibility/visible\""), 1);
	ck_assert_uint_eq(count(j, "\"interpolation\":\"STEP\""), 1);
	/* Helpers: Softimage's arm and hand (under the non-uniform root), Maya's
	 * scale-compensate hand; basic none. */
	static const size_t helpers[3] = { 0, 2, 1 };
	ck_assert_uint_eq(count(j, "_helper\""), helpers[_i]);
	free(j);
	free(glb);
	nm_tree_free(t);
}
END_TEST

/* No animations: the same bytes as the model's own glb, through the same call. */
START_TEST(test_without_animations)
{
	nm_tree *t = tree(_i);
	nm_node *glb, *dir = nm_dir(t, nm_tree_root(t), "plain");
	nm_error err;
	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(nm_resolve(t, "model.glb", &glb, &err), NM_OK);
	ck_assert_int_eq(j3d_add_gltf_clips(t, dir, glb->ctx, NULL, NULL), NM_OK);
	size_t a, b;
	uint8_t *x = must_read(t, "model.glb", &a), *y = must_read(t, "plain/model.glb", &b);
	ck_assert_uint_eq(a, b);
	ck_assert_int_eq(memcmp(x, y, a), 0);
	uint32_t bin;
	char *j = json_of(x, a, &bin);
	ck_assert_ptr_null(strstr(j, "animations"));
	ck_assert_ptr_null(strstr(j, "extensions"));
	free(j);
	free(x);
	free(y);
	nm_tree_free(t);
}
END_TEST

/* jnt1/joints/N.txt's world matrix is the game's under the rule (fixture: computed by
 * the game's recursion, independently of the driver). */
START_TEST(test_rest_worlds)
{
	nm_tree *t = tree(_i);
	float srt[ANIM_GLB_JOINTS][9];
	double world[ANIM_GLB_JOINTS][12];
	anim_glb_srt(_i, -1, srt);
	anim_glb_game_worlds(_i, srt, world);
	for (int jn = 0; jn < ANIM_GLB_JOINTS; jn++) {
		char path[64];
		size_t len;
		snprintf(path, sizeof path, "jnt1/joints/%d.txt", jn);
		char *txt = (char *)must_read(t, path, &len);
		for (int r = 0; r < 3; r++) {
			char key[32];
			snprintf(key, sizeof key, "world_matrix_row%d: ", r);
			const char *at = strstr(txt, key);
			ck_assert_msg(at, "%s: no %s", path, key);
			at += strlen(key);
			for (int c = 0; c < 4; c++) {
				char *end;
				double v = strtod(at, &end);
				ck_assert_msg(end != at, "%s row %d: no number %d", path, r, c);
				double want = world[jn][4 * r + c];
				ck_assert_msg(fabs(v - want) <= 1e-5 * fmax(1, fabs(want)),
					      "rule %d joint %d [%d][%d]: %.9g, the game %.9g", _i,
					      jn, r, c, v, want);
				at = end;
			}
		}
		free(txt);
	}
	nm_tree_free(t);
}
END_TEST

static nm_status constant(void *ctx, size_t anim, const nm_gltf_channel *ch, uint32_t frame,
			  float out[4], nm_error *err)
{
	(void)ctx, (void)anim, (void)ch, (void)frame, (void)err;
	out[0] = out[1] = out[2] = out[3] = 0.5f;
	return NM_OK;
}

/* Channels the glb cannot hold are left out of the size as of the JSON: an animation of
 * nothing but those adds nothing, one good channel among them costs what it costs
 * alone. (The model: the J3D driver's, 3 joints, 2 groups, 2 materials with textures.) */
START_TEST(test_left_out)
{
	nm_tree *t = tree(0);
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "model.glb", &n, &err), NM_OK);
	nm_gltf_model m = *(const nm_gltf_model *)n->arg;
	const nm_gltf_channel bad[] = {
		{ .path = NM_GLTF_NPATHS, .frames = 5 },
		{ .path = NM_GLTF_SCALE, .index = 0, .frames = 0 },
		{ .path = NM_GLTF_SCALE, .index = 3, .frames = 5 },
		{ .path = NM_GLTF_SCALE, .node_kind = NM_GLTF_NODE_HELPER, .index = 1, .frames = 5 },
		{ .path = NM_GLTF_VISIBLE, .node_kind = NM_GLTF_NODE_GROUP, .index = 2, .frames = 5 },
		{ .path = NM_GLTF_SCALE, .node_kind = 7, .index = 0, .frames = 5 },
		{ .path = NM_GLTF_UV_OFFSET, .index = 2, .frames = 5 },
		{ .path = NM_GLTF_BASE_COLOR, .index = UINT32_MAX, .frames = 5 },
	};
	const nm_gltf_channel good = { .path = NM_GLTF_ROTATION, .index = 2, .frames = 5 };
	nm_gltf_channel mixed[sizeof bad / sizeof *bad + 1];
	memcpy(mixed, bad, sizeof bad);
	mixed[sizeof bad / sizeof *bad] = good;
	const nm_gltf_animation only_bad = { "bad", 0, bad, sizeof bad / sizeof *bad };
	const nm_gltf_animation with_good = { "good", 0, mixed, sizeof mixed / sizeof *mixed };
	const nm_gltf_animation alone = { "good", 0, &good, 1 };
	uint64_t plain = nm_gltf_size(&m);
	nm_gltf_anim a = { .anims = &only_bad, .nanims = 1, .sample = constant };
	m.anim = &a;
	ck_assert_uint_eq(nm_gltf_size(&m), plain);
	a.anims = &alone;
	uint64_t one = nm_gltf_size(&m);
	ck_assert_uint_gt(one, plain);
	a.anims = &with_good;
	ck_assert_uint_eq(nm_gltf_size(&m), one);
	/* info.txt's account: the animation with nothing kept, each reason once; none for
	 * one that keeps a channel; an animation of no channels has its own reason. */
	const nm_gltf_animation three[] = { only_bad, with_good, { "empty", 0, NULL, 0 } };
	a.anims = three;
	a.nanims = 3;
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_gltf_anim_left_out(&m, &o, &err), NM_OK);
	nm_out_char(&o, '\0');
	ck_assert_str_eq((const char *)o.data,
			 "glb_animation_left_out: bad: it has no frames; its texture transforms are "
			 "on materials whose base-colour texture the glb does not have; its "
			 "materials are not in the glb; the joints, helpers or shapes it moves are "
			 "not nodes of the glb\n"
			 "glb_animation_left_out: empty: nothing it animates has a glTF property "
			 "here (a texture swap, a TEV or combiner colour, a texture other than the "
			 "base colour's)\n");
	nm_out_free(&o);
	nm_tree_free(t);
}
END_TEST

/* nm_gltf_uv_transform: glTF's T * R * S with its outputs moves points where the game's
 * matrix (conjugated by the v flip) does, when rotation or anisotropy is absent. */
START_TEST(test_uv_transform)
{
	static const struct { float s[2], r, t[2], c[2]; } cases[] = {
		{ { 2, 0.5f }, 0, { 0.25f, -0.125f }, { 0.5f, 0.5f } },
		{ { 1.5f, 1.5f }, 0.7f, { 0.1f, 0.3f }, { 0.5f, 0.5f } },
		{ { 0.75f, 0.75f }, -2.5f, { -1, 2 }, { 1, 0 } },
		{ { 1, 3 }, 0, { 0, 0 }, { 0, 0 } },
	};
	static const float pts[][2] = { { 0, 0 }, { 1, 0 }, { 0.3f, 0.8f }, { -2, 5 } };
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		for (int flip = 0; flip < 2; flip++) {
			float off[2], rot, sc[2];
			nm_gltf_uv_transform(cases[k].s, cases[k].r, cases[k].t, cases[k].c, flip,
					     off, &rot, sc);
			for (size_t p = 0; p < sizeof pts / sizeof *pts; p++) {
				/* The game: x in its own coordinates, moved by its matrix. */
				double x[2] = { pts[p][0], flip ? 1 - pts[p][1] : pts[p][1] };
				double cr = cos(cases[k].r), sr = sin(cases[k].r);
				double d[2] = { x[0] - cases[k].c[0], x[1] - cases[k].c[1] };
				double g[2] = {
					cases[k].s[0] * (cr * d[0] - sr * d[1]) + cases[k].c[0] + cases[k].t[0],
					cases[k].s[1] * (sr * d[0] + cr * d[1]) + cases[k].c[1] + cases[k].t[1] };
				if (flip)
					g[1] = 1 - g[1];
				/* glTF: offset + R(rotation) * (scale * uv). */
				double u = sc[0] * pts[p][0], v = sc[1] * pts[p][1];
				double h[2] = { off[0] + cos(rot) * u - sin(rot) * v,
						off[1] + sin(rot) * u + cos(rot) * v };
				for (int i = 0; i < 2; i++)
					ck_assert_msg(fabs(g[i] - h[i]) < 1e-5, "case %zu flip %d point "
						      "%zu: game %g, glTF %g", k, flip, p, g[i], h[i]);
			}
		}
}
END_TEST

/* A Maya scale-compensating joint under a parent of zero scale (a damaged file's, found
 * by fuzz_j3d): nothing to undo on that axis, and every world stays finite (dividing by
 * the zero was undefined behaviour, and infinite). */
START_TEST(test_maya_zero_parent_scale)
{
	nm_gltf_bone bones[2] = { { .parent = -1 }, { .parent = 0, .compensate = true } };
	int32_t parent[2] = { -1, 0 };
	uint32_t order[2] = { 0, 1 };
	nm_gltf_rig rig = { .rule = NM_GLTF_RULE_MAYA, .n = 2, .bones = bones,
			    .parent = parent, .order = order };
	const float srt[2][9] = { { 0, 2, 1, 0, 0, 0, 1, 2, 3 }, { 1, 1, 1, 0, 0, 0, 4, 5, 6 } };
	double world[2][12];
	nm_gltf_rig_worlds(&rig, srt, world);
	for (int j = 0; j < 2; j++)
		for (int k = 0; k < 12; k++)
			ck_assert_msg(isfinite(world[j][k]), "joint %d, element %d", j, k);
	/* The y axis, scale 2, is still undone: the child's y column is the parent's. */
	ck_assert_double_eq_tol(world[1][5], world[0][5] / 2, 1e-12);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gltf_anim");
	TCase *tc = tcase_create("glb");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_size_and_bytes, 0, 3);
	tcase_add_test(tc, test_bin_layout);
	tcase_add_loop_test(tc, test_json, 0, 3);
	tcase_add_loop_test(tc, test_without_animations, 0, 3);
	tcase_add_loop_test(tc, test_rest_worlds, 0, 3);
	tcase_add_test(tc, test_uv_transform);
	tcase_add_test(tc, test_left_out);
	tcase_add_test(tc, test_maya_zero_parent_scale);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
