#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/bytes.h"
#include "lib/view.h"

nm_status nm_view_load(nm_reader *r, uint64_t off, size_t len, const char *chunk,
		       nm_endian endian, nm_view *v, nm_error *err)
{
	uint8_t *buf;
	nm_status s = nm_reader_load(r, off, len, chunk, &buf, err);
	if (s != NM_OK)
		return s;
	*v = nm_view_of(buf, len, off, nm_reader_name(r), chunk, endian);
	v->owned = buf;
	return NM_OK;
}

nm_view nm_view_of(const uint8_t *data, size_t size, uint64_t base, const char *file,
		   const char *chunk, nm_endian endian)
{
	nm_view v = { .data = data, .size = size, .base = base, .file = file,
		      .chunk = chunk, .endian = endian };
	return v;
}

void nm_view_free(nm_view *v)
{
	free(v->owned);
	v->owned = NULL;
	v->data = NULL;
	v->size = 0;
}

static void mark_bad(nm_view *v, size_t off)
{
	if (!v->bad) {
		v->bad = true;
		v->bad_off = off;
	}
}

bool nm_view_has(nm_view *v, size_t off, size_t len)
{
	if (off <= v->size && len <= v->size - off)
		return true;
	mark_bad(v, off);
	return false;
}

bool nm_view_array(nm_view *v, size_t off, uint64_t count, size_t stride)
{
	if (stride && count > (SIZE_MAX / stride)) {
		mark_bad(v, off);
		return false;
	}
	return nm_view_has(v, off, (size_t)count * stride);
}

nm_view nm_view_sub(nm_view *v, size_t off, size_t len, const char *chunk)
{
	nm_view s = *v;
	s.owned = NULL;
	s.bad = false;
	if (chunk)
		s.chunk = chunk;
	if (!nm_view_has(v, off, len)) {
		s.data += v->size;
		s.base += v->size;
		s.size = 0;
		s.bad = true;
		s.bad_off = 0;
		return s;
	}
	s.data += off;
	s.base += off;
	s.size = len;
	return s;
}

const uint8_t *nm_bytes(nm_view *v, size_t off, size_t len)
{
	return nm_view_has(v, off, len) ? v->data + off : NULL;
}

uint8_t nm_u8(nm_view *v, size_t off)
{
	const uint8_t *p = nm_bytes(v, off, 1);
	return p ? *p : 0;
}

int8_t nm_s8(nm_view *v, size_t off) { return (int8_t)nm_u8(v, off); }

uint16_t nm_u16(nm_view *v, size_t off)
{
	const uint8_t *p = nm_bytes(v, off, 2);
	return !p ? 0 : v->endian == NM_BIG ? nm_be16(p) : nm_le16(p);
}

int16_t nm_s16(nm_view *v, size_t off) { return (int16_t)nm_u16(v, off); }

uint32_t nm_u32(nm_view *v, size_t off)
{
	const uint8_t *p = nm_bytes(v, off, 4);
	return !p ? 0 : v->endian == NM_BIG ? nm_be32(p) : nm_le32(p);
}

int32_t nm_s32(nm_view *v, size_t off) { return (int32_t)nm_u32(v, off); }

uint64_t nm_u64(nm_view *v, size_t off)
{
	const uint8_t *p = nm_bytes(v, off, 8);
	return !p ? 0 : v->endian == NM_BIG ? nm_be64(p) : nm_le64(p);
}

float nm_f32(nm_view *v, size_t off) { return nm_bits_f32(nm_u32(v, off)); }

nm_status nm_view_fail_at(const nm_view *v, nm_error *err, nm_status code, size_t off,
			  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_failv(err, code, v->file, v->chunk, v->base + off, fmt, ap);
	va_end(ap);
	return code;
}

nm_status nm_view_fail(nm_view *v, nm_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_failv(err, NM_E_FORMAT, v->file, v->chunk, v->base + (v->bad ? v->bad_off : 0), fmt, ap);
	va_end(ap);
	nm_error_append(err, " runs past the end of the %s (0x%zx bytes)",
			v->chunk ? "chunk" : "data", v->size);
	return NM_E_FORMAT;
}

bool nm_view_table(nm_view *v, size_t off, uint64_t count, size_t stride, const char *what,
		   nm_error *err)
{
	if (nm_view_array(v, off, count, stride))
		return true;
	nm_view_fail(v, err, "a table of %llu %s of 0x%zx bytes", (unsigned long long)count, what,
		     stride);
	return false;
}
