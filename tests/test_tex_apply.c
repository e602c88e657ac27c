/* Texture PNGs written back through apply (src/export/tex_inverse.c and each driver's
 * inverse), table-driven: one row per CMB (PICA) and TXTR format, on fixture files with
 * three mip levels.
 *
 * Every row edits level 0 with an image of its own, applies, opens the new file and
 * checks that:
 * - level 0 shows the encoder's result (our encoder, then our decoder, on the image),
 *   and the other levels the encoder's result on the box filter of the level above;
 * - the new model passes apply's own check (nm_apply_verify);
 * - each level's own PNG in the new tree, given again, is no edit (no patch: a lossy
 *   level is not encoded a second time);
 * - an edited level 1 changes level 1's bytes only; with level 0 in the same run, level
 *   1 keeps its own edit and level 2 is made from level 0;
 * - in a cube map (CMB and TXTR), an edited face changes that face's levels only.
 * A lossy row prints "psnr: FORMAT level 0 X dB" (the image against what the new file
 * shows, over the channels the format stores).
 * BC7 is refused by name, with no bytes. Codec-level checks (every format against the
 * independent decoders, the libraries' own round trips) are test_codec_encode's. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/mip.h"
#include "codec/pica.h"
#include "edit/apply.h"
#include "export/png.h"
#include "export/png_read.h"
#include "lib/alloc.h"
#include "lib/edit.h"
#include "tests/fixtures/cmb_writer.h"
#include "tests/fixtures/txtr_writer.h"
#include "tests/png_edit.h"
#include "tests/prng.h"
#include "tests/walk.h"

#define LEVELS 3

/* A gradient with noise, its alpha a second gradient: what a texture looks like more
 * than noise alone does. */
static uint8_t *image(unsigned w, unsigned h, uint32_t seed)
{
	uint8_t *p = malloc((size_t)w * h * 4);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint8_t *q = p + 4 * ((size_t)y * w + x);
			int n = (int)(xorshift(&seed) >> 28) - 8;
			q[0] = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1));
			q[1] = (uint8_t)(y * 255 / (h > 1 ? h - 1 : 1));
			q[2] = (uint8_t)((x + y) * 4 + n);
			q[3] = (uint8_t)(255 - (x + y) * 255 / (w + h));
		}
	return p;
}

static nm_tree *open_tree(const uint8_t *d, size_t len, const char *name)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	ck_assert_msg(walk_build_with(d, len, name, &opt, &t, &err) == NM_OK, "%s", err.msg);
	return t;
}

/* The whole file at path of t. */
static uint8_t *read_file(nm_tree *t, const char *path, size_t *len)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	ck_assert_msg(nm_resolve(t, path, &n, &err) == NM_OK, "%s: %s", path, err.msg);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	uint8_t *b = malloc(size ? size : 1);
	size_t got;
	ck_assert_msg(nm_read(t, n, 0, b, size, &got, &err) == NM_OK, "%s", err.msg);
	ck_assert_uint_eq(got, size);
	*len = size;
	return b;
}

static uint8_t *read_level(nm_tree *t, const char *path, unsigned w, unsigned h)
{
	size_t len;
	uint8_t *png = read_file(t, path, &len), *rgba;
	nm_error err;
	ck_assert_msg(nm_png_read_level(NULL, png, len, path, w, h, &rgba, &err) == NM_OK, "%s",
		      err.msg);
	free(png);
	return rgba;
}

static void print_problem(const char *line, void *ctx)
{
	char *first = ctx;
	if (!first[0])
		snprintf(first, 600, "%s", line);
}

/* Apply n PNG edits (paths[i] gets pngs[i]) to the file d; the new file's bytes, or
 * NULL with the first problem in why. The new model is checked as apply checks it. */
