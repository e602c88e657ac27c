/* A bounds-checked view of bytes loaded from the source, for parsing headers and tables.
 *
 * Loads never fault: an out-of-range load returns 0 and marks the view as failed,
 * remembering the first bad offset, so a parser can read a whole record and check once:
 *
 *	uint32_t count = nm_u32(&v, 0x08);
 *	if (!nm_view_array(&v, 0x10, count, 0x28))
 *		return nm_view_fail(&v, err, "bone table of %u entries", count);
 *
 * Messages name the file, the chunk and the absolute offset. */
#ifndef NM_VIEW_H
#define NM_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/reader.h"

typedef enum nm_endian { NM_LITTLE, NM_BIG } nm_endian;

typedef struct nm_view {
	const uint8_t *data;
	size_t size;
	uint64_t base;      /* absolute offset of data[0] in the reader, for messages */
	const char *file;
	const char *chunk;
	nm_endian endian;
	bool bad;           /* a load or check went out of range */
	size_t bad_off;     /* first offending offset, relative to data */
	uint8_t *owned;     /* set when the view owns its bytes (nm_view_load) */
} nm_view;

/* A view over len bytes at off of r, loaded into memory. */
nm_status nm_view_load(nm_reader *r, uint64_t off, size_t len, const char *chunk,
		       nm_endian endian, nm_view *v, nm_error *err);
/* A view of someone else's bytes. */
nm_view nm_view_of(const uint8_t *data, size_t size, uint64_t base, const char *file,
		   const char *chunk, nm_endian endian);
void nm_view_free(nm_view *v);

/* A sub-view [off, off+len); if out of range, the parent is marked bad and the result
 * is empty and bad. chunk NULL keeps the parent's. */
nm_view nm_view_sub(nm_view *v, size_t off, size_t len, const char *chunk);

/* True if count elements of stride bytes fit from off (overflow-checked); else marks bad. */
bool nm_view_array(nm_view *v, size_t off, uint64_t count, size_t stride);
bool nm_view_has(nm_view *v, size_t off, size_t len);

uint8_t nm_u8(nm_view *v, size_t off);
int8_t nm_s8(nm_view *v, size_t off);
uint16_t nm_u16(nm_view *v, size_t off);
int16_t nm_s16(nm_view *v, size_t off);
uint32_t nm_u32(nm_view *v, size_t off);
int32_t nm_s32(nm_view *v, size_t off);
uint64_t nm_u64(nm_view *v, size_t off);
float nm_f32(nm_view *v, size_t off);
/* Pointer to len bytes at off, or NULL (and bad). */
const uint8_t *nm_bytes(nm_view *v, size_t off, size_t len);

/* A counted table: count records of stride bytes from off. True when they fit; else
 * the view is marked bad and err says so in the words every driver uses:
 *   "skl at 0x1a40: a table of 300 bones of 0x28 bytes runs past the end of the chunk
 *   (0x200 bytes)". what is the records' plural ("bones"). */
bool nm_view_table(nm_view *v, size_t off, uint64_t count, size_t stride, const char *what,
		   nm_error *err);

/* Error at the first bad offset (or offset 0 if none): "what runs past the end of CHUNK". */
nm_status nm_view_fail(nm_view *v, nm_error *err, const char *what, ...)
	__attribute__((format(printf, 3, 4)));
/* Error at a given offset of the view, with a free-form message. */
nm_status nm_view_fail_at(const nm_view *v, nm_error *err, nm_status code, size_t off,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
