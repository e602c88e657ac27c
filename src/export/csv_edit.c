/* Reading an edited CSV back, cell by cell (csv_edit.h). */
#include <string.h>
#include "export/csv_edit.h"

struct lines {
	const char *p, *end;
	unsigned line;
};

static bool next(struct lines *l, const char **s, size_t *len)
{
	if (l->p >= l->end)
		return false;
	const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*s = l->p;
	*len = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
	l->p += *len + (nl != NULL);
	l->line++;
	return true;
}

/* Cell k of a row, spaces trimmed, into buf[64]. */
static void cell_text(const char *row, size_t len, unsigned k, char *buf)
{
	const char *p = row, *end = row + len;
	for (unsigned i = 0; i < k && p; i++)
		if ((p = memchr(p, ',', (size_t)(end - p))))
			p++;
	if (!p) {
		buf[0] = '\0';
		return;
	}
	const char *comma = memchr(p, ',', (size_t)(end - p));
	const char *e = comma ? comma : end;
	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	size_t n = (size_t)(e - p) < 63 ? (size_t)(e - p) : 63;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

static unsigned count_cells(const char *row, size_t len)
{
	unsigned n = 1;
	for (size_t i = 0; i < len; i++)
		n += row[i] == ',';
	return n;
}

void nm_csv_read_back(const nm_csv_edit *e, const char *now, size_t now_len,
		      const char *edited, size_t len, nm_edit *ed)
{
	struct lines was = { now, now + now_len, 0 }, is = { edited, edited + len, 0 };
	const char *ws, *s;
	size_t wl, l;
	if (!next(&was, &ws, &wl) || !next(&is, &s, &l) || wl != l || memcmp(ws, s, l) != 0) {
		nm_edit_refuse(ed, 1, NULL, "the header row changed: the columns are the "
			       "array's components and cannot change");
		return;
	}
	for (uint64_t r = 0; r < e->rows; r++) {
		if (!next(&was, &ws, &wl))
			return;
		if (!next(&is, &s, &l)) {
			nm_edit_refuse(ed, is.line + 1, NULL, "the file ends after %llu rows where "
				       "%s %llu: rows cannot be added or removed (a layout change)",
				       (unsigned long long)r, e->what, (unsigned long long)e->rows);
			return;
		}
		if (wl == l && memcmp(ws, s, l) == 0)
			continue;
		if (count_cells(s, l) != e->ncols) {
			nm_edit_refuse(ed, is.line, NULL, "%u values where a row has %u",
				       count_cells(s, l), e->ncols);
			continue;
		}
		for (unsigned c = 0; c < e->ncols; c++) {
			char old[64], text[64];
			cell_text(ws, wl, c, old);
			cell_text(s, l, c, text);
			if (strcmp(old, text) != 0)
				e->cell(e->ctx, r, c, text, is.line, ed);
		}
		if (e->row_done)
			e->row_done(e->ctx, r, is.line, ed);
	}
	while (next(&is, &s, &l))
		if (l) {
			nm_edit_refuse(ed, is.line, NULL, "a row past the %llu rows %s: rows cannot "
				       "be added (a layout change)", (unsigned long long)e->rows,
				       e->what);
			return;
		}
}
