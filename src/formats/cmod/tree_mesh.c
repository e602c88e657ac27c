/* The CMOD mesh directories: meshes/N/{header.txt, raw.bin, vertexdesc.txt,
 * vertices.csv, primitives/M.txt} (driver.c builds the rest). See doc/cmod.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
#include "export/csv_edit.h"
#include "export/record.h"
#include "export/text.h"
#include "formats/cmod/cmod.h"
#include "formats/driver.h"
#include "lib/names.h"

static const char *const semantic_names[CMOD_SEMANTIC_COUNT] = {
	"position", "color0", "color1", "normal", "tangent", "texcoord0", "texcoord1",
	"texcoord2", "texcoord3", "pointsize", "nextposition", "scalefactor"
};

/* Callers here print the word alone; the parser has refused every value without a
 * name already, so this is only a guard. */
static const char *or_unknown(const char *name) { return name ? name : "unknown"; }

/* Celestia's ASCII reader knows 0-9; nextposition and scalefactor are ours (parse_ascii.c),
 * so that a model with them reads back whole. */
const char *cmod_semantic_name(int s)
{
	return NM_NAME(semantic_names, s);
}

const char *cmod_semantic_label(int s)
{
	return or_unknown(NM_NAME(semantic_names, s));
}

const char *cmod_format_name(int f)
{
	static const char *const n[CMOD_FORMAT_COUNT] = { "f1", "f2", "f3", "f4", "ub4" };
	return or_unknown(NM_NAME(n, f));
}

const char *cmod_prim_name(int p)
{
	static const char *const n[CMOD_PRIM_COUNT] = { "trilist", "tristrip", "trifan",
							"linelist", "linestrip", "points",
							"sprites" };
	return or_unknown(NM_NAME(n, p));
}

static const char *const blend_names[3] = { "normal", "add", "premultiplied" };
/* As Cosmographia's loader uses them: 1 is drawn as Lambert too. */
static const char *const illumination_names[3] = { "lambert", "lunar_lambert",
						   "blinn_phong_reflective" };

const char *cmod_blend_name(int b) { return or_unknown(NM_NAME(blend_names, b)); }

const char *cmod_illumination_name(int model)
{
	return or_unknown(NM_NAME(illumination_names, model));
}

const char *cmod_texture_keyword(int s)
{
	static const char *const n[CMOD_TEXTURE_SEMANTICS] = { "texture0", "normalmap",
							       "specularmap", "emissivemap" };
	return or_unknown(NM_NAME(n, s));
}

/* Column suffixes by what the attribute holds. */
static const char *component_suffix(int semantic, unsigned c)
{
	static const char *const xyzw = "xyzw", *const rgba = "rgba", *const uvwq = "uvwq";
	static char buf[4][2];
	const char *set = semantic == CMOD_COLOR0 || semantic == CMOD_COLOR1 ? rgba
			: semantic >= CMOD_TEXCOORD0 && semantic <= CMOD_TEXCOORD3 ? uvwq : xyzw;
	buf[c][0] = set[c];
	buf[c][1] = '\0';
	return buf[c];
}

/* --- materials ------------------------------------------------------------------ */

/* Notes are one line already (names in them escaped when they were made). */
static void notes_text(nm_out *o, const cmod_notes *l)
{
	for (size_t i = 0; i < l->n; i++)
		nm_out_printf(o, "note: %s\n", l->v[i]);
}

static const char *enum_name(int kind, uint32_t v)
{
	return kind ? NM_NAME(illumination_names, v) : NM_NAME(blend_names, v);
}

static bool enum_value(int kind, const char *name, uint32_t *v)
{
	for (uint32_t i = 0; i < 3; i++)
		if (strcmp(name, kind ? illumination_names[i] : blend_names[i]) == 0) {
			*v = i;
			return true;
		}
	return false;
}

static const nm_rec_names enums = { enum_name, enum_value };

static const char unstored[] = "not stored in this material (the default is shown): add "
			       "it in model.ascii.cmod, which writes the model again";

