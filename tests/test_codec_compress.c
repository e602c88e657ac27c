/* Tests for the Tropical Freeze GPU-buffer codecs: Retro LZSS (Wii U) and bounded zlib
 * streams (Switch). Hand-written LZSS streams pin the format down independently of our
 * own compressor; round trips then cover the compressor. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "codec/gpu_buffer.h"
#include "codec/inflate.h"
#include "codec/lzss_retro.h"
#include "tests/prng.h"

/* ---- helpers ---------------------------------------------------------------------- */

static uint8_t *random_bytes(size_t n, uint32_t seed)
{
	uint8_t *p = prng_bytes(n, seed);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Decompress into an exact-size heap buffer so ASan sees any overrun. */
static nm_status lzss_dec(const uint8_t *src, size_t src_len, size_t dst_len, uint8_t **dst)
{
	*dst = malloc(dst_len ? dst_len : 1);
	ck_assert_ptr_nonnull(*dst);
	return nm_lzss_retro_decompress(src, src_len, *dst, dst_len);
}

static void expect_lzss(const uint8_t *src, size_t src_len, const uint8_t *want, size_t want_len)
{
	uint8_t *dst;
	ck_assert_int_eq(lzss_dec(src, src_len, want_len, &dst), NM_OK);
	if (want_len)
		ck_assert_mem_eq(dst, want, want_len);
	free(dst);
}

static void expect_lzss_fail(const uint8_t *src, size_t src_len, size_t dst_len, nm_status want)
{
	uint8_t *dst;
	ck_assert_int_eq(lzss_dec(src, src_len, dst_len, &dst), want);
	free(dst);
}

/* ---- LZSS: hand-written streams --------------------------------------------------- */

START_TEST(lzss_mode1_literals_and_overlap)
{
	/* a b c, ref(dist 3, count 3+3), X: flags 0001 0xxx; the reference reads bytes it
	 * is writing. Only 5 of the 8 flag bits are used. */
	static const uint8_t s[] = { 1, 0, 0, 0, 0x10, 'a', 'b', 'c', 0x30, 0x03, 'X' };
	expect_lzss(s, sizeof s, (const uint8_t *)"abcabcabcX", 10);
}
END_TEST

START_TEST(lzss_mode1_run_length_max_count)
{
	/* z, ref(dist 1, count 15+3): the longest mode-1 reference, pure run-length. */
	static const uint8_t s[] = { 1, 0, 0, 0, 0x40, 'z', 0xF0, 0x01 };
	uint8_t want[19];
	memset(want, 'z', sizeof want);
	expect_lzss(s, sizeof s, want, sizeof want);
}
END_TEST

START_TEST(lzss_mode1_flag_groups_msb_first)
{
	/* 7 literals then a reference flagged by bit 0 of the first flag byte, then a
	 * second flag byte: checks MSB-first order and the group boundary. */
	static const uint8_t s[] = {
		1, 0, 0, 0,
		0x01, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 0x00, 0x07,
		0x40, 'h', 0x10, 0x01,
	};
	expect_lzss(s, sizeof s, (const uint8_t *)"abcdefgabchhhhh", 15);
}
END_TEST

START_TEST(lzss_mode2_units)
{
	/* Units are 2 bytes: literal 1122, literal 3344, ref(dist 2 units, count 0+2
	 * units), ref(dist 1 unit, count 1+2 units) overlapping. */
	static const uint8_t s[] = {
		2, 0, 0, 0, 0x30, 0x11, 0x22, 0x33, 0x44, 0x00, 0x02, 0x10, 0x01,
	};
	static const uint8_t want[] = {
		0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x44,
		0x33, 0x44, 0x33, 0x44, 0x33, 0x44,
	};
	expect_lzss(s, sizeof s, want, sizeof want);
}
END_TEST

START_TEST(lzss_mode3_units)
{
	/* Units are 4 bytes; distance 1 means 4 bytes back, not 1. */
	static const uint8_t s[] = {
		3, 0, 0, 0, 0x40, 0xDE, 0xAD, 0xBE, 0xEF, 0x20, 0x01, 0x01, 0x02, 0x03, 0x04,
	};
	static const uint8_t want[] = {
		0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF,
		0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04,
	};
	expect_lzss(s, sizeof s, want, sizeof want);
}
END_TEST

START_TEST(lzss_count_bias_per_mode)
{
	/* The same reference bytes 00 01 (count nibble 0, distance 1) copy 3 units in
	 * mode 1, 2 units in mode 2 and 1 unit in mode 3. */
	static const uint8_t s1[] = { 1, 0, 0, 0, 0x40, 'q', 0x00, 0x01 };
	static const uint8_t s2[] = { 2, 0, 0, 0, 0x40, 'q', 'r', 0x00, 0x01 };
	static const uint8_t s3[] = { 3, 0, 0, 0, 0x40, 'q', 'r', 's', 't', 0x00, 0x01 };
	expect_lzss(s1, sizeof s1, (const uint8_t *)"qqqq", 4);
	expect_lzss(s2, sizeof s2, (const uint8_t *)"qrqrqr", 6);
	expect_lzss(s3, sizeof s3, (const uint8_t *)"qrstqrst", 8);
	/* One more output byte than the stream makes is an error in every mode. */
	expect_lzss_fail(s1, sizeof s1, 5, NM_E_FORMAT);
	expect_lzss_fail(s2, sizeof s2, 7, NM_E_FORMAT);
	expect_lzss_fail(s3, sizeof s3, 9, NM_E_FORMAT);
}
END_TEST

START_TEST(lzss_long_distance)
{
	/* 4095 units back, the largest distance, in mode 2: 8190 bytes of literals (as
	 * 4095 units), then ref(dist 4095, count 0+2). */
	size_t nlit = 4095, g = 2, len = 4 + (nlit + 1 + 7) / 8 + nlit * g + 2;
	uint8_t *s = calloc(1, len), *want = malloc(nlit * g + 4);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(want);
	uint32_t seed = 7;
	size_t p = 4, flag = 0;
	s[0] = 2;
	for (size_t i = 0; i <= nlit; i++) {
		if (i % 8 == 0)
			flag = p++;
		if (i == nlit) {
			s[flag] |= (uint8_t)(0x80 >> (i % 8));
			s[p++] = 0x0F;
			s[p++] = 0xFF;
			break;
		}
		for (size_t k = 0; k < g; k++)
			s[p++] = want[i * g + k] = (uint8_t)(xorshift(&seed) >> 24);
	}
	ck_assert_uint_eq(p, len);
	memcpy(want + nlit * g, want, 4);
	expect_lzss(s, len, want, nlit * g + 4);
	free(s);
	free(want);
}
END_TEST

START_TEST(lzss_mode0_stored)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 0xAA, 0xBB };
	expect_lzss(s, sizeof s, (const uint8_t *)"hello", 5); /* trailing padding ignored */
	expect_lzss(s, sizeof s, s + 4, 7);
	expect_lzss_fail(s, sizeof s, 8, NM_E_FORMAT);
	expect_lzss(s, 4, NULL, 0);
}
END_TEST

