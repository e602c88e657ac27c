/* sepd/N/: header.txt, raw.bin, one CSV per vertex attribute (scale applied, constants
 * expanded), prms/M.txt (skinning, bone table, triangles). Sizes follow from the vertex
 * count and index counts: CSV numbers and index columns are fixed width. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
#include "export/csv_edit.h"
#include "export/text.h"
#include "lib/edit.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

#define MAX_COLS 16

struct attr_ref {
	cmb_model *m;
	const cmb_sepd *s;
	int kind;
	unsigned width;     /* 0: floats; else integers right-aligned in width */
};

static void column_names(int kind, unsigned comps, char names[MAX_COLS][16])
{
	static const char *const xyz = "xyz", *const rgba = "rgba", *const uv = "uv";
	for (unsigned c = 0; c < comps && c < MAX_COLS; c++) {
		switch (kind) {
		case CMB_COLOR: snprintf(names[c], 16, "%c", rgba[c]); break;
		case CMB_TEXCOORD0: case CMB_TEXCOORD1: case CMB_TEXCOORD2:
			snprintf(names[c], 16, "%c", uv[c]);
			break;
		case CMB_BONE_INDICES: snprintf(names[c], 16, "index%u", c); break;
		case CMB_BONE_WEIGHTS: snprintf(names[c], 16, "weight%u", c); break;
		default: snprintf(names[c], 16, "%c", xyz[c]); break;
		}
	}
}

/* An attribute's CSV: one column per component, integers of width bytes (width 0:
 * floats). */
static void attr_columns(int kind, unsigned comps, unsigned width, nm_csv *csv)
{
	char names[MAX_COLS][16];
	column_names(kind, comps, names);
	csv->ncols = 0;
	for (unsigned c = 0; c < comps && c < MAX_COLS; c++)
		nm_csv_col_add(csv, names[c], width ? NM_CSV_INT : NM_CSV_FLOAT, width);
}

/* Bone indices stored as integers with scale 1 print as integers, as wide as the type's
 * widest value; everything else prints as fixed-width floats. */
static unsigned integer_width(const cmb_attrib *a, int kind)
{
	if (kind != CMB_BONE_INDICES || a->mode != 0 || a->scale != 1.0f)
		return 0;
	switch (a->type) {
	case 0x1400: return 4;
	case 0x1401: return 3;
	case 0x1402: return 6;
	case 0x1403: return 5;
	case 0x1404: return 11;
	case 0x1405: return 10;
	default: return 0;
	}
}

static nm_status produce_attr(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct attr_ref *ref = arg;
	const cmb_attrib *a = &ref->s->attr[ref->kind];
	float *f;
	(void)ctx;
	nm_status s = cmb_load_attr(ref->m, ref->s, ref->kind, &f, err);
	if (s != NM_OK)
		return s;
	nm_csv csv;
	attr_columns(ref->kind, a->comps, ref->width, &csv);
	nm_csv_begin(o, &csv);
	size_t i = 0;
	for (uint32_t v = 0; v < ref->s->nverts && !o->failed; v++)
		for (size_t c = 0; c < csv.ncols; c++, i++) {
			if (ref->width)
				nm_csv_cell_int(o, &csv, c, (int64_t)f[i]);
			else
				nm_csv_cell_float(o, &csv, c, f[i]);
		}
	free(f);
	return NM_OK;
}

/* The inverse of an attribute's CSV (nmodel apply): the same rows (export/csv_edit.h),
 * each changed value stored in the attribute's own type and scale (cmb_quantize), or
 * refused when the type cannot hold it exactly. */
struct attr_edit {
	const struct attr_ref *ref;
	uint8_t *raw;             /* the attribute's bytes, changed in place */
	char names[MAX_COLS][16];
};

static void edit_cell(void *ctx, uint64_t row, unsigned c, const char *text, unsigned line,
		      nm_edit *ed)
{
	struct attr_edit *x = ctx;
	const cmb_attrib *a = &x->ref->s->attr[x->ref->kind];
	char *end;
	float f = x->ref->width ? (float)strtoll(text, &end, 10) : strtof(text, &end);
	if (!text[0] || *end) {
		nm_edit_refuse(ed, line, x->names[c], "%s is not a number", text);
		return;
	}
	float near;
	uint8_t *at = x->raw + ((size_t)row * a->comps + c) * a->type_size;
	if (!cmb_quantize(a, f, at, &near)) {
		char nb[NM_FLOAT_BUF];
		nm_edit_refuse(ed, line, x->names[c], "%s is not a value this attribute holds "
			       "(%s x %s): the nearest is %s", text,
			       cmb_enum_name(CMB_E_DATA_TYPE, a->type),
			       nm_fmt_float((char[NM_FLOAT_BUF]){ 0 }, a->scale),
			       nm_fmt_float(nb, near));
	}
}

