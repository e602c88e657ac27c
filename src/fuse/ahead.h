/* Producing ahead of a reader, on the core a cold read leaves idle. A READ of a file
 * not produced is answered with a range (tree.h: mesh.obj's lines, model.glb's prefix,
 * made alone), unless it starts the file and goes past its head (cat, cp): then the
 * file is made whole at once (ops.c). Once READs go past the file's head elsewhere (a
 * seek), the reader wants all of it: this thread produces it whole into the cache
 * meanwhile, so the next READs wait only for what is left of it. And when a reader walks a directory (READs a second file there,
 * or one past its head), the large files after that one (those the prefill leaves to
 * READ: decoded textures, meshes, model.glb) are produced in listing order, the order
 * find, cp -r and file managers read them in, while the reader is busy with the
 * first: within half of cache_size per directory (more would be evicted before it is
 * read), never for a listing alone (only a READ starts it), and dropped as soon as a
 * READ comes from another directory (the reader has left: its next files are
 * elsewhere). A file made so, of at most NM_FUSE_MAX_REQUEST bytes, is pushed into the
 * page cache (prefill.h's budget), so its READs are not sent either. A reader whose READs come from
 * a second subdirectory of a directory, a few levels below it (the prefill leaves the
 * reader's READs to deeper directories' first files), walks its tree (find, cp -r) and
 * reads its own files after its subdirectories': its large files after that
 * subdirectory are produced too, while the reader stays below it. */
#ifndef NM_FUSE_AHEAD_H
#define NM_FUSE_AHEAD_H

#include <stddef.h>
#include <stdint.h>
#include "fuse/ops.h"

/* Start the thread (after fuse_daemonize), with cache_size bytes of cache to fill.
 * Returns 0, or -1 when it cannot start (the mount then works without it). */
int nm_fuse_ahead_start(nm_fuse_fs *fs, uint64_t cache_size);
/* Stop and join it (after the session loop has ended). */
void nm_fuse_ahead_stop(nm_fuse_fs *fs);
/* A file's head: READs within it are answered by ranges and the file is not produced
 * whole for them (head -c, a file manager's sniffing, and the kernel's read-ahead after
 * them, stay within it); a READ past it is a reader reading the file through. */
#define NM_FUSE_AHEAD_HEAD (64u * 1024u)

/* A READ of size bytes at off of file was answered: queue what it calls for. Never
 * waits. */
void nm_fuse_ahead_ask(nm_fuse_fs *fs, nm_node *file, uint64_t off, size_t size);

#endif
