/* Changes carried up from the reader an inverse patched to the file's own bytes
 * (apply.h): through a window (an archive's stored member) at its offset, through a
 * compressed stream by decompressing it whole, patching and encoding it again in its
 * own codec (nm_reader_origin_of says which). Where a change has another length than
 * the bytes it replaces (a member replaced whole, a stream that compresses longer than
 * its room), the reader it lands in is laid out again by the driver that reads it
 * (nm_reader_repack_of: an archive's tables rewritten), or is all replaced by it, or
 * the change is refused. Knows no format. */
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
	nm_reader *from;       /* the reader it was carried up from (NULL: r's own patch) */
	bool made;             /* made here (a stream encoded, an archive laid out again) */
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

/* One change replacing all of r (another length, or the same). */
static bool replaces_all(const change *c, const nm_reader *r)
{
	return c->off == 0 && c->old_len == nm_reader_size(r);
}

/* The changes of r, a compressed stream, become one: the stream encoded again. */
static bool encode_again(nm_apply *a, nm_reader *r, const nm_reader_origin *o, change **cs,
			 size_t n, change *out, nm_error *err)
{
	uint64_t size = nm_reader_size(r);
	uint8_t *plain;
	bool whole = n == 1 && replaces_all(cs[0], r);
	if (whole) {
		plain = cs[0]->bytes; /* all of r's new bytes, whatever their length */
		size = cs[0]->len;
	} else if (nm_reader_load(r, 0, (size_t)size, NULL, &plain, err) != NM_OK) {
		nm_lines_add(&a->problems, &a->nomem, "%s", err->msg);
		return false;
	}
	for (size_t i = 0; !whole && i < n; i++)
		memcpy(plain + cs[i]->off, cs[i]->bytes, cs[i]->len);
	nm_out enc;
	nm_out_init(&enc);
	enc.opt = nm_reader_options(r);
	nm_status s = o->encode(o->ctx, plain, (size_t)size, &enc, err);
	if (!whole)
		free(plain);
	if (s != NM_OK) {
		char first[600];
		nm_apply_patch_name(a, &a->ed.patches[cs[0]->patch], first, sizeof first);
		nm_lines_add(&a->problems, &a->nomem, "%s: %s", first, err->msg);
		nm_out_free(&enc);
		return false;
	}
	/* A stream that is all of its parent (a wrapped file, a member's whole bytes), or
	 * inside an archive its driver lays out again, takes the length it has (settle);
	 * one inside anything else keeps the room it had, with zeros after the stream
	 * (decoders stop at the size its header announces), when it fits. */
	bool all = o->off == 0 && o->len == nm_reader_size(o->parent);
	nm_repack_fn repack;
	void *rctx;
	bool relaid = nm_reader_repack_of(o->parent, &repack, &rctx);
	size_t stream = enc.len;
	if (!all && !relaid && !o->unpadded && enc.len < o->len)
		while (enc.len < o->len && !enc.failed)
			nm_out_char(&enc, 0);
	nm_lines_add(&a->notes, &a->nomem, "%s: encoded again: %zu bytes, was %llu "
		     "(%+.1f %%)%s", nm_reader_name(r), stream, (unsigned long long)o->len,
		     o->len ? 100.0 * ((double)stream - (double)o->len) / (double)o->len : 0.0,
		     enc.len > stream ? ", zeros after it to the member's size" : "");
	size_t len;
	*out = (change){ .r = o->parent, .off = o->off, .old_len = o->len,
			 .bytes = nm_out_take(&enc, &len), .patch = cs[0]->patch, .from = r,
			 .made = true };
	out->len = len;
	return out->bytes != NULL;
}

/* Changes of r that change its length: r's driver lays it out again (they become one
 * change replacing all of r), or one of them already replaces all of r, or they are
 * refused. cs are r's changes, free of conflicts, sorted by offset; *one is set when
 * they became one. */
