/* Producing a file by ranges (tree.h): the pairs of producer and range producer, and the
 * read of a range. */
#include <stdlib.h>
#include <string.h>
#include "lib/tree_internal.h"

nm_status nm_tree_range_producer(nm_tree *t, nm_produce_fn produce, nm_range_fn range)
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
		t->ranges[i] = (struct nm_producer_range){ produce, range };
	pthread_mutex_unlock(&t->lock);
	return s;
}

void nm_tree_allow_ranges(nm_tree *t) { atomic_store(&t->ranged, true); }
uint64_t nm_tree_range_reads(nm_tree *t) { return atomic_load(&t->range_reads); }

static nm_range_fn range_of(nm_tree *t, const nm_node *n)
{
	if (n->kind != NM_NODE_LAZY || !atomic_load(&t->ranged))
		return NULL;
	nm_range_fn r = NULL;
	pthread_mutex_lock(&t->lock);
	for (uint32_t i = 0; i < t->nranges && !r; i++)
		if (t->ranges[i].produce == n->produce)
			r = t->ranges[i].range;
	pthread_mutex_unlock(&t->lock);
	return r;
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
