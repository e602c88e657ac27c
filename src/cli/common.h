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
/* FILE's tree (*t) and the node at PATH in it; or NULL after one line naming both, with
 * nothing left to free. */
nm_node *nm_cli_open_path(const char *file, const char *path, const nm_options *opt,
			  nm_tree **t);
/* fn for each child of dir, with the child's path (path/name; "/name" under "/"), going
 * on after a failure. A directory that failed to populate still has its children (its
 * error.txt says why): its failure is printed. Returns NM_EXIT_FAIL when that or any
 * call failed. */
typedef int (*nm_cli_child_fn)(nm_tree *t, nm_node *child, const char *path, void *ctx);
int nm_cli_each_child(nm_tree *t, nm_node *dir, const char *path, nm_cli_child_fn fn,
		      void *ctx);
/* Write a file node to fd; errors are printed, naming the file as shown. */
int nm_cli_copy(nm_tree *t, nm_node *n, int fd, const char *shown);
/* mkdir: a directory that exists already is fine. 0, or -1 after printing why not. */
int nm_cli_make_dir(const char *path);
/* mkdir -p: path and its missing parents, the same way. */
int nm_cli_make_dirs(const char *path);

#endif
