/* Reading edited PNGs (src/export/png_read.c): PNGs of every colour type, depth and
 * interlace that libpng's writer makes here read back as the RGBA8 each sample means
 * (worked out in this file, not by libpng's transforms); a file that is not a PNG, is
 * broken, has another size or needs more memory than the options allow is refused with
 * a message naming it and no buffer. */
#include <check.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include "export/png_read.h"
#include "lib/options.h"
#include "lib/out.h"

/* A PNG libpng writes: w x h samples of the colour type and depth (rows packed as PNG
 * stores them, 16-bit big-endian), a palette and a tRNS chunk when given. */
typedef struct png_spec {
	int type, depth, interlace;
	unsigned w, h;
	const png_color *palette;
	int npalette;
	const uint8_t *trans;      /* palette alphas */
	int ntrans;
	const png_color_16 *trans_value; /* grey or RGB transparent value */
} png_spec;

static void write_out(png_structp png, png_bytep data, size_t n)
{
	nm_out_write(png_get_io_ptr(png), data, n);
}

static void flush_none(png_structp png) { (void)png; }

static nm_out make_png(const png_spec *sp, const uint8_t *samples)
{
	nm_out o;
	nm_out_init(&o);
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	ck_assert(png && info);
	ck_assert(!setjmp(png_jmpbuf(png)));
	png_set_write_fn(png, &o, write_out, flush_none);
	png_set_IHDR(png, info, sp->w, sp->h, sp->depth, sp->type, sp->interlace,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (sp->palette)
		png_set_PLTE(png, info, sp->palette, sp->npalette);
	if (sp->trans || sp->trans_value)
		png_set_tRNS(png, info, sp->trans, sp->ntrans, sp->trans_value);
	png_write_info(png, info);
	size_t rowbytes = png_get_rowbytes(png, info);
	png_bytep *rows = malloc(sp->h * sizeof *rows);
	for (unsigned y = 0; y < sp->h; y++)
		rows[y] = (png_bytep)samples + y * rowbytes;
	png_write_image(png, rows);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(rows);
	return o;
}

static uint8_t *read_ok(const nm_out *o, unsigned w, unsigned h)
{
	uint8_t *rgba;
	nm_error err;
	nm_status s = nm_png_read_level(NULL, o->data, o->len, "x.png", w, h, &rgba, &err);
	ck_assert_msg(s == NM_OK, "%s", err.msg);
	return rgba;
}

static void expect_texel(const uint8_t *rgba, unsigned i, unsigned r, unsigned g, unsigned b,
			 unsigned a)
{
	const uint8_t *p = rgba + 4 * i;
	ck_assert_msg(p[0] == r && p[1] == g && p[2] == b && p[3] == a,
		      "texel %u: %u %u %u %u, expected %u %u %u %u", i, p[0], p[1], p[2], p[3],
		      r, g, b, a);
}

/* Grey of 1, 2, 4 and 8 bits: every code widens to code * 255 / max. */
START_TEST(grey_every_depth)
{
	static const int depths[] = { 1, 2, 4, 8 };
	for (int d = 0; d < 4; d++) {
		int depth = depths[d];
		unsigned max = (1u << depth) - 1, w = 16, h = 2;
		uint8_t samples[2 * 16] = { 0 };
		size_t rowbytes = (w * (unsigned)depth + 7) / 8;
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				unsigned v = (x + y * w) % (max + 1), bit = x * (unsigned)depth;
				samples[y * rowbytes + bit / 8] |= (uint8_t)(v << (8 - depth - bit % 8));
			}
		png_spec sp = { .type = PNG_COLOR_TYPE_GRAY, .depth = depth, .w = w, .h = h };
		nm_out o = make_png(&sp, samples);
		uint8_t *rgba = read_ok(&o, w, h);
		for (unsigned i = 0; i < w * h; i++) {
			unsigned v = i % (max + 1) * 255 / max;
			expect_texel(rgba, i, v, v, v, 255);
		}
		free(rgba);
		nm_out_free(&o);
	}
}
END_TEST