static uint8_t *apply_pngs(const uint8_t *d, size_t len, const char *name,
			   const char *const *paths, const nm_out *pngs, int n, size_t *out_len,
			   char why[600])
{
	nm_tree *t = open_tree(d, len, name);
	nm_apply *a = nm_apply_new(t);
	nm_error err;
	why[0] = '\0';
	for (int i = 0; i < n; i++)
		ck_assert_msg(nm_apply_file(a, paths[i], pngs[i].data, pngs[i].len, paths[i],
					    &err) == NM_OK, "%s", err.msg);
	nm_out out;
	nm_out_init(&out);
	bool changed = false;
	uint8_t *bytes = NULL;
	if (!nm_apply_problems(a) && nm_apply_encode(a, &out, &changed, &err) == NM_OK &&
	    changed) {
		nm_tree *t2 = open_tree(out.data, out.len, name);
		size_t bad = nm_apply_verify(a, t2, &err);
		nm_apply_each_problem(a, print_problem, why);
		ck_assert_msg(bad == 0, "%s", why);
		nm_tree_free(t2);
		bytes = nm_out_take(&out, out_len);
	}
	nm_apply_each_problem(a, print_problem, why);
	nm_out_free(&out);
	nm_apply_free(a);
	nm_tree_free(t);
	return bytes;
}

/* What a texture format is, for the rows: how to encode and decode one level as the
 * driver does, where its PNGs are. */
typedef struct tex_row {
	const char *name;
	int family;             /* 0 CMB, 1 TXTR */
	uint32_t code;          /* GL code (CMB), format code (TXTR) */
	int lossless;
	int refused;            /* BC7: no encoder */
	unsigned channels;      /* lossy: bit c, channel c is stored (the PSNR's); 0 lossless */
	int opaque;             /* lossy without alpha: measured on an opaque image */
} tex_row;

#define CMB_ROW(n, gl, ll) { "CMB " n, 0, gl, ll, 0, 0, 0 }
#define TXTR_ROW(n, code, ll) { "TXTR " n, 1, code, ll, 0, 0, 0 }
#define LOSSY_ROW(n, fam, code, ch, op) { n, fam, code, 0, 0, ch, op }
#define ASTC_ROW(n, code) LOSSY_ROW("TXTR " n, 1, code, 0xF, 0)

static const tex_row rows[] = {
	CMB_ROW("RGBA8", 0x14016752, 1), CMB_ROW("RGB8", 0x14016754, 1),
	CMB_ROW("RGBA5551", 0x80346752, 1), CMB_ROW("RGB565", 0x83636754, 1),
	CMB_ROW("RGBA4", 0x80336752, 1), CMB_ROW("LA8", 0x14016758, 1),
	CMB_ROW("HILO8", 0x14016759, 1), CMB_ROW("L8", 0x14016757, 1),
	CMB_ROW("A8", 0x14016756, 1), CMB_ROW("LA4", 0x67606758, 1),
	CMB_ROW("L4", 0x67616757, 1), CMB_ROW("A4", 0x67616756, 1),
	LOSSY_ROW("CMB ETC1", 0, 0x0000675A, 0x7, 1), LOSSY_ROW("CMB ETC1A4", 0, 0x0000675B, 0xF, 0),
	TXTR_ROW("R8_UNORM", 0, 1), TXTR_ROW("RGBA8_UNORM", 12, 1),
	TXTR_ROW("RGBA8_SRGB", 13, 1), TXTR_ROW("RG8_UNORM", 32, 1),
	LOSSY_ROW("TXTR BC1_UNORM", 1, 20, 0x7, 1), LOSSY_ROW("TXTR BC1_SRGB", 1, 21, 0x7, 1),
	LOSSY_ROW("TXTR BC2_UNORM", 1, 22, 0xF, 0), LOSSY_ROW("TXTR BC3_UNORM", 1, 24, 0xF, 0),
	LOSSY_ROW("TXTR BC4_UNORM", 1, 26, 0x1, 1), LOSSY_ROW("TXTR BC5_UNORM", 1, 28, 0x3, 1),
	{ "TXTR BC7_UNORM", 1, 83, 0, 1, 0, 0 },
	ASTC_ROW("ASTC_4x4", 53), ASTC_ROW("ASTC_5x4", 54), ASTC_ROW("ASTC_5x5", 55),
	ASTC_ROW("ASTC_6x5", 56), ASTC_ROW("ASTC_6x6", 57), ASTC_ROW("ASTC_8x5", 58),
	ASTC_ROW("ASTC_8x6", 59), ASTC_ROW("ASTC_8x8", 60), ASTC_ROW("ASTC_10x5", 61),
	ASTC_ROW("ASTC_10x6", 62), ASTC_ROW("ASTC_10x8", 63), ASTC_ROW("ASTC_10x10", 64),
	ASTC_ROW("ASTC_12x10", 65), ASTC_ROW("ASTC_12x12", 66), ASTC_ROW("ASTC_8x5_SRGB", 72),
};

