/* Handing the kernel the bytes it will ask for next. A cold read of a tree is mostly one
 * READ round trip per small file, and most small files are at hand (nm_node_at_hand):
 * headers, records and info.txt are text the tree already holds, a chunk's raw bytes are
 * one pread of the model file, an index list or a vertex CSV formats a few bytes of it.
 * So when a directory's first file is READ, the small files at hand beside it and in its
 * subdirectories (one level down) are stored in the kernel's page cache
 * (FUSE_NOTIFY_STORE): reading them then sends no request. When a reader then enters a
 * second subdirectory of the same directory, it is walking it (find, cp -r, grep -r), and
 * the rest of that directory's subdirectories are pushed too, each one level down. A
 * listing alone pushes nothing (ls -lR costs what it did).
 *
 * The pushes run on a thread of their own, never on a request's: storing into a page
 * waits for a READ of that page already in flight, which only a request thread can
 * answer (with -s, the only one). Nothing is decompressed, decoded or opened for them:
 * a texture's PNG, a compressed buffer's CSV and an archive member's files wait for
 * their own READ, or for ahead.c: one it produces for a reader walking its directory is
 * handed to the kernel the same way, within the same budget (nm_fuse_prefill_push). */
#ifndef NM_FUSE_PREFILL_H
#define NM_FUSE_PREFILL_H

#include <stdint.h>
#include "fuse/ops.h"

/* A file larger than this is left to READ: the push only pays for small files, whose
 * round trip costs more than their bytes. */
#define NM_FUSE_PREFILL_MAX (64u * 1024u)

/* Start the pushing thread (after fuse_daemonize: threads do not cross its fork). budget:
 * bytes of page cache it may fill over the mount's life (cache_size, the memory the user
 * let the mount use for caching, counted in whole pages), so that reading through a
 * 50,000-asset PAK does not fill the page cache with files nobody reads; once it is spent,
 * every file is READ on first use. 0: no prefill (-o noprefill). Returns 0, or -1 when
 * the thread cannot start (the mount then works without it). */
int nm_fuse_prefill_start(nm_fuse_fs *fs, uint64_t budget);
/* Stop and join the thread (after the session loop has ended). */
void nm_fuse_prefill_stop(nm_fuse_fs *fs);
/* Called when a READ of file comes: the first time for its directory, queue the
 * directory for the thread, which pushes the others (file's own pages are locked until
 * its READ is answered). Never waits. */
void nm_fuse_prefill_ask(nm_fuse_fs *fs, nm_node *file);
/* Push file, a lazy file just produced ahead of its reader (ahead.c: a texture's PNG,
 * which the prefill itself never decodes, mesh.obj, model.glb) or a slice of the model
 * at hand (a chunk's raw.bin too large for the prefill's own pushes), when it is at most
 * NM_FUSE_MAX_REQUEST bytes (up to a few READs: a larger one's READs cost little beside
 * its production), within the same budget, so that its READs are not sent either. Not
 * from a request's thread (see above); nothing without the prefill (-o noprefill,
 * -o rw). */
void nm_fuse_prefill_push(nm_fuse_fs *fs, nm_node *file);

#endif
