/* A growing output buffer: what a producer writes a file's bytes into. Allocation
 * failure is sticky (checked once at the end with nm_out_status), so formatting code
 * stays linear. */
#ifndef NM_OUT_H
#define NM_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

typedef struct nm_out {
	uint8_t *data;
	size_t len;
	size_t cap;
	bool failed;
	bool over_limit;   /* the output would pass nm_output_limit() */
} nm_out;

/* The largest file a producer may make (and the largest buffer a decompressor may be
 * asked for): a hostile header cannot make us allocate more. Default 1 GiB; set by
 * mount.nmodel -o max_file_size=MiB. Process-wide, set once at start. */
size_t nm_output_limit(void);
void nm_set_output_limit(size_t bytes);

void nm_out_init(nm_out *o);
void nm_out_free(nm_out *o);
/* Make room for n more bytes; returns a pointer to write them at (NULL on failure).
 * The caller then adds n to o->len. */
uint8_t *nm_out_reserve(nm_out *o, size_t n);
void nm_out_write(nm_out *o, const void *p, size_t n);
void nm_out_str(nm_out *o, const char *s);
void nm_out_char(nm_out *o, char c);
void nm_out_printf(nm_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NM_OK, NM_E_LIMIT past nm_output_limit(), or NM_E_NOMEM. */
nm_status nm_out_status(const nm_out *o);
/* Hand over the bytes (the buffer becomes empty). */
uint8_t *nm_out_take(nm_out *o, size_t *len);

#endif
