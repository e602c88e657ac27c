/* Tests for Tropical Freeze textures (TXTR): fixture textures of every decoded format
 * (and cube maps, arrays, every GPU codec, several buffers), each PNG compared with what
 * the fixture encoded; laziness and exact sizes; damaged and unsupported textures; the
 * corpus, whose five references must come out pixel for pixel. */
#include <check.h>
#include <dirent.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_expect.h"
#include "codec/astc.h"
#include "codec/bcn.h"
#include "fixtures/rfrm_writer.h"
#include "fixtures/txtr_writer.h"
#include "formats/driver.h"
#include "formats/rfrm/rfrm.h"
#include "lib/tree.h"
#include "tests/walk.h"

/* ---- helpers ---------------------------------------------------------------------- */

static nm_tree *build_with(const uint8_t *data, size_t len, const char *name,
			   const nm_options *opt)
{
	nm_error err;
	nm_reader *r;
	uint8_t *copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, len);
	ck_assert_int_eq(nm_reader_new_memory(name, copy, len, &r, &err), NM_OK);
	nm_tree *t = nm_tree_new(opt);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	ck_assert_msg(nm_build_any(r, t, nm_tree_root(t), &err) == NM_OK, "%s: %s", name,
		      err.msg);
	return t;
}

static nm_tree *build_txtr(const rfx_txtr *x, const nm_options *opt)
{
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_txtr_write(x, &b), 0);
	nm_tree *t = build_with(b.data, b.len, "fixture.txtr", opt);
	rfx_buf_free(&b);
	return t;
}

/* A PNG of the tree as RGBA (libpng expands grey and RGB), w x h checked. */
static uint8_t *png_rgba(nm_tree *t, const char *path, uint32_t w, uint32_t h)
{
	size_t len;
	char *png = walk_read(t, path, &len);
	ck_assert_msg(png != NULL, "%s cannot be read", path);
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	ck_assert_msg(png_image_begin_read_from_memory(&img, png, len), "%s: %s", path,
		      img.message);
	ck_assert_msg(img.width == w && img.height == h, "%s is %ux%u, expected %ux%u", path,
		      img.width, img.height, w, h);
	img.format = PNG_FORMAT_RGBA;
	uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
	ck_assert_msg(png_image_finish_read(&img, NULL, rgba, 0, NULL), "%s: %s", path,
		      img.message);
	free(png);
	return rgba;
}

static uint8_t *png_file_rgba(const char *path, uint32_t *w, uint32_t *h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	ck_assert_msg(png_image_begin_read_from_file(&img, path), "%s: %s", path, img.message);
	img.format = PNG_FORMAT_RGBA;
	uint8_t *rgba = malloc(PNG_IMAGE_SIZE(img));
	ck_assert_msg(png_image_finish_read(&img, NULL, rgba, 0, NULL), "%s: %s", path,
		      img.message);
	*w = img.width;
	*h = img.height;
	return rgba;
}

static bool is_astc(uint32_t f) { return f >= 53 && f <= 80; }
static bool is_bcn(uint32_t f) { return (f >= 20 && f <= 28) || f == 83 || f == 84; }

/* What the PNG of one level must hold, worked out from the fixture's own data: the
 * image for the plain formats, the codecs' decoding of the blocks it encoded for the
 * compressed ones (the codecs have their own known-answer tests). */
static uint8_t *expected(const rfx_txtr *x, uint32_t layer, uint32_t level)
{
	uint32_t w, h;
	uint8_t *img = rfx_txtr_image(x, layer, level, &w, &h);
	size_t n = (size_t)w * h;
	if (x->format == 0 || x->format == 32) {
		for (size_t i = 0; i < n; i++) {
			uint8_t *p = img + 4 * i;
			if (x->format == 0)
				p[1] = p[2] = p[0];
			else
				p[2] = 0;
			p[3] = 255;
		}
	} else if (is_bcn(x->format) || is_astc(x->format)) {
		size_t len;
		uint8_t *blocks = rfx_txtr_blocks(x, layer, level, &len);
		ck_assert_ptr_nonnull(blocks);
		if (is_astc(x->format)) {
			static const unsigned s[14][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 },
							   { 6, 6 }, { 8, 5 }, { 8, 6 }, { 8, 8 },
							   { 10, 5 }, { 10, 6 }, { 10, 8 },
							   { 10, 10 }, { 12, 10 }, { 12, 12 } };
			const unsigned *bs = s[(x->format - 53) % 14];
			ck_assert_int_eq(nm_astc_decode(nm_options_defaults(), bs[0], bs[1],
							x->format >= 67, blocks, len, w, h, img),
					 NM_OK);
		} else {
			static const nm_bcn_format bc[9] = { NM_BC1, NM_BC1, NM_BC2, NM_BC2, NM_BC3,
							     NM_BC3, NM_BC4, NM_BC4, NM_BC5 };
			nm_bcn_format f = x->format >= 83 ? NM_BC7 : bc[x->format - 20];
			ck_assert_int_eq(nm_bcn_decode(f, blocks, len, w, h, img), NM_OK);
		}
		free(blocks);
		if (x->format == 26 || x->format == 28) /* grey / RGB PNGs: alpha 255 */
			for (size_t i = 0; i < n; i++)
				img[4 * i + 3] = 255;
	}
	return img;
}

