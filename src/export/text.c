#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"

/* A NaN with its sign and its 23 mantissa bits: "nan" / "-nan" for the default quiet
 * NaN (what strtof makes of them), otherwise "nan(0x400001)", the C99 form whose digits
 * glibc's strtof puts back into the mantissa, so every quiet NaN reads back bit for
 * bit. A signalling NaN (bit 22 clear) comes back quiet from strtof, which always
 * sets that bit, but the text still holds every bit for a reader that rebuilds them.
 * Printing the float itself would not do: printf shows every NaN as "nan". */
static const char *fmt_nan(char *buf, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	const char *sign = u >> 31 ? "-" : "";
	uint32_t mantissa = u & 0x7FFFFF;
	if (mantissa == 0x400000)
		snprintf(buf, NM_FLOAT_BUF, "%snan", sign);
	else
		snprintf(buf, NM_FLOAT_BUF, "%snan(0x%06x)", sign, (unsigned)mantissa);
	return buf;
}

const char *nm_fmt_float(char *buf, float f)
{
	if (isnan(f))
		return fmt_nan(buf, f);
	if (isinf(f))
		return strcpy(buf, f < 0 ? "-inf" : "inf");
	/* 9 significant digits always round-trip a float; fewer usually do. */
	for (int prec = 1; prec <= 9; prec++) {
		snprintf(buf, NM_FLOAT_BUF, "%.*g", prec, (double)f);
		if (strtof(buf, NULL) == f)
			break;
	}
	/* %g switches to an exponent once the exponent reaches the precision: 180 comes
	 * out as "1.8e+02". Below 1e9 print such numbers positionally ("180"): shorter or
	 * as short, and what a reader expects. More digits still read back the same. */
	const char *e = strchr(buf, 'e');
	if (e && atoi(e + 1) >= 0 && atoi(e + 1) < 9)
		snprintf(buf, NM_FLOAT_BUF, "%.*g", atoi(e + 1) + 1, (double)f);
	if (strcmp(buf, "-0") == 0 && !signbit(f))
		strcpy(buf, "0");
	return buf;
}

void nm_out_float(nm_out *o, float f)
{
	char b[NM_FLOAT_BUF];
	nm_out_str(o, nm_fmt_float(b, f));
}

void nm_kv(nm_out *o, const char *key, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	nm_out_printf(o, "%s: %s\n", key, small);
}

void nm_kv_float(nm_out *o, const char *key, float f) { nm_kv_floats(o, key, &f, 1); }

void nm_kv_floats(nm_out *o, const char *key, const float *f, size_t n)
{
	nm_out_str(o, key);
	nm_out_str(o, ":");
	for (size_t i = 0; i < n; i++) {
		nm_out_char(o, ' ');
		nm_out_float(o, f[i]);
	}
	nm_out_char(o, '\n');
}

void nm_kv_enum(nm_out *o, const char *key, const char *name, uint32_t value)
{
	nm_out_printf(o, "%s: %s (0x%x)\n", key, name ? name : "unknown", (unsigned)value);
}

void nm_kv_str(nm_out *o, const char *key, const char *s)
{
	nm_out_str(o, key);
	nm_out_str(o, ": ");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			nm_out_str(o, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			nm_out_printf(o, "\\x%02x", c);
		else
			nm_out_char(o, (char)c);
	}
	nm_out_char(o, '\n');
}

void nm_csv_float(nm_out *o, float f)
{
	char b[32], nan[NM_FLOAT_BUF];
	if (isfinite(f))
		snprintf(b, sizeof b, "%+.8e", (double)f);
	else /* at most "-nan(0x7fffff)", 14 bytes */
		snprintf(b, sizeof b, "%*s", NM_CSV_FLOAT_WIDTH,
			 isnan(f) ? fmt_nan(nan, f) : f < 0 ? "-inf" : "+inf");
	nm_out_write(o, b, NM_CSV_FLOAT_WIDTH);
}

void nm_csv_uint(nm_out *o, uint64_t v, unsigned width)
{
	nm_out_printf(o, "%*llu", (int)width, (unsigned long long)v);
}

void nm_csv_int(nm_out *o, int64_t v, unsigned width)
{
	nm_out_printf(o, "%*lld", (int)width, (long long)v);
}

unsigned nm_digits(uint64_t v)
{
	unsigned n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

size_t nm_csv_header_len(const char *const *names, size_t n)
{
	size_t len = 1; /* newline */
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + (i ? 1 : 0);
	return len;
}

size_t nm_csv_header(nm_out *o, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			nm_out_char(o, ',');
		nm_out_str(o, names[i]);
	}
	nm_out_char(o, '\n');
	return nm_csv_header_len(names, n);
}
