/* shp1/: header.txt, then one directory per shape: header.txt, packets/M.txt (matrix
 * tables) and triangles.csv / lines.csv / points.csv. The CSVs' sizes come from the
 * counts of the mount-time header walk (dl_count.c) and their fixed-width columns; the
 * rows are decoded on the first read.
 *
 * Rows: packet, then for each corner the shape's indexed attributes (pos, nrm, clr0,
 * tex0, ...) as indices into the vtx1/ CSVs, and drw = the DRW1 entry the vertex's
 * matrix slot holds (65535 when the slot holds nothing). Triangles keep GX order
 * (clockwise front faces, strips and fans converted); mesh.obj reverses them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
#include "export/record.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "formats/j3d/j3d.h"

#define PACKET_WIDTH 5

typedef struct shape_cols {
	unsigned n;
	unsigned attr[J3D_MAX_ATTRS];   /* index into the shape's attribute list */
	unsigned width[J3D_MAX_ATTRS];
	char name[J3D_MAX_ATTRS][16];
} shape_cols;

static void shape_columns(const j3d_shape *s, shape_cols *c)
{
	c->n = 0;
	for (unsigned k = 0; k < s->nattrs; k++) {
		const j3d_sattr *a = &s->attrs[k];
		char *nm = c->name[c->n];
		unsigned w;
		if (a->type == J3D_IDX_DIRECT && a->attr == J3D_A_PNMTXIDX) {
			snprintf(nm, 16, "drw");
			w = 5;
		} else if (a->type == J3D_IDX_DIRECT && a->attr <= J3D_A_TEX7MTXIDX) {
			snprintf(nm, 16, "tex%umtx", a->attr - J3D_A_TEX0MTXIDX);
			w = 3;
		} else if (a->type == J3D_IDX_8 || a->type == J3D_IDX_16) {
			if (a->attr == J3D_A_POS)
				snprintf(nm, 16, "pos");
			else if (a->attr == J3D_A_NRM)
				snprintf(nm, 16, "nrm");
			else if (a->attr == J3D_A_NBT)
				snprintf(nm, 16, "nbt");
			else if (a->attr == J3D_A_CLR0 || a->attr == J3D_A_CLR1)
				snprintf(nm, 16, "clr%u", a->attr - J3D_A_CLR0);
			else if (a->attr >= J3D_A_TEX0 && a->attr <= J3D_A_TEX7)
				snprintf(nm, 16, "tex%u", a->attr - J3D_A_TEX0);
			else
				snprintf(nm, 16, "attr%02x", a->attr & 0xFF);
			w = a->type == J3D_IDX_8 ? 3 : 5;
		} else {
			continue; /* direct vertex data and NONE have no index column */
		}
		c->attr[c->n] = k;
		c->width[c->n] = w;
		c->n++;
	}
}

/* The CSV of a primitive class: packet, then v0_pos, v0_nrm... for each corner. */
static void prim_csv(const shape_cols *c, unsigned corners, nm_csv *csv)
{
	char name[NM_CSV_NAME_MAX];
	csv->ncols = 0;
	nm_csv_col_add(csv, "packet", NM_CSV_UINT, PACKET_WIDTH);
	for (unsigned v = 0; v < corners; v++)
		for (unsigned k = 0; k < c->n; k++) {
			snprintf(name, sizeof name, "v%u_%s", v, c->name[k]);
			nm_csv_col_add(csv, name, NM_CSV_UINT, c->width[k]);
		}
}

/* ---- the producer ---- */

typedef struct walk {
	j3d_model *m;
	j3d_shape *s;
	int cls;                   /* class being written */
	uint64_t rows;             /* written so far */
	nm_out *o;
	shape_cols cols;
	nm_csv csv;
} walk;

