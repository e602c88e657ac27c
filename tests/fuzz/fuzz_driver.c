/* libFuzzer target for one format driver (NM_FUZZ_DRIVER, e.g. "cmod"): the input is a
 * file, run as a mount would run it (run_driver.h: what it reads). With NM_FUZZ_FULL
 * (fuzz_cmb_full...), every file of the input's first NM_FUZZ_FULL_INPUT bytes. Built by
 * `./configure --enable-fuzzing` (clang); the same function replays kept inputs in
 * `make check` (tests/fuzz/replay.c). */
#include <stddef.h>
#include <stdint.h>
#include "tests/fuzz/run_driver.h"

#ifdef NM_REPLAY
/* The replay program picks the driver and the reach at run time. */
extern const char *nm_fuzz_driver_name;
extern int nm_fuzz_full;
#define NM_FUZZ_DRIVER nm_fuzz_driver_name
#define NM_FUZZ_FULL nm_fuzz_full
#endif
#ifndef NM_FUZZ_FULL
#define NM_FUZZ_FULL 0
#endif
#ifndef NM_FUZZ_DRIVER
#error "define NM_FUZZ_DRIVER"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!NM_FUZZ_FULL)
		nm_fuzz_run_driver(NM_FUZZ_DRIVER, NM_FUZZ_PARSE, data, size);
	else
		nm_fuzz_run_driver(NM_FUZZ_DRIVER, NM_FUZZ_EVERY_FILE, data,
				   size < NM_FUZZ_FULL_INPUT ? size : NM_FUZZ_FULL_INPUT);
	return 0;
}
