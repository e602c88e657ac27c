/* CMB driver tests: fixtures built by tests/fixtures/cmb_writer.c from known data (every
 * version, every texture format, skinning, strips/fans, constants), broken fixtures
 * (every truncation, absurd counts), and the corpus (../shared/corpus/cmb: whole-tree
 * walks, PNG read-back, vertex counts against indices, OBJ face counts, byte flips). */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/text.h"
#include "fixtures/cmb_writer.h"
#include "formats/driver.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "tests/walk.h"

#define PI_F 3.14159265358979f

/* ---- helpers: build a tree from bytes, read files, walk everything ----------------- */


/* NULL when the build fails (err says why). */
static nm_tree *build(const uint8_t *data, size_t len, nm_error *err)
{
	nm_reader *r;
	void *copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, len);
	if (nm_reader_new_memory("fx.cmb", copy, len, &r, err) != NM_OK)
		return NULL;
	nm_tree *t = nm_tree_new(NULL);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	if (nm_build_any(r, t, nm_tree_root(t), err) != NM_OK) {
		nm_tree_free(t);
		return NULL;
	}
	return t;
}

static nm_tree *build_ok(const uint8_t *data, size_t len)
{
	nm_error err = { 0 };
	nm_tree *t = build(data, len, &err);
	ck_assert_msg(t != NULL, "build failed: %s", err.msg);
	return t;
}

/* The whole file, NUL-terminated; checks that st_size == bytes produced. NULL if absent. */
static char *cat(nm_tree *t, const char *path, size_t *len_out)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	if (nm_resolve(t, path, &n, &err) != NM_OK)
		return NULL;
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	char *buf = malloc(size + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = 0;
	nm_status s = nm_read(t, n, 0, buf, size, &got, &err);
	ck_assert_msg(s == NM_OK, "%s: %s", path, err.msg);
	ck_assert_msg(got == size, "%s: size %llu, read %zu", path, (unsigned long long)size, got);
	buf[got] = '\0';
	if (len_out)
		*len_out = got;
	return buf;
}

static char *must_cat(nm_tree *t, const char *path)
{
	char *s = cat(t, path, NULL);
	ck_assert_msg(s != NULL, "%s missing", path);
	return s;
}

static bool exists(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	return nm_resolve(t, path, &n, &err) == NM_OK;
}

/* The value after "key: " on its own line, or NULL. */
static const char *value_of(const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, kl) == 0 && p[kl] == ':' && p[kl + 1] == ' ')
			return p + kl + 2;
	return NULL;
}

static long long int_of(const char *text, const char *key)
{
	const char *v = value_of(text, key);
	ck_assert_msg(v != NULL, "no %s in:\n%s", key, text);
	return strtoll(v, NULL, 0);
}

static void assert_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return;
	ck_abort_msg("line \"%s\" not in:\n%s", line, text);
}

typedef struct png_pic { unsigned w, h, channels; uint8_t *px; } png_pic;

static bool png_decode(const char *data, size_t len, png_pic *out)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&img, data, len))
		return false;
	out->w = img.width;
	out->h = img.height;
	out->channels = PNG_IMAGE_SAMPLE_CHANNELS(img.format);
	out->px = malloc(PNG_IMAGE_SIZE(img));
	ck_assert_ptr_nonnull(out->px);
	if (!png_image_finish_read(&img, NULL, out->px, 0, NULL)) {
		free(out->px);
		return false;
	}
	return true;
}

/* What test_cmb asks of tests/walk.c: every listing works; with strict every file
 * reads; with check_png every PNG reads back at the size tex/NAME.txt gives. */
typedef struct cmb_walk {
	unsigned files, pngs, failed_reads;
	bool strict;
	bool check_png;
} cmb_walk;

/* Expected size of tex/STEM[.faceF][.mipK].png from STEM.txt. */
static void png_expect(nm_tree *t, const char *path, unsigned *w, unsigned *h)
{
	char stem[1200], txt[1300];
	snprintf(stem, sizeof stem, "%s", path);
	char *dot = strstr(stem, ".png");
	ck_assert_ptr_nonnull(dot);
	*dot = '\0';
	unsigned level = 0;
	char *mip = strstr(stem, ".mip");
	if (mip) {
		level = (unsigned)atoi(mip + 4);
		*mip = '\0';
	}
	char *face = strstr(stem, ".face");
	if (face)
		*face = '\0';
	snprintf(txt, sizeof txt, "%s.txt", stem);
	char *text = must_cat(t, txt);
	*w = (unsigned)int_of(text, "width") >> level;
	*h = (unsigned)int_of(text, "height") >> level;
	free(text);
}

static void walk_failure(void *ctx, walk_step step, const char *path, nm_status s,
			 const nm_error *err)
{
	const cmb_walk *w = ctx;
	(void)s;
	ck_assert_msg(step != WALK_LIST && !w->strict, "%s: %s", path, err->msg);
}

static void walk_file(void *ctx, nm_tree *t, const char *path, const uint8_t *data, size_t len)
{
	cmb_walk *w = ctx;
	size_t l = strlen(path);
	if (!w->check_png || l <= 4 || strcmp(path + l - 4, ".png") != 0)
		return;
	png_pic pi;
	unsigned pw, ph;
	ck_assert_msg(png_decode((const char *)data, len, &pi), "%s does not read back", path);
	png_expect(t, path, &pw, &ph);
	ck_assert_msg(pi.w == pw && pi.h == ph, "%s is %ux%u, want %ux%u", path, pi.w, pi.h, pw,
		      ph);
	free(pi.px);
	w->pngs++;
}