/* The TXTR formats' encoders and decoders, as the driver calls them. */
static const struct { uint32_t code; int kind, bcn; unsigned bw, bh; int srgb; } txtr_fmts[] = {
	{ 0, 0, 0, 1, 1, 0 }, { 12, 2, 0, 1, 1, 0 }, { 13, 2, 0, 1, 1, 1 }, { 32, 1, 0, 1, 1, 0 },
	{ 20, 3, NM_BC1, 4, 4, 0 }, { 21, 3, NM_BC1, 4, 4, 1 }, { 22, 3, NM_BC2, 4, 4, 0 },
	{ 24, 3, NM_BC3, 4, 4, 0 }, { 26, 3, NM_BC4, 4, 4, 0 }, { 28, 3, NM_BC5, 4, 4, 0 },
};

/* Encode then decode one level as the row's format stores it: what its PNG shows. */
static void round_trip(const tex_row *row, const uint8_t *img, unsigned w, unsigned h,
		       uint8_t *out)
{
	size_t n = (size_t)w * h;
	if (row->family == 0) {
		nm_pica_format f = nm_pica_format_from_gl(row->code);
		size_t len = nm_pica_level_size(f, w, h);
		uint8_t *b = malloc(len);
		ck_assert_int_eq(nm_pica_encode(f, img, w, h, b, len), NM_OK);
		ck_assert_int_eq(nm_pica_decode(f, b, len, w, h, out), NM_OK);
		free(b);
		return;
	}
	if (row->code >= 53) {   /* ASTC */
		unsigned i = (row->code - 53) % 14;
		static const unsigned bs[14][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 }, { 6, 6 },
						    { 8, 5 }, { 8, 6 }, { 8, 8 }, { 10, 5 }, { 10, 6 },
						    { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };
		unsigned bw = bs[i][0], bh = bs[i][1];
		bool srgb = row->code >= 67;
		size_t len = (size_t)((w + bw - 1) / bw) * ((h + bh - 1) / bh) * 16;
		uint8_t *b = malloc(len);
		ck_assert_int_eq(nm_astc_encode_level(NULL, bw, bh, srgb, img, w, h, b, len), NM_OK);
		ck_assert_int_eq(nm_astc_decode(NULL, bw, bh, srgb, b, len, w, h, out), NM_OK);
		free(b);
		return;
	}
	for (size_t k = 0; k < sizeof txtr_fmts / sizeof txtr_fmts[0]; k++) {
		if (txtr_fmts[k].code != row->code)
			continue;
		for (size_t i = 0; i < n; i++) {
			const uint8_t *p = img + 4 * i;
			uint8_t *q = out + 4 * i;
			if (txtr_fmts[k].kind == 0)
				q[0] = q[1] = q[2] = p[0], q[3] = 255;
			else if (txtr_fmts[k].kind == 1)
				q[0] = p[0], q[1] = p[1], q[2] = 0, q[3] = 255;
			else
				memcpy(q, p, 4);
		}
		if (txtr_fmts[k].kind == 3) {
			nm_bcn_format f = (nm_bcn_format)txtr_fmts[k].bcn;
			size_t len = (size_t)((w + 3) / 4) * ((h + 3) / 4) * nm_bcn_block_bytes(f);
			uint8_t *b = malloc(len);
			ck_assert_int_eq(nm_bcn_encode(f, img, w, h, b, len), NM_OK);
			ck_assert_int_eq(nm_bcn_decode(f, b, len, w, h, out), NM_OK);
			free(b);
		}
		return;
	}
	ck_abort_msg("%s: no round trip", row->name);
}