static void png_path(const rfx_txtr *x, uint32_t layer, uint32_t level, char *buf, size_t len)
{
	if (x->depth <= 1)
		snprintf(buf, len, "/tex/%u.png", level);
	else
		snprintf(buf, len, "/tex/%s%u/%u.png", x->type == 3 && x->depth == 6 ? "face" : "layer",
			 layer, level);
}

/* Every level of every layer equals what the fixture encoded. */
static void check_texture(const rfx_txtr *x, const nm_options *opt)
{
	nm_tree *t = build_txtr(x, opt);
	expect_clean_walk(t);
	for (uint32_t layer = 0; layer < (x->depth ? x->depth : 1); layer++)
		for (uint32_t k = 0; k < x->levels; k++) {
			char path[64];
			uint32_t w = x->width >> k ? x->width >> k : 1;
			uint32_t h = x->height >> k ? x->height >> k : 1;
			png_path(x, layer, k, path, sizeof path);
			uint8_t *got = png_rgba(t, path, w, h), *want = expected(x, layer, k);
			for (size_t i = 0; i < (size_t)w * h * 4; i++)
				if (got[i] != want[i])
					ck_abort_msg("format %u %s: byte %zu (texel %zu, %zu) is %u, expected %u",
						     x->format, path, i, i / 4 % w, i / 4 / w, got[i],
						     want[i]);
			free(got);
			free(want);
		}
	uint8_t *surf;
	size_t slen, got_len;
	ck_assert_int_eq(rfx_txtr_surface(x, &surf, &slen), 0);
	char *bin = walk_read(t, "/gpu/surface.bin", &got_len);
	ck_assert_uint_eq(got_len, slen);
	ck_assert(memcmp(bin, surf, slen) == 0);
	free(bin);
	free(surf);
	nm_tree_free(t);
}

static uint32_t full_chain(uint32_t w, uint32_t h)
{
	uint32_t n = 1, m = w > h ? w : h;
	while (m >>= 1)
		n++;
	return n;
}

/* ---- fixtures --------------------------------------------------------------------- */

static const uint32_t decoded_formats[] = {
	0, 12, 13, 32, 20, 21, 22, 23, 24, 25, 26, 28,
	53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 72, 83, 84,
};

START_TEST(every_format)
{
	/* Sides that are not multiples of any block, and every level down to 1x1. */
	rfx_txtr x = { .type = 1, .format = decoded_formats[_i], .width = 70, .height = 45,
		       .depth = 1, .codec = RFX_ZLIB, .seed = 7 + (uint32_t)_i };
	x.levels = full_chain(x.width, x.height);
	check_texture(&x, NULL);
}
END_TEST

START_TEST(cube_and_array)
{
	rfx_txtr cube = { .type = 3, .format = 12, .width = 24, .height = 24, .depth = 6,
			  .levels = 5, .codec = RFX_ZLIB, .seed = 3 };
	check_texture(&cube, NULL);
	rfx_txtr arr = { .type = 5, .format = 58, .width = 40, .height = 30, .depth = 3,
			 .levels = 3, .codec = RFX_LZSS32_LONG_ARITH, .seed = 4 };
	check_texture(&arr, NULL);
	nm_tree *t = build_txtr(&cube, NULL);
	expect(t, "/gpu/header.txt", "layers: 6\nlayer_size: ");
	expect(t, "/info.txt", "png_files: 30\n");
	ck_assert(walk_read(t, "/tex/0.png", NULL) == NULL);
	nm_tree_free(t);
}
END_TEST

START_TEST(every_codec)
{
	rfx_txtr x = { .type = 1, .format = 12, .width = 33, .height = 17, .depth = 1,
		       .levels = 3, .codec = (int)_i, .seed = 11 };
	check_texture(&x, NULL);
}
END_TEST

START_TEST(several_buffers)
{
	/* Buffers that end by themselves can follow each other. */
	rfx_txtr x = { .type = 1, .format = 55, .width = 64, .height = 64, .depth = 1,
		       .levels = 4, .codec = RFX_ZLIB, .buffers = 3, .seed = 5 };
	check_texture(&x, NULL);
	x.codec = RFX_LZSS8_ARITH;
	check_texture(&x, NULL);
	/* A stored buffer does not: its length is the rest of the chunk, which holds more
	 * than the surface. */
	x.codec = RFX_STORED;
	nm_tree *t = build_txtr(&x, NULL);
	expect(t, "/info.txt", "png_files: 4\n");
	ck_assert(walk_read(t, "/gpu/surface.bin", NULL) == NULL);
	expect_read_fails(t, "/tex/0.png", NM_E_FORMAT, "fixture.txtr: GPU at 0x",
			  "STORED buffer decodes to more than the 6144 bytes left");
	nm_tree_free(t);
}
END_TEST

