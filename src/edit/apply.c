/* Edited files through their inverses (apply.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edit/apply_internal.h"
#include "lib/alloc.h"

void nm_lines_add(line_list *l, bool *nomem, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		size_t c = l->cap ? l->cap * 2 : 16;
		char **s = realloc(l->s, c * sizeof *s);
		if (!s) {
			*nomem = true;
			return;
		}
		l->s = s;
		l->cap = c;
	}
	if (!(l->s[l->n] = strdup(buf)))
		*nomem = true;
	else
		l->n++;
}

static void lines_free(line_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
}

nm_apply *nm_apply_new(nm_tree *t)
{
	nm_apply *a = calloc(1, sizeof *a);
	if (a) {
		a->t = t;
		nm_edit_init(&a->ed);
	}
	return a;
}

void nm_apply_free(nm_apply *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nfiles; i++) {
		free(a->files[i].path);
		free(a->files[i].shown);
		free(a->files[i].bytes);
	}
	free(a->files);
	nm_edit_free(&a->ed);
	lines_free(&a->problems);
	lines_free(&a->notes);
	free(a->scope);
	free(a);
}

size_t nm_apply_edits(const nm_apply *a) { return a->nfiles; }

void nm_apply_set_scope(nm_apply *a, const char *dir)
{
	free(a->scope);
	if (!(a->scope = strdup(dir)))
		a->nomem = true;
}

/* The error.txt files under a's scope in t (the root when none or not there). */
static size_t errors_in_scope(const nm_apply *a, nm_tree *t)
{
	nm_node *n;
	nm_error e;
	if (!a->scope || !*a->scope || nm_resolve(t, a->scope, &n, &e) != NM_OK)
		n = nm_tree_root(t);
	return nm_error_files(t, n);
}

size_t nm_apply_problems(const nm_apply *a)
{
	return a->ed.nrefusals + a->problems.n + (a->nomem || a->ed.nomem);
}

void nm_apply_patch_name(const nm_apply *a, const nm_patch *p, char *buf, size_t len)
{
	const char *shown = a->files[p->file].shown;
	if (p->line)
		snprintf(buf, len, "%s:%u: %s", shown, p->line, p->field ? p->field : "");
	else if (p->derived && p->field)   /* what it was made as ("mip level 2") */
		snprintf(buf, len, "%s: %s", shown, p->field);
	else
		snprintf(buf, len, "%s", shown);
}

void nm_apply_each_problem(const nm_apply *a, void (*fn)(const char *line, void *ctx),
			   void *ctx)
{
	for (size_t i = 0; i < a->ed.nrefusals; i++) {
		const nm_refusal *r = &a->ed.refusals[i];
		char line[1200], at[16] = "";
		if (r->line)
			snprintf(at, sizeof at, ":%u", r->line);
		snprintf(line, sizeof line, "%s%s: %s%s%s", a->files[r->file].shown, at,
			 r->field ? r->field : "", r->field ? ": " : "", r->why);
		fn(line, ctx);
	}
	for (size_t i = 0; i < a->problems.n; i++)
		fn(a->problems.s[i], ctx);
	if (a->nomem || a->ed.nomem)
		fn("out of memory", ctx);
}

/* The whole file n of t, or a status (a file past max_file_size is refused by nm_read
 * before anything is made). */
static nm_status read_whole(nm_tree *t, nm_node *n, uint8_t **out, size_t *len,
			    nm_error *err)
{
	uint64_t size;
	nm_status s = nm_size(t, n, &size, err);
	if (s != NM_OK)
		return s;
	uint8_t *b = nm_alloc(nm_tree_options(t), size ? size : 1, 1, err,
			      nm_node_name(n), NULL, NM_NO_OFFSET);
	if (!b)
		return err ? err->code : NM_E_NOMEM;
	size_t got = 0;
	s = nm_read(t, n, 0, b, (size_t)size, &got, err);
	if (s == NM_OK && got != size)
		s = nm_fail(err, NM_E_IO, nm_node_name(n), NULL, NM_NO_OFFSET,
			    "read %zu of %llu bytes", got, (unsigned long long)size);
	if (s != NM_OK) {
		free(b);
		return s;
	}
	*out = b;
	*len = (size_t)size;
	return NM_OK;
}

/* A text file without an inverse shows only what follows from the model (a header's
 * offsets, counts and sizes): its first changed line is refused by key. */
