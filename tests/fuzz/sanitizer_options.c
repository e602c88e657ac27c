/* Sanitizer defaults compiled into the fuzz targets and their replays, so that undefined
 * behaviour stops the program whatever the environment says: UBSan halts at its first
 * report, with a stack (the sanitizer builds also use -fno-sanitize-recover), libFuzzer
 * then saves the input, and `make check` fails on a kept one. A build without
 * sanitizers never calls it. */
const char *__ubsan_default_options(void);

const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}
