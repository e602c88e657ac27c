/* Writing part of a fixed-layout file: the bytes [off, end) of a file made of sections
 * (text of known length, runs of lines of one width) whose offsets follow from counts.
 * A writer walks every section in order: the ones before or after the range are
 * counted, not written; of a run of lines only those reaching into the range are
 * written, whole; nm_span_cut then drops what the first and last lines written have
 * outside it. Used by every producer by ranges (tree.h: nm_tree_range_producer):
 * mesh.obj (obj.c) and CSVs (csv.h: nm_csv_range). */
#ifndef NM_EXPORT_SPAN_H
#define NM_EXPORT_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

typedef struct nm_span {
	uint64_t pos;             /* where the next section starts in the file */
	uint64_t off, end;
	uint64_t first;           /* where the first line written starts */
	bool started;
	size_t base;              /* the out's length when the span began */
} nm_span;

/* The range [off, off+len) of a file written to o (at its end). */
static inline nm_span nm_span_begin(const nm_out *o, uint64_t off, size_t len)
{
	return (nm_span){ .off = off, .end = off + len, .base = o->len };
}

/* Whether the next section, n bytes, reaches into the range (write it whole then);
 * counts it as passed. */
bool nm_span_text(nm_span *s, uint64_t n);
/* Of the next count lines of w bytes each, those reaching into the range: [*k0, *k1);
 * counts them as passed. */
void nm_span_lines(nm_span *s, uint64_t w, uint64_t count, uint64_t *k0, uint64_t *k1);
/* Whether the range is passed (nothing after pos is written). */
static inline bool nm_span_done(const nm_span *s) { return s->pos >= s->end; }
/* Leave exactly the range's bytes in o; file names the output in an internal error
 * (fewer bytes written than the range: the sections did not add up). */
nm_status nm_span_cut(nm_span *s, nm_out *o, const char *file, nm_error *err);

#endif
