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
	nm_tree *t = nm_tree_new(&opt);
	nm_tree_adopt_reader(t, r);
	nm_error err;
	if (d->build(r, t, nm_tree_root(t), &err) == NM_OK) {
		walk_stats st;
		walk_opts wo = { .read_if = read_if, .ctx = ctx };
		walk_tree_opts(t, &wo, &st);
		if (st.size_mismatches)
			abort(); /* a file disagreed with its announced size: a bug */
	}
	nm_tree_free(t);
}
