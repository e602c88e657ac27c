#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/out.h"

static size_t output_limit = (size_t)1 << 30;

size_t nm_output_limit(void) { return output_limit; }
void nm_set_output_limit(size_t bytes) { output_limit = bytes; }

void nm_out_init(nm_out *o) { memset(o, 0, sizeof *o); }

void nm_out_free(nm_out *o)
{
	free(o->data);
	nm_out_init(o);
}

uint8_t *nm_out_reserve(nm_out *o, size_t n)
{
	if (o->failed)
		return NULL;
	if (n > SIZE_MAX - o->len || o->len + n > output_limit) {
		o->failed = true;
		o->over_limit = true;
		return NULL;
	}
	/* An empty buffer gets its first block even for n == 0: the pointer returned must
	 * point into memory (NULL + 0 is undefined behaviour, and NULL means failure). */
	if (o->len + n > o->cap || !o->data) {
		size_t cap = o->cap ? o->cap : 256;
		while (cap < o->len + n)
			cap = cap > SIZE_MAX / 2 ? o->len + n : cap * 2;
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
void nm_out_char(nm_out *o, char c) { nm_out_write(o, &c, 1); }

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
	nm_out_init(o);
	return d;
}
