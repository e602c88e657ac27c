/* Inverses: how a file of the tree, edited, becomes changes to the model (doc/apply.md).
 *
 * A file that shows bytes of the model can have an inverse beside its producer: given
 * the file's new bytes, it says which bytes of which reader they change (patches), or
 * why they cannot be encoded (refusals naming the line and the field). It knows its
 * own format only; src/edit runs inverses, finds conflicts between them and carries
 * the patches up through archives and compressed wrappers to the file's bytes.
 *
 * Which files have one (nm_node_inverse): every slice (raw.bin, a plain archive member:
 * the same length is a patch; another length, of a slice that is all of its reader (a
 * member), replaces it; of part of one, a layout change, refused); a text file
 * given one with nm_text_inverse; a lazy file whose producer a driver paired with an
 * inverse (nm_tree_invert_producer). Drivers give text files an inverse only in a tree
 * opened for editing (nm_options.editable), so a mount nobody edits pays nothing. */
#ifndef NM_EDIT_H
#define NM_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/reader.h"
#include "lib/tree.h"

/* One change: old_len bytes at off of r become bytes[0..len) (the same length but for
 * nm_edit_replace). */
typedef struct nm_patch {
	nm_reader *r;
	uint64_t off, old_len;
	uint8_t *bytes;      /* owned */
	size_t len;
	unsigned line;       /* of the edited file, 1-based; 0 for a whole file */
	char *field;         /* what the bytes encode ("diffuse_color", "raw.bin") */
	char *chunk;         /* where, in the model's words ("mats") */
	size_t file;         /* the edited file it came from (its index in the caller's list) */
	/* Made from the edited file rather than given by it (a mip level box-filtered from
	 * an edited level 0): a patch that is given, from any edited file, and sets any of
	 * the same bytes replaces it whole instead of conflicting with it (superseded). */
	bool derived;
	bool superseded;     /* set by nm_patches_supersede */
} nm_patch;

/* A refusal: why an edit cannot be encoded. */
typedef struct nm_refusal {
	size_t file;
	unsigned line;       /* 0: the file as a whole */
	char *field;         /* NULL: none */
	char *why;
} nm_refusal;

/* What an edit leaves as it was though it depends on the edited values (a bounding box
 * after a position): --dry-run says it. */
typedef struct nm_note {
	size_t file;
	char *text;
} nm_note;

/* What inverses say, collected: src/edit makes one per run of edits. */
typedef struct nm_edit {
	nm_patch *patches;
	size_t npatches, cappatches;
	nm_refusal *refusals;
	size_t nrefusals, caprefusals;
	nm_note *notes;
	size_t nnotes, capnotes;
	size_t file;         /* the file the inverse running now is for */
	/* Re-reading an edited file from the new model: its stored values are checked;
	 * derived lines (offsets, counts, names from other records) are not, since they
	 * may follow from the edit. */
	bool verify;
	bool nomem;          /* a patch or refusal could not be kept: the run fails */
} nm_edit;

/* The inverse of a file: what its new content bytes[0..len) changes in the model, said
 * through nm_edit_patch and nm_edit_refuse. ctx and arg are the file's (a lazy file's
 * producer's; a text file's arg). NM_OK also when it refused: a status means the model
 * could not be read (err says why). */
typedef nm_status (*nm_inverse_fn)(void *ctx, void *arg, const uint8_t *bytes, size_t len,
				   nm_edit *ed, nm_error *err);

void nm_edit_init(nm_edit *ed);
void nm_edit_free(nm_edit *ed);
/* bytes[0..len) at off of r, for field of line in chunk (copied). */
void nm_edit_patch(nm_edit *ed, nm_reader *r, uint64_t off, const void *bytes, size_t len,
		   const char *chunk, unsigned line, const char *field);
/* The same for bytes made from the edit rather than given by it (nm_patch.derived). */
void nm_edit_patch_derived(nm_edit *ed, nm_reader *r, uint64_t off, const void *bytes,
			   size_t len, const char *chunk, unsigned line, const char *field);
/* Mark each derived patch of p[0..n) that a given one overlaps in the same reader as
 * superseded (p is reordered). Returns how many it marked. */
size_t nm_patches_supersede(nm_patch **p, size_t n);
/* All of r (off 0, r's size) becomes bytes[0..len), of any length: a member of an
 * archive replaced whole, a whole model written again from an edited whole-model file
 * (an ASCII CMOD). src/edit carries it up (a window's parent, an encoded stream's new
 * plain bytes) to the file itself or an archive whose driver lays it out again
 * (nm_reader_set_repack), or refuses it as a layout change. */
void nm_edit_replace(nm_edit *ed, nm_reader *r, const void *bytes, size_t len,
		     const char *chunk, const char *field);
/* "LINE: FIELD: why" (line 0 and field NULL leave theirs out). */
void nm_edit_refuse(nm_edit *ed, unsigned line, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A note on the edit (printf-style): what depends on it and stays as it was. */
void nm_edit_note(nm_edit *ed, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Give a text file (nm_text) its inverse; returns file. */
nm_node *nm_text_inverse(nm_node *file, nm_inverse_fn fn, void *arg);
/* Pair a lazy file's producer with its inverse, for every file it makes in t. */
nm_status nm_tree_invert_producer(nm_tree *t, nm_produce_fn produce, nm_inverse_fn inverse);
/* The inverse of file n and what to call it with; false when n has none (a file made
 * from the model that cannot be written back, or a directory). */
bool nm_node_inverse(nm_tree *t, nm_node *n, nm_inverse_fn *fn, void **ctx, void **arg);

#endif
