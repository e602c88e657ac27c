/* src/export/fmt_num against glibc's printf, byte for byte.
 *
 * The references (tests/fmt_printf.h, and printf itself for "%*llu" and "%*lld") are what
 * the writers did before fmt_num: the shortest "%.*g" that strtof reads back (then
 * positional for exponents 0 to 8), "%+.8e", and the NaN spelling. make check runs every float of three whole binades
 * (denormals, the one holding 10, the one holding 10^10, where the digits come from a
 * division), ±0, ±inf, NaNs with payloads, 10,000 floats around every power of ten, both
 * ends of every binade, and a million random bit patterns.
 *
 * tests/test_fmt --exhaustive [FIRST [COUNT]] compares every bit pattern from FIRST on
 * (default: all 2^32) the same way (quick_check) and prints one line per 2^24 patterns;
 * it is not part of make check (about 0.6 us a float, nearly all of it glibc's). */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/fmt_num.h"
#include "export/text.h"
#include "lib/options.h"
#include "tests/fmt_printf.h"
#include "tests/prng.h"

static float from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* Check's assertions cost a write to its pipe each: the loops below assert only on
 * failure (ck_abort_msg), tens of millions of times otherwise. */
static void ours_shortest(char *buf, float f)
{
	size_t n = nm_fmt_shortest(buf, f);
	if (n > NM_FMT_SHORTEST_MAX)
		ck_abort_msg("%a: %zu bytes", (double)f, n);
	buf[n] = '\0';
}

static void ours_sci(char *buf, float f)
{
	nm_fmt_sci(buf, f);
	buf[NM_FMT_SCI_WIDTH] = '\0';
}

/* Both forms of f against the full references. Returns 0 when equal; else prints. */
static int full_check(uint32_t u)
{
	char want[320], got[320];
	int digits, bad = 0;
	float f = from_bits(u);
	nm_printf_shortest(want, f, &digits);
	ours_shortest(got, f);
	if (strcmp(want, got)) {
		printf("%08" PRIx32 ": shortest %s, printf %s\n", u, got, want);
		bad = 1;
	}
	nm_printf_sci(want, f);
	ours_sci(got, f);
	if (strcmp(want, got)) {
		printf("%08" PRIx32 ": %%+.8e %s, printf %s\n", u, got, want);
		bad = 1;
	}
	return bad;
}

static void expect_full(uint32_t u)
{
	if (full_check(u))
		ck_abort_msg("float 0x%08x differs from printf (above)", u);
}

/* full_check's verdict with fewer printf calls, for whole binades and the exhaustive run
 * (the reference spends up to nine printf and strtof calls on a float): "%+.8e", then
 * our shortest form S of P significant digits is printf's "%.*g" at P, reads back, and
 * printf's P - 1 digits do not. That is the reference's own loop stopping at P because
 * reading back is monotonic in P: printf's P + 1 digits are at least as close to f as its
 * P digits (those are P + 1 digits too), so once a precision lands in f's rounding
 * interval every larger one does, as long as the interval is symmetric. It is not at a
 * power of two (the neighbour below is half as far), so those go to full_check, as do
 * zeros, inf, NaN, and integers written positionally, whose digits do not tell P. */
static int quick_check(uint32_t u)
{
	char want[320], got[320];
	float f = from_bits(u);
	if (!isfinite(f) || (u & 0x7fffff) == 0)
		return full_check(u);
	nm_printf_sci(want, f);
	ours_sci(got, f);
	if (strcmp(want, got)) {
		printf("%08x: %%+.8e %s, printf %s\n", u, got, want);
		return 1;
	}
	ours_shortest(got, f);
	const char *e = strchr(got, 'e');
	if ((!e && !strchr(got, '.')) || (e && atoi(e + 1) >= 0 && atoi(e + 1) < 9))
		return full_check(u);
	int digits = 0; /* P: significant digits (printf's %g keeps no trailing zeros) */
	for (const char *p = got; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && (digits || *p != '0'))
			digits++;
	snprintf(want, sizeof want, "%.*g", digits, (double)f);
	if (strcmp(want, got) || strtof(got, NULL) != f) {
		printf("%08x: shortest %s, printf %%.%dg %s\n", u, got, digits, want);
		return 1;
	}
	if (digits > 1) {
		snprintf(want, sizeof want, "%.*g", digits - 1, (double)f);
		if (strtof(want, NULL) == f) {
			printf("%08x: shortest %s, but printf's %s reads back\n", u, got, want);
			return 1;
		}
	}
	return 0;
}

static void binade(unsigned biased)
{
	for (uint32_t m = 0; m < 0x800000; m++)
		if (quick_check(biased << 23 | m))
			ck_abort_msg("float 0x%08x differs from printf (above)", biased << 23 | m);
}

