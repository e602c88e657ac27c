/* The CMOD mesh directories: meshes/N/{header.txt, raw.bin, vertexdesc.txt,
 * vertices.csv, primitives/M.txt} (driver.c builds the rest). See doc/cmod.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
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

const char *cmod_blend_name(int b)
{
	static const char *const n[3] = { "normal", "add", "premultiplied" };
	return or_unknown(NM_NAME(n, b));
}

/* As Cosmographia's loader uses them: 1 is drawn as Lambert too. */
const char *cmod_illumination_name(int model)
{
	static const char *const n[3] = { "lambert", "lunar_lambert", "blinn_phong_reflective" };
	return or_unknown(NM_NAME(n, model));
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

void cmod_material_text(nm_out *o, const cmod_model *m, size_t i)
{
	static const char *const map_keys[CMOD_TEXTURE_SEMANTICS] = {
		"diffuse_map", "normal_map", "specular_map", "emissive_map"
	};
	static const char *const type_names[8] = { "?", "float1", "float2", "float3",
						   "float4", "string", "uint32", "color" };
	const cmod_material *mat = &m->materials[i];
	nm_kv(o, "index", "%zu", i);
	nm_kv(o, "offset", "0x%llx", (unsigned long long)mat->offset);
	nm_kv_floats(o, "diffuse", mat->diffuse, 3);
	nm_kv_floats(o, "specular", mat->specular, 3);
	nm_kv_floats(o, "emissive", mat->emissive, 3);
	nm_kv_float(o, "specpower", mat->specpower);
	nm_kv_float(o, "opacity", mat->opacity);
	nm_kv_enum(o, "blend", cmod_blend_name(mat->blend), (uint32_t)mat->blend);
	if (mat->illumination >= 0)
		nm_kv_enum(o, "illumination", cmod_illumination_name(mat->illumination),
			   (uint32_t)mat->illumination);
	for (int s = 0; s < CMOD_TEXTURE_SEMANTICS; s++)
		if (mat->texture[s])
			nm_kv_str(o, map_keys[s], mat->texture[s]);
	for (size_t k = 0; k < mat->nunknown; k++) {
		const cmod_unknown *u = &mat->unknown[k];
		const char *type = NM_NAME(type_names, u->type);
		nm_kv(o, "unknown_token", "%u %s at 0x%llx (skipped)", u->token, type ? type : "?",
		      (unsigned long long)u->offset);
	}
	notes_text(o, &mat->notes);
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
void cmod_write_indices(nm_out *o, const cmod_mesh *mesh, const cmod_group *g,
			const uint32_t *idx)
{
	unsigned per = indices_per_line(g->prim), w = cmod_index_width(mesh);
	for (uint32_t i = 0; i < g->count; i++) {
		nm_csv_uint(o, idx[i], w);
		nm_out_char(o, (i + 1) % per == 0 || i + 1 == g->count ? '\n' : ' ');
	}
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
