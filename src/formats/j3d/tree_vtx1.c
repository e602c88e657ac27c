/* vtx1/: header.txt, formats.txt and one CSV per vertex array (positions.csv,
 * normals.csv, nbt.csv, colors0.csv, colors1.csv, texcoords0.csv ... texcoords7.csv).
 * Row counts come from the array spans (parse_vtx1.c), values are fixed width, so each
 * CSV's size is known at mount; the array is read and decoded on the first read. */
#include <stdio.h>
#include <stdlib.h>
#include "export/csv.h"
#include "export/text.h"
#include "formats/j3d/j3d.h"
#include "lib/edit.h"

static const char *const slot_names[J3D_VTX_SLOTS] = {
	"positions", "normals", "nbt", "colors0", "colors1", "texcoords0", "texcoords1",
	"texcoords2", "texcoords3", "texcoords4", "texcoords5", "texcoords6", "texcoords7"
};

#define COLOR_WIDTH 3

/* The array's CSV: colours as 3-wide integers, everything else floats. */
static void columns(const j3d_varray *a, int slot, nm_csv *csv)
{
	csv->ncols = 0;
	for (unsigned c = 0; c < a->ncomp; c++)
		nm_csv_col_add(csv, j3d_vtx_column(a, slot, c),
			       a->color ? NM_CSV_UINT : NM_CSV_FLOAT, COLOR_WIDTH);
}

static uint64_t csv_size(const j3d_varray *a, int slot)
{
	nm_csv csv;
	columns(a, slot, &csv);
	return nm_csv_size(&csv, a->count);
}

struct array_ref {
	j3d_model *m;
	int slot;
};

/* A row of an array's CSV: ctx is a struct array_rows. */
struct array_rows {
	const j3d_varray *a;
	const nm_csv *csv;
	const uint8_t *data;
};

static void array_row(nm_out *o, void *ctx, uint64_t i)
{
	const struct array_rows *r = ctx;
	if (r->a->color) {
		uint8_t c[4];
		j3d_vtx_color(r->a, r->data, (uint32_t)i, c);
		for (size_t k = 0; k < r->csv->ncols; k++)
			nm_csv_cell_uint(o, r->csv, k, c[k]);
	} else {
		float f[9];
		j3d_vtx_floats(r->a, r->data, (uint32_t)i, f);
		for (size_t k = 0; k < r->csv->ncols; k++)
			nm_csv_cell_float(o, r->csv, k, f[k]);
	}
}

/* Bytes [off, off+len) of an array's CSV (the whole file from produce_array). */
static nm_status array_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			     nm_error *err)
{
	struct array_ref *ref = arg;
	const j3d_varray *a = &ref->m->vtx1->arrays[ref->slot];
	nm_csv csv;
	uint8_t *data;
	(void)ctx;
	nm_status s = j3d_vtx_load(ref->m, a, &data, err);
	if (s != NM_OK)
		return s;
	columns(a, ref->slot, &csv);
	struct array_rows rows = { a, &csv, data };
	s = nm_csv_write_range(o, &csv, a->count, off, len, array_row, &rows, "vtx1", err);
	free(data);
	return s;
}

static nm_status produce_array(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	struct array_ref *ref = arg;
	uint64_t size = csv_size(&ref->m->vtx1->arrays[ref->slot], ref->slot);
	if (size > SIZE_MAX)
		return nm_fail(err, NM_E_LIMIT, "vtx1", NULL, NM_NO_OFFSET, "too large");
	return array_range(ctx, arg, 0, (size_t)size, o, err);
}

/* The inverse of produce_array: the CSV as it is now against the edited one. */
static nm_status invert_array(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			      nm_edit *ed, nm_error *err)
{
	struct array_ref *ref = arg;
	nm_out now;
	nm_out_init(&now);
	now.opt = nm_reader_options(ref->m->r);
	nm_status s = produce_array(ctx, arg, &now, err);
	char name[32];
	snprintf(name, sizeof name, "%s.csv", slot_names[ref->slot]);
	if (s == NM_OK)
		s = j3d_vtx1_invert(ref->m, ref->slot, name, now.data, now.len, bytes, len, ed,
				    err);
	nm_out_free(&now);
	return s;
}

nm_status j3d_tree_vtx1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	if (nm_tree_options(t)->editable &&
	    nm_tree_invert_producer(t, produce_array, invert_array) != NM_OK)
		return NM_E_NOMEM;
	const j3d_vtx1 *x = m->vtx1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "format_list_offset", "0x%x", x->fmt_off);
	for (int k = 0; k < J3D_VTX_SLOTS; k++) {
		char key[48];
		snprintf(key, sizeof key, "%s_offset", slot_names[k]);
		nm_kv(&o, key, "0x%x", x->offs[k]);
	}
	nm_node *h = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!h)
		return NM_E_NOMEM;

	nm_out_init(&o);
	for (size_t i = 0; i < x->nfmts; i++) {
		const j3d_vfmt *f = &x->fmts[i];
		bool color = f->attr == J3D_A_CLR0 || f->attr == J3D_A_CLR1;
		nm_out_printf(&o, "format%zu_attribute: %s (0x%x)\n", i,
			      j3d_attr_name(f->attr) ? j3d_attr_name(f->attr) : "unknown", f->attr);
		const char *cn = j3d_comp_count_name(f->attr, f->cnt);
		const char *tn = j3d_comp_type_name(f->type, color);
		nm_out_printf(&o, "format%zu_components: %s (0x%x)\n", i, cn ? cn : "unknown",
			      f->cnt);
		nm_out_printf(&o, "format%zu_type: %s (0x%x)\n", i, tn ? tn : "unknown", f->type);
		nm_out_printf(&o, "format%zu_shift: %u\n", i, f->shift);
	}
	for (int k = 0; k < J3D_VTX_SLOTS; k++) {
		const j3d_varray *a = &x->arrays[k];
		if (!a->present)
			continue;
		const char *s = slot_names[k];
		nm_out_printf(&o, "%s_offset: 0x%x\n", s, a->off);
		nm_out_printf(&o, "%s_span: %u\n", s, a->span);
		if (a->problem) {
			nm_out_printf(&o, "%s_problem: %s\n", s, a->problem);
			continue;
		}
		nm_out_printf(&o, "%s_stride: %u\n", s, a->stride);
		nm_out_printf(&o, "%s_count: %u\n", s, a->count);
		if (!a->color) {
			nm_out_printf(&o, "%s_scale: ", s);
			nm_out_float(&o, a->scale);
			nm_out_char(&o, '\n');
		}
	}
	nm_out_str(&o, "note: row counts are floor(span / stride); the last rows may be "
		   "padding that no vertex uses\n");
	h = nm_text(t, c->dir, "formats.txt", &o);
	nm_out_free(&o);
	if (!h)
		return NM_E_NOMEM;

	if (nm_tree_split_producer(t, produce_array, array_range) != NM_OK)
		return NM_E_NOMEM;
	for (int k = 0; k < J3D_VTX_SLOTS; k++) {
		const j3d_varray *a = &x->arrays[k];
		if (!a->present || a->problem)
			continue;
		struct array_ref *ref = nm_tree_alloc_array(m->t, 1, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		ref->m = m;
		ref->slot = k;
		char name[32];
		snprintf(name, sizeof name, "%s.csv", slot_names[k]);
		if (!nm_lazy_formats(nm_lazy(t, c->dir, name, csv_size(a, k), produce_array, NULL, ref),
				     m->r))
			return NM_E_NOMEM;
	}
	return NM_OK;
}
