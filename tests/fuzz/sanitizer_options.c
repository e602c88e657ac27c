/* Sanitizer defaults compiled into the fuzz targets and their replays, so that undefined
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
