/* What every driver fuzz target does with a file's bytes: probe, build the tree, then
 * list, stat and produce every node as a mount would. */
#ifndef NM_FUZZ_RUN_DRIVER_H
#define NM_FUZZ_RUN_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* Runs driver `name` over a copy of data; aborts when the build lacks that driver or a
 * file disagrees with its announced size (both bugs). */
void nm_fuzz_run_driver(const char *name, const uint8_t *data, size_t size);

#endif
