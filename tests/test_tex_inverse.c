/* The shared texture-level inverse (src/export/tex_inverse.c) over a format of its own
 * here, RGBA8 stored as is, so every byte it patches can be worked out in the test: an
 * edited level 0 patches itself and every other level with their box filters (derived
 * patches), an edited level N only itself, the two together leave level N's own bytes
 * (nm_patches_supersede in either order), bytes already there are no patch, texels the
 * level shows already are no edit, and what cannot be encoded is a refusal with no
 * patch. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "codec/mip.h"
#include "export/png.h"
#include "export/tex_inverse.h"
#include "tests/png_edit.h"

/* A 16x8 texture of 4 levels (16x8, 8x4, 4x2, 2x1) stored one after another. */
#define NLEVELS 4
static const unsigned side_w[NLEVELS] = { 16, 8, 4, 2 }, side_h[NLEVELS] = { 8, 4, 2, 1 };

struct fake {
	nm_reader *r;
	nm_tex_level levels[NLEVELS];
	nm_tex_chain chain;
	nm_status refuse;   /* what encode returns, NM_OK to encode */
};

static nm_status copy_encode(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			     unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err)
{
	struct fake *f = ctx;
	(void)ed;
	ck_assert_uint_eq(len, (size_t)w * h * 4);
	ck_assert_uint_eq(w, side_w[level]);
	if (f->refuse != NM_OK)
		return nm_fail(err, f->refuse, "t.bin", NULL, NM_NO_OFFSET, "no encoder for it");
	memcpy(dst, rgba, len);
	return NM_OK;
}

static void fake_init(struct fake *f)
{
	size_t total = 0;
	for (int k = 0; k < NLEVELS; k++)
		total += (size_t)side_w[k] * side_h[k] * 4;
	uint8_t *d = calloc(1, total);
	nm_error err;
	ck_assert_int_eq(nm_reader_new_memory("t.bin", d, total, &f->r, &err), NM_OK);
	size_t off = 0;
	for (int k = 0; k < NLEVELS; k++) {
		size_t len = (size_t)side_w[k] * side_h[k] * 4;
		f->levels[k] = (nm_tex_level){ side_w[k], side_h[k], f->r, off, len };
		off += len;
	}
	f->chain = (nm_tex_chain){ .levels = f->levels, .nlevels = NLEVELS,
				   .encode = copy_encode, .ctx = f, .file = "t.bin", .chunk = "tex" };
	f->refuse = NM_OK;
}

static uint8_t *pattern(unsigned w, unsigned h, unsigned seed)
{
	uint8_t *p = malloc((size_t)w * h * 4);
	for (size_t i = 0; i < (size_t)w * h * 4; i++)
		p[i] = (uint8_t)(i * 29 + seed * 71 + (i >> 3));
	return p;
}

static void invert(struct fake *f, unsigned level, const uint8_t *rgba, nm_edit *ed)
{
	nm_out o = png_of(rgba, side_w[level], side_h[level]);
	nm_error err;
	ck_assert_int_eq(nm_tex_invert(&f->chain, level, o.data, o.len, ed, &err), NM_OK);
	nm_out_free(&o);
}

START_TEST(level0_makes_every_level)
{
	struct fake f;
	fake_init(&f);
	uint8_t *img = pattern(16, 8, 1);
	nm_edit ed;
	nm_edit_init(&ed);
	invert(&f, 0, img, &ed);
	ck_assert_uint_eq(ed.nrefusals, 0);
	ck_assert_uint_eq(ed.npatches, NLEVELS);
	uint8_t *want = img;
	for (unsigned k = 0; k < NLEVELS; k++) {
		const nm_patch *p = &ed.patches[k];
		ck_assert_ptr_eq(p->r, f.r);
		ck_assert_uint_eq(p->off, f.levels[k].off);
		ck_assert_uint_eq(p->len, f.levels[k].len);
		ck_assert(p->derived == (k > 0));
		if (k) {   /* the box filter of the level above */
			uint8_t *next = malloc(f.levels[k].len);
			ck_assert_int_eq(nm_mip_box(want, side_w[k - 1], side_h[k - 1], next), NM_OK);
			if (want != img)
				free(want);
			want = next;
		}
		ck_assert_mem_eq(p->bytes, want, p->len);
	}
	if (want != img)
		free(want);
	free(img);
	nm_edit_free(&ed);
	nm_reader_close(f.r);
}
END_TEST

/* Level 2 alone patches level 2 alone; with level 0 in the same run, in either order, its
 * own bytes stand and level 0's derived level 2 is superseded, while levels 1 and 3
 * stay derived from level 0. */
