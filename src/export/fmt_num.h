/* Numbers as text without printf: the hot path of every CSV, OBJ and text file.
 *
 * Each function writes exactly what the printf format named beside it writes with glibc
 * (tests/test_fmt.c compares them byte for byte), at a fraction of the cost: glibc turns
 * every float into a multi-precision number first. No NUL is written; the return value is
 * the length. */
#ifndef NM_FMT_NUM_H
#define NM_FMT_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Longest nm_fmt_shortest text ("-1.17549435e-38", "-0.000123456789", "-nan(0x7fffff)"). */
#define NM_FMT_SHORTEST_MAX 15
/* Every nm_fmt_sci text ("+1.00000000e+00"). */
#define NM_FMT_SCI_WIDTH 15
/* Longest nm_fmt_uint text (UINT64_MAX). */
#define NM_FMT_UINT_MAX 20

/* The shortest "%.*g" (precision 1 to 9) of (double)f that strtof reads back to f; a
 * result in exponent form whose exponent is 0 to 8 is written positionally ("180", not
 * "1.8e+02"). -0 is "-0". Non-finite: "inf", "-inf"; a NaN keeps its sign and payload:
 * "nan" / "-nan" for the default quiet NaN, else "nan(0x400001)", the C99 form whose
 * digits glibc's strtof puts back into the mantissa. */
size_t nm_fmt_shortest(char *dst, float f);

/* "%.*g" of (double)f, prec 1 to 9, for finite f (the building block of nm_fmt_shortest;
 * for tests). */
size_t nm_fmt_g(char *dst, float f, int prec);

/* "%+.8e" of (double)f: always NM_FMT_SCI_WIDTH bytes. Non-finite values are words
 * right-aligned in that width: "+inf", "-inf", NaNs as nm_fmt_shortest spells them. */
void nm_fmt_sci(char *dst, float f);

/* "%llu"; and "%*llu" / "%*lld", which write max(width, digits) bytes. */
size_t nm_fmt_uint(char *dst, uint64_t v);
size_t nm_fmt_uint_width(char *dst, uint64_t v, unsigned width);
size_t nm_fmt_int_width(char *dst, int64_t v, unsigned width);
/* Decimal digits of v (1 for 0). */
unsigned nm_fmt_digits(uint64_t v);

#endif
