/* Lazy directories' content: populated on first use, held while requests use it, and
 * (once a front end allows it) evicted when the contents held cost more than their
 * budget, to be populated again when asked for. The FUSE daemon allows it: a 50,000-
 * asset PAK listed in full would otherwise keep every asset's parse and nodes for good.
 *
 * Ids stay valid across eviction: a node's id is its content's serial and its rank in
 * that content, and populating the same directory again makes the same nodes in the
 * same order (drivers are deterministic), reusing the lazy directories it made before,
 * serials and all. An id whose content is evicted is resolved by populating it again,
 * its owners first (nm_node_get). Contents nest: one is never evicted while a content
 * its populate made is resident, so the directories a resident node hangs from stay. */
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h> /* malloc_trim */
#endif
#include "lib/tree_internal.h"

/* The content whose populate this thread runs, and its tree (NULL: none; nodes go to
 * the build's). */
static _Thread_local nm_content *building;
static _Thread_local nm_tree *building_tree;

nm_content *nm_content_current(nm_tree *t)
{
	return building && building_tree == t ? building : NM_CONTENT(t, 0);
}

nm_content *nm_content_new(nm_tree *t)
{
	uint32_t block = t->ncontents / NM_CONTENT_BLOCK;
	if (t->ncontents % NM_CONTENT_BLOCK == 0) {
		if (block == t->capblocks) {
			nm_content **a = nm_tree_grow(t->content_blocks, &t->capblocks, sizeof *a, 4);
			if (!a)
				return NULL;
			t->content_blocks = a;
		}
		t->content_blocks[block] = calloc(NM_CONTENT_BLOCK, sizeof(nm_content));
		if (!t->content_blocks[block])
			return NULL;
	}
	nm_content *c = NM_CONTENT(t, t->ncontents);
	c->serial = t->ncontents++;
	return c;
}

/* The index of (fn, ctx) in m's kinds, added if new; NM_CONTENT_KINDS_MAX when memory
 * runs out. Only the last few are searched: a driver makes its lazy directories in
 * runs of one kind, and a pair listed twice costs only its 16 bytes. */
static uint32_t kind_index(nm_made *m, nm_populate_fn fn, void *ctx)
{
	for (uint32_t i = m->nkinds; i-- > 0 && m->nkinds - i <= 4;)
		if (m->kinds[i].fn == fn && m->kinds[i].ctx == ctx)
			return i;
	if (m->nkinds == NM_CONTENT_KINDS_MAX - 1)
		return NM_CONTENT_KINDS_MAX;
	if (m->nkinds == m->capkinds) {
		struct nm_populate_kind *a = nm_tree_grow(m->kinds, &m->capkinds, sizeof *a, 2);
		if (!a)
			return NM_CONTENT_KINDS_MAX;
		m->kinds = a;
	}
	m->kinds[m->nkinds] = (struct nm_populate_kind){ fn, ctx };
	return m->nkinds++;
}

nm_content *nm_content_for_lazy_dir(nm_tree *t, nm_populate_fn fn, void *ctx)
{
	nm_content *owner = nm_content_current(t), *c;
	nm_made *m = owner->made;
	if (!m && !(m = owner->made = calloc(1, sizeof *m)))
		return NULL;
	uint32_t kind = kind_index(m, fn, ctx);
	if (kind == NM_CONTENT_KINDS_MAX)
		return NULL;
	if (m->reuse < m->n) {
		c = m->list[m->reuse++];
	} else {
		if (m->n == m->cap) {
			nm_content **a = nm_tree_grow(m->list, &m->cap, sizeof *a, 4);
			if (!a)
				return NULL;
			m->list = a;
		}
		if (!(c = nm_content_new(t)))
			return NULL;
		c->owner = owner->serial;
		m->list[m->n++] = c;
		m->reuse = m->n;
	}
	c->kind = kind;
	return c;
}

/* --- cleanups -------------------------------------------------------------------- */

/* What an object handed to nm_tree_on_free costs when its size is not known: a guess
 * for the budget (a driver's context, a reader). */
#define UNSIZED_COST 256

