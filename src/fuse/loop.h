/* The request loop: one thread waits for the kernel at a time and answers what it gets
 * itself, handing the waiting to another thread only before something long (a decoder
 * or a parse about to run). Why, and the measurements: loop.c. */
#ifndef NM_FUSE_LOOP_H
#define NM_FUSE_LOOP_H

#include "fuse/idle.h"

struct fuse_session;

/* Serve se until it is unmounted or told to exit (a signal, fuse_session_exit), with at
 * most max_threads threads answering requests (1: every request in turn) and at most
 * max_idle of them kept waiting once a burst is over (UINT_MAX: all); idle (or NULL) is
 * told when each request begins and ends. 0, or -1 when the loop cannot start or reading
 * the device fails. */
int nm_fuse_loop(struct fuse_session *se, unsigned max_threads, unsigned max_idle,
		 nm_fuse_idle *idle);

/* Called while answering a request, before work that may take long (nm_options'
 * before_long_work: a producer or a populate about to run, or waited for): another
 * thread waits for the kernel meanwhile. Does nothing on a thread that is not the loop's
 * (the prefill's) or that is not the one waiting for the kernel. */
void nm_fuse_loop_step_aside(void);

/* Called by a request that stepped aside, once its long work is over and just before it
 * replies: until this thread is back in the loop, a leader that must step aside waits
 * for it rather than start another thread. Does nothing on a thread that did not step
 * aside. */
void nm_fuse_loop_replying(void);

#endif
