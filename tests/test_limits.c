/* Limits bound memory (issue 13): every allocation sized by the model's data is refused
 * by nm_alloc before malloc runs, a file announced larger than max_file_size fails before
 * its producer runs, and a mount reads headers only, whatever the texture's size. The
 * models are sparse CMB files from tests/fixtures/bigtex.c (a huge texture costs no disk).
 * Memory is measured as the growth of this process's peak RSS (Check runs each test in
 * its own process). */
#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "export/png.h"
#include "formats/driver.h"
#include "lib/alloc.h"
#include "tests/fixtures/bigtex.h"

#define MIB (UINT64_C(1) << 20)

static uint64_t peak_rss(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss << 10;
}

/* A sparse CMB with one side x side texture, opened under opt (NULL: the defaults). */
typedef struct fixture {
	char path[32];
	nm_tree *t;
	uint64_t rss_before;
} fixture;

static nm_tree *open_with(const char *path, const nm_options *opt)
{
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(path, opt, &t, &err) == NM_OK, "%s", err.msg);
	return t;
}

static void fixture_open(fixture *f, unsigned side, uint32_t gl_format, const nm_options *opt)
{
	strcpy(f->path, "/tmp/nm_limits_XXXXXX");
	int fd = mkstemp(f->path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(fx_bigtex_cmb(f->path, side, gl_format), 0);
	f->rss_before = peak_rss();
	f->t = open_with(f->path, opt);
}

/* The peak RSS grew by less than max_growth since the open. */
static void assert_rss_growth_below(const fixture *f, uint64_t max_growth)
{
	uint64_t grown = peak_rss() - f->rss_before;
	ck_assert_msg(grown < max_growth, "peak RSS grew by %llu KiB",
		      (unsigned long long)(grown >> 10));
}

static void fixture_close(fixture *f)
{
	nm_tree_free(f->t);
	unlink(f->path);
}

static nm_status read_all(nm_tree *t, const char *path, nm_error *err)
{
	nm_node *n;
	static char buf[1 << 16];
	size_t got;
	uint64_t off = 0;
	ck_assert_int_eq(nm_resolve(t, path, &n, err), NM_OK);
	nm_status s;
	while ((s = nm_read(t, n, off, buf, sizeof buf, &got, err)) == NM_OK && got)
		off += got;
	return s;
}

START_TEST(alloc_refuses_before_malloc)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 16 * MIB;
	nm_error err;
	/* 1 TiB: malloc would fail with NM_E_NOMEM; the limit answers first. */
	ck_assert_ptr_null(nm_alloc(&opt, 1, UINT64_C(1) << 40, &err, "m.cmb", "tex", 0x80));
	ck_assert_int_eq(err.code, NM_E_LIMIT);
	ck_assert_str_eq(err.msg, "m.cmb: tex at 0x80: needs 1099511627776 bytes, more than "
				  "max_file_size (16 MiB)");
	/* A product that wraps is refused, not truncated. */
	ck_assert_ptr_null(nm_alloc(&opt, UINT64_C(1) << 33, UINT64_C(1) << 33, &err, "m", NULL,
				    NM_NO_OFFSET));
	ck_assert_int_eq(err.code, NM_E_LIMIT);
	/* Up to the limit exactly: zeroed memory. */
	uint8_t *p = nm_alloc(&opt, 4 * MIB, 4, &err, "m", NULL, NM_NO_OFFSET);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p[0] | p[16 * MIB - 1], 0);
	free(p);
	ck_assert_ptr_null(nm_alloc(&opt, 16 * MIB + 1, 1, &err, "m", NULL, NM_NO_OFFSET));
}
END_TEST

/* The case: max_file_size=16, cache_size=8 and an 8192 x 8192 texture. The read
 * fails with the limit (EFBIG at the FUSE edge) and nothing of the ~450 MiB that source,
 * RGBA and PNG would take is allocated: the producer never runs. */
START_TEST(huge_texture_small_limit)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 16 * MIB;
	opt.cache_size = 8 * MIB;
	fixture f;
	fixture_open(&f, 8192, FX_GL_ETC1, &opt);
	nm_node *n;
	nm_error err;
	uint64_t size;
	ck_assert_int_eq(nm_resolve(f.t, "tex/big.png", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(f.t, n, &size, &err), NM_OK);
	ck_assert_uint_eq(size, nm_png_size(8192, 8192, 3)); /* stat still tells the truth */
	ck_assert_int_eq(read_all(f.t, "tex/big.png", &err), NM_E_LIMIT);
	ck_assert_ptr_nonnull(strstr(err.msg, "more than max_file_size (16 MiB)"));
	ck_assert_int_eq(nm_status_errno(err.code), EFBIG);
	ck_assert_uint_eq(nm_tree_productions(f.t), 0);
	/* The raw bytes are a slice: still readable, never copied whole. */
	ck_assert_int_eq(read_all(f.t, "tex/big.bin", &err), NM_OK);
	assert_rss_growth_below(&f, 16 * MIB);
	fixture_close(&f);
}
END_TEST

