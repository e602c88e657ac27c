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
#include <malloc.h>
#endif
#include "lib/tree_internal.h"

/* The content whose populate this thread runs (NULL: none; nodes go to the build's). */
static _Thread_local nm_content *building;

nm_content *nm_content_current(nm_tree *t)
{
	return building && building->tree == t ? building : t->contents[0];
}

nm_content *nm_content_new(nm_tree *t)
{
	if (t->ncontents == t->capcontents) {
		uint32_t cap = t->capcontents ? t->capcontents * 2 : 16;
		nm_content **a = cap > t->capcontents ? realloc(t->contents, cap * sizeof *a) : NULL;
		if (!a)
			return NULL;
		t->contents = a;
		t->capcontents = cap;
	}
	nm_content *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->tree = t;
	c->serial = t->ncontents;
	t->contents[t->ncontents++] = c;
	return c;
}

nm_content *nm_content_for_lazy_dir(nm_tree *t)
{
	nm_content *owner = nm_content_current(t);
	if (owner->reuse < owner->nmade)
		return owner->made[owner->reuse++];
	if (owner->nmade == owner->capmade) {
		size_t cap = owner->capmade ? owner->capmade * 2 : 4;
		nm_content **a = realloc(owner->made, cap * sizeof *a);
		if (!a)
			return NULL;
		owner->made = a;
		owner->capmade = cap;
	}
	nm_content *c = nm_content_new(t);
	if (!c)
		return NULL;
	c->owner = owner;
	owner->made[owner->nmade++] = c;
	owner->reuse = owner->nmade;
	return c;
}

/* --- cleanups -------------------------------------------------------------------- */

nm_status nm_tree_on_free(nm_tree *t, nm_free_fn fn, void *p)
{
	pthread_mutex_lock(&t->lock);
	/* Grows by doubling: a driver's records all come from nm_tree_alloc. A populate's
	 * allocations belong to its content and go with it when it is evicted. */
	nm_content *c = nm_content_current(t);
	struct cleanup *a = c->cleanups;
	if (c->ncleanups == c->capcleanups) {
		size_t cap = c->capcleanups ? 2 * c->capcleanups : 16;
		if ((a = realloc(c->cleanups, cap * sizeof *a))) {
			c->cleanups = a;
			c->capcleanups = cap;
		}
	}
	if (a) {
		a[c->ncleanups].fn = fn;
		a[c->ncleanups].p = p;
		c->ncleanups++;
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
		nm_content *c = t->contents[i];
		run_cleanups(c->cleanups, c->ncleanups);
		free(c->nodes);
		free(c->made);
		free(c->msg);
		free(c);
	}
	free(t->contents);
}

/* --- populating ------------------------------------------------------------------ */

/* Heap bytes in use, to measure what a populate keeps (the drivers' parse state as well
 * as the nodes). Other threads allocating meanwhile blur it; it is a budget, not an
 * account. 0 where the C library cannot tell. */
static size_t heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

static void lru_unlink(nm_tree *t, nm_content *c)
{
	if (c->older)
		c->older->newer = c->newer;
	else if (t->oldest == c)
		t->oldest = c->newer;
	if (c->newer)
		c->newer->older = c->older;
	else if (t->newest == c)
		t->newest = c->older;
	c->older = c->newer = NULL;
}

static void lru_push_newest(nm_tree *t, nm_content *c)
{
	c->older = t->newest;
	c->newer = NULL;
	if (t->newest)
		t->newest->newer = c;
	t->newest = c;
	if (!t->oldest)
		t->oldest = c;
}

/* The outcome of dir's populate, as the one that ran it saw it. */
static nm_status populate_result(const nm_node *dir, nm_error *err)
{
	const nm_content *c = dir->pop;
	if (c->status == NM_OK)
		return NM_OK;
	if (!c->msg)
		return nm_fail(err, c->status, dir->name, NULL, NM_NO_OFFSET, "%s",
			       nm_status_str(c->status));
	if (err) {
		err->code = c->status;
		snprintf(err->msg, sizeof err->msg, "%s", c->msg);
	}
	return c->status;
}

/* Run dir's populate callback, unlocked (see struct nm_tree). A failure keeps what was
 * added and says why in the directory itself (error.txt, unless the callback made
 * one) and in its status, so every caller, not only this one, hears of it. */
