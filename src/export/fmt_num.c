/* Float and integer formatting, byte-identical to glibc's printf.
 *
 * A finite float is m * 2^e exactly (m < 2^24). Everything below starts from one integer:
 * T = floor(f * 10^(9 - X)), the first ten significant digits of f (X its decimal
 * exponent), and whether anything nonzero was cut off below them (sticky). From T and
 * sticky, rounding to any 1 to 9 digits is exact, ties to even as printf rounds: a tie
 * is a cut-off part of exactly 5000... and nothing below. T comes from exact integer
 * arithmetic (m * 5^t in 192 bits, then a shift; numbers of 10^10 and more are integers,
 * divided by 10^k), so there is no approximation to prove, only ranges.
 *
 * The shortest form follows the definition the printf version used: the first precision
 * P = 1, 2, ... whose correctly rounded P digits read back to f. "Reads back" means lying
 * inside f's rounding interval, between the midpoints to its neighbours (the lower one
 * closer at a power of two), the midpoints included when m is even, as strtof rounds
 * ties to even. The midpoints are binary numbers too, scaled to T's decimal scale by the
 * same arithmetic. (The interval test is Ryu's and Schubfach's; the digit search is
 * printf's, which picks a correctly rounded candidate rather than any short number in
 * the interval: at a power of two they can differ.) */
#include <stdbool.h>
#include <string.h>
#include "export/fmt_num.h"

#ifndef __SIZEOF_INT128__
#error "src/export/fmt_num.c needs unsigned __int128 (gcc or clang, 64-bit target)"
#endif
typedef unsigned __int128 u128;

#define P5(hi, lo) (((u128)(hi) << 64) | (lo))
/* 5^t, t = 0..54: T of the smallest denormal (X = -45) needs 10^54 = 5^54 * 2^54. */
static const u128 pow5[55] = {
	P5(0x0000000000000000, 0x0000000000000001),
	P5(0x0000000000000000, 0x0000000000000005),
	P5(0x0000000000000000, 0x0000000000000019),
	P5(0x0000000000000000, 0x000000000000007d),
	P5(0x0000000000000000, 0x0000000000000271),
	P5(0x0000000000000000, 0x0000000000000c35),
	P5(0x0000000000000000, 0x0000000000003d09),
	P5(0x0000000000000000, 0x000000000001312d),
	P5(0x0000000000000000, 0x000000000005f5e1),
	P5(0x0000000000000000, 0x00000000001dcd65),
	P5(0x0000000000000000, 0x00000000009502f9),
	P5(0x0000000000000000, 0x0000000002e90edd),
	P5(0x0000000000000000, 0x000000000e8d4a51),
	P5(0x0000000000000000, 0x0000000048c27395),
	P5(0x0000000000000000, 0x000000016bcc41e9),
	P5(0x0000000000000000, 0x000000071afd498d),
	P5(0x0000000000000000, 0x0000002386f26fc1),
	P5(0x0000000000000000, 0x000000b1a2bc2ec5),
	P5(0x0000000000000000, 0x000003782dace9d9),
	P5(0x0000000000000000, 0x00001158e460913d),
	P5(0x0000000000000000, 0x000056bc75e2d631),
	P5(0x0000000000000000, 0x0001b1ae4d6e2ef5),
	P5(0x0000000000000000, 0x000878678326eac9),
	P5(0x0000000000000000, 0x002a5a058fc295ed),
	P5(0x0000000000000000, 0x00d3c21bcecceda1),
	P5(0x0000000000000000, 0x0422ca8b0a00a425),
	P5(0x0000000000000000, 0x14adf4b7320334b9),
	P5(0x0000000000000000, 0x6765c793fa10079d),
	P5(0x0000000000000002, 0x04fce5e3e2502611),
	P5(0x000000000000000a, 0x18f07d736b90be55),
	P5(0x0000000000000032, 0x7cb2734119d3b7a9),
	P5(0x00000000000000fc, 0x6f7c40458122964d),
	P5(0x00000000000004ee, 0x2d6d415b85acef81),
	P5(0x00000000000018a6, 0xe32246c99c60ad85),
	P5(0x0000000000007b42, 0x6fab61f00de36399),
	P5(0x000000000002684c, 0x2e58e9b04570f1fd),
	P5(0x00000000000c097c, 0xe7bc90715b34b9f1),
	P5(0x00000000003c2f70, 0x86aed236c807a1b5),
	P5(0x00000000012ced32, 0xa16a1b11e8262889),
	P5(0x0000000005e0a1fd, 0x2712875988becaad),
	P5(0x000000001d6329f1, 0xc35ca4bfabb9f561),
	P5(0x0000000092efd1b8, 0xd0cf37be5aa1cae5),
	P5(0x00000002deaf189c, 0x140c16b7c528f679),
	P5(0x0000000e596b7b0c, 0x643c7196d9ccd05d),
	P5(0x00000047bf19673d, 0xf52e37f2410011d1),
	P5(0x00000166bb7f0435, 0xc9e717bb45005915),
	P5(0x00000701a97b150c, 0xf18376a85901bd69),
	P5(0x000023084f676940, 0xb7915149bd08b30d),
	P5(0x0000af298d050e43, 0x95d69670b12b7f41),
	P5(0x00036bcfc1194751, 0xed30f03375d97c45),
	P5(0x00111b0ec57e6499, 0xa1f4b1014d3f6d59),
	P5(0x00558749db77f700, 0x29c77506823d22bd),
	P5(0x01aba4714957d300, 0xd0e549208b31adb1),
	P5(0x085a36366eb71f04, 0x147a6da2b7f86475),
	P5(0x29c30f1029939b14, 0x6664242d97d9f649),
};

