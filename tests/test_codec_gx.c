/* Known-answer tests for the GX texture decoder. Every expected value below was
 * worked out by hand from FORMATS.md section 2 (bit replication for 3/4/5/6-bit
 * channels, big-endian u16s, blocks row-major, texels row-major in a block). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gx.h"
#include "tests/known_image.h"

#define GUARD 0xA5

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Macro, not function, so a failure names the line of the expectation. */
#define CK_PX(buf, w, x, y, r, g, b, a) do { \
	const uint8_t *p_ = (buf) + ((size_t)(y) * (w) + (x)) * 4; \
	ck_assert_msg(p_[0] == (r) && p_[1] == (g) && p_[2] == (b) && p_[3] == (a), \
		      "texel (%u,%u) = %u,%u,%u,%u, expected %u,%u,%u,%u", \
		      (unsigned)(x), (unsigned)(y), p_[0], p_[1], p_[2], p_[3], \
		      (unsigned)(r), (unsigned)(g), (unsigned)(b), (unsigned)(a)); \
} while (0)

#define CK_GREY(buf, w, x, y, i, a) CK_PX(buf, w, x, y, i, i, i, a)

static void decode_ok(unsigned fmt, const uint8_t *src, size_t len, unsigned w, unsigned h,
		      const uint8_t *pal, size_t npal, unsigned pfmt, uint8_t *out)
{
	memset(out, GUARD, (size_t)w * h * 4);
	ck_assert_int_eq(nm_gx_decode(fmt, src, len, w, h, pal, npal, pfmt, out), NM_OK);
}

static void ck_guard(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(p[i] == GUARD, "guard byte %zu overwritten", i);
}

/* ---- names, level sizes ---- */

START_TEST(test_names)
{
	ck_assert_str_eq(nm_gx_format_name(0x0), "I4");
	ck_assert_str_eq(nm_gx_format_name(0x1), "I8");
	ck_assert_str_eq(nm_gx_format_name(0x2), "IA4");
	ck_assert_str_eq(nm_gx_format_name(0x3), "IA8");
	ck_assert_str_eq(nm_gx_format_name(0x4), "RGB565");
	ck_assert_str_eq(nm_gx_format_name(0x5), "RGB5A3");
	ck_assert_str_eq(nm_gx_format_name(0x6), "RGBA8");
	ck_assert_str_eq(nm_gx_format_name(0x8), "C4");
	ck_assert_str_eq(nm_gx_format_name(0x9), "C8");
	ck_assert_str_eq(nm_gx_format_name(0xA), "C14X2");
	ck_assert_str_eq(nm_gx_format_name(0xE), "CMPR");
	ck_assert_ptr_null(nm_gx_format_name(0x7));
	ck_assert_ptr_null(nm_gx_format_name(0xB));
	ck_assert_ptr_null(nm_gx_format_name(0xF));
	ck_assert_ptr_null(nm_gx_format_name(0x100));

	ck_assert_str_eq(nm_gx_palette_format_name(0), "IA8");
	ck_assert_str_eq(nm_gx_palette_format_name(1), "RGB565");
	ck_assert_str_eq(nm_gx_palette_format_name(2), "RGB5A3");
	ck_assert_ptr_null(nm_gx_palette_format_name(3));

	ck_assert(nm_gx_format_is_indexed(NM_GX_C4));
	ck_assert(nm_gx_format_is_indexed(NM_GX_C8));
	ck_assert(nm_gx_format_is_indexed(NM_GX_C14X2));
	ck_assert(!nm_gx_format_is_indexed(NM_GX_I4));
	ck_assert(!nm_gx_format_is_indexed(NM_GX_RGBA8));
	ck_assert(!nm_gx_format_is_indexed(NM_GX_CMPR));
	ck_assert(!nm_gx_format_is_indexed(0x7));
}
END_TEST

START_TEST(test_level_sizes)
{
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I4, 8, 8), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I4, 1, 1), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I4, 12, 4), 64);    /* 2x1 blocks of 8x8 */
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I8, 8, 4), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I8, 9, 5), 128);    /* 2x2 blocks of 8x4 */
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_IA4, 16, 4), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_IA8, 5, 3), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGB565, 4, 4), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGB5A3, 8, 8), 128);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 4, 4), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 5, 3), 128);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_C4, 16, 16), 128);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_C8, 8, 5), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_C14X2, 4, 5), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 1, 1), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 9, 9), 128);
	/* A typical mip chain 64x32 CMPR -> 32x16 -> 16x8 -> 8x4 (padded to 8x8). */
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 64, 32), 1024);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 32, 16), 256);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 16, 8), 64);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_CMPR, 8, 4), 32);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 1024, 1024), 4194304);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 16384, 16384), 1073741824u);

	ck_assert_uint_eq(nm_gx_level_size(0x7, 8, 8), 0);
	ck_assert_uint_eq(nm_gx_level_size(0xF, 8, 8), 0);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I8, 0, 8), 0);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_I8, 8, 0), 0);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 16385, 4), 0);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 4, 16385), 0);
	ck_assert_uint_eq(nm_gx_level_size(NM_GX_RGBA8, 0xFFFFFFFFu, 0xFFFFFFFFu), 0);
}
END_TEST

