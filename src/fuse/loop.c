/* The request loop, a leader and its followers.
 *
 * libfuse's loop (fuse_session_loop_mt) has every idle thread blocked in read() on the
 * device, and the kernel wakes them in turn, the one that has slept longest first: a run
 * of quick requests (a listing's READDIRPLUS, a walk's LOOKUPs) goes to a different
 * thread each time, often on the other CPU, and each round trip pays a cross-CPU
 * wake-up. Here one thread at a time, the leader, waits for the kernel and answers what
 * it reads itself, so a client's run of requests is served by one thread that the
 * scheduler keeps beside it. Measured (scripts/bench-peers' ls -lR on the corpus
 * models): ls -lR took ~15 % longer with libfuse's loop than with one thread; a cold
 * read of each model ~7 % longer.
 *
 * A request may run a producer or a lazy directory's populate for milliseconds (the
 * PNG of a texture, mesh.obj, an archive member's parse), or wait for another thread's:
 * before it does (the tree calls nm_fuse_loop_step_aside, its before_long_work hook),
 * the leader hands the waiting to an idle follower, or to one about to be done
 * (nm_fuse_loop_replying), starting one if there is neither and fewer than max_threads
 * run, so other clients' requests are not held behind it. All else is answered in
 * place: a listing, a lookup, a READ of text, of the model's bytes or of a file already
 * produced and cached.
 * Once all max_threads are busy nobody waits for the kernel, which holds the next
 * requests until a thread is free, as with libfuse's loop.
 *
 * Stopping: the thread that called nm_fuse_loop only waits for the end (the device
 * closing at unmount, or a signal: libfuse's handlers call fuse_session_exit). The
 * request threads block those signals, so they interrupt that wait; the leader waits in
 * poll() on the device and an eventfd that the end is written to. */
#include "fuse/options.h" /* first: FUSE_USE_VERSION, then fuse_lowlevel.h */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "fuse/idle.h"
#include "fuse/loop.h"

struct loop;

struct worker {
	pthread_t thread;
	pthread_cond_t wake;
	bool lead;              /* this one waits for the kernel */
	bool aside;             /* it stepped aside for long work in this request */
	bool replying;          /* ... which is over: it is about to reply (counted) */
	struct worker *next_idle;
	struct worker *next;    /* every worker started, for the join */
	struct loop *loop;
};

struct loop {
	struct fuse_session *se;
	int fd;                 /* the device */
	int stop_fd;            /* an eventfd, readable once the loop ends */
	pthread_mutex_t lock;   /* guards what follows */
	struct worker *leader;  /* NULL while every thread is busy */
	struct worker *idle;    /* idle followers, the latest first */
	struct worker *all;
	unsigned threads, idle_count, max_threads, max_idle;
	unsigned replying;      /* workers done with long work, not yet back here */
	bool stopping;
	int error;              /* -1 once reading the device failed */
	sem_t ended;            /* posted by the thread that saw the end */
	nm_fuse_idle *uses;     /* told of every request (-o idle_timeout), or NULL */
};

static void *work(void *arg);

/* The worker whose thread this is, while it answers a request. */
static _Thread_local struct worker *current;

/* Make w the leader, or nobody if w is NULL. Under the lock. */
static void lead(struct loop *l, struct worker *w)
{
	l->leader = w;
	if (w)
		w->lead = true;
}

/* Start a thread that begins as the leader; false if it cannot start. Under the lock. */
static bool start_worker(struct loop *l)
{
	struct worker *w = calloc(1, sizeof *w);
	if (!w)
		return false;
	w->loop = l;
	pthread_cond_init(&w->wake, NULL);
	lead(l, w); /* before it runs: it checks under the lock we hold */
	if (pthread_create(&w->thread, NULL, work, w) != 0) {
		pthread_cond_destroy(&w->wake);
		free(w);
		l->leader = NULL;
		return false;
	}
	w->next = l->all;
	l->all = w;
	l->threads++;
	return true;
}

/* The leader is about to do something long: someone else waits for the kernel meanwhile, the
 * idle follower that ran last, a thread about to be free, or a new thread. Under the lock.
 *
 * "About to be free": a thread whose long work is over replies, and the client's next
 * request (mesh.obj's READ after the LOOKUP that parsed its model) may reach the leader,
 * and need a hand-over, before that thread is back and idle, above all when the client
 * runs on its CPU. Starting a thread then would make a new one for almost every long job
 * of a busy machine (10 of 20 were seen); instead nobody leads for the microseconds until
 * it is back. */
static void hand_over(struct loop *l, struct worker *self)
{
	self->lead = false;
	self->aside = true;
	struct worker *w = l->idle;
	if (w) {
		l->idle = w->next_idle;
		l->idle_count--;
		lead(l, w);
		pthread_cond_signal(&w->wake);
	} else if (l->replying || l->threads >= l->max_threads || !start_worker(l)) {
		lead(l, NULL); /* taken back by the first thread done (work) */
	}
}