START_TEST(lzss_stops_at_dst_len)
{
	/* A shorter destination takes a prefix and nothing beyond it is written. */
	static const uint8_t s[] = { 1, 0, 0, 0, 0x10, 'a', 'b', 'c', 0x30, 0x03, 'X' };
	uint8_t buf[16];
	for (size_t n = 0; n <= 10; n++) {
		memset(buf, 0xEE, sizeof buf);
		ck_assert_int_eq(nm_lzss_retro_decompress(s, sizeof s, buf, n), NM_OK);
		ck_assert_mem_eq(buf, "abcabcabcX", n);
		for (size_t k = n; k < sizeof buf; k++)
			ck_assert_uint_eq(buf[k], 0xEE);
	}
}
END_TEST

START_TEST(lzss_trailing_partial_unit)
{
	/* Mode 3, dst_len 6: the second literal is cut to 2 bytes; padded or not, the
	 * output stops exactly at dst_len. */
	static const uint8_t padded[] = { 3, 0, 0, 0, 0x00, 1, 2, 3, 4, 5, 6, 0, 0 };
	static const uint8_t bare[] = { 3, 0, 0, 0, 0x00, 1, 2, 3, 4, 5, 6 };
	static const uint8_t want[] = { 1, 2, 3, 4, 5, 6 };
	expect_lzss(padded, sizeof padded, want, 6);
	expect_lzss(bare, sizeof bare, want, 6);
	expect_lzss_fail(bare, sizeof bare - 1, 6, NM_E_FORMAT);
	/* A reference that overshoots dst_len is cut as well. */
	static const uint8_t ref[] = { 2, 0, 0, 0, 0x40, 'a', 'b', 0x20, 0x01 };
	expect_lzss(ref, sizeof ref, (const uint8_t *)"ababababa", 9);
}
END_TEST

