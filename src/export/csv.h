/* A CSV described once by its columns. Every column has a fixed width (floats
 * NM_CSV_FLOAT_WIDTH, integers the width given), so one description yields both the
 * exact size a node announces at mount (nm_csv_size) and the bytes its producer writes
 * on read (nm_csv_begin, then one nm_csv_* call per cell). Before it, each CSV had a
 * hand-written size function that had to agree with its writer. */
#ifndef NM_EXPORT_CSV_H
#define NM_EXPORT_CSV_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

#define NM_CSV_MAX_COLS 128   /* J3D triangles: packet + 3 corners x 32 attributes */
#define NM_CSV_NAME_MAX 32

typedef enum nm_csv_kind { NM_CSV_FLOAT, NM_CSV_UINT, NM_CSV_INT } nm_csv_kind;

typedef struct nm_csv_col {
	char name[NM_CSV_NAME_MAX];
	nm_csv_kind kind;
	unsigned width;         /* bytes of every value */
} nm_csv_col;

typedef struct nm_csv {
	nm_csv_col col[NM_CSV_MAX_COLS];
	size_t ncols;
} nm_csv;

/* Add a column (width ignored for floats); past NM_CSV_MAX_COLS it is dropped. */
void nm_csv_col_add(nm_csv *c, const char *name, nm_csv_kind kind, unsigned width);
void nm_csv_floats(nm_csv *c, const char *const *names, size_t n);
/* Bytes of one row: the values, a ',' between them and '\n' (a row of no columns is
 * an empty line). */
uint64_t nm_csv_row_size(const nm_csv *c);
/* Header row plus rows rows. */
uint64_t nm_csv_size(const nm_csv *c, uint64_t rows);
/* The header row. */
void nm_csv_begin(nm_out *o, const nm_csv *c);
/* Cell k of the current row, then its separator (',' or, after the last, '\n'). */
void nm_csv_cell_float(nm_out *o, const nm_csv *c, size_t k, float f);
void nm_csv_cell_uint(nm_out *o, const nm_csv *c, size_t k, uint64_t v);
void nm_csv_cell_int(nm_out *o, const nm_csv *c, size_t k, int64_t v);
/* A row with no columns: its '\n'. */
void nm_csv_empty_row(nm_out *o);

/* Writes row r of a CSV (its cells, with nm_csv_cell_* or by hand, the same bytes). */
typedef void (*nm_csv_row_fn)(nm_out *o, void *ctx, uint64_t r);
/* Bytes [off, off+len) of the CSV of c with rows rows (the whole file: 0 and its
 * nm_csv_size): the header when the range reaches it, then only the rows that reach
 * into it (every row has nm_csv_row_size bytes). file names it in an internal error. */
nm_status nm_csv_write_range(nm_out *o, const nm_csv *c, uint64_t rows, uint64_t off,
			     size_t len, nm_csv_row_fn row, void *ctx, const char *file,
			     nm_error *err);

#endif
