#include <stdlib.h>
#include <string.h>
#include "fuse/inodes.h"

typedef struct entry {
	uint64_t parent;   /* 0: detached (or the root, number 1) */
	char *name;
	uint64_t next;     /* the next number in the same hash chain, or 0 */
} entry;

struct nm_inodes {
	entry *e;          /* by number; e[0] unused */
	uint64_t n, cap;
	uint64_t *bucket;  /* first number of each chain */
	size_t nbuckets;
};

static size_t hash(const nm_inodes *in, uint64_t parent, const char *name)
{
	uint64_t h = parent * 0x9E3779B97F4A7C15ull;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001B3ull;
	return (size_t)(h % in->nbuckets);
}

nm_inodes *nm_inodes_new(void)
{
	nm_inodes *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->nbuckets = 4096;
	in->bucket = calloc(in->nbuckets, sizeof *in->bucket);
	in->cap = 1024;
	in->e = calloc(in->cap, sizeof *in->e);
	if (!in->bucket || !in->e) {
		nm_inodes_free(in);
		return NULL;
	}
	in->n = 2; /* 0 unused, 1 the root */
	return in;
}

void nm_inodes_free(nm_inodes *in)
{
	if (!in)
		return;
	for (uint64_t i = 0; i < in->n && in->e; i++)
		free(in->e[i].name);
	free(in->e);
	free(in->bucket);
	free(in);
}

static uint64_t find(const nm_inodes *in, uint64_t parent, const char *name)
{
	for (uint64_t i = in->bucket[hash(in, parent, name)]; i; i = in->e[i].next)
		if (in->e[i].parent == parent && strcmp(in->e[i].name, name) == 0)
			return i;
	return 0;
}

/* Take i out of its chain (its parent and name still say which). */
static void unchain(nm_inodes *in, uint64_t i)
{
	uint64_t *p = &in->bucket[hash(in, in->e[i].parent, in->e[i].name)];
	while (*p && *p != i)
		p = &in->e[*p].next;
	if (*p)
		*p = in->e[i].next;
	in->e[i].next = 0;
}

static void chain(nm_inodes *in, uint64_t i)
{
	size_t b = hash(in, in->e[i].parent, in->e[i].name);
	in->e[i].next = in->bucket[b];
	in->bucket[b] = i;
}

uint64_t nm_inodes_child(nm_inodes *in, uint64_t parent, const char *name)
{
	uint64_t i = find(in, parent, name);
	if (i)
		return i;
	if (in->n == in->cap) {
		entry *e = realloc(in->e, in->cap * 2 * sizeof *e);
		if (!e)
			return 0;
		memset(e + in->cap, 0, in->cap * sizeof *e);
		in->e = e;
		in->cap *= 2;
	}
	char *copy = strdup(name);
	if (!copy)
		return 0;
	i = in->n++;
	in->e[i] = (entry){ parent, copy, 0 };
	chain(in, i);
	return i;
}

bool nm_inodes_path(const nm_inodes *in, uint64_t ino, char *buf, size_t size)
{
	/* Built from the end: the names of ino, its parent, ... up to the root. */
	size_t at = size;
	if (!size)
		return false;
	buf[--at] = '\0';
	while (ino != 1) {
		if (ino >= in->n || !in->e[ino].parent)
			return false;
		size_t l = strlen(in->e[ino].name);
		if (l + 1 > at)
			return false;
		at -= l;
		memcpy(buf + at, in->e[ino].name, l);
		ino = in->e[ino].parent;
		if (ino != 1)
			buf[--at] = '/';
	}
	memmove(buf, buf + at, size - at);
	return true;
}

void nm_inodes_detach(nm_inodes *in, uint64_t parent, const char *name)
{
	uint64_t i = find(in, parent, name);
	if (i) {
		unchain(in, i);
		in->e[i].parent = 0;
	}
}

bool nm_inodes_rename(nm_inodes *in, uint64_t parent, const char *name,
		      uint64_t newparent, const char *newname)
{
	uint64_t i = find(in, parent, name);
	char *copy = strdup(newname);
	if (!copy)
		return false;
	nm_inodes_detach(in, newparent, newname);
	if (!i) {
		free(copy);
		return true;
	}
	unchain(in, i);
	free(in->e[i].name);
	in->e[i].name = copy;
	in->e[i].parent = newparent;
	chain(in, i);
	return true;
}

uint64_t nm_inodes_end(const nm_inodes *in) { return in->n; }