/* One corner's cells, from column *cell on. */
static void write_vertex(walk *w, const j3d_prim *p, const uint8_t *vert, size_t *cell)
{
	const j3d_shape *s = w->s;
	for (unsigned k = 0; k < w->cols.n; k++) {
		const j3d_sattr *a = &s->attrs[w->cols.attr[k]];
		uint32_t v = a->attr == J3D_A_PNMTXIDX ? j3d_mtx_resolve(s, p, vert)
						       : j3d_dl_value(a, vert);
		nm_csv_cell_uint(w->o, &w->csv, (*cell)++, v);
	}
}

static nm_status write_prim(void *ctx, const j3d_prim *p, nm_error *err)
{
	walk *w = ctx;
	int cls = j3d_prim_class(p->op);
	if (cls != w->cls)
		return NM_OK;
	uint64_t n = j3d_prim_count(p->op, p->nverts);
	unsigned corners = cls == J3D_PC_TRIANGLES ? 3 : cls == J3D_PC_LINES ? 2 : 1;
	uint32_t *idx = malloc(((size_t)n * corners + 1) * sizeof *idx);
	if (!idx)
		return nm_fail(err, NM_E_NOMEM, w->m->file, "SHP1", NM_NO_OFFSET, "out of memory");
	if (cls == J3D_PC_TRIANGLES) {
		uint32_t *local = malloc(((size_t)p->nverts + 1) * sizeof *local);
		if (!local) {
			free(idx);
			return nm_fail(err, NM_E_NOMEM, w->m->file, "SHP1", NM_NO_OFFSET,
				       "out of memory");
		}
		for (uint32_t i = 0; i < p->nverts; i++)
			local[i] = i;
		nm_triangulate(j3d_prim_kind(p->op), local, p->nverts, idx);
		free(local);
		/* Triangulation marks strip/fan triangles with a repeated index as dropped;
		 * local indices never repeat, so every triangle is kept. */
	} else if (p->op == 0xB0) {
		for (uint64_t i = 0; i < n; i++) {
			idx[2 * i] = (uint32_t)i;
			idx[2 * i + 1] = (uint32_t)i + 1;
		}
	} else {
		for (uint64_t i = 0; i < n * corners; i++)
			idx[i] = (uint32_t)i;
	}
	for (uint64_t i = 0; i < n && !w->o->failed; i++) {
		size_t cell = 0;
		nm_csv_cell_uint(w->o, &w->csv, cell++, p->packet);
		for (unsigned v = 0; v < corners; v++)
			write_vertex(w, p, p->verts + (size_t)idx[i * corners + v] * w->s->vsize,
				     &cell);
	}
	w->rows += n;
	free(idx);
	return NM_OK;
}

struct prim_file {
	j3d_model *m;
	j3d_shape *s;
	int cls;
};

static nm_status produce_prims(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	struct prim_file *f = arg;
	walk *w = malloc(sizeof *w);   /* the column description is a few KiB */
	unsigned corners = f->cls == J3D_PC_TRIANGLES ? 3 : f->cls == J3D_PC_LINES ? 2 : 1;
	(void)ctx;
	if (!w)
		return nm_fail(err, NM_E_NOMEM, f->m->file, "SHP1", NM_NO_OFFSET, "out of memory");
	*w = (walk){ .m = f->m, .s = f->s, .cls = f->cls, .o = o };
	shape_columns(f->s, &w->cols);
	prim_csv(&w->cols, corners, &w->csv);
	nm_csv_begin(o, &w->csv);
	nm_status st = j3d_shape_walk(f->m, f->s, write_prim, w, err);
	uint64_t rows = w->rows;
	free(w);
	if (st == NM_OK && rows != f->s->count[f->cls])
		/* The same bytes walk the same way: only a source that changed gets here. */
		return nm_fail(err, NM_E_IO, f->m->file, "SHP1", NM_NO_OFFSET,
			       "shape %u: the display lists changed since mount", f->s->index);
	return st;
}

/* ---- text ---- */

