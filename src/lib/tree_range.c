/* Producing a file by ranges (tree.h): the pairs of producer and range producer, and the
 * read of a range. */
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/tree_internal.h"

static nm_status pair(nm_tree *t, nm_produce_fn produce, nm_range_fn range, bool splits)
{
	nm_status s = NM_OK;
	pthread_mutex_lock(&t->lock);
	uint32_t i = 0;
	while (i < t->nranges && t->ranges[i].produce != produce)
		i++;
	if (i == t->nranges) {
		struct nm_producer_range *a = t->nranges < t->capranges ? t->ranges
			: nm_tree_grow(t->ranges, &t->capranges, sizeof *a, 4);
		if (a) {
			t->ranges = a;
			t->nranges++;
		} else {
			s = NM_E_NOMEM;
		}
	}
	if (s == NM_OK)
		t->ranges[i] = (struct nm_producer_range){ produce, range, splits };
	pthread_mutex_unlock(&t->lock);
	return s;
}

nm_status nm_tree_range_producer(nm_tree *t, nm_produce_fn produce, nm_range_fn range)
{
	return pair(t, produce, range, false);
}

nm_status nm_tree_split_producer(nm_tree *t, nm_produce_fn produce, nm_range_fn range)
{
	return pair(t, produce, range, true);
}

uint64_t nm_tree_split_productions(nm_tree *t) { return atomic_load(&t->splits); }

void nm_tree_split_threads(nm_tree *t, unsigned threads)
{
	atomic_store(&t->split_threads, threads);
}

unsigned nm_tree_threads(nm_tree *t)
{
	unsigned k = atomic_load(&t->split_threads);
	return k ? k : 1;
}

void nm_tree_allow_ranges(nm_tree *t) { atomic_store(&t->ranged, true); }
uint64_t nm_tree_range_reads(nm_tree *t) { return atomic_load(&t->range_reads); }

/* n's range producer (whether it splits in *splits), or NULL. */
static nm_range_fn paired(nm_tree *t, const nm_node *n, bool *splits)
{
	nm_range_fn r = NULL;
	if (n->kind != NM_NODE_LAZY)
		return NULL;
	pthread_mutex_lock(&t->lock);
	for (uint32_t i = 0; i < t->nranges && !r; i++)
		if (t->ranges[i].produce == n->produce) {
			r = t->ranges[i].range;
			*splits = t->ranges[i].splits;
		}
	pthread_mutex_unlock(&t->lock);
	return r;
}

/* n's range producer where reads may use it. */
static nm_range_fn range_of(nm_tree *t, const nm_node *n)
{
	bool splits;
	return atomic_load(&t->ranged) ? paired(t, n, &splits) : NULL;
}

bool nm_node_ranged(nm_tree *t, const nm_node *n) { return range_of(t, n) != NULL; }

bool nm_node_produced(nm_tree *t, const nm_node *n)
{
	return n->kind == NM_NODE_LAZY && nm_cache_has(t->cache, n);
}

nm_status nm_produce(nm_tree *t, nm_node *n, nm_error *err)
{
	if (n->kind != NM_NODE_LAZY || nm_cache_has(t->cache, n))
		return NM_OK;
	nm_cache_entry *e;
	nm_status s = nm_tree_produced(t, n, &e, err);
	if (s == NM_OK)
		nm_cache_release(t->cache, e);
	return s;
}

