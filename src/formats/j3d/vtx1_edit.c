/* The inverse of a vtx1/NAME.csv (nmodel apply): the same rows, each changed value stored
 * in the array's own component type, exactly as parse_vtx1.c reads it back (an integer
 * times 2^-shift in float, an f32, or a colour channel widened by bit replication), or
 * refused with the nearest value the array can hold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/quantize.h"
#include "export/csv_edit.h"
#include "export/text.h"
#include "formats/j3d/j3d.h"

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

struct vtx_edit {
	j3d_model *m;
	const j3d_varray *a;
	const char *name;         /* the CSV's, for messages */
	uint8_t *data, *was;
	uint8_t rgba[4];          /* a colour row as edited */
	uint64_t rgba_row;        /* the row rgba holds, or UINT64_MAX */
};

static const char *const type_names[5] = { "u8", "s8", "u16", "s16", "f32" };

/* Stores v in the integer component at p, or says the nearest value it holds. */
static bool store_int(const j3d_varray *a, float v, uint8_t *p, float *near)
{
	static const int64_t lo[4] = { 0, INT8_MIN, 0, INT16_MIN };
	static const int64_t hi[4] = { UINT8_MAX, INT8_MAX, UINT16_MAX, INT16_MAX };
	unsigned t = a->fmt->type;
	double q = (double)v / a->scale;
	int64_t k = isfinite(q) ? (q < lo[t] ? lo[t] : q > hi[t] ? hi[t] : llround(q)) : 0;
	*near = (float)k * a->scale;
	if (!isfinite(q) || *near != v)
		return false;
	if (t < 2)
		p[0] = (uint8_t)k;
	else
		put_be16(p, (uint16_t)k);
	return true;
}

static void number_cell(struct vtx_edit *x, uint64_t row, unsigned col, const char *text,
			unsigned line, nm_edit *ed, const char *field)
{
	const j3d_varray *a = x->a;
	char *end;
	float v = strtof(text, &end);
	if (!text[0] || *end) {
		nm_edit_refuse(ed, line, field, "%s is not a number", text);
		return;
	}
	uint8_t *p = x->data + row * a->stride + (size_t)col * a->csize;
	if (a->fmt->type == 4) {
		uint32_t u;
		memcpy(&u, &v, 4);
		put_be32(p, u);
		return;
	}
	float near;
	if (!store_int(a, v, p, &near)) {
		char nb[NM_FLOAT_BUF], sb[NM_FLOAT_BUF];
		nm_edit_refuse(ed, line, field, "%s is not a value this array holds (%s x %s, "
			       "shift %u): the nearest is %s", text, type_names[a->fmt->type],
			       nm_fmt_float(sb, a->scale), a->fmt->shift, nm_fmt_float(nb, near));
	}
}

const char *j3d_vtx_column(const j3d_varray *a, int slot, unsigned col)
{
	static const char *const xyz[] = { "x", "y", "z" };
	static const char *const nbt[] = { "nx", "ny", "nz", "bx", "by", "bz", "tx", "ty", "tz" };
	static const char *const rgba[] = { "r", "g", "b", "a" };
	static const char *const st[] = { "s", "t" };
	const char *const *src = a->color ? rgba : slot >= J3D_TEX0 ? st
			       : a->ncomp == 9 ? nbt : xyz;
	return src[col];
}

static void edit_cell(void *ctx, uint64_t row, unsigned col, const char *text, unsigned line,
		      nm_edit *ed)
{
	struct vtx_edit *x = ctx;
	const j3d_varray *a = x->a;
	const char *field = j3d_vtx_column(a, (int)(a - x->m->vtx1->arrays), col);
	if (!a->color) {
		number_cell(x, row, col, text, line, ed, field);
		return;
	}
	char *end;
	long v = strtol(text, &end, 10);
	if (!text[0] || *end || v < 0 || v > 255) {
		nm_edit_refuse(ed, line, field, "%s is not a colour channel (0..255)", text);
		return;
	}
	if (x->rgba_row != row) {
		j3d_vtx_color(a, x->data, (uint32_t)row, x->rgba);
		x->rgba_row = row;
	}
	x->rgba[col] = (uint8_t)v;
}

