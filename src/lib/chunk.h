/* One entry of a driver's chunk table: where the chunk is, its bytes while the tree is
 * built, and why it failed. cmb and j3d keep this same record (rfrm can too), so that
 * "fail this chunk, keep the first reason" and "load its bytes" are written once and
 * mean the same in every driver. */
#ifndef NM_CHUNK_H
#define NM_CHUNK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

typedef struct nm_chunk {
	const char *name;   /* what messages call it ("skl"); NULL: its magic ("SHP1") */
	char magic[5];      /* printable FourCC ('?' for other bytes) */
	uint32_t fourcc;    /* the four bytes as a big-endian number */
	bool present;       /* a fixed table (CMB's header) may leave a slot empty */
	uint64_t off;       /* absolute offset of the chunk's header */
	uint32_t size;      /* as declared */
	uint64_t len;       /* bytes shown: the declared size, clipped to the file */
	nm_view v;          /* those bytes while building (nm_chunk_load) */
	nm_node *dir;       /* the directory that shows it */
	bool failed;        /* err says why: its error.txt; derived files are left out */
	nm_error err;
} nm_chunk;

/* Set magic and fourcc from the four bytes at p. */
void nm_chunk_magic(nm_chunk *c, const uint8_t *p);
const char *nm_chunk_name(const nm_chunk *c);
/* The chunk fails at rel bytes into it: "x.cmb: skl at 0x1a40: ...". A chunk that
 * failed already keeps its first reason. Returns NM_E_FORMAT. */
nm_status nm_chunk_fail(nm_chunk *c, const char *file, uint64_t rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
nm_status nm_chunk_failv(nm_chunk *c, const char *file, uint64_t rel, const char *fmt,
			 va_list ap) __attribute__((format(printf, 4, 0)));
/* Load its len bytes into v; on failure the chunk fails with the reader's error. */
nm_status nm_chunk_load(nm_chunk *c, nm_reader *r, nm_endian endian);

#endif