/* ---- direct-colour formats: each image is two blocks wide (tests/known_image.h) ---- */

static const known_image direct[] = {
	{ "I4", NM_GX_I4, 16, 8, 64,
	  KI_SETS(KI_SET(0, 0x1F),     /* (0,0) (1,0): high nibble is the left texel */
		  KI_SET(3, 0x80),     /* (6,0) (7,0) */
		  KI_SET(4, 0x2A),     /* row 1 starts at byte 4 */
		  KI_SET(31, 0x3C),    /* (6,7) (7,7) */
		  KI_SET(32, 0x5E),    /* second block: (8,0) (9,0) */
		  KI_SET(63, 0x70)),   /* (14,7) (15,7) */
	  KI_WANT(KI_GREY(0, 0, 0x11, 0x11), KI_GREY(1, 0, 0xFF, 0xFF), KI_GREY(2, 0, 0x00, 0x00),
		  KI_GREY(6, 0, 0x88, 0x88), KI_GREY(7, 0, 0x00, 0x00), KI_GREY(0, 1, 0x22, 0x22),
		  KI_GREY(1, 1, 0xAA, 0xAA), KI_GREY(6, 7, 0x33, 0x33), KI_GREY(7, 7, 0xCC, 0xCC),
		  KI_GREY(8, 0, 0x55, 0x55), KI_GREY(9, 0, 0xEE, 0xEE), KI_GREY(14, 7, 0x77, 0x77),
		  KI_GREY(15, 7, 0x00, 0x00)) },
	{ "I8", NM_GX_I8, 16, 4, 64,
	  KI_SETS(KI_SET(0, 0x12, 0x34), KI_SET(7, 0x56),
		  KI_SET(8, 0x78),     /* row 1 of an 8-wide block */
		  KI_SET(31, 0x9A),
		  KI_SET(32, 0xBC),    /* second block */
		  KI_SET(63, 0xDE)),
	  KI_WANT(KI_GREY(0, 0, 0x12, 0x12), KI_GREY(1, 0, 0x34, 0x34), KI_GREY(7, 0, 0x56, 0x56),
		  KI_GREY(0, 1, 0x78, 0x78), KI_GREY(7, 3, 0x9A, 0x9A), KI_GREY(8, 0, 0xBC, 0xBC),
		  KI_GREY(15, 3, 0xDE, 0xDE), KI_GREY(2, 0, 0x00, 0x00)) },
	{ "IA4", NM_GX_IA4, 16, 4, 64,
	  KI_SETS(KI_SET(0, 0x3C),     /* A=3, I=C */
		  KI_SET(9, 0xF0),     /* (1,1): opaque black */
		  KI_SET(32, 0x0F),    /* (8,0): transparent white */
		  KI_SET(63, 0x81)),   /* (15,3) */
	  KI_WANT(KI_GREY(0, 0, 0xCC, 0x33), KI_GREY(1, 1, 0x00, 0xFF), KI_GREY(8, 0, 0xFF, 0x00),
		  KI_GREY(15, 3, 0x11, 0x88), KI_GREY(1, 0, 0x00, 0x00)) },
	{ "IA8", NM_GX_IA8, 8, 4, 64,
	  KI_SETS(KI_SET(0, 0x40, 0xC0),     /* (0,0): byte0 = alpha */
		  KI_SET(2, 0xFF, 0x00),     /* (1,0) */
		  KI_SET(8, 0x12, 0x34),     /* (0,1): rows are 4 texels = 8 bytes */
		  KI_SET(30, 0x56, 0x78),    /* (3,3) */
		  KI_SET(32, 0x9A, 0xBC),    /* (4,0): second block */
		  KI_SET(62, 0xDE, 0xF0)),   /* (7,3) */
	  KI_WANT(KI_GREY(0, 0, 0xC0, 0x40), KI_GREY(1, 0, 0x00, 0xFF), KI_GREY(0, 1, 0x34, 0x12),
		  KI_GREY(3, 3, 0x78, 0x56), KI_GREY(4, 0, 0xBC, 0x9A), KI_GREY(7, 3, 0xF0, 0xDE)) },
	{ "RGB565", NM_GX_RGB565, 8, 4, 64,
	  KI_SETS(KI_SET16(0, 0xF800), KI_SET16(2, 0x07E0),
		  KI_SET16(4, 0x001F),    /* little-endian reading would give a red-ish value */
		  KI_SET16(6, 0x8410),    /* r=16 g=32 b=16: 5-bit and 6-bit expansion differ */
		  KI_SET16(8, 0x1234),    /* (0,1): r=2 g=17 b=20 */
		  KI_SET16(32, 0x7C0A),   /* (4,0): r=15 g=32 b=10 */
		  KI_SET16(62, 0xFFFF)),  /* (7,3) */
	  KI_WANT(KI_PX(0, 0, 255, 0, 0, 255), KI_PX(1, 0, 0, 255, 0, 255),
		  KI_PX(2, 0, 0, 0, 255, 255), KI_PX(3, 0, 132, 130, 132, 255),
		  KI_PX(0, 1, 16, 69, 165, 255), KI_PX(4, 0, 123, 130, 82, 255),
		  KI_PX(7, 3, 255, 255, 255, 255), KI_PX(1, 1, 0, 0, 0, 255)) },
	{ "RGB5A3", NM_GX_RGB5A3, 8, 4, 64,
	  KI_SETS(KI_SET16(0, 0xFC00),    /* opaque branch: 1 11111 00000 00000 */
		  KI_SET16(2, 0x8421),    /* opaque, each channel 1 -> 8 */
		  KI_SET16(4, 0x7ABC),    /* a=7 r=A g=B b=C */
		  KI_SET16(6, 0x3123),    /* a=3 -> 109 */
		  KI_SET16(8, 0x4000),    /* (0,1) a=4 -> 146 */
		  KI_SET16(10, 0x1FFF),   /* (1,1) a=1 -> 36 */
		  KI_SET16(12, 0x0FFF),   /* (2,1) a=0 */
		  KI_SET16(14, 0x6F00),   /* (3,1) a=6 -> 219 */
		  KI_SET16(16, 0x2F0F),   /* (0,2) a=2 -> 73 */
		  KI_SET16(32, 0x801F),   /* (4,0): second block */
		  KI_SET16(62, 0x555A)),  /* (7,3) a=5 -> 182 */
	  KI_WANT(KI_PX(0, 0, 255, 0, 0, 255), KI_PX(1, 0, 8, 8, 8, 255),
		  KI_PX(2, 0, 0xAA, 0xBB, 0xCC, 255), KI_PX(3, 0, 0x11, 0x22, 0x33, 109),
		  KI_PX(0, 1, 0, 0, 0, 146), KI_PX(1, 1, 255, 255, 255, 36),
		  KI_PX(2, 1, 255, 255, 255, 0), KI_PX(3, 1, 255, 0, 0, 219),
		  KI_PX(0, 2, 255, 0, 255, 73), KI_PX(4, 0, 0, 0, 255, 255),
		  KI_PX(7, 3, 0x55, 0x55, 0xAA, 182), KI_PX(1, 2, 0, 0, 0, 0)) },
	{ "RGBA8", NM_GX_RGBA8, 8, 4, 128,
	  KI_SETS(/* block 0, texel 0: AR at 0, GB at 32 */
		  KI_SET(0, 0x11, 0x22), KI_SET(32, 0x33, 0x44),
		  /* texel 5 = (1,1) */
		  KI_SET(10, 0x55, 0x66), KI_SET(42, 0x77, 0x88),
		  /* texel 15 = (3,3) */
		  KI_SET(30, 0x99, 0xAA), KI_SET(62, 0xBB, 0xCC),
		  /* block 1 (64 bytes on): texel 0 = (4,0), texel 15 = (7,3) */
		  KI_SET(64, 0xDD, 0xEE), KI_SET(96, 0xFF, 0x01),
		  KI_SET(94, 0x02, 0x03), KI_SET(126, 0x04, 0x05)),
	  KI_WANT(KI_PX(0, 0, 0x22, 0x33, 0x44, 0x11), KI_PX(1, 1, 0x66, 0x77, 0x88, 0x55),
		  KI_PX(3, 3, 0xAA, 0xBB, 0xCC, 0x99), KI_PX(4, 0, 0xEE, 0xFF, 0x01, 0xDD),
		  KI_PX(7, 3, 0x03, 0x04, 0x05, 0x02), KI_PX(1, 0, 0, 0, 0, 0)) },
};

