#include "fuse/prefill.h" /* before fuse_lowlevel.h: its FUSE_USE_VERSION */
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Page cache is counted in pages: a 100-byte file takes 4 KiB of it. */
#define PAGE 4096u
/* Directories waiting for the thread, served newest first (where the reader is now);
 * when it falls this far behind, the oldest is dropped (its files are then READ as
 * usual). */
#define QUEUE 1024u
/* Marks on directories (nm_node_mark): */
#define PUSHED  0x01 /* its files are pushed, or queued to be */
#define ENTERED 0x02 /* a reader has entered one of its subdirectories */
#define WALKED  0x04 /* ... and then another: the rest of them are pushed */

struct nm_fuse_prefill {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* ids: a node may be evicted meanwhile; walk: 0, or the parent whose other
	 * subdirectories are pushed after dir */
	struct ask { uint64_t dir, file, walk; } queue[QUEUE];
	size_t head, count;
	bool stop;
	bool nested;              /* serving asks from inside another's push (the thread's) */
	_Atomic uint64_t left;    /* the budget (this thread and ahead.c's spend it) */
};

/* Take cost bytes of the budget; false when less is left. */
static bool spend(struct nm_fuse_prefill *p, uint64_t cost)
{
	uint64_t left = atomic_load(&p->left);
	do
		if (cost > left)
			return false;
	while (!atomic_compare_exchange_weak(&p->left, &left, left - cost));
	return true;
}

/* Push file k whole, if of at most max bytes: 1 pushed (or refused by the kernel), 0 not
 * pushed (empty, too large, or its bytes failed: its READ says why), -1 the budget is
 * spent. */
static int push_one(nm_fuse_fs *fs, struct nm_fuse_prefill *p, nm_node *k, uint64_t max)
{
	nm_error err;
	uint64_t size;
	nm_read_hold h;
	if (nm_size(fs->tree, k, &size, &err) != NM_OK || size == 0 || size > max ||
	    size > SIZE_MAX)
		return 0;
	uint64_t cost = (size + PAGE - 1) / PAGE * PAGE;
	if (!spend(p, cost))
		return -1;
	/* A text file's hold points into the tree; a slice's is one pread; a lazy file's is
	 * produced into the cache (or found there), where its READ would have put it. */
	if (nm_read_pin(fs->tree, k, 0, (size_t)size, &h, &err) != NM_OK) {
		atomic_fetch_add(&p->left, cost);
		return 0;
	}
	struct fuse_bufvec buf = FUSE_BUFVEC_INIT(h.len);
	buf.buf[0].mem = (void *)h.data;
	/* Refused (an inode the kernel does not hold: a file never listed): free. */
	if (fuse_lowlevel_notify_store(fs->se, nm_node_id(k), 0, &buf, 0) != 0)
		atomic_fetch_add(&p->left, cost);
	nm_read_release(fs->tree, &h);
	return 1;
}

static void serve_waiting(nm_fuse_fs *fs, struct nm_fuse_prefill *p);

/* Push the small files at hand among kids but the one being READ; false once the budget
 * is spent. A directory the reader has entered since comes first: a push of many
 * files (the root's, each subdirectory's one level down, vertex CSVs formatted) takes
 * longer than a find or cp takes to reach the next directory, whose files it then
 * READs one by one while the push is elsewhere. */
static bool push_files(nm_fuse_fs *fs, struct nm_fuse_prefill *p, nm_node **kids,
		       size_t count, uint64_t read)
{
	for (size_t i = 0; i < count; i++) {
		serve_waiting(fs, p);
		if (nm_node_id(kids[i]) != read && nm_node_at_hand(kids[i]) &&
		    push_one(fs, p, kids[i], NM_FUSE_PREFILL_MAX) < 0)
			return false;
	}
	return true;
}

/* Whether k is a subdirectory to push now: one whose children cost no populate (a lazy
 * directory's are never made for the prefill), not pushed before; marks it pushed. */
static bool claim_subdir(nm_node *k)
{
	return nm_node_type(k) == NM_NODE_DIR && !nm_node_lazy_dir(k) && nm_node_mark(k, PUSHED);
}

/* Push dir's files, then those of its subdirectories built with it (a mesh's
 * primitives/, a shape's packets/), which a reader of dir enters next: one level, so
 * reading one file near the root does not push the whole tree. A lazy subdirectory (an
 * archive member) is not populated for it. */