/* The row's fixture: a 32x32 texture (CMB: 16 x 16 for the PICA's 8x8 tiles at three
 * levels it is 32, 16, 8) with three levels. */
static uint8_t *fixture(const tex_row *row, size_t *len, const char **name)
{
	if (row->family == 0) {
		nm_pica_format f = nm_pica_format_from_gl(row->code);
		size_t size = 0;
		for (unsigned k = 0; k < LEVELS; k++)
			size += nm_pica_level_size(f, 32 >> k, 32 >> k);
		uint8_t *data = prng_bytes(size, row->code);
		fx_texture tex = { .name = "t", .gl_format = row->code, .width = 32, .height = 32,
				   .mips = LEVELS, .data = data, .data_len = size };
		fx_model m = { .version = 6, .name = "t", .tex = &tex, .ntex = 1 };
		uint8_t *d = fx_cmb_write(&m, len, NULL);
		free(data);
		*name = "t.cmb";
		return d;
	}
	rfx_txtr x = { .type = 1, .format = row->code, .width = 32, .height = 32, .depth = 1,
		       .levels = LEVELS, .codec = RFX_STORED, .seed = row->code + 1 };
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_txtr_write(&x, &b), 0);
	*len = b.len;
	*name = "t.txtr";
	return b.data;
}

static void level_path(const tex_row *row, unsigned k, char *buf, size_t len)
{
	if (row->family == 0)
		snprintf(buf, len, k ? "tex/t.mip%u.png" : "tex/t.png", k);
	else
		snprintf(buf, len, "tex/%u.png", k);
}

static double psnr(const uint8_t *a, const uint8_t *b, size_t n, unsigned channels)
{
	double se = 0;
	size_t count = 0;
	for (size_t i = 0; i < n * 4; i++)
		if (channels >> (i % 4) & 1) {
			se += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
			count++;
		}
	return se == 0 ? INFINITY : 10 * log10(255.0 * 255.0 / (se / (double)count));
}

