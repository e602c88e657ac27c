/* Read-only, bounds-checked access to the source bytes. A reader is a file (read with
 * pread, never mapped, never opened for writing), a file of a folder opened only while
 * it is read, a window into another reader (a member of an archive), a source whose
 * bytes come from elsewhere (a compressed member, decompressed into the tree's cache)
 * or a buffer in memory (unit tests). */
#ifndef NM_READER_H
#define NM_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "lib/error.h"
#include "lib/options.h"

struct nm_out;

typedef struct nm_reader nm_reader;

nm_status nm_reader_open_file(const char *path, nm_reader **out, nm_error *err);
/* Takes ownership of data (malloc'd). name is used in messages. */
nm_status nm_reader_new_memory(const char *name, void *data, size_t len, nm_reader **out,
			       nm_error *err);
/* A window [off, off+len) of parent; parent must outlive it. */
nm_status nm_reader_new_window(nm_reader *parent, const char *name, uint64_t off,
			       uint64_t len, nm_reader **out, nm_error *err);
/* A file of a folder mount: opened for each read and closed after it (or kept open while
 * pinned), so a folder of 10,000 files holds no descriptor between reads. st is its
 * identity when it was listed: a file changed since reads as NM_E_IO. name as above. */
nm_status nm_reader_new_path(const char *path, const char *name, const struct stat *st,
			     nm_reader **out, nm_error *err);

/* A reader of size bytes that come from ops->read (decompressed data held in the tree's
 * cache). pin/unpin (may be NULL) keep the bytes at hand while a member's parse reads
 * them piece by piece; close (may be NULL) frees ctx with the reader. */
typedef struct nm_source_ops {
	nm_status (*read)(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			  nm_error *err);
	nm_status (*pin)(void *ctx, nm_error *err);
	void (*unpin)(void *ctx);
	void (*close)(void *ctx);
} nm_source_ops;
nm_status nm_reader_new_source(const char *name, uint64_t size, const nm_source_ops *ops,
			       void *ctx, nm_reader **out, nm_error *err);
void nm_reader_close(nm_reader *r);

/* Where r's bytes come from, for writing edits back (src/edit, doc/apply.md): bytes of a
 * window are [off, off+len) of its parent as they are; those of a source with an origin
 * (a decompressed member: nm_reader_set_origin) are encode(plain) stored at [off, off+len)
 * of parent. encode makes the stored bytes of new plain bytes into out (a compressed
 * stream in the original's codec and header). */
typedef nm_status (*nm_reencode_fn)(void *ctx, const uint8_t *plain, size_t len,
				    struct nm_out *out, nm_error *err);
typedef struct nm_reader_origin {
	nm_reader *parent;
	uint64_t off, len;
	nm_reencode_fn encode;  /* NULL: a window, the same bytes */
	void *ctx;
	/* A stream whose end its parent does not record (the next one follows it at once):
	 * one encoded shorter is not padded with zeros to len but changes the parent's
	 * length (its repack lays it out). */
	bool unpadded;
} nm_reader_origin;
typedef enum nm_origin_kind {
	NM_ORIGIN_ROOT,         /* r is the file given (or memory): edits land in its bytes */
	NM_ORIGIN_PARENT,       /* *o says where in its parent */
	NM_ORIGIN_NONE          /* a source without an origin, a folder's file: not writable */
} nm_origin_kind;
nm_origin_kind nm_reader_origin_of(const nm_reader *r, nm_reader_origin *o);
/* Give a source reader its origin (o->encode set; o is copied). */
void nm_reader_set_origin(nm_reader *r, const nm_reader_origin *o);

/* An archive laid out again (src/edit, doc/apply.md): when edits change the length of a
 * member, the archive's driver writes the whole archive anew. Each change says that
 * [off, off+old_len) of the archive's reader r become bytes[0..len) (a member's new
 * bytes, a patch inside one, or bytes outside every member of the same length); they
 * do not overlap, in the order of their offsets. fn writes all of r's new bytes into
 * out: the members where the format puts them, the tables saying so, every byte it
 * does not understand kept. A change it cannot lay out (the length of bytes that are
 * not one whole member) fails with err naming the archive and why. */
typedef struct nm_member_change {
	uint64_t off, old_len;
	const uint8_t *bytes;
	size_t len;
} nm_member_change;
typedef nm_status (*nm_repack_fn)(void *ctx, nm_reader *r, const nm_member_change *c,
				  size_t n, struct nm_out *out, nm_error *err);
/* Set by the archive driver that reads r (ctx: its parsed tables, living as long as the
 * tree); a reader no driver set it for cannot change length inside. */
void nm_reader_set_repack(nm_reader *r, nm_repack_fn fn, void *ctx);
bool nm_reader_repack_of(const nm_reader *r, nm_repack_fn *fn, void **ctx);

/* Keep r's bytes at hand until nm_reader_unpin (calls nest): a folder's file stays open,
 * a decompressed member stays in the cache. A window pins what it looks into. Reads
 * work without it; it only spares reopening and decompressing again. Unpin only after
 * a pin that succeeded. */
nm_status nm_reader_pin(nm_reader *r, nm_error *err);
void nm_reader_unpin(nm_reader *r);

/* How deep r sits in containers (0: the file given; a member of it 1...), set by the
 * container layer, which refuses to show members deeper than max_depth. A window has
 * its parent's until set. */
unsigned nm_reader_depth(const nm_reader *r);
void nm_reader_set_depth(nm_reader *r, unsigned depth);
/* An opaque pointer to where r sits (the container layer's member record, for finding
 * files beside it); NULL unless set. */
void *nm_reader_place(const nm_reader *r);
void nm_reader_set_place(nm_reader *r, void *place);

uint64_t nm_reader_size(const nm_reader *r);
/* Whether reading r is a pread of a file already open (or a copy from memory), through
 * any windows: nothing is decompressed or opened for it. */
bool nm_reader_direct(const nm_reader *r);
/* The name errors use: the file's base name (front ends put the path back:
 * nm_error_named), or the name given when it was made. */
const char *nm_reader_name(const nm_reader *r);

/* Exactly len bytes at off, or an error naming chunk (may be NULL) and the offset.
 * Reading past the end is NM_E_FORMAT; a short read of a file that used to be long
 * enough (it changed under us) is NM_E_IO. */
nm_status nm_reader_read(nm_reader *r, uint64_t off, void *buf, size_t len,
			 const char *chunk, nm_error *err);

/* A file reader checks that its file has not changed (size, inode, mtime) before it
 * reads. Inside a batch it checks once: a producer making one file may read the source
 * thousands of times, and one fstat per production is what keeps two versions from
 * mixing in it. The tree makes each production and each populate a batch; batches nest
 * (end restores what begin returned) and belong to the calling thread. */
uint64_t nm_reader_batch_begin(void);
void nm_reader_batch_end(uint64_t outer);

/* malloc'd copy of [off, off+len); the caller frees. The buffer comes from nm_alloc
 * under the reader's options: NM_E_LIMIT past max_file_size, before allocating. */
nm_status nm_reader_load(nm_reader *r, uint64_t off, size_t len, const char *chunk,
			 uint8_t **out, nm_error *err);

/* The options r works under: its tree's (nm_tree_adopt_reader sets them; a window has
 * its parent's), or the defaults. Drivers size their producers' memory by them:
 * nm_alloc(nm_reader_options(m->r), ...). */
const nm_options *nm_reader_options(const nm_reader *r);
/* opt must outlive r (the tree that adopts r owns both). */
void nm_reader_set_options(nm_reader *r, const nm_options *opt);

#endif
