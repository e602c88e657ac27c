/* Lazy directories under threads: a populate that is held up (a gate the test opens)
 * holds up the lookups of its own directory only; concurrent lookups of one lazy
 * directory populate it once; a populate's failure reaches every caller (status and
 * message) and its directory (error.txt). A lookup that would wait forever fails the
 * test by Check's timeout, so nothing here measures time. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/tree.h"

/* A gate the populate callback waits at until the test opens it. */
typedef struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool entered, open, fail;
	int calls;
} gate;

#define GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, false, 0 }

static nm_status populate_at_gate(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				  nm_error *err)
{
	gate *g = ctx;
	(void)arg;
	pthread_mutex_lock(&g->lock);
	g->calls++;
	g->entered = true;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	bool fail = g->fail;
	pthread_mutex_unlock(&g->lock);
	nm_text_str(t, dir, "inner.txt", "inside\n");
	if (fail)
		return nm_fail(err, NM_E_FORMAT, "m.pak", "member", 0x40, "bad member");
	return NM_OK;
}

static void gate_wait_entered(gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->entered)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void gate_open(gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static nm_status populate_now(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	(void)ctx; (void)arg; (void)err;
	return nm_text_str(t, dir, "inner.txt", "quick\n") ? NM_OK : NM_E_NOMEM;
}

typedef struct lookup_job {
	nm_tree *t;
	const char *path;
	gate *started;           /* counts threads about to look up (calls), may be NULL */
	nm_status status;
	char msg[512];
	bool done;
} lookup_job;

static void *lookup_thread(void *p)
{
	lookup_job *j = p;
	nm_node *n;
	nm_error err;
	if (j->started) {
		pthread_mutex_lock(&j->started->lock);
		j->started->calls++;
		pthread_cond_broadcast(&j->started->cond);
		pthread_mutex_unlock(&j->started->lock);
	}
	nm_error_clear(&err);
	j->status = nm_resolve(j->t, j->path, &n, &err);
	memcpy(j->msg, err.msg, sizeof j->msg);
	__atomic_store_n(&j->done, true, __ATOMIC_SEQ_CST);
	return NULL;
}

static nm_tree *tree_with(gate *g)
{
	nm_tree *t = nm_tree_new(NULL);
	nm_node *root = nm_tree_root(t);
	ck_assert_ptr_nonnull(nm_lazy_dir(t, root, "slow", populate_at_gate, g, NULL));
	ck_assert_ptr_nonnull(nm_lazy_dir(t, root, "quick", populate_now, NULL, NULL));
	nm_node *plain = nm_dir(t, root, "plain");
	ck_assert_ptr_nonnull(nm_text_str(t, plain, "f.txt", "plain\n"));
	return t;
}

START_TEST(other_directories_proceed)
{
	gate g = GATE_INIT;
	nm_tree *t = tree_with(&g);
	lookup_job slow = { .t = t, .path = "/slow/inner.txt" };
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, lookup_thread, &slow), 0);
	gate_wait_entered(&g);

	/* The slow populate is under way: everything outside its directory still answers,
	 * including another lazy directory's first populate and new nodes being added. */
	nm_node *n, **kids;
	size_t count;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "/plain/f.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_resolve(t, "/quick/inner.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_resolve(t, "/slow", &n, &err), NM_OK);
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &count, &err), NM_OK);
	ck_assert_uint_eq(count, 3);
	ck_assert(!__atomic_load_n(&slow.done, __ATOMIC_SEQ_CST));

	gate_open(&g);
	pthread_join(th, NULL);
	ck_assert_int_eq(slow.status, NM_OK);
	ck_assert_int_eq(g.calls, 1);
	nm_tree_free(t);
}
END_TEST

/* Eight threads ask for the same lazy directory while its populate is held: one runs
 * it, the others wait, and all see its result. */
static void same_directory(bool fail)
{
	enum { N = 8 };
	gate g = GATE_INIT, started = GATE_INIT;
	g.fail = fail;
	nm_tree *t = tree_with(&g);
	lookup_job jobs[N];
	pthread_t th[N];
	/* On failure ask for a name the populate did not make: that answer is its error. */
	const char *path = fail ? "/slow/missing.txt" : "/slow/inner.txt";
	for (int i = 0; i < N; i++) {
		jobs[i] = (lookup_job){ .t = t, .path = path, .started = &started };
		ck_assert_int_eq(pthread_create(&th[i], NULL, lookup_thread, &jobs[i]), 0);
	}
	gate_wait_entered(&g);
	pthread_mutex_lock(&started.lock);
	while (started.calls < N)
		pthread_cond_wait(&started.cond, &started.lock);
	pthread_mutex_unlock(&started.lock);
	/* Give the others a moment to reach the wait (not needed for correctness: a late
	 * one must find the directory populating or populated, never populate again). */
	nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	for (int i = 0; i < N; i++)
		ck_assert_msg(!__atomic_load_n(&jobs[i].done, __ATOMIC_SEQ_CST),
			      "thread %d got past a directory that is still populating", i);
	gate_open(&g);
	for (int i = 0; i < N; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(jobs[i].status, fail ? NM_E_FORMAT : NM_OK);
		if (fail)
			ck_assert_str_eq(jobs[i].msg, "m.pak: member at 0x40: bad member");
	}
	ck_assert_int_eq(g.calls, 1);
	/* What the failed populate made is still there. */
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "/slow/inner.txt", &n, &err), NM_OK);
	nm_tree_free(t);
}