static bool settle(nm_apply *a, nm_reader *r, change **cs, size_t n, change *one, bool *made,
		   nm_error *err)
{
	*made = false;
	size_t k = 0;
	while (k < n && cs[k]->len == cs[k]->old_len)
		k++;
	if (k == n)
		return true;
	/* All of r replaced: it goes up as it is (r's parent takes its new length). */
	if (n == 1 && replaces_all(cs[0], r))
		return true;
	nm_repack_fn repack;
	void *ctx;
	if (!nm_reader_repack_of(r, &repack, &ctx)) {
		char first[600];
		nm_apply_patch_name(a, &a->ed.patches[cs[k]->patch], first, sizeof first);
		nm_lines_add(&a->problems, &a->nomem, "%s: %s would take %zu bytes where %s "
			     "has %llu at 0x%llx, and apply cannot lay %s out again (no archive "
			     "table there says where its bytes are): a change of the model's "
			     "layout", first,
			     cs[k]->from ? nm_reader_name(cs[k]->from) : "the edit", cs[k]->len,
			     nm_reader_name(r), (unsigned long long)cs[k]->old_len,
			     (unsigned long long)cs[k]->off, nm_reader_name(r));
		return false;
	}
	nm_member_change *mc = malloc(n * sizeof *mc);
	if (!mc) {
		a->nomem = true;
		return false;
	}
	for (size_t i = 0; i < n; i++)
		mc[i] = (nm_member_change){ cs[i]->off, cs[i]->old_len, cs[i]->bytes, cs[i]->len };
	nm_out o;
	nm_out_init(&o);
	o.opt = nm_reader_options(r);
	nm_status s = repack(ctx, r, mc, n, &o, err);
	free(mc);
	char first[600];
	nm_apply_patch_name(a, &a->ed.patches[cs[k]->patch], first, sizeof first);
	if (s != NM_OK || nm_out_status(&o) != NM_OK) {
		nm_lines_add(&a->problems, &a->nomem, "%s: %s", first,
			     s != NM_OK ? err->msg : "out of memory laying the archive out again");
		nm_out_free(&o);
		return false;
	}
	uint64_t was = nm_reader_size(r);
	nm_lines_add(&a->notes, &a->nomem, "%s: laid out again (its tables rewritten): %zu "
		     "bytes, was %llu", nm_reader_name(r), o.len, (unsigned long long)was);
	size_t len;
	*one = (change){ .r = r, .off = 0, .old_len = was, .bytes = nm_out_take(&o, &len),
			 .patch = cs[k]->patch, .from = NULL, .made = true };
	one->len = len;
	*made = one->bytes != NULL;
	if (!*made)
		a->nomem = true;
	return *made;
}

/* Drop the changes of l marked gone (r NULL), freeing nothing. */
static void compact(change_list *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->c[i].r)
			l->c[k++] = l->c[i];
	l->n = k;
}

/* cs (changes of l) are replaced by one. */
static bool replace_with(nm_apply *a, change_list *l, change **cs, size_t n, change one)
{
	for (size_t i = 0; i < n; i++) {
		free(cs[i]->bytes);
		cs[i]->bytes = NULL;
		cs[i]->r = NULL;
	}
	compact(l);
	if (!add(l, one)) {
		free(one.bytes);
		a->nomem = true;
		return false;
	}
	return true;
}

static void free_changes(change_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->c[i].bytes);
	free(l->c);
}

/* The changes of r, sorted, checked for conflicts and settled (settle); false when a
 * problem was found. *cs (malloc'd, *n) then lists r's changes in l. */
static bool changes_of(nm_apply *a, change_list *l, nm_reader *r, change ***cs, size_t *n,
		       nm_error *err)
{
	*n = 0;
	*cs = malloc((l->n ? l->n : 1) * sizeof **cs);
	if (!*cs) {
		a->nomem = true;
		return false;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->c[i].r == r)
			(*cs)[(*n)++] = &l->c[i];
	size_t problems = a->problems.n;
	find_conflicts(a, *cs, *n);
	if (a->problems.n != problems)
		return false;
	change one;
	bool made;
	if (!settle(a, r, *cs, *n, &one, &made, err))
		return false;
	if (made) {
		if (!replace_with(a, l, *cs, *n, one))
			return false;
		(*cs)[0] = &l->c[l->n - 1];
		*n = 1;
	}
	return true;
}

/* Carry every change of r one level up (into *l, replacing them). */
static bool carry_reader(nm_apply *a, change_list *l, nm_reader *r, nm_error *err)
{
	size_t n;
	change **cs;
	bool ok = changes_of(a, l, r, &cs, &n, err);
	nm_reader_origin o;
	nm_origin_kind kind = nm_reader_origin_of(r, &o);
	if (ok && kind == NM_ORIGIN_NONE) {
		char first[600];
		nm_apply_patch_name(a, &a->ed.patches[cs[0]->patch], first, sizeof first);
		nm_lines_add(&a->problems, &a->nomem, "%s: %s cannot be written back (a file "
			     "of a folder, or bytes made by a codec with no encoder)", first,
			     nm_reader_name(r));
		ok = false;
	} else if (ok && !o.encode) {
		for (size_t i = 0; i < n; i++) {
			cs[i]->r = o.parent;
			cs[i]->off += o.off;
			cs[i]->from = r;
		}
	} else if (ok) {
		change one;
		ok = encode_again(a, r, &o, cs, n, &one, err) && replace_with(a, l, cs, n, one);
	}
	free(cs);
	return ok;
}