START_TEST(lzss_err_distance_before_start)
{
	static const uint8_t first[] = { 1, 0, 0, 0, 0x80, 0x00, 0x01 };
	static const uint8_t past[] = { 1, 0, 0, 0, 0x40, 'a', 0x00, 0x02 };
	static const uint8_t unit3[] = { 3, 0, 0, 0, 0x40, 1, 2, 3, 4, 0x00, 0x02 };
	expect_lzss_fail(first, sizeof first, 3, NM_E_FORMAT);
	expect_lzss_fail(past, sizeof past, 4, NM_E_FORMAT);
	expect_lzss_fail(unit3, sizeof unit3, 8, NM_E_FORMAT);
}
END_TEST

START_TEST(lzss_err_distance_zero)
{
	static const uint8_t s[] = { 1, 0, 0, 0, 0x40, 'a', 0x00, 0x00 };
	expect_lzss_fail(s, sizeof s, 4, NM_E_FORMAT);
}
END_TEST

START_TEST(lzss_err_truncated)
{
	/* Every proper prefix of a valid stream fails, whatever byte it ends in. */
	static const uint8_t s1[] = { 1, 0, 0, 0, 0x10, 'a', 'b', 'c', 0x30, 0x03, 'X' };
	static const uint8_t s3[] = {
		3, 0, 0, 0, 0x40, 0xDE, 0xAD, 0xBE, 0xEF, 0x20, 0x01, 0x01, 0x02, 0x03, 0x04,
	};
	for (size_t n = 0; n < sizeof s1; n++)
		expect_lzss_fail(s1, n, 10, NM_E_FORMAT);
	for (size_t n = 0; n < sizeof s3; n++)
		expect_lzss_fail(s3, n, 20, NM_E_FORMAT);
	/* A flag byte with nothing after it. */
	static const uint8_t flag_only[] = { 2, 0, 0, 0, 0x00 };
	expect_lzss_fail(flag_only, sizeof flag_only, 2, NM_E_FORMAT);
}
END_TEST

START_TEST(lzss_err_header)
{
	static const uint8_t bad_modes[] = { 4, 13, 0xFF };
	for (size_t i = 0; i < sizeof bad_modes; i++) {
		uint8_t s[] = { bad_modes[i], 0, 0, 0, 0x00, 'a', 'b', 'c', 'd' };
		expect_lzss_fail(s, sizeof s, 1, NM_E_FORMAT);
	}
	/* The Switch zlib header is not LZSS. */
	static const uint8_t sw[] = { 0x0d, 0, 0, 0, 0x78, 0xda, 0x03, 0x00 };
	expect_lzss_fail(sw, sizeof sw, 0, NM_E_FORMAT);
	/* Bytes 1..3 must be zero. */
	for (int k = 1; k < 4; k++) {
		uint8_t s[] = { 1, 0, 0, 0, 0x00, 'a' };
		s[k] = 1;
		expect_lzss_fail(s, sizeof s, 1, NM_E_FORMAT);
	}
	expect_lzss_fail((const uint8_t *)"\1\0\0", 3, 0, NM_E_FORMAT);
	ck_assert_int_eq(nm_lzss_retro_decompress(NULL, 0, NULL, 0), NM_E_INVAL);
}
END_TEST