static void invert_rows(const struct attr_ref *ref, const uint8_t *now, size_t now_len,
			const uint8_t *bytes, size_t len, uint8_t *raw, nm_edit *ed)
{
	const cmb_attrib *a = &ref->s->attr[ref->kind];
	struct attr_edit x = { .ref = ref, .raw = raw };
	column_names(ref->kind, a->comps, x.names);
	nm_csv_edit e = { .cell = edit_cell, .ctx = &x, .rows = ref->s->nverts,
			  .ncols = a->comps, .what = "the shape has" };
	nm_csv_read_back(&e, (const char *)now, now_len, (const char *)bytes, len, ed);
}

static nm_status invert_attr(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			     nm_edit *ed, nm_error *err)
{
	const struct attr_ref *ref = arg;
	const cmb_attrib *a = &ref->s->attr[ref->kind];
	if (a->mode != 0) {
		nm_edit_refuse(ed, 0, NULL, "a constant attribute (one value for every vertex, in "
			       "the shape's descriptor): apply cannot write it back yet");
		return NM_OK;
	}
	nm_out now;
	nm_out_init(&now);
	now.opt = nm_reader_options(ref->m->r);
	nm_status s = produce_attr(ctx, arg, &now, err);
	size_t n = (size_t)ref->s->nverts * a->comps * a->type_size;
	uint8_t *raw = NULL, *was = NULL;
	if (s == NM_OK)
		s = nm_reader_load(ref->m->r, a->data_off, n, "vatr", &raw, err);
	if (s == NM_OK && !(was = malloc(n ? n : 1)))
		s = nm_fail(err, NM_E_NOMEM, ref->m->file, "vatr", a->data_off, "out of memory");
	if (s == NM_OK) {
		memcpy(was, raw, n);
		bool changed = false;
		invert_rows(ref, now.data, now.len, bytes, len, raw, ed);
		/* One patch per run of changed bytes, named by its first vertex and component. */
		size_t row = (size_t)a->comps * a->type_size;
		char names[MAX_COLS][16];
		column_names(ref->kind, a->comps, names);
		for (size_t i = 0; i < n;) {
			if (raw[i] == was[i]) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < n && raw[j] != was[j])
				j++;
			nm_edit_patch(ed, ref->m->r, a->data_off + i, raw + i, j - i, "vatr",
				      (unsigned)(i / row) + 2, names[i % row / a->type_size]);
			i = j;
			changed = true;
		}
		if (changed && ref->kind == CMB_POSITION)
			nm_edit_note(ed, "the shape's center%s and qtrs' boxes stay as they were: "
				     "apply does not compute bounds again", ref->m->L.sepd_bbox
				     ? ", bounding box" : "");
	}
	free(raw);
	free(was);
	nm_out_free(&now);
	return s;
}

/* --- prms/M.txt ------------------------------------------------------------------ */

struct prms_ref {
	cmb_model *m;
	const cmb_prms *p;
	char *header;
	size_t header_len;
};

static unsigned index_width(const cmb_prms *p)
{
	return p->index_size == 1 ? 3 : 5;
}