void cmod_material_record(nm_rec *rec, const cmod_model *m, size_t i)
{
	static const char *const map_keys[CMOD_TEXTURE_SEMANTICS] = {
		"diffuse_map", "normal_map", "specular_map", "emissive_map"
	};
	static const char *const type_names[8] = { "?", "float1", "float2", "float3",
						   "float4", "string", "uint32", "color" };
	static const struct { const char *key; size_t off; unsigned n; } props[5] = {
		{ "diffuse", offsetof(cmod_material, diffuse), 3 },
		{ "specular", offsetof(cmod_material, specular), 3 },
		{ "emissive", offsetof(cmod_material, emissive), 3 },
		{ "specpower", offsetof(cmod_material, specpower), 1 },
		{ "opacity", offsetof(cmod_material, opacity), 1 },
	};
	const cmod_material *mat = &m->materials[i];
	uint64_t base = rec->v->base;
	nm_rec_derived(rec, "index", "%zu", i);
	nm_rec_derived(rec, "offset", "0x%llx", (unsigned long long)mat->offset);
	for (int k = 0; k < 5; k++) {
		const float *f = (const float *)((const char *)mat + props[k].off);
		if (mat->stored & (1u << k)) {
			nm_rec_floats(rec, props[k].key, (size_t)(mat->value_at[k] - base), props[k].n);
			continue;
		}
		char text[3 * NM_FLOAT_BUF + 3] = "", one[NM_FLOAT_BUF];
		for (unsigned c = 0; c < props[k].n; c++) {
			strcat(text, c ? " " : "");
			strcat(text, nm_fmt_float(one, f[c]));
		}
		nm_rec_unstored(rec, props[k].key, unstored, "%s", text);
	}
	if (mat->stored & CMOD_HAS_BLEND)
		nm_rec_enum(rec, "blend", (size_t)(mat->value_at[5] - base), NM_FIELD_U16, &enums, 0);
	else
		nm_rec_unstored(rec, "blend", unstored, "%s (0x%x)", cmod_blend_name(mat->blend),
				(unsigned)mat->blend);
	if (mat->illumination >= 0)
		nm_rec_enum(rec, "illumination", (size_t)(mat->illumination_at - base),
			    NM_FIELD_U16, &enums, 1);
	for (int s = 0; s < CMOD_TEXTURE_SEMANTICS; s++)
		if (mat->texture[s])
			nm_rec_derived_str(rec, map_keys[s], mat->texture[s]);
	for (size_t k = 0; k < mat->nunknown; k++) {
		const cmod_unknown *u = &mat->unknown[k];
		const char *type = NM_NAME(type_names, u->type);
		nm_rec_derived(rec, "unknown_token", "%u %s at 0x%llx (skipped)", u->token,
			       type ? type : "?", (unsigned long long)u->offset);
	}
	for (size_t k = 0; k < mat->notes.n; k++)
		nm_rec_derived(rec, "note", "%s", mat->notes.v[k]);
}

/* --- vertices.csv --------------------------------------------------------------- */

/* Column names: semantic_component; an attribute that appears again (Celestia keeps
 * both) is semantic~2, ~3... so that every column name is unique. UB4 colours are
 * 3-wide integers (cmod_write_vertex writes the rows), everything else floats. */
static void vertex_columns(const cmod_mesh *mesh, nm_csv *csv)
{
	csv->ncols = 0;
	for (unsigned a = 0; a < mesh->nattrs; a++) {
		const cmod_attr *at = &mesh->attrs[a];
		unsigned comps = cmod_format_components(at->format), seen = 1;
		nm_csv_kind kind = at->format == CMOD_UB4 ? NM_CSV_UINT : NM_CSV_FLOAT;
		char label[24], name[NM_CSV_NAME_MAX];
		for (unsigned b = 0; b < a; b++)
			seen += mesh->attrs[b].semantic == at->semantic;
		if (seen > 1)
			snprintf(label, sizeof label, "%s~%u", cmod_semantic_label(at->semantic), seen);
		else
			snprintf(label, sizeof label, "%s", cmod_semantic_label(at->semantic));
		for (unsigned c = 0; c < comps; c++) {
			if (comps == 1)
				snprintf(name, sizeof name, "%s", label);
			else
				snprintf(name, sizeof name, "%s_%s", label,
					 component_suffix(at->semantic, c));
			nm_csv_col_add(csv, name, kind, 3);
		}
	}
}