/* ---- LZSS: compressor round trips -------------------------------------------------- */

static void round_trip(int mode, const uint8_t *data, size_t len)
{
	uint8_t *c = NULL, *d;
	size_t clen = 0;
	ck_assert_int_eq(nm_gpu_encode((uint32_t)mode, data, len, &c, &clen), NM_OK);
	ck_assert_uint_ge(clen, 4);
	ck_assert_uint_eq(c[0], (unsigned)mode);
	ck_assert(c[1] == 0 && c[2] == 0 && c[3] == 0);
	ck_assert_int_eq(lzss_dec(c, clen, len, &d), NM_OK);
	if (len)
		ck_assert_mem_eq(d, data, len);
	free(d);
	if (len > 0 && (mode == 0 || len % ((size_t)1 << (mode - 1)) == 0)) {
		/* Asking for one byte more than was compressed must fail. (Inside a padded
		 * final unit it cannot: the padding reads as data, by design of the format.) */
		ck_assert_int_eq(lzss_dec(c, clen, len + 1, &d), NM_E_FORMAT);
		free(d);
	}
	free(c);
}

static size_t compressed_len(int mode, const uint8_t *data, size_t len)
{
	uint8_t *c = NULL;
	size_t clen = 0;
	ck_assert_int_eq(nm_gpu_encode((uint32_t)mode, data, len, &c, &clen), NM_OK);
	free(c);
	return clen;
}

START_TEST(lzss_round_trip)
{
	int mode = _i;
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 7, 8, 9, 31, 1000, 4099, 70001 };
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		size_t n = sizes[s];
		uint8_t *r = random_bytes(n, (uint32_t)(n * 31 + 1));
		round_trip(mode, r, n);

		/* repetitive: a short period that is not a multiple of the unit */
		for (size_t i = 0; i < n; i++)
			r[i] = "abcdefg"[i % 7];
		round_trip(mode, r, n);

		memset(r, 0, n);
		round_trip(mode, r, n);

		/* vertex-like: small structs whose fields change slowly */
		for (size_t i = 0; i < n; i++)
			r[i] = (uint8_t)((i % 12 < 6) ? (i / 48) : (i % 12) * 3);
		round_trip(mode, r, n);
		free(r);
	}
}
END_TEST

START_TEST(lzss_compressor_uses_references)
{
	int mode = _i;
	size_t n = 65536;
	uint8_t *z = calloc(1, n);
	ck_assert_ptr_nonnull(z);
	/* 18 units per 3 bytes at best in mode 1 (2 bytes + flag bits). */
	ck_assert_uint_lt(compressed_len(mode, z, n), n / 4);
	free(z);

	/* A random block repeated at the largest distance, 4095 units, still matches;
	 * at 4096 units it cannot. */
	size_t g = (size_t)1 << (mode - 1), blk = 4095 * g;
	uint8_t *r = random_bytes(2 * (blk + g), 99);
	memcpy(r + blk, r, blk);
	ck_assert_uint_lt(compressed_len(mode, r, 2 * blk), blk + blk / 2);
	round_trip(mode, r, 2 * blk);
	uint8_t *r2 = random_bytes(2 * (blk + g), 99);
	memcpy(r2 + blk + g, r2, blk + g);
	ck_assert_uint_gt(compressed_len(mode, r2, 2 * (blk + g)), 2 * (blk + g));
	round_trip(mode, r2, 2 * (blk + g));
	free(r);
	free(r2);
}
END_TEST

