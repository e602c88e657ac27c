#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "formats/driver.h"
#include "tests/walk.h"

static void walk_dir(nm_tree *t, nm_node *dir, walk_stats *st)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	st->dirs++;
	/* A lazy directory that failed to populate still holds what it added. */
	if (nm_children(t, dir, &kids, &n, &err) != NM_OK)
		st->failed++;
	for (size_t i = 0; i < n; i++) {
		if (nm_node_type(kids[i]) == NM_NODE_DIR) {
			walk_dir(t, kids[i], st);
			continue;
		}
		st->files++;
		uint64_t size, off = 0;
		if (nm_size(t, kids[i], &size, &err) != NM_OK) {
			st->failed++;
			continue;
		}
		char buf[65536];
		size_t got;
		nm_status s;
		while ((s = nm_read(t, kids[i], off, buf, sizeof buf, &got, &err)) == NM_OK && got)
			off += got;
		/* The tree reports a producer that wrote other than its announced size as
		 * a failed read; that is a mismatch, not a tolerable error. */
		if (s != NM_OK && strstr(err.msg, "internal error: produced"))
			st->size_mismatches++;
		else if (s != NM_OK)
			st->failed++;
		else if (off != size)
			st->size_mismatches++;
		st->bytes += off;
	}
}

void walk_tree(nm_tree *t, walk_stats *st)
{
	memset(st, 0, sizeof *st);
	walk_dir(t, nm_tree_root(t), st);
}

char *walk_read(nm_tree *t, const char *path, size_t *len)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	size_t got;
	if (nm_resolve(t, path, &n, &err) != NM_OK || nm_size(t, n, &size, &err) != NM_OK)
		return NULL;
	char *buf = malloc(size + 1);
	if (!buf || nm_read(t, n, 0, buf, size, &got, &err) != NM_OK || got != size) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	if (len)
		*len = size;
	return buf;
}

nm_status walk_build(const void *bytes, size_t len, const char *name, nm_tree **out,
		     nm_error *err)
{
	nm_reader *r;
	void *copy = malloc(len ? len : 1);
	memcpy(copy, bytes, len);
	nm_status s = nm_reader_new_memory(name, copy, len, &r, err);
	if (s != NM_OK)
		return s;
	nm_tree *t = nm_tree_new(NULL);
	nm_tree_adopt_reader(t, r);
	s = nm_build_any(r, t, nm_tree_root(t), err);
	if (s != NM_OK) {
		nm_tree_free(t);
		return s;
	}
	*out = t;
	return NM_OK;
}

uint8_t *walk_load_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *b = NULL;
	long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)size + 1)) &&
	    fread(b, 1, (size_t)size, f) != (size_t)size) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b)
		*len = (size_t)size;
	return b;
}

char *walk_corpus_dir(const char *dir)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	struct stat st;
	snprintf(path, sizeof path, "%s/../shared/corpus/%s", top ? top : ".", dir);
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		printf("corpus folder %s not found: its cases are skipped\n", path);
		return NULL;
	}
	return strdup(path);
}
