/* What every driver fuzz target does with a file's bytes: probe, build the tree, then
 * list and stat every node and read files as a mount would; for one input in four, a file
 * with a range producer by ranges first (its head, its middle), compared with its whole
 * bytes. */
#ifndef NM_FUZZ_RUN_DRIVER_H
#define NM_FUZZ_RUN_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How much of the tree a run reads.
 * NM_FUZZ_PARSE, the driver targets (fuzz_cmb...): every file of at most
 *   NM_FUZZ_READ_AT_MOST bytes but mesh.obj and model.glb. A real model's tree holds
 *   hundreds of files whose producers repeat one loop per record, and its mesh.obj and
 *   model.glb format every vertex again (and embed every texture): reading all of it made
 *   a run of fuzz_cmb or fuzz_j3d take 13-50 ms on corpus seeds (~75 runs per second).
 * NM_FUZZ_EVERY_FILE, the _full targets (fuzz_cmb_full..., which keep only an input's
 *   first NM_FUZZ_FULL_INPUT bytes) and the structure-aware ones: every file, mesh.obj
 *   and model.glb included. */
typedef enum nm_fuzz_reach { NM_FUZZ_PARSE, NM_FUZZ_EVERY_FILE } nm_fuzz_reach;

#define NM_FUZZ_READ_AT_MOST (16u << 10)
#define NM_FUZZ_FULL_INPUT (16u << 10)

/* Runs driver `name` over a copy of data; aborts when the build lacks that driver, a
 * file read disagrees with its announced size or a range with its whole bytes, or a
 * refusal (the build, a listing, a stat, a read) leaves its error's message empty: the
 * user would be told nothing (all bugs). */
void nm_fuzz_run_driver(const char *name, nm_fuzz_reach reach, const uint8_t *data,
			size_t size);
/* The same, reading the files read_if picks (NULL: all); every node is still listed
 * and stat'ed. A structure-aware target reads what its recipe shapes. */
void nm_fuzz_run_driver_reading(const char *name, const uint8_t *data, size_t size,
				bool (*read_if)(void *ctx, const char *path, uint64_t size),
				void *ctx);

#endif