static void push_dir(nm_fuse_fs *fs, struct nm_fuse_prefill *p, nm_node *dir, uint64_t read)
{
	nm_node **kids, **sub;
	size_t count, nsub;
	nm_error err;
	if (nm_children(fs->tree, dir, &kids, &count, &err) != NM_OK)
		return;
	/* One check that the source has not changed for all the slices read here. */
	uint64_t batch = nm_reader_batch_begin();
	bool more = push_files(fs, p, kids, count, read);
	for (size_t i = 0; more && i < count; i++) {
		nm_node *k = kids[i];
		if (claim_subdir(k) && nm_children(fs->tree, k, &sub, &nsub, &err) == NM_OK)
			more = push_files(fs, p, sub, nsub, 0);
	}
	nm_reader_batch_end(batch);
}

/* A reader walking up's tree (find, cp -r, grep -r) enters its subdirectories one after
 * the other, each costing a READ before its push: push those not pushed yet, each with
 * one level below it, while the reader is still in the first ones. */
static void push_walk(nm_fuse_fs *fs, struct nm_fuse_prefill *p, nm_node *up)
{
	nm_node **kids;
	size_t count;
	nm_error err;
	if (nm_children(fs->tree, up, &kids, &count, &err) != NM_OK)
		return;
	for (size_t i = 0; i < count && atomic_load(&p->left) >= PAGE; i++) {
		nm_node *k = kids[i];
		if (claim_subdir(k))
			push_dir(fs, p, k, 0);
	}
}

/* Push what a is for, if its nodes are still there. */
static void serve(nm_fuse_fs *fs, struct nm_fuse_prefill *p, const struct ask *a)
{
	nm_node *n;
	nm_error err;
	if (atomic_load(&p->left) >= PAGE && nm_node_get(fs->tree, a->dir, &n, &err) == NM_OK) {
		push_dir(fs, p, n, a->file);
		nm_node_put(fs->tree, n);
	}
	if (a->walk && atomic_load(&p->left) >= PAGE && nm_node_get(fs->tree, a->walk, &n, &err) == NM_OK) {
		push_walk(fs, p, n);
		nm_node_put(fs->tree, n);
	}
}

/* The newest ask (where the reader is now) into a; false when none waits. Under the lock. */
static bool take_newest(struct nm_fuse_prefill *p, struct ask *a)
{
	if (p->count == 0 || p->stop)
		return false;
	p->count--;
	*a = p->queue[(p->head + p->count) % QUEUE];
	return true;
}

/* Serve the asks waiting, newest first, from inside a push (one level deep: the push
 * they interrupt then goes on). */
static void serve_waiting(nm_fuse_fs *fs, struct nm_fuse_prefill *p)
{
	struct ask a;
	if (p->nested)
		return;
	p->nested = true;
	pthread_mutex_lock(&p->lock);
	while (take_newest(p, &a)) {
		pthread_mutex_unlock(&p->lock);
		serve(fs, p, &a);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	p->nested = false;
}

static void *run(void *arg)
{
	nm_fuse_fs *fs = arg;
	struct nm_fuse_prefill *p = fs->prefill;
	struct ask a;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (!take_newest(p, &a)) {
			if (!p->stop)
				pthread_cond_wait(&p->wake, &p->lock);
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		serve(fs, p, &a);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int nm_fuse_prefill_start(nm_fuse_fs *fs, uint64_t budget)
{
	if (budget < PAGE)
		return 0;
	struct nm_fuse_prefill *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	atomic_init(&p->left, budget);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	fs->prefill = p;
	if (pthread_create(&p->thread, NULL, run, fs) != 0) {
		fs->prefill = NULL;
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return -1;
	}
	return 0;
}

void nm_fuse_prefill_stop(nm_fuse_fs *fs)
{
	struct nm_fuse_prefill *p = fs->prefill;
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	fs->prefill = NULL;
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

void nm_fuse_prefill_ask(nm_fuse_fs *fs, nm_node *file)
{
	struct nm_fuse_prefill *p = fs->prefill;
	nm_node *dir = nm_node_parent(file);
	if (!p || !nm_node_mark(dir, PUSHED))
		return;
	/* The second subdirectory of up that a reader enters: it walks up's tree. */
	nm_node *up = nm_node_parent(dir);
	bool walk = up != dir && !nm_node_mark(up, ENTERED) && nm_node_mark(up, WALKED);
	pthread_mutex_lock(&p->lock);
	if (p->count == QUEUE) { /* far behind: the oldest ask is dropped */
		p->head = (p->head + 1) % QUEUE;
		p->count--;
	}
	p->queue[(p->head + p->count) % QUEUE] =
		(struct ask){ nm_node_id(dir), nm_node_id(file), walk ? nm_node_id(up) : 0 };
	p->count++;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

void nm_fuse_prefill_push(nm_fuse_fs *fs, nm_node *file)
{
	if (fs->prefill && (nm_node_produced(fs->tree, file) ||
			    (nm_node_type(file) == NM_NODE_SLICE && nm_node_at_hand(file))))
		push_one(fs, fs->prefill, file, NM_FUSE_MAX_REQUEST);
}
