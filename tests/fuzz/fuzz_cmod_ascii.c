/* libFuzzer target for the ASCII CMOD reader (src/formats/cmod/parse_ascii.c): the input
 * is an ASCII CMOD file. Whatever it holds, the reader stops with a status (never a
 * crash or an allocation past the limit), and what it accepts reads back exactly: its
 * binary written as ASCII (model.ascii.cmod's spelling) and read again gives the same
 * bytes, which is what `nmodel apply` checks of an edited model.ascii.cmod. The driver
 * then builds and reads the whole tree of the input (run_driver.h). Replayed by
 * tests/fuzz/replay_cmod_ascii in `make check`. */
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
#include "lib/options.h"
#include "tests/fuzz/run_driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ASCII in, binary out under the harness's limit; NM_OK or the reader's status. */
static nm_status to_binary(const uint8_t *text, size_t len, const nm_options *opt, nm_out *bin)
{
	cmod_notes notes = { 0 };
	cmod_ascii_fault fault;
	nm_error err;
	nm_out_init(bin);
	bin->opt = opt;
	nm_status s = cmod_ascii_to_binary("fuzz.cmod", text, len, bin, &notes, &fault, &err);
	if (s == NM_E_FORMAT && fault.line == 0)
		abort(); /* a refusal names its line */
	cmod_notes_free(&notes);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > NM_FUZZ_FULL_INPUT)
		size = NM_FUZZ_FULL_INPUT;
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 16u << 20;
	nm_out bin, ascii, again;
	if (to_binary(data, size, &opt, &bin) == NM_OK) {
		nm_error err;
		nm_out_init(&ascii);
		ascii.opt = &opt;
		nm_status s = cmod_binary_to_ascii("fuzz.cmod", bin.data, bin.len, &ascii, &err);
		if (s != NM_OK && s != NM_E_LIMIT)
			abort(); /* every model the reader accepts has an ASCII form */
		if (s == NM_OK && (to_binary(ascii.data, ascii.len, &opt, &again) != NM_OK ||
				   again.len != bin.len || memcmp(again.data, bin.data, bin.len) != 0))
			abort(); /* our spelling did not read back bit for bit */
		if (s == NM_OK)
			nm_out_free(&again);
		nm_out_free(&ascii);
	}
	nm_out_free(&bin);
	nm_fuzz_run_driver("cmod", NM_FUZZ_EVERY_FILE, data, size);
	return 0;
}