/* A row of a table of formats without a palette (direct colour, CMPR). */
static void decode_row(const known_image *k)
{
	uint8_t src[128], out[16 * 8 * 4];

	ck_assert(k->len <= sizeof src && (size_t)k->w * k->h * 4 <= sizeof out);
	ki_source(k, src);
	decode_ok(k->format, src, k->len, k->w, k->h, NULL, 0, 0, out);
	ki_check(k, out);
}

START_TEST(test_direct)
{
	decode_row(&direct[_i]);
}
END_TEST

/* ---- indexed formats ---- */

/* IA8 palette whose entry k decodes to grey 0x11*k with alpha 0x80+k. */
static void grey_palette(uint8_t pal[32])
{
	for (unsigned k = 0; k < 16; k++)
		put16(pal + 2 * k, ((0x80 + k) << 8) | (0x11 * k));
}

START_TEST(test_c4)
{
	uint8_t src[64] = { 0 }, pal[32], out[16 * 8 * 4];

	grey_palette(pal);
	src[0] = 0x1F;   /* (0,0) idx 1, (1,0) idx 15 */
	src[4] = 0x2A;   /* (0,1) idx 2, (1,1) idx 10 */
	src[32] = 0x5E;  /* (8,0) idx 5, (9,0) idx 14 */
	src[63] = 0x70;  /* (14,7) idx 7, (15,7) idx 0 */
	decode_ok(NM_GX_C4, src, sizeof src, 16, 8, pal, 16, NM_GX_PAL_IA8, out);
	CK_GREY(out, 16, 0, 0, 0x11, 0x81);
	CK_GREY(out, 16, 1, 0, 0xFF, 0x8F);
	CK_GREY(out, 16, 0, 1, 0x22, 0x82);
	CK_GREY(out, 16, 1, 1, 0xAA, 0x8A);
	CK_GREY(out, 16, 8, 0, 0x55, 0x85);
	CK_GREY(out, 16, 9, 0, 0xEE, 0x8E);
	CK_GREY(out, 16, 14, 7, 0x77, 0x87);
	CK_GREY(out, 16, 15, 7, 0x00, 0x80);

	/* Only 12 entries: indices 14 and 15 are out of range. */
	decode_ok(NM_GX_C4, src, sizeof src, 16, 8, pal, 12, NM_GX_PAL_IA8, out);
	CK_GREY(out, 16, 0, 0, 0x11, 0x81);
	CK_PX(out, 16, 1, 0, 0, 0, 0, 0);
	CK_PX(out, 16, 9, 0, 0, 0, 0, 0);
	CK_GREY(out, 16, 1, 1, 0xAA, 0x8A);
}
END_TEST

