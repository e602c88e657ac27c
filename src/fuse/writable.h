/* What the writable mount's files share (doc/writable.md): the model's tree every save
 * encodes from, the tree shown (swapped after each save), the overlay, the inode
 * numbers and the state of each edit. One lock guards all of it for short steps; a
 * save (an encode) holds only save_lock, so readers go on meanwhile. */
#ifndef NM_FUSE_WRITABLE_H
#define NM_FUSE_WRITABLE_H

#include "fuse/options.h" /* first: FUSE_USE_VERSION */
#include <pthread.h>
#include <stdbool.h>
#include "fuse/inodes.h"
#include "fuse/overlay.h"
#include "lib/tree.h"

/* A tree shown, counted: open files keep the one they opened until released, so a
 * reader sees a file's old bytes or its new ones, never a mix. */
typedef struct nm_view {
	nm_tree *t;
	unsigned refs;
	bool owns;          /* t is freed with the view (not the base tree) */
} nm_view;

typedef enum nm_edit_state { NM_EDIT_WRITING, NM_EDIT_ENCODED, NM_EDIT_REFUSED } nm_edit_state;

/* A file of the model's tree that the overlay holds. */
typedef struct nm_wedit {
	char *path;
	nm_edit_state state;
	char *why;          /* NM_EDIT_REFUSED: the problems, one a line */
} nm_wedit;

typedef struct nm_wfs {
	pthread_mutex_t lock;      /* everything below but base and save */
	pthread_mutex_t save_lock; /* one save at a time (fuse/save.c) */
	nm_tree *base;             /* the model file's tree, opened for editing */
	nm_view *view;             /* the tree shown */
	nm_inodes *inodes;
	nm_overlay *overlay;
	nm_wedit *edits;
	size_t nedits, capedits;
	const char *source;        /* the model file, as given */
	const char *save;          /* -o save=OUT, or NULL */
	nm_options opt;            /* the base tree's, for every tree a save opens */
	struct nm_swap *swap;      /* the thread that drops the kernel's caches (swap.c) */
	struct nm_folder_apply *folder; /* a folder's mount: its members' edits, or NULL */
} nm_wfs;



/* The writable mount over base (opened with nm_options.editable; the caller frees it
 * after nm_wfs_close): its overlay made or resumed (every edit it holds saved again, so
 * that OUT and the tree shown follow it). NULL with err set. */
nm_wfs *nm_wfs_open(nm_tree *base, const nm_options *opt, const char *source,
		    const char *save, const char *overlay, nm_error *err);
void nm_wfs_close(nm_wfs *w);
#endif