START_TEST(mount_decodes_nothing)
{
	rfx_txtr x = { .type = 1, .format = 58, .width = 256, .height = 128, .depth = 1,
		       .levels = 9, .codec = RFX_ZLIB, .seed = 2 };
	nm_tree *t = build_txtr(&x, NULL);
	walk_stats st;
	/* Stat every file: sizes come from HEAD. */
	nm_node **kids;
	size_t n;
	nm_error err;
	nm_node *tex;
	ck_assert_int_eq(nm_resolve(t, "/tex", &tex, &err), NM_OK);
	ck_assert_int_eq(nm_children(t, tex, &kids, &n, &err), NM_OK);
	ck_assert_uint_eq(n, 9);
	uint64_t sizes[9];
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(nm_size(t, kids[i], &sizes[i], &err), NM_OK);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	/* Then read: each file is exactly the size announced. */
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert(nm_tree_productions(t) > 0);
	nm_tree_free(t);
}
END_TEST

/* A mount reads by ranges. The head of every level's PNG (a file manager sniffing tex/)
 * inflates the stream once: the first head past half the surface has surface.bin made
 * whole into the cache, and the others' rows come from it (each used to inflate the
 * stream up to its bytes again, and nothing was made). */
START_TEST(level_heads_share_the_surface)
{
	rfx_txtr x = { .type = 1, .format = 58, .width = 512, .height = 512, .depth = 1,
		       .levels = 10, .codec = RFX_ZLIB, .seed = 3 };
	nm_tree *t = build_txtr(&x, NULL);
	nm_tree_allow_ranges(t);
	nm_error err;
	nm_node *surface, *png[10];
	ck_assert_int_eq(nm_resolve(t, "/gpu/surface.bin", &surface, &err), NM_OK);
	for (uint32_t level = 0; level < x.levels; level++) {
		char path[32];
		uint8_t head[4096];
		size_t got;
		snprintf(path, sizeof path, "/tex/%u.png", level);
		ck_assert_int_eq(nm_resolve(t, path, &png[level], &err), NM_OK);
		ck_assert_int_eq(nm_read(t, png[level], 0, head, sizeof head, &got, &err), NM_OK);
		ck_assert_uint_gt(got, 0);
		/* What was made: surface.bin at most once, and the PNGs a head holds whole
		 * (a range through a PNG's end is made whole, export/png.h). */
		uint64_t pngs = 0;
		for (uint32_t l = 0; l <= level; l++)
			pngs += nm_node_produced(t, png[l]);
		ck_assert_uint_le(nm_tree_productions(t) - pngs, 1);
	}
	ck_assert(nm_node_produced(t, surface));
	nm_tree_free(t);
}
END_TEST

START_TEST(short_streams)
{
	/* A 1x1 RGBA8 texture in one GOB (512 bytes), stored: the texel is the first 4
	 * bytes. The stream may stop anywhere after them (padded with zeros), not before. */
	rfx_txtr x = { .type = 1, .format = 12, .width = 1, .height = 1, .depth = 1,
		       .levels = 1, .codec = RFX_STORED, .seed = 9 };
	for (size_t keep = 3; keep <= 5; keep++) {
		rfx_buf b = { 0 };
		ck_assert_int_eq(rfx_txtr_write(&x, &b), 0);
		size_t cut = 512 - keep;
		uint64_t gpu_size = 4 + keep, form_size = b.len - cut - 0x20;
		for (int i = 0; i < 8; i++) {
			b.data[b.len - 4 - 512 - 0x18 + 4 + i] = (uint8_t)(gpu_size >> (56 - 8 * i));
			b.data[4 + i] = (uint8_t)(form_size >> (56 - 8 * i));
		}
		b.len -= cut;
		nm_tree *t = build_with(b.data, b.len, "short.txtr", NULL);
		size_t len;
		char *bin = walk_read(t, "/gpu/surface.bin", &len);
		if (keep < 4) {
			ck_assert(bin == NULL);
			expect_read_fails(t, "/tex/0.png", NM_E_FORMAT, "short.txtr: GPU at 0x",
					  "decode to 3 bytes; the texels reach byte 4");
		} else {
			ck_assert_ptr_nonnull(bin);
			ck_assert_uint_eq(len, 512);
			for (size_t i = keep; i < 512; i++)
				ck_assert_uint_eq((uint8_t)bin[i], 0);
			expect_clean_walk(t);
		}
		free(bin);
		nm_tree_free(t);
		rfx_buf_free(&b);
	}
}
END_TEST

