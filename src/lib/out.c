#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/out.h"

void nm_out_init(nm_out *o) { memset(o, 0, sizeof *o); }

/* Empty again, under the same options. */
static void reset(nm_out *o)
{
	const nm_options *opt = o->opt;
	nm_out_init(o);
	o->opt = opt;
}

void nm_out_free(nm_out *o)
{
	free(o->data);
	reset(o);
}

uint8_t *nm_out_reserve(nm_out *o, size_t n)
{
	size_t need;
	if (o->failed)
		return NULL;
	if (n > SIZE_MAX - o->len || nm_alloc_check(o->opt, o->len + n, 1, &need) != NM_OK) {
		o->failed = true;
		o->over_limit = true;
		return NULL;
	}
	/* An empty buffer gets its first block even for n == 0: the pointer returned must
	 * point into memory (NULL + 0 is undefined behaviour, and NULL means failure). */
	if (need > o->cap || !o->data) {
		/* Doubling, but never past the limit: then exactly what is needed. */
		size_t cap = o->cap ? o->cap : 256, room;
		while (cap < need)
			cap = cap > SIZE_MAX / 2 ? need : cap * 2;
		if (nm_alloc_check(o->opt, cap, 1, &room) != NM_OK)
			cap = need ? need : 1;
		uint8_t *d = realloc(o->data, cap);
		if (!d) {
			o->failed = true;
			return NULL;
		}
		o->data = d;
		o->cap = cap;
	}
	return o->data + o->len;
}

void nm_out_write(nm_out *o, const void *p, size_t n)
{
	uint8_t *d = nm_out_reserve(o, n);
	if (d && n) {
		memcpy(d, p, n);
		o->len += n;
	}
}

void nm_out_str(nm_out *o, const char *s) { nm_out_write(o, s, strlen(s)); }

void nm_out_expect(nm_out *o, size_t n)
{
	size_t need;
	if (o->failed || n > SIZE_MAX - o->len || o->len + n <= o->cap ||
	    nm_alloc_check(o->opt, o->len + n, 1, &need) != NM_OK)
		return;
	uint8_t *d = realloc(o->data, need); /* need > cap >= 0 */
	if (!d)
		return; /* the writes that follow report it */
	o->data = d;
	o->cap = need;
}

void nm_out_printf(nm_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->failed = true;
		return;
	}
	if ((size_t)n < sizeof small) {
		nm_out_write(o, small, (size_t)n);
		return;
	}
	uint8_t *d = nm_out_reserve(o, (size_t)n + 1);
	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf((char *)d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

nm_status nm_out_status(const nm_out *o)
{
	return o->over_limit ? NM_E_LIMIT : o->failed ? NM_E_NOMEM : NM_OK;
}

uint8_t *nm_out_take(nm_out *o, size_t *len)
{
	uint8_t *d = o->data;
	*len = o->len;
	reset(o);
	return d;
}