static void run_populate(nm_tree *t, nm_node *dir)
{
	nm_content *c = dir->pop;
	nm_error e;
	t->populations++;
	c->phase = CONTENT_RUNNING;
	c->runner = pthread_self();
	c->reuse = 0;
	c->pins++; /* its own nodes are being made: not evicted meanwhile */
	c->owner->resident_made++;
	nm_content *outer_content = building;
	building = c;
	pthread_mutex_unlock(&t->lock);

	size_t before = t->evictable ? heap_in_use() : 0;
	nm_error_clear(&e);
	uint64_t outer = nm_reader_batch_begin(); /* a member's parse: one check of the source */
	nm_status s = c->fn(t, dir, c->ctx, c->arg, &e);
	nm_reader_batch_end(outer);
	char *msg = NULL;
	if (s != NM_OK) {
		if (!e.msg[0])
			nm_fail(&e, s, dir->name, NULL, NM_NO_OFFSET, "%s", nm_status_str(s));
		if (!nm_child(t, dir, "error.txt"))
			nm_error_file(t, dir, &e);
		msg = strdup(e.msg);
	}
	size_t after = t->evictable ? heap_in_use() : 0;
	building = outer_content;

	pthread_mutex_lock(&t->lock);
	c->status = s;
	free(c->msg);
	c->msg = msg;
	c->phase = CONTENT_DONE;
	c->pins--;
	/* At least the nodes, whatever else the heap did meanwhile. */
	c->bytes = after > before ? after - before : 0;
	if (c->bytes < (size_t)c->nnodes * sizeof(nm_node))
		c->bytes = (size_t)c->nnodes * sizeof(nm_node);
	t->resident_bytes += c->bytes;
	lru_push_newest(t, c);
	pthread_cond_broadcast(&t->populated);
}

nm_status nm_content_populate(nm_tree *t, nm_node *dir, nm_error *err)
{
	nm_content *c = dir->pop;
	if (!c)
		return NM_OK;
	if (c->phase == CONTENT_NEEDED) {
		run_populate(t, dir);
	} else if (c->phase == CONTENT_RUNNING) {
		/* A callback that looks up its own directory would wait for itself. */
		if (pthread_equal(c->runner, pthread_self()))
			return nm_fail(err, NM_E_INVAL, dir->name, NULL, NM_NO_OFFSET,
				       "looked up while it is being populated");
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
	nm_status s = hold(t, c->owner, err);
	if (s != NM_OK)
		return s;
	if (!c->dir) { /* the owner, populated again, no longer makes it */
		c->owner->pins--;
		return nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET,
			       "a directory that is gone");
	}
	/* Pinned before it is populated: waiting for another thread's populate lets go of
	 * the lock, and a content nothing pins could be evicted as soon as it is done. */
	c->pins++;
	nm_content_populate(t, c->dir, NULL); /* a failure is its content: error.txt */
	c->owner->pins--;
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
	nm_content *c = serial < t->ncontents ? t->contents[serial] : NULL;
	nm_status s = c ? hold(t, c, err)
			: nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET, "no node %llu",
				  (unsigned long long)id);
	if (s == NM_OK && (rank == 0 || rank > c->nnodes)) {
		c->pins--;
		s = nm_fail(err, NM_E_NOENT, "tree", NULL, NM_NO_OFFSET, "no node %llu",
			    (unsigned long long)id);
	}
	if (s == NM_OK) {
		nm_node *n = c->nodes[rank - 1];
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
	for (uint32_t i = c->nnodes; i-- > 0;) {
		nm_node *n = c->nodes[i];
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
	t->nnodes -= c->nnodes;
	free(c->nodes);
	c->nodes = NULL;
	c->nnodes = c->capnodes = 0;
	free(c->dir->kids);
	c->dir->kids = NULL;
	c->dir->nkids = c->dir->capkids = 0;
	c->phase = CONTENT_NEEDED;
	t->resident_bytes -= c->bytes;
	c->bytes = 0;
	c->owner->resident_made--;
	lru_unlink(t, c);
	struct cleanup *a = c->cleanups;
	*ncleanups = c->ncleanups;
	c->cleanups = NULL;
	c->ncleanups = c->capcleanups = 0;
	return a;
}

/* The least recently used content nothing holds and nothing nested in keeps. */
static nm_content *victim(nm_tree *t)
{
	for (nm_content *c = t->oldest; c; c = c->newer)
		if (c->pins == 0 && c->resident_made == 0 && c->phase == CONTENT_DONE)
			return c;
	return NULL;
}

void nm_node_put(nm_tree *t, nm_node *n)
{
	pthread_mutex_lock(&t->lock);
	t->contents[n->id >> 32]->pins--;
	if (n->kind == NM_NODE_DIR && n->pop)
		n->pop->pins--;
	while (t->evictable && t->resident_bytes > t->resident_budget) {
		nm_content *c = victim(t);
		if (!c)
			break;
		size_t count;
		struct cleanup *a = evict(t, c, &count);
		pthread_mutex_unlock(&t->lock);
		run_cleanups(a, count);
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
}

void nm_tree_allow_eviction(nm_tree *t)
{
	pthread_mutex_lock(&t->lock);
	t->evictable = true;
	t->resident_budget = (size_t)(t->opt.cache_size / 4);
	pthread_mutex_unlock(&t->lock);
}