START_TEST(whole_binade_denormals) { binade(0); }
END_TEST

START_TEST(whole_binade_of_10) { binade(130); }   /* [8, 16) */
END_TEST

START_TEST(whole_binade_of_1e10) { binade(160); } /* [2^33, 2^34) */
END_TEST

START_TEST(zeros_infinities_nans)
{
	static const uint32_t bits[] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000,
		0x7fc00000, 0xffc00000, 0x7fc00001, 0xffc12345, 0x7fffffff, 0xffffffff,
		0x7f800001, 0xff800001, 0x7fbfffff, 0x7f812345, 0x7fe00000,
	};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
		expect_full(bits[i]);
	char buf[40];
	ours_shortest(buf, from_bits(0x80000000));
	ck_assert_str_eq(buf, "-0");
	ours_sci(buf, from_bits(0x7fc00001));
	ck_assert_str_eq(buf, "  nan(0x400001)");
	/* Every payload of one sign bit pattern family, against the reference spelling. */
	for (uint32_t m = 1; m < 0x800000; m += 4099)
		expect_full(0xff800000 | m);
}
END_TEST

START_TEST(around_powers_of_ten)
{
	for (int k = -45; k <= 38; k++) {
		float p = (float)pow(10, k);
		uint32_t u;
		memcpy(&u, &p, sizeof u);
		uint32_t lo = u > 5000 ? u - 5000 : 0;
		for (uint32_t v = lo; v < u + 5000 && v < 0x7f800000; v++) {
			expect_full(v);
			expect_full(v | 0x80000000);
		}
	}
}
END_TEST

START_TEST(binade_edges)
{
	/* The first and last 64 floats of every binade: the rounding interval is lopsided
	 * at a power of two, and the largest float's upper neighbour is infinity. */
	for (uint32_t b = 0; b < 255; b++)
		for (uint32_t m = 0; m < 64; m++) {
			expect_full(b << 23 | m);
			expect_full(b << 23 | (0x7fffff - m));
		}
}
END_TEST

START_TEST(random_bit_patterns)
{
	uint32_t s = 0x9e3779b9;
	for (int i = 0; i < 1000000; i++)
		expect_full(xorshift(&s));
}
END_TEST

START_TEST(every_precision_like_printf)
{
	uint32_t s = 12345;
	char got[40], want[40];
	for (int i = 0; i < 100000; i++) {
		uint32_t u = xorshift(&s);
		float f = from_bits(u);
		if (!isfinite(f))
			continue;
		for (int prec = 1; prec <= 9; prec++) {
			got[nm_fmt_g(got, f, prec)] = '\0';
			snprintf(want, sizeof want, "%.*g", prec, (double)f);
			if (strcmp(got, want))
				ck_abort_msg("%08x %%.%dg: %s, printf %s", u, prec, got, want);
		}
	}
}
END_TEST

START_TEST(integers_like_printf)
{
	static const uint64_t u[] = { 0, 1, 9, 10, 99, 100, 12345, 999999999, 1000000000,
				      UINT32_MAX, (uint64_t)UINT32_MAX + 1, 9999999999999999999u,
				      10000000000000000000u, UINT64_MAX };
	static const int64_t s[] = { 0, -1, 1, -9, -10, 42, -12345, INT64_MAX, INT64_MIN,
				     INT64_MIN + 1 };
	char got[64], want[64];
	for (unsigned width = 0; width <= 24; width++) {
		for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
			got[nm_fmt_uint_width(got, u[i], width)] = '\0';
			snprintf(want, sizeof want, "%*llu", (int)width, (unsigned long long)u[i]);
			ck_assert_str_eq(got, want);
			got[nm_fmt_uint(got, u[i])] = '\0';
			snprintf(want, sizeof want, "%llu", (unsigned long long)u[i]);
			ck_assert_str_eq(got, want);
			ck_assert_uint_eq(nm_fmt_digits(u[i]), strlen(want));
		}
		for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
			got[nm_fmt_int_width(got, s[i], width)] = '\0';
			snprintf(want, sizeof want, "%*lld", (int)width, (long long)s[i]);
			ck_assert_str_eq(got, want);
		}
	}
	uint32_t r = 99;
	for (int i = 0; i < 100000; i++) {
		uint64_t v = (uint64_t)xorshift(&r) << 32 | xorshift(&r);
		v >>= xorshift(&r) % 64;
		got[nm_fmt_uint_width(got, v, 5)] = '\0';
		snprintf(want, sizeof want, "%5llu", (unsigned long long)v);
		if (strcmp(got, want))
			ck_abort_msg("%%5llu: %s, printf %s", got, want);
		got[nm_fmt_int_width(got, -(int64_t)(v >> 1), 7)] = '\0';
		snprintf(want, sizeof want, "%7lld", -(long long)(v >> 1));
		if (strcmp(got, want))
			ck_abort_msg("%%7lld: %s, printf %s", got, want);
	}
}
END_TEST