/* 16-bit samples become the nearest 8-bit value: v / 257 rounded. */
START_TEST(sixteen_bits_round_to_nearest)
{
	static const uint16_t v[8] = { 0, 128, 129, 0x8080, 0x80FF, 0x8100, 0xFEFF, 0xFFFF };
	uint8_t samples[8 * 4 * 2];
	for (unsigned i = 0; i < 8; i++)
		for (unsigned c = 0; c < 4; c++) {
			uint16_t s = c == 3 ? v[7 - i] : v[(i + c) % 8];
			samples[(i * 4 + c) * 2] = (uint8_t)(s >> 8);
			samples[(i * 4 + c) * 2 + 1] = (uint8_t)s;
		}
	png_spec sp = { .type = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 16, .w = 8, .h = 1 };
	nm_out o = make_png(&sp, samples);
	uint8_t *rgba = read_ok(&o, 8, 1);
	for (unsigned i = 0; i < 8; i++) {
		unsigned e[4];
		for (unsigned c = 0; c < 4; c++) {
			unsigned s = c == 3 ? v[7 - i] : v[(i + c) % 8];
			e[c] = (s * 255u + 32767u) / 65535u;
		}
		expect_texel(rgba, i, e[0], e[1], e[2], e[3]);
	}
	free(rgba);
	nm_out_free(&o);
}
END_TEST

/* Grey+alpha, RGB and RGBA of 8 bits, each interlaced and not, on an odd size that
 * leaves Adam7's later passes short. */
START_TEST(rgb_rgba_grey_alpha_interlaced)
{
	static const int types[3] = { PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
				      PNG_COLOR_TYPE_RGB_ALPHA };
	static const unsigned ch[3] = { 2, 3, 4 };
	unsigned w = 13, h = 7;
	for (int t = 0; t < 3; t++)
		for (int il = 0; il < 2; il++) {
			uint8_t samples[13 * 7 * 4];
			for (unsigned i = 0; i < w * h * ch[t]; i++)
				samples[i] = (uint8_t)(i * 37 + 11);
			png_spec sp = { .type = types[t], .depth = 8, .w = w, .h = h,
					.interlace = il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE };
			nm_out o = make_png(&sp, samples);
			uint8_t *rgba = read_ok(&o, w, h);
			for (unsigned i = 0; i < w * h; i++) {
				const uint8_t *s = samples + i * ch[t];
				if (ch[t] == 2)
					expect_texel(rgba, i, s[0], s[0], s[0], s[1]);
				else
					expect_texel(rgba, i, s[0], s[1], s[2], ch[t] == 4 ? s[3] : 255);
			}
			free(rgba);
			nm_out_free(&o);
		}
}
END_TEST

/* A palette of 4 bits with tRNS for its first entries (the others opaque), and without. */
START_TEST(palette_with_and_without_trns)
{
	png_color pal[16];
	uint8_t trans[3] = { 0, 128, 200 };
	for (int i = 0; i < 16; i++)
		pal[i] = (png_color){ (uint8_t)(i * 16), (uint8_t)(255 - i), (uint8_t)(i * 7) };
	uint8_t samples[8];   /* 16 texels, two a byte */
	for (int i = 0; i < 8; i++)
		samples[i] = (uint8_t)((2 * i) << 4 | (2 * i + 1));
	for (int withtrns = 0; withtrns < 2; withtrns++) {
		png_spec sp = { .type = PNG_COLOR_TYPE_PALETTE, .depth = 4, .w = 16, .h = 1,
				.palette = pal, .npalette = 16, .trans = withtrns ? trans : NULL,
				.ntrans = withtrns ? 3 : 0 };
		nm_out o = make_png(&sp, samples);
		uint8_t *rgba = read_ok(&o, 16, 1);
		for (unsigned i = 0; i < 16; i++)
			expect_texel(rgba, i, pal[i].red, pal[i].green, pal[i].blue,
				     withtrns && i < 3 ? trans[i] : 255);
		free(rgba);
		nm_out_free(&o);
	}
}
END_TEST

