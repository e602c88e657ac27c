#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "lib/error.h"

void nm_error_clear(nm_error *err)
{
	if (err) {
		err->code = NM_OK;
		err->msg[0] = '\0';
	}
}

nm_status nm_failv(nm_error *err, nm_status code, const char *file, const char *chunk,
		   uint64_t off, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	size_t n = 0, cap = sizeof err->msg;
	int w;
	err->code = code;
	w = snprintf(err->msg, cap, "%s: ", file ? file : "(input)");
	n = w > 0 ? (size_t)w : 0;
	if (n < cap && (chunk || off != NM_NO_OFFSET)) {
		if (chunk && off != NM_NO_OFFSET)
			w = snprintf(err->msg + n, cap - n, "%s at 0x%llx: ", chunk,
				     (unsigned long long)off);
		else if (chunk)
			w = snprintf(err->msg + n, cap - n, "%s: ", chunk);
		else
			w = snprintf(err->msg + n, cap - n, "at 0x%llx: ", (unsigned long long)off);
		n += w > 0 ? (size_t)w : 0;
	}
	if (n < cap)
		vsnprintf(err->msg + n, cap - n, fmt, ap);
	return code;
}

nm_status nm_fail(nm_error *err, nm_status code, const char *file, const char *chunk,
		  uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_failv(err, code, file, chunk, off, fmt, ap);
	va_end(ap);
	return code;
}

void nm_error_appendv(nm_error *err, const char *fmt, va_list ap)
{
	if (!err)
		return;
	size_t n = strlen(err->msg);
	if (n + 1 < sizeof err->msg)
		vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
}

void nm_error_append(nm_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_error_appendv(err, fmt, ap);
	va_end(ap);
}

const char *nm_error_named(const nm_error *e, const char *path, char *buf, size_t len)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	size_t n = base ? strlen(base + 1) : 0;
	if (base && n && strncmp(e->msg, base + 1, n) == 0 && e->msg[n] == ':')
		snprintf(buf, len, "%s%s", path, e->msg + n);
	else
		snprintf(buf, len, "%s", e->msg);
	return buf;
}