static void drw_target(nm_out *o, const j3d_model *m, uint16_t drw)
{
	if (!m->drw1 || drw >= m->drw1->count) {
		nm_out_str(o, " (no such DRW1 entry)");
		return;
	}
	uint16_t p = m->drw1->params[drw];
	if (m->drw1->kinds[drw] == 1) {
		nm_out_printf(o, " (envelope %u)", p);
		return;
	}
	nm_out_printf(o, " (joint %u", p);
	if (m->jnt1 && p < m->jnt1->count && m->jnt1->joints[p].name) {
		char *safe = nm_safe_name(m->jnt1->joints[p].name, strlen(m->jnt1->joints[p].name));
		nm_out_printf(o, " %s", safe ? safe : "?");
		free(safe);
	}
	nm_out_char(o, ')');
}

/* shp1/N/header.txt over a view of the shape's 0x28-byte entry: the matrix type and
 * the bounds are stored; counts, offsets, the attribute list and the material (from
 * INF1) are read-only. */
static void shape_record(nm_rec *r, j3d_model *m, uint32_t i)
{
	const j3d_shape *s = &m->shp1->shapes[i];
	nm_rec_derived(r, "index", "%u", s->index);
	nm_rec_enum(r, "matrix_type", 0x00, NM_FIELD_U8, &j3d_gx_names, J3D_K_MTX_TYPE);
	nm_rec_derived(r, "packets", "%u", s->npackets);
	nm_rec_derived(r, "first_packet", "%u", s->first_packet);
	nm_rec_derived(r, "first_matrix_group", "%u", s->first_mtxdata);
	nm_rec_derived(r, "attribute_list_offset", "0x%x", s->attr_off);
	for (unsigned k = 0; k < s->nattrs; k++) {
		const j3d_sattr *a = &s->attrs[k];
		const char *an = j3d_attr_name(a->attr), *tn = j3d_index_type_name(a->type);
		char key[32];
		snprintf(key, sizeof key, "attribute%u", k);
		nm_rec_derived(r, key, "%s (0x%x) %s (0x%x)%s", an ? an : "unknown", a->attr,
			       tn ? tn : "unknown", a->type,
			       a->type == J3D_IDX_DIRECT && a->attr > J3D_A_TEX7MTXIDX
			       ? " not in the CSVs" : "");
	}
	nm_rec_derived(r, "vertex_size", "%u", s->vsize);
	nm_rec_floats(r, "bounding_radius", 0x0C, 1);
	nm_rec_floats(r, "bbox_min", 0x10, 3);
	nm_rec_floats(r, "bbox_max", 0x1C, 3);
	nm_rec_derived(r, "material", "%d", s->material);
	if (s->material >= 0 && m->mat3 && (uint32_t)s->material < m->mat3->count &&
	    m->mat3->mats[s->material].name)
		nm_rec_derived_str(r, "material_name", m->mat3->mats[s->material].name);
	if (s->ok) {
		nm_rec_derived(r, "triangles", "%llu",
			       (unsigned long long)s->count[J3D_PC_TRIANGLES]);
		nm_rec_derived(r, "lines", "%llu", (unsigned long long)s->count[J3D_PC_LINES]);
		nm_rec_derived(r, "points", "%llu", (unsigned long long)s->count[J3D_PC_POINTS]);
	}
}

static nm_status packet_files(nm_tree *t, nm_node *dir, const j3d_model *m, const j3d_shape *s)
{
	nm_node *pk = nm_dir(t, dir, "packets");
	if (!pk)
		return NM_E_NOMEM;
	for (uint32_t j = 0; j < s->npackets_ok; j++) {
		const j3d_packet *p = &s->packets[j];
		nm_out o;
		nm_out_init(&o);
		nm_kv(&o, "packet", "%u", j);
		nm_kv(&o, "display_list_offset", "0x%llx",
		      (unsigned long long)(m->shp1->chunk->off + p->dl_off));
		nm_kv(&o, "display_list_size", "%u", p->dl_size);
		nm_kv(&o, "use_matrix", "%u", p->use_mtx);
		nm_kv(&o, "matrix_table_first", "%u", p->mtx_first);
		nm_kv(&o, "matrix_count", "%u", p->nmtx);
		for (uint32_t k = 0; k < p->nmtx && !o.failed; k++) {
			if (p->mtx[k] == 0xFFFF) {
				nm_out_printf(&o, "slot%u: keep (0xffff)\n", k);
				continue;
			}
			nm_out_printf(&o, "slot%u: %u", k, p->mtx[k]);
			drw_target(&o, m, p->mtx[k]);
			nm_out_char(&o, '\n');
		}
		char name[32];
		snprintf(name, sizeof name, "%u.txt", j);
		nm_node *n = nm_text(t, pk, name, &o);
		nm_out_free(&o);
		if (!n)
			return NM_E_NOMEM;
	}
	return NM_OK;
}

