/* Options as a context (src/lib/options.c): one table of defaults, text parsed the same
 * way for both front ends, and each tree working under its own copy, with nothing
 * process-wide (two trees with different limits side by side in one process). */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lib/options.h"
#include "lib/tree.h"

START_TEST(options_defaults)
{
	nm_options o;
	nm_options_init(&o);
	ck_assert_uint_eq(o.cache_size, 64u << 20);
	ck_assert_uint_eq(o.max_file_size, 1024u << 20);
	ck_assert_uint_eq(o.max_dimension, NM_DIMENSION_MAX);
	ck_assert_uint_eq(o.max_depth, 16);
	ck_assert_mem_eq(&o, nm_options_defaults(), sizeof o);
}
END_TEST

START_TEST(options_parse)
{
	nm_options o;
	nm_error err;
	nm_options_init(&o);
	/* Sizes are MiB; both spellings of a name work. */
	ck_assert_int_eq(nm_options_parse(&o, "max_file_size=16", &err), NM_OK);
	ck_assert_uint_eq(o.max_file_size, 16u << 20);
	ck_assert_int_eq(nm_options_parse(&o, "cache-size=8", &err), NM_OK);
	ck_assert_uint_eq(o.cache_size, 8u << 20);
	ck_assert_int_eq(nm_options_parse(&o, "max_dimension=4096", &err), NM_OK);
	ck_assert_uint_eq(o.max_dimension, 4096);
	ck_assert_int_eq(nm_options_parse(&o, "max-depth=3", &err), NM_OK);
	ck_assert_uint_eq(o.max_depth, 3);

	/* Not ours: left for libfuse. */
	ck_assert_int_eq(nm_options_parse(&o, "allow_other", &err), NM_E_NOENT);
	ck_assert_int_eq(nm_options_parse(&o, "max_read=4096", &err), NM_E_NOENT);
	ck_assert_int_eq(nm_options_parse(&o, "max_file_sizes=1", &err), NM_E_NOENT);

	/* Ours but wrong: the message names the option as written and its range, and the
	 * value is left alone. */
	static const char *const bad[] = { "max_file_size=0", "max_file_size=1048577",
					   "max_file_size=", "max_file_size", "max_file_size=-1",
					   "max_file_size=1x", "max_file_size= 1",
					   "max_file_size=99999999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(nm_options_parse(&o, bad[i], &err) == NM_E_INVAL, "%s", bad[i]);
		ck_assert_uint_eq(o.max_file_size, 16u << 20);
	}
	ck_assert_int_eq(nm_options_parse(&o, "max-dimension=16385", &err), NM_E_INVAL);
	ck_assert_str_eq(err.msg,
			 "max-dimension: must be a whole number from 1 to 16384 (PIXELS), not \"16385\"");
}
END_TEST

START_TEST(options_usage_lists_every_option)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	nm_options_usage(f, NM_OPTION_MOUNT);
	nm_options_usage(f, NM_OPTION_FLAG);
	fclose(f);
	static const char *const want[] = {
		"-o cache_size=MiB", "-o max_file_size=MiB", "-o max_dimension=PIXELS",
		"-o max_depth=LEVELS", "--cache-size=MiB", "--max-file-size=MiB",
		"--max-dimension=PIXELS", "--max-depth=LEVELS", "default 1024", "default 16384"
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(text, want[i]), "usage lacks %s", want[i]);
	free(text);
}
END_TEST

static nm_status produce_kib(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)ctx; (void)arg; (void)err;
	for (int i = 0; i < 1024; i++)
		nm_out_char(o, 'x');
	return NM_OK;
}

/* Read the 1 KiB file of a tree; the status. */
static nm_status read_kib(nm_tree *t)
{
	nm_node *n;
	nm_error err;
	char buf[2048];
	size_t got;
	ck_assert_int_eq(nm_resolve(t, "kib.txt", &n, &err), NM_OK);
	return nm_read(t, n, 0, buf, sizeof buf, &got, &err);
}

static nm_tree *kib_tree(const nm_options *opt)
{
	nm_tree *t = nm_tree_new(opt);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(nm_lazy(t, nm_tree_root(t), "kib.txt", 1024, produce_kib, NULL,
				      NULL));
	return t;
}

static void *read_kib_many(void *p)
{
	for (int i = 0; i < 200; i++)
		if (read_kib(p) != NM_OK)
			return p;
	return NULL;
}

static void *refused_kib_many(void *p)
{
	for (int i = 0; i < 200; i++)
		if (read_kib(p) != NM_E_LIMIT)
			return p;
	return NULL;
}

START_TEST(options_belong_to_the_tree)
{
	nm_options small;
	nm_options_init(&small);
	small.max_file_size = 1000;
	nm_tree *strict = kib_tree(&small), *lenient = kib_tree(NULL);
	/* The tree keeps a copy: changing the caller's struct afterwards changes nothing. */
	small.max_file_size = 1 << 20;
	ck_assert_uint_eq(nm_tree_options(strict)->max_file_size, 1000);
	ck_assert_uint_eq(nm_tree_options(lenient)->max_file_size, 1024u << 20);
	/* Both at once, from several threads: each tree answers by its own limit. */
	pthread_t a, b;
	void *ra, *rb;
	pthread_create(&a, NULL, refused_kib_many, strict);
	pthread_create(&b, NULL, read_kib_many, lenient);
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	ck_assert_ptr_null(ra);
	ck_assert_ptr_null(rb);
	ck_assert_uint_eq(nm_tree_productions(strict), 0); /* refused before producing */
	ck_assert_uint_eq(nm_tree_productions(lenient), 1);
	nm_tree_free(strict);
	nm_tree_free(lenient);
}
END_TEST

START_TEST(options_reach_the_reader)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 4;
	nm_tree *t = nm_tree_new(&opt);
	nm_reader *r, *w;
	nm_error err;
	ck_assert_int_eq(nm_reader_new_memory("m.bin", strdup("0123456789"), 10, &r, &err), NM_OK);
	ck_assert_ptr_eq(nm_reader_options(r), nm_options_defaults());
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	ck_assert_ptr_eq(nm_reader_options(r), nm_tree_options(t));
	/* A window (an archive member) made later works under the same options. */
	ck_assert_int_eq(nm_reader_new_window(r, "member", 2, 8, &w, &err), NM_OK);
	ck_assert_ptr_eq(nm_reader_options(w), nm_tree_options(t));
	uint8_t *buf;
	ck_assert_int_eq(nm_reader_load(w, 0, 4, "x", &buf, &err), NM_OK);
	free(buf);
	ck_assert_int_eq(nm_reader_load(w, 0, 5, "x", &buf, &err), NM_E_LIMIT);
	ck_assert_str_eq(err.msg, "member: x at 0x0: needs 5 bytes, more than max_file_size (4 bytes)");
	ck_assert_int_eq(nm_reader_load(w, 0, 5, "x", &buf, NULL), NM_E_LIMIT);
	nm_reader_close(w);
	nm_tree_free(t);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, options_defaults);
	tcase_add_test(tc, options_parse);
	tcase_add_test(tc, options_usage_lists_every_option);
	tcase_add_test(tc, options_belong_to_the_tree);
	tcase_add_test(tc, options_reach_the_reader);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(options_suite)