/* A file small enough to announce, whose producer needs more scratch memory than the
 * limit: a 4096 x 4096 grey texture is a 16 MiB PNG but a 64 MiB RGBA buffer. The
 * producer runs and nm_alloc refuses the buffer before anything large is allocated. */
START_TEST(producer_scratch_is_limited)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 17 * MIB;
	ck_assert_uint_lt(nm_png_size(4096, 4096, 1), opt.max_file_size);
	fixture f;
	fixture_open(&f, 4096, FX_GL_L4, &opt);
	nm_error err;
	ck_assert_int_eq(read_all(f.t, "tex/big.png", &err), NM_E_LIMIT);
	ck_assert_ptr_nonnull(strstr(err.msg, "needs 67108864 bytes, more than max_file_size (17 MiB)"));
	ck_assert_uint_eq(nm_tree_productions(f.t), 1);
	assert_rss_growth_below(&f, 16 * MIB);
	/* With room for it, the same file reads back whole and exactly as announced. */
	opt.max_file_size = 64 * MIB;
	nm_tree *roomy = open_with(f.path, &opt);
	ck_assert_int_eq(read_all(roomy, "tex/big.png", &err), NM_OK);
	nm_tree_free(roomy);
	fixture_close(&f);
}
END_TEST

/* Mounting a model with a 16384 x 16384 texture reads its headers only: every size is
 * known (the PNG's from the formula), nothing is produced, no pixel memory is touched. */
START_TEST(mount_is_headers_only)
{
	fixture f;
	fixture_open(&f, 16384, FX_GL_ETC1, NULL);
	nm_node *tex, **kids;
	size_t count;
	nm_error err;
	ck_assert_int_eq(nm_resolve(f.t, "tex", &tex, &err), NM_OK);
	ck_assert_int_eq(nm_children(f.t, tex, &kids, &count, &err), NM_OK);
	bool seen = false;
	for (size_t i = 0; i < count; i++) {
		uint64_t size;
		ck_assert_int_eq(nm_size(f.t, kids[i], &size, &err), NM_OK);
		if (strcmp(nm_node_name(kids[i]), "big.png") == 0) {
			ck_assert_uint_eq(size, nm_png_size(16384, 16384, 3));
			ck_assert_uint_eq(size, 805531716); /* 51 + 17 * 12289 blocks + 16384 * 49153 */
			seen = true;
		}
	}
	ck_assert(seen);
	ck_assert_uint_eq(nm_tree_productions(f.t), 0);
	assert_rss_growth_below(&f, 4 * MIB);
	fixture_close(&f);
}
END_TEST

/* max_dimension: a texture beyond it gets no PNG, and its .txt says why. */
START_TEST(max_dimension_hides_textures)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_dimension = 32;
	fixture f;
	fixture_open(&f, 64, FX_GL_ETC1, &opt);
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_resolve(f.t, "tex/big.png", &n, &err), NM_E_NOENT);
	ck_assert_int_eq(nm_resolve(f.t, "tex/big.txt", &n, &err), NM_OK);
	char buf[1024] = { 0 };
	size_t got;
	ck_assert_int_eq(nm_read(f.t, n, 0, buf, sizeof buf - 1, &got, &err), NM_OK);
	ck_assert_ptr_nonnull(strstr(buf, "problem: 64x64 is larger than max_dimension (32): not decoded\n"));
	nm_tree *t = open_with(f.path, NULL);
	ck_assert_int_eq(nm_resolve(t, "tex/big.png", &n, &err), NM_OK);
	nm_tree_free(t);
	fixture_close(&f);
}
END_TEST

static Suite *limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, alloc_refuses_before_malloc);
	tcase_add_test(tc, huge_texture_small_limit);
	tcase_add_test(tc, producer_scratch_is_limited);
	tcase_add_test(tc, mount_is_headers_only);
	tcase_add_test(tc, max_dimension_hides_textures);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(limits_suite)