START_TEST(not_decoded)
{
	struct { uint32_t version, format; const char *info; bool surface; } cases[] = {
		{ 15, 81, "png_files: 0 (BC6H_UFLOAT is not decoded: half floats", true },
		{ 15, 14, "png_files: 0 (RGBA16_FLOAT is not decoded: float", true },
		{ 15, 1, "png_files: 0 (R8_SNORM is not decoded", true },
		{ 10, 12, "surface: none (Wii U surface (GX2 tiling, tile mode 0): not decoded", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rfx_txtr x = { .version = cases[i].version, .type = 1, .format = cases[i].format,
			       .width = 16, .height = 8, .depth = 1, .levels = 2,
			       .codec = RFX_ZLIB, .seed = 1 };
		nm_tree *t = build_txtr(&x, NULL);
		expect(t, "/info.txt", cases[i].info);
		expect(t, "/info.txt", "errors: 0\n");
		ck_assert(walk_read(t, "/tex/0.png", NULL) == NULL);
		char *bin = walk_read(t, "/gpu/surface.bin", NULL);
		ck_assert((bin != NULL) == cases[i].surface);
		free(bin);
		expect_clean_walk(t);
		nm_tree_free(t);
	}
}
END_TEST

START_TEST(header_checks)
{
	/* HEAD's size of level 0 disagrees with the format: no PNG, the surface stays. */
	rfx_txtr x = { .type = 1, .format = 58, .width = 64, .height = 64, .depth = 1,
		       .levels = 2, .codec = RFX_ZLIB, .mip0_bias = 16, .seed = 1 };
	nm_tree *t = build_txtr(&x, NULL);
	expect(t, "/info.txt", "png_files: 0 (HEAD gives level 0 1680 bytes, ASTC_8x5 at 64x64 x 1 layers takes 1664");
	expect(t, "/head/header.txt", "mip0: 64x64, 1680 bytes\n");
	expect_clean_walk(t);
	nm_tree_free(t);
	/* max_dimension: no PNG, said why. */
	nm_options opt;
	nm_options_init(&opt);
	opt.max_dimension = 32;
	x.mip0_bias = 0;
	t = build_txtr(&x, &opt);
	expect(t, "/info.txt", "png_files: 0 (64x64 is larger than max_dimension (32)");
	nm_tree_free(t);
}
END_TEST

START_TEST(header_text)
{
	rfx_txtr x = { .type = 1, .format = 54, .width = 40, .height = 20, .depth = 1,
		       .levels = 2, .codec = RFX_LZSS16_LONG, .seed = 1 };
	nm_tree *t = build_txtr(&x, NULL);
	expect(t, "/head/header.txt",
	       "type: 2D (0x1)\nformat: ASTC_5x4 (0x36)\nwidth: 40\nheight: 20\ndepth: 1\n"
	       "tile_mode: 0\nswizzle: 3\nmip_count: 2\nmip0: 40x20, 640 bytes\n"
	       "mip1: 20x10, 192 bytes\nsampler_flags: 0x1\nfilter: LINEAR (0x1)\n"
	       "wrap_x: WRAP (0x1)\nwrap_y: CLAMP (0x0)\nwrap_z: MIRROR (0x2)\n");
	expect(t, "/gpu/header.txt", "codec: LZSS16_LONG (0x8)\n");
	expect(t, "/gpu/header.txt", "level0: 40x20, 8x5 blocks of 16 bytes, block height 1, at 0x0, 1024 bytes\n");
	expect(t, "/info.txt", "texture_format: ASTC_5x4 (0x36)\n");
	nm_tree_free(t);
}
END_TEST

START_TEST(bad_heads)
{
	rfx_txtr x = { .type = 1, .format = 12, .width = 8, .height = 8, .depth = 1,
		       .levels = 1, .codec = RFX_ZLIB, .seed = 1 };
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_txtr_write(&x, &b), 0);
	/* HEAD data at 0x38: mip count at +0x1c. */
	static const uint32_t counts[] = { 0, 18, 0x40000000u };
	for (size_t i = 0; i < 3; i++) {
		for (int k = 0; k < 4; k++)
			b.data[0x38 + 0x1c + k] = (uint8_t)(counts[i] >> (24 - 8 * k));
		nm_tree *t = build_with(b.data, b.len, "bad.txtr", NULL);
		expect(t, "/head/error.txt", "bad.txtr: HEAD at 0x");
		expect(t, "/info.txt", "errors: 1\n");
		ck_assert(walk_read(t, "/tex/0.png", NULL) == NULL);
		expect_clean_walk(t);
		nm_tree_free(t);
	}
	rfx_buf_free(&b);
}
END_TEST