START_TEST(test_c8)
{
	uint8_t src[64] = { 0 }, pal[8], out[16 * 4 * 4];

	put16(pal + 0, 0xF800);
	put16(pal + 2, 0x07E0);
	put16(pal + 4, 0x001F);
	put16(pal + 6, 0xFFFF);
	src[0] = 1;
	src[1] = 2;
	src[8] = 3;      /* (0,1) */
	src[31] = 2;     /* (7,3) */
	src[32] = 3;     /* (8,0) second block */
	src[33] = 4;     /* (9,0): == palette_count */
	src[63] = 0xFF;  /* (15,3) */
	decode_ok(NM_GX_C8, src, sizeof src, 16, 4, pal, 4, NM_GX_PAL_RGB565, out);
	CK_PX(out, 16, 0, 0, 0, 255, 0, 255);
	CK_PX(out, 16, 1, 0, 0, 0, 255, 255);
	CK_PX(out, 16, 2, 0, 255, 0, 0, 255);
	CK_PX(out, 16, 0, 1, 255, 255, 255, 255);
	CK_PX(out, 16, 7, 3, 0, 0, 255, 255);
	CK_PX(out, 16, 8, 0, 255, 255, 255, 255);
	CK_PX(out, 16, 9, 0, 0, 0, 0, 0);
	CK_PX(out, 16, 15, 3, 0, 0, 0, 0);

	/* No palette at all: everything is out of range. */
	decode_ok(NM_GX_C8, src, sizeof src, 16, 4, NULL, 0, NM_GX_PAL_RGB565, out);
	CK_PX(out, 16, 0, 0, 0, 0, 0, 0);
	CK_PX(out, 16, 2, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(test_c14x2)
{
	uint8_t src[64] = { 0 }, pal[16] = { 0 }, out[8 * 4 * 4];

	put16(pal + 0, 0x8000);       /* opaque black */
	put16(pal + 10, 0x7ABC);      /* [5] */
	put16(pal + 14, 0x3123);      /* [7] */
	put16(src + 0, 0x0005);
	put16(src + 2, 0xC005);       /* top bits ignored -> 5 */
	put16(src + 4, 0x4007);       /* -> 7 */
	put16(src + 6, 0x8008);       /* -> 8 == count */
	put16(src + 8, 0x0000);       /* (0,1) */
	put16(src + 10, 0xFFFF);      /* (1,1) -> 0x3FFF, out of range */
	put16(src + 32, 0x0007);      /* (4,0) second block */
	put16(src + 62, 0x4005);      /* (7,3) */
	decode_ok(NM_GX_C14X2, src, sizeof src, 8, 4, pal, 8, NM_GX_PAL_RGB5A3, out);
	CK_PX(out, 8, 0, 0, 0xAA, 0xBB, 0xCC, 255);
	CK_PX(out, 8, 1, 0, 0xAA, 0xBB, 0xCC, 255);
	CK_PX(out, 8, 2, 0, 0x11, 0x22, 0x33, 109);
	CK_PX(out, 8, 3, 0, 0, 0, 0, 0);
	CK_PX(out, 8, 0, 1, 0, 0, 0, 255);
	CK_PX(out, 8, 1, 1, 0, 0, 0, 0);
	CK_PX(out, 8, 4, 0, 0x11, 0x22, 0x33, 109);
	CK_PX(out, 8, 7, 3, 0xAA, 0xBB, 0xCC, 255);
}
END_TEST

START_TEST(test_c14x2_full_palette)
{
	/* With all 16384 entries, 0xFFFF must land on the last one, not fall off. */
	uint8_t src[32] = { 0 }, out[4 * 4 * 4];
	uint8_t *pal = calloc(0x4000, 2);

	ck_assert_ptr_nonnull(pal);
	put16(pal + 2 * 0x3FFF, 0xF800);
	put16(src + 0, 0xFFFF);
	put16(src + 2, 0x3FFF);
	decode_ok(NM_GX_C14X2, src, sizeof src, 4, 4, pal, 0x4000, NM_GX_PAL_RGB565, out);
	CK_PX(out, 4, 0, 0, 255, 0, 0, 255);
	CK_PX(out, 4, 1, 0, 255, 0, 0, 255);
	CK_PX(out, 4, 2, 0, 0, 0, 0, 255);
	free(pal);
}
END_TEST

/* Every index format with every palette format: texels (0..3,0) use entries 0..3. */
START_TEST(test_palette_formats)
{
	static const unsigned entries[4] = { 0x80FF, 0x1234, 0xF81F, 0x7C0A };
	static const uint8_t want[3][4][4] = {
		[NM_GX_PAL_IA8] = {
			{ 0xFF, 0xFF, 0xFF, 0x80 }, { 0x34, 0x34, 0x34, 0x12 },
			{ 0x1F, 0x1F, 0x1F, 0xF8 }, { 0x0A, 0x0A, 0x0A, 0x7C } },
		[NM_GX_PAL_RGB565] = {
			{ 132, 28, 255, 255 }, { 16, 69, 165, 255 },
			{ 255, 0, 255, 255 }, { 123, 130, 82, 255 } },
		[NM_GX_PAL_RGB5A3] = {
			{ 0, 57, 255, 255 }, { 0x22, 0x33, 0x44, 36 },
			{ 247, 0, 255, 255 }, { 0xCC, 0x00, 0xAA, 255 } },
	};
	static const unsigned fmts[3] = { NM_GX_C4, NM_GX_C8, NM_GX_C14X2 };
	uint8_t pal[8], out[8 * 8 * 4];

	for (unsigned k = 0; k < 4; k++)
		put16(pal + 2 * k, entries[k]);
	for (unsigned fi = 0; fi < 3; fi++) {
		uint8_t src[128] = { 0 };
		switch (fmts[fi]) {
		case NM_GX_C4:
			src[0] = 0x01;
			src[1] = 0x23;
			break;
		case NM_GX_C8:
			src[0] = 0; src[1] = 1; src[2] = 2; src[3] = 3;
			break;
		default:
			put16(src + 0, 0x0000);
			put16(src + 2, 0x4001);
			put16(src + 4, 0x8002);
			put16(src + 6, 0xC003);
			break;
		}
		for (unsigned pf = 0; pf < 3; pf++) {
			size_t len = nm_gx_level_size(fmts[fi], 8, 8);
			decode_ok(fmts[fi], src, len, 8, 8, pal, 4, pf, out);
			for (unsigned x = 0; x < 4; x++)
				CK_PX(out, 8, x, 0, want[pf][x][0], want[pf][x][1],
				      want[pf][x][2], want[pf][x][3]);
		}
	}
}
END_TEST

/* ---- CMPR ---- */

static void cmpr_sub(uint8_t *p, unsigned c0, unsigned c1, uint8_t r0, uint8_t r1,
		     uint8_t r2, uint8_t r3)
{
	put16(p, c0);
	put16(p + 2, c1);
	p[4] = r0;
	p[5] = r1;
	p[6] = r2;
	p[7] = r3;
}

/* The same as table entries: one 4x4 sub-block at at: two big-endian RGB565 endpoints, then four rows of 2-bit
 * indices. Three table entries. */
#define CMPR_SUB(at, c0, c1, r0, r1, r2, r3) \
	KI_SET16(at, c0), KI_SET16((at) + 2, c1), KI_SET((at) + 4, r0, r1, r2, r3)

static const known_image cmpr[] = {
	/* TL: red > blue. 0x1B = 00 01 10 11 left to right; 0xE4 the reverse.
	 * c2 = (5*255)>>3 = 159 / (3*255)>>3 = 95 (rounding would give 96).
	 * TR: (132,130,132) > (8,8,8): c2 = (684>>3, 674>>3) = (85,84),
	 * c3 = (436>>3, 430>>3) = (54,53); all four truncate differently from rounding.
	 * BL/BR are all-zero: c0 == c1 == 0, index 0 -> opaque black. */
	{ "four colour", NM_GX_CMPR, 8, 8, 32,
	  KI_SETS(CMPR_SUB(0, 0xF800, 0x001F, 0x1B, 0xE4, 0x00, 0xFF),
		  CMPR_SUB(8, 0x8410, 0x0841, 0x1B, 0x00, 0x00, 0x00)),
	  KI_WANT(KI_PX(0, 0, 255, 0, 0, 255), KI_PX(1, 0, 0, 0, 255, 255),
		  KI_PX(2, 0, 159, 0, 95, 255), KI_PX(3, 0, 95, 0, 159, 255),
		  KI_PX(0, 1, 95, 0, 159, 255), KI_PX(1, 1, 159, 0, 95, 255),
		  KI_PX(2, 1, 0, 0, 255, 255), KI_PX(3, 1, 255, 0, 0, 255),
		  KI_PX(2, 2, 255, 0, 0, 255), KI_PX(0, 3, 95, 0, 159, 255),
		  KI_PX(3, 3, 95, 0, 159, 255), KI_PX(4, 0, 132, 130, 132, 255),
		  KI_PX(5, 0, 8, 8, 8, 255), KI_PX(6, 0, 85, 84, 85, 255),
		  KI_PX(7, 0, 54, 53, 54, 255), KI_PX(7, 3, 132, 130, 132, 255),
		  KI_PX(0, 4, 0, 0, 0, 255), KI_PX(7, 7, 0, 0, 0, 255)) },
	/* TL: blue < red -> c2 = (255/2, 0, 255/2) = (127,0,127), c3 transparent.
	 * TR: (8,8,8) < (132,130,132): midpoint (70,69,70) truncated.
	 * BL: equal endpoints also select three-colour mode; 0xB1 = 10 11 00 01. */
	{ "three colour", NM_GX_CMPR, 8, 8, 32,
	  KI_SETS(CMPR_SUB(0, 0x001F, 0xF800, 0x1B, 0x00, 0x00, 0x00),
		  CMPR_SUB(8, 0x0841, 0x8410, 0xAA, 0xFF, 0x00, 0x00),
		  CMPR_SUB(16, 0x07E0, 0x07E0, 0xB1, 0x00, 0x00, 0x00)),
	  KI_WANT(KI_PX(0, 0, 0, 0, 255, 255), KI_PX(1, 0, 255, 0, 0, 255),
		  KI_PX(2, 0, 127, 0, 127, 255), KI_PX(3, 0, 0, 0, 0, 0),
		  KI_PX(4, 0, 70, 69, 70, 255), KI_PX(7, 0, 70, 69, 70, 255),
		  KI_PX(4, 1, 0, 0, 0, 0), KI_PX(7, 1, 0, 0, 0, 0),
		  KI_PX(4, 2, 8, 8, 8, 255), KI_PX(0, 4, 0, 255, 0, 255),
		  KI_PX(1, 4, 0, 0, 0, 0), KI_PX(2, 4, 0, 255, 0, 255),
		  KI_PX(3, 4, 0, 255, 0, 255)) },
	/* Solid sub-blocks (index 0 = c0), c1 = 0 keeps four-colour mode: TL red, TR green,
	 * BL blue, BR white, then the next block's TL yellow. */
	{ "sub-block order", NM_GX_CMPR, 16, 8, 64,
	  KI_SETS(CMPR_SUB(0, 0xF800, 0, 0, 0, 0, 0), CMPR_SUB(8, 0x07E0, 0, 0, 0, 0, 0),
		  CMPR_SUB(16, 0x001F, 0, 0, 0, 0, 0), CMPR_SUB(24, 0xFFFF, 0, 0, 0, 0, 0),
		  CMPR_SUB(32, 0xFFE0, 0, 0, 0, 0, 0)),
	  KI_WANT(KI_PX(0, 0, 255, 0, 0, 255), KI_PX(3, 3, 255, 0, 0, 255),
		  KI_PX(4, 0, 0, 255, 0, 255), KI_PX(7, 3, 0, 255, 0, 255),
		  KI_PX(0, 4, 0, 0, 255, 255), KI_PX(3, 7, 0, 0, 255, 255),
		  KI_PX(4, 4, 255, 255, 255, 255), KI_PX(7, 7, 255, 255, 255, 255),
		  KI_PX(8, 0, 255, 255, 0, 255), KI_PX(11, 3, 255, 255, 0, 255),
		  KI_PX(12, 0, 0, 0, 0, 255), KI_PX(15, 7, 0, 0, 0, 255)) },
};

START_TEST(test_cmpr)
{
	decode_row(&cmpr[_i]);
}
END_TEST

/* ---- partial edge blocks ---- */

START_TEST(test_odd_rgb565_5x3)
{
	uint8_t src[64] = { 0 }, out[5 * 3 * 4 + 16];

	put16(src + 0, 0xF800);   /* (0,0) */
	put16(src + 8, 0x8410);   /* (0,1): output row stride is 5, not 4 */
	put16(src + 22, 0x07E0);  /* (3,2) */
	put16(src + 24, 0xFFFF);  /* block row 3: padding */
	put16(src + 32, 0x001F);  /* (4,0): second block */
	put16(src + 34, 0xF800);  /* (5,0): padding column */
	put16(src + 48, 0xFFFF);  /* (4,2) */
	memset(out, GUARD, sizeof out);
	ck_assert_int_eq(nm_gx_decode(NM_GX_RGB565, src, sizeof src - 1, 5, 3, NULL, 0, 0, out),
			 NM_E_FORMAT);
	ck_guard(out, sizeof out);
	ck_assert_int_eq(nm_gx_decode(NM_GX_RGB565, src, sizeof src, 5, 3, NULL, 0, 0, out),
			 NM_OK);
	CK_PX(out, 5, 0, 0, 255, 0, 0, 255);
	CK_PX(out, 5, 0, 1, 132, 130, 132, 255);
	CK_PX(out, 5, 3, 2, 0, 255, 0, 255);
	CK_PX(out, 5, 4, 0, 0, 0, 255, 255);
	CK_PX(out, 5, 4, 1, 0, 0, 0, 255);
	CK_PX(out, 5, 4, 2, 255, 255, 255, 255);
	ck_guard(out + 5 * 3 * 4, 16);
}
END_TEST

START_TEST(test_odd_i4_12x4)
{
	uint8_t src[64] = { 0 }, out[12 * 4 * 4 + 16];

	src[0] = 0x12;   /* (0,0) (1,0) */
	src[5] = 0x9F;   /* (2,1) (3,1) */
	src[16] = 0x77;  /* block row 4: padding */
	src[32] = 0xAB;  /* (8,0) (9,0) */
	src[34] = 0xEE;  /* (12,0) (13,0): padding columns */
	src[45] = 0xCD;  /* block byte 13 = texels 26,27 = (10,3) (11,3) */
	memset(out, GUARD, sizeof out);
	ck_assert_int_eq(nm_gx_decode(NM_GX_I4, src, sizeof src, 12, 4, NULL, 0, 0, out), NM_OK);
	CK_GREY(out, 12, 0, 0, 0x11, 0x11);
	CK_GREY(out, 12, 1, 0, 0x22, 0x22);
	CK_GREY(out, 12, 2, 1, 0x99, 0x99);
	CK_GREY(out, 12, 3, 1, 0xFF, 0xFF);
	CK_GREY(out, 12, 8, 0, 0xAA, 0xAA);
	CK_GREY(out, 12, 9, 0, 0xBB, 0xBB);
	CK_GREY(out, 12, 11, 0, 0x00, 0x00);
	CK_GREY(out, 12, 10, 3, 0xCC, 0xCC);
	CK_GREY(out, 12, 11, 3, 0xDD, 0xDD);
	CK_GREY(out, 12, 0, 3, 0x00, 0x00);
	ck_guard(out + 12 * 4 * 4, 16);
}
END_TEST

START_TEST(test_odd_cmpr_12x12)
{
	uint8_t src[128] = { 0 }, out[12 * 12 * 4 + 16];

	/* Blocks row-major: 0 at (0,0), 1 at (8,0), 2 at (0,8), 3 at (8,8). */
	cmpr_sub(src + 0, 0xF800, 0, 0, 0, 0, 0);
	cmpr_sub(src + 32, 0x07E0, 0, 0, 0, 0, 0);
	cmpr_sub(src + 64, 0x001F, 0, 0, 0, 0, 0);
	cmpr_sub(src + 96, 0xFFFF, 0, 0, 0, 0, 0);
	cmpr_sub(src + 104, 0xFFE0, 0, 0, 0, 0, 0);  /* block 3 TR: wholly outside */
	memset(out, GUARD, sizeof out);
	ck_assert_int_eq(nm_gx_decode(NM_GX_CMPR, src, sizeof src, 12, 12, NULL, 0, 0, out),
			 NM_OK);
	CK_PX(out, 12, 0, 0, 255, 0, 0, 255);
	CK_PX(out, 12, 4, 4, 0, 0, 0, 255);
	CK_PX(out, 12, 8, 0, 0, 255, 0, 255);
	CK_PX(out, 12, 11, 3, 0, 255, 0, 255);
	CK_PX(out, 12, 0, 8, 0, 0, 255, 255);
	CK_PX(out, 12, 3, 11, 0, 0, 255, 255);
	CK_PX(out, 12, 8, 8, 255, 255, 255, 255);
	CK_PX(out, 12, 11, 11, 255, 255, 255, 255);
	ck_guard(out + 12 * 12 * 4, 16);
}
END_TEST

/* ---- rejection ---- */

START_TEST(test_reject_short)
{
	static const unsigned fmts[] = {
		NM_GX_I4, NM_GX_I8, NM_GX_IA4, NM_GX_IA8, NM_GX_RGB565, NM_GX_RGB5A3,
		NM_GX_RGBA8, NM_GX_C4, NM_GX_C8, NM_GX_C14X2, NM_GX_CMPR,
	};
	uint8_t src[512] = { 0 }, pal[32] = { 0 }, out[8 * 8 * 4];

	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		size_t need = nm_gx_level_size(fmts[i], 8, 8);
		ck_assert_uint_gt(need, 0);
		memset(out, GUARD, sizeof out);
		ck_assert_int_eq(nm_gx_decode(fmts[i], src, need - 1, 8, 8, pal, 16,
					      NM_GX_PAL_RGB565, out), NM_E_FORMAT);
		ck_assert_int_eq(nm_gx_decode(fmts[i], src, 0, 8, 8, pal, 16,
					      NM_GX_PAL_RGB565, out), NM_E_FORMAT);
		ck_guard(out, sizeof out);
		ck_assert_int_eq(nm_gx_decode(fmts[i], src, need, 8, 8, pal, 16,
					      NM_GX_PAL_RGB565, out), NM_OK);
	}
}
END_TEST

START_TEST(test_reject_unknown)
{
	static const unsigned bad[] = { 0x7, 0xB, 0xC, 0xD, 0xF, 0x10, 0x106, 0xFFFFFFFFu };
	uint8_t src[512] = { 0 }, pal[32] = { 0 }, out[8 * 8 * 4];

	memset(out, GUARD, sizeof out);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_int_eq(nm_gx_decode(bad[i], src, sizeof src, 8, 8, NULL, 0, 0, out),
				 NM_E_FORMAT);
	/* An unknown palette format matters only where a palette is used. */
	ck_assert_int_eq(nm_gx_decode(NM_GX_C8, src, sizeof src, 8, 8, pal, 16, 3, out),
			 NM_E_FORMAT);
	ck_assert_int_eq(nm_gx_decode(NM_GX_C4, src, sizeof src, 8, 8, pal, 16, 0xFF, out),
			 NM_E_FORMAT);
	ck_guard(out, sizeof out);
	ck_assert_int_eq(nm_gx_decode(NM_GX_RGB565, src, sizeof src, 8, 8, NULL, 0, 3, out),
			 NM_OK);
	/* Zero and oversized dimensions. */
	ck_assert_int_eq(nm_gx_decode(NM_GX_I8, src, sizeof src, 0, 8, NULL, 0, 0, out),
			 NM_E_FORMAT);
	ck_assert_int_eq(nm_gx_decode(NM_GX_I8, src, sizeof src, 8, 0, NULL, 0, 0, out),
			 NM_E_FORMAT);
	ck_assert_int_eq(nm_gx_decode(NM_GX_I8, src, SIZE_MAX, 16385, 1, NULL, 0, 0, out),
			 NM_E_FORMAT);
	ck_assert_int_eq(nm_gx_decode(NM_GX_I8, src, SIZE_MAX, 1, 0xFFFFFFFFu, NULL, 0, 0, out),
			 NM_E_FORMAT);
}
END_TEST

static Suite *gx_suite(void)
{
	Suite *s = suite_create("codec_gx");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_level_sizes);
	tcase_add_loop_test(tc, test_direct, 0, sizeof direct / sizeof direct[0]);
	tcase_add_test(tc, test_c4);
	tcase_add_test(tc, test_c8);
	tcase_add_test(tc, test_c14x2);
	tcase_add_test(tc, test_c14x2_full_palette);
	tcase_add_test(tc, test_palette_formats);
	tcase_add_loop_test(tc, test_cmpr, 0, sizeof cmpr / sizeof cmpr[0]);
	tcase_add_test(tc, test_odd_rgb565_5x3);
	tcase_add_test(tc, test_odd_i4_12x4);
	tcase_add_test(tc, test_odd_cmpr_12x12);
	tcase_add_test(tc, test_reject_short);
	tcase_add_test(tc, test_reject_unknown);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(gx_suite)
