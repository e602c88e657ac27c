/* The FUSE handlers of a writable mount (-o rw; doc/writable.md): the tree shown (its
 * view, fuse/swap.h) under the overlay (fuse/overlay.h), with inode numbers per path
 * (fuse/inodes.h); a saved file that maps to the model is encoded (fuse/save.h).
 * Without -o rw the read-only handlers of fuse/ops.c serve instead, unchanged. */
#ifndef NM_FUSE_WOPS_H
#define NM_FUSE_WOPS_H

#include "fuse/writable.h"

/* The session's user data is an nm_fuse_fs whose `writable` is set (ops.h). */
extern const struct fuse_lowlevel_ops nm_fuse_wops;

#endif