static cmb_walk walk_all(nm_tree *t, bool strict)
{
	cmb_walk w = { .strict = strict, .check_png = strict };
	walk_opts o = { .on_failure = walk_failure, .on_file = walk_file, .ctx = &w };
	walk_stats st;
	walk_tree_opts(t, &o, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	w.files = (unsigned)st.files;
	w.failed_reads = (unsigned)st.failed;
	return w;
}

/* ---- the fixture model -------------------------------------------------------------- */

/* Bits per pixel of the 14 formats, from FORMATS.md 1.2 (written out again here). */
static const struct { const char *name; uint32_t gl; unsigned bpp, channels; } formats[] = {
	{ "RGBA8", 0x14016752, 32, 4 }, { "RGB8", 0x14016754, 24, 3 },
	{ "RGBA5551", 0x80346752, 16, 4 }, { "RGB565", 0x83636754, 16, 3 },
	{ "RGBA4", 0x80336752, 16, 4 }, { "LA8", 0x14016758, 16, 2 },
	{ "HILO8", 0x14016759, 16, 3 }, { "L8", 0x14016757, 8, 1 },
	{ "A8", 0x14016756, 8, 2 }, { "LA4", 0x67606758, 8, 2 },
	{ "L4", 0x67616757, 4, 1 }, { "A4", 0x67616756, 4, 2 },
	{ "ETC1", 0x0000675A, 4, 3 }, { "ETC1A4", 0x0000675B, 8, 4 },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* Texture 0: L8 16x16 with a mip level; 1..14: one 8x8 texture per format; 15: an L8
 * cube map; 16, 17: two textures with the same name; 18: named "raw". */
#define NTEX (1 + NFORMATS + 4)

static uint8_t tex_l8_mips[16 * 16 + 8 * 8];
static uint8_t tex_format[NFORMATS][8 * 8 * 4];
static uint8_t tex_cube[6 * 64];
static uint8_t tex_small[64];
static fx_texture textures[NTEX];
static char format_names[NFORMATS][16];

static uint8_t pattern(size_t i) { return (uint8_t)(i * 37 + 11); }

static void make_textures(void)
{
	for (size_t i = 0; i < sizeof tex_l8_mips; i++)
		tex_l8_mips[i] = (uint8_t)i;
	textures[0] = (fx_texture){ .name = "diffuse", .gl_format = 0x14016757, .width = 16,
				    .height = 16, .mips = 2, .data = tex_l8_mips,
				    .data_len = sizeof tex_l8_mips };
	for (size_t f = 0; f < NFORMATS; f++) {
		for (size_t i = 0; i < sizeof tex_format[f]; i++)
			tex_format[f][i] = pattern(i + f);
		snprintf(format_names[f], sizeof format_names[f], "fmt_%s", formats[f].name);
		textures[1 + f] = (fx_texture){ .name = format_names[f], .gl_format = formats[f].gl,
						.width = 8, .height = 8, .mips = 1,
						.data = tex_format[f],
						.data_len = 64 * formats[f].bpp / 8 };
	}
	for (size_t i = 0; i < sizeof tex_cube; i++)
		tex_cube[i] = (uint8_t)(i / 64 * 40);
	textures[1 + NFORMATS] = (fx_texture){ .name = "sky", .gl_format = 0x14016757, .width = 8,
					       .height = 8, .mips = 1, .cube = true,
					       .data = tex_cube, .data_len = sizeof tex_cube };
	memset(tex_small, 0x80, sizeof tex_small);
	for (int k = 0; k < 2; k++)
		textures[2 + NFORMATS + k] = (fx_texture){ .name = "dup", .gl_format = 0x14016757,
							   .width = 8, .height = 8, .mips = 1,
							   .data = tex_small, .data_len = 64 };
	textures[4 + NFORMATS] = (fx_texture){ .name = "raw", .gl_format = 0x14016757, .width = 8,
					       .height = 8, .mips = 1, .data = tex_small,
					       .data_len = 64 };
}

/* Bones: 0 root; 1 child of 0 at (1,2,3) turned 90 degrees about Z; 2 child of 1 at
 * (1,0,0) scaled by 2; 3 and 4 roots turned 90 degrees about X and Z / X and Y. */
static const fx_bone bones[] = {
	{ .parent = -1, .scale = { 1, 1, 1 } },
	{ .parent = 0, .id_flags = 1, .scale = { 1, 1, 1 }, .rot = { 0, 0, PI_F / 2 },
	  .trans = { 1, 2, 3 } },
	{ .parent = 1, .scale = { 2, 2, 2 }, .trans = { 1, 0, 0 } },
	{ .parent = -1, .scale = { 1, 1, 1 }, .rot = { PI_F / 2, 0, PI_F / 2 } },
	{ .parent = -1, .scale = { 1, 1, 1 }, .rot = { PI_F / 2, PI_F / 2, 0 } },
};

static const fx_material mats[] = {
	{ .tex = { 0, -1, -1 }, .wrap_s = 0x8370, .wrap_t = 0x2901, .min_filter = 0x2601,
	  .mag_filter = 0x2601, .cull = 1, .diffuse = { 255, 128, 0, 255 },
	  .ambient = { 10, 20, 30, 40 }, .ncombiners = 2, .combiner = { 0, 1 },
	  .texcoord_scale = { 1, 1 }, .blend_mode = 1, .blend_src = 0x302, .blend_dst = 0x303,
	  .stencil_ref = 7 },
	{ .tex = { -1, 2, -1 }, .wrap_s = 0x2900, .wrap_t = 0x812F, .min_filter = 0x2703,
	  .mag_filter = 0x2600, .cull = 3, .diffuse = { 1, 2, 3, 4 }, .ncombiners = 1,
	  .combiner = { 1 }, .alpha_test = 1, .alpha_func = 0x204, .texcoord_scale = { 2, 0.5f } },
};

static const fx_combiner combiners[] = {
	{ .combine_rgb = 0x1E01, .combine_alpha = 0x1E01, .source0_rgb = 0x84C0 },
	{ .combine_rgb = 0x2100, .combine_alpha = 0x0104, .source0_rgb = 0x8578,
	  .constant_index = 5 },
};

/* sepd 0: smooth skinning, 4 vertices, every kind of attribute data. */
static const float s0_pos[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0.5f } };
static const int8_t s0_nrm[4][3] = { { 0, 0, 127 }, { 0, 0, 127 }, { 127, 0, 0 }, { -127, 0, 0 } };
static const float s0_tan[4][3] = { { 1, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
static const uint8_t s0_col[4][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 },
				      { 0, 0, 255, 128 }, { 51, 102, 153, 204 } };
static const int16_t s0_tc0[4][2] = { { 0, 0 }, { 256, 0 }, { 256, 256 }, { -128, 512 } };
static const uint8_t s0_bi[4][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 0 } };
static const uint8_t s0_bw[4][2] = { { 50, 50 }, { 100, 0 }, { 25, 75 }, { 100, 0 } };
static const uint16_t s0_idx[] = { 0, 1, 2, 0, 2, 3 };
static const fx_prms s0_prms[] = {
	{ .skinning = 2, .nbones = 2, .bones = { 0, 1 }, .indices = s0_idx, .count = 6 },
};

/* sepd 1: one bone (bone 2), s16 positions scaled by 0.5, a constant colour. */
static const int16_t s1_pos[3][3] = { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 4, 6 } };
static const uint16_t s1_idx[] = { 0, 1, 2 };
static const fx_prms s1_prms[] = {
	{ .skinning = 0, .nbones = 1, .bones = { 2 }, .u8_indices = true, .indices = s1_idx,
	  .count = 3 },
};

/* sepd 2: a strip and a fan over 4 float vertices. */
static const float s2_pos[4][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 1, 0 } };
static const uint16_t s2_idx[] = { 0, 1, 2, 3 };
static const fx_prms s2_prms[] = {
	{ .skinning = 2, .prim_mode = 1, .indices = s2_idx, .count = 4 },
	{ .skinning = 2, .prim_mode = 2, .indices = s2_idx, .count = 4 },
};

static fx_sepd sepds[3];

