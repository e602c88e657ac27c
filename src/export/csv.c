#include <stdio.h>
#include <string.h>
#include "export/csv.h"
#include "export/fmt_num.h"
#include "export/span.h"
#include "export/text.h"

void nm_csv_col_add(nm_csv *c, const char *name, nm_csv_kind kind, unsigned width)
{
	if (c->ncols == NM_CSV_MAX_COLS)
		return;
	nm_csv_col *col = &c->col[c->ncols++];
	snprintf(col->name, sizeof col->name, "%s", name);
	col->kind = kind;
	col->width = kind == NM_CSV_FLOAT ? NM_CSV_FLOAT_WIDTH : width;
}

void nm_csv_floats(nm_csv *c, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		nm_csv_col_add(c, names[i], NM_CSV_FLOAT, 0);
}

uint64_t nm_csv_row_size(const nm_csv *c)
{
	uint64_t n = 0;
	for (size_t k = 0; k < c->ncols; k++)
		n += c->col[k].width + 1;
	return n ? n : 1;
}

uint64_t nm_csv_size(const nm_csv *c, uint64_t rows)
{
	uint64_t header = 1;
	for (size_t k = 0; k < c->ncols; k++)
		header += strlen(c->col[k].name) + (k ? 1 : 0);
	return header + rows * nm_csv_row_size(c);
}

void nm_csv_begin(nm_out *o, const nm_csv *c)
{
	for (size_t k = 0; k < c->ncols; k++) {
		if (k)
			nm_out_char(o, ',');
		nm_out_str(o, c->col[k].name);
	}
	nm_out_char(o, '\n');
}

static void separator(nm_out *o, const nm_csv *c, size_t k)
{
	nm_out_char(o, k + 1 >= c->ncols ? '\n' : ',');
}

void nm_csv_cell_float(nm_out *o, const nm_csv *c, size_t k, float f)
{
	/* The hot cell: number and separator written in one piece. */
	char s[NM_CSV_FLOAT_WIDTH + 1];
	char *p = nm_out_begin(o, sizeof s, s);
	nm_fmt_sci(p, f);
	p[NM_CSV_FLOAT_WIDTH] = k + 1 >= c->ncols ? '\n' : ',';
	nm_out_commit(o, p, sizeof s);
}

void nm_csv_cell_uint(nm_out *o, const nm_csv *c, size_t k, uint64_t v)
{
	nm_csv_uint(o, v, c->col[k].width);
	separator(o, c, k);
}

void nm_csv_cell_int(nm_out *o, const nm_csv *c, size_t k, int64_t v)
{
	nm_csv_int(o, v, c->col[k].width);
	separator(o, c, k);
}

void nm_csv_empty_row(nm_out *o)
{
	nm_out_char(o, '\n');
}

nm_status nm_csv_write_range(nm_out *o, const nm_csv *c, uint64_t rows, uint64_t off,
			     size_t len, nm_csv_row_fn row, void *ctx, const char *file,
			     nm_error *err)
{
	nm_span sp = nm_span_begin(o, off, len);
	uint64_t w = nm_csv_row_size(c), k0, k1;
	if (nm_span_text(&sp, nm_csv_size(c, 0)))
		nm_csv_begin(o, c);
	nm_span_lines(&sp, w, rows, &k0, &k1);
	for (uint64_t k = k0; k < k1 && !o->failed; k++)
		row(o, ctx, k);
	return nm_span_cut(&sp, o, file, err);
}
