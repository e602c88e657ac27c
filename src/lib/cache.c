#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/cache.h"

struct nm_cache_entry {
	const void *key;
	uint8_t *data;
	size_t len;
	bool ready;          /* false while its fill runs */
	unsigned pins;
	bool dropped;        /* evicted while pinned: free at the last release */
	nm_cache_entry *prev, *next;   /* LRU list, most recent first */
	nm_cache_entry *hnext;         /* hash chain */
};

struct nm_cache {
	pthread_mutex_t lock;
	pthread_cond_t filled;
	const nm_options *opt;
	size_t limit, bytes;
	uint64_t fills;
	nm_cache_entry **buckets;
	size_t nbuckets, count;
	nm_cache_entry *head, *tail;
};

nm_cache *nm_cache_new(const nm_options *opt)
{
	nm_cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->nbuckets = 256;
	c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
	if (!c->buckets) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->filled, NULL);
	c->opt = opt;
	c->limit = opt->cache_size > SIZE_MAX ? SIZE_MAX : (size_t)opt->cache_size;
	return c;
}

void nm_cache_set_limit(nm_cache *c, size_t limit)
{
	pthread_mutex_lock(&c->lock);
	c->limit = limit;
	pthread_mutex_unlock(&c->lock);
}

static void entry_free(nm_cache_entry *e)
{
	free(e->data);
	free(e);
}

void nm_cache_free(nm_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbuckets; i++)
		for (nm_cache_entry *e = c->buckets[i], *n; e; e = n) {
			n = e->hnext;
			entry_free(e);
		}
	free(c->buckets);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->filled);
	free(c);
}

static size_t bucket_of(const nm_cache *c, const void *key)
{
	uintptr_t k = (uintptr_t)key;
	k ^= k >> 17;
	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 7) & (c->nbuckets - 1);
}

static nm_cache_entry *find(nm_cache *c, const void *key)
{
	for (nm_cache_entry *e = c->buckets[bucket_of(c, key)]; e; e = e->hnext)
		if (e->key == key)
			return e;
	return NULL;
}

static void lru_unlink(nm_cache *c, nm_cache_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		c->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		c->tail = e->prev;
	e->prev = e->next = NULL;
}

static void lru_push_front(nm_cache *c, nm_cache_entry *e)
{
	e->prev = NULL;
	e->next = c->head;
	if (c->head)
		c->head->prev = e;
	c->head = e;
	if (!c->tail)
		c->tail = e;
}

/* Pin a ready entry and make it the most recent. Callers hold c->lock. */
static void use(nm_cache *c, nm_cache_entry *e)
{
	e->pins++;
	lru_unlink(c, e);
	lru_push_front(c, e);
}

static void hash_remove(nm_cache *c, nm_cache_entry *e)
{
	nm_cache_entry **p = &c->buckets[bucket_of(c, e->key)];
	while (*p != e)
		p = &(*p)->hnext;
	*p = e->hnext;
	c->count--;
}

static void grow_buckets(nm_cache *c)
{
	size_t n = c->nbuckets * 2;
	nm_cache_entry **b = calloc(n, sizeof *b);
	if (!b)
		return; /* longer chains, still correct */
	nm_cache_entry **old = c->buckets;
	size_t oldn = c->nbuckets;
	c->buckets = b;
	c->nbuckets = n;
	for (size_t i = 0; i < oldn; i++)
		for (nm_cache_entry *e = old[i], *next; e; e = next) {
			next = e->hnext;
			size_t j = bucket_of(c, e->key);
			e->hnext = b[j];
			b[j] = e;
		}
	free(old);
}

/* Take a ready entry out; a pinned one is freed at its last release. */
static void drop(nm_cache *c, nm_cache_entry *e)
{
	lru_unlink(c, e);
	hash_remove(c, e);
	c->bytes -= e->len;
	if (e->pins)
		e->dropped = true;
	else
		entry_free(e);
}

/* Drop ready entries from the cold end until under the limit, sparing keep. */
static void evict(nm_cache *c, nm_cache_entry *keep)
{
	nm_cache_entry *e = c->tail;
	while (c->bytes > c->limit && e) {
		nm_cache_entry *prev = e->prev;
		if (e != keep && e->ready)
			drop(c, e);
		e = prev;
	}
}

