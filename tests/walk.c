#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "formats/driver.h"
#include "tests/walk.h"

#define WALK_PATH_MAX 4096

typedef struct walk_ctx {
	nm_tree *t;
	const walk_opts *o;
	walk_stats *st;
	char path[WALK_PATH_MAX];
} walk_ctx;

/* err was cleared before the call that failed: an empty message is a refusal that
 * tells the user nothing (nmodel would print "nmodel: "). */
static void failed(walk_ctx *w, walk_step step, nm_status s, const nm_error *err)
{
	if (!err->msg[0])
		w->st->unexplained++;
	if (w->o->on_failure)
		w->o->on_failure(w->o->ctx, step, w->path, s, err);
}

/* A range read before its file is produced (check_ranges): where, and its bytes. */
typedef struct walk_range {
	uint64_t off;
	size_t len;
	uint8_t *bytes;
} walk_range;

#define WALK_RANGES 2

/* The head and a second range of a file with a range producer, not produced yet: read
 * now (by range), compared once the whole file is read. Its whole production then comes
 * first, so the reads after it come from the cache, not by ranges. */
static bool read_ranges(walk_ctx *w, nm_node *k, uint64_t size, walk_range *r)
{
	/* A file past max_file_size is never produced whole: nothing to compare. */
	if (!w->o->check_ranges || !nm_node_ranged(w->t, k) || nm_node_produced(w->t, k) ||
	    size > nm_tree_options(w->t)->max_file_size)
		return false;
	/* The middle of a small file, 64 KiB into a large one: a range's cost grows with its
	 * end for a stream's prefix, and the whole production follows anyway. */
	uint64_t at[WALK_RANGES] = { 0, size / 2 < 65536 ? size / 2 : 65536 };
	size_t want[WALK_RANGES] = { 16384, 300 };
	for (int i = 0; i < WALK_RANGES; i++) {
		nm_read_hold h;
		nm_error err;
		r[i] = (walk_range){ at[i], 0, NULL };
		if (nm_read_pin(w->t, k, at[i], want[i], &h, &err) != NM_OK)
			continue;   /* the whole read below meets the failure again */
		if ((r[i].bytes = malloc(h.len ? h.len : 1)) != NULL && h.len) {
			memcpy(r[i].bytes, h.data, h.len);
			r[i].len = h.len;
		}
		nm_read_release(w->t, &h);
	}
	nm_error err;
	nm_produce(w->t, k, &err);
	return true;
}

static void compare_ranges(walk_stats *st, walk_range *r, const uint8_t *data, uint64_t size)
{
	for (int i = 0; i < WALK_RANGES; i++) {
		if (r[i].bytes && data && (r[i].off + r[i].len > size ||
					   memcmp(r[i].bytes, data + r[i].off, r[i].len) != 0))
			st->range_mismatches++;
		free(r[i].bytes);
	}
}

/* Read the file at w->path whole, in the pieces a FUSE read would ask for. */
static void read_file(walk_ctx *w, nm_node *k, uint64_t size)
{
	walk_stats *st = w->st;
	nm_error err;
	nm_error_clear(&err);
	char buf[65536];
	size_t got;
	uint64_t off = 0;
	nm_status s;
	walk_range ranges[WALK_RANGES];
	bool ranged = read_ranges(w, k, size, ranges);
	/* The bytes, only for a caller that looks at them. */
	uint8_t *data = w->o->on_file || ranged ? malloc(size + 1) : NULL;
	while ((s = nm_read(w->t, k, off, buf, sizeof buf, &got, &err)) == NM_OK && got) {
		if (data && off + got <= size)
			memcpy(data + off, buf, got);
		off += got;
	}
	/* The tree reports a producer that wrote other than its announced size as
	 * a failed read; that is a mismatch, not a tolerable error. (By its status: a
	 * name in a message may say anything.) */
	if (s == NM_E_INTERNAL)
		st->size_mismatches++;
	else if (s != NM_OK)
		st->failed++;
	else if (off != size)
		st->size_mismatches++;
	if (s != NM_OK)
		failed(w, WALK_READ, s, &err);
	else if (data && off == size && w->o->on_file)
		w->o->on_file(w->o->ctx, w->t, w->path, data, (size_t)size);
	if (ranged)
		compare_ranges(st, ranges, s == NM_OK && off == size ? data : NULL, size);
	st->bytes += off;
	free(data);
}

static void walk_dir(walk_ctx *w, nm_node *dir, size_t plen, unsigned depth)
{
	walk_stats *st = w->st;
	nm_node **kids;
	size_t n;
	nm_error err;
	nm_error_clear(&err);
	st->dirs++;
	if (depth > st->depth)
		st->depth = depth;
	/* A lazy directory that failed to populate still holds what it added. */
	nm_status s = nm_children(w->t, dir, &kids, &n, &err);
	if (s != NM_OK) {
		st->failed++;
		failed(w, WALK_LIST, s, &err);
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = nm_node_name(kids[i]);
		size_t l = plen + 1 + strlen(name);
		if (l >= sizeof w->path)
			continue;
		w->path[plen] = '/';
		memcpy(w->path + plen + 1, name, strlen(name) + 1);
		if (nm_node_type(kids[i]) == NM_NODE_DIR) {
			walk_dir(w, kids[i], l, depth + 1);
			continue;
		}
		st->files++;
		uint64_t size;
		nm_error_clear(&err);
		if ((s = nm_size(w->t, kids[i], &size, &err)) != NM_OK) {
			st->failed++;
			failed(w, WALK_SIZE, s, &err);
			continue;
		}
		if (!w->o->sizes_only && (!w->o->read_if || w->o->read_if(w->o->ctx, w->path, size)))
			read_file(w, kids[i], size);
	}
	w->path[plen] = '\0';
}

void walk_tree_opts(nm_tree *t, const walk_opts *o, walk_stats *st)
{
	static const walk_opts none;
	walk_ctx *w = malloc(sizeof *w);
	if (!w)
		abort();
	w->t = t;
	w->o = o ? o : &none;
	w->st = st;
	w->path[0] = '\0';
	memset(st, 0, sizeof *st);
	walk_dir(w, nm_tree_root(t), 0, 0);
	free(w);
}

void walk_tree(nm_tree *t, walk_stats *st)
{
	walk_tree_opts(t, NULL, st);
}

bool walk_exists(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	return nm_resolve(t, path, &n, &err) == NM_OK;
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
	return walk_build_with(bytes, len, name, NULL, out, err);
}

nm_status walk_build_with(const void *bytes, size_t len, const char *name,
			  const nm_options *opt, nm_tree **out, nm_error *err)
{
	nm_reader *r;
	void *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	if (len)
		memcpy(copy, bytes, len);
	nm_status s = nm_reader_new_memory(name, copy, len, &r, err);
	if (s != NM_OK)
		return s;
	nm_tree *t = nm_tree_new(opt);
	if (!t || nm_tree_adopt_reader(t, r) != NM_OK)
		abort();
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

unsigned walk_count_lines(const char *text, const char *prefix)
{
	unsigned n = 0;
	size_t l = strlen(prefix);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += strncmp(p, prefix, l) == 0;
	return n;
}
