/* A growing output buffer: what a producer writes a file's bytes into. Allocation
 * failure is sticky (checked once at the end with nm_out_status), so formatting code
 * stays linear. */
#ifndef NM_OUT_H
#define NM_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/options.h"
#include "lib/status.h"

typedef struct nm_out {
	uint8_t *data;
	size_t len;
	size_t cap;
	bool failed;
	bool over_limit;   /* the output would pass opt's max_file_size */
	/* The limits the bytes are made under: the tree's options when the tree hands the
	 * out to a producer (whose scratch memory then comes from nm_alloc(o->opt, ...));
	 * NULL, the defaults. */
	const nm_options *opt;
	/* Threads the producer may split one large decode over (lib/bands.h): the tree's
	 * nm_tree_split_threads when it produces a whole file, 0 (the caller's thread
	 * alone) for a range, a piece, or an out of one's own. The bytes never depend on it. */
	unsigned threads;
} nm_out;

/* An empty output under the default options. */
void nm_out_init(nm_out *o);
void nm_out_free(nm_out *o);
/* Make room for n more bytes; returns a pointer to write them at (NULL on failure).
 * The caller then adds n to o->len. */
uint8_t *nm_out_reserve(nm_out *o, size_t n);
/* Make sure the buffer holds n more bytes (len + n), allocating exactly that when it
 * must grow: a writer that knows its whole size calls it once, and every later write
 * fits (nothing happens past the limit: the writes then fail as usual). */
void nm_out_expect(nm_out *o, size_t n);
void nm_out_write(nm_out *o, const void *p, size_t n);
void nm_out_str(nm_out *o, const char *s);

/* The end of the buffer when n more bytes fit in what is allocated, else NULL (then
 * nm_out_write grows it). Never past the limit: the buffer is never larger than it. */
static inline uint8_t *nm_out_room(nm_out *o, size_t n)
{
	return !o->failed && o->data && o->cap - o->len >= n ? o->data + o->len : NULL;
}

/* For text of at most n bytes whose length is known only once written (a number):
 * write it at nm_out_begin(o, n, scratch), scratch holding n bytes, then
 * nm_out_commit(o, p, length). In the common case the digits go straight into the
 * buffer; near its end they go through scratch. */
static inline char *nm_out_begin(nm_out *o, size_t n, char *scratch)
{
	uint8_t *d = nm_out_room(o, n);
	return d ? (char *)d : scratch;
}

static inline void nm_out_commit(nm_out *o, const char *p, size_t n)
{
	if (o->data && p == (const char *)o->data + o->len)
		o->len += n;
	else
		nm_out_write(o, p, n);
}

static inline void nm_out_char(nm_out *o, char c)
{
	uint8_t *d = nm_out_room(o, 1);
	if (d) {
		*d = (uint8_t)c;
		o->len++;
	} else {
		nm_out_write(o, &c, 1);
	}
}
void nm_out_printf(nm_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NM_OK, NM_E_LIMIT past max_file_size, or NM_E_NOMEM. */
nm_status nm_out_status(const nm_out *o);
/* Hand over the bytes (the buffer becomes empty; its options stay). */
uint8_t *nm_out_take(nm_out *o, size_t *len);

#endif
