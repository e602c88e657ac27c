/* What the nmodel commands share. Every message goes through nm_cli_error, so each one
 * starts with "nmodel: "; a message about the model names it as the user gave it. */
#ifndef NM_CLI_COMMON_H
#define NM_CLI_COMMON_H

#include <stddef.h>
#include "lib/tree.h"

/* One line on stderr: "nmodel: " and the printf-style text. */
void nm_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Open FILE under opt, or print one line and return NULL. */
nm_tree *nm_cli_open(const char *file, const nm_options *opt);
/* PATH in FILE's tree, or print one line naming both and return NULL. */
nm_node *nm_cli_resolve(nm_tree *t, const char *file, const char *path);
/* The children of dir. A directory that failed to populate is still listed (its
 * error.txt says why): its failure is printed and NM_EXIT_FAIL returned, with *kids and
 * *n set all the same. */
int nm_cli_children(nm_tree *t, nm_node *dir, nm_node ***kids, size_t *n);
/* dir/name into buf (dir "/" gives "/name"), or print why not and return -1. */
int nm_cli_join(char *buf, size_t cap, const char *dir, const char *name);
/* Write a file node to fd; errors are printed, naming the file as shown. */
int nm_cli_copy(nm_tree *t, nm_node *n, int fd, const char *shown);
/* mkdir: a directory that exists already is fine. 0, or -1 after printing why not. */
int nm_cli_make_dir(const char *path);
/* mkdir -p: path and its missing parents, the same way. */
int nm_cli_make_dirs(const char *path);

#endif
