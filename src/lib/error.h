/* An error is a status plus one line that names the file, the chunk and the offset:
 *   "x.bmd: SHP1 at 0x1a40: batch table runs past the chunk end" */
#ifndef NM_ERROR_H
#define NM_ERROR_H

#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

#define NM_NO_OFFSET UINT64_MAX

typedef struct nm_error {
	nm_status code;
	char msg[512];
} nm_error;

/* Fill err (when non-NULL) and return code, so callers can `return nm_fail(...)`.
 * chunk may be NULL; off may be NM_NO_OFFSET. */
nm_status nm_fail(nm_error *err, nm_status code, const char *file, const char *chunk,
		  uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Reset to NM_OK with an empty message. */
void nm_error_clear(nm_error *err);

/* The message of e as a front end shows it: a leading "BASE:" (the reader's name, the
 * base name of path) becomes "PATH:" (the path as the user gave it). Written into buf
 * (len bytes); returns buf. */
const char *nm_error_named(const nm_error *e, const char *path, char *buf, size_t len);

#endif