static void refuse_derived_text(nm_apply *a, const uint8_t *was, size_t was_len,
				const uint8_t *now, size_t len)
{
	size_t i = 0, line = 1, start = 0;
	while (i < was_len && i < len && was[i] == now[i]) {
		if (was[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	const char *s = (const char *)now + start;
	size_t rest = len - start;
	const char *nl = memchr(s, '\n', rest);
	size_t l = nl ? (size_t)(nl - s) : rest;
	const char *colon = memchr(s, ':', l);
	if (colon)
		nm_edit_refuse(&a->ed, (unsigned)line, NULL, "%.*s: read-only: this file shows "
			       "values derived from the model (offsets, counts, sizes), not "
			       "stored ones", (int)(colon - s), s);
	else
		nm_edit_refuse(&a->ed, (unsigned)line, NULL, "read-only: this file shows values "
			       "derived from the model, not stored ones");
}

nm_status nm_apply_file(nm_apply *a, const char *path, const uint8_t *bytes, size_t len,
			const char *shown, nm_error *err)
{
	nm_node *n;
	nm_error e;
	if (nm_resolve(a->t, path, &n, &e) != NM_OK || nm_node_type(n) == NM_NODE_DIR) {
		nm_lines_add(&a->problems, &a->nomem, "%s: the model's tree has no file %s: "
			     "apply writes back only files the tree shows", shown, path);
		return NM_OK;
	}
	uint8_t *was = NULL;
	size_t was_len = 0;
	nm_status s = read_whole(a->t, n, &was, &was_len, err);
	if (s != NM_OK)
		return s;
	if (was_len == len && memcmp(was, bytes, len) == 0) {
		free(was);
		return NM_OK; /* the same bytes: no edit */
	}
	if (a->nfiles == a->capfiles) {
		size_t c = a->capfiles ? a->capfiles * 2 : 16;
		edited_file *f = realloc(a->files, c * sizeof *f);
		if (!f) {
			free(was);
			return nm_fail(err, NM_E_NOMEM, shown, NULL, NM_NO_OFFSET, "out of memory");
		}
		a->files = f;
		a->capfiles = c;
	}
	edited_file *f = &a->files[a->nfiles];
	*f = (edited_file){ strdup(path), strdup(shown), malloc(len ? len : 1), len };
	if (!f->path || !f->shown || !f->bytes) {
		free(f->path);
		free(f->shown);
		free(f->bytes);
		free(was);
		return nm_fail(err, NM_E_NOMEM, shown, NULL, NM_NO_OFFSET, "out of memory");
	}
	memcpy(f->bytes, bytes, len);
	a->ed.file = a->nfiles++;
	nm_inverse_fn fn;
	void *ctx, *arg;
	if (nm_node_inverse(a->t, n, &fn, &ctx, &arg))
		s = fn(ctx, arg, bytes, len, &a->ed, err);
	else if (nm_node_type(n) == NM_NODE_TEXT)
		refuse_derived_text(a, was, was_len, bytes, len);
	else
		nm_edit_refuse(&a->ed, 0, NULL, "made from the model, and apply cannot write "
			       "this kind of file back yet (doc/apply.md lists what it can)");
	free(was);
	return s;
}

/* The patch p, run again against the new model, must find its bytes there. */
static bool patch_holds(const nm_patch *p, nm_error *err)
{
	uint8_t *now;
	if (p->old_len != p->len) /* a whole replacement of another length */
		return false;
	if (nm_reader_load(p->r, p->off, p->len, p->chunk, &now, err) != NM_OK)
		return false;
	bool same = memcmp(now, p->bytes, p->len) == 0;
	free(now);
	return same;
}

size_t nm_apply_verify(nm_apply *a, nm_tree *out, nm_error *err)
{
	size_t before = a->problems.n;
	for (size_t i = 0; i < a->nfiles; i++) {
		const edited_file *f = &a->files[i];
		nm_node *n;
		nm_inverse_fn fn;
		void *ctx, *arg;
		if (nm_resolve(out, f->path, &n, err) != NM_OK) {
			nm_lines_add(&a->problems, &a->nomem, "%s: the new model has no such file "
				     "to check (%s)", f->shown, err->msg);
			continue;
		}
		if (!nm_node_inverse(out, n, &fn, &ctx, &arg)) {
			nm_lines_add(&a->problems, &a->nomem, "%s: the new model shows it as a "
				     "file apply cannot read back", f->shown);
			continue;
		}
		nm_edit ed;
		nm_edit_init(&ed);
		ed.verify = true;
		nm_status s = fn(ctx, arg, f->bytes, f->len, &ed, err);
		bool ok = s == NM_OK && ed.nrefusals == 0 && !ed.nomem;
		/* A derived patch (a mip level made from level 0) is not looked for: a level's
		 * own edited file may have replaced it. */
		for (size_t k = 0; ok && k < ed.npatches; k++)
			ok = ed.patches[k].derived || patch_holds(&ed.patches[k], err);
		if (!ok)
			nm_lines_add(&a->problems, &a->nomem, "%s: reads back from the new model "
				     "otherwise than it was encoded%s%s", f->shown,
				     ed.nrefusals ? ": " : "",
				     ed.nrefusals ? ed.refusals[0].why : "");
		nm_edit_free(&ed);
	}
	size_t was = errors_in_scope(a, a->t);
	size_t now = errors_in_scope(a, out);
	if (now > was)
		nm_lines_add(&a->problems, &a->nomem, "the new model has %zu chunk%s that fail "
			     "to parse where the model had %zu: an edit broke it", now,
			     now == 1 ? "" : "s", was);
	return a->problems.n - before;
}