START_TEST(lzss_compress_args)
{
	uint8_t *c = NULL;
	size_t clen = 0;
	ck_assert_int_eq(nm_gpu_encode(14, (const uint8_t *)"a", 1, &c, &clen), NM_E_INVAL);
	ck_assert_int_eq(nm_gpu_encode(0xFFFFFFFFu, (const uint8_t *)"a", 1, &c, &clen), NM_E_INVAL);
	ck_assert_int_eq(nm_gpu_encode(1, NULL, 1, &c, &clen), NM_E_INVAL);
	ck_assert_int_eq(nm_gpu_encode(1, (const uint8_t *)"a", 1, NULL, &clen), NM_E_INVAL);
	ck_assert_int_eq(nm_lzss_compress((nm_lzss_kind){ 3, false }, (const uint8_t *)"a", 1, &c,
					  &clen), NM_E_INVAL);
	ck_assert_int_eq(nm_gpu_encode(1, NULL, 0, &c, &clen), NM_OK);
	ck_assert_uint_eq(clen, 4);
	free(c);
}
END_TEST

/* ---- inflate ------------------------------------------------------------------------ */

static uint8_t *zcompress(const uint8_t *data, size_t len, size_t *zlen)
{
	uLongf cap = compressBound(len);
	uint8_t *z = malloc(cap);
	ck_assert_ptr_nonnull(z);
	ck_assert_int_eq(compress2(z, &cap, data, len, Z_BEST_COMPRESSION), Z_OK);
	*zlen = cap;
	return z;
}

static uint8_t *sample(size_t n)
{
	uint8_t *p = random_bytes(n, 5);
	/* half random, half text-like so the stream has both stored-ish and matched data */
	for (size_t i = n / 2; i < n; i++)
		p[i] = "the quick brown fox "[i % 20];
	return p;
}

START_TEST(inflate_one_stream)
{
	size_t n = 100000, zlen, out, used;
	uint8_t *data = sample(n), *z = zcompress(data, n, &zlen), *dst = malloc(n);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, n, &out, &used), NM_OK);
	ck_assert_uint_eq(out, n);
	ck_assert_uint_eq(used, zlen);
	ck_assert_mem_eq(dst, data, n);

	ck_assert_int_eq(nm_inflate_measure(z, zlen, n, &out, &used), NM_OK);
	ck_assert_uint_eq(out, n);
	ck_assert_uint_eq(used, zlen);
	free(data);
	free(z);
	free(dst);
}
END_TEST

START_TEST(inflate_back_to_back)
{
	size_t na = 5000, nb = 777, za, zb, out, used;
	uint8_t *a = sample(na), *b = random_bytes(nb, 3);
	uint8_t *sa = zcompress(a, na, &za), *sb = zcompress(b, nb, &zb);
	/* Two streams, then junk that must not be read as part of either. */
	size_t total = za + zb + 3;
	uint8_t *cat = malloc(total), *dst = malloc(na + nb);
	memcpy(cat, sa, za);
	memcpy(cat + za, sb, zb);
	memcpy(cat + za + zb, "\xde\xad\x00", 3);

	ck_assert_int_eq(nm_inflate_stream(cat, total, dst, na + nb, &out, &used), NM_OK);
	ck_assert_uint_eq(out, na);
	ck_assert_uint_eq(used, za);
	ck_assert_mem_eq(dst, a, na);
	ck_assert_int_eq(nm_inflate_stream(cat + used, total - used, dst, na + nb, &out, &used), NM_OK);
	ck_assert_uint_eq(out, nb);
	ck_assert_uint_eq(used, zb);
	ck_assert_mem_eq(dst, b, nb);

	ck_assert_int_eq(nm_inflate_measure(cat, total, SIZE_MAX, &out, &used), NM_OK);
	ck_assert_uint_eq(out, na);
	ck_assert_uint_eq(used, za);
	free(a);
	free(b);
	free(sa);
	free(sb);
	free(cat);
	free(dst);
}
END_TEST

