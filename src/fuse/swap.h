/* The tree a writable mount shows, swapped for the tree of the new model after each
 * save: counted views (writable.h), and a thread that then drops what the kernel
 * cached of the files (their pages and attributes: FUSE notify), away from the request
 * that saved, so that a reader the kernel holds on a locked page is answered first. */
#ifndef NM_FUSE_SWAP_H
#define NM_FUSE_SWAP_H

#include "fuse/writable.h"

/* The view shown now, held (under w->lock or not: it takes it). */
nm_view *nm_view_hold(nm_wfs *w);
void nm_view_drop(nm_wfs *w, nm_view *v);
/* Show t (owned: freed with its view; NULL: the base tree again). */
int nm_view_swap(nm_wfs *w, nm_tree *t);

int nm_swap_start(nm_wfs *w, struct fuse_session *se);
void nm_swap_stop(nm_wfs *w);

#endif