static void make_sepds(void)
{
	memset(sepds, 0, sizeof sepds);
	fx_attr *a = sepds[0].attr;
	a[FX_POS] = (fx_attr){ true, 0x1406, 0, 1.0f, { 0 }, s0_pos, sizeof s0_pos };
	a[FX_NRM] = (fx_attr){ true, 0x1400, 0, 1.0f / 127, { 0 }, s0_nrm, sizeof s0_nrm };
	a[FX_TAN] = (fx_attr){ true, 0x1406, 0, 1.0f, { 0 }, s0_tan, sizeof s0_tan };
	a[FX_COL] = (fx_attr){ true, 0x1401, 0, 1.0f / 255, { 0 }, s0_col, sizeof s0_col };
	a[FX_TC0] = (fx_attr){ true, 0x1402, 0, 1.0f / 256, { 0 }, s0_tc0, sizeof s0_tc0 };
	a[FX_BI] = (fx_attr){ true, 0x1401, 0, 1.0f, { 0 }, s0_bi, sizeof s0_bi };
	a[FX_BW] = (fx_attr){ true, 0x1401, 0, 0.01f, { 0 }, s0_bw, sizeof s0_bw };
	sepds[0].bone_dim = 2;
	sepds[0].prms = s0_prms;
	sepds[0].nprms = 1;
	a = sepds[1].attr;
	a[FX_POS] = (fx_attr){ true, 0x1402, 0, 0.5f, { 0 }, s1_pos, sizeof s1_pos };
	a[FX_COL] = (fx_attr){ true, 0x1406, 1, 1.0f, { 0.25f, 0.5f, 0.75f, 1 }, NULL, 0 };
	sepds[1].bone_dim = 1;
	sepds[1].prms = s1_prms;
	sepds[1].nprms = 1;
	a = sepds[2].attr;
	a[FX_POS] = (fx_attr){ true, 0x1406, 0, 1.0f, { 0 }, s2_pos, sizeof s2_pos };
	sepds[2].prms = s2_prms;
	sepds[2].nprms = 2;
}

static const fx_mesh meshes[] = { { 0, 0 }, { 1, 1 }, { 2, 0 } };

static const int32_t lut_times[] = { -256, 0, 256 };
static const float lut_values[][3] = { { 1, 0, 0 }, { 0.5f, -0.25f, -0.25f }, { 0, 0, 0 } };
static const fx_lut luts[] = { { .type = 2, .start = -256, .end = 256, .count = 3,
				 .times = lut_times, .values = lut_values } };

static fx_model model(uint32_t version)
{
	make_textures();
	make_sepds();
	return (fx_model){ .version = version, .name = "fixture", .bones = bones, .nbones = 5,
			   .mats = mats, .nmats = 2, .combiners = combiners, .ncombiners = 2,
			   .tex = textures, .ntex = NTEX, .meshes = meshes, .nmeshes = 3,
			   .sepds = sepds, .nsepds = 3, .luts = luts, .nluts = 1, .nboxes = 1 };
}

static uint8_t *fixture(uint32_t version, size_t *len, fx_layout *lay)
{
	fx_model m = model(version);
	uint8_t *d = fx_cmb_write(&m, len, lay);
	ck_assert_ptr_nonnull(d);
	return d;
}

static const uint32_t versions[] = { 6, 10, 12, 15 };

/* ---- fixture tests ------------------------------------------------------------------ */

