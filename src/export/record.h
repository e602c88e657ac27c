/* A record's text file described once, field by field, so that the one description both
 * writes the text (`key: value` lines, text.h's conventions) and reads an edited copy
 * back into the record's bytes (doc/apply.md).
 *
 * Each field says where its bytes are (an offset in the record's view) and their type.
 * Writing, a call appends its line. Reading back (nm_rec_read), a call takes the next
 * line of the new text: the same line is no edit; another value is encoded in the
 * field's type and becomes a patch at the view's absolute offset, or a refusal naming
 * the line and the field (out of range, not a name of the enum, a float that is not a
 * float, a derived value changed). A derived line (nm_rec_derived: an index, an offset,
 * a count, a name from another record) cannot be edited; one missing is no edit. */
#ifndef NM_RECORD_H
#define NM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/edit.h"
#include "lib/out.h"
#include "lib/view.h"

typedef enum nm_field_type {
	NM_FIELD_U8, NM_FIELD_S8, NM_FIELD_U16, NM_FIELD_S16, NM_FIELD_U32, NM_FIELD_S32,
	NM_FIELD_F32
} nm_field_type;

/* An enum's names both ways, for one kind of field (kind: the driver's). */
typedef struct nm_rec_names {
	const char *(*name)(int kind, uint32_t v);          /* NULL: no name */
	bool (*value)(int kind, const char *name, uint32_t *v);
} nm_rec_names;

typedef struct nm_rec {
	nm_out *o;              /* writing: the text */
	nm_view *v;             /* the record's bytes (offsets below are into it) */
	/* Reading back (nm_rec_read sets these). */
	nm_edit *ed;
	nm_reader *r;           /* whose bytes v holds (patches go there, at v->base + off) */
	const char *chunk;
	const char *text;
	size_t len, pos;
	unsigned line;          /* of the line taken last */
	bool lost;              /* a line broke the order: the rest is not compared */
	nm_out scratch;         /* the line as the record has it now */
	uint8_t *orig;          /* the view's bytes before this file's first patch */
	uint8_t *same;          /* bitmap: view bytes some line gave as they are */
	size_t first;           /* ed->npatches when reading began */
	/* Set by a writer around lines whose change it cannot encode here (why): a changed
	 * value is refused with it instead of patched. */
	const char *locked;
} nm_rec;

/* Writing into o. */
void nm_rec_write(nm_rec *rec, nm_out *o, nm_view *v);
/* Reading text[0..len) back against v, whose bytes are at v->base of r; patches and
 * refusals go to ed. Call nm_rec_end after the description. A later field reads the
 * bytes as an earlier line edited them; a line that gives bytes an earlier line of the
 * file changed their value from before the edit is that field's other spelling left as
 * it was (rotation_raw under an edited rotation_degrees): no edit. Verifying (ed->verify:
 * the edited text against the model it made), a line whose bytes another line of the
 * file gives as they are is that field's other spelling too, whichever comes first. */
void nm_rec_read(nm_rec *rec, nm_view *v, nm_reader *r, const char *chunk, const char *text,
		 size_t len, nm_edit *ed);
/* Lines left over are refused; frees what reading used. */
void nm_rec_end(nm_rec *rec);

/* `key: N` (decimal; signed types with their sign). */
void nm_rec_int(nm_rec *rec, const char *key, size_t off, nm_field_type type);
/* `key: 0xN`, at least digits hex digits (0: as many as needed). */
void nm_rec_hex(nm_rec *rec, const char *key, size_t off, nm_field_type type, int digits);
/* `key: N N N` for n integers of type one after another. */
void nm_rec_ints(nm_rec *rec, const char *key, size_t off, nm_field_type type, unsigned n);
/* `key: F F F` for n integers of type shown as floats, (float)(x * mul / div) (an s16
 * angle where 0x8000 is 180 degrees: mul 180, div 32768). Reads back a float that is
 * exactly such a value, else refuses with the nearest. The same field may also be shown
 * as it is stored (nm_rec_ints) on another line: the line a changed one leaves as it was
 * is no edit (a field's other spelling, see nm_rec_read). */
void nm_rec_scaled(nm_rec *rec, const char *key, size_t off, nm_field_type type, unsigned n,
		   double mul, double div);
/* `key: F F F` for n floats (f32), shortest exact. */
void nm_rec_floats(nm_rec *rec, const char *key, size_t off, unsigned n);
/* `key: NAME (0xN)` (nm_kv_enum); reads back NAME, a number, or both when they agree. */
void nm_rec_enum(nm_rec *rec, const char *key, size_t off, nm_field_type type,
		 const nm_rec_names *names, int kind);
/* `key: N` (or 0xN when hex) for width bits from bit shift of an integer of type. */
void nm_rec_bits(nm_rec *rec, const char *key, size_t off, nm_field_type type,
		 unsigned shift, unsigned width, bool hex);
/* A line that cannot be edited (printf-style value). */
void nm_rec_derived(nm_rec *rec, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for n floats (a matrix row computed from stored fields). */
void nm_rec_derived_floats(nm_rec *rec, const char *key, const float *f, unsigned n);
/* The same with nm_kv_str's escaping. */
void nm_rec_derived_str(nm_rec *rec, const char *key, const char *s);

#endif