START_TEST(astc_under_limits)
{
	/* 16 MiB max_file_size: below libastcenc's context, so ASTC is refused when read
	 * (before libastcenc allocates); RGBA8 is not affected. */
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 16u << 20;
	rfx_txtr x = { .type = 1, .format = 58, .width = 16, .height = 16, .depth = 1,
		       .levels = 1, .codec = RFX_ZLIB, .seed = 1 };
	nm_tree *t = build_txtr(&x, &opt);
	expect_read_fails(t, "/tex/0.png", NM_E_LIMIT, "max_file_size", NULL);
	nm_tree_free(t);
	x.format = 12;
	check_texture(&x, &opt);
}
END_TEST

/* A header that claims a 16384 x 16384 ASTC 8x8 texture over a GPU chunk of a few
 * bytes: the mount reads HEAD only (every size exact, nothing produced); under a
 * 64 MiB max_file_size the level 0 PNG (1 GiB) and the surface (85 MiB) are refused
 * before anything is allocated, and a small level still fails on the short surface. */
START_TEST(huge_header)
{
	rfx_txtr x = { .type = 1, .format = 60, .width = 16384, .height = 16384, .depth = 1,
		       .levels = 15, .codec = RFX_ZLIB };
	uint8_t small[64] = { 0 };
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_txtr_write_surface(&x, small, sizeof small, &b), 0);
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 64u << 20;
	nm_tree *t = build_with(b.data, b.len, "huge.txtr", &opt);
	nm_node *n;
	nm_error err;
	uint64_t size;
	ck_assert_int_eq(nm_resolve(t, "/tex/0.png", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	ck_assert_uint_gt(size, 1u << 30);
	ck_assert_int_eq(nm_resolve(t, "/gpu/surface.bin", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	ck_assert_uint_eq(size, rfx_txtr_surface_size(&x));
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_read_fails(t, "/tex/0.png", NM_E_LIMIT, "max_file_size", NULL);
	expect_read_fails(t, "/gpu/surface.bin", NM_E_LIMIT, "max_file_size", NULL);
	expect_read_fails(t, "/tex/14.png", NM_E_LIMIT, "max_file_size", NULL);
	nm_tree_free(t);
	/* Without the limit the surface is produced, and found short. */
	t = build_with(b.data, b.len, "huge.txtr", NULL);
	expect_read_fails(t, "/tex/14.png", NM_E_FORMAT, "huge.txtr: GPU at 0x",
			  "the buffers decode to 64 bytes");
	nm_tree_free(t);
	rfx_buf_free(&b);
}
END_TEST

/* ---- models see their textures ------------------------------------------------------ */

/* A PAK of the sample model (named "fish") and textures: its DIFT texture (an RGBA8
 * texture named "fish_diffuse"), and, when cube is set, its NMAP texture as a cube map.
 * dift_is_model: the model's DIFT GUID is the model's own. */
static nm_tree *fish_pak(bool cube, bool dift_is_model, rfx_txtr *diffuse)
{
	rfx_sample s;
	rfx_sample_init(&s, 21);
	uint8_t model_guid[16], nmap_guid[16];
	rfx_guid(model_guid, 500);
	rfx_guid(nmap_guid, 79);   /* the sample's NMAP texture */
	if (dift_is_model)
		memcpy(s.diffuse, model_guid, 16);
	rfx_buf model = { 0 }, meta = { 0 }, tex = { 0 }, tex2 = { 0 }, pak = { 0 };
	ck_assert_int_eq(rfx_sample_write(&s, "CMDL", RFX_ZLIB, false, &model, &meta), 0);
	*diffuse = (rfx_txtr){ .type = 1, .format = 12, .width = 16, .height = 8, .depth = 1,
			       .levels = 2, .codec = RFX_ZLIB, .seed = 44 };
	rfx_txtr nmap = { .type = 3, .format = 12, .width = 8, .height = 8, .depth = 6,
			  .levels = 1, .codec = RFX_ZLIB, .seed = 45 };
	ck_assert_int_eq(rfx_txtr_write(diffuse, &tex), 0);
	ck_assert_int_eq(rfx_txtr_write(&nmap, &tex2), 0);
	rfx_asset a[3] = {
		{ "CMDL", { 0 }, "fish", model.data, model.len, meta.data, meta.len },
		{ "TXTR", { 0 }, "fish_diffuse", tex.data, tex.len, NULL, 0 },
		{ "TXTR", { 0 }, "fish_normal", tex2.data, tex2.len, NULL, 0 },
	};
	memcpy(a[0].guid, model_guid, 16);
	memcpy(a[1].guid, s.diffuse, 16);
	if (dift_is_model)
		rfx_guid(a[1].guid, 501);
	memcpy(a[2].guid, nmap_guid, 16);
	ck_assert_int_eq(rfx_pak_write_as(a, cube ? 3 : 2, true, &pak), 0);
	nm_tree *t = build_with(pak.data, pak.len, "fish.pak", NULL);
	rfx_buf_free(&model);
	rfx_buf_free(&meta);
	rfx_buf_free(&tex);
	rfx_buf_free(&tex2);
	rfx_buf_free(&pak);
	return t;
}

/* The glb at glb embeds the bytes of the PNG at png as its one image, which its one
 * material takes as the base colour. */
static void expect_glb_embeds(nm_tree *t, const char *glb_path, const char *png_path)
{
	size_t glen, plen;
	char *glb = walk_read(t, glb_path, &glen);
	char *png = walk_read(t, png_path, &plen);
	ck_assert_ptr_nonnull(glb);
	ck_assert_ptr_nonnull(png);
	ck_assert_ptr_nonnull(memmem(glb, glen, png, plen));
	static const char img[] = "\"images\":[{", tex[] = "\"baseColorTexture\":{\"index\":0,";
	ck_assert_ptr_nonnull(memmem(glb, glen, img, sizeof img - 1));
	ck_assert_ptr_nonnull(memmem(glb, glen, tex, sizeof tex - 1));
	free(glb);
	free(png);
}

START_TEST(pak_model_textures)
{
	rfx_txtr diffuse;
	nm_tree *t = fish_pak(true, false, &diffuse);
	expect(t, "/fish.cmdl/mesh.mtl", "map_Kd ../fish_diffuse.txtr/tex/0.png\n");
	expect(t, "/fish.cmdl/mesh.mtl", "Textures are TXTR assets of this\n# PAK");
	/* The path mesh.mtl gives, taken from its directory (/fish.cmdl), exists in the
	 * mount and is the texture's level 0. */
	char *mtl = walk_read(t, "/fish.cmdl/mesh.mtl", NULL), path[256];
	ck_assert(sscanf(strstr(mtl, "map_Kd ") + 7, "../%200s", path + 1) == 1);
	path[0] = '/';
	free(mtl);
	uint8_t *got = png_rgba(t, path, 16, 8);
	uint8_t *want = expected(&diffuse, 0, 0);
	ck_assert(memcmp(got, want, 16 * 8 * 4) == 0);
	free(got);
	free(want);
	expect_glb_embeds(t, "/fish.cmdl/model.glb", path);
	expect(t, "/fish.cmdl/mtrl/0.txt",
	       "dift_slot: DIFTTXTR (diffuse)\ndift_asset: fish_diffuse.txtr\n"
	       "dift_png: ../fish_diffuse.txtr/tex/0.png\n");
	/* The normal map is a cube map: no single PNG, said in mtrl/ and mesh.mtl. */
	char g[RFRM_GUID_STR], line[128];
	uint8_t nmap_guid[16];
	rfx_guid(nmap_guid, 79);
	rfrm_guid_str(g, nmap_guid);
	expect(t, "/fish.cmdl/mtrl/0.txt",
	       "nmap_slot: NMAPTXTR (normal)\nnmap_asset: fish_normal.txtr\n"
	       "nmap_png: none (6 layers (a cube map): no single PNG)\n");
	snprintf(line, sizeof line, "# NMAPTXTR: %s (no PNG in this PAK: see mtrl/)\n", g);
	expect(t, "/fish.cmdl/mesh.mtl", line);
	expect_not(t, "/fish.cmdl/mesh.mtl", "map_Bump");
	expect_clean_walk(t);
	nm_tree_free(t);
	/* Without the cube map, and with the DIFT GUID naming the model itself. */
	t = fish_pak(false, true, &diffuse);
	expect(t, "/fish.cmdl/mtrl/0.txt", "nmap_asset: none (no asset of this PAK has the GUID)\n");
	expect(t, "/fish.cmdl/mtrl/0.txt",
	       "dift_asset: fish.cmdl\ndift_png: none (a CMDL asset, not a TXTR)\n");
	expect_not(t, "/fish.cmdl/mesh.mtl", "map_Kd");
	nm_tree_free(t);
}
END_TEST

static void write_file(const char *dir, const char *name, const rfx_buf *b)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b->data, 1, b->len, f), b->len);
	fclose(f);
}

