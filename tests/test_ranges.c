/* Producing by ranges (tree.h: nm_tree_range_producer, nm_tree_allow_ranges): on every
 * corpus model, each file with a range producer is read whole from one tree and by
 * ranges from another that allows them: its head (what head -c 16384 asks), its tail,
 * ranges at random offsets and lengths (lines cut at both ends), a range of one byte and
 * one across the whole file; every byte must equal the whole production's. A read of
 * part of a file not produced is made by range (counted, nothing produced) or, where the
 * range producer declines it, whole; the head always by range. And a third tree
 * produces the large ones whole in pieces on four threads (nm_tree_split_threads): the
 * same bytes again.
 * Files listed on the command line instead of the corpus when given. Exits 77 without
 * the corpus. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/prng.h"
#include "tests/walk.h"

static int failures;
static size_t ranged_files, ranges_read, split_files;

struct pair {
	const char *model;
	nm_tree *ranged, *split;
	uint32_t seed;
};

static void fail(const char *model, const char *path, const char *fmt, uint64_t a, uint64_t b)
{
	printf("FAIL %s:%s: ", model, path);
	printf(fmt, (unsigned long long)a, (unsigned long long)b);
	printf("\n");
	failures++;
}

/* Read [off, off+len) from the ranged tree and compare with the whole bytes. */
static void compare(struct pair *p, nm_node *n, const char *path, const uint8_t *whole,
		    size_t size, uint64_t off, size_t len)
{
	uint64_t reads = nm_tree_range_reads(p->ranged);
	bool produced = nm_node_produced(p->ranged, n); /* then read from the cache */
	nm_read_hold h;
	nm_error err;
	if (nm_read_pin(p->ranged, n, off, len, &h, &err) != NM_OK) {
		printf("FAIL %s:%s: range at %llu: %s\n", p->model, path, (unsigned long long)off,
		       err.msg);
		failures++;
		return;
	}
	size_t want = off >= size ? 0 : len < size - off ? len : size - off;
	if (h.len != want)
		fail(p->model, path, "range at %llu: %llu bytes", off, h.len);
	else if (want && memcmp(h.data, whole + off, want) != 0)
		fail(p->model, path, "range at %llu, %llu bytes: differs from the whole file", off,
		     want);
	/* Made by range (counted, nothing cached) or, where the range producer declines
	 * (model.glb past its geometry), whole; the head always by range. */
	bool partial = want && want < size && !produced;
	bool ranged = nm_tree_range_reads(p->ranged) == reads + 1;
	if (partial && ranged == nm_node_produced(p->ranged, n))
		fail(p->model, path, "range at %llu: counted %llu times and cached, or neither",
		     off, nm_tree_range_reads(p->ranged) - reads);
	if (partial && off == 0 && !ranged)
		fail(p->model, path, "the head (%llu, %llu bytes) was not made by range", off, want);
	nm_read_release(p->ranged, &h);
	ranges_read++;
}

static void on_file(void *ctx, nm_tree *t, const char *path, const uint8_t *data, size_t len)
{
	(void)t;
	struct pair *p = ctx;
	nm_node *n;
	nm_error err;
	if (nm_resolve(p->ranged, path, &n, &err) != NM_OK || !nm_node_ranged(p->ranged, n))
		return;
	ranged_files++;
	compare(p, n, path, data, len, 0, 16384);
	compare(p, n, path, data, len, len / 2, 1);
	for (int i = 0; i < 24 && len; i++) {
		uint64_t off = xorshift(&p->seed) % len;
		size_t l = 1 + xorshift(&p->seed) % (i % 3 == 0 ? 300000 : 5000);
		compare(p, n, path, data, len, off, l);
	}
	/* Last: a range a producer declines (model.glb's tail) and the whole file are made
	 * whole, and the reads after them come from the cache. */
	compare(p, n, path, data, len, len > 100 ? len - 100 : 0, 4096);
	compare(p, n, path, data, len, 0, len);

	uint64_t before = nm_tree_split_productions(p->split);
	nm_read_hold h;
	if (nm_resolve(p->split, path, &n, &err) != NM_OK ||
	    nm_read_pin(p->split, n, 0, len, &h, &err) != NM_OK) {
		fail(p->model, path, "does not read in pieces (%llu, %llu)", len, 0);
		return;
	}
	if (h.len != len || memcmp(h.data, data, len) != 0)
		fail(p->model, path, "made in pieces: %llu bytes differ from %llu", h.len, len);
	split_files += nm_tree_split_productions(p->split) > before;
	nm_read_release(p->split, &h);
}

static void one_model(const char *path)
{
	nm_tree *whole, *ranged, *split;
	nm_error err;
	if (nm_open_model(path, NULL, &whole, &err) != NM_OK)
		return; /* not a model (a reference PNG beside a texture) */
	if (nm_open_model(path, NULL, &ranged, &err) != NM_OK ||
	    nm_open_model(path, NULL, &split, &err) != NM_OK) {
		printf("FAIL %s: opens once, not thrice: %s\n", path, err.msg);
		failures++;
		nm_tree_free(whole);
		return;
	}
	nm_tree_allow_ranges(ranged);
	nm_tree_split_threads(split, 4);
	struct pair p = { path, ranged, split, 0x9e3779b9u };
	walk_opts o = { .on_file = on_file, .ctx = &p };
	walk_stats st = { 0 };
	walk_tree_opts(whole, &o, &st);
	nm_tree_free(whole);
	nm_tree_free(ranged);
	nm_tree_free(split);
}

static void corpus_dir(const char *dir) /* dir: under 8192 bytes */
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".png") || strstr(e->d_name, ".md"))
			continue;
		char path[8192 + 256];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		one_model(path);
	}
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			one_model(argv[i]);
	} else {
		static const char *const dirs[] = { "cmod", "cmb", "bmd", "bdl", "cmdl", "txtr",
						    "rarc", "zar", "gar", "folder" };
		const char *top = getenv("top_srcdir");
		char corpus[4096];
		snprintf(corpus, sizeof corpus, "%s/../shared/corpus", top ? top : ".");
		DIR *d = opendir(corpus);
		if (!d) {
			printf("SKIP: no corpus at %s\n", corpus);
			return 77;
		}
		closedir(d);
		for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
			char dir[8192];
			snprintf(dir, sizeof dir, "%s/%s", corpus, dirs[i]);
			corpus_dir(dir);
		}
	}
	printf("%zu files with a range producer, %zu ranges compared, %zu made in pieces, "
	       "%d failures\n", ranged_files, ranges_read, split_files, failures);
	if (ranged_files == 0) {
		printf("FAIL: no file had a range producer\n");
		return 1;
	}
	if (argc == 1 && split_files == 0) {
		printf("FAIL: no corpus file was made in pieces\n");
		return 1;
	}
	return failures ? 1 : 0;
}
