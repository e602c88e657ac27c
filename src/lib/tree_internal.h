/* What tree.c (nodes, builders, reads) and tree_content.c (lazy directories: populating,
 * holding and evicting their content) share. Nothing outside src/lib/tree*.c sees it. */
#ifndef NM_TREE_INTERNAL_H
#define NM_TREE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include "lib/cache.h"
#include "lib/edit.h"
#include "lib/tree.h"

struct cleanup {
	nm_free_fn fn;
	void *p;
};

/* What a content holds while resident: made by its populate, freed by its eviction. */
typedef struct nm_residence {
	pthread_t runner;             /* CONTENT_RUNNING: who populates it */
	nm_status status;             /* how its populate ended */
	char *msg;                    /* and why, when it failed (NULL: out of memory) */
	nm_node **nodes;              /* by rank */
	uint32_t nnodes, capnodes;
	struct cleanup *cleanups;
	size_t ncleanups, capcleanups;
	size_t bytes;                 /* what it costs: its nodes, texts and allocations */
	unsigned resident_made;       /* of the lazy directories it made, how many are resident */
	struct nm_content *older, *newer; /* LRU of resident contents, for eviction */
} nm_residence;

/* A populate callback and its context: a driver has one or two, shared by all the lazy
 * directories one populate makes (a PAK's 50,000 assets). */
struct nm_populate_kind {
	nm_populate_fn fn;
	void *ctx;
};

/* The lazy directories a content's populate made, in order: populating it again reuses
 * them (their serials, and whether they are resident) one by one. Their populates are
 * in kinds, which is made anew by each populate (a context may be a record of this
 * populate, at another address the next time). */
typedef struct nm_made {
	struct nm_content **list;
	struct nm_populate_kind *kinds;
	uint32_t n, cap, reuse, nkinds, capkinds;
} nm_made;

/* The content of the build (serial 0) or of one lazy directory: the nodes, allocations
 * and cleanups its populate made. Made once per lazy directory and kept until the tree
 * is freed, also while the content is evicted, so that populating it again gives every
 * node the id it had (ids are serial << 32 | the node's rank in its content). Small,
 * 48 bytes: a PAK has one per asset for good; what only a populated one needs is in
 * res, and what only one that made lazy directories needs is in made. */
typedef struct nm_content {
	void *arg;                    /* its populate's */
	nm_node *dir;                 /* its lazy directory; NULL while the owner is evicted */
	nm_residence *res;            /* NULL while not resident */
	nm_made *made;                /* NULL until its populate makes a lazy directory */
	uint32_t serial;
	uint32_t owner;               /* serial of the content dir belongs to */
	unsigned pins;                /* requests using its nodes now (nm_node_get) */
	unsigned kind : 30;           /* its populate: its owner's made->kinds[kind] */
	unsigned phase : 2;           /* CONTENT_NEEDED, _RUNNING or _DONE */
} nm_content;

enum { CONTENT_NEEDED, CONTENT_RUNNING, CONTENT_DONE };
_Static_assert(sizeof(void *) != 8 || sizeof(nm_content) == 48,
	       "a PAK keeps one per asset for good: keep it small");

#define NM_CONTENT_BLOCK 256u
#define NM_CONTENT_KINDS_MAX (1u << 30)
#define NM_CONTENT(t, serial) \
	(&(t)->content_blocks[(serial) / NM_CONTENT_BLOCK][(serial) % NM_CONTENT_BLOCK])

struct nm_node {
	nm_node *parent;
	nm_node *hnext;            /* (parent, name) hash chain */
	uint64_t id;
	_Atomic uint64_t size;     /* files; NM_SIZE_MEASURE until known */
	union {
		struct {           /* NM_NODE_DIR */
			nm_node **kids;
			uint32_t nkids, capkids;
			nm_content *pop;  /* a lazy directory's content; NULL: not lazy */
		};
		struct {           /* NM_NODE_TEXT */
			uint8_t *text;
			/* nm_text_inverse's, in what the union has room for anyway */
			nm_inverse_fn inverse;
			void *inverse_arg;
		};
		struct {           /* NM_NODE_SLICE */
			nm_reader *reader;
			uint64_t off;
		};
		struct {           /* NM_NODE_LAZY */
			nm_produce_fn produce;
			void *ctx, *arg;
		};
	};
	uint8_t kind;              /* nm_node_kind */
	_Atomic uint8_t mark;      /* a front end's (nm_node_mark) */
	uint8_t formats_direct;    /* a lazy file that only formats bytes of a direct reader */
	char name[];
};
/* A text file's inverse lives in room the union has for the other kinds anyway: a tree
 * nobody edits pays nothing for it. */
_Static_assert(sizeof(uint8_t *) + sizeof(nm_inverse_fn) + sizeof(void *) <=
	       sizeof(nm_produce_fn) + 2 * sizeof(void *), "the text arm must not grow nm_node");