nm_status nm_tree_on_free(nm_tree *t, nm_free_fn fn, void *p)
{
	return nm_content_on_free(t, fn, p, UNSIZED_COST);
}

nm_status nm_content_on_free(nm_tree *t, nm_free_fn fn, void *p, size_t cost)
{
	pthread_mutex_lock(&t->lock);
	/* Grows by doubling: a driver's records all come from nm_tree_alloc. A populate's
	 * allocations belong to its content and go with it when it is evicted. */
	nm_residence *r = nm_content_current(t)->res;
	struct cleanup *a = r->cleanups;
	if (r->ncleanups == r->capcleanups) {
		size_t cap = r->capcleanups ? 2 * r->capcleanups : 16;
		if ((a = realloc(r->cleanups, cap * sizeof *a))) {
			r->cleanups = a;
			r->capcleanups = cap;
		}
	}
	if (a) {
		a[r->ncleanups].fn = fn;
		a[r->ncleanups].p = p;
		r->ncleanups++;
		r->bytes += cost + sizeof *a;
	}
	pthread_mutex_unlock(&t->lock);
	if (!a) {
		fn(p);
		return NM_E_NOMEM;
	}
	return NM_OK;
}

static void run_cleanups(struct cleanup *a, size_t n)
{
	for (size_t i = n; i-- > 0;)
		a[i].fn(a[i].p);
	free(a);
}

void nm_content_free_all(nm_tree *t)
{
	for (uint32_t i = t->ncontents; i-- > 0;) {
		nm_content *c = NM_CONTENT(t, i);
		if (c->res) {
			run_cleanups(c->res->cleanups, c->res->ncleanups);
			free(c->res->nodes);
			free(c->res->msg);
			free(c->res);
		}
		if (c->made) {
			free(c->made->list);
			free(c->made->kinds);
			free(c->made);
		}
	}
	for (uint32_t b = 0; b * NM_CONTENT_BLOCK < t->ncontents; b++)
		free(t->content_blocks[b]);
	free(t->content_blocks);
}

void nm_content_charge(nm_tree *t, size_t bytes)
{
	nm_content_current(t)->res->bytes += bytes;
}

/* --- populating ------------------------------------------------------------------ */

static void lru_unlink(nm_tree *t, nm_content *c)
{
	nm_residence *r = c->res;
	if (r->older)
		r->older->res->newer = r->newer;
	else if (t->oldest == c)
		t->oldest = r->newer;
	if (r->newer)
		r->newer->res->older = r->older;
	else if (t->newest == c)
		t->newest = r->older;
	r->older = r->newer = NULL;
}

static void lru_push_newest(nm_tree *t, nm_content *c)
{
	c->res->older = t->newest;
	c->res->newer = NULL;
	if (t->newest)
		t->newest->res->newer = c;
	t->newest = c;
	if (!t->oldest)
		t->oldest = c;
}

/* The outcome of dir's populate, as the one that ran it saw it. */
static nm_status populate_result(const nm_node *dir, nm_error *err)
{
	const nm_residence *r = dir->pop->res;
	if (!r) /* evicted meanwhile: it was populated (a failure stays in its error.txt) */
		return NM_OK;
	if (r->status == NM_OK)
		return NM_OK;
	if (!r->msg)
		return nm_fail(err, r->status, dir->name, NULL, NM_NO_OFFSET, "%s",
			       nm_status_str(r->status));
	if (err) {
		err->code = r->status;
		snprintf(err->msg, sizeof err->msg, "%s", r->msg);
	}
	return r->status;
}

/* Run dir's populate callback, unlocked (see struct nm_tree). A failure keeps what was
 * added and says why in the directory itself (error.txt, unless the callback made
 * one) and in its status, so every caller, not only this one, hears of it. */
