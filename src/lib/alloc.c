#include <stdlib.h>
#include <stdio.h>
#include "lib/alloc.h"

nm_status nm_alloc_check(const nm_options *opt, uint64_t count, uint64_t size, size_t *bytes)
{
	uint64_t limit = (opt ? opt : nm_options_defaults())->max_file_size;
	if (size && count > limit / size)
		return NM_E_LIMIT;
	if (count * size > SIZE_MAX)
		return NM_E_LIMIT;
	*bytes = (size_t)(count * size);
	return NM_OK;
}

void *nm_alloc(const nm_options *opt, uint64_t count, uint64_t size, nm_error *err,
	       const char *file, const char *chunk, uint64_t off)
{
	size_t bytes;
	if (nm_alloc_check(opt, count, size, &bytes) != NM_OK) {
		/* The product may overflow: report what fits in 64 bits. */
		uint64_t need = size && count > UINT64_MAX / size ? UINT64_MAX : count * size;
		nm_fail_limit(err, opt, need, file, chunk, off);
		return NULL;
	}
	void *p = calloc(1, bytes ? bytes : 1);
	if (!p)
		nm_fail(err, NM_E_NOMEM, file, chunk, off, "out of memory (%zu bytes)", bytes);
	return p;
}

nm_status nm_fail_limit(nm_error *err, const nm_options *opt, uint64_t need, const char *file,
			const char *chunk, uint64_t off)
{
	uint64_t limit = (opt ? opt : nm_options_defaults())->max_file_size;
	char shown[48];
	if (limit % (1u << 20) == 0)
		snprintf(shown, sizeof shown, "%llu MiB", (unsigned long long)(limit >> 20));
	else
		snprintf(shown, sizeof shown, "%llu bytes", (unsigned long long)limit);
	if (need == UINT64_MAX)
		return nm_fail(err, NM_E_LIMIT, file, chunk, off,
			       "needs more than 2^64 bytes, more than max_file_size (%s)", shown);
	if (need)
		return nm_fail(err, NM_E_LIMIT, file, chunk, off,
			       "needs %llu bytes, more than max_file_size (%s)",
			       (unsigned long long)need, shown);
	return nm_fail(err, NM_E_LIMIT, file, chunk, off,
		       "the file would be larger than max_file_size (%s)",
		       shown);
}