struct nm_tree {
	/* Guards the structure: the name hash, every directory's children, the contents
	 * and their lists, and each lazy directory's populate state. It is held only for
	 * those short updates and look-ups, never while a populate callback runs, so a
	 * directory that takes long to populate (a PAK member's whole parse) holds up only
	 * the lookups of that directory: they wait on `populated` until it is done.
	 * The nodes a populate adds are reachable only through its directory, so nobody
	 * reads them (or their fields, set after add_node) before it ends. */
	pthread_mutex_t lock;
	pthread_cond_t populated;
	nm_node *root;
	nm_node **buckets;
	size_t nbuckets, nnodes;
	/* By serial, in blocks of NM_CONTENT_BLOCK that never move: a PAK of 50,000 assets
	 * has as many contents, and a malloc each would cost a pointer and a header more.
	 * Serial 0 is the build's. */
	nm_content **content_blocks;
	uint32_t ncontents, capblocks;
	nm_options opt;            /* fixed at creation: threads read it without a lock */
	nm_cache *cache;
	uint64_t populations;      /* lazy directories populated (under lock) */
	/* Eviction (nm_tree_allow_eviction): resident contents, least recent first. */
	bool evictable;
	size_t resident_bytes, resident_budget;
	size_t untrimmed;          /* bytes evicted since the heap was last trimmed */
	nm_content *oldest, *newest;
	/* nm_tree_invert_producer's pairs (under lock); none in a tree nobody edits. */
	struct nm_producer_inverse {
		nm_produce_fn produce;
		nm_inverse_fn inverse;
	} *inverses;
	uint32_t ninverses, capinverses;
	/* nm_tree_range_producer's pairs (under lock), and whether reads use them. */
	struct nm_producer_range {
		nm_produce_fn produce;
		nm_range_fn range;
		bool splits;           /* nm_tree_split_producer's */
	} *ranges;
	uint32_t nranges, capranges;
	_Atomic bool ranged;
	_Atomic uint64_t range_reads;
	_Atomic unsigned split_threads;
	_Atomic uint64_t splits;
};

/* a, or a larger copy of it, with room for at least one more than *cap elements of size
 * elem (doubling, from first); NULL, a kept, when memory or the count runs out. */
static inline void *nm_tree_grow(void *a, uint32_t *cap, size_t elem, uint32_t first)
{
	uint32_t c = *cap ? *cap * 2 : first;
	void *p = c > *cap ? realloc(a, (size_t)c * elem) : NULL;
	if (p)
		*cap = c;
	return p;
}

/* tree.c */
nm_node *nm_tree_add_node_locked(nm_tree *t, nm_node *parent, const char *name,
				 nm_node_kind kind);
nm_node *nm_tree_find_child(nm_tree *t, const nm_node *dir, const char *name);
void nm_tree_unhash(nm_tree *t, nm_node *n);
void nm_tree_free_node(nm_node *n);

/* tree.c: a lazy file's whole bytes, produced once into the cache, checked against its
 * size; pinned. */
nm_status nm_tree_produced(nm_tree *t, nm_node *n, nm_cache_entry **e, nm_error *err);
/* tree_range.c: bytes [off, off+len) (len clipped to the file) by n's range producer
 * into h, or NM_E_UNSUPPORTED when the read should produce the whole file. */
nm_status nm_tree_read_range(nm_tree *t, nm_node *n, uint64_t off, size_t len,
			     nm_read_hold *h, nm_error *err);

/* tree_range.c: n produced whole into out in pieces on several threads, or
 * NM_E_UNSUPPORTED when its producer does not split (then it runs as usual). */
nm_status nm_tree_produce_split(nm_tree *t, nm_node *n, nm_out *out, nm_error *err);

/* tree_content.c; callers hold t->lock unless said otherwise. */
/* The content nodes made now belong to: the populate this thread runs, else the build. */
nm_content *nm_content_current(nm_tree *t);
nm_content *nm_content_new(nm_tree *t);
/* Populate dir once (the first caller runs it, others wait). */
nm_status nm_content_populate(nm_tree *t, nm_node *dir, nm_error *err);
/* The lazy directory content a new nm_lazy_dir under the current content gets, with
 * its populate (fn, ctx). */
nm_content *nm_content_for_lazy_dir(nm_tree *t, nm_populate_fn fn, void *ctx);
/* Count bytes to the content being made (nodes, text). */
void nm_content_charge(nm_tree *t, size_t bytes);
/* nm_tree_on_free for an object of known cost (nm_tree_alloc's); takes t->lock. */
nm_status nm_content_on_free(nm_tree *t, nm_free_fn fn, void *p, size_t cost);
/* Every content's cleanups, newest content first, then the contents (no lock). */
void nm_content_free_all(nm_tree *t);

#endif
