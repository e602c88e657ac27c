#include "fuse/ahead.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "fuse/prefill.h"

/* Asks waiting for the thread; when it falls this far behind, an ask is dropped (its
 * files are then produced by their READs, as without it). */
#define QUEUE 64u
/* Marks on a directory (nm_node_mark; prefill.c uses 0x01 to 0x04): its large files are
 * queued; a READ came from it; one came from one of its subdirectories, then from
 * another (a reader walking its tree, who will come back for its own large files). */
#define AHEAD     0x08
#define READ_HERE 0x10
#define ENTERED   0x20
#define WALKED    0x40
/* Levels of the last READ's directory kept: it and its parents. */
#define DEPTH 4u

struct nm_fuse_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* ids (a node may be evicted meanwhile); whole: produce file whole; siblings: the
	 * large files of dir after file; tree: while the reader stays anywhere under dir
	 * (else only in dir itself) */
	struct ask { uint64_t dir, file; bool whole, siblings, tree; } queue[QUEUE];
	size_t head, count;
	bool stop;
	uint64_t budget;            /* bytes of files one directory's ask produces */
	_Atomic uint64_t reading;   /* the directory of the last READ */
	_Atomic uint64_t last;      /* and its file */
	_Atomic uint64_t above[DEPTH - 1]; /* the directories above reading (0: none) */
};

/* Whether the reader is still in dir (tree: or below it, a few levels down). */
static bool still_reading(struct nm_fuse_ahead *a, uint64_t dir, bool tree)
{
	if (atomic_load_explicit(&a->reading, memory_order_relaxed) == dir)
		return true;
	for (unsigned i = 0; tree && i < DEPTH - 1; i++)
		if (atomic_load_explicit(&a->above[i], memory_order_relaxed) == dir)
			return true;
	return false;
}

/* Whether k is a file to produce ahead: a lazy one not made yet that the prefill leaves
 * to READ (larger than it pushes, or not at hand), of at most left bytes. */
static bool worth_ahead(nm_tree *t, nm_node *k, uint64_t left, uint64_t *size)
{
	nm_error err;
	if (nm_node_type(k) != NM_NODE_LAZY || nm_node_produced(t, k) ||
	    nm_size(t, k, size, &err) != NM_OK || *size == 0 || *size > left)
		return false;
	return *size > NM_FUSE_PREFILL_MAX || !nm_node_at_hand(k);
}

static void produce_siblings(nm_fuse_fs *fs, struct nm_fuse_ahead *a, const struct ask *q)
{
	nm_node *dir, **kids;
	size_t count, i = 0;
	nm_error err;
	if (nm_node_get(fs->tree, q->dir, &dir, &err) != NM_OK)
		return;
	if (nm_children(fs->tree, dir, &kids, &count, &err) == NM_OK) {
		while (i < count && nm_node_id(kids[i]) != q->file)
			i++;
		uint64_t left = a->budget, size;
		for (i++; i < count && still_reading(a, q->dir, q->tree); i++)
			if (worth_ahead(fs->tree, kids[i], left, &size)) {
				left -= size;
				/* A failure is the file's READ's to report. The file made is
				 * handed to the kernel too: its READs are not sent. */
				if (nm_produce(fs->tree, kids[i], &err) == NM_OK)
					nm_fuse_prefill_push(fs, kids[i]);
			} else if (nm_node_type(kids[i]) == NM_NODE_SLICE) {
				/* nothing to make: a chunk's raw.bin larger than the prefill's
				 * files is pushed as it is (one pread) */
				nm_fuse_prefill_push(fs, kids[i]);
			}
	}
	nm_node_put(fs->tree, dir);
}

static void serve(nm_fuse_fs *fs, struct nm_fuse_ahead *a, const struct ask *q)
{
	nm_node *n;
	nm_error err;
	if (q->whole && still_reading(a, q->dir, false) &&
	    nm_node_get(fs->tree, q->file, &n, &err) == NM_OK) {
		nm_produce(fs->tree, n, &err);
		nm_node_put(fs->tree, n);
	}
	if (q->siblings && still_reading(a, q->dir, q->tree))
		produce_siblings(fs, a, q);
}

