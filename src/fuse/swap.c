#include <errno.h>
#include <stdlib.h>
#include "fuse/swap.h"

struct nm_swap {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint64_t pending;          /* inode numbers below this to drop, or 0 */
	bool stop;
	struct fuse_session *se;
};

static void put(nm_view *v, bool *free_it)
{
	*free_it = --v->refs == 0;
}

nm_view *nm_view_hold(nm_wfs *w)
{
	pthread_mutex_lock(&w->lock);
	nm_view *v = w->view;
	v->refs++;
	pthread_mutex_unlock(&w->lock);
	return v;
}

static void view_free(nm_view *v)
{
	if (v->owns)
		nm_tree_free(v->t);
	free(v);
}

void nm_view_drop(nm_wfs *w, nm_view *v)
{
	bool free_it;
	if (!v)
		return;
	pthread_mutex_lock(&w->lock);
	put(v, &free_it);
	pthread_mutex_unlock(&w->lock);
	if (free_it)
		view_free(v);
}

int nm_view_swap(nm_wfs *w, nm_tree *t)
{
	nm_view *v = calloc(1, sizeof *v);
	if (!v) {
		nm_tree_free(t);
		return ENOMEM;
	}
	*v = (nm_view){ .t = t ? t : w->base, .refs = 1, .owns = t != NULL };
	bool free_it;
	pthread_mutex_lock(&w->lock);
	nm_view *old = w->view;
	w->view = v;
	put(old, &free_it);
	uint64_t end = nm_inodes_end(w->inodes);
	pthread_mutex_unlock(&w->lock);
	if (free_it)
		view_free(old);
	if (w->swap) {
		pthread_mutex_lock(&w->swap->lock);
		w->swap->pending = end;
		pthread_cond_signal(&w->swap->wake);
		pthread_mutex_unlock(&w->swap->lock);
	}
	return 0;
}

/* Every inode the kernel may hold: its pages and attributes dropped (one it does not
 * know answers ENOENT, which is nothing to do). Inode numbers are per path, so those
 * of files the save did not change are dropped too: they are read again, the same. */
static void *drop_caches(void *arg)
{
	struct nm_swap *s = arg;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->pending && !s->stop)
			pthread_cond_wait(&s->wake, &s->lock);
		if (s->stop)
			break;
		uint64_t end = s->pending;
		s->pending = 0;
		pthread_mutex_unlock(&s->lock);
		for (uint64_t ino = 1; ino < end; ino++)
			fuse_lowlevel_notify_inval_inode(s->se, ino, 0, 0);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int nm_swap_start(nm_wfs *w, struct fuse_session *se)
{
	struct nm_swap *s = calloc(1, sizeof *s);
	if (!s)
		return ENOMEM;
	s->se = se;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	if (pthread_create(&s->thread, NULL, drop_caches, s) != 0) {
		free(s);
		return EAGAIN;
	}
	w->swap = s;
	return 0;
}

void nm_swap_stop(nm_wfs *w)
{
	struct nm_swap *s = w->swap;
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	w->swap = NULL;
	free(s);
}