/* The writers in text.c and csv.c put the same bytes into an nm_out. */
START_TEST(writers_use_it)
{
	nm_out o;
	nm_out_init(&o);
	float v[3] = { 0.1f, -180.0f, 1e-7f };
	nm_kv_floats(&o, "k", v, 3);
	nm_csv_float(&o, 0.1f);
	nm_csv_uint(&o, 42, 5);
	nm_csv_int(&o, -42, 5);
	nm_out_float(&o, from_bits(0x7fc00001));
	nm_out_char(&o, '\0');
	ck_assert_str_eq((char *)o.data,
			 "k: 0.1 -180 1e-07\n+1.00000001e-01   42  -42nan(0x400001)");
	nm_out_free(&o);
	char buf[NM_FLOAT_BUF];
	ck_assert_str_eq(nm_fmt_float(buf, 1.8e2f), "180");
	ck_assert_str_eq(nm_fmt_float(buf, 1e9f), "1e+09");
	ck_assert_str_eq(nm_fmt_float(buf, 123456792.0f), "123456792");
}
END_TEST

/* A file that fills max_file_size exactly: its last numbers' longest text would not fit,
 * their actual text does (written through the scratch buffer), and one byte more fails. */
START_TEST(writers_at_the_limit)
{
	const char *want = "k: 1 2\n+1.00000000e+00 7  -7 OBJ\n";
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = strlen(want);
	nm_out o;
	nm_out_init(&o);
	o.opt = &opt;
	nm_out_expect(&o, strlen(want));
	ck_assert_uint_eq(o.cap, strlen(want));
	float v[2] = { 1, 2 };
	nm_kv_floats(&o, "k", v, 2);
	nm_csv_float(&o, 1.0f);
	nm_out_char(&o, ' ');
	nm_csv_uint(&o, 7, 1);
	nm_csv_int(&o, -7, 4);
	nm_out_str(&o, " OBJ\n");
	ck_assert_int_eq(nm_out_status(&o), NM_OK);
	ck_assert_uint_eq(o.len, strlen(want));
	ck_assert(memcmp(o.data, want, o.len) == 0);
	nm_out_float(&o, 3.0f);
	ck_assert_int_eq(nm_out_status(&o), NM_E_LIMIT);
	ck_assert_uint_eq(o.len, strlen(want));
	nm_out_free(&o);
	/* Wider than any number: the padding still comes out right. */
	nm_out_init(&o);
	nm_csv_uint(&o, 5, 30);
	nm_csv_int(&o, -5, 25);
	nm_out_char(&o, '\0');
	char pad[64];
	snprintf(pad, sizeof pad, "%30u%25d", 5u, -5);
	ck_assert_str_eq((char *)o.data, pad);
	nm_out_free(&o);
}
END_TEST

static Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt_num");
	TCase *tc = tcase_create("printf");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, zeros_infinities_nans);
	tcase_add_test(tc, integers_like_printf);
	tcase_add_test(tc, writers_use_it);
	tcase_add_test(tc, writers_at_the_limit);
	tcase_add_test(tc, every_precision_like_printf);
	tcase_add_test(tc, binade_edges);
	tcase_add_test(tc, around_powers_of_ten);
	tcase_add_test(tc, random_bit_patterns);
	tcase_add_test(tc, whole_binade_denormals);
	tcase_add_test(tc, whole_binade_of_10);
	tcase_add_test(tc, whole_binade_of_1e10);
	suite_add_tcase(s, tc);
	return s;
}

static int exhaustive(uint64_t first, uint64_t count)
{
	uint64_t bad = 0, end = first + count;
	for (uint64_t u = first; u < end; u++) {
		bad += (uint64_t)quick_check((uint32_t)u);
		if (((u + 1) & 0xffffff) == 0 || u + 1 == end) {
			printf("%08" PRIx64 ": %" PRIu64 " floats, %" PRIu64 " differ\n",
			       (uint64_t)(uint32_t)u, u + 1 - first, bad);
			fflush(stdout);
		}
	}
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exhaustive")) {
		uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
		uint64_t count = argc > 3 ? strtoull(argv[3], NULL, 0) : (1ull << 32) - first;
		if (first >= 1ull << 32 || count > (1ull << 32) - first) {
			fprintf(stderr, "test_fmt: FIRST and COUNT must stay within 2^32\n");
			return EXIT_FAILURE;
		}
		return exhaustive(first, count);
	}
	SRunner *sr = srunner_create(fmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