void nm_fuse_loop_step_aside(void)
{
	struct worker *self = current;
	if (!self)
		return;
	pthread_mutex_lock(&self->loop->lock);
	if (self->lead)
		hand_over(self->loop, self);
	pthread_mutex_unlock(&self->loop->lock);
}

void nm_fuse_loop_replying(void)
{
	struct worker *self = current;
	if (!self || !self->aside || self->replying)
		return;
	pthread_mutex_lock(&self->loop->lock);
	self->replying = true;
	self->loop->replying++;
	pthread_mutex_unlock(&self->loop->lock);
}

/* The end: the device closed or failed, or the loop was told to stop. Under the lock. */
static void end(struct loop *l, int res)
{
	if (res < 0)
		l->error = -1;
	fuse_session_exit(l->se);
	sem_post(&l->ended);
}

/* The next request into buf: its size, 0 at the end, or -errno. The device is
 * non-blocking, so that poll() can also watch stop_fd. */
static int next_request(struct loop *l, struct fuse_buf *buf)
{
	for (;;) {
		struct pollfd p[2] = { { l->fd, POLLIN, 0 }, { l->stop_fd, POLLIN, 0 } };
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return -errno;
		if (p[1].revents || fuse_session_exited(l->se))
			return 0;
		if (!p[0].revents)
			continue;
		int res = fuse_session_receive_buf(l->se, buf);
		/* EAGAIN: taken back by the kernel (an interrupted request); EINTR: a signal */
		if (res != -EAGAIN && res != -EINTR)
			return res;
	}
}

static void *work(void *arg)
{
	struct worker *self = arg;
	struct loop *l = self->loop;
	struct fuse_buf buf = { 0 };
	pthread_mutex_lock(&l->lock);
	while (!l->stopping) {
		if (!self->lead) {
			if (l->idle_count >= l->max_idle)
				break; /* left now, joined at the end */
			self->next_idle = l->idle;
			l->idle = self;
			l->idle_count++;
			while (!self->lead && !l->stopping)
				pthread_cond_wait(&self->wake, &l->lock);
			continue;
		}
		pthread_mutex_unlock(&l->lock);
		int res = next_request(l, &buf);
		pthread_mutex_lock(&l->lock);
		if (res <= 0) {
			end(l, res);
			break;
		}
		pthread_mutex_unlock(&l->lock);
		current = self;
		nm_fuse_idle_use(l->uses);
		fuse_session_process_buf(l->se, &buf);
		nm_fuse_idle_unuse(l->uses);
		current = NULL;
		pthread_mutex_lock(&l->lock);
		if (self->replying)
			l->replying--;
		self->aside = self->replying = false;
		if (!l->leader)
			lead(l, self);
	}
	if (l->leader == self)
		l->leader = NULL;
	l->threads--;
	pthread_mutex_unlock(&l->lock);
	free(buf.mem);
	return NULL;
}

/* Wake everyone for the end and wait for them. */
static void stop(struct loop *l)
{
	pthread_mutex_lock(&l->lock);
	l->stopping = true;
	for (struct worker *w = l->idle; w; w = w->next_idle)
		pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&l->lock);
	uint64_t one = 1;
	(void)!write(l->stop_fd, &one, sizeof one);
	for (struct worker *w = l->all, *next; w; w = next) {
		next = w->next;
		pthread_join(w->thread, NULL);
		pthread_cond_destroy(&w->wake);
		free(w);
	}
}

int nm_fuse_loop(struct fuse_session *se, unsigned max_threads, unsigned max_idle,
		 nm_fuse_idle *idle)
{
	struct loop l = { .se = se, .fd = fuse_session_fd(se), .max_threads = max_threads,
			  .max_idle = max_idle, .uses = idle };
	int flags = fcntl(l.fd, F_GETFL);
	if (flags < 0 || fcntl(l.fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -1;
	l.stop_fd = eventfd(0, EFD_CLOEXEC);
	if (l.stop_fd < 0)
		return -1;
	pthread_mutex_init(&l.lock, NULL);
	sem_init(&l.ended, 0, 0);

	/* The request threads (and those they start) inherit a mask without the signals
	 * libfuse handles, which then reach this thread's wait below. */
	sigset_t mask, old;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	pthread_mutex_lock(&l.lock);
	bool started = start_worker(&l);
	pthread_mutex_unlock(&l.lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	if (started)
		while (!fuse_session_exited(se))
			sem_wait(&l.ended); /* EINTR after a signal's fuse_session_exit */
	else
		l.error = -1;
	stop(&l);
	sem_destroy(&l.ended);
	pthread_mutex_destroy(&l.lock);
	close(l.stop_fd);
	return l.error;
}