static void *run(void *arg)
{
	nm_fuse_fs *fs = arg;
	pthread_setname_np(pthread_self(), "nm-ahead");
	struct nm_fuse_ahead *a = fs->ahead;
	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		if (a->count == 0) {
			pthread_cond_wait(&a->wake, &a->lock);
			continue;
		}
		struct ask q = a->queue[a->head];
		a->head = (a->head + 1) % QUEUE;
		a->count--;
		pthread_mutex_unlock(&a->lock);
		serve(fs, a, &q);
		pthread_mutex_lock(&a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int nm_fuse_ahead_start(nm_fuse_fs *fs, uint64_t cache_size)
{
	struct nm_fuse_ahead *a = calloc(1, sizeof *a);
	if (!a)
		return -1;
	a->budget = cache_size / 2;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	fs->ahead = a;
	if (pthread_create(&a->thread, NULL, run, fs) != 0) {
		fs->ahead = NULL;
		pthread_cond_destroy(&a->wake);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return -1;
	}
	return 0;
}

void nm_fuse_ahead_stop(nm_fuse_fs *fs)
{
	struct nm_fuse_ahead *a = fs->ahead;
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	a->count = 0;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	fs->ahead = NULL;
	pthread_cond_destroy(&a->wake);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

void nm_fuse_ahead_ask(nm_fuse_fs *fs, nm_node *file, uint64_t off, size_t size)
{
	struct nm_fuse_ahead *a = fs->ahead;
	if (!a)
		return;
	nm_node *dir = nm_node_parent(file);
	uint64_t id = nm_node_id(dir), fid = nm_node_id(file);
	/* A reader walks dir once it reads a second file there, or one file through: not
	 * for a single head (file's sniffing), whose time the production would share. */
	bool through = off + size > NM_FUSE_AHEAD_HEAD;
	bool walks = through || (atomic_load_explicit(&a->reading, memory_order_relaxed) == id &&
				 atomic_load_explicit(&a->last, memory_order_relaxed) != fid);
	atomic_store_explicit(&a->reading, id, memory_order_relaxed);
	atomic_store_explicit(&a->last, fid, memory_order_relaxed);
	/* The directories above, a held file's (its content is kept while it is). */
	nm_node *up = dir;
	for (unsigned i = 0; i < DEPTH - 1; i++) {
		nm_node *next = nm_node_parent(up);
		up = next != up ? next : NULL;
		atomic_store_explicit(&a->above[i], up ? nm_node_id(up) : 0, memory_order_relaxed);
		if (!up)
			break;
	}
	bool whole = through && nm_node_ranged(fs->tree, file) && !nm_node_produced(fs->tree, file);
	bool siblings = walks && nm_node_mark(dir, AHEAD);
	/* READs from a second subdirectory of an ancestor: a reader walking its tree (find,
	 * cp -r), who reads its own files after its subdirectories' in listing order. Its
	 * large ones after that subdirectory are produced while the reader is below them.
	 * The ancestor is looked for a few levels up, not only as dir's parent: the prefill
	 * leaves READs to the first files of deeper directories (evp1/inverse_bind/0.txt,
	 * then jnt1/joints/0.txt, walk the root), whose parents' own files it pushed. A
	 * level whose READ_HERE was set already was looked at by an earlier READ. */
	uint64_t tree[DEPTH - 1][2]; /* (ancestor, its subdirectory the reader is in) */
	unsigned trees = 0, level = 0;
	/* as far up as still_reading looks */
	for (nm_node *child = dir, *up = nm_node_parent(dir); level++ < DEPTH - 1 && up != child &&
	     nm_node_mark(child, READ_HERE); child = up, up = nm_node_parent(up))
		if (!nm_node_mark(up, ENTERED) && nm_node_mark(up, WALKED) && nm_node_mark(up, AHEAD)) {
			tree[trees][0] = nm_node_id(up);
			tree[trees++][1] = nm_node_id(child);
		}
	if (!whole && !siblings && !trees)
		return;
	pthread_mutex_lock(&a->lock);
	if (a->count < QUEUE && (whole || siblings)) {
		a->queue[(a->head + a->count) % QUEUE] =
			(struct ask){ id, fid, whole, siblings, false };
		a->count++;
	}
	for (unsigned i = 0; i < trees && a->count < QUEUE; i++) {
		a->queue[(a->head + a->count) % QUEUE] =
			(struct ask){ tree[i][0], tree[i][1], false, true, true };
		a->count++;
	}
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
}
