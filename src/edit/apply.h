/* Edits written back (doc/apply.md): the files of a tree, edited, in; the model file's
 * new bytes out. This layer knows no format, as the FUSE layer knows none: each edited
 * file's inverse (lib/edit.h) says what it changes, here those changes are checked
 * against each other and carried up through windows (archive members) and compressed
 * streams (encoded again) to the bytes of the file the tree was opened from.
 *
 * Called per edited file, so a front end that sees edits one at a time (a writable
 * mount) uses it as nmodel apply does:
 *	a = nm_apply_new(t);
 *	nm_apply_file(a, "mats/0.txt", bytes, len, "work/mats/0.txt", err);   ...each file
 *	nm_apply_encode(a, &out, &changed, err);  then nm_apply_verify on out's tree. */
#ifndef NM_EDIT_APPLY_H
#define NM_EDIT_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"
#include "lib/tree.h"

typedef struct nm_apply nm_apply;

/* Edits of t (opened with nm_options.editable, so its record files have inverses). */
nm_apply *nm_apply_new(nm_tree *t);
void nm_apply_free(nm_apply *a);

/* The file at path in t now holds bytes[0..len); shown names it in messages. The same
 * bytes as the tree's are no edit. An edit that cannot be encoded is a problem
 * (nm_apply_problems), not a status: a status says the model could not be read. */
nm_status nm_apply_file(nm_apply *a, const char *path, const uint8_t *bytes, size_t len,
			const char *shown, nm_error *err);

/* Every edit of a lies under dir of its tree (a member of a folder: edit/folder.h):
 * the check of the new tree counts the chunks that fail there only. */
void nm_apply_set_scope(nm_apply *a, const char *dir);

/* How many edits so far (files whose bytes differ), and how many problems. */
size_t nm_apply_edits(const nm_apply *a);
size_t nm_apply_problems(const nm_apply *a);
/* Each problem, one line: "SHOWN:LINE: FIELD: why" (no line or field where none). */
void nm_apply_each_problem(const nm_apply *a, void (*fn)(const char *line, void *ctx),
			   void *ctx);

/* The new bytes of the file t was opened from, into out, with every edit; *changed
 * false (out empty) when nothing changes. Conflicts and changes that cannot be carried
 * up are problems: then NM_E_INVAL and out is empty. */
nm_status nm_apply_encode(nm_apply *a, nm_out *out, bool *changed, nm_error *err);
/* Each change as --dry-run shows it: the edited file, line and field, the chunk, the
 * byte range and the bytes it encodes to; then what was encoded again on the way up. */
void nm_apply_each_change(const nm_apply *a, void (*fn)(const char *line, void *ctx),
			  void *ctx);

/* Check the tree of the new bytes: every edited file reads back as encoded (its
 * inverse, given the edited bytes again, changes nothing) and no more chunks fail than
 * in t. Failures are problems; returns the count of new ones. */
size_t nm_apply_verify(nm_apply *a, nm_tree *out, nm_error *err);

/* The new bytes b[0..len) as the file out, whole or not at all: written to a temporary
 * file in out's directory, fsynced, opened again as a model under opt and checked
 * (nm_apply_verify; with no edit, and no tree wanted, read back and compared with b:
 * they are the model's own bytes), renamed over out and the directory fsynced. out NULL: the same
 * check of a temporary file in $TMPDIR, which is then unlinked (a front end that shows
 * the new model without saving it). *tree, when tree is not NULL, gets the checked tree
 * of the new bytes (the caller frees it). NM_E_INVAL: the check found problems
 * (nm_apply_each_problem); out is then untouched. */
nm_status nm_apply_write(nm_apply *a, const char *out, const uint8_t *b, size_t len,
			 const nm_options *opt, nm_tree **tree, nm_error *err);

/* nm_apply_write in two steps, for a front end that writes several files all or none
 * (a folder's members: edit/folder.h): nm_apply_stage writes and checks the temporary
 * file; nm_apply_commit renames it over out (out NULL: unlinks it), nm_apply_discard
 * removes it. open, when not NULL, opens the tree the check reads (the folder showing
 * the new bytes as one of its files: tmp is where they are, b[0..len) the bytes);
 * NULL: the temporary file as a model (nm_open_model). */
typedef nm_status (*nm_apply_open_fn)(void *ctx, const char *tmp, const uint8_t *b,
				      size_t len, const nm_options *opt, nm_tree **t,
				      nm_error *err);
typedef struct nm_apply_staged {
	int fd;               /* the temporary file, or -1 */
	char tmp[4200], dir[4096];
	const char *out;
} nm_apply_staged;
nm_status nm_apply_stage(nm_apply *a, const char *out, const uint8_t *b, size_t len,
			 const nm_options *opt, nm_apply_open_fn open, void *ctx,
			 nm_tree **tree, nm_apply_staged *st, nm_error *err);
nm_status nm_apply_commit(nm_apply_staged *st, nm_error *err);
void nm_apply_discard(nm_apply_staged *st);

#endif