static const uint64_t pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* floor(m * 2^e * 10^t) and whether the cut-off part is nonzero, for m < 2^25 and a
 * result below 2^64 (callers stay below 10^11). t runs from -29 (FLT_MAX, X = 38) to
 * 54; a negative t comes only with numbers of 10^10 and more, where e >= -t. */
static uint64_t scaled_floor(uint64_t m, int e, int t, bool *sticky)
{
	if (t >= 0) {
		/* p = m * 5^t < 2^150, as hi * 2^64 + lo with hi < 2^87. */
		u128 a = (u128)m * (uint64_t)pow5[t];
		u128 hi = (u128)m * (uint64_t)(pow5[t] >> 64) + (a >> 64);
		uint64_t lo = (uint64_t)a;
		int s = -(e + t); /* then times 2^(e + t) */
		if (s <= 0) {
			*sticky = false;
			return (uint64_t)(((hi << 64) | lo) << -s);
		}
		if (s < 64) {
			*sticky = (lo & ((UINT64_C(1) << s) - 1)) != 0;
			return (uint64_t)((hi << (64 - s)) | (lo >> s));
		}
		s -= 64;
		if (s >= 128) {
			*sticky = hi || lo;
			return 0;
		}
		*sticky = lo || (hi & (((u128)1 << s) - 1));
		return (uint64_t)(hi >> s);
	}
	/* m * 2^e / 10^k = (m * 2^(e - k)) / 5^k; m * 2^e < 2^128 for every float and
	 * midpoint. */
	int k = -t;
	u128 n = (u128)m << (e - k), q = n / pow5[k];
	*sticky = n != q * pow5[k];
	return (uint64_t)q;
}

/* floor(b * log10(2)) for |b| < 1650 (78913 / 2^18 is log10(2) to 7 digits), rounded
 * down for negative b too. */
static int floor_log10_pow2(int b)
{
	return b >= 0 ? (int)(((uint32_t)b * 78913u) >> 18)
		      : -(int)((((uint32_t)-b * 78913u) + (1u << 18) - 1) >> 18);
}

/* A finite nonzero float's first ten digits: f = (t + cut) * 10^(x - 9), 0 <= cut < 1,
 * sticky = cut > 0, 10^9 <= t < 10^10. */
typedef struct dec {
	uint64_t t;
	int x;
	bool sticky;
} dec;

static dec decompose(uint64_t m, int e)
{
	dec d;
	/* f lies in [2^b, 2^(b+1)), so X is floor(b log10 2) or one more: T gets 10 or 11
	 * digits, and an 11th is folded into sticky. */
	int b = e + 63 - __builtin_clzll(m);
	d.x = floor_log10_pow2(b);
	d.t = scaled_floor(m, e, 9 - d.x, &d.sticky);
	if (d.t >= pow10[10]) {
		d.sticky |= d.t % 10 != 0;
		d.t /= 10;
		d.x++;
	}
	return d;
}

