#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/fuzz/run_driver.h"
#include "tests/walk.h"

static const nm_driver *driver(const char *name)
{
	for (size_t i = 0; nm_drivers[i]; i++)
		if (strcmp(nm_drivers[i]->name, name) == 0)
			return nm_drivers[i];
	abort(); /* a target for a driver this build lacks */
}

static bool is_wrapper(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, "_wrap") == 0;
}

/* The two files that format the whole model again (every vertex, every texture): the
 * _full and structure-aware targets read them. */
static bool whole_model(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "mesh.obj") == 0 || strcmp(base, "model.glb") == 0;
}

static bool read_it(void *ctx, const char *path, uint64_t size)
{
	(void)ctx;
	return size <= NM_FUZZ_READ_AT_MOST && !whole_model(path);
}

void nm_fuzz_run_driver(const char *name, nm_fuzz_reach reach, const uint8_t *data,
			size_t size)
{
	nm_fuzz_run_driver_reading(name, data, size, reach == NM_FUZZ_PARSE ? read_it : NULL,
				   NULL);
}

/* Whether this input's files are also read by ranges: one input in four, chosen by its
 * bytes (so that a crash reproduces). Ranges before the whole file cost a file about
 * twice its production (the _full targets fell from 3,000 executions a second to 700
 * with every input), and one in four still reaches every range producer. */
static bool check_ranges(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u ^ (uint32_t)size;
	for (size_t i = 0; i < size && i < 64; i++)
		h = (h ^ data[i]) * 16777619u;
	return (h >> 7 & 3) == 0;
}

void nm_fuzz_run_driver_reading(const char *name, const uint8_t *data, size_t size,
				bool (*read_if)(void *ctx, const char *path, uint64_t size),
				void *ctx)
{
	const nm_driver *d = driver(name);
	if (!d->probe(data, size < NM_PROBE_BYTES ? size : NM_PROBE_BYTES, size))
		return;
	void *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	nm_reader *r;
	if (nm_reader_new_memory("fuzz", copy, size, &r, NULL) != NM_OK)
		return;
	/* Small limits keep each execution cheap: a header announcing a huge texture or
	 * buffer takes the refusal path (itself worth fuzzing) instead of decoding
	 * megapixels of noise. */
	nm_options opt;
	nm_options_init(&opt);
	opt.cache_size = 4u << 20;
	opt.max_file_size = 16u << 20;
	opt.max_dimension = 512;
	/* A whole-file wrapper's target (yaz0_wrap...) is for the stream and what it holds:
	 * an archive's tables, its members probed and their raw bytes read. The members'
	 * own trees are their formats' targets' (rarc, gar, zar build theirs): once a
	 * damaged stream kept what it decoded (container/unpack.c), building them made
	 * yaz0_wrap run ~300 executions a CPU-second on its seeds. */
	if (is_wrapper(name))
		opt.max_depth = 1;
	nm_tree *t = nm_tree_new(&opt);
	nm_tree_adopt_reader(t, r);
	/* As a mount does: a file's head (and its middle) made by its range producer before
	 * the whole file, and compared with it (tests/walk.h: check_ranges). */
	bool ranges = check_ranges(data, size);
	if (ranges)
		nm_tree_allow_ranges(t);
	nm_error err;
	nm_error_clear(&err);
	if (d->build(r, t, nm_tree_root(t), &err) != NM_OK) {
		if (!err.msg[0])
			abort(); /* a refusal that says nothing of why */
	} else {
		walk_stats st;
		walk_opts wo = { .read_if = read_if, .ctx = ctx, .check_ranges = ranges };
		walk_tree_opts(t, &wo, &st);
		if (st.size_mismatches)
			abort(); /* a file disagreed with its announced size: a bug */
		if (st.range_mismatches)
			abort(); /* a range differed from its whole file's bytes: a bug */
		if (st.unexplained)
			abort(); /* a failed list, stat or read whose error says nothing */
	}
	nm_tree_free(t);
}
