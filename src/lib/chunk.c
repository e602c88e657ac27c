#include "lib/bytes.h"
#include "lib/chunk.h"

void nm_chunk_magic(nm_chunk *c, const uint8_t *p)
{
	for (int k = 0; k < 4; k++)
		c->magic[k] = p[k] >= 0x20 && p[k] < 0x7f ? (char)p[k] : '?';
	c->magic[4] = '\0';
	c->fourcc = nm_be32(p);
}

const char *nm_chunk_name(const nm_chunk *c)
{
	return c->name ? c->name : c->magic;
}

nm_status nm_chunk_failv(nm_chunk *c, const char *file, uint64_t rel, const char *fmt,
			 va_list ap)
{
	if (c->failed)
		return NM_E_FORMAT; /* keep the first reason */
	c->failed = true;
	return nm_failv(&c->err, NM_E_FORMAT, file, nm_chunk_name(c), c->off + rel, fmt, ap);
}

nm_status nm_chunk_fail(nm_chunk *c, const char *file, uint64_t rel, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_status s = nm_chunk_failv(c, file, rel, fmt, ap);
	va_end(ap);
	return s;
}

nm_status nm_chunk_load(nm_chunk *c, nm_reader *r, nm_endian endian)
{
	nm_status s = nm_view_load(r, c->off, (size_t)c->len, nm_chunk_name(c), endian, &c->v,
				   &c->err);
	if (s != NM_OK)
		c->failed = true;
	return s;
}