nm_status nm_tree_read_range(nm_tree *t, nm_node *n, uint64_t off, size_t len,
			     nm_read_hold *h, nm_error *err)
{
	uint64_t size = atomic_load(&n->size);
	nm_range_fn range = range_of(t, n);
	/* A file being produced or produced already is read from the cache. */
	if (!range || size == NM_SIZE_MEASURE || (off == 0 && len >= size) ||
	    nm_cache_has(t->cache, n))
		return NM_E_UNSUPPORTED;
	if (size > t->opt.max_file_size)
		return nm_fail_limit(err, &t->opt, size, n->name, NULL, NM_NO_OFFSET);
	nm_out o;
	nm_out_init(&o);
	o.opt = &t->opt;
	nm_out_expect(&o, len);
	uint64_t outer = nm_reader_batch_begin();
	nm_before_long_work(&t->opt);
	nm_status s = range(n->ctx, n->arg, off, len, &o, err);
	nm_reader_batch_end(outer);
	if (s == NM_OK)
		s = nm_out_status(&o);
	if (s == NM_OK && o.len != len)
		s = nm_fail(err, NM_E_INTERNAL, n->name, NULL, off,
			    "internal error: a range of %zu bytes produced %zu", len, o.len);
	if (s != NM_OK) {
		nm_out_free(&o);
		return s;
	}
	size_t got;
	h->owned = nm_out_take(&o, &got);
	h->data = h->owned;
	h->len = got;
	atomic_fetch_add(&t->range_reads, 1);
	return NM_OK;
}

/* One piece of a split production, made on a thread of its own into its own out. */
struct piece {
	nm_tree *t;
	nm_node *n;
	nm_range_fn range;
	uint64_t off;
	size_t len;
	nm_out out;
	nm_error err;
	nm_status s;
	pthread_t thread;
	bool started;
};

static void *make_piece(void *arg)
{
	struct piece *p = arg;
	pthread_setname_np(pthread_self(), "nm-split"); /* a piece, not a request thread */
	uint64_t outer = nm_reader_batch_begin();
	p->s = p->range(p->n->ctx, p->n->arg, p->off, p->len, &p->out, &p->err);
	nm_reader_batch_end(outer);
	if (p->s == NM_OK)
		p->s = nm_out_status(&p->out);
	if (p->s == NM_OK && p->out.len != p->len)
		p->s = nm_fail(&p->err, NM_E_INTERNAL, p->n->name, NULL, p->off,
			       "internal error: a piece of %zu bytes produced %zu", p->len,
			       p->out.len);
	return NULL;
}

/* At most this many pieces, each at least half of NM_TREE_SPLIT_MIN. */
#define PIECES_MAX 8u

nm_status nm_tree_produce_split(nm_tree *t, nm_node *n, nm_out *out, nm_error *err)
{
	bool splits = false;
	uint64_t size = atomic_load(&n->size);
	unsigned threads = atomic_load(&t->split_threads);
	nm_range_fn range = paired(t, n, &splits);
	if (!range || !splits || threads < 2 || size == NM_SIZE_MEASURE ||
	    size < NM_TREE_SPLIT_MIN || size > SIZE_MAX || out->len != 0)
		return NM_E_UNSUPPORTED;
	unsigned k = threads < PIECES_MAX ? threads : PIECES_MAX;
	if (size / k < NM_TREE_SPLIT_MIN / 2)
		k = (unsigned)(size / (NM_TREE_SPLIT_MIN / 2));
	struct piece p[PIECES_MAX];
	atomic_fetch_add(&t->splits, 1);
	for (unsigned i = 0; i < k; i++) {
		uint64_t a = size * i / k, b = size * (i + 1) / k;
		p[i] = (struct piece){ .t = t, .n = n, .range = range, .off = a,
				       .len = (size_t)(b - a) };
		nm_out_init(&p[i].out);
		p[i].out.opt = out->opt;
		/* The first piece is made here (when a thread cannot start, its piece too). */
		p[i].started = i > 0 && pthread_create(&p[i].thread, NULL, make_piece, &p[i]) == 0;
	}
	nm_status s = NM_OK;
	for (unsigned i = 0; i < k; i++) {
		if (p[i].started)
			pthread_join(p[i].thread, NULL);
		else
			make_piece(&p[i]);
		if (s == NM_OK && p[i].s != NM_OK) {
			s = p[i].s;
			*err = p[i].err;
		}
		if (s == NM_OK)
			nm_out_write(out, p[i].out.data, p[i].out.len);
		nm_out_free(&p[i].out);
	}
	return s;
}
