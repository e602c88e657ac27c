/* libFuzzer target for one format driver (NM_FUZZ_DRIVER, e.g. "cmod"): probe, build the
 * tree, then list, stat and produce every node as a mount would. Built by
 * `./configure --enable-fuzzing` (clang); the same function replays kept inputs in
 * `make check` (tests/fuzz/replay.c). */
#include <stdlib.h>
#include <string.h>
#include "formats/driver.h"
#include "tests/walk.h"

#ifdef NM_REPLAY
/* The replay program picks the driver at run time. */
extern const char *nm_fuzz_driver_name;
#define NM_FUZZ_DRIVER nm_fuzz_driver_name
#endif
#ifndef NM_FUZZ_DRIVER
#error "define NM_FUZZ_DRIVER"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const nm_driver *driver(void)
{
	for (size_t i = 0; nm_drivers[i]; i++)
		if (strcmp(nm_drivers[i]->name, NM_FUZZ_DRIVER) == 0)
			return nm_drivers[i];
	abort(); /* a target for a driver this build lacks */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const nm_driver *d = driver();
	if (!d->probe(data, size < NM_PROBE_BYTES ? size : NM_PROBE_BYTES, size))
		return 0;
	void *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	nm_reader *r;
	if (nm_reader_new_memory("fuzz", copy, size, &r, NULL) != NM_OK)
		return 0;
	nm_options opt;
	nm_options_init(&opt);
	opt.cache_size = 4u << 20;
	nm_tree *t = nm_tree_new(&opt);
	nm_tree_adopt_reader(t, r);
	nm_error err;
	if (d->build(r, t, nm_tree_root(t), &err) == NM_OK) {
		walk_stats st;
		walk_tree(t, &st);
		if (st.size_mismatches)
			abort(); /* a file disagreed with its announced size: a bug */
	}
	nm_tree_free(t);
	return 0;
}
