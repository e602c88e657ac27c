/* An archive's table of contents as a tree: folders are lazy directories, members are
 * nm_member_node's. The list lives in the tree's arena; each folder keeps the indices of
 * its children, in the archive's order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/container/container.h"

typedef struct archive {
	nm_reader *r;
	nm_entry *e;
	size_t n;
	size_t *first, *next;   /* first child of folder i + 1 (0: the root), next sibling;
				   SIZE_MAX ends a list */
	size_t *overlap;        /* member i's bytes overlap member overlap[i] - 1's; 0: not */
} archive;

static void archive_info(nm_out *o, const nm_entry *e, size_t n)
{
	size_t members = 0, folders = 0, compressed = 0;
	for (size_t i = 0; i < n; i++) {
		folders += e[i].is_folder;
		members += !e[i].is_folder;
		compressed += !e[i].is_folder && e[i].codec != NM_CODEC_NONE;
	}
	nm_kv(o, "members", "%zu", members);
	nm_kv(o, "folders", "%zu", folders);
	nm_kv(o, "compressed_members", "%zu", compressed);
}

/* "folder/sub/name" of entry i, for messages and reader names. */
static void entry_path(const archive *a, size_t i, char *buf, size_t len)
{
	size_t chain[64], k = 0;
	for (int64_t j = (int64_t)i; j >= 0 && k < 64; j = a->e[j].folder)
		chain[k++] = (size_t)j;
	size_t o = 0;
	buf[0] = '\0';
	while (k-- > 0 && o < len) {
		const nm_entry *e = &a->e[chain[k]];
		int w = snprintf(buf + o, len - o, "%s%.*s", o ? "/" : "", (int)e->name_len,
				 e->name);
		o += w > 0 ? (size_t)w : 0;
	}
}

/* Which members' stored bytes overlap those of another (find_overlaps). No archive lays
 * out its members so, but a hostile one can list the same bytes many times over, and
 * nested that multiplies: an archive of N entries all on one inner archive of N entries
 * on one inner archive... is N^depth directories from a few kilobytes (a fuzzed ZAR of
 * 230 KB grew past 17 GB). Info-ZIP's unzip refuses a zip whose members overlap, for the
 * same reason (CVE-2019-13232). Here an overlapping member that is an archive itself is
 * not opened (nm_member_node's no_archive): the archives opened inside one are disjoint,
 * so what a tree lists grows with max_depth times the bytes of the file and of what it
 * decompresses, not with a power of it. Every other member is shown as usual: a model
 * listed twice costs twice, no more. */
struct span {
	uint64_t off, len;
	size_t i;
};

