/* The overlay of a writable mount: the files written through it, on disk, in the
 * layout nmodel apply reads (doc/writable.md). A file at a path the model's tree has
 * (mapped: an edit) lies at DIR/PATH; anything else written (an editor's temporary,
 * swap or backup file, a note, a new directory) under DIR/.nmodel-overlay/other/PATH,
 * which apply does not read; the tree's files the user removed are listed in
 * DIR/.nmodel-overlay/hidden, one path a line. Without -o overlay=DIR the overlay is a
 * private directory in memory (a tmpfs: $XDG_RUNTIME_DIR, else /dev/shm), removed at
 * unmount. Not locked: the writable mount's lock guards it (fuse/wops.c). */
#ifndef NM_FUSE_OVERLAY_H
#define NM_FUSE_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/error.h"

/* The folder under DIR that apply leaves alone. */
#define NM_OVERLAY_OWN ".nmodel-overlay"

typedef struct nm_overlay nm_overlay;

/* dir NULL: a private one in memory. */
nm_overlay *nm_overlay_open(const char *dir, nm_error *err);
void nm_overlay_close(nm_overlay *o);
/* Where path's bytes lie (mapped: an edit of the model's file), into buf. */
void nm_overlay_where(const nm_overlay *o, const char *path, bool mapped, char *buf,
		      size_t size);
/* Make the directories above the overlay file at disk path, as needed; 0 or an errno. */
int nm_overlay_parents(const nm_overlay *o, const char *disk);
/* Whether the tree's file at path was removed by the user. */
bool nm_overlay_hidden(const nm_overlay *o, const char *path);
/* Remove (hide) or bring back path, kept on disk at once; 0 or an errno. */
int nm_overlay_hide(nm_overlay *o, const char *path, bool hide);
/* fn(path) for each file in the edits' layout (the model's paths), for a new mount
 * that resumes an overlay. */
void nm_overlay_each_edit(const nm_overlay *o, void (*fn)(const char *path, void *ctx),
			  void *ctx);

#endif
