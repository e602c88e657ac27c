/* The mount point, checked before libfuse sees it: libfuse's own messages for a bad one
 * are cryptic ("fuse: bad mount point `x': ...") and come after the model was parsed. */
#ifndef NM_FUSE_MOUNTPOINT_H
#define NM_FUSE_MOUNTPOINT_H

/* dir exists, is a directory and has nothing mounted on it. Returns its absolute path
 * (malloc'd: what libfuse mounts on, as its own parser would have made it), or NULL after
 * printing one line that names dir as given. */
char *nm_fuse_check_mountpoint(const char *dir);

#endif