/* d rounded to p significant digits (1 to 9), ties to even; *x is d's exponent, one more
 * when the rounding carries into a new digit (9.99 -> 10.0). */
static uint64_t round_to(const dec *d, int p, int *x)
{
	uint64_t div = pow10[10 - p], q = d->t / div, r = d->t % div, half = div / 2;
	if (r > half || (r == half && (d->sticky || (q & 1))))
		q++;
	*x = d->x;
	if (q == pow10[p]) {
		q = pow10[p - 1];
		(*x)++;
	}
	return q;
}

/* Exactly n digits of v (leading zeros included), at p: two at a time from a table. */
static void put_digits(char *p, uint64_t v, int n)
{
	while (n >= 2) {
		n -= 2;
		memcpy(p + n, digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (n)
		p[0] = (char)('0' + v % 10);
}

/* "e+05", "e-45": at least two digits, as printf writes them. */
static char *put_exponent(char *p, int x)
{
	*p++ = 'e';
	*p++ = x < 0 ? '-' : '+';
	unsigned a = (unsigned)(x < 0 ? -x : x); /* at most 45 for a float */
	put_digits(p, a, 2);
	return p + 2;
}

/* "%.*g" of the prec-digit q * 10^(x - prec + 1), as C11 7.21.6.1 says: style e when
 * x < -4 or x >= prec, else style f with prec - 1 - x decimals; trailing zeros of the
 * fraction dropped, and the point with them. */
static size_t put_g(char *p, bool neg, uint64_t q, int x, int prec)
{
	char *s = p, dig[10];
	int n = prec;
	if (neg)
		*s++ = '-';
	while (n > 1 && q % 10 == 0) {
		q /= 10;
		n--;
	}
	put_digits(dig, q, n);
	if (x < -4 || x >= prec) {
		*s++ = dig[0];
		if (n > 1) {
			*s++ = '.';
			memcpy(s, dig + 1, (size_t)n - 1);
			s += n - 1;
		}
		s = put_exponent(s, x);
	} else if (x >= 0) {
		for (int i = 0; i <= x; i++)
			*s++ = i < n ? dig[i] : '0';
		if (n > x + 1) {
			*s++ = '.';
			memcpy(s, dig + x + 1, (size_t)(n - x - 1));
			s += n - x - 1;
		}
	} else {
		*s++ = '0';
		*s++ = '.';
		for (int i = -1; i > x; i--)
			*s++ = '0';
		memcpy(s, dig, (size_t)n);
		s += n;
	}
	return (size_t)(s - p);
}

/* The fields of a float's bits. */
typedef struct parts {
	bool neg;
	unsigned biased;   /* exponent field */
	uint32_t frac;     /* mantissa field */
	uint64_t m;        /* f = m * 2^e when finite */
	int e;
} parts;

static parts split(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	parts p = { .neg = u >> 31, .biased = (u >> 23) & 0xff, .frac = u & 0x7fffff };
	p.m = p.biased ? p.frac | 0x800000u : p.frac;
	p.e = (p.biased ? (int)p.biased : 1) - 150;
	return p;
}

/* "inf", "nan", "nan(0x000001)" with their sign (see fmt_num.h). */
static size_t put_special(char *p, const parts *x)
{
	char *s = p;
	if (x->neg)
		*s++ = '-';
	if (!x->frac) {
		memcpy(s, "inf", 3);
		return (size_t)(s + 3 - p);
	}
	memcpy(s, "nan", 3);
	s += 3;
	if (x->frac != 0x400000) {
		memcpy(s, "(0x", 3);
		s += 3;
		for (int i = 5; i >= 0; i--)
			*s++ = "0123456789abcdef"[(x->frac >> (4 * i)) & 0xf];
		*s++ = ')';
	}
	return (size_t)(s - p);
}

/* The precision of the shortest form of the finite nonzero x (digits d). */
static int shortest_precision(const parts *x, const dec *d)
{
	/* The rounding interval at T's scale: lo and hi are the midpoints' floors, with
	 * their sticky bits; below a power of two the lower neighbour is half as far. */
	int scale = 9 - d->x;
	bool lo_cut, hi_cut, even = !(x->m & 1);
	uint64_t lo = x->frac == 0 && x->biased > 1
			      ? scaled_floor(4 * x->m - 1, x->e - 2, scale, &lo_cut)
			      : scaled_floor(2 * x->m - 1, x->e - 1, scale, &lo_cut);
	uint64_t hi = scaled_floor(2 * x->m + 1, x->e - 1, scale, &hi_cut);
	int prec = 1, ex = d->x;
	for (; prec < 9; prec++) { /* 9 digits always read back */
		uint64_t q = round_to(d, prec, &ex);
		/* The candidate at T's scale: an integer below 10^11. Above lo: past lo's
		 * floor, or on it exactly; below hi: under hi's floor, or on it with hi
		 * cut off (then below hi itself) or exactly. */
		uint64_t v = q * pow10[10 - prec + (ex - d->x)];
		bool above = v > lo || (even && v == lo && !lo_cut);
		bool below = v < hi || (v == hi && (hi_cut || even));
		if (above && below)
			break;
	}
	if (prec == 9)
		round_to(d, prec, &ex);
	/* Style e with an exponent of 0 to 8 ("1.8e+02"): positional instead, with as many
	 * digits as the integer part has. */
	return ex >= prec && ex < 9 ? ex + 1 : prec;
}

/* "%.*g" of f; prec 0: the shortest form. */
static size_t fmt_g(char *dst, float f, int prec)
{
	parts x = split(f);
	if (x.biased == 0xff)
		return put_special(dst, &x);
	if (!x.m)
		return put_g(dst, x.neg, 0, 0, 1);
	dec d = decompose(x.m, x.e);
	if (!prec)
		prec = shortest_precision(&x, &d);
	int ex;
	uint64_t q = round_to(&d, prec, &ex);
	return put_g(dst, x.neg, q, ex, prec);
}

size_t nm_fmt_g(char *dst, float f, int prec) { return fmt_g(dst, f, prec); }
size_t nm_fmt_shortest(char *dst, float f) { return fmt_g(dst, f, 0); }

void nm_fmt_sci(char *dst, float f)
{
	parts x = split(f);
	if (x.biased == 0xff) {
		char word[NM_FMT_SHORTEST_MAX + 1];
		size_t n = put_special(word + 1, &x);
		char *w = word + 1;
		if (!x.frac && !x.neg) { /* "+inf" */
			*--w = '+';
			n++;
		}
		memset(dst, ' ', NM_FMT_SCI_WIDTH - n);
		memcpy(dst + NM_FMT_SCI_WIDTH - n, w, n);
		return;
	}
	dst[0] = x.neg ? '-' : '+';
	if (!x.m) {
		memcpy(dst + 1, "0.00000000e+00", 14);
		return;
	}
	dec d = decompose(x.m, x.e);
	int ex;
	uint64_t q = round_to(&d, 9, &ex);
	dst[1] = (char)('0' + q / 100000000);
	dst[2] = '.';
	put_digits(dst + 3, q % 100000000, 8);
	put_exponent(dst + 11, ex);
}

unsigned nm_fmt_digits(uint64_t v)
{
	unsigned n = 1;
	while (n < 20 && v >= pow10[n])
		n++;
	return n;
}

size_t nm_fmt_uint(char *dst, uint64_t v)
{
	unsigned n = nm_fmt_digits(v);
	put_digits(dst, v, (int)n);
	return n;
}

size_t nm_fmt_uint_width(char *dst, uint64_t v, unsigned width)
{
	unsigned n = nm_fmt_digits(v), pad = width > n ? width - n : 0;
	memset(dst, ' ', pad);
	put_digits(dst + pad, v, (int)n);
	return pad + n;
}

size_t nm_fmt_int_width(char *dst, int64_t v, unsigned width)
{
	/* The magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64_t. */
	bool neg = v < 0;
	uint64_t a = neg ? 0 - (uint64_t)v : (uint64_t)v;
	unsigned n = nm_fmt_digits(a) + neg, pad = width > n ? width - n : 0;
	memset(dst, ' ', pad);
	if (neg)
		dst[pad] = '-';
	put_digits(dst + pad + neg, a, (int)(n - neg));
	return pad + n;
}