static void prms_header(nm_out *o, const cmb_model *m, const cmb_prms *p, uint16_t i)
{
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%x", p->offset);
	nm_kv(o, "offset_absolute", "0x%llx",
	      (unsigned long long)m->chunk[CMB_SKLM].off + p->offset);
	nm_kv(o, "prm_count", "%u", p->prm_count);
	nm_kv_enum(o, "skinning_mode", cmb_enum_name(CMB_E_SKINNING, p->skinning), p->skinning);
	nm_kv(o, "bone_table_count", "%u", p->nbones);
	nm_out_str(o, "bone_table:");
	for (uint16_t k = 0; p->bones && k < p->nbones; k++)
		nm_out_printf(o, " %u", p->bones[k]);
	nm_out_char(o, '\n');
	nm_kv(o, "prm_offset", "0x%x", p->prm_off);
	if (p->ok || p->index_type) {
		nm_kv(o, "visible", "%u", p->visible);
		nm_kv_enum(o, "primitive_mode", cmb_enum_name(CMB_E_PRIMITIVE, p->prim_mode),
			   p->prim_mode);
		nm_kv_enum(o, "index_type", cmb_enum_name(CMB_E_DATA_TYPE, p->index_type),
			   p->index_type);
		nm_kv(o, "index_count", "%u", p->index_count);
		nm_kv(o, "first_index", "%u (0x%x bytes into the index buffer)", p->first_index,
		      p->first_index * 2u);
	}
	if (p->ok) {
		nm_kv(o, "index_absolute", "0x%llx", (unsigned long long)p->index_abs);
		nm_kv(o, "triangle_count", "%llu", (unsigned long long)p->ntris);
		nm_out_str(o, "triangles:\n");
	} else {
		nm_kv_str(o, "error", p->error ? p->error : "");
	}
}

static nm_status produce_prms(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct prms_ref *ref = arg;
	uint32_t *tris;
	unsigned w = index_width(ref->p);
	(void)ctx;
	nm_status s = cmb_load_triangles(ref->m, ref->p, &tris, err);
	if (s != NM_OK)
		return s;
	nm_out_write(o, ref->header, ref->header_len);
	for (uint64_t k = 0; k < ref->p->ntris * 3 && !o->failed; k++) {
		nm_csv_uint(o, tris[k], w);
		nm_out_char(o, k % 3 == 2 ? '\n' : ' ');
	}
	free(tris);
	return NM_OK;
}

/* prms/N.txt per prms; a failed one keeps its header with an error: line, and prms/
 * gets an error.txt with every failure, so that find -name error.txt sees them. */
static nm_status add_prms(nm_tree *t, nm_node *dir, cmb_model *m, const cmb_sepd *s)
{
	nm_node *pd = nm_dir(t, dir, "prms");
	if (!pd)
		return NM_E_NOMEM;
	nm_out failures;
	nm_out_init(&failures);
	for (uint16_t i = 0; i < s->nprms; i++) {
		const cmb_prms *p = &s->prms[i];
		char name[32];
		nm_out o;
		nm_out_init(&o);
		prms_header(&o, m, p, i);
		snprintf(name, sizeof name, "%u.txt", i);
		if (!p->ok) {
			nm_out_printf(&failures, "%s\n", p->error ? p->error : "");
			if (!cmb_text(t, pd, name, &o)) {
				nm_out_free(&failures);
				return NM_E_NOMEM;
			}
			continue;
		}
		struct prms_ref *ref = nm_tree_alloc(t, sizeof *ref);
		if (!ref || nm_out_status(&o) != NM_OK) {
			nm_out_free(&o);
			return NM_E_NOMEM;
		}
		ref->m = m;
		ref->p = p;
		ref->header_len = o.len;
		ref->header = nm_tree_alloc(t, o.len + 1);
		if (!ref->header) {
			nm_out_free(&o);
			return NM_E_NOMEM;
		}
		memcpy(ref->header, o.data, o.len);
		nm_out_free(&o);
		uint64_t size = ref->header_len + p->ntris * (3 * (uint64_t)index_width(p) + 3);
		if (!nm_lazy_formats(nm_lazy(t, pd, name, size, produce_prms, NULL, ref), m->r)) {
			nm_out_free(&failures);
			return NM_E_NOMEM;
		}
	}
	return cmb_record_errors(t, pd, &failures);
}

/* --- header.txt ------------------------------------------------------------------ */