START_TEST(same_directory_populates_once)
{
	same_directory(false);
}
END_TEST

START_TEST(same_directory_failure_reaches_every_waiter)
{
	same_directory(true);
}
END_TEST

static nm_status populate_fails(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	int *calls = ctx;
	(void)arg;
	(*calls)++;
	nm_text_str(t, dir, "partial.txt", "made before the failure\n");
	return nm_fail(err, NM_E_FORMAT, "m.pak", "member", 0x40, "bad member");
}

static nm_status populate_fails_silently(nm_tree *t, nm_node *dir, void *ctx, void *arg,
					 nm_error *err)
{
	(void)t; (void)dir; (void)ctx; (void)arg; (void)err;
	return NM_E_NOMEM;
}

static nm_status populate_own_error(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				    nm_error *err)
{
	(void)ctx; (void)arg;
	nm_text_str(t, dir, "error.txt", "the driver's own words\n");
	return nm_fail(err, NM_E_FORMAT, "m.pak", NULL, NM_NO_OFFSET, "later failure");
}

static nm_status populate_looks_itself_up(nm_tree *t, nm_node *dir, void *ctx, void *arg,
					  nm_error *err)
{
	nm_node *n;
	(void)ctx; (void)arg;
	nm_status s = nm_lookup(t, dir, "anything", &n, err);
	return s == NM_E_INVAL ? nm_fail(err, s, "self", NULL, NM_NO_OFFSET, "refused") : NM_OK;
}

static char *read_all(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	size_t got;
	ck_assert_int_eq(nm_resolve(t, path, &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	char *buf = calloc(1, size + 1);
	ck_assert_int_eq(nm_read(t, n, 0, buf, size, &got, &err), NM_OK);
	ck_assert_uint_eq(got, size);
	return buf;
}

START_TEST(failure_status_and_error_file)
{
	int calls = 0;
	nm_tree *t = nm_tree_new(NULL);
	nm_node *root = nm_tree_root(t), **kids, *n;
	nm_node *broken = nm_lazy_dir(t, root, "broken", populate_fails, &calls, NULL);
	nm_lazy_dir(t, root, "silent", populate_fails_silently, NULL, NULL);
	nm_lazy_dir(t, root, "own", populate_own_error, NULL, NULL);
	nm_lazy_dir(t, root, "self", populate_looks_itself_up, NULL, NULL);
	size_t count;
	nm_error err;

	/* Every caller hears of it, not only the one that ran the populate; the listing
	 * still holds what was made, and error.txt. */
	for (int round = 0; round < 2; round++) {
		nm_error_clear(&err);
		ck_assert_int_eq(nm_children(t, broken, &kids, &count, &err), NM_E_FORMAT);
		ck_assert_str_eq(err.msg, "m.pak: member at 0x40: bad member");
		ck_assert_uint_eq(count, 2);
		ck_assert_str_eq(nm_node_name(kids[0]), "partial.txt");
		ck_assert_str_eq(nm_node_name(kids[1]), "error.txt");
	}
	ck_assert_int_eq(calls, 1);
	char *e = read_all(t, "/broken/error.txt");
	ck_assert_str_eq(e, "m.pak: member at 0x40: bad member\n");
	free(e);
	ck_assert_int_eq(nm_resolve(t, "/broken/partial.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_resolve(t, "/broken/mesh.obj", &n, &err), NM_E_FORMAT);

	/* A status without a message still says what it was. */
	ck_assert_int_eq(nm_resolve(t, "/silent/x", &n, &err), NM_E_NOMEM);
	e = read_all(t, "/silent/error.txt");
	ck_assert_str_eq(e, "silent: out of memory\n");
	free(e);

	/* A driver's own error.txt is kept. */
	ck_assert_int_eq(nm_resolve(t, "/own/x", &n, &err), NM_E_FORMAT);
	ck_assert_str_eq(err.msg, "m.pak: later failure");
	e = read_all(t, "/own/error.txt");
	ck_assert_str_eq(e, "the driver's own words\n");
	free(e);

	/* A callback that looks up its own directory is refused, not left waiting. */
	ck_assert_int_eq(nm_resolve(t, "/self/x", &n, &err), NM_E_INVAL);
	ck_assert_str_eq(err.msg, "self: refused");
	nm_tree_free(t);
}
END_TEST

static Suite *populate_suite(void)
{
	Suite *s = suite_create("tree_populate");
	TCase *tc = tcase_create("populate");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, other_directories_proceed);
	tcase_add_test(tc, same_directory_populates_once);
	tcase_add_test(tc, same_directory_failure_reaches_every_waiter);
	tcase_add_test(tc, failure_status_and_error_file);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(populate_suite)