static uint64_t vertices_csv_size(const cmod_mesh *mesh)
{
	nm_csv csv;
	vertex_columns(mesh, &csv);
	return nm_csv_size(&csv, mesh->nverts);
}

void cmod_write_vertex(nm_out *o, const cmod_mesh *mesh, const uint8_t *verts, uint32_t v,
		       char sep)
{
	bool first = true;
	for (unsigned a = 0; a < mesh->nattrs; a++) {
		const cmod_attr *at = &mesh->attrs[a];
		for (unsigned c = 0; c < cmod_format_components(at->format); c++) {
			if (!first)
				nm_out_char(o, sep);
			first = false;
			float f = cmod_component(mesh, verts, v, at, c);
			if (at->format == CMOD_UB4)
				nm_csv_uint(o, (uint64_t)f, 3);
			else
				nm_csv_float(o, f);
		}
	}
	nm_out_char(o, '\n');
}

struct mesh_ref {
	cmod_model *m;
	cmod_mesh *mesh;
};

/* A row of vertices.csv: ctx is a struct vertex_rows. */
struct vertex_rows {
	const cmod_mesh *mesh;
	const uint8_t *verts;
};

static void vertex_row(nm_out *o, void *ctx, uint64_t v)
{
	const struct vertex_rows *r = ctx;
	cmod_write_vertex(o, r->mesh, r->verts, (uint32_t)v, ',');
}

/* Bytes [off, off+len) of vertices.csv (the whole file from produce_vertices). */
static nm_status vertices_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
				nm_error *err)
{
	struct mesh_ref *ref = arg;
	const cmod_mesh *mesh = ref->mesh;
	nm_csv csv;
	uint8_t *verts;
	(void)ctx;
	nm_status s = cmod_load_vertices(ref->m, mesh, &verts, err);
	if (s != NM_OK)
		return s;
	vertex_columns(mesh, &csv);
	struct vertex_rows rows = { mesh, verts };
	s = nm_csv_write_range(o, &csv, mesh->nverts, off, len, vertex_row, &rows,
			       "vertices.csv", err);
	free(verts);
	return s;
}

static nm_status produce_vertices(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	struct mesh_ref *ref = arg;
	nm_csv csv;
	vertex_columns(ref->mesh, &csv);
	uint64_t size = nm_csv_size(&csv, ref->mesh->nverts);
	if (size > SIZE_MAX)
		return nm_fail(err, NM_E_LIMIT, "vertices.csv", NULL, NM_NO_OFFSET, "too large");
	return vertices_range(ctx, arg, 0, (size_t)size, o, err);
}

/* vertices.csv edited (export/csv_edit.h): the same rows, each changed value stored in
 * its attribute's format (f32 bit for bit, ub4 0-255), or refused; another number of
 * rows is a layout change, which model.ascii.cmod makes. */
struct vertex_edit {
	const cmod_mesh *mesh;
	const nm_csv *csv;
	uint8_t *verts;
	unsigned attr_of[NM_CSV_MAX_COLS], comp_of[NM_CSV_MAX_COLS];
};

static void vertex_cell(void *ctx, uint64_t row, unsigned col, const char *text,
			unsigned line, nm_edit *ed)
{
	struct vertex_edit *e = ctx;
	const cmod_attr *at = &e->mesh->attrs[e->attr_of[col]];
	unsigned c = e->comp_of[col];
	uint8_t *p = e->verts + (size_t)row * e->mesh->stride + at->offset;
	const char *name = e->csv->col[col].name;
	if (at->format == CMOD_UB4) {
		char *end;
		long b = strtol(text, &end, 10);
		if (!text[0] || *end || b < 0 || b > 255)
			nm_edit_refuse(ed, line, name, "%s is not an integer 0 to 255 (ub4)", text);
		else
			p[c] = (uint8_t)b;
		return;
	}
	float f;
	nm_float_parse r = nm_parse_float_exact(text, &f);
	if (r == NM_FLOAT_EXACT) {
		uint32_t u;
		memcpy(&u, &f, 4);
		for (unsigned i = 0; i < 4; i++)
			p[4 * c + i] = (uint8_t)(u >> (8 * i));
	} else if (r == NM_FLOAT_BETWEEN) {
		char nb[NM_FLOAT_BUF];
		nm_edit_refuse(ed, line, name, "%s is not a float (f32): the nearest is %s", text,
			       nm_fmt_float(nb, f));
	} else {
		nm_edit_refuse(ed, line, name, "%s is not a number", text);
	}
}