static nm_status run_populate(nm_tree *t, nm_node *dir, nm_error *err)
{
	nm_content *c = dir->pop;
	nm_error e;
	c->res = calloc(1, sizeof *c->res);
	if (!c->res)
		return nm_fail(err, NM_E_NOMEM, dir->name, NULL, NM_NO_OFFSET, "out of memory");
	t->populations++;
	c->phase = CONTENT_RUNNING;
	c->res->runner = pthread_self();
	if (c->made) /* made again, in order, and their kinds with them */
		c->made->reuse = c->made->nkinds = 0;
	c->pins++; /* its own nodes are being made: not evicted meanwhile */
	NM_CONTENT(t, c->owner)->res->resident_made++;
	/* Its owner's kinds may move once unlocked (not while c is populated: the owner is
	 * held and made again only after its eviction). */
	struct nm_populate_kind k = NM_CONTENT(t, c->owner)->made->kinds[c->kind];
	nm_content *outer_content = building;
	nm_tree *outer_tree = building_tree;
	building = c;
	building_tree = t;
	pthread_mutex_unlock(&t->lock);

	nm_before_long_work(&t->opt);
	nm_error_clear(&e);
	uint64_t outer = nm_reader_batch_begin(); /* a member's parse: one check of the source */
	nm_status s = k.fn(t, dir, k.ctx, c->arg, &e);
	nm_reader_batch_end(outer);
	char *msg = NULL;
	if (s != NM_OK) {
		if (!e.msg[0])
			nm_fail(&e, s, dir->name, NULL, NM_NO_OFFSET, "%s", nm_status_str(s));
		if (!nm_child(t, dir, "error.txt"))
			nm_error_file(t, dir, &e);
		msg = strdup(e.msg);
	}
	building = outer_content;
	building_tree = outer_tree;

	pthread_mutex_lock(&t->lock);
	nm_residence *r = c->res;
	r->status = s;
	r->msg = msg;
	c->phase = CONTENT_DONE;
	c->pins--;
	t->resident_bytes += r->bytes; /* counted as it was made (nm_content_charge) */
	lru_push_newest(t, c);
	pthread_cond_broadcast(&t->populated);
	return NM_OK;
}

nm_status nm_content_populate(nm_tree *t, nm_node *dir, nm_error *err)
{
	nm_content *c = dir->pop;
	if (!c)
		return NM_OK;
	if (c->phase == CONTENT_NEEDED) {
		nm_status s = run_populate(t, dir, err);
		if (s != NM_OK)
			return s;
	} else if (c->phase == CONTENT_RUNNING) {
		/* A callback that looks up its own directory would wait for itself. */
		if (pthread_equal(c->res->runner, pthread_self()))
			return nm_fail(err, NM_E_INVAL, dir->name, NULL, NM_NO_OFFSET,
				       "looked up while it is being populated");
		nm_before_long_work(&t->opt);
		while (c->phase == CONTENT_RUNNING)
			pthread_cond_wait(&t->populated, &t->lock);
	}
	return populate_result(dir, err);
}

/* --- holding and evicting ---------------------------------------------------------- */

/* Make c resident (its owners first) and pin it. */
static nm_status hold(nm_tree *t, nm_content *c, nm_error *err)
{
	if (c->serial == 0 || c->phase == CONTENT_DONE) {
		c->pins++;
		return NM_OK;
	}
	nm_content *owner = NM_CONTENT(t, c->owner);
	nm_status s = hold(t, owner, err);
	if (s != NM_OK)
		return s;
	if (!c->dir) { /* the owner, populated again, no longer makes it */
		owner->pins--;
		return nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET,
			       "a directory that is gone");
	}
	/* Pinned before it is populated: waiting for another thread's populate lets go of
	 * the lock, and a content nothing pins could be evicted as soon as it is done. */
	c->pins++;
	nm_content_populate(t, c->dir, NULL); /* a failure is its content: error.txt */
	owner->pins--;
	return NM_OK;
}

static void touch(nm_tree *t, nm_content *c)
{
	if (c->serial != 0 && c->phase == CONTENT_DONE) {
		lru_unlink(t, c);
		lru_push_newest(t, c);
	}
}

