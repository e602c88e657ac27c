/* What the apply tests share: a tree opened for editing, the own-bytes check (every
 * record file and vertex CSV, given its own bytes, is no edit), and one edit applied in
 * memory. */
#ifndef TESTS_APPLY_UTIL_H
#define TESTS_APPLY_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "edit/apply.h"
#include "lib/tree.h"

/* The tree of d[0..len) as the file name, opened for editing. */
nm_tree *apply_editable_tree(const uint8_t *d, size_t len, const char *name);
/* Every file of t with an inverse (records, CSVs; not slices or PNGs) given its own
 * bytes: no patch, no refusal (failures printed with file's name); at least
 * want_at_least of them. Returns how many were checked. */
size_t check_own_bytes(nm_tree *t, const char *file, size_t want_at_least);
/* The same for the model file at path (opened for editing). */
size_t check_file_own_bytes(const char *path, const char *name, size_t want_at_least);
/* check_file_own_bytes for every file of the corpus folder dir whose name ends in one
 * of exts (NULL-terminated); returns how many (none: the folder is missing, it said
 * so, and the caller's case is skipped). */
size_t check_corpus_own_bytes(const char *dir, const char *const *exts, size_t want_at_least);
/* The first of a's problems ("SHOWN:LINE: FIELD: why") into buf, "" when none. */
void apply_first_problem(const nm_apply *a, char *buf, size_t len);
/* path's text with the line of key replaced by "key: value" (the key must be there). */
char *with_line(nm_tree *t, const char *path, const char *key, const char *value,
		size_t *len);
/* The new model's bytes after path became bytes[0..len), or NULL with *problems set. */
uint8_t *apply_bytes(nm_tree *t, const char *path, const uint8_t *bytes, size_t len,
		     size_t *out_len, size_t *problems);
/* The same for one line changed (with_line). */
uint8_t *apply_one(nm_tree *t, const char *path, const char *key, const char *value,
		   size_t *out_len, size_t *problems);

#endif
