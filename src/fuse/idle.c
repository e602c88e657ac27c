#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include "fuse/idle.h"
#include "fuse/log.h"

extern char **environ;

struct nm_fuse_idle {
	pthread_t thread;
	pthread_mutex_t lock;   /* for the thread's wait: stop and wake */
	pthread_cond_t wake;
	bool stop;
	atomic_uint uses;       /* requests in progress, files and directories open */
	atomic_llong last;      /* when the last use ended (or the watch began), ms */
	long long period;       /* the timeout, ms */
	char *mountpoint;
	bool said;              /* a failure to run fusermount3 was logged */
};

/* Milliseconds on the clock the wait runs on (CLOCK_MONOTONIC: the timeout is the time
 * the machine ran, not a wall clock that may jump). */
static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void nm_fuse_idle_use(nm_fuse_idle *idle)
{
	if (idle)
		atomic_fetch_add(&idle->uses, 1);
}

void nm_fuse_idle_unuse(nm_fuse_idle *idle)
{
	if (!idle)
		return;
	atomic_store(&idle->last, now_ms());
	atomic_fetch_sub(&idle->uses, 1);
}

/* An ordinary (not lazy) unmount, which the kernel refuses while the mount is in use:
 * umount2 where we may (root), else fusermount3 -u as libfuse's unprivileged mounts are
 * undone. true once it is unmounted: the request loop then sees the device close. */
static bool unmount(nm_fuse_idle *idle)
{
	if (umount2(idle->mountpoint, 0) == 0)
		return true;
	if (errno != EPERM)
		return false; /* EBUSY: in use; anything else: as good as in use, try later */
	char *argv[] = { "fusermount3", "-u", "-q", "--", idle->mountpoint, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status = 0;
	posix_spawn_file_actions_init(&fa);
	/* Its "Device or resource busy" is not news; -f would show it on every try. */
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		if (!idle->said)
			nm_fuse_say("idle_timeout: cannot run fusermount3 to unmount %s: %s",
				    idle->mountpoint, strerror(rc));
		idle->said = true;
		return false;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Sleep until the mount may have been unused for the period; then unmount, or, when the
 * kernel says it is still in use, start another period. */
static void *watch(void *arg)
{
	nm_fuse_idle *idle = arg;
	pthread_mutex_lock(&idle->lock);
	while (!idle->stop) {
		long long now = now_ms(), due = atomic_load(&idle->last) + idle->period;
		if (atomic_load(&idle->uses) == 0 && now >= due) {
			pthread_mutex_unlock(&idle->lock);
			bool gone = unmount(idle);
			pthread_mutex_lock(&idle->lock);
			if (gone)
				break;
			atomic_store(&idle->last, now_ms());
			continue;
		}
		/* In use: look again a period from now (its end moves `last` on). */
		long long until = now < due ? due : now + idle->period;
		struct timespec ts = { .tv_sec = until / 1000, .tv_nsec = until % 1000 * 1000000 };
		pthread_cond_timedwait(&idle->wake, &idle->lock, &ts);
	}
	pthread_mutex_unlock(&idle->lock);
	return NULL;
}

nm_fuse_idle *nm_fuse_idle_start(const char *mountpoint, unsigned seconds)
{
	nm_fuse_idle *idle = calloc(1, sizeof *idle);
	pthread_condattr_t ca;
	if (!idle || !(idle->mountpoint = strdup(mountpoint))) {
		free(idle);
		return NULL;
	}
	idle->period = (long long)seconds * 1000;
	atomic_init(&idle->uses, 0);
	atomic_init(&idle->last, now_ms());
	pthread_mutex_init(&idle->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&idle->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* SIGINT/TERM/HUP stay for the thread that waits for the loop's end (fuse/loop.c). */
	sigset_t mask, old;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	int rc = pthread_create(&idle->thread, NULL, watch, idle);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&idle->wake);
		pthread_mutex_destroy(&idle->lock);
		free(idle->mountpoint);
		free(idle);
		return NULL;
	}
	return idle;
}

void nm_fuse_idle_stop(nm_fuse_idle *idle)
{
	if (!idle)
		return;
	pthread_mutex_lock(&idle->lock);
	idle->stop = true;
	pthread_cond_signal(&idle->wake);
	pthread_mutex_unlock(&idle->lock);
	pthread_join(idle->thread, NULL);
	pthread_cond_destroy(&idle->wake);
	pthread_mutex_destroy(&idle->lock);
	free(idle->mountpoint);
	free(idle);
}
