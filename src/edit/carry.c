/* Changes carried up from the reader an inverse patched to the file's own bytes
 * (apply.h): through a window (an archive's stored member) at its offset, through a
 * compressed stream by decompressing it whole, patching and encoding it again in its
 * own codec (nm_reader_origin_of says which). Knows no format.
 * A whole replacement (nm_patch.whole) may change a reader's length: the file itself
 * and a stream that is the whole file take it; a window (an archive member) refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edit/apply_internal.h"
#include "lib/alloc.h"

/* One change on its way up: len bytes at off of r, replacing old_len bytes there (the
 * same, but for a stream encoded again that is the whole of its reader). */
typedef struct change {
	nm_reader *r;
	uint64_t off, old_len;
	uint8_t *bytes;
	size_t len;
	size_t patch;          /* the inverse's patch it comes from (for messages) */
} change;

typedef struct change_list {
	change *c;
	size_t n, cap;
} change_list;

static bool add(change_list *l, change c)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		change *p = realloc(l->c, cap * sizeof *p);
		if (!p)
			return false;
		l->c = p;
		l->cap = cap;
	}
	l->c[l->n++] = c;
	return true;
}

/* Hops from r up to the file. */
static unsigned height(const nm_reader *r)
{
	unsigned h = 0;
	nm_reader_origin o;
	while (nm_reader_origin_of(r, &o) == NM_ORIGIN_PARENT) {
		r = o.parent;
		h++;
	}
	return h;
}

static int by_offset(const void *x, const void *y)
{
	const change *a = *(change *const *)x, *b = *(change *const *)y;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* Two changes of r that set the same bytes differently. */
static void find_conflicts(nm_apply *a, change **cs, size_t n)
{
	qsort(cs, n, sizeof *cs, by_offset);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n && cs[j]->off < cs[i]->off + cs[i]->old_len; j++) {
			const change *x = cs[i], *y = cs[j];
			uint64_t from = y->off, to = x->off + x->old_len;
			if (y->off + y->old_len < to)
				to = y->off + y->old_len;
			bool differ = x->len != x->old_len || y->len != y->old_len ||
				      memcmp(x->bytes + (from - x->off), y->bytes + (from - y->off),
					     (size_t)(to - from)) != 0;
			if (!differ)
				continue;
			char p[600], q[600];
			nm_apply_patch_name(a, &a->ed.patches[x->patch], p, sizeof p);
			nm_apply_patch_name(a, &a->ed.patches[y->patch], q, sizeof q);
			nm_lines_add(&a->problems, &a->nomem, "%s: conflicts with %s: both set "
				     "bytes 0x%llx..0x%llx of %s, differently", q, p,
				     (unsigned long long)from, (unsigned long long)to - 1,
				     nm_reader_name(x->r));
		}
}

/* The changes of r, a compressed stream, become one: the stream encoded again. */
static bool encode_again(nm_apply *a, nm_reader *r, const nm_reader_origin *o, change **cs,
			 size_t n, change *out, nm_error *err)
{
	uint64_t size = nm_reader_size(r);
	uint8_t *plain;
	const change *resized = NULL;   /* a whole replacement of another length: alone */
	for (size_t i = 0; i < n; i++)
		if (cs[i]->len != cs[i]->old_len)
			resized = cs[i];
	if (resized) {
		size = resized->len;
		plain = nm_alloc(nm_reader_options(r), size ? size : 1, 1, err,
				 nm_reader_name(r), NULL, NM_NO_OFFSET);
		if (plain)
			memcpy(plain, resized->bytes, resized->len);
	} else if (nm_reader_load(r, 0, (size_t)size, NULL, &plain, err) != NM_OK) {
		plain = NULL;
	}
	if (!plain) {
		nm_lines_add(&a->problems, &a->nomem, "%s", err->msg);
		return false;
	}
	for (size_t i = 0; !resized && i < n; i++)
		memcpy(plain + cs[i]->off, cs[i]->bytes, cs[i]->len);
	nm_out enc;
	nm_out_init(&enc);
	enc.opt = nm_reader_options(r);
	nm_status s = o->encode(o->ctx, plain, (size_t)size, &enc, err);
	free(plain);
	if (s != NM_OK) {
		nm_lines_add(&a->problems, &a->nomem, "%s", err->msg);
		nm_out_free(&enc);
		return false;
	}
	/* The file itself may change size; a stream inside an archive keeps the room its
	 * table gives it, with zeros after the stream (decoders stop at the size its header
	 * announces), as long as it fits. */
	bool whole = o->off == 0 && o->len == nm_reader_size(o->parent) &&
		     nm_reader_origin_of(o->parent, &(nm_reader_origin){ 0 }) == NM_ORIGIN_ROOT;
	char first[600];
	nm_apply_patch_name(a, &a->ed.patches[cs[0]->patch], first, sizeof first);
	if (!whole && enc.len > o->len) {
		nm_lines_add(&a->problems, &a->nomem, "%s: %s compressed again takes %zu bytes "
			     "where its archive gives it %llu: apply does not rewrite archive "
			     "tables yet", first, nm_reader_name(r), enc.len,
			     (unsigned long long)o->len);
		nm_out_free(&enc);
		return false;
	}
	size_t stream = enc.len;
	if (!whole)
		while (enc.len < o->len && !enc.failed)
			nm_out_char(&enc, 0);
	nm_lines_add(&a->notes, &a->nomem, "%s: encoded again: %zu bytes, was %llu "
		     "(%+.1f %%)%s", nm_reader_name(r), stream, (unsigned long long)o->len,
		     o->len ? 100.0 * ((double)stream - (double)o->len) / (double)o->len : 0.0,
		     whole ? "" : ", zeros after it to the member's size");
	size_t len;
	*out = (change){ .r = o->parent, .off = o->off, .old_len = o->len,
			 .bytes = nm_out_take(&enc, &len), .patch = cs[0]->patch };
	out->len = len;
	return out->bytes != NULL;
}