static void invert_rows(const cmod_mesh *mesh, const nm_csv *csv, const uint8_t *now,
			size_t now_len, const uint8_t *bytes, size_t len, uint8_t *verts,
			nm_edit *ed)
{
	struct vertex_edit e = { .mesh = mesh, .csv = csv, .verts = verts };
	unsigned k = 0;
	for (unsigned a = 0; a < mesh->nattrs; a++)
		for (unsigned c = 0; c < cmod_format_components(mesh->attrs[a].format) &&
				     k < NM_CSV_MAX_COLS; c++, k++) {
			e.attr_of[k] = a;
			e.comp_of[k] = c;
		}
	nm_csv_edit ce = { .cell = vertex_cell, .ctx = &e, .rows = mesh->nverts,
			   .ncols = (unsigned)csv->ncols, .what = "the mesh has" };
	nm_csv_read_back(&ce, (const char *)now, now_len, (const char *)bytes, len, ed);
}

static nm_status invert_vertices(void *ctx, void *arg, const uint8_t *bytes, size_t len,
				 nm_edit *ed, nm_error *err)
{
	struct mesh_ref *ref = arg;
	const cmod_mesh *mesh = ref->mesh;
	nm_out now;
	nm_out_init(&now);
	now.opt = nm_reader_options(ref->m->reader);
	uint8_t *verts = NULL, *was = NULL;
	size_t n = (size_t)mesh->nverts * mesh->stride;
	nm_status s = produce_vertices(ctx, arg, &now, err);
	if (s == NM_OK)
		s = cmod_load_vertices(ref->m, mesh, &verts, err);
	if (s == NM_OK && !(was = malloc(n ? n : 1)))
		s = nm_fail(err, NM_E_NOMEM, nm_reader_name(ref->m->reader), "vertices",
			    mesh->vertex_offset, "out of memory");
	if (s == NM_OK) {
		nm_csv csv;
		vertex_columns(mesh, &csv);
		memcpy(was, verts, n);
		invert_rows(mesh, &csv, now.data, now.len, bytes, len, verts, ed);
		/* One patch per run of changed bytes, named by its vertex's line and column. */
		for (size_t i = 0; i < n;) {
			if (verts[i] == was[i]) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < n && verts[j] != was[j])
				j++;
			size_t in_row = i % mesh->stride, k = 0;
			for (unsigned a = 0; a < mesh->nattrs; a++) {
				const cmod_attr *at = &mesh->attrs[a];
				unsigned comps = cmod_format_components(at->format);
				if (in_row < at->offset + cmod_format_size(at->format)) {
					k += at->format == CMOD_UB4 ? in_row - at->offset
								    : (in_row - at->offset) / 4;
					break;
				}
				k += comps;
			}
			nm_edit_patch(ed, ref->m->reader, mesh->vertex_offset + i, verts + i, j - i,
				      "vertices", (unsigned)(i / mesh->stride) + 2,
				      k < csv.ncols ? csv.col[k].name : NULL);
			i = j;
		}
	}
	free(verts);
	free(was);
	nm_out_free(&now);
	return s;
}

nm_status cmod_mesh_inverses(nm_tree *t)
{
	return nm_tree_invert_producer(t, produce_vertices, invert_vertices);
}

/* --- primitives/M.txt ----------------------------------------------------------- */

struct group_ref {
	cmod_model *m;
	cmod_mesh *mesh;
	cmod_group *group;
	size_t header_len;
};

/* Indices per line: one primitive per line where primitives are separate. */
static unsigned indices_per_line(int prim)
{
	switch (prim) {
	case CMOD_TRILIST: return 3;
	case CMOD_LINELIST: return 2;
	case CMOD_POINTS: case CMOD_SPRITES: return 1;
	default: return 12;
	}
}

unsigned cmod_index_width(const cmod_mesh *mesh)
{
	return nm_digits(mesh->nverts ? mesh->nverts - 1 : 0);
}

