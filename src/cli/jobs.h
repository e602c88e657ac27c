/* Files produced on several threads (nmodel extract -j N): one thread walks the tree
 * (populating directories, making folders) and queues files; N threads produce and write
 * them. The tree allows this as the FUSE daemon does: producers of different files run
 * at once, and readers of one file wait for its single production (cache.c). */
#ifndef NM_CLI_JOBS_H
#define NM_CLI_JOBS_H

#include "lib/tree.h"

typedef struct nm_cli_jobs nm_cli_jobs;
/* What a job runs: the file n at path (a copy made when queued); returns an NM_EXIT_*. */
typedef int (*nm_cli_job_fn)(nm_tree *t, nm_node *n, const char *path, void *ctx);

/* threads workers running fn; NULL when threads < 2 (or none can start): the caller then
 * runs each job itself, in order. */
nm_cli_jobs *nm_cli_jobs_start(nm_tree *t, unsigned threads, nm_cli_job_fn fn);
/* Queue fn(t, n, path, ctx); waits while the queue is full. ctx must live until
 * nm_cli_jobs_finish. Returns NM_EXIT_FAIL only when the job could not be queued (then
 * it ran here). */
int nm_cli_jobs_add(nm_cli_jobs *j, nm_node *n, const char *path, void *ctx);
/* Wait for every job, stop the threads; NM_EXIT_FAIL when any job failed. */
int nm_cli_jobs_finish(nm_cli_jobs *j);
/* The number of CPUs this process may run on (the default of -j), at least 1. */
unsigned nm_cli_cpus(void);

#endif