static int by_offset(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Sets a->overlap, sweeping the members by offset (at the same offset, the first listed
 * first): a member that starts before the end of the last one kept overlaps it; any
 * other is kept. So the members kept are disjoint. */
static bool find_overlaps(nm_tree *t, archive *a)
{
	a->overlap = nm_tree_alloc_array(t, a->n ? a->n : 1, sizeof *a->overlap);
	struct span *s = malloc((a->n ? a->n : 1) * sizeof *s);
	if (!a->overlap || !s) {
		free(s);
		return false;
	}
	size_t k = 0;
	for (size_t i = 0; i < a->n; i++) {
		a->overlap[i] = 0;
		if (!a->e[i].is_folder && !a->e[i].error && a->e[i].len)
			s[k++] = (struct span){ a->e[i].off, a->e[i].len, i };
	}
	qsort(s, k, sizeof *s, by_offset);
	uint64_t end = 0;
	size_t last = SIZE_MAX;
	for (size_t j = 0; j < k; j++) {
		if (last != SIZE_MAX && s[j].off < end) {
			a->overlap[s[j].i] = last + 1;
		} else {
			last = s[j].i;
			end = s[j].len > UINT64_MAX - s[j].off ? UINT64_MAX : s[j].off + s[j].len;
		}
	}
	free(s);
	return true;
}

/* Why member i, whose bytes overlap another's, is not opened if it is an archive. */
static void overlap_error(const archive *a, size_t i, nm_error *why)
{
	const nm_entry *e = &a->e[i], *o = &a->e[a->overlap[i] - 1];
	char path[512], other[512];
	entry_path(a, i, path, sizeof path);
	entry_path(a, a->overlap[i] - 1, other, sizeof other);
	nm_fail(why, NM_E_FORMAT, nm_reader_name(a->r), path, e->off,
		"its bytes (0x%llx-0x%llx) overlap those of %s (0x%llx-0x%llx): an archive "
		"listed over another member's bytes is not opened (raw.bin has its bytes)",
		(unsigned long long)e->off, (unsigned long long)(e->off + e->len), other,
		(unsigned long long)o->off, (unsigned long long)(o->off + o->len));
}

/* "archive.arc:folder/name": the name of member i's reader, in every message about it. */
static void reader_name(const archive *a, size_t i, char *buf, size_t len)
{
	char path[512];
	entry_path(a, i, path, sizeof path);
	snprintf(buf, len, "%s:%s", nm_reader_name(a->r), path);
}

/* The member's reader: a window of the archive, or its decompressed bytes. */
static nm_status member_reader(nm_tree *t, const archive *a, size_t i, nm_reader **out,
			       nm_error *err)
{
	const nm_entry *e = &a->e[i];
	char name[768];
	reader_name(a, i, name, sizeof name);
	if (e->codec != NM_CODEC_NONE)
		return nm_unpack_open(t, a->r, e->off, e->len, e->codec, name, out, err);
	nm_status s = nm_reader_new_window(a->r, name, e->off, e->len, out, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_depth(*out, nm_reader_depth(a->r) + 1);
	if (nm_tree_adopt_reader(t, *out) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

static nm_status populate_folder(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err);

/* nm_member_neighbours of a member: every other member of the archive, each through a
 * reader made now (a window, or a stream decompressed on first read). Self is known by
 * its reader's name, which member_reader makes from the member's path. Members left
 * unopened (an error, bytes over another's) are skipped. */
static nm_status archive_each(nm_tree *t, void *scope, nm_reader *self, nm_neighbour_fn fn,
			      void *ctx, nm_error *err)
{
	archive *a = scope;
	for (size_t i = 0; i < a->n; i++) {
		const nm_entry *e = &a->e[i];
		if (e->is_folder || e->error || a->overlap[i])
			continue;
		char path[512], name[768];
		reader_name(a, i, name, sizeof name);
		if (strcmp(name, nm_reader_name(self)) == 0)
			continue;
		entry_path(a, i, path, sizeof path);
		nm_reader *r;
		nm_error me;
		if (member_reader(t, a, i, &r, &me) != NM_OK) {
			if (me.code == NM_E_NOMEM)
				return nm_fail(err, NM_E_NOMEM, nm_reader_name(a->r), NULL,
					       NM_NO_OFFSET, "out of memory");
			continue;
		}
		if (!fn(ctx, path, r))
			break;
	}
	return NM_OK;
}

/* The children of folder f under dir; f = SIZE_MAX is the root (first[] is indexed by
 * f + 1, which wraps to 0). */
static nm_status add_children(nm_tree *t, nm_node *dir, archive *a, size_t f, nm_error *err)
{
	nm_member_group *g = nm_member_group_new(t);
	if (!g)
		goto nomem;
	nm_member_group_scope(g, archive_each, a);
	for (size_t i = a->first[f + 1]; i != SIZE_MAX; i = a->next[i]) {
		const nm_entry *e = &a->e[i];
		char *safe = nm_safe_name(e->name, e->name_len);
		char *name = safe ? nm_unique_stem(t, dir, safe, NULL) : NULL;
		free(safe);
		if (!name)
			goto nomem;
		nm_node *n = NULL;
		nm_reader *r;
		nm_error me;
		if (e->error) {
			nm_fail(&me, NM_E_FORMAT, nm_reader_name(a->r), NULL, NM_NO_OFFSET, "%s",
				e->error);
			n = nm_member_error(t, dir, name, &me);
		} else if (e->is_folder) {
			n = nm_lazy_dir(t, dir, name, populate_folder, a, &a->e[i]);
		} else if (member_reader(t, a, i, &r, &me) != NM_OK) {
			n = me.code == NM_E_NOMEM ? NULL : nm_member_error(t, dir, name, &me);
		} else {
			nm_error why;
			if (a->overlap[i])
				overlap_error(a, i, &why);
			n = nm_member_node(t, dir, name, r, g, a->overlap[i] ? &why : NULL);
		}
		free(name);
		if (!n)
			goto nomem;
	}
	return NM_OK;
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(a->r), NULL, NM_NO_OFFSET, "out of memory");
}

static nm_status populate_folder(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	archive *a = ctx;
	const nm_entry *e = arg;
	return add_children(t, dir, a, (size_t)(e - a->e), err);
}

nm_status nm_archive_build(nm_tree *t, nm_node *root, nm_reader *r, const nm_entry *entries,
			   size_t n, nm_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int64_t f = entries[i].folder;
		if (f >= (int64_t)i || (f >= 0 && !entries[f].is_folder) || f < -1)
			return nm_fail(err, NM_E_FORMAT, nm_reader_name(r), NULL, NM_NO_OFFSET,
				       "entry %zu: its folder (%lld) is not a folder listed before it",
				       i, (long long)f);
	}
	archive *a = nm_tree_alloc(t, sizeof *a);
	if (!a)
		goto nomem;
	a->r = r;
	a->n = n;
	a->e = nm_tree_alloc_array(t, n, sizeof *a->e);
	a->first = nm_tree_alloc_array(t, n + 1, sizeof *a->first);
	a->next = nm_tree_alloc_array(t, n, sizeof *a->next);
	size_t *last = nm_tree_alloc_array(t, n + 1, sizeof *last);
	if (!a->e || !a->first || !a->next || !last)
		goto nomem;
	for (size_t i = 0; i <= n; i++)
		a->first[i] = last[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		a->e[i] = entries[i];
		char *name = nm_tree_alloc(t, entries[i].name_len + 1);
		char *error = entries[i].error ? nm_tree_printf(t, "%s", entries[i].error) : NULL;
		if (!name || (entries[i].error && !error))
			goto nomem;
		memcpy(name, entries[i].name, entries[i].name_len);
		a->e[i].name = name;
		a->e[i].error = error;
		/* Children in the archive's order: appended to their folder's list. */
		size_t f = (size_t)(entries[i].folder + 1);
		a->next[i] = SIZE_MAX;
		if (last[f] == SIZE_MAX)
			a->first[f] = i;
		else
			a->next[last[f]] = i;
		last[f] = i;
	}
	if (!find_overlaps(t, a))
		goto nomem;
	return add_children(t, root, a, SIZE_MAX, err);
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}

nm_status nm_archive_tree(nm_tree *t, nm_node *root, nm_reader *r, nm_out *info,
			  const nm_entry *e, size_t n, nm_error *err)
{
	archive_info(info, e, n);
	if (!nm_text(t, root, "info.txt", info)) {
		nm_out_free(info);
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	}
	return nm_archive_build(t, root, r, e, n, err);
}
