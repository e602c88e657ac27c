/* Eviction of lazy directories' content (nm_tree_allow_eviction), as the FUSE daemon
 * uses it: nodes are reached by id between nm_node_get and nm_node_put. With a budget
 * of 0 every content nothing holds is evicted at each put; asking for an id inside it
 * populates it again (its owners first) and finds the node that had that id, with the
 * same bytes. A held content is never evicted, nor one whose nested content is
 * resident; a content's allocations (nm_tree_on_free) go with it. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/tree.h"

#define MEMBERS 40

static int freed; /* cleanups run, under the tree's own locking: atomics */

static void count_free(void *p)
{
	free(p);
	__atomic_add_fetch(&freed, 1, __ATOMIC_SEQ_CST);
}

static nm_status produce_number(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)ctx; (void)err;
	nm_out_printf(o, "%08d\n", *(const int *)arg);
	return NM_OK;
}

static nm_status populate_inner(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				nm_error *err)
{
	(void)err;
	/* Its owner gave both as its own record, made anew by each of its populates: the
	 * tree keeps a directory's (populate, ctx) once per owner's populate, and must
	 * hand over the latest, not the one of the owner's first populate (freed). */
	ck_assert_ptr_eq(ctx, arg);
	int *k = nm_tree_alloc(t, sizeof *k);
	if (!k)
		return NM_E_NOMEM;
	*k = *(const int *)arg * 1000;
	nm_lazy(t, dir, "deep.txt", 9, produce_number, NULL, k);
	return NM_OK;
}

/* Member i: a text, a produced file, and a nested lazy directory; all state it keeps
 * comes from the tree, as a driver's does. */
static nm_status populate_member(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				 nm_error *err)
{
	(void)ctx; (void)err;
	int i = (int)(intptr_t)arg;
	int *k = malloc(sizeof *k);
	if (!k || nm_tree_on_free(t, count_free, k) != NM_OK)
		return NM_E_NOMEM;
	*k = i;
	char text[32];
	snprintf(text, sizeof text, "member %d\n", i);
	nm_text_str(t, dir, "a.txt", text);
	nm_lazy(t, dir, "n.txt", 9, produce_number, NULL, k);
	nm_lazy_dir(t, dir, "inner", populate_inner, k, k);
	return NM_OK;
}

static nm_tree *member_tree(void)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.cache_size = 0; /* evict whatever nothing holds, at every put */
	nm_tree *t = nm_tree_new(&opt);
	for (int i = 0; i < MEMBERS; i++) {
		char name[16];
		snprintf(name, sizeof name, "m%d", i);
		ck_assert_ptr_nonnull(nm_lazy_dir(t, nm_tree_root(t), name, populate_member, NULL,
						  (void *)(intptr_t)i));
	}
	nm_tree_allow_eviction(t);
	return t;
}

/* The id of path, found by holding each directory on the way, as FUSE lookups do. */
static uint64_t id_of(nm_tree *t, const char *path)
{
	nm_node *dir, *n;
	nm_error err;
	uint64_t id = 1;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save, *part = strtok_r(buf, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		ck_assert_int_eq(nm_node_get(t, id, &dir, &err), NM_OK);
		ck_assert_int_eq(nm_lookup(t, dir, part, &n, &err), NM_OK);
		id = nm_node_id(n);
		nm_node_put(t, dir);
	}
	return id;
}

/* The bytes of the file with that id, read while it is held. */
static void read_id(nm_tree *t, uint64_t id, char *buf, size_t len, const char *name)
{
	nm_node *n;
	nm_error err;
	size_t got;
	ck_assert_int_eq(nm_node_get(t, id, &n, &err), NM_OK);
	ck_assert_str_eq(nm_node_name(n), name);
	ck_assert_int_eq(nm_read(t, n, 0, buf, len - 1, &got, &err), NM_OK);
	buf[got] = '\0';
	nm_node_put(t, n);
}