nm_status nm_node_get(nm_tree *t, uint64_t id, nm_node **out, nm_error *err)
{
	uint32_t serial = (uint32_t)(id >> 32), rank = (uint32_t)id;
	pthread_mutex_lock(&t->lock);
	nm_content *c = serial < t->ncontents ? NM_CONTENT(t, serial) : NULL;
	nm_status s = c ? hold(t, c, err)
			: nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET, "no node %llu",
				  (unsigned long long)id);
	if (s == NM_OK && (!c->res || rank == 0 || rank > c->res->nnodes)) {
		c->pins--;
		s = nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET, "no node %llu",
			    (unsigned long long)id);
	}
	if (s == NM_OK) {
		nm_node *n = c->res->nodes[rank - 1];
		touch(t, c);
		/* A directory's listing is its content: held with it. */
		if (n->kind == NM_NODE_DIR && n->pop)
			n->pop->pins++;
		*out = n;
	}
	pthread_mutex_unlock(&t->lock);
	return s;
}

/* Free c's nodes and hand back its cleanups (run by the caller, unlocked: they may close
 * readers that take other locks). */
static struct cleanup *evict(nm_tree *t, nm_content *c, size_t *ncleanups)
{
	nm_residence *r = c->res;
	for (uint32_t i = r->nnodes; i-- > 0;) {
		nm_node *n = r->nodes[i];
		nm_tree_unhash(t, n);
		if (n->kind == NM_NODE_LAZY)
			nm_cache_forget(t->cache, n);
		if (n->kind == NM_NODE_DIR) {
			if (n->pop)
				n->pop->dir = NULL;
			free(n->kids);
		} else if (n->kind == NM_NODE_TEXT) {
			free(n->text);
		}
		free(n);
	}
	t->nnodes -= r->nnodes;
	free(c->dir->kids);
	c->dir->kids = NULL;
	c->dir->nkids = c->dir->capkids = 0;
	t->resident_bytes -= r->bytes;
	NM_CONTENT(t, c->owner)->res->resident_made--;
	lru_unlink(t, c);
	struct cleanup *a = r->cleanups;
	*ncleanups = r->ncleanups;
	free(r->nodes);
	free(r->msg);
	free(r);
	c->res = NULL;
	c->phase = CONTENT_NEEDED;
	return a;
}

/* The least recently used content nothing holds and nothing nested in keeps. */
static nm_content *victim(nm_tree *t)
{
	for (nm_content *c = t->oldest; c; c = c->res->newer)
		if (c->pins == 0 && c->res->resident_made == 0 && c->phase == CONTENT_DONE)
			return c;
	return NULL;
}

void nm_node_put(nm_tree *t, nm_node *n)
{
	pthread_mutex_lock(&t->lock);
	NM_CONTENT(t, n->id >> 32)->pins--;
	if (n->kind == NM_NODE_DIR && n->pop)
		n->pop->pins--;
	size_t evicted = 0;
	while (t->evictable && t->resident_bytes > t->resident_budget) {
		nm_content *c = victim(t);
		if (!c)
			break;
		size_t count;
		evicted += c->res->bytes;
		struct cleanup *a = evict(t, c, &count);
		pthread_mutex_unlock(&t->lock);
		run_cleanups(a, count);
		pthread_mutex_lock(&t->lock);
	}
	t->untrimmed += evicted;
	bool trim = t->untrimmed > t->resident_budget / 2 + 1;
	if (trim)
		t->untrimmed = 0;
	pthread_mutex_unlock(&t->lock);
#if defined(__GLIBC__)
	/* Evicted contents are many small blocks amid others: freed, they stay in the
	 * heap (the process's RSS) until given back. Now and then, not at every put. */
	if (trim)
		malloc_trim(0);
#endif
}

void nm_tree_allow_eviction(nm_tree *t)
{
	pthread_mutex_lock(&t->lock);
	t->evictable = true;
	/* One budget for all the daemon keeps: a quarter of cache_size for the parsed
	 * contents of lazy directories, the rest for files' bytes. */
	size_t all = t->opt.cache_size > SIZE_MAX ? SIZE_MAX : (size_t)t->opt.cache_size;
	t->resident_budget = all / 4;
	pthread_mutex_unlock(&t->lock);
	nm_cache_set_limit(t->cache, all - all / 4);
}
