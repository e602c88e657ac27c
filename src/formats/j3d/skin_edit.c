/* The inverses of evp1/envelopes.csv and drw1/entries.csv (nmodel apply): the same
 * rows (export/csv_edit.h), each changed cell stored in its table: an influence's joint
 * (u16) and weight (f32), a matrix entry's kind (joint 0, envelope 1: u8) and index
 * (u16). The first column numbers the rows and cannot change. */
#include <stdlib.h>
#include <string.h>
#include "export/csv_edit.h"
#include "formats/j3d/j3d.h"

struct skin_edit {
	j3d_model *m;
	const j3d_chunk *c;
	uint32_t off[3];          /* per column: the table it is stored in (0: none) */
	const char *const *cols;
};

static void put(struct skin_edit *x, unsigned col, uint64_t row, uint32_t v, unsigned size,
		unsigned line, nm_edit *ed)
{
	uint8_t b[4];
	for (unsigned i = 0; i < size; i++)
		b[i] = (uint8_t)(v >> 8 * (size - 1 - i));
	nm_edit_patch(ed, x->m->r, x->c->off + x->off[col] + row * size, b, size, x->c->magic,
		      line, x->cols[col]);
}

static bool u16_of(const char *text, uint32_t *v)
{
	char *end;
	unsigned long n = strtoul(text, &end, 0);
	*v = (uint32_t)n;
	return text[0] >= '0' && text[0] <= '9' && !*end && n <= 0xFFFF;
}

static void envelope_cell(void *ctx, uint64_t row, unsigned col, const char *text,
			  unsigned line, nm_edit *ed)
{
	struct skin_edit *x = ctx;
	uint32_t v;
	char *end;
	if (col == 0) {
		nm_edit_refuse(ed, line, x->cols[0], "numbers the envelope from the weight counts: "
			       "it cannot be edited (it says the row's envelope)");
	} else if (col == 1) {
		if (!u16_of(text, &v))
			nm_edit_refuse(ed, line, "joint", "%s is not a joint index (0..65535)", text);
		else
			put(x, col, row, v, 2, line, ed);
	} else {
		float f = strtof(text, &end);
		if (!text[0] || *end) {
			nm_edit_refuse(ed, line, "weight", "%s is not a number (f32)", text);
			return;
		}
		memcpy(&v, &f, 4);
		put(x, col, row, v, 4, line, ed);
	}
}

static void entry_cell(void *ctx, uint64_t row, unsigned col, const char *text,
		       unsigned line, nm_edit *ed)
{
	struct skin_edit *x = ctx;
	uint32_t v;
	if (col == 0) {
		nm_edit_refuse(ed, line, x->cols[0], "numbers the entry: it cannot be edited");
	} else if (col == 1) {
		v = strcmp(text, "joint") == 0 ? 0 : strcmp(text, "envelope") == 0 ? 1 : 2;
		if (v == 2)
			nm_edit_refuse(ed, line, "kind", "%s is not a kind: write joint or envelope",
				       text);
		else
			put(x, col, row, v, 1, line, ed);
	} else if (!u16_of(text, &v)) {
		nm_edit_refuse(ed, line, "index", "%s is not an index (0..65535)", text);
	} else {
		put(x, col, row, v, 2, line, ed);
	}
}

static nm_status invert(struct skin_edit *x, void (*cell)(void *, uint64_t, unsigned,
			const char *, unsigned, nm_edit *), uint64_t rows, const nm_out *now,
			const uint8_t *bytes, size_t len, nm_edit *ed, nm_error *err)
{
	if (now->failed)
		return nm_fail(err, NM_E_NOMEM, x->m->file, x->c->magic, NM_NO_OFFSET,
			       "out of memory");
	nm_csv_edit e = { .cell = cell, .ctx = x, .rows = rows, .ncols = 3,
			  .what = "the table has" };
	nm_csv_read_back(&e, (const char *)now->data, now->len, (const char *)bytes, len, ed);
	return NM_OK;
}

nm_status j3d_envelopes_invert(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			       nm_edit *ed, nm_error *err)
{
	static const char *const cols[] = { "envelope", "joint", "weight" };
	j3d_model *m = arg;
	const j3d_evp1 *e = m->evp1;
	struct skin_edit x = { m, e->chunk, { 0, e->off_joints, e->off_weights }, cols };
	(void)ctx;
	nm_out now;
	nm_out_init(&now);
	j3d_envelopes_csv(&now, e);
	nm_status s = invert(&x, envelope_cell, e->total, &now, bytes, len, ed, err);
	nm_out_free(&now);
	return s;
}

nm_status j3d_drw1_invert(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			  nm_edit *ed, nm_error *err)
{
	static const char *const cols[] = { "entry", "kind", "index" };
	j3d_model *m = arg;
	const j3d_drw1 *d = m->drw1;
	struct skin_edit x = { m, d->chunk, { 0, d->off_kinds, d->off_params }, cols };
	(void)ctx;
	nm_out now;
	nm_out_init(&now);
	j3d_drw1_csv(&now, d);
	nm_status s = invert(&x, entry_cell, d->count, &now, bytes, len, ed, err);
	nm_out_free(&now);
	return s;
}