START_TEST(ids_survive_eviction)
{
	nm_tree *t = member_tree();
	uint64_t a[MEMBERS], num[MEMBERS], deep[MEMBERS];
	char path[64], buf[64], want[64];
	for (int i = 0; i < MEMBERS; i++) {
		snprintf(path, sizeof path, "m%d/a.txt", i);
		a[i] = id_of(t, path);
		snprintf(path, sizeof path, "m%d/n.txt", i);
		num[i] = id_of(t, path);
		snprintf(path, sizeof path, "m%d/inner/deep.txt", i);
		deep[i] = id_of(t, path);
	}
	/* Everything was let go: all of it evicted, each allocation freed once per
	 * populate. A member was populated four times: for a.txt, n.txt, inner, and once
	 * more as the owner of inner when inner was held (it had been evicted at the put
	 * after the lookup of inner). */
	ck_assert_int_eq(__atomic_load_n(&freed, __ATOMIC_SEQ_CST), 4 * MEMBERS);
	uint64_t before = nm_tree_populations(t);
	for (int i = MEMBERS; i-- > 0;) { /* the other order: nested ones come back first */
		read_id(t, deep[i], buf, sizeof buf, "deep.txt");
		snprintf(want, sizeof want, "%08d\n", i * 1000);
		ck_assert_str_eq(buf, want);
		read_id(t, a[i], buf, sizeof buf, "a.txt");
		snprintf(want, sizeof want, "member %d\n", i);
		ck_assert_str_eq(buf, want);
		read_id(t, num[i], buf, sizeof buf, "n.txt");
		snprintf(want, sizeof want, "%08d\n", i);
		ck_assert_str_eq(buf, want);
	}
	/* deep.txt populates member and inner; a.txt and n.txt their member again. */
	ck_assert_uint_eq(nm_tree_populations(t) - before, 4 * MEMBERS);
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_node_get(t, (uint64_t)9999 << 32 | 1, &n, &err), NM_E_NOENT);
	ck_assert_int_eq(nm_node_get(t, a[0] + 100, &n, &err), NM_E_NOENT);
	nm_tree_free(t);
}
END_TEST

START_TEST(held_content_stays)
{
	nm_tree *t = member_tree();
	uint64_t m3 = id_of(t, "m3"), deep = id_of(t, "m3/inner/deep.txt");
	nm_node *dir, *kid, *n;
	nm_error err;
	nm_node **kids;
	size_t count;
	ck_assert_int_eq(nm_node_get(t, m3, &dir, &err), NM_OK); /* holds m3's listing */
	ck_assert_int_eq(nm_children(t, dir, &kids, &count, &err), NM_OK);
	ck_assert_uint_eq(count, 3);
	kid = kids[1];
	uint64_t before = nm_tree_populations(t);
	for (int i = 0; i < MEMBERS; i++) { /* others come and go meanwhile */
		char path[32];
		snprintf(path, sizeof path, "m%d/a.txt", i);
		id_of(t, path);
	}
	ck_assert_ptr_eq(kids[1], kid); /* m3's listing was not touched */
	ck_assert_str_eq(nm_node_name(kid), "n.txt");
	ck_assert_int_eq(nm_node_get(t, deep, &n, &err), NM_OK); /* inner comes back */
	nm_node_put(t, dir);
	/* inner, resident, keeps m3: letting go of m3 evicts nothing nested in use. */
	ck_assert_int_eq(nm_lookup(t, nm_node_parent(n), "deep.txt", &kid, &err), NM_OK);
	ck_assert_ptr_eq(kid, n);
	nm_node_put(t, n);
	ck_assert_uint_eq(nm_tree_populations(t) - before, MEMBERS - 1 + 1);
	nm_tree_free(t);
}
END_TEST

struct reader_arg {
	nm_tree *t;
	const uint64_t *ids;
	int seed, bad;
};

static void *read_many(void *p)
{
	struct reader_arg *a = p;
	unsigned s = (unsigned)a->seed;
	for (int k = 0; k < 2000; k++) {
		s = s * 1103515245u + 12345u;
		int i = (int)((s >> 8) % MEMBERS);
		nm_node *n;
		nm_error err;
		char buf[16], want[16];
		size_t got;
		if (nm_node_get(a->t, a->ids[i], &n, &err) != NM_OK) {
			a->bad++;
			continue;
		}
		snprintf(want, sizeof want, "%08d\n", i);
		if (nm_read(a->t, n, 0, buf, 9, &got, &err) != NM_OK || got != 9 ||
		    memcmp(buf, want, 9) != 0)
			a->bad++;
		nm_node_put(a->t, n);
	}
	return NULL;
}

/* Threads read while contents are evicted under each other: every read sees its own
 * member's bytes. (Run under the sanitizers, a use after eviction is found here.) */
START_TEST(concurrent_reads_during_eviction)
{
	nm_tree *t = member_tree();
	uint64_t ids[MEMBERS];
	for (int i = 0; i < MEMBERS; i++) {
		char path[32];
		snprintf(path, sizeof path, "m%d/n.txt", i);
		ids[i] = id_of(t, path);
	}
	pthread_t th[4];
	struct reader_arg args[4];
	for (int i = 0; i < 4; i++) {
		args[i] = (struct reader_arg){ t, ids, i + 1, 0 };
		pthread_create(&th[i], NULL, read_many, &args[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(args[i].bad, 0);
	}
	nm_tree_free(t);
}
END_TEST

static Suite *evict_suite(void)
{
	Suite *s = suite_create("tree_evict");
	TCase *tc = tcase_create("evict");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ids_survive_eviction);
	tcase_add_test(tc, held_content_stays);
	tcase_add_test(tc, concurrent_reads_during_eviction);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(evict_suite)
