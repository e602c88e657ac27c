/* The small chunks: qtrs/ (bounding boxes), luts/ (keyframe CSVs), vatr/ (slices). */
#include <stdio.h>
#include <stdlib.h>
#include "export/csv.h"
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

/* --- qtrs ------------------------------------------------------------------------ */

nm_status cmb_tree_qtrs(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_QTRS];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_QTRS);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (!c->failed)
		nm_kv(&o, "box_count", "%u", m->nqtrs);
	cmb_text(t, dir, "header.txt", &o);
	nm_view *v = &c->v;
	for (uint32_t i = 0; !c->failed && i < m->nqtrs; i++) {
		size_t b = 0x0C + (size_t)i * 0x28;
		float mn[3], mx[3];
		for (int k = 0; k < 3; k++) {
			mn[k] = nm_f32(v, b + 0x08 + 4 * k);
			mx[k] = nm_f32(v, b + 0x14 + 4 * k);
		}
		nm_kv(&o, "index", "%u", i);
		nm_kv(&o, "offset", "0x%zx", b);
		nm_kv(&o, "unknown_00", "0x%x", nm_u32(v, b));
		nm_kv(&o, "unknown_04", "0x%x", nm_u32(v, b + 4));
		nm_kv_floats(&o, "min", mn, 3);
		nm_kv_floats(&o, "max", mx, 3);
		nm_kv(&o, "unknown_20", "%d", nm_s32(v, b + 0x20));
		nm_kv(&o, "unknown_24", "%d", nm_s32(v, b + 0x24));
		char name[32];
		snprintf(name, sizeof name, "%u.txt", i);
		if (!cmb_text(t, dir, name, &o))
			return NM_E_NOMEM;
	}
	return NM_OK;
}

/* --- luts ------------------------------------------------------------------------ */

#define TIME_WIDTH 11   /* an s32 with its sign */

/* A LUT's keys: time (s32), value, in and out slopes. */
static void key_columns(nm_csv *csv)
{
	static const char *const slopes[] = { "value", "in_slope", "out_slope" };
	csv->ncols = 0;
	nm_csv_col_add(csv, "time", NM_CSV_INT, TIME_WIDTH);
	nm_csv_floats(csv, slopes, 3);
}

struct lut_ref {
	cmb_model *m;
	const cmb_lut *l;
};

static nm_status produce_keys(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct lut_ref *ref = arg;
	const cmb_chunk *c = &ref->m->chunk[CMB_LUTS];
	uint64_t at = (uint64_t)c->off + ref->l->offset + 0x10;
	uint8_t *raw;
	(void)ctx;
	nm_status s = nm_reader_load(ref->m->r, at, (size_t)ref->l->count * 16, "luts", &raw, err);
	if (s != NM_OK)
		return s;
	nm_view v = nm_view_of(raw, (size_t)ref->l->count * 16, at, ref->m->file, "luts",
			       NM_LITTLE);
	nm_csv csv;
	key_columns(&csv);
	nm_csv_begin(o, &csv);
	for (uint32_t k = 0; k < ref->l->count && !o->failed; k++) {
		size_t b = (size_t)k * 16;
		nm_csv_cell_int(o, &csv, 0, nm_s32(&v, b));
		for (size_t j = 1; j < 4; j++)
			nm_csv_cell_float(o, &csv, j, nm_f32(&v, b + 4 * j));
	}
	free(raw);
	return NM_OK;
}

nm_status cmb_tree_luts(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_LUTS];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_LUTS);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (m->luts) {
		nm_kv(&o, "lut_count", "%u", m->nluts);
		nm_kv(&o, "unknown_0c", "0x%x", m->luts_unknown);
		nm_out_str(&o, "lut_offsets:");
		for (uint32_t i = 0; i < m->nluts; i++)
			nm_out_printf(&o, " 0x%x", m->luts[i].offset);
		nm_out_char(&o, '\n');
	}
	cmb_text(t, dir, "header.txt", &o);
	nm_out failures; /* luts/error.txt: every LUT that failed */
	nm_out_init(&failures);
	for (uint32_t i = 0; m->luts && i < m->nluts; i++) {
		const cmb_lut *l = &m->luts[i];
		char name[32];
		nm_kv(&o, "index", "%u", i);
		nm_kv(&o, "offset", "0x%x", l->offset);
		if (l->ok) {
			nm_kv(&o, "type", "%u", l->type);
			nm_kv(&o, "key_count", "%u", l->count);
			nm_kv(&o, "start", "%d", l->start);
			nm_kv(&o, "end", "%d", l->end);
			if (m->L.luts_short)
				nm_kv_floats(&o, "unknown_08", l->unknown, 2);
		} else {
			nm_kv_str(&o, "error", l->error ? l->error : "");
			nm_out_printf(&failures, "%s\n", l->error ? l->error : "");
		}
		snprintf(name, sizeof name, "%u.txt", i);
		if (!cmb_text(t, dir, name, &o))
			goto nomem;
		if (!l->ok)
			continue;
		struct lut_ref *ref = nm_tree_alloc(t, sizeof *ref);
		if (!ref)
			goto nomem;
		*ref = (struct lut_ref){ .m = m, .l = l };
		nm_csv csv;
		key_columns(&csv);
		uint64_t size = nm_csv_size(&csv, l->count);
		snprintf(name, sizeof name, "%u.csv", i);
		if (!nm_lazy_formats(nm_lazy(t, dir, name, size, produce_keys, NULL, ref), m->r))
			goto nomem;
	}
	return cmb_record_errors(t, dir, &failures);
nomem:
	nm_out_free(&failures);
	return NM_E_NOMEM;
}

/* --- vatr ------------------------------------------------------------------------ */

nm_status cmb_tree_vatr(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_VATR];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_VATR);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (m->L.known && c->v.data) {
		nm_kv(&o, "vertex_total", "%u", m->vatr_total);
		for (int k = 0; k < CMB_NATTRS; k++) {
			char key[48];
			if (k == CMB_TANGENT && !m->L.tangents)
				continue;
			snprintf(key, sizeof key, "%s_slice", cmb_attr_name(k));
			if (m->slice_size[k] == 0)
				nm_kv(&o, key, "absent");
			else
				nm_kv(&o, key, "0x%x bytes at 0x%x (absolute 0x%llx)%s",
				      m->slice_size[k], m->slice_off[k],
				      (unsigned long long)c->off + m->slice_off[k],
				      m->slice_ok[k] ? "" : ", outside the chunk");
		}
	}
	return cmb_text(t, dir, "header.txt", &o) ? NM_OK : NM_E_NOMEM;
}
