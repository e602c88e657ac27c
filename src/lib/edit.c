/* The collector inverses report to (lib/edit.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/edit.h"

void nm_edit_init(nm_edit *ed)
{
	memset(ed, 0, sizeof *ed);
}

void nm_edit_free(nm_edit *ed)
{
	for (size_t i = 0; i < ed->npatches; i++) {
		free(ed->patches[i].bytes);
		free(ed->patches[i].field);
		free(ed->patches[i].chunk);
	}
	for (size_t i = 0; i < ed->nrefusals; i++) {
		free(ed->refusals[i].field);
		free(ed->refusals[i].why);
	}
	for (size_t i = 0; i < ed->nnotes; i++)
		free(ed->notes[i].text);
	free(ed->patches);
	free(ed->refusals);
	free(ed->notes);
	nm_edit_init(ed);
}

/* Room for one more of elem bytes in *a (doubling). */
static bool grow(void **a, size_t n, size_t *cap, size_t elem)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 16;
	void *p = c > *cap && c <= SIZE_MAX / elem ? realloc(*a, c * elem) : NULL;
	if (!p)
		return false;
	*a = p;
	*cap = c;
	return true;
}

static char *dup_or_null(const char *s, bool *ok)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*ok = false;
	return d;
}

static void add_patch(nm_edit *ed, nm_reader *r, uint64_t off, uint64_t old_len,
		      const void *bytes, size_t len, const char *chunk, unsigned line,
		      const char *field, bool derived)
{
	if (!grow((void **)&ed->patches, ed->npatches, &ed->cappatches, sizeof *ed->patches)) {
		ed->nomem = true;
		return;
	}
	bool ok = true;
	nm_patch p = { .r = r, .off = off, .old_len = old_len, .len = len, .line = line,
		       .file = ed->file, .derived = derived };
	p.bytes = malloc(len ? len : 1);
	ok = p.bytes != NULL;
	if (p.bytes && len)
		memcpy(p.bytes, bytes, len);
	p.field = dup_or_null(field, &ok);
	p.chunk = dup_or_null(chunk, &ok);
	if (!ok) {
		free(p.bytes);
		free(p.field);
		free(p.chunk);
		ed->nomem = true;
		return;
	}
	ed->patches[ed->npatches++] = p;
}

void nm_edit_patch(nm_edit *ed, nm_reader *r, uint64_t off, const void *bytes, size_t len,
		   const char *chunk, unsigned line, const char *field)
{
	add_patch(ed, r, off, len, bytes, len, chunk, line, field, false);
}

void nm_edit_patch_derived(nm_edit *ed, nm_reader *r, uint64_t off, const void *bytes,
			   size_t len, const char *chunk, unsigned line, const char *field)
{
	add_patch(ed, r, off, len, bytes, len, chunk, line, field, true);
}

static int by_reader_offset(const void *x, const void *y)
{
	const nm_patch *a = *(nm_patch *const *)x, *b = *(nm_patch *const *)y;
	if (a->r != b->r)
		return (uintptr_t)a->r < (uintptr_t)b->r ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

size_t nm_patches_supersede(nm_patch **p, size_t n)
{
	qsort(p, n, sizeof *p, by_reader_offset);
	size_t marked = 0;
	/* A given patch that starts before a derived one: the furthest end of those seen in
	 * the same reader reaches into it. One that starts inside it: the scan forward. */
	uint64_t given_end = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || p[i]->r != p[i - 1]->r)
			given_end = 0;
		if (!p[i]->derived) {
			if (p[i]->off + p[i]->old_len > given_end)
				given_end = p[i]->off + p[i]->old_len;
			continue;
		}
		bool over = given_end > p[i]->off;
		for (size_t j = i + 1; !over && j < n && p[j]->r == p[i]->r &&
				       p[j]->off < p[i]->off + p[i]->len; j++)
			over = !p[j]->derived;
		if (over && !p[i]->superseded) {
			p[i]->superseded = true;
			marked++;
		}
	}
	return marked;
}

void nm_edit_replace(nm_edit *ed, nm_reader *r, const void *bytes, size_t len,
		     const char *chunk, const char *field)
{
	add_patch(ed, r, 0, nm_reader_size(r), bytes, len, chunk, 0, field, false);
}

void nm_edit_refuse(nm_edit *ed, unsigned line, const char *field, const char *fmt, ...)
{
	if (!grow((void **)&ed->refusals, ed->nrefusals, &ed->caprefusals,
		  sizeof *ed->refusals)) {
		ed->nomem = true;
		return;
	}
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	bool ok = true;
	nm_refusal r = { .file = ed->file, .line = line };
	r.field = dup_or_null(field, &ok);
	r.why = dup_or_null(why, &ok);
	if (!ok) {
		free(r.field);
		free(r.why);
		ed->nomem = true;
		return;
	}
	ed->refusals[ed->nrefusals++] = r;
}

void nm_edit_note(nm_edit *ed, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	nm_note n = { .file = ed->file, .text = strdup(text) };
	if (!n.text || !grow((void **)&ed->notes, ed->nnotes, &ed->capnotes, sizeof *ed->notes)) {
		free(n.text);
		ed->nomem = true;
		return;
	}
	ed->notes[ed->nnotes++] = n;
}
