#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/fmt_num.h"
#include "export/text.h"

/* Every float and integer below goes through fmt_num, which writes what printf wrote
 * (shortest "%.*g", "%+.8e", "%*llu") many times faster, straight into the output
 * buffer (nm_out_begin / nm_out_commit) rather than through a copy. */

const char *nm_fmt_float(char *buf, float f)
{
	buf[nm_fmt_shortest(buf, f)] = '\0';
	return buf;
}

bool nm_parse_nonfinite(const char *s, float *f)
{
	uint32_t sign = 0, bits;
	if (*s == '-') {
		sign = 0x80000000u;
		s++;
	}
	if (strcmp(s, "inf") == 0) {
		bits = 0x7f800000u;
	} else if (strcmp(s, "nan") == 0) {
		bits = 0x7fc00000u;
	} else if (strncmp(s, "nan(0x", 6) == 0 && s[6] != ')') {
		uint32_t m = 0;
		for (s += 6; *s != ')'; s++) {
			int h = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
				: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
			if (h < 0 || (m = m * 16 + (uint32_t)h) > 0x7fffff)
				return false;
		}
		if (m == 0 || s[1] != '\0')
			return false; /* 0 would be inf */
		bits = 0x7f800000u | m;
	} else {
		return false;
	}
	bits |= sign;
	memcpy(f, &bits, 4);
	return true;
}

nm_float_parse nm_parse_float_exact(const char *s, float *f)
{
	if (nm_parse_nonfinite(s, f))
		return NM_FLOAT_EXACT;
	char *end;
	*f = strtof(s, &end);
	if (*end || end == s)
		return NM_FLOAT_NOT_A_NUMBER;
	char back[NM_FLOAT_BUF];
	nm_fmt_float(back, *f);
	bool same = *f != *f ? strcmp(back, s) == 0 : strtod(s, NULL) == strtod(back, NULL);
	return same ? NM_FLOAT_EXACT : NM_FLOAT_BETWEEN;
}

void nm_out_float(nm_out *o, float f)
{
	char s[NM_FMT_SHORTEST_MAX];
	char *p = nm_out_begin(o, sizeof s, s);
	nm_out_commit(o, p, nm_fmt_shortest(p, f));
}

/* The longest value nm_kv writes (a longer one is cut, as it always was). */
#define NM_KV_VALUE_MAX 511

void nm_out_int(nm_out *o, int64_t v)
{
	char s[NM_FMT_UINT_MAX];
	char *p = nm_out_begin(o, sizeof s, s);
	nm_out_commit(o, p, nm_fmt_int_width(p, v, 0));
}

void nm_out_uint(nm_out *o, uint64_t v)
{
	char s[NM_FMT_UINT_MAX];
	char *p = nm_out_begin(o, sizeof s, s);
	nm_out_commit(o, p, nm_fmt_uint(p, v));
}