nm_status nm_cache_get(nm_cache *c, const void *key, nm_fill_fn fill, void *ctx, void *arg,
		       nm_cache_entry **entry, nm_error *err)
{
	nm_error unused;
	if (!err)
		err = &unused;
	pthread_mutex_lock(&c->lock);
	for (;;) {
		nm_cache_entry *e = find(c, key);
		if (e && e->ready) {
			use(c, e);
			pthread_mutex_unlock(&c->lock);
			*entry = e;
			return NM_OK;
		}
		if (e) { /* another thread is filling it */
			nm_before_long_work(c->opt);
			pthread_cond_wait(&c->filled, &c->lock);
			continue;
		}
		break;
	}
	nm_cache_entry *e = calloc(1, sizeof *e);
	if (!e) {
		pthread_mutex_unlock(&c->lock);
		return nm_fail(err, NM_E_NOMEM, "cache", NULL, NM_NO_OFFSET, "out of memory");
	}
	e->key = key;
	size_t b = bucket_of(c, key);
	e->hnext = c->buckets[b];
	c->buckets[b] = e;
	c->count++;
	c->fills++;
	pthread_mutex_unlock(&c->lock);

	nm_out out;
	nm_out_init(&out);
	out.opt = c->opt;
	nm_before_long_work(c->opt);
	nm_status s = fill(ctx, arg, &out, err);
	if ((s == NM_OK || s == NM_E_LIMIT) && nm_out_status(&out) == NM_E_LIMIT)
		s = nm_fail_limit(err, c->opt, 0, "cache", NULL, NM_NO_OFFSET);
	else if (s == NM_OK && nm_out_status(&out) != NM_OK)
		s = nm_fail(err, NM_E_NOMEM, "cache", NULL, NM_NO_OFFSET, "out of memory");

	pthread_mutex_lock(&c->lock);
	if (s != NM_OK) {
		/* Errors are not cached: waiters retry, each getting its own message. */
		hash_remove(c, e);
		free(e);
		nm_out_free(&out);
	} else {
		e->data = nm_out_take(&out, &e->len);
		e->ready = true;
		e->pins = 1;
		c->bytes += e->len;
		lru_push_front(c, e);
		evict(c, e);
		if (c->count > c->nbuckets)
			grow_buckets(c);
		*entry = e;
	}
	pthread_cond_broadcast(&c->filled);
	pthread_mutex_unlock(&c->lock);
	return s;
}

void nm_cache_forget(nm_cache *c, const void *key)
{
	pthread_mutex_lock(&c->lock);
	nm_cache_entry *e = find(c, key);
	if (e && e->ready) /* one being filled belongs to a held node: never asked */
		drop(c, e);
	pthread_mutex_unlock(&c->lock);
}

nm_cache_entry *nm_cache_peek(nm_cache *c, const void *key)
{
	pthread_mutex_lock(&c->lock);
	nm_cache_entry *e = find(c, key);
	if (e && e->ready)
		use(c, e);
	else
		e = NULL;
	pthread_mutex_unlock(&c->lock);
	return e;
}

void nm_cache_offer(nm_cache *c, const void *key, const uint8_t *data, size_t len)
{
	if (nm_cache_has(c, key))
		return; /* the usual case once it is made: no copy */
	nm_cache_entry *e = calloc(1, sizeof *e);
	uint8_t *copy = e ? malloc(len ? len : 1) : NULL;
	pthread_mutex_lock(&c->lock);
	if (!copy || len > c->limit || find(c, key)) {
		pthread_mutex_unlock(&c->lock);
		free(copy);
		free(e);
		return;
	}
	memcpy(copy, data, len);
	*e = (nm_cache_entry){ .key = key, .data = copy, .len = len, .ready = true };
	size_t b = bucket_of(c, key);
	e->hnext = c->buckets[b];
	c->buckets[b] = e;
	c->count++;
	c->bytes += len;
	lru_push_front(c, e);
	evict(c, e);
	if (c->count > c->nbuckets)
		grow_buckets(c);
	pthread_mutex_unlock(&c->lock);
}

bool nm_cache_has(nm_cache *c, const void *key)
{
	pthread_mutex_lock(&c->lock);
	bool has = find(c, key) != NULL;
	pthread_mutex_unlock(&c->lock);
	return has;
}

const uint8_t *nm_cache_data(const nm_cache_entry *e) { return e->data; }
size_t nm_cache_len(const nm_cache_entry *e) { return e->len; }

void nm_cache_release(nm_cache *c, nm_cache_entry *e)
{
	pthread_mutex_lock(&c->lock);
	if (--e->pins == 0) {
		if (e->dropped)
			entry_free(e);
		else
			evict(c, c->head); /* the most recent entry stays, however big */
	}
	pthread_mutex_unlock(&c->lock);
}

uint64_t nm_cache_fills(nm_cache *c)
{
	pthread_mutex_lock(&c->lock);
	uint64_t n = c->fills;
	pthread_mutex_unlock(&c->lock);
	return n;
}

size_t nm_cache_bytes(nm_cache *c)
{
	pthread_mutex_lock(&c->lock);
	size_t n = c->bytes;
	pthread_mutex_unlock(&c->lock);
	return n;
}