/* tRNS of grey and RGB images: the one value it names is transparent. */
START_TEST(trns_value_grey_and_rgb)
{
	uint8_t grey[4] = { 10, 20, 10, 30 };
	png_color_16 tg = { .gray = 10 };
	png_spec sp = { .type = PNG_COLOR_TYPE_GRAY, .depth = 8, .w = 4, .h = 1, .trans_value = &tg };
	nm_out o = make_png(&sp, grey);
	uint8_t *rgba = read_ok(&o, 4, 1);
	expect_texel(rgba, 0, 10, 10, 10, 0);
	expect_texel(rgba, 1, 20, 20, 20, 255);
	expect_texel(rgba, 3, 30, 30, 30, 255);
	free(rgba);
	nm_out_free(&o);
	uint8_t rgb[6] = { 1, 2, 3, 1, 2, 4 };
	png_color_16 tc = { .red = 1, .green = 2, .blue = 3 };
	png_spec sc = { .type = PNG_COLOR_TYPE_RGB, .depth = 8, .w = 2, .h = 1, .trans_value = &tc };
	o = make_png(&sc, rgb);
	rgba = read_ok(&o, 2, 1);
	expect_texel(rgba, 0, 1, 2, 3, 0);
	expect_texel(rgba, 1, 1, 2, 4, 255);
	free(rgba);
	nm_out_free(&o);
}
END_TEST

static nm_out small_rgba(void)
{
	uint8_t samples[8 * 4 * 4];
	for (unsigned i = 0; i < sizeof samples; i++)
		samples[i] = (uint8_t)i;
	png_spec sp = { .type = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 8, .w = 8, .h = 4 };
	return make_png(&sp, samples);
}

static void expect_refusal(const uint8_t *p, size_t len, const char *name, unsigned w,
			   unsigned h, const nm_options *opt, nm_status code, const char *msg)
{
	uint8_t *rgba = (uint8_t *)1;
	nm_error err;
	ck_assert_int_eq(nm_png_read_level(opt, p, len, name, w, h, &rgba, &err), code);
	ck_assert_ptr_null(rgba);
	ck_assert_msg(strstr(err.msg, msg) != NULL, "'%s' lacks '%s'", err.msg, msg);
}

START_TEST(refusals_name_the_file)
{
	nm_out o = small_rgba();
	/* Another size, either side. */
	expect_refusal(o.data, o.len, "work/tex/a.png", 4, 4, NULL, NM_E_INVAL,
		       "work/tex/a.png: is 8x4, the texture level is 4x4: a texture of another "
		       "size changes the model's layout, which apply does not do");
	expect_refusal(o.data, o.len, "a.png", 8, 8, NULL, NM_E_INVAL, "a.png: is 8x4,");
	/* Without a name: the reason alone. */
	uint8_t *rgba;
	nm_error err;
	ck_assert_int_eq(nm_png_read_level(NULL, o.data, o.len, NULL, 4, 4, &rgba, &err),
			 NM_E_INVAL);
	ck_assert_str_eq(err.msg, "is 8x4, the texture level is 4x4: a texture of another "
			 "size changes the model's layout, which apply does not do");
	/* Not a PNG; empty. */
	expect_refusal((const uint8_t *)"GIF89a....", 10, "b.png", 8, 4, NULL, NM_E_FORMAT,
		       "b.png: is not a PNG");
	expect_refusal(o.data, 0, "b.png", 8, 4, NULL, NM_E_FORMAT, "b.png: is not a PNG");
	/* Cut anywhere after the signature: broken, never read past the end. */
	for (size_t cut = 8; cut < o.len; cut += 3)
		expect_refusal(o.data, cut, "c.png", 8, 4, NULL, NM_E_FORMAT, "c.png: is broken");
	/* A flipped byte in IDAT: its CRC says so. */
	uint8_t *bad = malloc(o.len);
	memcpy(bad, o.data, o.len);
	bad[8 + 25 + 10] ^= 0x40;
	expect_refusal(bad, o.len, "d.png", 8, 4, NULL, NM_E_FORMAT, "d.png: is broken");
	free(bad);
	/* The texels need 128 bytes: a limit of 64 refuses them before libpng reads a row. */
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 64;
	expect_refusal(o.data, o.len, "e.png", 8, 4, &opt, NM_E_LIMIT, "max_file_size");
	nm_out_free(&o);
}
END_TEST

static Suite *png_read_suite(void)
{
	Suite *s = suite_create("png_read");
	TCase *tc = tcase_create("png_read");
	tcase_add_test(tc, grey_every_depth);
	tcase_add_test(tc, sixteen_bits_round_to_nearest);
	tcase_add_test(tc, rgb_rgba_grey_alpha_interlaced);
	tcase_add_test(tc, palette_with_and_without_trns);
	tcase_add_test(tc, trns_value_grey_and_rgb);
	tcase_add_test(tc, refusals_name_the_file);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(png_read_suite)
