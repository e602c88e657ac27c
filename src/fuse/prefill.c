#include "fuse/prefill.h" /* before fuse_lowlevel.h: its FUSE_USE_VERSION */
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdlib.h>

/* Page cache is counted in pages: a 100-byte file takes 4 KiB of it. */
#define PAGE 4096u
/* Directories waiting for the thread; when it falls this far behind, a directory asked
 * for is dropped (its files are then READ as usual). */
#define QUEUE 1024u

struct nm_fuse_prefill {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint64_t queue[QUEUE];    /* node ids: a node may be evicted while it waits */
	size_t head, count;
	bool stop;
	uint64_t left;            /* the budget (only the thread spends it) */
};

/* Push the small files at hand among dir's children, the one READ first among them too
 * (storing its pages again changes nothing). */
static void push_dir(nm_fuse_fs *fs, struct nm_fuse_prefill *p, nm_node *dir)
{
	nm_node **kids;
	size_t count;
	nm_error err;
	if (nm_children(fs->tree, dir, &kids, &count, &err) != NM_OK)
		return;
	/* One check that the source has not changed for all the slices read here. */
	uint64_t batch = nm_reader_batch_begin();
	for (size_t i = 0; i < count; i++) {
		nm_node *k = kids[i];
		uint64_t size;
		nm_read_hold h;
		if (!nm_node_at_hand(k) || nm_size(fs->tree, k, &size, &err) != NM_OK ||
		    size == 0 || size > NM_FUSE_PREFILL_MAX)
			continue;
		uint64_t cost = (size + PAGE - 1) / PAGE * PAGE;
		if (cost > p->left)
			break;
		/* A text file's hold points into the tree; a slice's is one pread. */
		if (nm_read_pin(fs->tree, k, 0, (size_t)size, &h, &err) != NM_OK)
			continue;
		struct fuse_bufvec buf = FUSE_BUFVEC_INIT(h.len);
		buf.buf[0].mem = (void *)h.data;
		/* Refused (an inode the kernel does not hold: a file never listed): free. */
		if (fuse_lowlevel_notify_store(fs->se, nm_node_id(k), 0, &buf, 0) == 0)
			p->left -= cost;
		nm_read_release(fs->tree, &h);
	}
	nm_reader_batch_end(batch);
}

static void *run(void *arg)
{
	nm_fuse_fs *fs = arg;
	struct nm_fuse_prefill *p = fs->prefill;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->count == 0) {
			pthread_cond_wait(&p->wake, &p->lock);
			continue;
		}
		uint64_t id = p->queue[p->head];
		p->head = (p->head + 1) % QUEUE;
		p->count--;
		pthread_mutex_unlock(&p->lock);
		nm_node *dir;
		nm_error err;
		if (p->left >= PAGE && nm_node_get(fs->tree, id, &dir, &err) == NM_OK) {
			push_dir(fs, p, dir);
			nm_node_put(fs->tree, dir);
		}
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
	p->left = budget;
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
	if (!p || !nm_node_mark(dir))
		return;
	pthread_mutex_lock(&p->lock);
	if (p->count < QUEUE) {
		p->queue[(p->head + p->count) % QUEUE] = nm_node_id(dir);
		p->count++;
		pthread_cond_signal(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
}