/* A folder mount: the model and its textures as loose files, named by GUID (dashed, as
 * nmodelfs names them, or pakpydkctf's NAME__HEX.txtr): mesh.mtl links the PNGs. */
START_TEST(folder_model_textures)
{
	char dir[] = "/tmp/nm_folder_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	rfx_sample s;
	rfx_sample_init(&s, 21);
	rfx_buf model = { 0 }, meta = { 0 }, tex = { 0 }, tex2 = { 0 };
	ck_assert_int_eq(rfx_sample_write(&s, "CMDL", RFX_ZLIB, true, &model, &meta), 0);
	rfx_txtr diffuse = { .type = 1, .format = 12, .width = 16, .height = 8, .depth = 1,
			     .levels = 2, .codec = RFX_ZLIB, .seed = 44 };
	rfx_txtr nmap = { .type = 3, .format = 12, .width = 8, .height = 8, .depth = 6,
			  .levels = 1, .codec = RFX_ZLIB, .seed = 45 };
	ck_assert_int_eq(rfx_txtr_write(&diffuse, &tex), 0);
	ck_assert_int_eq(rfx_txtr_write(&nmap, &tex2), 0);
	char g[RFRM_GUID_STR], name[128], hex[33];
	uint8_t nmap_guid[16];
	rfrm_guid_str(g, s.diffuse);
	snprintf(name, sizeof name, "%s.txtr", g);
	write_file(dir, name, &tex);
	rfx_guid(nmap_guid, 79);   /* the sample's NMAP texture */
	rfrm_guid_str(g, nmap_guid);
	size_t k = 0;
	for (const char *p = g; *p; p++)
		if (*p != '-')
			hex[k++] = (char)(*p >= 'a' ? *p - 32 : *p); /* upper case: case is ignored */
	hex[k] = '\0';
	snprintf(name, sizeof name, "Fish_nmaptxtr__%s.txtr", hex);
	write_file(dir, name, &tex2);
	write_file(dir, "fish.cmdl", &model);
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(nm_open_model(dir, NULL, &t, &err), NM_OK);
	rfrm_guid_str(g, s.diffuse);
	char line[256];
	snprintf(line, sizeof line, "map_Kd ../%s.txtr/tex/0.png\n", g);
	expect(t, "/fish.cmdl/mesh.mtl", line);
	expect(t, "/fish.cmdl/mesh.mtl", "Textures are TXTR files beside\n# the model");
	snprintf(line, sizeof line, "dift_asset: %s.txtr\ndift_png: ../%s.txtr/tex/0.png\n", g, g);
	expect(t, "/fish.cmdl/mtrl/0.txt", line);
	snprintf(line, sizeof line, "nmap_asset: %s\nnmap_png: none (6 layers", name);
	expect(t, "/fish.cmdl/mtrl/0.txt", line);
	/* The path mesh.mtl gives exists and is the texture's level 0. */
	snprintf(line, sizeof line, "/%s.txtr/tex/0.png", g);
	uint8_t *got = png_rgba(t, line, 16, 8), *want = expected(&diffuse, 0, 0);
	ck_assert(memcmp(got, want, 16 * 8 * 4) == 0);
	free(got);
	free(want);
	expect_glb_embeds(t, "/fish.cmdl/model.glb", line);
	expect_clean_walk(t);
	nm_tree_free(t);
	/* Without the texture beside it, the model is on its own again. */
	snprintf(line, sizeof line, "%s/%s.txtr", dir, g);
	unlink(line);
	snprintf(line, sizeof line, "%s/%s", dir, name);
	unlink(line);
	ck_assert_int_eq(nm_open_model(dir, NULL, &t, &err), NM_OK);
	expect(t, "/fish.cmdl/mesh.mtl", "This model is mounted on its own");
	nm_tree_free(t);
	snprintf(line, sizeof line, "%s/fish.cmdl", dir);
	unlink(line);
	rmdir(dir);
	rfx_buf_free(&model);
	rfx_buf_free(&meta);
	rfx_buf_free(&tex);
	rfx_buf_free(&tex2);
}
END_TEST

