/* Handing the kernel the bytes it will ask for next: a cold read of a freshly listed
 * tree is mostly one READ round trip per small file, and most small files (headers,
 * records, info.txt) are text the tree already holds. */
#ifndef NM_FUSE_PREFILL_H
#define NM_FUSE_PREFILL_H

#include <stddef.h>
#include "fuse/ops.h"

/* A text file larger than this is left to READ: the push only pays for small files,
 * whose round trip costs more than their bytes. */
#define NM_FUSE_PREFILL_MAX (64u * 1024u)

/* Store the bytes of dir's text children (count of them in kids) in the kernel's page
 * cache (FUSE_NOTIFY_STORE), so that reading them sends no request. Called once the
 * kernel has every entry of dir (it asks for the end of the listing only after taking
 * in the entries before it, so their inodes exist). Produces nothing: only bytes made
 * when the directory was built are sent. A refusal by the kernel (an inode it already
 * forgot) costs the push of that file, nothing else. The pages pushed over the mount's
 * life come out of fs->prefill_left (cache_size at mount: the memory the user let the
 * mount use for caching), so that listing a 50,000-asset PAK does not fill the page
 * cache with files nobody reads; once spent, text files are READ like the others. */
void nm_fuse_prefill_texts(nm_fuse_fs *fs, nm_node *const *kids, size_t count);

#endif
