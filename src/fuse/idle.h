/* -o idle_timeout=SECONDS: the daemon unmounts itself once nothing has used the mount for
 * that long: no request in progress or answered since, no file or directory open. A
 * mount opened from a file manager (data/nmodelfs.desktop) then goes away by itself.
 *
 * What counts as use: the request loop (fuse/loop.c) brackets every request, and an
 * OPEN or OPENDIR counts until its RELEASE (with a timeout the kernel sends every open
 * to the daemon: fs_init gives up the no-open shortcut). What the daemon cannot see, a
 * process whose working directory is inside the mount, is left to the kernel: the
 * unmount is an ordinary one, which fails while the mount is in use, and is tried again
 * after another idle period. A lazy unmount would take the tree from under it. */
#ifndef NM_FUSE_IDLE_H
#define NM_FUSE_IDLE_H

typedef struct nm_fuse_idle nm_fuse_idle;

/* Start watching: a thread that unmounts mountpoint (absolute) once the mount has been
 * unused for seconds (> 0). Call after fuse_daemonize (threads do not cross its fork).
 * NULL when the thread cannot start. */
nm_fuse_idle *nm_fuse_idle_start(const char *mountpoint, unsigned seconds);
/* Stop and join the thread (after the session loop has ended), free it; NULL: nothing. */
void nm_fuse_idle_stop(nm_fuse_idle *idle);

/* A use begins (a request read from the kernel, a file or directory opened) or ends (the
 * request answered, the file released). Never wait; NULL does nothing. */
void nm_fuse_idle_use(nm_fuse_idle *idle);
void nm_fuse_idle_unuse(nm_fuse_idle *idle);

#endif