void nm_out_hex(nm_out *o, uint64_t v, unsigned digits)
{
	char s[16];
	unsigned n = 0;
	do {
		s[sizeof s - ++n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	for (; n < digits; digits--)
		nm_out_char(o, '0');
	nm_out_write(o, s + sizeof s - n, n);
}

/* The value of the formats most records use, written without printf; false for any
 * other format (ap untouched). */
static bool kv_plain(nm_out *o, const char *fmt, va_list ap)
{
	if (strcmp(fmt, "%u") == 0) {
		nm_out_uint(o, va_arg(ap, unsigned));
	} else if (strcmp(fmt, "0x%x") == 0) {
		nm_out_str(o, "0x");
		nm_out_hex(o, va_arg(ap, unsigned), 1);
	} else if (strcmp(fmt, "%zu") == 0) {
		nm_out_uint(o, va_arg(ap, size_t));
	} else if (strcmp(fmt, "%llu") == 0) {
		nm_out_uint(o, va_arg(ap, unsigned long long));
	} else if (strcmp(fmt, "0x%llx") == 0) {
		nm_out_str(o, "0x");
		nm_out_hex(o, va_arg(ap, unsigned long long), 1);
	} else if (strcmp(fmt, "%d") == 0) {
		nm_out_int(o, va_arg(ap, int));
	} else if (strcmp(fmt, "%s") == 0) {
		const char *v = va_arg(ap, const char *);
		v = v ? v : "(null)"; /* glibc's spelling */
		nm_out_write(o, v, strnlen(v, NM_KV_VALUE_MAX)); /* as vsnprintf cut it */
	} else {
		return false;
	}
	return true;
}

void nm_kvv(nm_out *o, const char *key, const char *fmt, va_list ap)
{
	nm_out_str(o, key);
	nm_out_str(o, ": ");
	char small[NM_KV_VALUE_MAX + 1];
	if (!kv_plain(o, fmt, ap)) {
		vsnprintf(small, sizeof small, fmt, ap);
		nm_out_str(o, small);
	}
	nm_out_char(o, '\n');
}

void nm_kv(nm_out *o, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_kvv(o, key, fmt, ap);
	va_end(ap);
}

void nm_kv_float(nm_out *o, const char *key, float f) { nm_kv_floats(o, key, &f, 1); }

void nm_kv_floats(nm_out *o, const char *key, const float *f, size_t n)
{
	nm_out_str(o, key);
	nm_out_char(o, ':');
	for (size_t i = 0; i < n; i++) {
		char s[1 + NM_FMT_SHORTEST_MAX];
		char *p = nm_out_begin(o, sizeof s, s);
		p[0] = ' ';
		nm_out_commit(o, p, 1 + nm_fmt_shortest(p + 1, f[i]));
	}
	nm_out_char(o, '\n');
}

void nm_kv_enum(nm_out *o, const char *key, const char *name, uint32_t value)
{
	nm_out_str(o, key);
	nm_out_str(o, ": ");
	nm_out_str(o, name ? name : "unknown");
	nm_out_str(o, " (0x");
	nm_out_hex(o, value, 1);
	nm_out_str(o, ")\n");
}

void nm_kv_str(nm_out *o, const char *key, const char *s)
{
	nm_out_str(o, key);
	nm_out_str(o, ": ");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			nm_out_str(o, "\\\\");
		else if (c < 0x20 || c == 0x7f) {
			nm_out_str(o, "\\x");
			nm_out_hex(o, c, 2);
		}
		else
			nm_out_char(o, (char)c);
	}
	nm_out_char(o, '\n');
}

void nm_csv_float(nm_out *o, float f)
{
	char s[NM_CSV_FLOAT_WIDTH];
	char *p = nm_out_begin(o, sizeof s, s);
	nm_fmt_sci(p, f);
	nm_out_commit(o, p, NM_CSV_FLOAT_WIDTH);
}

/* A column wider than any number (20 bytes): its extra padding first. */
static unsigned pad_wide(nm_out *o, unsigned width)
{
	for (; width > NM_FMT_UINT_MAX; width--)
		nm_out_char(o, ' ');
	return width;
}

void nm_csv_uint(nm_out *o, uint64_t v, unsigned width)
{
	char s[NM_FMT_UINT_MAX];
	width = pad_wide(o, width);
	char *p = nm_out_begin(o, sizeof s, s);
	nm_out_commit(o, p, nm_fmt_uint_width(p, v, width));
}

void nm_csv_int(nm_out *o, int64_t v, unsigned width)
{
	char s[NM_FMT_UINT_MAX]; /* INT64_MIN: 19 digits and '-' */
	width = pad_wide(o, width);
	char *p = nm_out_begin(o, sizeof s, s);
	nm_out_commit(o, p, nm_fmt_int_width(p, v, width));
}

unsigned nm_digits(uint64_t v) { return nm_fmt_digits(v); }

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
