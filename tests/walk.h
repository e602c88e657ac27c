/* Test helper: walk a whole tree as a mount would (list, stat, read every file) and
 * check that every file yields exactly its announced size. */
#ifndef NM_TEST_WALK_H
#define NM_TEST_WALK_H

#include <stddef.h>
#include <stdint.h>
#include "lib/tree.h"

typedef struct walk_stats {
	size_t dirs, files, failed;      /* failed: produce/read errors (allowed for bad input) */
	size_t size_mismatches;          /* never allowed */
	uint64_t bytes;
} walk_stats;

void walk_tree(nm_tree *t, walk_stats *st);
/* Whole content of path (malloc'd, NUL-terminated) or NULL. */
char *walk_read(nm_tree *t, const char *path, size_t *len);
/* Build a tree over a copy of bytes in memory (name used in messages). */
nm_status walk_build(const void *bytes, size_t len, const char *name, nm_tree **out,
		     nm_error *err);
/* The whole file at path (malloc'd) and its length, or NULL. */
uint8_t *walk_load_file(const char *path, size_t *len);
/* ../shared/corpus/<dir>, or NULL (with a line on stdout) when absent. */
char *walk_corpus_dir(const char *dir);

#endif