nm_status nm_apply_encode(nm_apply *a, nm_out *out, bool *changed, nm_error *err)
{
	*changed = false;
	if (nm_apply_problems(a))
		return NM_E_INVAL;
	/* A mip level made from an edited level 0 yields to the level's own edited file. */
	nm_patch **ps = malloc((a->ed.npatches ? a->ed.npatches : 1) * sizeof *ps);
	if (!ps)
		return nm_fail(err, NM_E_NOMEM, "apply", NULL, NM_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < a->ed.npatches; i++)
		ps[i] = &a->ed.patches[i];
	nm_patches_supersede(ps, a->ed.npatches);
	free(ps);
	change_list l = { 0 };
	for (size_t i = 0; i < a->ed.npatches; i++) {
		const nm_patch *p = &a->ed.patches[i];
		if (p->superseded)
			continue;
		change c = { p->r, p->off, p->old_len, malloc(p->len ? p->len : 1), p->len, i,
			     NULL, false };
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
	/* One file out: edits of two files (two members of a folder) are two applies. */
	for (size_t i = 1; ok && i < l.n; i++)
		if (l.c[i].r != root) {
			nm_lines_add(&a->problems, &a->nomem, "%s and %s: edits of two files at "
				     "once: each file is applied on its own", nm_reader_name(root),
				     nm_reader_name(l.c[i].r));
			ok = false;
		}
	change **cs = NULL;
	size_t n = 0;
	if (ok && l.n)
		ok = changes_of(a, &l, root, &cs, &n, err);
	/* The file itself changes length only when it was made again whole (a wrapper
	 * encoded again, an archive laid out again) or an edit gives all of it (a whole
	 * model written again from its ASCII form); never by part of it. */
	const change *whole = NULL;
	for (size_t i = 0; ok && i < n; i++)
		if (cs[i]->len != cs[i]->old_len)
			whole = cs[i];
	if (whole && !whole->made && !replaces_all(whole, root)) {
		char first[600];
		nm_apply_patch_name(a, &a->ed.patches[whole->patch], first, sizeof first);
		nm_lines_add(&a->problems, &a->nomem, "%s: %zu bytes where the file has %llu: a "
			     "change of size changes the model's layout, which apply does not do",
			     first, whole->len, (unsigned long long)whole->old_len);
	}
	free(cs);
	if (nm_apply_problems(a) || !l.n) {
		free_changes(&l);
		return nm_apply_problems(a) ? NM_E_INVAL : NM_OK;
	}
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
		if (p->superseded) {
			snprintf(line, sizeof line, "%s: %s bytes 0x%llx..0x%llx: not written: an "
				 "edited file gives them", name, nm_reader_name(p->r),
				 (unsigned long long)p->off, (unsigned long long)(p->off + p->len - 1));
			fn(line, ctx);
			continue;
		}
		for (size_t k = 0, at = 0; k < p->len && k < 16; k++)
			at += (size_t)snprintf(hex + at, sizeof hex - at, " %02x", p->bytes[k]);
		if (p->len != p->old_len && p->off == 0 && p->old_len == nm_reader_size(p->r))
			snprintf(line, sizeof line, "%s: %s%s%s written again whole: %zu bytes, "
				 "was %llu:%s%s", name, nm_reader_name(p->r), p->chunk ? " " : "",
				 p->chunk ? p->chunk : "", p->len,
				 (unsigned long long)p->old_len, hex, p->len > 16 ? " ..." : "");
		else if (p->len != p->old_len)
			snprintf(line, sizeof line, "%s: %s%s%s bytes 0x%llx..0x%llx become %zu "
				 "bytes:%s%s", name, nm_reader_name(p->r), p->chunk ? " " : "",
				 p->chunk ? p->chunk : "", (unsigned long long)p->off,
				 (unsigned long long)(p->off + p->old_len - 1), p->len, hex,
				 p->len > 16 ? " ..." : "");
		else
			snprintf(line, sizeof line, "%s: %s%s%s bytes 0x%llx..0x%llx:%s%s", name,
				 nm_reader_name(p->r), p->chunk ? " " : "", p->chunk ? p->chunk : "",
				 (unsigned long long)p->off,
				 (unsigned long long)(p->off + p->len - 1), hex,
				 p->len > 16 ? " ..." : "");
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