/* Index lines, each index right-aligned to the width of the largest possible index. */
void cmod_write_index_run(nm_out *o, const cmod_mesh *mesh, const cmod_group *g,
			  const uint32_t *idx, uint32_t i0, uint32_t i1)
{
	unsigned per = indices_per_line(g->prim), w = cmod_index_width(mesh);
	for (uint32_t i = i0; i < i1; i++) {
		nm_csv_uint(o, idx[i], w);
		nm_out_char(o, (i + 1) % per == 0 || i + 1 == g->count ? '\n' : ' ');
	}
}

void cmod_write_indices(nm_out *o, const cmod_mesh *mesh, const cmod_group *g,
			const uint32_t *idx)
{
	cmod_write_index_run(o, mesh, g, idx, 0, g->count);
}

static void group_header(nm_out *o, const cmod_group *g)
{
	nm_kv_enum(o, "type", cmod_prim_name(g->prim), (uint32_t)g->prim);
	nm_kv(o, "material", "%lld", g->material == UINT32_MAX ? -1LL : (long long)g->material);
	if (g->missing_material)
		nm_kv_str(o, "note", "no such material: Celestia draws the group without one");
	nm_kv(o, "count", "%u", g->count);
	nm_kv(o, "index_offset", "0x%llx", (unsigned long long)g->index_offset);
	nm_out_str(o, "indices:\n");
}

static nm_status produce_group(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	struct group_ref *ref = arg;
	uint32_t *idx;
	(void)ctx;
	nm_status s = cmod_load_indices(ref->m, ref->mesh, ref->group, &idx, err);
	if (s != NM_OK)
		return s;
	group_header(o, ref->group);
	cmod_write_indices(o, ref->mesh, ref->group, idx);
	free(idx);
	return NM_OK;
}

nm_status cmod_add_mesh_files(nm_tree *t, nm_node *dir, cmod_model *m, cmod_mesh *mesh)
{
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "offset", "0x%llx", (unsigned long long)mesh->offset);
	nm_kv(&o, "size", "%llu", (unsigned long long)(mesh->end - mesh->offset));
	nm_kv(&o, "vertex_count", "%u", mesh->nverts);
	nm_kv(&o, "vertex_stride", "%u", mesh->stride);
	nm_kv(&o, "vertex_offset", "0x%llx", (unsigned long long)mesh->vertex_offset);
	nm_kv(&o, "primitive_groups", "%zu", mesh->ngroups);
	notes_text(&o, &mesh->notes);
	nm_text(t, dir, "header.txt", &o);
	nm_slice(t, dir, "raw.bin", m->reader, mesh->offset, mesh->end - mesh->offset);

	for (unsigned a = 0; a < mesh->nattrs; a++)
		nm_out_printf(&o, "%s %s\n", cmod_semantic_label(mesh->attrs[a].semantic),
			      cmod_format_name(mesh->attrs[a].format));
	nm_text(t, dir, "vertexdesc.txt", &o);

	struct mesh_ref *mref = nm_tree_alloc(t, sizeof *mref);
	if (!mref)
		return NM_E_NOMEM;
	mref->m = m;
	mref->mesh = mesh;
	if (nm_tree_split_producer(t, produce_vertices, vertices_range) != NM_OK)
		return NM_E_NOMEM;
	nm_lazy_formats(nm_lazy(t, dir, "vertices.csv", vertices_csv_size(mesh), produce_vertices,
				NULL, mref), m->reader);

	nm_node *prims = nm_dir(t, dir, "primitives");
	for (size_t g = 0; prims && g < mesh->ngroups; g++) {
		struct group_ref *ref = nm_tree_alloc(t, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		ref->m = m;
		ref->mesh = mesh;
		ref->group = &mesh->groups[g];
		group_header(&o, ref->group);
		uint64_t size = o.len + (uint64_t)ref->group->count * (cmod_index_width(mesh) + 1);
		nm_out_free(&o);
		char name[32];
		snprintf(name, sizeof name, "%zu.txt", g);
		nm_lazy_formats(nm_lazy(t, prims, name, size, produce_group, NULL, ref), m->reader);
	}
	nm_out_free(&o);
	return NM_OK;
}