START_TEST(level0_edit)
{
	const tex_row *row = &rows[_i];
	size_t len, out_len;
	const char *name;
	uint8_t *d = fixture(row, &len, &name);
	ck_assert_ptr_nonnull(d);
	uint8_t *img = image(32, 32, 7);
	for (size_t i = 0; row->opaque && i < 32 * 32; i++)
		img[4 * i + 3] = 255;
	nm_out png = png_of(img, 32, 32);
	char path[64], why[600];
	level_path(row, 0, path, sizeof path);
	const char *paths[1] = { path };
	uint8_t *out = apply_pngs(d, len, name, paths, &png, 1, &out_len, why);
	nm_out_free(&png);
	if (row->refused) {
		ck_assert_ptr_null(out);
		ck_assert_msg(strstr(why, path) && strstr(why, "BC7"), "%s", why);
		printf("refused: %s: %s\n", row->name, why);
		free(img);
		free(d);
		return;
	}
	ck_assert_msg(out != NULL, "%s: %s", row->name, why);
	ck_assert_uint_eq(out_len, len);
	nm_tree *t = open_tree(out, out_len, name);
	/* Each level: the encoder's result on the box filter of the level above. */
	uint8_t *want = img;
	for (unsigned k = 0; k < LEVELS; k++) {
		unsigned w = 32 >> k, h = 32 >> k;
		if (k) {
			uint8_t *next = malloc((size_t)w * h * 4);
			ck_assert_int_eq(nm_mip_box(want, w * 2, h * 2, next), NM_OK);
			if (want != img)
				free(want);
			want = next;
		}
		uint8_t *shown = malloc((size_t)w * h * 4);
		round_trip(row, want, w, h, shown);
		char lp[64];
		level_path(row, k, lp, sizeof lp);
		uint8_t *got = read_level(t, lp, w, h);
		ck_assert_msg(memcmp(got, shown, (size_t)w * h * 4) == 0, "%s level %u is not the "
			      "encoder's result", row->name, k);
		if (k == 0 && row->channels) {
			double db = psnr(img, got, 32 * 32, row->channels);
			printf("psnr: %-20s level 0 %6.2f dB, as applied and extracted\n", row->name,
			       db);
			ck_assert_msg(db >= 27, "%s: %.2f dB", row->name, db);   /* ASTC 12x12: 28.5 */
		}
		/* Its own PNG, given back, is no edit: no level is encoded again. */
		{
			nm_node *n;
			nm_inverse_fn fn;
			void *ctx, *arg;
			nm_error err;
			size_t plen;
			uint8_t *own = read_file(t, lp, &plen);
			ck_assert_int_eq(nm_resolve(t, lp, &n, &err), NM_OK);
			ck_assert(nm_node_inverse(t, n, &fn, &ctx, &arg));
			nm_edit ed;
			nm_edit_init(&ed);
			ck_assert_int_eq(fn(ctx, arg, own, plen, &ed, &err), NM_OK);
			ck_assert_uint_eq(ed.nrefusals, 0);
			ck_assert_msg(ed.npatches == 0, "%s level %u: own PNG is %zu patches",
				      row->name, k, ed.npatches);
			nm_edit_free(&ed);
			free(own);
		}
		free(got);
		free(shown);
	}
	if (want != img)
		free(want);
	nm_tree_free(t);
	free(out);
	free(img);
	free(d);
}
END_TEST

/* The bytes of each level of the row's texture in file d, for comparing two files. */
static uint8_t *level_bytes(const tex_row *row, const uint8_t *d, size_t len, const char *name,
			    unsigned k, size_t *n)
{
	nm_tree *t = open_tree(d, len, name);
	uint8_t *rgba = NULL;
	char lp[64];
	level_path(row, k, lp, sizeof lp);
	rgba = read_level(t, lp, 32 >> k, 32 >> k);
	nm_tree_free(t);
	*n = (size_t)(32 >> k) * (32 >> k) * 4;
	return rgba;
}

/* Level 1 alone changes only level 1; with level 0, in either order, level 1 keeps its
 * own edit and level 2 is made from level 0. */
