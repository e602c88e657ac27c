/* The FUSE low-level operations over an nm_tree. Inode numbers are node pointers (the
 * tree never frees a node while mounted); the root is FUSE_ROOT_ID. */
#ifndef NM_FUSE_OPS_H
#define NM_FUSE_OPS_H

#include <stdbool.h>
#include <sys/stat.h>
#include "fuse/options.h"
#include "lib/tree.h"

typedef struct nm_fs {
	nm_tree *tree;
	struct stat source;     /* owner and times shown on every node */
	bool foreground;        /* errors go to stderr; in the background to syslog too */
} nm_fs;

extern const struct fuse_lowlevel_ops nm_fuse_ops;

#endif