START_TEST(inflate_truncated)
{
	size_t n = 20000, zlen, out, used;
	uint8_t *data = sample(n), *z = zcompress(data, n, &zlen), *dst = malloc(n);
	/* Every cut, including one inside the Adler-32 trailer, is a format error. */
	for (size_t cut = 0; cut < zlen; cut += (cut < 8 || cut > zlen - 8) ? 1 : 97) {
		ck_assert_int_eq(nm_inflate_stream(z, cut, dst, n, &out, &used), NM_E_FORMAT);
		ck_assert_int_eq(nm_inflate_measure(z, cut, n, &out, &used), NM_E_FORMAT);
	}
	free(data);
	free(z);
	free(dst);
}
END_TEST

START_TEST(inflate_corrupt)
{
	size_t n = 20000, zlen, out, used;
	uint8_t *data = sample(n), *z = zcompress(data, n, &zlen), *dst = malloc(2 * n);

	z[0] ^= 0x01; /* header checksum no longer holds */
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, 2 * n, &out, &used), NM_E_FORMAT);
	z[0] ^= 0x01;

	z[zlen - 1] ^= 0x55; /* Adler-32 mismatch */
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, 2 * n, &out, &used), NM_E_FORMAT);
	ck_assert_int_eq(nm_inflate_measure(z, zlen, 2 * n, &out, &used), NM_E_FORMAT);
	z[zlen - 1] ^= 0x55;

	z[zlen / 2] ^= 0xFF; /* damage in the middle of the deflate data */
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, 2 * n, &out, &used), NM_E_FORMAT);
	z[zlen / 2] ^= 0xFF;

	/* Raw deflate (no zlib header) is refused. */
	ck_assert_int_eq(nm_inflate_stream(z + 2, zlen - 2, dst, 2 * n, &out, &used), NM_E_FORMAT);

	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, n, &out, &used), NM_OK);
	ck_assert_mem_eq(dst, data, n);
	free(data);
	free(z);
	free(dst);
}
END_TEST

START_TEST(inflate_cap)
{
	size_t n = 10000, zlen, out, used;
	uint8_t *data = sample(n), *z = zcompress(data, n, &zlen);
	uint8_t *dst = malloc(n + 16);
	/* Exactly fitting is fine; one byte short is a limit, and nothing past the
	 * capacity is touched. */
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, n, &out, &used), NM_OK);
	ck_assert_uint_eq(out, n);
	memset(dst, 0xEE, n + 16);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, n - 1, &out, &used), NM_E_LIMIT);
	for (size_t k = n - 1; k < n + 16; k++)
		ck_assert_uint_eq(dst[k], 0xEE);
	ck_assert_mem_eq(dst, data, n - 1);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, 100, &out, &used), NM_E_LIMIT);
	ck_assert_int_eq(nm_inflate_measure(z, zlen, n - 1, &out, &used), NM_E_LIMIT);
	ck_assert_int_eq(nm_inflate_measure(z, zlen, n, &out, &used), NM_OK);

	/* An empty stream fits in nothing. */
	size_t elen;
	uint8_t *e = zcompress(NULL, 0, &elen);
	ck_assert_int_eq(nm_inflate_stream(e, elen, NULL, 0, &out, &used), NM_OK);
	ck_assert_uint_eq(out, 0);
	ck_assert_uint_eq(used, elen);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, NULL, 0, &out, &used), NM_E_LIMIT);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, NULL, 1, &out, &used), NM_E_INVAL);
	free(e);
	free(data);
	free(z);
	free(dst);
}
END_TEST

/* 64 MiB of zeros, deflated from a small buffer so the test never holds 64 MiB. */
static uint8_t *zero_bomb(size_t *zlen)
{
	static const size_t total = (size_t)64 << 20;
	uint8_t *zeros = calloc(1, 1 << 20);
	size_t cap = 1 << 20;
	uint8_t *z = malloc(cap);
	z_stream zs = { 0 };
	ck_assert_int_eq(deflateInit(&zs, Z_BEST_COMPRESSION), Z_OK);
	zs.next_out = z;
	zs.avail_out = (uInt)cap;
	for (size_t fed = 0; fed < total; fed += 1 << 20) {
		zs.next_in = zeros;
		zs.avail_in = 1 << 20;
		int flush = fed + (1 << 20) == total ? Z_FINISH : Z_NO_FLUSH;
		int zr = deflate(&zs, flush);
		ck_assert(zr == (flush == Z_FINISH ? Z_STREAM_END : Z_OK));
		ck_assert_uint_eq(zs.avail_in, 0);
	}
	*zlen = zs.total_out;
	deflateEnd(&zs);
	free(zeros);
	return z;
}

