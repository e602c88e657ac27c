/* Tests for BC1-BC5 and BC7 (codec/bcn.h). BC4/BC5 are ours: every BC4 block with every
 * endpoint pair is checked bit for bit against libsquish's decoding of the same bytes
 * as a BC3 alpha block (the one format both share). BC1-BC3 are libsquish's: a few
 * known answers worked out by hand (5/6-bit expansion by bit replication, thirds and
 * halves truncated) show that the wrapper hands it the right blocks. BC7 is ours: a
 * block worked out by hand here; every mode and partition against Pillow's decoder in
 * tests/bc7.sh. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/bcn.h"

/* Index bits for 16 texels, little-endian 3 bits each. */
static void put_indices(uint8_t *p, const unsigned idx[16])
{
	uint64_t bits = 0;
	for (int t = 15; t >= 0; t--)
		bits = bits << 3 | (idx[t] & 7);
	for (int i = 0; i < 6; i++, bits >>= 8)
		p[i] = (uint8_t)bits;
}

START_TEST(bc4_matches_libsquish_bc3_alpha)
{
	uint8_t bc3[16] = { 0 }, rgba[16 * 4], ours[16];
	for (unsigned a0 = 0; a0 < 256; a0++)
		for (unsigned a1 = 0; a1 < 256; a1++) {
			unsigned idx[16];
			for (int t = 0; t < 16; t++)
				idx[t] = (unsigned)t + a0 + a1;   /* all eight, in varying places */
			bc3[0] = (uint8_t)a0;
			bc3[1] = (uint8_t)a1;
			put_indices(bc3 + 2, idx);
			ck_assert_int_eq(nm_squish_decode(NM_BC3, bc3, 16, 4, 4, rgba), NM_OK);
			nm_bc4_block(bc3, ours);
			/* Asserting only on a mismatch: a million Check assertions cost
			 * a pipe write each in fork mode. */
			for (int t = 0; t < 16; t++)
				if (ours[t] != rgba[4 * t + 3])
					ck_abort_msg("a0 %u a1 %u texel %d: ours %u, libsquish %u", a0,
						     a1, t, ours[t], rgba[4 * t + 3]);
		}
}
END_TEST

/* The first four texels of a BC4 block with endpoints a0, a1 and these indices. */
static void ck_bc4(unsigned a0, unsigned a1, const unsigned idx[4], const unsigned want[4])
{
	uint8_t blk[8] = { (uint8_t)a0, (uint8_t)a1 }, out[16];
	unsigned all[16] = { idx[0], idx[1], idx[2], idx[3] };
	put_indices(blk + 2, all);
	nm_bc4_block(blk, out);
	for (int t = 0; t < 4; t++)
		ck_assert_msg(out[t] == want[t], "a0 %u a1 %u index %u: %u, expected %u", a0, a1,
			      idx[t], out[t], want[t]);
}

START_TEST(bc4_known)
{
	/* a0 = 200 > a1 = 60: six values between, index 2 = (6 * 200 + 60) / 7 = 180. */
	ck_bc4(200, 60, (const unsigned[4]){ 0, 1, 2, 7 },
	       (const unsigned[4]){ 200, 60, 180, (1 * 200 + 6 * 60) / 7 });
	/* a0 <= a1: four values between, index 2 = (4 * 60 + 200) / 5 = 88, 6 = 0, 7 = 255. */
	ck_bc4(60, 200, (const unsigned[4]){ 2, 6, 7, 5 },
	       (const unsigned[4]){ 88, 0, 255, (1 * 60 + 4 * 200) / 5 });
}
END_TEST

START_TEST(bc4_bc5_images)
{
	/* 6 x 5 texels: 2 x 2 blocks, the right and bottom ones clipped. */
	uint8_t src[4 * 16], rgba[6 * 5 * 4];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(i * 37 + 11);
	ck_assert_int_eq(nm_bcn_decode(NM_BC4, src, 32, 6, 5, rgba), NM_OK);
	for (unsigned by = 0; by < 2; by++)
		for (unsigned bx = 0; bx < 2; bx++) {
			uint8_t v[16];
			nm_bc4_block(src + (by * 2 + bx) * 8, v);
			for (unsigned y = 0; y < 4 && by * 4 + y < 5; y++)
				for (unsigned x = 0; x < 4 && bx * 4 + x < 6; x++) {
					const uint8_t *px = rgba + ((by * 4 + y) * 6 + bx * 4 + x) * 4;
					uint8_t e = v[y * 4 + x];
					ck_assert(px[0] == e && px[1] == e && px[2] == e && px[3] == 255);
				}
		}
	ck_assert_int_eq(nm_bcn_decode(NM_BC5, src, 64, 6, 5, rgba), NM_OK);
	for (unsigned by = 0; by < 2; by++)
		for (unsigned bx = 0; bx < 2; bx++) {
			uint8_t r[16], g[16];
			nm_bc4_block(src + (by * 2 + bx) * 16, r);
			nm_bc4_block(src + (by * 2 + bx) * 16 + 8, g);
			for (unsigned y = 0; y < 4 && by * 4 + y < 5; y++)
				for (unsigned x = 0; x < 4 && bx * 4 + x < 6; x++) {
					const uint8_t *px = rgba + ((by * 4 + y) * 6 + bx * 4 + x) * 4;
					unsigned t = y * 4 + x;
					ck_assert(px[0] == r[t] && px[1] == g[t] && px[2] == 0 &&
						  px[3] == 255);
				}
		}
}
END_TEST

