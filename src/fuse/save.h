/* Each save of a writable mount encoded into the model (doc/writable.md): the edits
 * the overlay holds, their states, and the save itself, through src/edit as nmodel
 * apply does it. Called with w->lock held where it says so, else without. */
#ifndef NM_FUSE_SAVE_H
#define NM_FUSE_SAVE_H

#include "fuse/writable.h"
#include "lib/out.h"

/* Whether path is a file of the model's tree (an edit when written), under w->lock. */
bool nm_save_maps(nm_wfs *w, const char *path);
/* The edit of path, or NULL; under w->lock. */
nm_wedit *nm_save_edit(nm_wfs *w, const char *path);
/* path was written: its bytes are the user's until saved; under w->lock. */
void nm_save_writing(nm_wfs *w, const char *path);
/* path's edit is gone (unlinked) or moved to to (NULL: gone); returns whether the
 * model held it (then a save without it is due: nm_save(w, NULL)); under w->lock. */
bool nm_save_move(nm_wfs *w, const char *path, const char *to);
/* Encode the edit of path (NULL: none new) with every edit already encoded, write the
 * new model (to -o save=OUT, if given) and show its tree. 0, or EINVAL when path's
 * edit cannot be encoded (it is then refused: /edits.txt says why, the model stays as
 * it was), or EIO when the new model could not be written. Without w->lock. */
int nm_save(nm_wfs *w, const char *path);
/* Every edit of a resumed overlay (-o overlay=DIR of an earlier mount), saved in turn. */
void nm_save_resume(nm_wfs *w);
/* /edits.txt: one line per edit, "PATH: encoded", "PATH: being written", or
 * "PATH: refused: PROBLEM" per problem (nmodel apply's lines); under w->lock. */
void nm_save_report(nm_wfs *w, nm_out *o);

#endif
