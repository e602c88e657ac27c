/* libFuzzer target for one format driver (NM_FUZZ_DRIVER, e.g. "cmod"): the input is a
 * file, run as a mount would run it (run_driver.c). Built by
 * `./configure --enable-fuzzing` (clang); the same function replays kept inputs in
 * `make check` (tests/fuzz/replay.c). */
#include <stddef.h>
#include <stdint.h>
#include "tests/fuzz/run_driver.h"

#ifdef NM_REPLAY
/* The replay program picks the driver at run time. */
extern const char *nm_fuzz_driver_name;
#define NM_FUZZ_DRIVER nm_fuzz_driver_name
#endif
#ifndef NM_FUZZ_DRIVER
#error "define NM_FUZZ_DRIVER"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nm_fuzz_run_driver(NM_FUZZ_DRIVER, data, size);
	return 0;
}