START_TEST(edited_level_kept)
{
	static const tex_row *const pick[2] = { &rows[0], &rows[15] };  /* CMB, TXTR RGBA8 */
	for (int r = 0; r < 2; r++) {
		const tex_row *row = pick[r];
		size_t len, out_len, n;
		const char *name;
		uint8_t *d = fixture(row, &len, &name);
		uint8_t *img0 = image(32, 32, 3), *img1 = image(16, 16, 5);
		nm_out pngs[2] = { png_of(img1, 16, 16), png_of(img0, 32, 32) };
		char p1[64], p0[64], why[600];
		level_path(row, 1, p1, sizeof p1);
		level_path(row, 0, p0, sizeof p0);
		const char *paths[2] = { p1, p0 };
		uint8_t *out = apply_pngs(d, len, name, paths, pngs, 1, &out_len, why);
		ck_assert_msg(out != NULL, "%s", why);
		for (unsigned k = 0; k < LEVELS; k += 2) {
			uint8_t *a = level_bytes(row, d, len, name, k, &n);
			uint8_t *b = level_bytes(row, out, out_len, name, k, &n);
			ck_assert_msg(memcmp(a, b, n) == 0, "%s: level %u changed", row->name, k);
			free(a);
			free(b);
		}
		uint8_t *l1 = level_bytes(row, out, out_len, name, 1, &n);
		ck_assert_mem_eq(l1, img1, n);   /* RGBA8: exact */
		free(l1);
		free(out);
		for (int order = 0; order < 2; order++) {
			nm_out two[2] = { pngs[order], pngs[1 - order] };
			const char *tp[2] = { paths[order], paths[1 - order] };
			out = apply_pngs(d, len, name, tp, two, 2, &out_len, why);
			ck_assert_msg(out != NULL, "%s", why);
			l1 = level_bytes(row, out, out_len, name, 1, &n);
			ck_assert_mem_eq(l1, img1, n);
			uint8_t *l2 = level_bytes(row, out, out_len, name, 2, &n);
			uint8_t *b1 = malloc(16 * 16 * 4), *b2 = malloc(8 * 8 * 4);
			nm_mip_box(img0, 32, 32, b1);
			nm_mip_box(b1, 16, 16, b2);
			ck_assert_mem_eq(l2, b2, n);
			free(b1);
			free(b2);
			free(l1);
			free(l2);
			free(out);
		}
		nm_out_free(&pngs[0]);
		nm_out_free(&pngs[1]);
		free(img0);
		free(img1);
		free(d);
	}
}
END_TEST

/* Cube maps: level 0 of face 2 edited changes face 2's levels and no other face's. A
 * CMB cube (RGBA8, faces one after another) and a TXTR cube (RGBA8, stored: faces are
 * layers, each padded to whole GOB blocks). */
START_TEST(cube_face_alone)
{
	for (int fam = 0; fam < 2; fam++) {
		size_t len, out_len, n;
		uint8_t *d;
		const char *name;
		char path[64], why[600];
		if (fam == 0) {
			size_t face = (32 * 32 + 16 * 16 + 8 * 8) * 4;
			uint8_t *data = prng_bytes(face * 6, 99);
			fx_texture tex = { .name = "c", .gl_format = 0x14016752, .width = 32,
					   .height = 32, .mips = LEVELS, .cube = true, .data = data,
					   .data_len = face * 6 };
			fx_model m = { .version = 6, .name = "c", .tex = &tex, .ntex = 1 };
			d = fx_cmb_write(&m, &len, NULL);
			free(data);
			name = "c.cmb";
		} else {
			rfx_txtr x = { .type = 3, .format = 12, .width = 32, .height = 32, .depth = 6,
				       .levels = LEVELS, .codec = RFX_STORED, .seed = 9 };
			rfx_buf b = { 0 };
			ck_assert_int_eq(rfx_txtr_write(&x, &b), 0);
			d = b.data;
			len = b.len;
			name = "c.txtr";
		}
		ck_assert_ptr_nonnull(d);
		snprintf(path, sizeof path, fam ? "tex/face2/0.png" : "tex/c.face2.png");
		uint8_t *img = image(32, 32, 21);
		nm_out png = png_of(img, 32, 32);
		const char *paths[1] = { path };
		uint8_t *out = apply_pngs(d, len, name, paths, &png, 1, &out_len, why);
		ck_assert_msg(out != NULL, "%s: %s", name, why);
		nm_tree *was = open_tree(d, len, name), *now = open_tree(out, out_len, name);
		for (unsigned f = 0; f < 6; f++)
			for (unsigned k = 0; k < LEVELS; k++) {
				char lp[64], mip[16] = "";
				if (fam)
					snprintf(lp, sizeof lp, "tex/face%u/%u.png", f, k);
				else {
					if (k)
						snprintf(mip, sizeof mip, ".mip%u", k);
					snprintf(lp, sizeof lp, "tex/c.face%u%s.png", f, mip);
				}
				n = (size_t)(32 >> k) * (32 >> k) * 4;
				uint8_t *a = read_level(was, lp, 32 >> k, 32 >> k);
				uint8_t *b = read_level(now, lp, 32 >> k, 32 >> k);
				ck_assert_msg((memcmp(a, b, n) != 0) == (f == 2), "%s %s", name, lp);
				if (f == 2 && k == 0)
					ck_assert_mem_eq(b, img, n);   /* RGBA8: exact */
				free(a);
				free(b);
			}
		nm_tree_free(was);
		nm_tree_free(now);
		nm_out_free(&png);
		free(img);
		free(out);
		free(d);
	}
}
END_TEST

