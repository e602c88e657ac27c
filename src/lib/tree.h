/* The format-agnostic tree a driver builds and every front end (FUSE, CLI, tests) reads.
 *
 * Directories hold children in the order the driver added them. A file is one of:
 *  - text:   bytes formatted at build time (headers, records: cheap, record-sized);
 *  - slice:  a byte range of a reader (raw.bin), read on demand, never cached;
 *  - lazy:   a producer that runs on first read; its exact size is given up front
 *            (or, for small record-sized output only, NM_SIZE_MEASURE: produced once on
 *            the first stat). Produced bytes live in the tree's LRU cache; concurrent
 *            readers of one file wait for a single production.
 * A directory can also be lazy: its populate callback runs on the first lookup/readdir
 * (archive members), once; lookups of that directory wait for it, lookups elsewhere go
 * on. A callback adds nodes only under its own directory and never looks it up.
 * Nodes live until the tree is freed, so a node pointer is a stable handle, unless a
 * front end allows eviction (nm_tree_allow_eviction; the FUSE layer does, and uses
 * node ids as inode numbers). */
#ifndef NM_TREE_H
#define NM_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/options.h"
#include "lib/out.h"
#include "lib/reader.h"

typedef struct nm_tree nm_tree;
typedef struct nm_node nm_node;

#define NM_SIZE_MEASURE UINT64_MAX

/* Writes the whole file into out. ctx/arg are the driver's, given at nm_lazy(). */
typedef nm_status (*nm_produce_fn)(void *ctx, void *arg, nm_out *out, nm_error *err);
/* Adds the children of dir (created with nm_lazy_dir). */
typedef nm_status (*nm_populate_fn)(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				    nm_error *err);
typedef void (*nm_free_fn)(void *p);

typedef enum nm_node_kind { NM_NODE_DIR, NM_NODE_TEXT, NM_NODE_SLICE, NM_NODE_LAZY } nm_node_kind;

/* A tree under a copy of opt (NULL: the defaults), fixed for its life: its cache holds
 * opt->cache_size bytes, no file larger than opt->max_file_size is produced. */
nm_tree *nm_tree_new(const nm_options *opt);
void nm_tree_free(nm_tree *t);
nm_node *nm_tree_root(nm_tree *t);
/* The tree's options (drivers read max_dimension, max_depth... from them). */
const nm_options *nm_tree_options(const nm_tree *t);
/* The cache produced files live in; readers of decompressed archive members keep
 * their bytes there too, so cache_size bounds both. */
struct nm_cache *nm_tree_cache(nm_tree *t);
/* Run fn(p) when the tree is freed (driver contexts, readers), in reverse order. */
nm_status nm_tree_on_free(nm_tree *t, nm_free_fn fn, void *p);
/* r is closed with the tree and works under its options (nm_reader_load's limit). On
 * failure r is closed at once. */
nm_status nm_tree_adopt_reader(nm_tree *t, nm_reader *r);

/* Zeroed memory freed with the tree (records a producer points at); NULL on failure. */
void *nm_tree_alloc(nm_tree *t, size_t size);
/* The same for count records of size bytes (count * size overflow-checked): the one
 * arena a driver's parsed tables live in, so no driver keeps its own list to free. */
void *nm_tree_alloc_array(nm_tree *t, size_t count, size_t size);

/* A copy of len bytes, NUL-terminated, freed with the tree (a name or a text a parser
 * keeps); NULL on failure. */
char *nm_tree_strndup(nm_tree *t, const void *s, size_t len);

