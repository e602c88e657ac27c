/* What fmt_num replaces, kept as the reference: the writers' float formatting as it was
 * done with glibc's printf and strtof. tests/test_fmt.c compares fmt_num with these byte
 * for byte; src/tools/bench_codec times both in the same run. */
#ifndef NM_TEST_FMT_PRINTF_H
#define NM_TEST_FMT_PRINTF_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NM_PRINTF_BUF 32

/* A NaN's sign and mantissa bits: "nan", "-nan", "nan(0x400001)". */
static inline void nm_printf_nan(char *buf, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	const char *sign = u >> 31 ? "-" : "";
	uint32_t mantissa = u & 0x7FFFFF;
	if (mantissa == 0x400000)
		snprintf(buf, NM_PRINTF_BUF, "%snan", sign);
	else
		snprintf(buf, NM_PRINTF_BUF, "%snan(0x%06x)", sign, (unsigned)mantissa);
}

/* The first "%.*g" that strtof reads back to f, then positional for exponents 0 to 8;
 * *digits gets the precision it stopped at (0 for inf and NaN). */
static inline void nm_printf_shortest(char *buf, float f, int *digits)
{
	*digits = 0;
	if (isnan(f)) {
		nm_printf_nan(buf, f);
		return;
	}
	if (isinf(f)) {
		strcpy(buf, f < 0 ? "-inf" : "inf");
		return;
	}
	for (int prec = 1; prec <= 9; prec++) {
		snprintf(buf, NM_PRINTF_BUF, "%.*g", prec, (double)f);
		*digits = prec;
		if (strtof(buf, NULL) == f)
			break;
	}
	const char *e = strchr(buf, 'e');
	if (e && atoi(e + 1) >= 0 && atoi(e + 1) < 9)
		snprintf(buf, NM_PRINTF_BUF, "%.*g", atoi(e + 1) + 1, (double)f);
	if (strcmp(buf, "-0") == 0 && !signbit(f))
		strcpy(buf, "0");
}

/* CSV and OBJ: "%+.8e"; non-finite values right-aligned in its 15 bytes. */
static inline void nm_printf_sci(char *buf, float f)
{
	char nan[NM_PRINTF_BUF];
	if (isfinite(f)) {
		snprintf(buf, NM_PRINTF_BUF, "%+.8e", (double)f);
		return;
	}
	if (isnan(f))
		nm_printf_nan(nan, f);
	snprintf(buf, NM_PRINTF_BUF, "%*s", 15, isnan(f) ? nan : f < 0 ? "-inf" : "+inf");
}

#endif