/* A CTXB's PNG is edited as a CMB's is (its texture is the CMB tex code's): RGBA8 level
 * 0 comes back exactly, the mip made from it, and only the texture data changes. */
START_TEST(ctxb_level0_edit)
{
	size_t size = (32 * 32 + 16 * 16 + 8 * 8) * 4, len, out_len;
	uint8_t *data = prng_bytes(size, 5);
	fx_texture tex = { .name = "t", .gl_format = 0x14016752, .width = 32, .height = 32,
			   .mips = LEVELS, .data = data, .data_len = size };
	uint8_t *d = fx_ctxb_write(&tex, &len);
	ck_assert_ptr_nonnull(d);
	uint8_t *img = image(32, 32, 33);
	nm_out png = png_of(img, 32, 32);
	const char *paths[1] = { "tex/t.png" };
	char why[600];
	uint8_t *out = apply_pngs(d, len, "t.ctxb", paths, &png, 1, &out_len, why);
	ck_assert_msg(out != NULL, "%s", why);
	ck_assert_uint_eq(out_len, len);
	ck_assert_mem_eq(out, d, 0x80);                  /* header and entry unchanged */
	nm_tree *now = open_tree(out, out_len, "t.ctxb");
	uint8_t *a = read_level(now, "tex/t.png", 32, 32);
	ck_assert_mem_eq(a, img, 32 * 32 * 4);
	nm_tree *was = open_tree(d, len, "t.ctxb");
	uint8_t *b = read_level(now, "tex/t.mip1.png", 16, 16);
	uint8_t *b0 = read_level(was, "tex/t.mip1.png", 16, 16);
	ck_assert(memcmp(b, b0, 16 * 16 * 4) != 0); /* made again from the edit */
	free(a);
	free(b);
	free(b0);
	nm_tree_free(was);
	nm_tree_free(now);
	nm_out_free(&png);
	free(img);
	free(out);
	free(d);
	free(data);
}
END_TEST

/* A compressed GPU chunk that comes out another size is refused, naming why. */
START_TEST(txtr_other_size_refused)
{
	rfx_txtr x = { .type = 1, .format = 12, .width = 32, .height = 32, .depth = 1,
		       .levels = LEVELS, .codec = RFX_ZLIB, .seed = 4 };
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_txtr_write(&x, &b), 0);
	uint8_t *img = image(32, 32, 11);
	nm_out png = png_of(img, 32, 32);
	const char *paths[1] = { "tex/0.png" };
	size_t out_len;
	char why[600];
	uint8_t *out = apply_pngs(b.data, b.len, "z.txtr", paths, &png, 1, &out_len, why);
	if (out) {   /* zlib made exactly the old size: then it must read back (checked) */
		free(out);
	} else {
		ck_assert_msg(strstr(why, "RFRM chunk and form sizes"), "%s", why);
	}
	nm_out_free(&png);
	free(img);
	rfx_buf_free(&b);
}
END_TEST

static Suite *tex_apply_suite(void)
{
	Suite *s = suite_create("tex_apply");
	TCase *tc = tcase_create("tex_apply");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, level0_edit, 0, (int)(sizeof rows / sizeof rows[0]));
	tcase_add_test(tc, edited_level_kept);
	tcase_add_test(tc, cube_face_alone);
	tcase_add_test(tc, ctxb_level0_edit);
	tcase_add_test(tc, txtr_other_size_refused);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(tex_apply_suite)