#define CK_PX(p, r, g, b, a) \
	ck_assert_msg((p)[0] == (r) && (p)[1] == (g) && (p)[2] == (b) && (p)[3] == (a), \
		      "%u,%u,%u,%u, expected %u,%u,%u,%u", (p)[0], (p)[1], (p)[2], (p)[3], \
		      (unsigned)(r), (unsigned)(g), (unsigned)(b), (unsigned)(a))

START_TEST(bc1_known)
{
	/* c0 = red 0xF800 > c1 = blue 0x001F: four colours, index 2 = (2 c0 + c1) / 3. Row 0
	 * uses indices 0, 1, 2, 3 (2 bits each, little-endian: 0b11100100). */
	uint8_t blk[8] = { 0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0 }, rgba[16 * 4];
	ck_assert_int_eq(nm_bcn_decode(NM_BC1, blk, 8, 4, 4, rgba), NM_OK);
	CK_PX(rgba + 0, 255, 0, 0, 255);
	CK_PX(rgba + 4, 0, 0, 255, 255);
	CK_PX(rgba + 8, 170, 0, 85, 255);
	CK_PX(rgba + 12, 85, 0, 170, 255);
	CK_PX(rgba + 16, 255, 0, 0, 255);   /* row 1: index 0 */
	/* c0 <= c1: three colours and transparent black; index 2 = (c0 + c1) / 2. */
	uint8_t blk3[8] = { 0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0 };
	ck_assert_int_eq(nm_bcn_decode(NM_BC1, blk3, 8, 4, 4, rgba), NM_OK);
	CK_PX(rgba + 0, 0, 0, 255, 255);
	CK_PX(rgba + 4, 255, 0, 0, 255);
	CK_PX(rgba + 8, 127, 0, 127, 255);
	CK_PX(rgba + 12, 0, 0, 0, 0);
}
END_TEST

START_TEST(bc2_bc3_known)
{
	/* BC2: explicit 4-bit alpha (x 17, texel 0 in the low nibble of byte 0), then a
	 * BC1 colour block, always in four-colour mode: index 0 is c0, green 0x07E0. */
	uint8_t bc2[16] = { 0x10, 0xF0, 0, 0, 0, 0, 0, 0, 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0 };
	uint8_t rgba[16 * 4];
	ck_assert_int_eq(nm_bcn_decode(NM_BC2, bc2, 16, 4, 4, rgba), NM_OK);
	CK_PX(rgba + 0, 0, 255, 0, 0);
	CK_PX(rgba + 4, 0, 255, 0, 17);
	CK_PX(rgba + 8, 0, 255, 0, 0);
	CK_PX(rgba + 12, 0, 255, 0, 255);
	/* BC3: the alpha block of BC4, then colour. */
	uint8_t bc3[16] = { 200, 60, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0 };
	ck_assert_int_eq(nm_bcn_decode(NM_BC3, bc3, 16, 4, 4, rgba), NM_OK);
	CK_PX(rgba + 0, 255, 255, 255, 200);
}
END_TEST

START_TEST(encoded_round_trip)
{
	/* libsquish's encoder and our decoders: a flat colour survives every format. */
	uint8_t img[8 * 8 * 4], enc[4 * 16], out[8 * 8 * 4];
	for (int i = 0; i < 64; i++)
		memcpy(img + 4 * i, (const uint8_t[4]){ 96, 160, 32, 255 }, 4);
	for (int f = NM_BC1; f <= NM_BC5; f++) {
		ck_assert_int_eq(nm_squish_encode((nm_bcn_format)f, img, 8, 8, enc, sizeof enc), NM_OK);
		ck_assert_int_eq(nm_bcn_decode((nm_bcn_format)f, enc, sizeof enc, 8, 8, out), NM_OK);
		for (int i = 0; i < 64; i++) {
			const uint8_t *p = out + 4 * i;
			if (f == NM_BC4)
				ck_assert_msg(abs(p[0] - 96) <= 1 && p[1] == p[0], "BC4 %u", p[0]);
			else if (f == NM_BC5)
				ck_assert_msg(abs(p[0] - 96) <= 1 && abs(p[1] - 160) <= 1 && p[2] == 0,
					      "BC5 %u %u", p[0], p[1]);
			else
				ck_assert_msg(abs(p[0] - 96) <= 8 && abs(p[1] - 160) <= 4 &&
						      abs(p[2] - 32) <= 8 && p[3] == 255,
					      "BC%d %u %u %u %u", f + 1, p[0], p[1], p[2], p[3]);
		}
	}
}
END_TEST

