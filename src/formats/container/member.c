/* One member of an archive or of a folder mount: probed by its first bytes when its
 * folder is listed, built on the first lookup inside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "formats/container/container.h"

struct member {
	nm_reader *r;
	const char *name;           /* its node's name */
	bool recognised;
	nm_member_group *group;     /* its folder's members, or NULL */
	struct member *next;        /* in its group, in the order they were added */
};

struct nm_member_group {
	struct member *first, *last;
	nm_scope_each_fn each;      /* the whole archive's members (nm_member_group_scope) */
	void *scope;
};

nm_member_group *nm_member_group_new(nm_tree *t)
{
	return nm_tree_alloc(t, sizeof(nm_member_group));
}

/* raw.bin, or raw~2.bin when the member's own tree has a raw.bin at its top. */
static nm_node *raw_file(nm_tree *t, nm_node *dir, nm_reader *r)
{
	static const char *const bin[] = { ".bin", NULL };
	char *stem = nm_unique_stem(t, dir, "raw", bin);
	char *name = stem ? nm_tree_printf(t, "%s.bin", stem) : NULL;
	free(stem);
	return name ? nm_slice(t, dir, name, r, 0, nm_reader_size(r)) : NULL;
}

/* The contents of a member's directory: its tree and raw.bin. A failure of the tree is
 * its error.txt (the rest of the archive works, and raw.bin still has the bytes); only
 * running out of memory fails. The member's bytes stay pinned while its parse reads
 * them: decompressed once, and a folder's file opened once. k: how an archive that
 * knows its members builds them, or NULL (probe and nm_build_any). */
static nm_status member_contents(nm_tree *t, nm_node *dir, nm_reader *r,
				 const nm_member_kind *k, const void *member, nm_error *err)
{
	const nm_options *o = nm_tree_options(t);
	unsigned depth = nm_reader_depth(r);
	nm_error e;
	nm_error_clear(&e);
	if (depth > o->max_depth) {
		nm_fail(&e, NM_E_LIMIT, nm_reader_name(r), NULL, NM_NO_OFFSET,
			"nested %u containers deep, more than max_depth (%llu)", depth,
			(unsigned long long)o->max_depth);
		nm_error_file(t, dir, &e);
	} else if (nm_reader_pin(r, &e) != NM_OK) {
		nm_error_file(t, dir, &e);
	} else {
		nm_status s = k && k->build ? k->build(r, t, dir, k->ctx, member, &e)
					    : nm_build_any(r, t, dir, &e);
		if (s != NM_OK)
			nm_error_file(t, dir, &e);
		else if (k && k->build && nm_info_errors(t, dir) != NM_OK)
			s = NM_E_NOMEM;
		nm_reader_unpin(r);
		if (s == NM_E_NOMEM)
			goto nomem;
	}
	if (!raw_file(t, dir, r))
		goto nomem;
	return NM_OK;
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}

static nm_status populate_member(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	struct member *m = arg;
	(void)ctx;
	return member_contents(t, dir, m->r, NULL, NULL, err);
}

/* A known member's reader is made here, so it goes with the directory's content. */
static nm_status populate_known(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	const nm_member_kind *k = ctx;
	nm_reader *r;
	nm_error e;
	nm_status s = k->open(t, k->ctx, arg, &r, &e);
	if (s != NM_OK && s != NM_E_NOMEM && nm_error_file(t, dir, &e))
		return NM_OK;   /* its error.txt says why; there are no bytes to show */
	if (s != NM_OK) {
		if (err)
			*err = e;
		return NM_E_NOMEM;
	}
	return member_contents(t, dir, r, k, arg, err);
}

nm_node *nm_member_known(nm_tree *t, nm_node *dir, const char *name, const nm_member_kind *k,
			 const void *member)
{
	return nm_lazy_dir(t, dir, name, populate_known, (void *)k, (void *)member);
}

nm_node *nm_member_error(nm_tree *t, nm_node *dir, const char *name, const nm_error *e)
{
	nm_node *d = nm_dir(t, dir, name);
	return d && nm_error_file(t, d, e) ? d : NULL;
}

/* A directory saying why the member is not opened, with its bytes as raw.bin. */
static nm_node *unopened(nm_tree *t, nm_node *dir, const char *name, nm_reader *r,
			 const nm_error *why)
{
	nm_node *n = nm_member_error(t, dir, name, why);
	return n && raw_file(t, n, r) ? n : NULL;
}

nm_node *nm_member_node(nm_tree *t, nm_node *dir, const char *name, nm_reader *r,
			nm_member_group *g, const nm_error *no_archive)
{
	struct member *m = nm_tree_alloc(t, sizeof *m);
	if (!m)
		return NULL;
	m->r = r;
	m->name = nm_tree_printf(t, "%s", name);
	if (!m->name)
		return NULL;
	const nm_driver *d;
	nm_error e;
	nm_status s = nm_driver_find(r, &d, &e);
	nm_node *n;
	if (s == NM_OK && d->archive && no_archive) {
		n = unopened(t, dir, name, r, no_archive);
	} else if (s == NM_OK) {
		m->recognised = true;
		n = nm_lazy_dir(t, dir, name, populate_member, NULL, m);
	} else if (s == NM_E_UNSUPPORTED) {
		n = nm_slice(t, dir, name, r, 0, nm_reader_size(r));
	} else {
		/* Its first bytes cannot be read (a compressed member that does not decode):
		 * say why, and keep what can be tried. */
		n = unopened(t, dir, name, r, &e);
	}
	if (!n)
		return NULL;
	nm_reader_set_place(r, m);
	m->group = g;
	if (g) {
		if (g->last)
			g->last->next = m;
		else
			g->first = m;
		g->last = m;
	}
	return n;
}

/* A member's group is complete before anything inside the member can be looked up (the
 * folder's populate adds them all before its directory can be listed), so the list is
 * read here without a lock. */
bool nm_member_sibling_where(nm_reader *r, bool (*match)(const char *name, void *ctx),
			     void *ctx, nm_reader **sibling, const char **dirname)
{
	const struct member *self = nm_reader_place(r);
	if (!self || !self->group)
		return false;
	for (const struct member *m = self->group->first; m; m = m->next)
		if (m->recognised && m != self && match(m->name, ctx)) {
			*sibling = m->r;
			*dirname = m->name;
			return true;
		}
	return false;
}

void nm_member_group_scope(nm_member_group *g, nm_scope_each_fn each, void *scope)
{
	g->each = each;
	g->scope = scope;
}

nm_status nm_member_neighbours(nm_tree *t, nm_reader *r, nm_neighbour_fn fn, void *ctx,
			       nm_error *err)
{
	const struct member *self = nm_reader_place(r);
	if (!self || !self->group)
		return NM_OK;
	if (self->group->each)
		return self->group->each(t, self->group->scope, r, fn, ctx, err);
	for (const struct member *m = self->group->first; m; m = m->next)
		if (m != self && !fn(ctx, m->name, m->r))
			break;
	return NM_OK;
}

static bool same_name(const char *name, void *ctx) { return strcasecmp(name, ctx) == 0; }

bool nm_member_sibling(nm_reader *r, const char *name, nm_reader **sibling,
		       const char **dirname)
{
	return nm_member_sibling_where(r, same_name, (void *)name, sibling, dirname);
}
