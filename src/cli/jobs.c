#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/jobs.h"

/* Queued jobs: enough to keep the threads busy while the walker populates a directory,
 * few enough that a 50,000-asset archive's paths are not all held at once. */
#define QUEUE 256u

struct job {
	nm_node *n;
	char *path;
	void *ctx;
};

struct nm_cli_jobs {
	nm_tree *t;
	nm_cli_job_fn fn;
	pthread_mutex_t lock;
	pthread_cond_t work, room;
	struct job queue[QUEUE];
	size_t head, count;
	bool done;        /* no more jobs come */
	int rc;
	unsigned nthreads;
	pthread_t *threads;
};

static void *worker(void *arg)
{
	nm_cli_jobs *j = arg;
	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (j->count == 0 && !j->done)
			pthread_cond_wait(&j->work, &j->lock);
		if (j->count == 0)
			break;
		struct job job = j->queue[j->head];
		j->head = (j->head + 1) % QUEUE;
		j->count--;
		pthread_cond_signal(&j->room);
		pthread_mutex_unlock(&j->lock);
		int rc = j->fn(j->t, job.n, job.path, job.ctx);
		free(job.path);
		pthread_mutex_lock(&j->lock);
		if (rc != NM_EXIT_OK)
			j->rc = NM_EXIT_FAIL;
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

nm_cli_jobs *nm_cli_jobs_start(nm_tree *t, unsigned threads, nm_cli_job_fn fn)
{
	if (threads < 2)
		return NULL;
	nm_cli_jobs *j = calloc(1, sizeof *j);
	if (!j || !(j->threads = calloc(threads, sizeof *j->threads))) {
		free(j);
		return NULL;
	}
	j->t = t;
	j->fn = fn;
	j->rc = NM_EXIT_OK;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->work, NULL);
	pthread_cond_init(&j->room, NULL);
	while (j->nthreads < threads &&
	       pthread_create(&j->threads[j->nthreads], NULL, worker, j) == 0)
		j->nthreads++;
	if (j->nthreads == 0) {
		nm_cli_jobs_finish(j);
		return NULL;
	}
	return j;
}

int nm_cli_jobs_add(nm_cli_jobs *j, nm_node *n, const char *path, void *ctx)
{
	char *copy = strdup(path);
	if (!copy) { /* run it here rather than lose it */
		int rc = j->fn(j->t, n, path, ctx);
		return rc == NM_EXIT_OK ? NM_EXIT_OK : NM_EXIT_FAIL;
	}
	pthread_mutex_lock(&j->lock);
	while (j->count == QUEUE)
		pthread_cond_wait(&j->room, &j->lock);
	j->queue[(j->head + j->count) % QUEUE] = (struct job){ n, copy, ctx };
	j->count++;
	pthread_cond_signal(&j->work);
	pthread_mutex_unlock(&j->lock);
	return NM_EXIT_OK;
}

int nm_cli_jobs_finish(nm_cli_jobs *j)
{
	pthread_mutex_lock(&j->lock);
	j->done = true;
	pthread_cond_broadcast(&j->work);
	pthread_mutex_unlock(&j->lock);
	for (unsigned i = 0; i < j->nthreads; i++)
		pthread_join(j->threads[i], NULL);
	int rc = j->rc;
	pthread_cond_destroy(&j->work);
	pthread_cond_destroy(&j->room);
	pthread_mutex_destroy(&j->lock);
	free(j->threads);
	free(j);
	return rc;
}

unsigned nm_cli_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}