START_TEST(inflate_bomb)
{
	size_t zlen, out, used;
	uint8_t *z = zero_bomb(&zlen);
	ck_assert_uint_lt(zlen, 128 * 1024);
	ck_assert_int_eq(nm_inflate_measure(z, zlen, (size_t)1 << 20, &out, &used), NM_E_LIMIT);
	ck_assert_uint_le(out, (size_t)1 << 20);
	/* Proof that measuring stops at the limit instead of running on: the second
	 * half of the stream is cut off, so reaching the end would be NM_E_FORMAT. */
	ck_assert_int_eq(nm_inflate_measure(z, zlen / 2, (size_t)1 << 20, &out, &used), NM_E_LIMIT);
	ck_assert_int_eq(nm_inflate_measure(z, zlen / 2, SIZE_MAX, &out, &used), NM_E_FORMAT);

	uint8_t *dst = malloc((size_t)1 << 20);
	ck_assert_int_eq(nm_inflate_stream(z, zlen, dst, (size_t)1 << 20, &out, &used), NM_E_LIMIT);
	free(dst);

	/* With room for it, the measure is exact. */
	ck_assert_int_eq(nm_inflate_measure(z, zlen, (size_t)64 << 20, &out, &used), NM_OK);
	ck_assert_uint_eq(out, (size_t)64 << 20);
	ck_assert_uint_eq(used, zlen);
	free(z);
}
END_TEST

/* ---- runner ------------------------------------------------------------------------- */

static Suite *codec_suite(void)
{
	Suite *s = suite_create("codec_compress");
	TCase *lz = tcase_create("lzss");
	tcase_add_test(lz, lzss_mode1_literals_and_overlap);
	tcase_add_test(lz, lzss_mode1_run_length_max_count);
	tcase_add_test(lz, lzss_mode1_flag_groups_msb_first);
	tcase_add_test(lz, lzss_mode2_units);
	tcase_add_test(lz, lzss_mode3_units);
	tcase_add_test(lz, lzss_count_bias_per_mode);
	tcase_add_test(lz, lzss_long_distance);
	tcase_add_test(lz, lzss_mode0_stored);
	tcase_add_test(lz, lzss_stops_at_dst_len);
	tcase_add_test(lz, lzss_trailing_partial_unit);
	tcase_add_test(lz, lzss_err_distance_before_start);
	tcase_add_test(lz, lzss_err_distance_zero);
	tcase_add_test(lz, lzss_err_truncated);
	tcase_add_test(lz, lzss_err_header);
	tcase_add_test(lz, lzss_compress_args);
	suite_add_tcase(s, lz);

	TCase *rt = tcase_create("lzss_round_trip");
	tcase_set_timeout(rt, 60);
	tcase_add_loop_test(rt, lzss_round_trip, 0, 4);
	tcase_add_loop_test(rt, lzss_compressor_uses_references, 1, 4);
	suite_add_tcase(s, rt);

	TCase *zt = tcase_create("inflate");
	tcase_set_timeout(zt, 60);
	tcase_add_test(zt, inflate_one_stream);
	tcase_add_test(zt, inflate_back_to_back);
	tcase_add_test(zt, inflate_truncated);
	tcase_add_test(zt, inflate_corrupt);
	tcase_add_test(zt, inflate_cap);
	tcase_add_test(zt, inflate_bomb);
	suite_add_tcase(s, zt);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(codec_suite)