START_TEST(model_alone_keeps_guids)
{
	rfx_sample s;
	rfx_sample_init(&s, 21);
	rfx_buf model = { 0 };
	ck_assert_int_eq(rfx_sample_write(&s, "CMDL", RFX_ZLIB, false, &model, NULL), 0);
	nm_tree *t = build_with(model.data, model.len, "fish.cmdl", NULL);
	char g[RFRM_GUID_STR], line[128];
	rfrm_guid_str(g, s.diffuse);
	snprintf(line, sizeof line, "map_Kd %s.png\n", g);
	expect(t, "/mesh.mtl", line);
	expect(t, "/mesh.mtl", "This model is mounted on its own");
	expect(t, "/mtrl/0.txt", "dift_slot: DIFTTXTR (diffuse)\ndift_asset: unknown (the model is mounted on its own");
	expect_not(t, "/mtrl/0.txt", "dift_png");
	nm_tree_free(t);
	rfx_buf_free(&model);
}
END_TEST

/* ---- corpus ----------------------------------------------------------------------- */

static char *corpus;

static size_t corpus_names(char names[][512], size_t max, const char *suffix)
{
	DIR *d = opendir(corpus);
	size_t n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name), sl = strlen(suffix);
		if (l > sl && strcmp(e->d_name + l - sl, suffix) == 0 &&
		    !(strcmp(suffix, ".txtr") == 0 && strstr(e->d_name, ".ref.png")))
			snprintf(names[n++], 512, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

static nm_tree *corpus_tree(const char *name)
{
	char path[4096];
	size_t len;
	snprintf(path, sizeof path, "%s/%s", corpus, name);
	uint8_t *data = walk_load_file(path, &len);
	ck_assert_msg(data != NULL, "%s", path);
	nm_tree *t = build_with(data, len, name, NULL);
	free(data);
	return t;
}

START_TEST(corpus_every_texture)
{
	if (!(corpus = walk_corpus_dir("txtr")))
		return;
	char names[32][512];
	size_t n = corpus_names(names, 32, ".txtr");
	ck_assert_uint_eq(n, 9);
	for (size_t i = 0; i < n; i++) {
		nm_tree *t = corpus_tree(names[i]);
		ck_assert_uint_eq(nm_tree_productions(t), 0);
		expect(t, "/info.txt", "errors: 0\n");
		expect(t, "/info.txt", "platform: Switch");
		expect_not(t, "/info.txt", "png_files: 0");
		expect_clean_walk(t);
		nm_tree_free(t);
	}
	free(corpus);
}
END_TEST

START_TEST(corpus_references)
{
	if (!(corpus = walk_corpus_dir("txtr")))
		return;
	char names[32][512];
	size_t n = corpus_names(names, 32, ".ref.png");
	ck_assert_uint_eq(n, 5);
	for (size_t i = 0; i < n; i++) {
		char txtr[512], path[4096];
		snprintf(txtr, sizeof txtr, "%.*s.txtr", (int)(strlen(names[i]) - 8), names[i]);
		snprintf(path, sizeof path, "%s/%s", corpus, names[i]);
		uint32_t w, h;
		uint8_t *ref = png_file_rgba(path, &w, &h);
		nm_tree *t = corpus_tree(txtr);
		uint8_t *got = png_rgba(t, "/tex/0.png", w, h);
		size_t differ = 0, first = 0;
		for (size_t k = 0; k < (size_t)w * h * 4; k++)
			if (got[k] != ref[k] && !differ++)
				first = k;
		ck_assert_msg(differ == 0, "%s: %zu samples differ from the reference, first at texel (%zu, %zu)",
			      txtr, differ, first / 4 % w, first / 4 / w);
		free(got);
		free(ref);
		nm_tree_free(t);
	}
	free(corpus);
}
END_TEST

START_TEST(corpus_small_rgba8)
{
	/* The 1x1 RGBA8 texture whose LZSS stream (tag 8) stops 2 bytes short of its GOB. */
	if (!(corpus = walk_corpus_dir("txtr")))
		return;
	nm_tree *t = corpus_tree("phong1__spcttxtr__9f67a65b99e84d53bdf3779b19f5d419.txtr");
	uint8_t *px = png_rgba(t, "/tex/0.png", 1, 1);
	ck_assert(px[0] == 0x13 && px[1] == 0x36 && px[2] == 0x25 && px[3] == 0xff);
	free(px);
	expect(t, "/gpu/header.txt", "codec: LZSS16_LONG (0x8)\n");
	expect(t, "/head/header.txt", "format: RGBA8_UNORM (0xc)\n");
	nm_tree_free(t);
	t = corpus_tree("Fugu_Body_02_phong__nmaptxtr__db9bda239f3a419bba606265171df28a.txtr");
	expect(t, "/head/header.txt", "format: ASTC_5x4 (0x36)\nwidth: 2048\nheight: 2048\n");
	expect(t, "/gpu/header.txt", "surface: 4515328 bytes");
	expect(t, "/info.txt", "png_files: 12\n");
	nm_tree_free(t);
	free(corpus);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("txtr");
	TCase *fx = tcase_create("fixtures");
	tcase_set_timeout(fx, 120);
	tcase_add_loop_test(fx, every_format, 0, sizeof decoded_formats / sizeof decoded_formats[0]);
	tcase_add_test(fx, cube_and_array);
	tcase_add_loop_test(fx, every_codec, 0, RFX_CODEC_COUNT);
	tcase_add_test(fx, several_buffers);
	tcase_add_test(fx, mount_decodes_nothing);
	tcase_add_test(fx, level_heads_share_the_surface);
	tcase_add_test(fx, short_streams);
	tcase_add_test(fx, not_decoded);
	tcase_add_test(fx, header_checks);
	tcase_add_test(fx, header_text);
	tcase_add_test(fx, bad_heads);
	tcase_add_test(fx, astc_under_limits);
	tcase_add_test(fx, huge_header);
	tcase_add_test(fx, pak_model_textures);
	tcase_add_test(fx, folder_model_textures);
	tcase_add_test(fx, model_alone_keeps_guids);
	suite_add_tcase(s, fx);
	TCase *corp = tcase_create("corpus");
	tcase_set_timeout(corp, 300);
	tcase_add_test(corp, corpus_every_texture);
	tcase_add_test(corp, corpus_references);
	tcase_add_test(corp, corpus_small_rgba8);
	suite_add_tcase(s, corp);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