START_TEST(edited_level_wins_over_derived)
{
	struct fake f;
	fake_init(&f);
	uint8_t *img0 = pattern(16, 8, 1), *img2 = pattern(4, 2, 9);
	for (int order = 0; order < 3; order++) {
		nm_edit ed;
		nm_edit_init(&ed);
		if (order == 1)
			invert(&f, 0, img0, &ed);
		invert(&f, 2, img2, &ed);
		if (order == 2)
			invert(&f, 0, img0, &ed);
		ck_assert_uint_eq(ed.npatches, order ? NLEVELS + 1 : 1);
		nm_patch **ps = malloc(ed.npatches * sizeof *ps);
		for (size_t i = 0; i < ed.npatches; i++)
			ps[i] = &ed.patches[i];
		ck_assert_uint_eq(nm_patches_supersede(ps, ed.npatches), order ? 1 : 0);
		free(ps);
		for (size_t i = 0; i < ed.npatches; i++) {
			const nm_patch *p = &ed.patches[i];
			bool level2 = p->off == f.levels[2].off;
			ck_assert(p->superseded == (level2 && p->derived));
			if (level2 && !p->derived)
				ck_assert_mem_eq(p->bytes, img2, p->len);
		}
		nm_edit_free(&ed);
	}
	free(img0);
	free(img2);
	nm_reader_close(f.r);
}
END_TEST

/* A level whose encoding is what the model has: no patch (derived levels still are). */
START_TEST(same_bytes_no_patch)
{
	struct fake f;
	fake_init(&f);
	uint8_t *zero = calloc(1, 16 * 8 * 4);
	nm_edit ed;
	nm_edit_init(&ed);
	invert(&f, 2, zero, &ed);
	ck_assert_uint_eq(ed.npatches, 0);
	ck_assert_uint_eq(ed.nrefusals, 0);
	/* Level 0 of zeros: its box filters are zeros too, all already there. */
	invert(&f, 0, zero, &ed);
	ck_assert_uint_eq(ed.npatches, 0);
	nm_edit_free(&ed);
	free(zero);
	nm_reader_close(f.r);
}
END_TEST

/* An encoder that changes what it is given (a lossy one) and a decoder: a PNG of the
 * texels the level shows now is no edit at all, and makes no level; without the
 * decoder it would be encoded again. */
static nm_status lossy_encode(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			      unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err)
{
	(void)ctx, (void)level, (void)w, (void)h, (void)ed, (void)err;
	for (size_t i = 0; i < len; i++)
		dst[i] = rgba[i] | 1;
	return NM_OK;
}

static nm_status copy_decode(void *ctx, unsigned level, const uint8_t *src, size_t len,
			     unsigned w, unsigned h, uint8_t *rgba, nm_error *err)
{
	(void)ctx, (void)level, (void)err;
	ck_assert_uint_eq(len, (size_t)w * h * 4);
	memcpy(rgba, src, len);
	return NM_OK;
}

START_TEST(same_texels_no_edit)
{
	struct fake f;
	fake_init(&f);
	f.chain.encode = lossy_encode;
	uint8_t *zero = calloc(1, 16 * 8 * 4);
	nm_edit ed;
	nm_edit_init(&ed);
	invert(&f, 0, zero, &ed);
	ck_assert_uint_eq(ed.npatches, NLEVELS);   /* no decoder: encoded, levels made */
	nm_edit_free(&ed);
	f.chain.decode = copy_decode;
	nm_edit_init(&ed);
	invert(&f, 0, zero, &ed);
	ck_assert_uint_eq(ed.npatches, 0);
	ck_assert_uint_eq(ed.nrefusals, 0);
	nm_edit_free(&ed);
	free(zero);
	nm_reader_close(f.r);
}
END_TEST

START_TEST(refusals_leave_no_patch)
{
	struct fake f;
	fake_init(&f);
	nm_edit ed;
	nm_edit_init(&ed);
	nm_error err;
	/* Another size. */
	uint8_t *img = pattern(8, 8, 3);
	nm_out o = png_of(img, 8, 8);
	ck_assert_int_eq(nm_tex_invert(&f.chain, 0, o.data, o.len, &ed, &err), NM_OK);
	nm_out_free(&o);
	ck_assert_uint_eq(ed.nrefusals, 1);
	ck_assert_str_eq(ed.refusals[0].why, "is 8x8, the texture level is 16x8: a texture of "
			 "another size changes the model's layout, which apply does not do");
	/* Not a PNG. */
	ck_assert_int_eq(nm_tex_invert(&f.chain, 1, (const uint8_t *)"text", 4, &ed, &err), NM_OK);
	ck_assert_uint_eq(ed.nrefusals, 2);
	ck_assert_ptr_nonnull(strstr(ed.refusals[1].why, "is not a PNG"));
	/* A format with no encoder: the encoder's reason; level 0 stops at once. */
	f.refuse = NM_E_UNSUPPORTED;
	free(img);
	img = pattern(16, 8, 4);
	invert(&f, 0, img, &ed);
	ck_assert_uint_eq(ed.nrefusals, 3);
	ck_assert_ptr_nonnull(strstr(ed.refusals[2].why, "no encoder for it"));
	ck_assert_uint_eq(ed.npatches, 0);
	free(img);
	nm_edit_free(&ed);
	nm_reader_close(f.r);
}
END_TEST

static Suite *tex_inverse_suite(void)
{
	Suite *s = suite_create("tex_inverse");
	TCase *tc = tcase_create("tex_inverse");
	tcase_add_test(tc, level0_makes_every_level);
	tcase_add_test(tc, edited_level_wins_over_derived);
	tcase_add_test(tc, same_bytes_no_patch);
	tcase_add_test(tc, same_texels_no_edit);
	tcase_add_test(tc, refusals_leave_no_patch);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(tex_inverse_suite)