/* shp1/N/: everything from the tables and the mount-time counts. */
static nm_status shape_dir(nm_tree *t, nm_node *parent, j3d_model *m, j3d_shape *s)
{
	char name[16];
	snprintf(name, sizeof name, "%u", s->index);
	nm_node *dir = nm_dir(t, parent, name);
	if (!dir)
		return NM_E_NOMEM;
	const j3d_chunk *c = m->shp1->chunk;
	uint64_t at = c->off + m->shp1->off_shapes + 0x28 * (uint64_t)s->index;
	nm_view v;
	nm_error err;
	if (nm_view_load(m->r, at, 0x28, c->magic, NM_BIG, &v, &err) != NM_OK)
		return err.code;
	j3d_record_ref how = { .m = m, .off = at, .len = 0x28, .chunk = c->magic,
			       .index = s->index, .write = shape_record };
	nm_node *h = j3d_record_file(t, dir, "header.txt", &v, &how);
	nm_view_free(&v);
	if (!h || packet_files(t, dir, m, s) != NM_OK)
		return NM_E_NOMEM;
	if (!s->ok)
		return nm_error_file(t, dir, &s->err) ? NM_OK : NM_E_NOMEM;
	static const char *const files[3] = { "triangles.csv", "lines.csv", "points.csv" };
	static const unsigned corners[3] = { 3, 2, 1 };
	shape_cols cols;
	shape_columns(s, &cols);
	for (int c = 0; c < 3; c++) {
		/* Triangles always; lines and points only when the shape has some. */
		if (c != J3D_PC_TRIANGLES && !s->count[c])
			continue;
		struct prim_file *f = nm_tree_alloc_array(m->t, 1, sizeof *f);
		if (!f)
			return NM_E_NOMEM;
		f->m = m;
		f->s = s;
		f->cls = c;
		nm_csv csv;
		prim_csv(&cols, corners[c], &csv);
		uint64_t size = nm_csv_size(&csv, s->count[c]);
		if (!nm_lazy_formats(nm_lazy(t, dir, files[c], size, produce_prims, NULL, f), m->r))
			return NM_E_NOMEM;
	}
	return NM_OK;
}

nm_status j3d_tree_shp1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	const j3d_shp1 *h = m->shp1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "count", "%u", h->count);
	nm_kv(&o, "shape_table_offset", "0x%x", h->off_shapes);
	nm_kv(&o, "remap_offset", "0x%x", h->off_remap);
	nm_kv(&o, "name_table_offset", "0x%x", h->off_names);
	nm_kv(&o, "attribute_table_offset", "0x%x", h->off_attrs);
	nm_kv(&o, "matrix_table_offset", "0x%x", h->off_mtx);
	nm_kv(&o, "display_list_offset", "0x%x", h->off_dl);
	nm_kv(&o, "matrix_group_table_offset", "0x%x", h->off_mtxdata);
	nm_kv(&o, "packet_table_offset", "0x%x", h->off_packets);
	nm_node *n = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < h->count; i++) {
		nm_status st = shape_dir(t, c->dir, m, &h->shapes[i]);
		if (st != NM_OK)
			return st;
	}
	return NM_OK;
}