/* Appends the n low bits of v to a block, least significant first. */
static void put_bits(uint8_t *blk, unsigned *pos, unsigned v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, (*pos)++)
		blk[*pos >> 3] |= (uint8_t)((v >> i & 1) << (*pos & 7));
}

START_TEST(bc7_known)
{
	/* Mode 6 (six 0 bits, a 1), worked by hand: one subset, RGBA 7-bit endpoints with a
	 * p-bit each, 4-bit indices (texel 0's 3 bits: the anchor). Endpoint 0 is
	 * (127, 0, 64, 127) with p-bit 1: (255, 1, 129, 255) in 8 bits; endpoint 1 is
	 * (0, 127, 64, 127) with p-bit 0: (0, 254, 128, 254). */
	uint8_t blk[16] = { 0 }, out[64], rgba[16 * 4];
	unsigned pos = 0;
	put_bits(blk, &pos, 0x40, 7);
	const unsigned e[4][2] = { { 127, 0 }, { 0, 127 }, { 64, 64 }, { 127, 127 } };
	for (int c = 0; c < 4; c++)
		for (int i = 0; i < 2; i++)
			put_bits(blk, &pos, e[c][i], 7);
	put_bits(blk, &pos, 1, 1);
	put_bits(blk, &pos, 0, 1);
	put_bits(blk, &pos, 0, 3);   /* texel 0: weight 0 */
	put_bits(blk, &pos, 15, 4);  /* texel 1: weight 64 */
	put_bits(blk, &pos, 8, 4);   /* texel 2: weight 34 */
	ck_assert_uint_eq(pos, 128 - 13 * 4);
	nm_bc7_block(blk, out);
	CK_PX(out + 0, 255, 1, 129, 255);
	CK_PX(out + 4, 0, 254, 128, 254);
	/* ((64 - 34) * e0 + 34 * e1 + 32) >> 6 */
	CK_PX(out + 8, 120, 135, 128, 254);
	CK_PX(out + 12, 255, 1, 129, 255); /* texel 3: index 0 */
	/* A reserved block (no mode bit in its first byte) is all zero; the image
	 * decoder gives the same texels. */
	uint8_t reserved[16] = { 0x00, 0xff, 0xff, 0xff };
	nm_bc7_block(reserved, out);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], 0);
	ck_assert_int_eq(nm_bcn_decode(NM_BC7, blk, 16, 4, 4, rgba), NM_OK);
	nm_bc7_block(blk, out);
	ck_assert(memcmp(rgba, out, 64) == 0);
}
END_TEST

START_TEST(rejects)
{
	uint8_t src[16] = { 0 }, rgba[5 * 4 * 4];
	ck_assert_int_eq(nm_bcn_decode(NM_BC1, src, 15, 5, 4, rgba), NM_E_FORMAT);
	ck_assert_int_eq(nm_bcn_decode(NM_BC1, src, 16, 5, 4, rgba), NM_OK);
	ck_assert_int_eq(nm_bcn_decode(NM_BC4, src, 15, 5, 4, rgba), NM_E_FORMAT);
	ck_assert_int_eq(nm_bcn_decode(NM_BC3, src, 16, 0, 4, rgba), NM_E_INVAL);
	ck_assert_int_eq(nm_bcn_decode((nm_bcn_format)9, src, 16, 4, 4, rgba), NM_E_INVAL);
	ck_assert_uint_eq(nm_bcn_block_bytes(NM_BC1), 8);
	ck_assert_uint_eq(nm_bcn_block_bytes(NM_BC5), 16);
	ck_assert_int_eq(nm_squish_decode(NM_BC4, src, 16, 4, 4, rgba), NM_E_INVAL);
	ck_assert_int_eq(nm_bcn_decode(NM_BC7, src, 15, 4, 4, rgba), NM_E_FORMAT);
	ck_assert_uint_eq(nm_bcn_block_bytes(NM_BC7), 16);
	ck_assert_int_eq(nm_squish_encode(NM_BC7, rgba, 4, 4, src, 16), NM_E_INVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("codec_bcn");
	TCase *tc = tcase_create("bcn");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bc4_matches_libsquish_bc3_alpha);
	tcase_add_test(tc, bc4_known);
	tcase_add_test(tc, bc4_bc5_images);
	tcase_add_test(tc, bc1_known);
	tcase_add_test(tc, bc2_bc3_known);
	tcase_add_test(tc, bc7_known);
	tcase_add_test(tc, encoded_round_trip);
	tcase_add_test(tc, rejects);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
