/* Test helper: walk a whole tree as a mount would (list, stat, read every file) and
 * check that every file yields exactly its announced size. */
#ifndef NM_TEST_WALK_H
#define NM_TEST_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/tree.h"

typedef struct walk_stats {
	size_t dirs, files, failed;      /* failed: produce/read errors (allowed for bad input) */
	size_t size_mismatches;          /* never allowed */
	size_t range_mismatches;         /* check_ranges: a range not its whole file's bytes */
	size_t unexplained;              /* failures whose error says nothing: never allowed */
	uint64_t bytes;
	unsigned depth;                  /* deepest directory below the root */
} walk_stats;

/* The step of a walk that failed, for a test that tolerates some and not others. */
typedef enum walk_step { WALK_LIST, WALK_SIZE, WALK_READ } walk_step;

/* What a test asks of a walk beyond the counts; every field may stay zero. One walker
 * for every driver's tests, so "read all of it as a mount would" means the same
 * everywhere (test_cmb, test_j3d, the damaged-input tests, sweep; test_rfrm). */
typedef struct walk_opts {
	bool sizes_only;   /* list and stat, read nothing (what ls -lR does) */
	/* In a tree that allows ranges (nm_tree_allow_ranges), each file with a range
	 * producer not produced yet: its head and a range in its middle (at most 64 KiB in)
	 * read first (made by range), then the whole file, and the ranges compared with it
	 * (fuzz targets). */
	bool check_ranges;
	/* Which files to read (NULL: all); the others are stat'ed only. A fuzz target
	 * keeps its executions cheap so (tests/fuzz/run_driver.h). */
	bool (*read_if)(void *ctx, const char *path, uint64_t size);
	/* Each failed listing, stat or read, with the node's path ("/tex/a.png"). */
	void (*on_failure)(void *ctx, walk_step step, const char *path, nm_status s,
			   const nm_error *err);
	/* Each file that read whole at its announced size, with its bytes. */
	void (*on_file)(void *ctx, nm_tree *t, const char *path, const uint8_t *data,
			size_t len);
	void *ctx;
} walk_opts;

void walk_tree(nm_tree *t, walk_stats *st);
void walk_tree_opts(nm_tree *t, const walk_opts *o, walk_stats *st);
/* Whether path resolves (nothing is produced). */
bool walk_exists(nm_tree *t, const char *path);
/* Whole content of path (malloc'd, NUL-terminated) or NULL. */
char *walk_read(nm_tree *t, const char *path, size_t *len);
/* Build a tree over a copy of bytes in memory (name used in messages). */
nm_status walk_build(const void *bytes, size_t len, const char *name, nm_tree **out,
		     nm_error *err);
/* The same under opt (NULL: the defaults). */
nm_status walk_build_with(const void *bytes, size_t len, const char *name,
			  const nm_options *opt, nm_tree **out, nm_error *err);
/* The whole file at path (malloc'd) and its length, or NULL. */
uint8_t *walk_load_file(const char *path, size_t *len);
/* Lines of text that start with prefix ("f " in an OBJ). */
unsigned walk_count_lines(const char *text, const char *prefix);
/* ../shared/corpus/<dir>, or NULL (with a line on stdout) when absent. */
char *walk_corpus_dir(const char *dir);

#endif