static void free_changes(change_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->c[i].bytes);
	free(l->c);
}

/* Carry every change of r one level up (into *l, replacing them). */
static bool carry_reader(nm_apply *a, change_list *l, nm_reader *r, nm_error *err)
{
	size_t n = 0;
	change **cs = malloc(l->n * sizeof *cs);
	if (!cs)
		return false;
	for (size_t i = 0; i < l->n; i++)
		if (l->c[i].r == r)
			cs[n++] = &l->c[i];
	size_t problems = a->problems.n;
	find_conflicts(a, cs, n);
	nm_reader_origin o;
	nm_origin_kind kind = nm_reader_origin_of(r, &o);
	bool ok = a->problems.n == problems;
	if (ok && kind == NM_ORIGIN_NONE) {
		char first[600];
		nm_apply_patch_name(a, &a->ed.patches[cs[0]->patch], first, sizeof first);
		nm_lines_add(&a->problems, &a->nomem, "%s: %s cannot be written back (a file "
			     "of a folder, or bytes made by a codec with no encoder)", first,
			     nm_reader_name(r));
		ok = false;
	} else if (ok && !o.encode) {
		for (size_t i = 0; ok && i < n; i++)
			if (cs[i]->len != cs[i]->old_len) {
				char first[600];
				nm_apply_patch_name(a, &a->ed.patches[cs[i]->patch], first,
						    sizeof first);
				nm_lines_add(&a->problems, &a->nomem, "%s: makes %s %zu bytes where "
					     "it has %llu: it is a member of %s, and apply does not "
					     "rewrite archive tables yet", first, nm_reader_name(r),
					     cs[i]->len, (unsigned long long)cs[i]->old_len,
					     nm_reader_name(o.parent));
				ok = false;
			}
		for (size_t i = 0; ok && i < n; i++) {
			cs[i]->r = o.parent;
			cs[i]->off += o.off;
		}
	} else if (ok) {
		change one;
		ok = encode_again(a, r, &o, cs, n, &one, err);
		for (size_t i = 0; i < n; i++) { /* dropped: one replaces them */
			free(cs[i]->bytes);
			cs[i]->bytes = NULL;
			cs[i]->r = NULL;
		}
		size_t k = 0;
		for (size_t i = 0; i < l->n; i++)
			if (l->c[i].r)
				l->c[k++] = l->c[i];
		l->n = k;
		if (ok && !add(l, one)) {
			free(one.bytes);
			ok = false;
			a->nomem = true;
		}
	}
	free(cs);
	return ok;
}

