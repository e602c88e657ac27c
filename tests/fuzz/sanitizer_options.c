#include <dlfcn.h>

/* Run-time settings compiled into every fuzz target (and the sanitizers' into their
 * replays). Sanitizer defaults, so that undefined
 * behaviour stops the program whatever the environment says: UBSan halts at its first
 * report, with a stack (the sanitizer builds also use -fno-sanitize-recover), libFuzzer
 * then saves the input, and `make check` fails on a kept one. A build without
 * sanitizers never calls it. */
const char *__ubsan_default_options(void);

/* silence_unsigned_overflow: OSS-Fuzz's undefined build also asks for
 * unsigned-integer-overflow, which is defined arithmetic (hashes, checksums, the codecs'
 * bit tricks) and recoverable there; with halt_on_error it would stop every target. */
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1:silence_unsigned_overflow=1";
}

/* libsquish and libimagequant (BC1 and palette encoders: fuzz_apply's inverses, the
 * TXTR fixture writer) run OpenMP loops: after each one the worker threads spin waiting
 * for the next, on the core the next execution needs (a quarter to a third of
 * fuzz_apply's and fuzz_txtr_struct's time). One thread gives the same bytes. Found at
 * run time: only those libraries link libgomp. libFuzzer calls this once. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
	if (set_threads)
		set_threads(1);
	return 0;
}
