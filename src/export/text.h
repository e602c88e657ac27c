/* The text conventions every tree shares (DESIGN.md "The tree every mount shows"):
 *   key: value lines, lower_snake keys; enums as `NAME (0x2601)`; vectors space-separated;
 *   floats in their shortest form that reads back to the same float.
 * and the CSV conventions: a header row, then fixed-width numbers, so that a CSV's exact
 * size follows from its row count without decoding anything (st_size before read). */
#ifndef NM_TEXT_H
#define NM_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "export/fmt_num.h"
#include "lib/out.h"

/* Shortest decimal that strtof reads back to exactly f ("0.1", "1e+30", "-inf"); a NaN
 * keeps its sign and payload: "nan", "-nan", "nan(0x400001)" (nm_fmt_shortest in
 * fmt_num.h, with a NUL). buf must hold NM_FLOAT_BUF bytes; returns buf. */
#define NM_FLOAT_BUF 32
const char *nm_fmt_float(char *buf, float f);

/* The inverse of nm_fmt_float's non-finite words: "inf", "nan", "nan(0xM)" with an
 * optional '-' (the whole of s) into *f, bit for bit: a signalling NaN stays signalling
 * (strtof would make it quiet). false for anything else (a finite number too). */
bool nm_parse_nonfinite(const char *s, float *f);

/* A float from the whole of s when s is that float's own value, in any spelling ("1",
 * "1.0", "1e0"; the words above bit for bit): NM_FLOAT_EXACT. A decimal between two
 * floats is NM_FLOAT_BETWEEN with *f the nearest (storing it would round it); anything
 * else NM_FLOAT_NOT_A_NUMBER. What apply's inverses take for an f32. */
typedef enum nm_float_parse { NM_FLOAT_EXACT, NM_FLOAT_BETWEEN, NM_FLOAT_NOT_A_NUMBER }
	nm_float_parse;
nm_float_parse nm_parse_float_exact(const char *s, float *f);

void nm_kv(nm_out *o, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void nm_kvv(nm_out *o, const char *key, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void nm_kv_float(nm_out *o, const char *key, float f);
void nm_kv_floats(nm_out *o, const char *key, const float *f, size_t n);
/* `key: NAME (0xVALUE)`; name NULL prints `unknown (0x..)`. */
void nm_kv_enum(nm_out *o, const char *key, const char *name, uint32_t value);
void nm_kv_str(nm_out *o, const char *key, const char *s); /* value escaped to one line */
/* Shortest float as a bare token (for text that is not key: value). */
void nm_out_float(nm_out *o, float f);
/* What "%" PRId64, "%" PRIu64 and "%0*" PRIx64 (lower case, at least `digits` of them) write, without
 * printf: record text is most of what a model's tree formats at mount. */
void nm_out_int(nm_out *o, int64_t v);
void nm_out_uint(nm_out *o, uint64_t v);
void nm_out_hex(nm_out *o, uint64_t v, unsigned digits);

/* CSV: every float takes NM_CSV_FLOAT_WIDTH bytes ("+1.00000000e+00": 9 significant
 * digits, enough to round-trip a float); non-finite values are right-aligned words
 * ("+inf", and NaNs as nm_fmt_float spells them, bits and all). */
#define NM_CSV_FLOAT_WIDTH NM_FMT_SCI_WIDTH
void nm_csv_float(nm_out *o, float f);
/* Unsigned/signed integers right-aligned in width bytes (space-padded). */
void nm_csv_uint(nm_out *o, uint64_t v, unsigned width);
void nm_csv_int(nm_out *o, int64_t v, unsigned width);
/* Decimal digits of v (1 for 0). */
unsigned nm_digits(uint64_t v);

/* Write a CSV header row from column names joined by ','; returns its byte length. */
size_t nm_csv_header(nm_out *o, const char *const *names, size_t n);
size_t nm_csv_header_len(const char *const *names, size_t n);

#endif