/* A formatted string freed with the tree (OBJ group names...); NULL on failure. */
char *nm_tree_printf(nm_tree *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Builders. name is used as given: make it safe with nm_safe_name first if it comes
 * from the file. They return NULL when the name is taken or memory runs out. */
nm_node *nm_dir(nm_tree *t, nm_node *parent, const char *name);
/* A directory populated by fn(ctx, arg) on first use. ctx is what many such directories
 * share (a driver's context), arg this directory's own (its entry): a directory costs
 * only its arg, the pairs (fn, ctx) are kept once per run of them. */
nm_node *nm_lazy_dir(nm_tree *t, nm_node *parent, const char *name, nm_populate_fn fn,
		     void *ctx, void *arg);
/* Takes the buffer of out (it becomes empty). */
nm_node *nm_text(nm_tree *t, nm_node *parent, const char *name, nm_out *out);
nm_node *nm_text_str(nm_tree *t, nm_node *parent, const char *name, const char *s);
nm_node *nm_slice(nm_tree *t, nm_node *parent, const char *name, nm_reader *r,
		  uint64_t off, uint64_t len);
nm_node *nm_lazy(nm_tree *t, nm_node *parent, const char *name, uint64_t size,
		 nm_produce_fn fn, void *ctx, void *arg);
/* Says that a lazy file's producer only formats bytes it reads from r, in proportion to
 * its output: a CSV of vertex values, an index list, a packet's commands; nothing
 * decompressed, decoded or parsed whole. When r reads the model file directly
 * (nm_reader_direct: not a decompressed archive member), the file is then at hand.
 * Returns file (NULL stays NULL, so it wraps nm_lazy). */
nm_node *nm_lazy_formats(nm_node *file, const nm_reader *r);
/* error.txt in dir with the message, for a chunk that failed to parse. */
nm_node *nm_error_file(nm_tree *t, nm_node *dir, const nm_error *e);
/* The error.txt files under dir that its info.txt speaks for: not those in a directory
 * with its own info.txt (a nested model) or in a lazy directory not yet populated
 * (an archive member: what it finds is its own). */
size_t nm_error_files(nm_tree *t, nm_node *dir);
/* The child of dir named name as built so far (populates nothing), or NULL. */
nm_node *nm_child(nm_tree *t, nm_node *dir, const char *name);
/* Add the bytes of more (it becomes empty) to the end of a text file, while it is still
 * being built: info.txt's summary of what was built after it. */
nm_status nm_text_append(nm_tree *t, nm_node *file, nm_out *more);

/* A file name from bytes of the model: '/', NUL, control bytes, invalid UTF-8, '%'
 * and the names "." / ".." / "" are %XX-escaped, and a name longer than
 * NM_SAFE_NAME_MAX bytes is cut to it, ending in "…". Returns malloc'd text. */
char *nm_safe_name(const char *raw, size_t len);
/* What is left of NAME_MAX (255, the longest name a Linux filesystem takes, so that
 * nmodel extract can write every file) once nm_unique_stem's "~N" and the longest
 * extension a producer adds are on it. */
#define NM_SAFE_NAME_MAX 200u
/* stem, or stem~2, stem~3... such that no child of dir is named stem~N + any of exts
 * (a NULL-terminated list of suffixes, e.g. {".png", ".txt", NULL}): after ~2 to ~k,
 * ~k+1, found in log k lookups (tree.c says how gaps go). malloc'd; NULL when out of
 * memory. */
char *nm_unique_stem(nm_tree *t, nm_node *dir, const char *stem, const char *const *exts);

/* Queries. */
nm_node_kind nm_node_type(const nm_node *n);
const char *nm_node_name(const nm_node *n);
nm_node *nm_node_parent(const nm_node *n);
/* 1 for the root; unique, and stable for the tree's life: a node made again when its
 * lazy directory is populated again (after eviction) has the id it had. */
uint64_t nm_node_id(const nm_node *n);
/* Whether a file's bytes can be had cheaply, without decompressing, decoding or opening
 * anything: text made when its directory was built, a byte range of a file already
 * open (nm_reader_direct), or a lazy file that formats bytes of such a file
 * (nm_lazy_formats). A front end may read these ahead of a request. */
bool nm_node_at_hand(const nm_node *n);
/* Whether n is a lazy directory (nm_lazy_dir): its children cost a populate. */
bool nm_node_lazy_dir(const nm_node *n);
/* Bits a front end may set on a node, each once: nm_node_mark is true for the call that
 * set bit (one of 0x01, 0x02, ... 0x80). A node made again after eviction starts
 * unmarked. (The FUSE layer marks a directory whose small files it has handed to the
 * kernel, and one a reader has entered two subdirectories of.) */
bool nm_node_mark(nm_node *n, uint8_t bit);
/* A lazy directory whose populate failed keeps what it added plus an error.txt saying
 * why; its existing names are found, a missing one gives the populate's status and
 * message rather than NM_E_NOENT. */
nm_status nm_lookup(nm_tree *t, nm_node *dir, const char *name, nm_node **out, nm_error *err);
/* Resolve "/a/b/c" (or "a/b/c") from the root. */
nm_status nm_resolve(nm_tree *t, const char *path, nm_node **out, nm_error *err);
/* Children of dir, populating it first if lazy; *out is valid until the tree is freed
 * (arrays only grow while populating, which happens once). Returns the populate's
 * status (and message in err): a failed lazy directory still sets *out and *count to
 * what it holds, error.txt included, so a listing can show it and report the error. */
nm_status nm_children(nm_tree *t, nm_node *dir, nm_node ***out, size_t *count,
		      nm_error *err);
/* Exact size (runs the producer once for NM_SIZE_MEASURE files). 0 for directories. A
 * size above max_file_size is still reported; reading such a file fails with NM_E_LIMIT
 * before its producer runs. */
nm_status nm_size(nm_tree *t, nm_node *file, uint64_t *size, nm_error *err);
/* Copy up to len bytes from off; *got = bytes copied (0 at or past the end). */
nm_status nm_read(nm_tree *t, nm_node *file, uint64_t off, void *buf, size_t len,
		  size_t *got, nm_error *err);
/* The same, file made whole into the cache first: for a producer that reads another
 * file in pieces (a texture's levels from its surface), which in a tree that allows
 * ranges would each be made by range again. */
nm_status nm_read_made(nm_tree *t, nm_node *file, uint64_t off, void *buf, size_t len,
		       size_t *got, nm_error *err);
/* A read without a copy into the caller's buffer (the FUSE layer replies from it):
 * data points at len bytes of the file from the offset asked (fewer at its end, none
 * past it), valid until nm_read_release. A produced file's bytes stay pinned in the
 * cache meanwhile; a text file's point into the tree; a slice's are read into a buffer
 * the hold owns. */
typedef struct nm_read_hold {
	const uint8_t *data;
	size_t len;
	void *entry;   /* the pinned cache entry, or NULL */
	void *owned;   /* the slice's buffer, or NULL */
} nm_read_hold;
nm_status nm_read_pin(nm_tree *t, nm_node *file, uint64_t off, size_t len, nm_read_hold *h,
		      nm_error *err);
void nm_read_release(nm_tree *t, nm_read_hold *h);
/* For a producer that embeds another file's bytes (model.glb's PNGs), which must never
 * nm_read (a producer waiting for another's fill): file's whole bytes if they are
 * produced and cached already, pinned in h (nm_read_release) and true; false, at once,
 * otherwise (never waits, never produces). */
bool nm_tree_peek(nm_tree *t, nm_node *file, nm_read_hold *h);
/* ... and once it has made them itself: kept as file's produced bytes (a copy) when file
 * is a lazy file of that size with none yet, so that its own READ finds them. */
void nm_tree_offer(nm_tree *t, nm_node *file, const uint8_t *data, size_t len);
/* Eviction. By default every node lives until the tree is freed, and a node pointer
 * is a stable handle. A front end that holds ids instead (the FUSE daemon: inode
 * numbers) may allow the content of lazy directories (an archive member's parse and
 * nodes) to be freed when the contents held cost more than a quarter of cache_size (the data cache then has
 * the other three quarters) and
 * nothing holds them; it then uses a node only between nm_node_get and nm_node_put,
 * which bring an evicted content back (populating it again) and keep it meanwhile,
 * along with a directory's listing. */
void nm_tree_allow_eviction(nm_tree *t);
nm_status nm_node_get(nm_tree *t, uint64_t id, nm_node **out, nm_error *err);
void nm_node_put(nm_tree *t, nm_node *n);
/* Producing by ranges. A producer whose layout is fixed-width (OBJ lines, CSV rows, a
 * glb's sections) may have a range producer beside it: range(ctx, arg, off, len, out,
 * err) writes exactly bytes [off, off+len) of what produce(ctx, arg) writes whole, at a
 * cost in proportion to len (plus what the range's rows need loaded), or returns
 * NM_E_UNSUPPORTED for a range it cannot make alone (then the whole file is produced).
 * Paired once per tree, by producer, like an inverse (nm_tree_invert_producer); a
 * driver's files of that producer all get it. */
typedef nm_status (*nm_range_fn)(void *ctx, void *arg, uint64_t off, size_t len, nm_out *out,
				 nm_error *err);
nm_status nm_tree_range_producer(nm_tree *t, nm_produce_fn produce, nm_range_fn range);
/* The same, for a range producer whose cost does not grow with off (each line's offset
 * follows from the counts: mesh.obj): a file of it larger than NM_TREE_SPLIT_MIN is
 * also produced whole in pieces, one per thread, when the front end allows threads
 * (nm_tree_split_threads); the pieces are the whole production's bytes. */
nm_status nm_tree_split_producer(nm_tree *t, nm_produce_fn produce, nm_range_fn range);
#define NM_TREE_SPLIT_MIN (1024u * 1024u)
/* Threads one production of a split producer's file may use (default 1: no split). The
 * mount gives the CPUs (a reader of one large file leaves the others idle); nmodel
 * extract does not (its -j threads keep them busy with other files). */
void nm_tree_split_threads(nm_tree *t, unsigned threads);
/* That count (at least 1): what a whole file's producer finds in its out's threads. */
unsigned nm_tree_threads(nm_tree *t);
/* Count of files produced in pieces (tests). */
uint64_t nm_tree_split_productions(nm_tree *t);
/* By default a read produces the whole file (nmodel cat, extract: every byte is wanted).
 * A front end whose readers may want only part of a file (a mount: head, a file
 * manager's sniffing) allows ranges: then a read of a file with a range producer, not
 * produced and not being produced, is made by range, not cached (nm_read_pin's hold
 * owns it), and the front end may have the whole file produced meanwhile (nm_produce). */
void nm_tree_allow_ranges(nm_tree *t);
/* Whether file has a range producer (and ranges are allowed). */
bool nm_node_ranged(nm_tree *t, const nm_node *file);
/* Produce a lazy file whole into the cache, if it is not there nor being made (a front
 * end's background production). NM_OK also when there was nothing to do. */
nm_status nm_produce(nm_tree *t, nm_node *file, nm_error *err);
/* Whether a lazy file's bytes are in the cache now, or being produced. */
bool nm_node_produced(nm_tree *t, const nm_node *file);
/* Count of reads answered by a range producer (tests: a head read made no production). */
uint64_t nm_tree_range_reads(nm_tree *t);
/* Count of files produced so far (tests use it to prove laziness). */
uint64_t nm_tree_productions(nm_tree *t);
/* Count of lazy directories populated so far (tests: a driver that promises to decode
 * nothing before a read shows that listing its whole tree populated nothing either). */
uint64_t nm_tree_populations(nm_tree *t);

#endif
