/* An error is a status plus one line that names the file, the chunk and the offset:
 *   "x.bmd: SHP1 at 0x1a40: batch table runs past the chunk end" */
#ifndef NM_ERROR_H
#define NM_ERROR_H

#include <stdarg.h>
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

/* The same with a va_list: the one place a driver's own "fail in my chunk" wrapper
 * (cmb_chunk_fail, j3d_chunk_fail, nm_view_fail_at...) formats its message, so none of
 * them keeps a buffer and a vsnprintf of its own. */
nm_status nm_failv(nm_error *err, nm_status code, const char *file, const char *chunk,
		   uint64_t off, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* Append to err's message (cut at its size), for wrappers that add words before or
 * after the caller's own: nm_view_fail's "runs past the end", SHP1's "shape N: ". */
void nm_error_append(nm_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void nm_error_appendv(nm_error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Reset to NM_OK with an empty message. */
void nm_error_clear(nm_error *err);

/* The message of e as a front end shows it: a leading "BASE:" (the reader's name, the
 * base name of path) becomes "PATH:" (the path as the user gave it). Written into buf
 * (len bytes); returns buf. */
const char *nm_error_named(const nm_error *e, const char *path, char *buf, size_t len);

#endif