START_TEST(test_info_and_walk)
{
	uint32_t v = versions[_i];
	size_t len;
	uint8_t *d = fixture(v, &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *info = must_cat(t, "info.txt");
	ck_assert_int_eq(int_of(info, "version"), v);
	ck_assert_int_eq(int_of(info, "bones"), 5);
	ck_assert_int_eq(int_of(info, "materials"), 2);
	ck_assert_int_eq(int_of(info, "textures"), (long long)NTEX);
	ck_assert_int_eq(int_of(info, "meshes"), 3);
	ck_assert_int_eq(int_of(info, "shapes"), 3);
	ck_assert_int_eq(int_of(info, "vertices"), 11);
	ck_assert_int_eq(int_of(info, "triangles"), 2 + 1 + 4);
	ck_assert_int_eq(int_of(info, "errors"), 0);
	ck_assert_ptr_null(value_of(info, "skipped"));
	assert_line(info, "name: fixture");
	/* Laziness: building and stat'ing every file decodes nothing. */
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	cmb_walk st = walk_all(t, true);
	ck_assert_uint_eq(st.failed_reads, 0);
	ck_assert_uint_eq(st.pngs, 2 + NFORMATS + 6 + 3);
	ck_assert(exists(t, "qtrs/0.txt") == (v >= 10));
	ck_assert(exists(t, "sepd/0/tangents.csv") == (v >= 10));
	free(info);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(test_stat_is_lazy)
{
	size_t len;
	uint8_t *d = fixture(10, &len, NULL);
	nm_tree *t = build_ok(d, len);
	/* Sizes only: nm_size on every file must not produce anything. */
	nm_node *n;
	nm_error err;
	uint64_t size;
	static const char *const paths[] = { "tex/diffuse.png", "tex/diffuse.mip1.png",
					      "sepd/0/positions.csv", "sepd/0/prms/0.txt",
					      "mesh.obj", "luts/0.csv", "tex/sky.face3.png" };
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		ck_assert_msg(nm_resolve(t, paths[i], &n, &err) == NM_OK, "%s", paths[i]);
		ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
		ck_assert_uint_gt(size, 0);
	}
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	nm_tree_free(t);
	free(d);
}
END_TEST

static float parse_floats(const char *s, float *out, int n)
{
	char *end;
	for (int i = 0; i < n; i++) {
		out[i] = strtof(s, &end);
		ck_assert_ptr_ne(end, s);
		s = end;
	}
	return out[0];
}

static void check_matrix(const char *text, const float want[3][4])
{
	for (int r = 0; r < 4; r++) {
		char key[32];
		float row[4];
		snprintf(key, sizeof key, "world_matrix_row%d", r);
		const char *v = value_of(text, key);
		ck_assert_msg(v != NULL, "no %s", key);
		parse_floats(v, row, 4);
		for (int c = 0; c < 4; c++) {
			float w = r < 3 ? want[r][c] : (c == 3 ? 1.0f : 0.0f);
			ck_assert_msg(fabsf(row[c] - w) < 1e-5f, "%s[%d] = %g, want %g", key, c,
				      row[c], w);
		}
	}
}

START_TEST(test_bones)
{
	uint32_t v = versions[_i];
	size_t len;
	uint8_t *d = fixture(v, &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *b1 = must_cat(t, "skl/bones/1.txt");
	char *b2 = must_cat(t, "skl/bones/2.txt");
	char *b3 = must_cat(t, "skl/bones/3.txt");
	/* Worked by hand: W1 = T(1,2,3) Rz(90); W2 = W1 T(1,0,0) S(2). */
	static const float w1[3][4] = { { 0, -1, 0, 1 }, { 1, 0, 0, 2 }, { 0, 0, 1, 3 } };
	static const float w2[3][4] = { { 0, -2, 0, 1 }, { 2, 0, 0, 3 }, { 0, 0, 2, 3 } };
	/* Euler XYZ: R = Rz Ry Rx, so with X and Z at 90: x -> y, y -> z, z -> x. */
	static const float w3[3][4] = { { 0, 0, 1, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 } };
	/* X then Y: y -> z -> x, x -> x -> -z, z -> -y -> -y. */
	static const float w4[3][4] = { { 0, 1, 0, 0 }, { 0, 0, -1, 0 }, { -1, 0, 0, 0 } };
	char *b4 = must_cat(t, "skl/bones/4.txt");
	check_matrix(b4, w4);
	free(b4);
	check_matrix(b1, w1);
	check_matrix(b2, w2);
	check_matrix(b3, w3);
	assert_line(b1, "id: 1");
	assert_line(b1, "id_flags: 0x1");
	assert_line(b1, "parent: 0");
	assert_line(b2, "scale: 2 2 2");
	ck_assert((value_of(b1, "unknown_28") != NULL) == (v >= 10));
	if (v >= 10)
		assert_line(b1, "unknown_28: 0xabcd0001");
	free(b1);
	free(b2);
	free(b3);
	nm_tree_free(t);
	free(d);
}
END_TEST

/* Expected CSV text, formatted from the fixture's values with the shared writer. */
static char *expect_csv(const char *header, const float *vals, size_t rows, unsigned cols)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_str(&o, header);
	for (size_t r = 0; r < rows; r++) {
		for (unsigned c = 0; c < cols; c++) {
			if (c)
				nm_out_char(&o, ',');
			nm_csv_float(&o, vals[r * cols + c]);
		}
		nm_out_char(&o, '\n');
	}
	nm_out_char(&o, '\0');
	size_t len;
	return (char *)nm_out_take(&o, &len);
}

static void check_csv(nm_tree *t, const char *path, const char *header, const float *vals,
		      size_t rows, unsigned cols)
{
	char *want = expect_csv(header, vals, rows, cols);
	char *got = must_cat(t, path);
	ck_assert_msg(strcmp(got, want) == 0, "%s:\n%s\nwant:\n%s", path, got, want);
	free(want);
	free(got);
}

START_TEST(test_attributes)
{
	uint32_t v = versions[_i];
	size_t len;
	uint8_t *d = fixture(v, &len, NULL);
	nm_tree *t = build_ok(d, len);
	float f[16][4];

	check_csv(t, "sepd/0/positions.csv", "x,y,z\n", &s0_pos[0][0], 4, 3);
	for (int i = 0; i < 4; i++)
		for (int c = 0; c < 3; c++)
			f[i][c] = s0_nrm[i][c] * (1.0f / 127);
	float nrm[12];
	for (int i = 0; i < 12; i++)
		nrm[i] = f[i / 3][i % 3];
	check_csv(t, "sepd/0/normals.csv", "x,y,z\n", nrm, 4, 3);
	float col[16], tc[8], bw[8];
	for (int i = 0; i < 16; i++)
		col[i] = s0_col[i / 4][i % 4] * (1.0f / 255);
	check_csv(t, "sepd/0/colors.csv", "r,g,b,a\n", col, 4, 4);
	for (int i = 0; i < 8; i++) {
		tc[i] = s0_tc0[i / 2][i % 2] * (1.0f / 256);
		bw[i] = s0_bw[i / 2][i % 2] * 0.01f;
	}
	check_csv(t, "sepd/0/texcoords0.csv", "u,v\n", tc, 4, 2);
	check_csv(t, "sepd/0/bone_weights.csv", "weight0,weight1\n", bw, 4, 2);
	char *bi = must_cat(t, "sepd/0/bone_indices.csv");
	ck_assert_str_eq(bi, "index0,index1\n  0,  1\n  1,  0\n  1,  1\n  0,  0\n");
	free(bi);
	if (v >= 10)
		check_csv(t, "sepd/0/tangents.csv", "x,y,z\n", &s0_tan[0][0], 4, 3);
	else
		ck_assert(!exists(t, "sepd/0/tangents.csv"));
	ck_assert(!exists(t, "sepd/0/texcoords1.csv"));

	/* s16 positions with scale 0.5; a constant colour expanded to every vertex. */
	float p1[9], c1[12];
	for (int i = 0; i < 9; i++)
		p1[i] = s1_pos[i / 3][i % 3] * 0.5f;
	for (int i = 0; i < 12; i++)
		c1[i] = (float[]){ 0.25f, 0.5f, 0.75f, 1 }[i % 4];
	check_csv(t, "sepd/1/positions.csv", "x,y,z\n", p1, 3, 3);
	check_csv(t, "sepd/1/colors.csv", "r,g,b,a\n", c1, 3, 4);
	ck_assert(!exists(t, "sepd/1/normals.csv"));
	ck_assert(!exists(t, "sepd/1/bone_indices.csv"));

	char *h = must_cat(t, "sepd/0/header.txt");
	ck_assert_int_eq(int_of(h, "vertex_count"), 4);
	ck_assert_int_eq(int_of(h, "bone_dimension"), 2);
	assert_line(h, "normal_type: BYTE (0x1400)");
	assert_line(h, "texcoord0_type: SHORT (0x1402)");
	assert_line(h, "position_mode: ARRAY (0x0)");
	free(h);
	h = must_cat(t, "sepd/1/header.txt");
	ck_assert_int_eq(int_of(h, "vertex_count"), 3);
	assert_line(h, "color_mode: CONSTANT (0x1)");
	assert_line(h, "color_constant: 0.25 0.5 0.75 1");
	free(h);
	(void)f;
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(test_prms)
{
	size_t len;
	uint8_t *d = fixture(versions[_i], &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *p = must_cat(t, "sepd/0/prms/0.txt");
	assert_line(p, "skinning_mode: SMOOTH (0x2)");
	assert_line(p, "bone_table: 0 1");
	assert_line(p, "index_type: UNSIGNED_SHORT (0x1403)");
	assert_line(p, "triangle_count: 2");
	ck_assert_ptr_nonnull(strstr(p, "triangles:\n    0     1     2\n    0     2     3\n"));
	free(p);
	p = must_cat(t, "sepd/1/prms/0.txt");
	assert_line(p, "skinning_mode: SINGLE_BONE (0x0)");
	assert_line(p, "index_type: UNSIGNED_BYTE (0x1401)");
	ck_assert_ptr_nonnull(strstr(p, "triangles:\n  0   1   2\n"));
	free(p);
	/* A strip alternates winding; a fan shares its first index. */
	p = must_cat(t, "sepd/2/prms/0.txt");
	assert_line(p, "primitive_mode: TRIANGLE_STRIP (0x1)");
	ck_assert_ptr_nonnull(strstr(p, "triangles:\n    0     1     2\n    2     1     3\n"));
	free(p);
	p = must_cat(t, "sepd/2/prms/1.txt");
	assert_line(p, "primitive_mode: TRIANGLE_FAN (0x2)");
	ck_assert_ptr_nonnull(strstr(p, "triangles:\n    0     1     2\n    0     2     3\n"));
	free(p);
	nm_tree_free(t);
	free(d);
}
END_TEST

static png_pic read_png(nm_tree *t, const char *path)
{
	size_t len;
	png_pic pi;
	char *data = cat(t, path, &len);
	ck_assert_msg(data != NULL, "%s missing", path);
	ck_assert_msg(png_decode(data, len, &pi), "%s does not decode", path);
	free(data);
	return pi;
}

static void px_eq(const png_pic *pi, unsigned x, unsigned y, const uint8_t *want,
		  const char *what)
{
	const uint8_t *p = pi->px + ((size_t)y * pi->w + x) * pi->channels;
	for (unsigned c = 0; c < pi->channels; c++)
		ck_assert_msg(p[c] == want[c], "%s (%u,%u) channel %u = %u, want %u", what, x, y,
			      c, p[c], want[c]);
}

START_TEST(test_textures)
{
	size_t len;
	fx_layout lay;
	uint8_t *d = fixture(versions[_i], &len, &lay);
	nm_tree *t = build_ok(d, len);

	/* L8 16x16: texel order is 8x8 tiles, Morton inside (FORMATS.md 1.1). */
	png_pic pi = read_png(t, "tex/diffuse.png");
	ck_assert_uint_eq(pi.w, 16);
	ck_assert_uint_eq(pi.channels, 1);
	px_eq(&pi, 0, 0, (uint8_t[]){ 0 }, "L8");
	px_eq(&pi, 1, 0, (uint8_t[]){ 1 }, "L8");
	px_eq(&pi, 0, 1, (uint8_t[]){ 2 }, "L8");
	px_eq(&pi, 2, 0, (uint8_t[]){ 4 }, "L8");
	px_eq(&pi, 8, 0, (uint8_t[]){ 64 }, "L8 second tile");
	px_eq(&pi, 0, 8, (uint8_t[]){ 128 }, "L8 third tile");
	free(pi.px);
	pi = read_png(t, "tex/diffuse.mip1.png");
	ck_assert_uint_eq(pi.w, 8);
	ck_assert_uint_eq(pi.h, 8);
	px_eq(&pi, 0, 0, (uint8_t[]){ 256 & 0xFF }, "mip1");
	px_eq(&pi, 1, 1, (uint8_t[]){ (256 + 3) & 0xFF }, "mip1");
	free(pi.px);
	ck_assert(!exists(t, "tex/diffuse.mip2.png"));

	/* Every format: a PNG of 8x8 with the natural channel count. */
	for (size_t f = 0; f < NFORMATS; f++) {
		char path[64];
		snprintf(path, sizeof path, "tex/fmt_%s.png", formats[f].name);
		pi = read_png(t, path);
		ck_assert_msg(pi.w == 8 && pi.h == 8, "%s", path);
		ck_assert_msg(pi.channels == formats[f].channels, "%s has %u channels", path,
			      pi.channels);
		const uint8_t *b = tex_format[f];
		uint8_t want[4];
		bool check = true;
		uint16_t u = (uint16_t)(b[0] | b[1] << 8);
		switch (f) {
		case 0: memcpy(want, (uint8_t[]){ b[3], b[2], b[1], b[0] }, 4); break;
		case 1: memcpy(want, (uint8_t[]){ b[2], b[1], b[0] }, 3); break;
		case 3: want[0] = (uint8_t)((u >> 11) << 3 | (u >> 11) >> 2);
			want[1] = (uint8_t)(((u >> 5) & 63) << 2 | ((u >> 5) & 63) >> 4);
			want[2] = (uint8_t)((u & 31) << 3 | (u & 31) >> 2); break;
		case 5: want[0] = b[1]; want[1] = b[0]; break;                 /* LA8: A, L */
		case 6: memcpy(want, (uint8_t[]){ b[1], b[0], 0 }, 3); break; /* HILO8 */
		case 7: want[0] = b[0]; break;
		case 8: want[0] = 255; want[1] = b[0]; break;                  /* A8: white */
		case 9: want[0] = (uint8_t)((b[0] >> 4) * 17); want[1] = (uint8_t)((b[0] & 15) * 17); break;
		case 10: want[0] = (uint8_t)((b[0] & 15) * 17); break;        /* L4: low first */
		case 11: want[0] = 255; want[1] = (uint8_t)((b[0] & 15) * 17); break;
		default: check = false;
		}
		if (check)
			px_eq(&pi, 0, 0, want, formats[f].name);
		free(pi.px);
		snprintf(path, sizeof path, "tex/fmt_%s.txt", formats[f].name);
		char *txt = must_cat(t, path);
		char line[64];
		snprintf(line, sizeof line, "format: %s (0x%x)", formats[f].name, formats[f].gl);
		assert_line(txt, line);
		free(txt);
		/* NAME.bin: the undecoded bytes. */
		snprintf(path, sizeof path, "tex/fmt_%s.bin", formats[f].name);
		size_t blen;
		char *bin = cat(t, path, &blen);
		ck_assert_uint_eq(blen, 64 * formats[f].bpp / 8);
		ck_assert(memcmp(bin, tex_format[f], blen) == 0);
		free(bin);
	}

	/* A cube map: six faces, face f all f * 40. */
	ck_assert(!exists(t, "tex/sky.png"));
	for (unsigned f = 0; f < 6; f++) {
		char path[64];
		snprintf(path, sizeof path, "tex/sky.face%u.png", f);
		pi = read_png(t, path);
		px_eq(&pi, 3, 5, (uint8_t[]){ (uint8_t)(f * 40) }, path);
		free(pi.px);
	}
	char *txt = must_cat(t, "tex/sky.txt");
	assert_line(txt, "is_cubemap: 1");
	ck_assert_ptr_nonnull(value_of(txt, "face_offsets"));
	free(txt);
	/* Same names get a suffix; "raw" does not hide raw.bin. */
	ck_assert(exists(t, "tex/dup.png"));
	ck_assert(exists(t, "tex/dup~2.png"));
	ck_assert(exists(t, "tex/raw~2.png"));
	ck_assert(exists(t, "tex/raw.bin"));
	txt = must_cat(t, "tex/dup~2.txt");
	assert_line(txt, "name: dup");
	assert_line(txt, "file_stem: dup~2");
	free(txt);
	nm_tree_free(t);
	free(d);
}
END_TEST

/* Names from the file: made safe, made unique, never colliding with each other. */
START_TEST(test_texture_names)
{
	enum { SAME = 2000 };
	static fx_texture tx[5 + SAME];
	static const char *const names[] = { "dup", "dup~2", "dup", "", "a/b" };
	fx_model m = model(15);
	for (size_t i = 0; i < 5 + SAME; i++)
		tx[i] = (fx_texture){ .name = i < 5 ? names[i] : "same", .gl_format = 0x14016757,
				      .width = 8, .height = 8, .mips = 1, .data = tex_small,
				      .data_len = 64 };
	m.tex = tx;
	m.ntex = 5 + SAME;
	size_t len;
	uint8_t *d = fx_cmb_write(&m, &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *a = must_cat(t, "tex/dup.txt"), *b = must_cat(t, "tex/dup~2.txt"),
	     *c = must_cat(t, "tex/dup~2~2.txt");
	assert_line(a, "index: 0");
	assert_line(b, "name: dup");
	assert_line(c, "name: dup~2");
	ck_assert(exists(t, "tex/texture3.png"));
	ck_assert(exists(t, "tex/a%2Fb.png"));
	ck_assert(exists(t, "tex/same.png"));
	ck_assert(exists(t, "tex/same~2000.png"));
	ck_assert(!exists(t, "tex/same~2001.png"));
	char *info = must_cat(t, "info.txt");
	ck_assert_int_eq(int_of(info, "textures"), 5 + SAME);
	free(info);
	free(a);
	free(b);
	free(c);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(test_materials)
{
	uint32_t v = versions[_i];
	size_t len;
	uint8_t *d = fixture(v, &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *m0 = must_cat(t, "mats/0.txt"), *m1 = must_cat(t, "mats/1.txt");
	assert_line(m0, "texture0_index: 0");
	assert_line(m0, "texture0_name: diffuse");
	assert_line(m0, "texture0_wrap_s: MIRRORED_REPEAT (0x8370)");
	assert_line(m0, "texture0_wrap_t: REPEAT (0x2901)");
	assert_line(m0, "texture0_min_filter: LINEAR (0x2601)");
	assert_line(m0, "texture0_border_color: 0 0 0 255");
	assert_line(m0, "cull_mode: BACK (0x1)");
	assert_line(m0, "diffuse_color: 255 128 0 255");
	assert_line(m0, "ambient_color: 10 20 30 40");
	assert_line(m0, "combiner_count: 2");
	assert_line(m0, "combiners: 0 1 -1 -1 -1 -1");
	assert_line(m0, "blend_mode: BLEND (0x1)");
	assert_line(m0, "blend_src_rgb: SRC_ALPHA (0x302)");
	assert_line(m0, "blend_dst_rgb: ONE_MINUS_SRC_ALPHA (0x303)");
	assert_line(m0, "blend_equation_rgb: FUNC_ADD (0x8006)");
	assert_line(m0, "depth_test_function: LEQUAL (0x203)");
	assert_line(m0, "texture_binding_count: 1");
	assert_line(m0, "texcoord0_mapping: UV_COORDINATE_MAP (0x1)");
	assert_line(m1, "texture0_index: -1");
	assert_line(m1, "texture1_min_filter: LINEAR_MIPMAP_LINEAR (0x2703)");
	assert_line(m1, "texture1_wrap_s: CLAMP_TO_BORDER (0x2900)");
	assert_line(m1, "texture1_wrap_t: CLAMP_TO_EDGE (0x812f)");
	assert_line(m1, "cull_mode: NONE (0x3)");
	assert_line(m1, "alpha_test_enabled: 1");
	assert_line(m1, "alpha_test_function: GREATER (0x204)");
	assert_line(m1, "texcoord0_scale: 2 0.5");
	if (v >= 10) {
		assert_line(m0, "stencil_reference: 7");
		assert_line(m0, "stencil_function: ALWAYS (0x207)");
		assert_line(m0, "stencil_depth_pass_op: REPLACE (0x1e01)");
	} else {
		ck_assert_ptr_null(value_of(m0, "stencil_reference"));
	}
	char *c1 = must_cat(t, "mats/combiners/1.txt");
	assert_line(c1, "combine_rgb: MODULATE (0x2100)");
	assert_line(c1, "combine_alpha: ADD (0x104)");
	assert_line(c1, "source0_rgb: PREVIOUS (0x8578)");
	assert_line(c1, "operand0_alpha: SRC_ALPHA (0x302)");
	assert_line(c1, "constant_index: 5");
	ck_assert(!exists(t, "mats/combiners/2.txt"));
	free(c1);
	free(m0);
	free(m1);
	nm_tree_free(t);
	free(d);
}
END_TEST

/* "v x y z" lines of group g (0-based) of an OBJ. */
static void obj_group_vertices(const char *obj, int g, float (*out)[3], int n)
{
	const char *p = obj;
	for (int k = 0; k <= g; k++) {
		p = strstr(p, "\ng ");
		ck_assert_ptr_nonnull(p);
		p++;
	}
	for (int i = 0; i < n; i++) {
		p = strstr(p, "\nv ");
		ck_assert_ptr_nonnull(p);
		p += 3;
		parse_floats(p, out[i], 3);
	}
}


START_TEST(test_obj)
{
	size_t len;
	uint8_t *d = fixture(versions[_i], &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *obj = must_cat(t, "mesh.obj"), *mtl = must_cat(t, "mesh.mtl");
	ck_assert_uint_eq(walk_count_lines(obj, "f "), 2 + 1 + 4);
	ck_assert_uint_eq(walk_count_lines(obj, "g "), 3);
	ck_assert_uint_eq(walk_count_lines(obj, "v "), 11);
	/* A group without texture coordinates or normals: its faces refer to one
	 * placeholder vt and vn, so that every face of the file has the form v/vt/vn. */
	ck_assert_uint_eq(walk_count_lines(obj, "vt "), 4 + 1);
	ck_assert_uint_eq(walk_count_lines(obj, "vn "), 4 + 1);
	assert_line(obj, "mtllib mesh.mtl");
	assert_line(obj, "g mesh1_shape1");
	assert_line(obj, "usemtl material1");
	/* Group 1 is single-bone (bone 2): p' = W2 p with W2 worked out in test_bones. */
	float v[3][3];
	obj_group_vertices(obj, 1, v, 3);
	static const float want[3][3] = { { 1, 3, 3 }, { 1, 5, 3 }, { -3, 3, 9 } };
	for (int i = 0; i < 3; i++)
		for (int c = 0; c < 3; c++)
			ck_assert_msg(fabsf(v[i][c] - want[i][c]) < 1e-4f, "v%d[%d] = %g, want %g", i,
				      c, v[i][c], want[i][c]);
	/* Group 0 is smooth-skinned: positions as stored. */
	obj_group_vertices(obj, 0, v, 3);
	ck_assert(v[1][0] == 1.0f && v[1][1] == 0.0f && v[2][1] == 1.0f);
	assert_line(mtl, "newmtl material0");
	assert_line(mtl, "map_Kd tex/diffuse.png");
	assert_line(mtl, "Kd 1 0.5019608 0");
	/* material1's first binding is its second slot (texture 2). */
	assert_line(mtl, "map_Kd tex/fmt_RGB8.png");
	free(obj);
	free(mtl);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(test_luts_qtrs_vatr)
{
	uint32_t v = versions[_i];
	size_t len;
	uint8_t *d = fixture(v, &len, NULL);
	nm_tree *t = build_ok(d, len);
	char *csv = must_cat(t, "luts/0.csv");
	nm_out o;
	nm_out_init(&o);
	nm_out_str(&o, "time,value,in_slope,out_slope\n");
	for (int k = 0; k < 3; k++) {
		nm_csv_int(&o, lut_times[k], 11);
		for (int j = 0; j < 3; j++) {
			nm_out_char(&o, ',');
			nm_csv_float(&o, lut_values[k][j]);
		}
		nm_out_char(&o, '\n');
	}
	nm_out_char(&o, '\0');
	ck_assert_str_eq(csv, (char *)o.data);
	nm_out_free(&o);
	char *lt = must_cat(t, "luts/0.txt");
	assert_line(lt, "key_count: 3");
	assert_line(lt, "start: -256");
	assert_line(lt, "end: 256");
	char *va = must_cat(t, "vatr/header.txt");
	ck_assert_int_eq(int_of(va, "vertex_total"), 11);
	ck_assert((value_of(va, "tangent_slice") != NULL) == (v >= 10));
	if (v >= 10) {
		char *q = must_cat(t, "qtrs/0.txt");
		assert_line(q, "min: -1 -1 -1");
		assert_line(q, "max: 1 1 1");
		free(q);
	} else {
		ck_assert(!exists(t, "qtrs"));
	}
	char *ms = must_cat(t, "sklm/mshs/1.txt");
	assert_line(ms, "shape: 1");
	assert_line(ms, "material: 1");
	free(ms);
	free(csv);
	free(lt);
	free(va);
	nm_tree_free(t);
	free(d);
}
END_TEST

START_TEST(test_unknown_version)
{
	size_t len;
	uint8_t *d = fixture(10, &len, NULL);
	d[8] = 99;
	nm_tree *t = build_ok(d, len);
	char *info = must_cat(t, "info.txt");
	ck_assert_int_eq(int_of(info, "version"), 99);
	ck_assert_ptr_nonnull(value_of(info, "skipped"));
	ck_assert_ptr_nonnull(strstr(value_of(info, "skipped"), "bones"));
	/* What does not depend on the version still shows. */
	ck_assert(exists(t, "tex/diffuse.png"));
	ck_assert(exists(t, "skl/raw.bin"));
	ck_assert(exists(t, "qtrs/0.txt"));
	ck_assert(!exists(t, "mesh.obj"));
	ck_assert(!exists(t, "skl/bones"));
	cmb_walk st = walk_all(t, true);
	ck_assert_uint_gt(st.pngs, 0);
	free(info);
	nm_tree_free(t);
	free(d);
}
END_TEST

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A count of 0xFFFFFFF0 in one table: that chunk fails alone, with a message; nothing is
 * allocated by the count (ASan builds would notice). */
START_TEST(test_absurd_counts)
{
	size_t len;
	fx_layout lay;
	uint8_t *d = fixture(10, &len, &lay);
	const uint32_t where[] = { lay.skl + 8, lay.mats + 8, lay.tex + 8, lay.luts + 8,
				   lay.qtrs + 8 };
	const char *const err_file[] = { "skl/error.txt", "mats/error.txt", "tex/error.txt",
					 "luts/error.txt", "qtrs/error.txt" };
	for (size_t k = 0; k < sizeof where / sizeof where[0]; k++) {
		uint8_t *c = malloc(len);
		memcpy(c, d, len);
		put32(c + where[k], 0xFFFFFFF0u);
		nm_tree *t = build_ok(c, len);
		char *e = must_cat(t, err_file[k]);
		ck_assert_ptr_nonnull(strstr(e, "fx.cmb"));
		ck_assert_ptr_nonnull(strstr(e, "runs past"));
		ck_assert(exists(t, "sepd/0/positions.csv") || k == 0);
		walk_all(t, false);
		free(e);
		nm_tree_free(t);
		free(c);
	}
	/* A sepd with 0xFFFF prms and an enormous bone dimension. */
	uint8_t *c = malloc(len);
	memcpy(c, d, len);
	c[lay.sepd[0] + 8] = 0xFF;
	c[lay.sepd[0] + 9] = 0xFF;
	nm_tree *t = build_ok(c, len);
	ck_assert(exists(t, "sepd/0/error.txt"));
	ck_assert(exists(t, "sepd/1/positions.csv"));
	walk_all(t, false);
	nm_tree_free(t);
	memcpy(c, d, len);
	/* bone dimension: after the 9 descriptors of v10 at 0x24 */
	c[lay.sepd[0] + 0x24 + 9 * 0x1C] = 0xFF;
	c[lay.sepd[0] + 0x24 + 9 * 0x1C + 1] = 0xFF;
	t = build_ok(c, len);
	char *h = must_cat(t, "sepd/0/header.txt");
	ck_assert_ptr_nonnull(value_of(h, "bone_indices_problem"));
	ck_assert(!exists(t, "sepd/0/bone_indices.csv"));
	ck_assert(exists(t, "sepd/0/positions.csv"));
	walk_all(t, false);
	free(h);
	nm_tree_free(t);
	/* A shape list longer than sklm could hold sepds for (entries would repeat). */
	memcpy(c, d, len);
	uint32_t shp = lay.sklm + (uint32_t)(c[lay.sklm + 12] | c[lay.sklm + 13] << 8);
	ck_assert(memcmp(c + shp, "shp ", 4) == 0);
	put32(c + shp + 8, 64);
	t = build_ok(c, len);
	h = must_cat(t, "sklm/shp/error.txt");
	ck_assert_ptr_nonnull(strstr(h, "room for"));
	ck_assert(!exists(t, "sepd"));
	ck_assert(exists(t, "tex/diffuse.png"));
	walk_all(t, false);
	free(h);
	nm_tree_free(t);
	/* A texture claiming 16384x16384 RGBA8: no PNG, a problem line, no huge allocation. */
	memcpy(c, d, len);
	uint8_t *e = c + lay.tex + 0x0C;
	e[8] = 0x00; e[9] = 0x40; e[10] = 0x00; e[11] = 0x40;
	put32(e + 12, 0x14016752);
	t = build_ok(c, len);
	char *txt = must_cat(t, "tex/diffuse.txt");
	ck_assert_ptr_nonnull(value_of(txt, "problem"));
	ck_assert(!exists(t, "tex/diffuse.png"));
	ck_assert(exists(t, "tex/fmt_RGB8.png"));
	walk_all(t, false);
	free(txt);
	nm_tree_free(t);
	free(c);
	free(d);
}
END_TEST

START_TEST(test_broken_header)
{
	size_t len;
	uint8_t *d = fixture(6, &len, NULL);
	nm_error err = { 0 };
	/* Shorter than the header: the build fails with a message naming the file. */
	ck_assert_ptr_null(build(d, 0x30, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "fx.cmb"));
	ck_assert_ptr_nonnull(strstr(err.msg, "header"));
	/* A chunk offset pointing elsewhere: that chunk gets error.txt, the rest mounts. */
	uint8_t *c = malloc(len);
	memcpy(c, d, len);
	put32(c + 0x24, 0x30);
	nm_tree *t = build_ok(c, len);
	char *e = must_cat(t, "skl/error.txt");
	ck_assert_ptr_nonnull(strstr(e, "magic"));
	ck_assert(exists(t, "tex/diffuse.png"));
	walk_all(t, false);
	free(e);
	nm_tree_free(t);
	free(c);
	free(d);
}
END_TEST

/* Every truncation of a small fixture: an error or a partial tree whose files all read
 * back at their announced sizes (or fail cleanly). */
START_TEST(test_truncations)
{
	fx_model m = model(versions[_i]);
	m.ntex = 2;         /* keep it small: every offset is tried */
	size_t len;
	uint8_t *d = fx_cmb_write(&m, &len, NULL);
	ck_assert_ptr_nonnull(d);
	unsigned built = 0;
	for (size_t cut = 0; cut < len; cut++) {
		nm_error err = { 0 };
		nm_tree *t = build(d, cut, &err);
		if (!t) {
			ck_assert_msg(err.msg[0], "no message at cut %zu", cut);
			continue;
		}
		built++;
		walk_all(t, false);
		nm_tree_free(t);
	}
	ck_assert_uint_gt(built, len / 2);
	free(d);
}
END_TEST

/* ---- corpus ------------------------------------------------------------------------- */

static char corpus_dir[4096];

static bool corpus_available(void)
{
	const char *top = getenv("top_srcdir");
	snprintf(corpus_dir, sizeof corpus_dir, "%s/../shared/corpus/cmb", top ? top : ".");
	DIR *dir = opendir(corpus_dir);
	if (!dir)
		return false;
	closedir(dir);
	return true;
}

typedef void (*corpus_fn)(const char *path, const uint8_t *data, size_t len);

static unsigned for_each_corpus(corpus_fn fn)
{
	DIR *dir = opendir(corpus_dir);
	struct dirent *e;
	unsigned n = 0;
	if (!dir)
		return 0;
	while ((e = readdir(dir))) {
		size_t l = strlen(e->d_name);
		if (l < 4 || strcmp(e->d_name + l - 4, ".cmb") != 0)
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", corpus_dir, e->d_name);
		FILE *f = fopen(path, "rb");
		ck_assert_ptr_nonnull(f);
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		fseek(f, 0, SEEK_SET);
		uint8_t *data = malloc((size_t)size);
		ck_assert_uint_eq(fread(data, 1, (size_t)size, f), (size_t)size);
		fclose(f);
		fn(e->d_name, data, (size_t)size);
		free(data);
		n++;
	}
	closedir(dir);
	return n;
}

/* Largest index in a prms file's triangle lines. */
static long max_index(const char *prms)
{
	const char *p = strstr(prms, "triangles:\n");
	long mx = -1;
	ck_assert_ptr_nonnull(p);
	p += strlen("triangles:\n");
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (v > mx)
			mx = v;
		p = end;
	}
	return mx;
}

static void corpus_one(const char *name, const uint8_t *data, size_t len)
{
	nm_tree *t = build_ok(data, len);
	cmb_walk st = walk_all(t, true);
	ck_assert_msg(st.pngs > 0, "%s: no textures", name);
	char *info = must_cat(t, "info.txt");
	ck_assert_msg(int_of(info, "errors") == 0, "%s:\n%s", name, info);
	long shapes = (long)int_of(info, "shapes"), meshes = (long)int_of(info, "meshes");
	ck_assert_int_gt(shapes, 0);
	/* Vertex counts come from headers; every index used must be below them. */
	unsigned long long index_total = 0, tris_per_shape[64] = { 0 };
	for (long s = 0; s < shapes && s < 64; s++) {
		char path[128];
		snprintf(path, sizeof path, "sepd/%ld/header.txt", s);
		char *h = must_cat(t, path);
		long count = (long)int_of(h, "vertex_count");
		long nprms = (long)int_of(h, "prms_count");
		for (long p = 0; p < nprms; p++) {
			snprintf(path, sizeof path, "sepd/%ld/prms/%ld.txt", s, p);
			char *pt = must_cat(t, path);
			long mx = max_index(pt);
			ck_assert_msg(mx + 1 <= count, "%s %s: index %ld, %ld vertices", name, path,
				      mx, count);
			index_total += (unsigned long long)int_of(pt, "index_count");
			assert_line(pt, "primitive_mode: TRIANGLES (0x0)");
			tris_per_shape[s] += (unsigned long long)int_of(pt, "index_count") / 3;
			free(pt);
		}
		free(h);
	}
	/* mesh.obj: one group per mesh, sum(index count) / 3 faces over the meshes. */
	unsigned long long faces = 0;
	for (long i = 0; i < meshes; i++) {
		char path[64];
		snprintf(path, sizeof path, "sklm/mshs/%ld.txt", i);
		char *mt = must_cat(t, path);
		long s = (long)int_of(mt, "shape");
		ck_assert(s >= 0 && s < shapes && s < 64);
		faces += tris_per_shape[s];
		free(mt);
	}
	char *obj = must_cat(t, "mesh.obj");
	ck_assert_uint_eq(walk_count_lines(obj, "f "), faces);
	ck_assert_uint_eq(walk_count_lines(obj, "g "), (unsigned)meshes);
	ck_assert_uint_gt(index_total, 0);
	char *b0 = must_cat(t, "skl/bones/0.txt");
	ck_assert_ptr_nonnull(value_of(b0, "world_matrix_row3"));
	free(b0);
	free(obj);
	free(info);
	nm_tree_free(t);
}

START_TEST(test_corpus)
{
	if (!corpus_available()) {
		printf("test_cmb: no corpus at %s; corpus cases skipped\n", corpus_dir);
		return;
	}
	ck_assert_uint_gt(for_each_corpus(corpus_one), 0);
}
END_TEST

#define FLIPS 300

static uint32_t rng_state;
static uint32_t rng(void)
{
	/* xorshift32, fixed seed per file: the same flips on every run */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void corpus_flips(const char *name, const uint8_t *data, size_t len)
{
	uint8_t *c = malloc(len);
	rng_state = 0x9E3779B9u ^ (uint32_t)len;
	unsigned built = 0;
	for (int k = 0; k < FLIPS; k++) {
		memcpy(c, data, len);
		/* Mostly in the first part (headers and tables), some anywhere. */
		size_t span = (k & 1) ? len : (len < 0x2000 ? len : 0x2000);
		int nflips = 1 + (int)(rng() % 4);
		for (int j = 0; j < nflips; j++)
			c[rng() % span] ^= (uint8_t)(1u << (rng() % 8));
		nm_error err = { 0 };
		nm_tree *t = build(c, len, &err);
		if (!t) {
			ck_assert_msg(err.msg[0], "%s flip %d: no message", name, k);
			continue;
		}
		built++;
		walk_all(t, false);
		nm_tree_free(t);
	}
	ck_assert_uint_gt(built, 0);
	free(c);
}

START_TEST(test_corpus_flips)
{
	if (!corpus_available()) {
		printf("test_cmb: no corpus at %s; byte flips skipped\n", corpus_dir);
		return;
	}
	for_each_corpus(corpus_flips);
}
END_TEST

static Suite *cmb_suite(void)
{
	Suite *s = suite_create("cmb");
	TCase *tc = tcase_create("fixtures");
	int nv = (int)(sizeof versions / sizeof versions[0]);
	tcase_add_loop_test(tc, test_info_and_walk, 0, nv);
	tcase_add_test(tc, test_stat_is_lazy);
	tcase_add_loop_test(tc, test_bones, 0, nv);
	tcase_add_loop_test(tc, test_attributes, 0, nv);
	tcase_add_loop_test(tc, test_prms, 0, nv);
	tcase_add_loop_test(tc, test_textures, 0, nv);
	tcase_add_test(tc, test_texture_names);
	tcase_add_loop_test(tc, test_materials, 0, nv);
	tcase_add_loop_test(tc, test_obj, 0, nv);
	tcase_add_loop_test(tc, test_luts_qtrs_vatr, 0, nv);
	tcase_add_test(tc, test_unknown_version);
	suite_add_tcase(s, tc);

	TCase *bad = tcase_create("broken");
	tcase_set_timeout(bad, 120);
	tcase_add_test(bad, test_absurd_counts);
	tcase_add_test(bad, test_broken_header);
	tcase_add_loop_test(bad, test_truncations, 0, nv);
	suite_add_tcase(s, bad);

	TCase *corpus = tcase_create("corpus");
	tcase_set_timeout(corpus, 120);
	tcase_add_test(corpus, test_corpus);
	tcase_add_test(corpus, test_corpus_flips);
	suite_add_tcase(s, corpus);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(cmb_suite)
