/* The one allocator for memory whose size comes from the model's data: pixels,
 * decompressed buffers, byte ranges loaded from the source, per-vertex arrays. Like
 * libspng with its context's limits, the request is checked against the tree's
 * max_file_size before malloc runs, so a hostile header (or an honest 8192 x 8192 texture
 * under a small limit) costs nothing. nm_out (a producer's output) applies the same check
 * as it grows. Records read at mount, whose counts are checked against the bytes that
 * hold them, may use plain calloc. */
#ifndef NM_ALLOC_H
#define NM_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/options.h"

/* NM_OK and *bytes = count * size when that fits in opt's max_file_size (opt NULL: the
 * defaults); NM_E_LIMIT when it does not, or when the product overflows. */
nm_status nm_alloc_check(const nm_options *opt, uint64_t count, uint64_t size, size_t *bytes);

/* count * size zeroed bytes (free with free), or NULL with err saying why: NM_E_LIMIT,
 * decided before anything is allocated, or NM_E_NOMEM. err must not be NULL (producers
 * always get one). file, chunk and off say what the memory is for, as in nm_fail. */
void *nm_alloc(const nm_options *opt, uint64_t count, uint64_t size, nm_error *err,
	       const char *file, const char *chunk, uint64_t off);

/* The message every refusal uses: "... needs N bytes, more than max_file_size (16 MiB)"
 * (need 0: "... the file would be larger than max_file_size (16 MiB)"). Returns NM_E_LIMIT. */
nm_status nm_fail_limit(nm_error *err, const nm_options *opt, uint64_t need, const char *file,
			const char *chunk, uint64_t off);

#endif
