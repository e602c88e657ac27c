/* Edits of a folder (doc/apply.md "Folders"). A folder is no one file to write: each
 * member file (a model or archive file inside it, at REL below it) is applied on its
 * own, with the same nm_apply over the folder's tree, scoped to that member, and its
 * new bytes go to OUTDIR/REL. Members nobody edited are not written, and the folder
 * itself is only ever read. Used by nmodel apply FOLDER and by a folder's writable
 * mount; no format knowledge. Not locked: one caller at a time. */
#ifndef NM_EDIT_FOLDER_H
#define NM_EDIT_FOLDER_H

#include "edit/apply.h"

typedef struct nm_folder_apply nm_folder_apply;

/* Edits of t, the tree of folder (opened with nm_options.editable). */
nm_folder_apply *nm_folder_apply_new(nm_tree *t, const char *folder);
void nm_folder_apply_free(nm_folder_apply *f);

/* The member file that path (of the folder's tree) lies in, into rel: path up to its
 * first part that is a regular file of the folder on disk; "" when none. */
void nm_folder_member(const nm_folder_apply *f, const char *path, char *rel, size_t size);

/* path now holds bytes[0..len): nm_apply_file on its member's apply (made on first
 * use). A path in no member is a problem. */
nm_status nm_folder_apply_file(nm_folder_apply *f, const char *path, const uint8_t *bytes,
			       size_t len, const char *shown, nm_error *err);
/* Member rel's edits are dropped (NULL: every member's, and the problems of paths in
 * none); new bytes stay shown until the member is encoded again. A writable mount
 * applies a member's edits afresh at each save. */
void nm_folder_apply_forget(nm_folder_apply *f, const char *rel);
/* The i-th member shown with new bytes (its REL), or NULL past the last. */
const char *nm_folder_apply_shown(const nm_folder_apply *f, size_t i);

size_t nm_folder_apply_edits(const nm_folder_apply *f);
size_t nm_folder_apply_problems(const nm_folder_apply *f);
/* The problems of every member, as nm_apply_each_problem says them. */
void nm_folder_apply_each_problem(const nm_folder_apply *f,
				  void (*fn)(const char *line, void *ctx), void *ctx);
/* The changes of every member, as nm_apply_each_change says them, each line after
 * "REL: " when the member's name is not already its start. */
void nm_folder_apply_each_change(const nm_folder_apply *f,
				 void (*fn)(const char *line, void *ctx), void *ctx);

/* Encode member rel (NULL: every member with edits): its new bytes are kept (shown by
 * nm_folder_apply_open and written by nm_folder_apply_write); a member whose edits
 * change nothing is its own file again. *changed: whether rel changes (NULL: any).
 * NM_E_INVAL: problems (each_problem), nothing kept of this encode. */
nm_status nm_folder_apply_encode(nm_folder_apply *f, const char *rel, bool *changed,
				 nm_error *err);
/* The new bytes of member rel encoded since its last write (NULL: every such member)
 * written whole to outdir/REL, folders made as needed: all are written to temporary
 * files and checked first (nm_apply_stage, against the folder showing every member's
 * new bytes), then renamed in turn, so a refusal writes none. A member written before
 * whose edits now come to nothing is its own file again: its outdir/REL goes. outdir
 * NULL: checked only. Only then does nm_folder_apply_open show them. NM_E_INVAL: the
 * check found problems (the members keep the bytes they had). */
nm_status nm_folder_apply_write(nm_folder_apply *f, const char *rel, const char *outdir,
				const nm_options *opt, nm_error *err);
/* A tree of the folder showing each member's new bytes (a copy of opt). */
nm_status nm_folder_apply_open(const nm_folder_apply *f, const nm_options *opt,
			       nm_tree **t, nm_error *err);

#endif