nm_status nm_apply_encode(nm_apply *a, nm_out *out, bool *changed, nm_error *err)
{
	*changed = false;
	if (nm_apply_problems(a))
		return NM_E_INVAL;
	change_list l = { 0 };
	for (size_t i = 0; i < a->ed.npatches; i++) {
		const nm_patch *p = &a->ed.patches[i];
		change c = { p->r, p->off, p->whole ? nm_reader_size(p->r) : p->len,
			     malloc(p->len ? p->len : 1), p->len, i };
		if (!c.bytes || !add(&l, c)) {
			free(c.bytes);
			free_changes(&l);
			return nm_fail(err, NM_E_NOMEM, "apply", NULL, NM_NO_OFFSET, "out of memory");
		}
		memcpy(c.bytes, p->bytes, p->len);
	}
	/* The deepest reader first: every change of a stream is in before it is encoded. */
	bool ok = true;
	while (ok && l.n) {
		nm_reader *deepest = NULL;
		unsigned h = 0;
		for (size_t i = 0; i < l.n; i++) {
			unsigned hi = height(l.c[i].r);
			if (hi > h) {
				h = hi;
				deepest = l.c[i].r;
			}
		}
		if (!deepest)
			break;
		ok = carry_reader(a, &l, deepest, err);
	}
	nm_reader *root = l.n ? l.c[0].r : NULL;
	change **cs = ok && l.n ? malloc(l.n * sizeof *cs) : NULL;
	if (ok && l.n && cs) {
		for (size_t i = 0; i < l.n; i++)
			cs[i] = &l.c[i];
		find_conflicts(a, cs, l.n);
	}
	if (ok && l.n && !cs)
		a->nomem = true;
	free(cs);
	if (nm_apply_problems(a) || !l.n) {
		free_changes(&l);
		return nm_apply_problems(a) ? NM_E_INVAL : NM_OK;
	}
	/* Only the file itself, replaced whole, or a stream that is the whole file
	 * (encode_again) changes its length. */
	const change *whole = NULL;
	for (size_t i = 0; i < l.n; i++)
		if (l.c[i].len != l.c[i].old_len)
			whole = &l.c[i];
	nm_out_init(out);
	out->opt = nm_reader_options(root);
	if (whole) {
		nm_out_write(out, whole->bytes, whole->len);
	} else {
		uint64_t size = nm_reader_size(root);
		uint8_t *d = nm_out_reserve(out, (size_t)size);
		nm_status s = d ? nm_reader_read(root, 0, d, (size_t)size, NULL, err)
				: nm_fail(err, nm_out_status(out), "apply", NULL, NM_NO_OFFSET,
					  "no room for the new file (%llu bytes)",
					  (unsigned long long)size);
		if (s != NM_OK) {
			free_changes(&l);
			return s;
		}
		out->len = (size_t)size;
		for (size_t i = 0; i < l.n; i++)
			memcpy(out->data + l.c[i].off, l.c[i].bytes, l.c[i].len);
	}
	free_changes(&l);
	*changed = true;
	return nm_out_status(out);
}

void nm_apply_each_change(const nm_apply *a, void (*fn)(const char *line, void *ctx),
			  void *ctx)
{
	for (size_t i = 0; i < a->ed.npatches; i++) {
		const nm_patch *p = &a->ed.patches[i];
		char name[600], line[1400], hex[3 * 16 + 8] = "";
		nm_apply_patch_name(a, p, name, sizeof name);
		for (size_t k = 0, at = 0; k < p->len && k < 16; k++)
			at += (size_t)snprintf(hex + at, sizeof hex - at, " %02x", p->bytes[k]);
		if (p->whole) {
			snprintf(line, sizeof line, "%s: %s%s%s written again whole: %zu bytes, "
				 "was %llu:%s%s", name, nm_reader_name(p->r), p->chunk ? " " : "",
				 p->chunk ? p->chunk : "", p->len,
				 (unsigned long long)nm_reader_size(p->r), hex,
				 p->len > 16 ? " ..." : "");
			fn(line, ctx);
			continue;
		}
		snprintf(line, sizeof line, "%s: %s%s%s bytes 0x%llx..0x%llx:%s%s", name,
			 nm_reader_name(p->r), p->chunk ? " " : "", p->chunk ? p->chunk : "",
			 (unsigned long long)p->off, (unsigned long long)(p->off + p->len - 1),
			 hex, p->len > 16 ? " ..." : "");
		fn(line, ctx);
	}
	for (size_t i = 0; i < a->ed.nnotes; i++) {
		char line[1200];
		snprintf(line, sizeof line, "%s: note: %s", a->files[a->ed.notes[i].file].shown,
			 a->ed.notes[i].text);
		fn(line, ctx);
	}
	for (size_t i = 0; i < a->notes.n; i++)
		fn(a->notes.s[i], ctx);
}
