/* The FUSE low-level operations over an nm_tree. Inode numbers are node ids, stable
 * while the tree evicts and brings back archive members' nodes (nm_node_get); the
 * root's is 1, FUSE_ROOT_ID. The handlers are
 * fs_* (static, in ops.c), apart from the library's nm_* that they call. */
#ifndef NM_FUSE_OPS_H
#define NM_FUSE_OPS_H

#include <stdbool.h>
#include <sys/stat.h>
#include "fuse/idle.h"
#include "fuse/options.h"
#include "lib/tree.h"

/* The largest read the kernel is asked to send at once (and to read ahead). */
#define NM_FUSE_MAX_REQUEST (1024u * 1024u)

typedef struct nm_fuse_fs {
	nm_tree *tree;
	struct stat source;     /* owner and times shown on every node */
	const char *path;       /* the model as the user gave it, for messages */
	bool no_open;           /* the kernel opens files itself (fs_init) */
	bool no_opendir;        /* and directories */
	struct fuse_session *se; /* for pushing bytes to the kernel (prefill.h) */
	struct nm_fuse_prefill *prefill; /* the pushing thread (prefill.h), or NULL */
	struct nm_fuse_ahead *ahead; /* the producing-ahead thread (ahead.h), or NULL */
	nm_fuse_idle *idle;     /* -o idle_timeout's watch (idle.h), or NULL: then opens and
				 * releases count as uses of the mount */
	struct nm_wfs *writable; /* -o rw: the writable mount (wops.h), or NULL */
} nm_fuse_fs;

/* Log a library message, naming the model by the path the user gave. */
void nm_fuse_say_error(const nm_fuse_fs *fs, const nm_error *err);

/* st zeroed but for what every node shows of the model file: its owner and times. */
void nm_fuse_stat_source(const nm_fuse_fs *fs, uint64_t ino, struct stat *st);

extern const struct fuse_lowlevel_ops nm_fuse_ops;

#endif