/* A colour row into its element: each channel must be one the type widens to. */
static void store_color(struct vtx_edit *x, uint64_t row, unsigned line, nm_edit *ed)
{
	static const uint8_t bits[6][4] = { { 5, 6, 5, 0 }, { 8, 8, 8, 0 }, { 8, 8, 8, 0 },
					    { 4, 4, 4, 4 }, { 6, 6, 6, 6 }, { 8, 8, 8, 8 } };
	static const char *const names[6] = { "RGB565", "RGB8", "RGBX8", "RGBA4", "RGBA6",
					       "RGBA8" };
	unsigned t = x->a->fmt->type > 5 ? 5 : x->a->fmt->type;
	unsigned q[4];
	bool ok = true;
	for (unsigned c = 0; c < 4; c++) {
		const char *field = j3d_vtx_column(x->a, J3D_CLR0, c);
		if (!bits[t][c]) {
			if (x->rgba[c] != 255) {
				nm_edit_refuse(ed, line, field, "%u: %s has no alpha (it reads 255)",
					       x->rgba[c], names[t]);
				ok = false;
			}
			continue;
		}
		q[c] = nm_quantize_bits(x->rgba[c], bits[t][c]);
		unsigned near = nm_widen_bits(q[c], bits[t][c]);
		if (near != x->rgba[c]) {
			nm_edit_refuse(ed, line, field, "%u is not a value %s holds (%u bits): the "
				       "nearest is %u", x->rgba[c], names[t], bits[t][c], near);
			ok = false;
		}
	}
	if (!ok)
		return;
	uint8_t *p = x->data + row * x->a->stride;
	switch (t) {
	case 0: put_be16(p, (uint16_t)(q[0] << 11 | q[1] << 5 | q[2])); break;
	case 3: put_be16(p, (uint16_t)(q[0] << 12 | q[1] << 8 | q[2] << 4 | q[3])); break;
	case 4: {
		uint32_t v = q[0] << 18 | q[1] << 12 | q[2] << 6 | q[3];
		p[0] = (uint8_t)(v >> 16);
		p[1] = (uint8_t)(v >> 8);
		p[2] = (uint8_t)v;
		break;
	}
	default:
		for (unsigned c = 0; c < (t == 5 ? 4u : 3u); c++)
			p[c] = (uint8_t)q[c];
	}
}

static void row_done(void *ctx, uint64_t row, unsigned line, nm_edit *ed)
{
	struct vtx_edit *x = ctx;
	const j3d_varray *a = x->a;
	if (a->color && x->rgba_row == row)
		store_color(x, row, line, ed);
	size_t at = (size_t)row * a->stride;
	if (memcmp(x->data + at, x->was + at, a->stride) == 0)
		return;
	const j3d_chunk *c = x->m->vtx1->chunk;
	nm_edit_patch(ed, x->m->r, c->off + a->off + at, x->data + at, a->stride, c->magic,
		      line, x->name);
}

nm_status j3d_vtx1_invert(j3d_model *m, int slot, const char *name, const uint8_t *now,
			  size_t now_len, const uint8_t *bytes, size_t len, nm_edit *ed,
			  nm_error *err)
{
	const j3d_varray *a = &m->vtx1->arrays[slot];
	struct vtx_edit x = { .m = m, .a = a, .name = name, .rgba_row = UINT64_MAX };
	nm_status s = j3d_vtx_load(m, a, &x.data, err);
	size_t n = (size_t)a->count * a->stride;
	if (s == NM_OK && !(x.was = malloc(n ? n : 1)))
		s = nm_fail(err, NM_E_NOMEM, m->file, "VTX1", a->off, "out of memory");
	if (s == NM_OK) {
		memcpy(x.was, x.data, n);
		nm_csv_edit e = { .cell = edit_cell, .row_done = row_done, .ctx = &x,
				  .rows = a->count, .ncols = a->ncomp, .what = "the array has" };
		nm_csv_read_back(&e, (const char *)now, now_len, (const char *)bytes, len, ed);
	}
	free(x.data);
	free(x.was);
	return s;
}
