/* Check assertions on a built tree, shared by the tests of damaged fixtures: the whole
 * tree walks clean, and a file holds (or lacks) a piece of text. Include after check.h. */
#ifndef NM_TEST_CHECK_EXPECT_H
#define NM_TEST_CHECK_EXPECT_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "tests/walk.h"

/* Every file reads back with its announced size and nothing fails. */
static inline void expect_clean_walk(nm_tree *t)
{
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(st.size_mismatches, 0);
}

/* The tree of len bytes (named name), which builds, walks clean and has no error.txt
 * at its top: what every test of a damaged fixture starts from. */
static inline nm_tree *expect_clean_build(const void *data, size_t len, const char *name)
{
	nm_tree *t;
	nm_error err;
	ck_assert_msg(walk_build(data, len, name, &t, &err) == NM_OK, "%s", err.msg);
	expect_clean_walk(t);
	ck_assert_msg(!walk_exists(t, "/error.txt"), "%s has /error.txt", name);
	return t;
}

static inline void expect_text(nm_tree *t, const char *path, const char *text, int present)
{
	char *s = walk_read(t, path, NULL);
	ck_assert_msg(s != NULL, "%s missing", path);
	ck_assert_msg((strstr(s, text) != NULL) == (present != 0), "%s %s \"%s\":\n%s", path,
		      present ? "lacks" : "has", text, s);
	free(s);
}

/* Reading path fails with code, and the message holds text (and text2 unless NULL). */
static inline void expect_read_fails(nm_tree *t, const char *path, nm_status code,
				     const char *text, const char *text2)
{
	nm_node *n;
	nm_error err;
	char buf[16];
	size_t got;
	ck_assert_msg(nm_resolve(t, path, &n, &err) == NM_OK, "%s: %s", path, err.msg);
	ck_assert_msg(nm_read(t, n, 0, buf, sizeof buf, &got, &err) == code,
		      "%s: read did not fail with %s: %s", path, nm_status_str(code), err.msg);
	ck_assert_msg(strstr(err.msg, text) && (!text2 || strstr(err.msg, text2)), "%s: %s", path,
		      err.msg);
}

/* A piece of text a file holds (or, with absent, lacks): a test lists what it expects
 * of a tree as rows HAS(path, text) and LACKS(path, text), ending with a NULL path, and
 * checks them all with expect_all. */
typedef struct expectation {
	const char *path, *text;
	int absent;
} expectation;

#define HAS(path, text) { path, text, 0 }
#define LACKS(path, text) { path, text, 1 }

static inline void expect_all(nm_tree *t, const expectation *e)
{
	for (; e->path; e++)
		expect_text(t, e->path, e->text, !e->absent);
}

#define expect(t, path, text) expect_text(t, path, text, 1)
#define expect_not(t, path, text) expect_text(t, path, text, 0)

#endif
