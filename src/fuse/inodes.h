/* Inode numbers of a writable mount: one per path, kept across the trees that a save
 * swaps in (fuse/swap.h), so an unchanged file keeps its number when the model under
 * it is rebuilt. A number names (parent, name); a rename moves it, an unlink detaches
 * it. The root is 1. Not locked: the writable mount's lock guards it (fuse/wops.c). */
#ifndef NM_FUSE_INODES_H
#define NM_FUSE_INODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct nm_inodes nm_inodes;

nm_inodes *nm_inodes_new(void);
void nm_inodes_free(nm_inodes *in);
/* The number of parent/name, made on first use; 0 when out of memory. */
uint64_t nm_inodes_child(nm_inodes *in, uint64_t parent, const char *name);
/* The path of ino from the root without a leading '/' ("" for the root); false when
 * ino is unknown or detached, or the path does not fit. */
bool nm_inodes_path(const nm_inodes *in, uint64_t ino, char *buf, size_t size);
/* parent/name no longer names its number (unlinked, or replaced by a rename). */
void nm_inodes_detach(nm_inodes *in, uint64_t parent, const char *name);
/* The number of parent/name, if any, moves to newparent/newname (whose own is detached). */
bool nm_inodes_rename(nm_inodes *in, uint64_t parent, const char *name,
		      uint64_t newparent, const char *newname);
/* Every number made so far is below this (for dropping the kernel's caches of all). */
uint64_t nm_inodes_end(const nm_inodes *in);

#endif