static void sepd_header(nm_out *o, const cmb_model *m, const cmb_sepd *s, uint32_t i)
{
	uint64_t abs = (uint64_t)m->chunk[CMB_SKLM].off + s->offset;
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%x", s->offset);
	nm_kv(o, "offset_absolute", "0x%llx", (unsigned long long)abs);
	nm_kv(o, "size", "0x%x", s->size);
	if (!s->ok) {
		nm_kv_str(o, "error", s->error ? s->error : "");
		return;
	}
	nm_kv(o, "prms_count", "%u", s->nprms);
	nm_out_printf(o, "flags: 0x%x (", s->flags);
	unsigned bit = 0;
	bool first = true;
	for (int k = 0; k < CMB_NATTRS; k++) {
		if (!s->attr[k].described)
			continue;
		if ((s->flags >> bit) & 1) {
			nm_out_printf(o, "%s%s", first ? "" : " ", cmb_attr_name(k));
			first = false;
		}
		bit++;
	}
	if (s->flags >> bit)
		nm_out_printf(o, "%sunknown 0x%x", first ? "" : " ", s->flags >> bit << bit);
	nm_out_str(o, ")\n");
	nm_kv_floats(o, "center", s->center, 3);
	nm_kv_floats(o, "position_offset", s->pos_offset, 3);
	if (m->L.sepd_bbox) {
		nm_kv_floats(o, "bbox_min", s->bbox_min, 3);
		nm_kv_floats(o, "bbox_max", s->bbox_max, 3);
	}
	nm_kv(o, "bone_dimension", "%u", s->bone_dim);
	nm_kv(o, "vertex_count", "%u", s->nverts);
	if (s->count_attr >= 0)
		nm_kv(o, "vertex_count_from", "the %s run of the vatr slice",
		      cmb_attr_name(s->count_attr));
	else
		nm_kv(o, "vertex_count_from", "nothing (no attribute is stored as an array)");
	for (int k = 0; k < CMB_NATTRS; k++) {
		const cmb_attrib *a = &s->attr[k];
		char key[48];
		if (!a->described)
			continue;
#define KEY(x) (snprintf(key, sizeof key, "%s_%s", cmb_attr_name(k), x), key)
		nm_kv(o, KEY("present"), "%u", a->present);
		nm_kv_enum(o, KEY("mode"), cmb_enum_name(CMB_E_ATTR_MODE, a->mode), a->mode);
		nm_kv_enum(o, KEY("type"), cmb_enum_name(CMB_E_DATA_TYPE, a->type), a->type);
		nm_kv_float(o, KEY("scale"), a->scale);
		nm_kv(o, KEY("start"), "0x%x", a->start);
		nm_kv_floats(o, KEY("constant"), a->constant, 4);
		if (a->problem[0])
			nm_kv_str(o, KEY("problem"), a->problem);
#undef KEY
	}
}

static nm_status add_sepd(nm_tree *t, nm_node *top, cmb_model *m, cmb_sepd *s, uint32_t i)
{
	char name[32];
	snprintf(name, sizeof name, "%u", i);
	nm_node *dir = nm_dir(t, top, name);
	if (!dir)
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	sepd_header(&o, m, s, i);
	if (!cmb_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	uint64_t abs = (uint64_t)m->chunk[CMB_SKLM].off + s->offset;
	if (abs > m->file_size)
		abs = m->file_size;
	if (!nm_slice(t, dir, "raw.bin", m->r, abs, s->ok ? s->size : 0))
		return NM_E_NOMEM;
	if (!s->ok) {
		nm_error e = { .code = NM_E_FORMAT };
		snprintf(e.msg, sizeof e.msg, "%s", s->error ? s->error : "");
		nm_error_file(t, dir, &e);
		return NM_OK;
	}
	for (int k = 0; k < CMB_NATTRS; k++) {
		const cmb_attrib *a = &s->attr[k];
		if (!a->usable)
			continue;
		struct attr_ref *ref = nm_tree_alloc(t, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		*ref = (struct attr_ref){ .m = m, .s = s, .kind = k, .width = integer_width(a, k) };
		nm_csv csv;
		attr_columns(k, a->comps, ref->width, &csv);
		uint64_t size = nm_csv_size(&csv, s->nverts);
		if (!nm_lazy_formats(nm_lazy(t, dir, cmb_attr_file(k), size, produce_attr, NULL, ref),
				     m->r))
			return NM_E_NOMEM;
	}
	return add_prms(t, dir, m, s);
}

nm_status cmb_tree_sepd(nm_tree *t, nm_node *root, cmb_model *m)
{
	if (!m->sepds)
		return NM_OK;
	nm_node *top = nm_dir(t, root, "sepd");
	if (!top)
		return NM_E_NOMEM;
	if (nm_tree_options(t)->editable &&
	    nm_tree_invert_producer(t, produce_attr, invert_attr) != NM_OK)
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < m->nsepds; i++) {
		nm_status s = add_sepd(t, top, m, &m->sepds[i], i);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}
