/* info.txt's `errors: N` is the number of error.txt files it speaks for: those in its
 * directory's subtree, leaving out subtrees that have their own info.txt (archive
 * members). Checked on every corpus file of every driver, whole and cut short (cuts
 * make chunks fail), after a walk has opened every lazy directory. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/fixtures/rfrm_writer.h"
#include "tests/fixtures/bench_pak.h"
#include "tests/walk.h"

static bool has_child(nm_tree *t, nm_node *dir, const char *name)
{
	nm_node *n;
	nm_error err;
	return nm_lookup(t, dir, name, &n, &err) == NM_OK;
}

/* error.txt files under dir, not descending into directories with their own info.txt. */
static size_t error_files(nm_tree *t, nm_node *dir)
{
	nm_node **kids;
	size_t n, count = 0;
	nm_error err;
	nm_children(t, dir, &kids, &n, &err);
	for (size_t i = 0; i < n; i++) {
		if (nm_node_type(kids[i]) != NM_NODE_DIR)
			count += strcmp(nm_node_name(kids[i]), "error.txt") == 0;
		else if (!has_child(t, kids[i], "info.txt"))
			count += error_files(t, kids[i]);
	}
	return count;
}

static char *read_node(nm_tree *t, nm_node *n)
{
	uint64_t size;
	size_t got;
	nm_error err;
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	char *s = calloc(1, size + 1);
	ck_assert_int_eq(nm_read(t, n, 0, s, size, &got, &err), NM_OK);
	return s;
}

static size_t errors_seen; /* so that a run where nothing failed is noticed */

/* Check every directory that has an info.txt; returns how many were checked. */
static size_t check_infos(nm_tree *t, nm_node *dir, const char *path, const char *what)
{
	nm_node **kids, *info;
	size_t n, checked = 0;
	nm_error err;
	if (nm_lookup(t, dir, "info.txt", &info, &err) == NM_OK) {
		char *text = read_node(t, info);
		const char *line = strstr(text, "\nerrors: ");
		ck_assert_msg(line != NULL, "%s%s/info.txt has no errors: line", what, path);
		unsigned long said = strtoul(line + 9, NULL, 10);
		size_t found = error_files(t, dir);
		ck_assert_msg(said == found, "%s%s/info.txt says errors: %lu, the tree has %zu "
			      "error.txt", what, path, said, found);
		errors_seen += found;
		free(text);
		checked++;
	}
	nm_children(t, dir, &kids, &n, &err);
	for (size_t i = 0; i < n; i++)
		if (nm_node_type(kids[i]) == NM_NODE_DIR) {
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, nm_node_name(kids[i]));
			checked += check_infos(t, kids[i], sub, what);
		}
	return checked;
}

/* The whole file and three cuts; returns the number of info.txt files checked. */
static size_t check_bytes(const uint8_t *bytes, size_t len, const char *name)
{
	size_t checked = 0;
	const size_t cuts[] = { len, len * 2 / 3, len / 2, len / 3 };
	for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
		nm_tree *t;
		nm_error err;
		if (walk_build(bytes, cuts[c], name, &t, &err) != NM_OK)
			continue; /* not a model (a reference PNG), or cut before anything shows */
		walk_stats st;
		walk_tree(t, &st); /* opens every lazy directory */
		char what[512];
		snprintf(what, sizeof what, "%s cut at %zu of %zu: ", name, cuts[c], len);
		checked += check_infos(t, nm_tree_root(t), "", what);
		nm_tree_free(t);
	}
	return checked;
}

static size_t check_file(const char *path, const char *name)
{
	size_t len;
	uint8_t *bytes = walk_load_file(path, &len);
	ck_assert_msg(bytes != NULL, "%s cannot be read", path);
	size_t checked = check_bytes(bytes, len, name);
	free(bytes);
	return checked;
}

static const char *const folders[] = { "cmod", "cmb", "bmd", "bdl", "cmdl", "txtr" };

START_TEST(corpus_error_counts)
{
	char *dir = walk_corpus_dir(folders[_i]);
	if (!dir)
		return;
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	size_t checked = 0;
	errors_seen = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		checked += check_file(path, e->d_name);
	}
	closedir(d);
	free(dir);
	printf("%s: %zu info.txt files checked, %zu error.txt files\n", folders[_i], checked,
	       errors_seen);
	ck_assert_uint_gt(checked, 0);
}
END_TEST

/* No real PAK in the corpus: the one scripts/bench mounts, whose members are models
 * and other assets, each with its own info.txt. */
/* Each error.txt a walk reads, with its path. */
static void count_error_file(void *ctx, nm_tree *t, const char *path, const uint8_t *data,
			     size_t len)
{
	(void)t;
	const char *base = strrchr(path, '/');
	if (strcmp(base ? base + 1 : path, "error.txt") == 0) {
		printf("%s: %.*s\n", path, (int)len, (const char *)data);
		(*(size_t *)ctx)++;
	}
}

START_TEST(pak_error_counts)
{
	rfx_buf pak = { 0 };
	ck_assert_int_eq(rfx_bench_pak(10, &pak), 0);
	/* The fixture writer and the reader agree: whole, nothing in the PAK is an error
	 * (its textures once carried a header the TXTR reader refused). */
	nm_tree *t;
	nm_error err;
	size_t whole_errors = 0;
	walk_stats st;
	ck_assert_int_eq(walk_build(pak.data, pak.len, "bench.pak", &t, &err), NM_OK);
	walk_tree_opts(t, &(walk_opts){ .on_file = count_error_file, .ctx = &whole_errors }, &st);
	nm_tree_free(t);
	ck_assert_uint_eq(whole_errors, 0);
	ck_assert_uint_eq(st.failed, 0);
	errors_seen = 0;
	ck_assert_uint_gt(check_bytes(pak.data, pak.len, "bench.pak"), 10);
	printf("pak: %zu error.txt files\n", errors_seen);
	rfx_buf_free(&pak);
}
END_TEST

static Suite *errors_suite(void)
{
	Suite *s = suite_create("errors_count");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, corpus_error_counts, 0, sizeof folders / sizeof folders[0]);
	tcase_add_test(tc, pak_error_counts);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(errors_suite)
