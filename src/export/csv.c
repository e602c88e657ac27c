#include <stdio.h>
#include <string.h>
#include "export/csv.h"
#include "export/fmt_num.h"
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

void nm_csv_reader_init(nm_csv_reader *r, const void *text, size_t len)
{
	r->p = text;
	r->end = r->p + len;
	r->line = 0;
}

bool nm_csv_next_line(nm_csv_reader *r, const char **row, size_t *len)
{
	if (r->p >= r->end)
		return false;
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	const char *e = nl ? nl : r->end;
	*row = r->p;
	*len = (size_t)(e - r->p);
	r->p = nl ? nl + 1 : r->end;
	r->line++;
	return true;
}

unsigned nm_csv_cells(const char *row, size_t len)
{
	unsigned n = 1;
	for (size_t i = 0; i < len; i++)
		n += row[i] == ',';
	return n;
}

bool nm_csv_cell_text(const char *row, size_t len, unsigned k, char *buf, size_t size)
{
	const char *p = row, *end = row + len;
	for (unsigned i = 0; i < k; i++) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		if (!comma)
			return false;
		p = comma + 1;
	}
	const char *comma = memchr(p, ',', (size_t)(end - p));
	const char *e = comma ? comma : end;
	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	size_t n = (size_t)(e - p) < size - 1 ? (size_t)(e - p) : size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return true;
}
