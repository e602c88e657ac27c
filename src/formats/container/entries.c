/* A driver's list of archive entries, and the folders of path-named members (GAR and
 * ZAR name members by paths such as "misc/link_body.cmab"): one folder entry per
 * distinct (folder, name), found through a hash so that a table of 65,535 paths costs
 * linear time. */
#include <stdlib.h>
#include <string.h>
#include "formats/container/container.h"

nm_entry *nm_entry_add(nm_entry_list *l)
{
	if (l->failed)
		return NULL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		nm_entry *e = realloc(l->e, cap * sizeof *e);
		if (!e) {
			l->failed = true;
			return NULL;
		}
		l->e = e;
		l->cap = cap;
	}
	nm_entry *e = &l->e[l->n++];
	memset(e, 0, sizeof *e);
	e->folder = -1;
	return e;
}

static size_t slot_of(int64_t parent, const char *name, size_t len, size_t nslots)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)parent;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return (size_t)(h ^ h >> 31) & (nslots - 1);
}

static bool same(const nm_entry *e, int64_t parent, const char *name, size_t len)
{
	return e->folder == parent && e->name_len == len && memcmp(e->name, name, len) == 0;
}

/* Keep the table at most half full: double it and place every folder again. */
static bool grow_slots(nm_entry_list *l)
{
	size_t n = l->nslots ? l->nslots * 2 : 64;
	size_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < l->n; i++) {
		const nm_entry *e = &l->e[i];
		if (!e->is_folder)
			continue;
		size_t k = slot_of(e->folder, e->name, e->name_len, n);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = i + 1;
	}
	free(l->slots);
	l->slots = slots;
	l->nslots = n;
	return true;
}

int64_t nm_entry_folder(nm_entry_list *l, int64_t parent, const char *name, size_t len)
{
	if (l->failed)
		return -2;
	if (l->nslots) {
		for (size_t k = slot_of(parent, name, len, l->nslots); l->slots[k];
		     k = (k + 1) & (l->nslots - 1))
			if (same(&l->e[l->slots[k] - 1], parent, name, len))
				return (int64_t)(l->slots[k] - 1);
	}
	nm_entry *e = nm_entry_add(l);
	if (!e)
		return -2;
	e->name = name;
	e->name_len = len;
	e->folder = parent;
	e->is_folder = true;
	if (2 * (l->nfolders + 1) > l->nslots) {
		if (!grow_slots(l)) {   /* places every folder, this one too */
			l->failed = true;
			return -2;
		}
	} else {
		size_t k = slot_of(parent, name, len, l->nslots);
		while (l->slots[k])
			k = (k + 1) & (l->nslots - 1);
		l->slots[k] = l->n;
	}
	l->nfolders++;
	return (int64_t)(l->n - 1);
}

int64_t nm_entry_path(nm_entry_list *l, const char *path, size_t len, const char **base,
		      size_t *base_len)
{
	int64_t folder = -1;
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		if (path[i] != '/')
			continue;
		if (i > start && (folder = nm_entry_folder(l, folder, path + start, i - start)) < -1)
			return -2;
		start = i + 1;
	}
	*base = path + start;
	*base_len = len - start;
	return folder;
}

void nm_entry_list_free(nm_entry_list *l)
{
	free(l->e);
	free(l->slots);
	memset(l, 0, sizeof *l);
}

const char *nm_table_string(const nm_view *v, size_t start, size_t size, uint64_t off,
			    size_t *len)
{
	if (start > v->size || size > v->size - start || off >= size)
		return NULL;
	const char *s = (const char *)v->data + start + off;
	const char *end = memchr(s, '\0', size - (size_t)off);
	if (!end)
		return NULL;
	*len = (size_t)(end - s);
	return s;
}
