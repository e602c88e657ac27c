/* mesh.obj + mesh.mtl for CMOD: one OBJ object per mesh and one group per triangle
 * primitive group (groups of the same mesh share its vertices), with COLOR0 as vertex
 * colours. Lines and points stay in primitives/ only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/obj.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "formats/cmod/cmod.h"


static int prim_kind(int prim)
{
	switch (prim) {
	case CMOD_TRILIST: return NM_PRIM_TRIANGLES;
	case CMOD_TRISTRIP: return NM_PRIM_STRIP;
	case CMOD_TRIFAN: return NM_PRIM_FAN;
	default: return -1;
	}
}

uint64_t cmod_triangle_count(const cmod_group *g)
{
	int kind = prim_kind(g->prim);
	return kind < 0 ? 0 : nm_triangle_count((nm_prim)kind, g->count);
}

uint64_t cmod_triangles(const cmod_model *m)
{
	uint64_t n = 0;
	for (size_t i = 0; i < m->nmeshes; i++)
		for (size_t g = 0; g < m->meshes[i].ngroups; g++)
			n += cmod_triangle_count(&m->meshes[i].groups[g]);
	return n;
}

/* The attribute Celestia would use: the last one of that semantic (its semantic map
 * keeps the last), if it is a float vector wide enough. */
static const cmod_attr *find_attr(const cmod_mesh *mesh, int semantic, unsigned min_comps)
{
	for (unsigned a = mesh->nattrs; a-- > 0;)
		if (mesh->attrs[a].semantic == semantic)
			return mesh->attrs[a].format != CMOD_UB4 &&
			       cmod_format_components(mesh->attrs[a].format) >= min_comps
			       ? &mesh->attrs[a] : NULL;
	return NULL;
}

static void copy_attr(const cmod_mesh *mesh, const uint8_t *verts, const cmod_attr *a,
		      unsigned comps, float *dst)
{
	unsigned have = a ? cmod_format_components(a->format) : 0;
	for (uint32_t v = 0; v < mesh->nverts; v++)
		for (unsigned c = 0; c < comps; c++)
			dst[(size_t)v * comps + c] = c < have ? cmod_component(mesh, verts, v, a, c)
							      : 0.0f;
}

/* UV sets: TEXCOORD0..3 up to the last one present (a gap is filled with zeros). */
static unsigned uv_sets(const cmod_mesh *mesh)
{
	unsigned n = 0;
	for (int k = 0; k < 4; k++)
		if (find_attr(mesh, CMOD_TEXCOORD0 + k, 2))
			n = (unsigned)k + 1;
	return n;
}

/* COLOR0 as Celestia reads it: ub4 as bytes / 255, or 3-4 floats (alpha 1 when 3). */
static const cmod_attr *color_attr(const cmod_mesh *mesh)
{
	for (unsigned a = mesh->nattrs; a-- > 0;)
		if (mesh->attrs[a].semantic == CMOD_COLOR0)
			return mesh->attrs[a].format == CMOD_UB4 ||
			       cmod_format_components(mesh->attrs[a].format) >= 3
			       ? &mesh->attrs[a] : NULL;
	return NULL;
}

static void copy_colors(const cmod_mesh *mesh, const uint8_t *verts, float *dst)
{
	const cmod_attr *a = color_attr(mesh);
	unsigned have = cmod_format_components(a->format);
	for (uint32_t v = 0; v < mesh->nverts; v++)
		for (unsigned c = 0; c < 4; c++) {
			float x = c < have ? cmod_component(mesh, verts, v, a, c) : 1.0f;
			if (a->format == CMOD_UB4 && c < have)
				x /= 255.0f;
			dst[(size_t)v * 4 + c] = x;
		}
}

static nm_status load_group(void *ctx, size_t gi, nm_obj_data *d, nm_error *err)
{
	cmod_model *m = ctx;
	const struct obj_group_ref *ref = &m->obj->refs[gi];
	const cmod_mesh *mesh = ref->mesh;
	nm_status s;
	if (d->positions) {
		uint8_t *verts;
		s = cmod_load_vertices(m, mesh, &verts, err);
		if (s != NM_OK)
			return s;
		copy_attr(mesh, verts, find_attr(mesh, CMOD_POSITION, 1), 3, d->positions);
		if (d->normals)
			copy_attr(mesh, verts, find_attr(mesh, CMOD_NORMAL, 3), 3, d->normals);
		for (int k = 0; k < 4; k++)
			if (d->texcoords[k])
				copy_attr(mesh, verts, find_attr(mesh, CMOD_TEXCOORD0 + k, 2), 2,
					  d->texcoords[k]);
		if (d->colors)
			copy_colors(mesh, verts, d->colors);
		free(verts);
	}
	uint32_t *idx;
	s = cmod_load_indices(m, mesh, ref->group, &idx, err);
	if (s != NM_OK)
		return s;
	nm_triangulate((nm_prim)prim_kind(ref->group->prim), idx, ref->group->count, d->tris);
	free(idx);
	return NM_OK;
}

static void mtl_color(nm_out *o, const char *key, const float *c)
{
	nm_out_str(o, key);
	for (int i = 0; i < 3; i++) {
		nm_out_char(o, ' ');
		nm_out_float(o, c[i]);
	}
	nm_out_char(o, '\n');
}

/* A map statement. Celestia resolves a name ending in ".*" by trying the extensions
 * png, jpg, jpeg, dds, dxt5nm and ctx in that order (celengine/texmanager.cpp) in the
 * add-on's textures/{lores,medres,hires}/; no viewer opens a literal "*", so the line
 * names the first of them, and a comment above it says so. */
static void map_line(nm_out *o, const char *key, const char *name)
{
	size_t n = strlen(name);
	if (n >= 2 && strcmp(name + n - 2, ".*") == 0) {
		nm_out_printf(o, "# %s: Celestia takes the first of .png .jpg .jpeg .dds .dxt5nm "
			      ".ctx that exists\n%s %.*s.png\n", name, key, (int)(n - 2), name);
		return;
	}
	nm_out_printf(o, "%s %s\n", key, name);
}

static void write_mtl(nm_out *o, const cmod_model *m)
{
	static const char *const map_keys[CMOD_TEXTURE_SEMANTICS] = { "map_Kd", "norm", "map_Ks",
								      "map_Ke" };
	nm_out_str(o, "# Celestia CMOD materials; texture names are as the model gives them,\n"
		      "# a wildcard extension as the first one Celestia tries\n");
	for (size_t i = 0; i < m->nmaterials; i++) {
		const cmod_material *mat = &m->materials[i];
		nm_out_printf(o, "\nnewmtl material%zu\n", i);
		mtl_color(o, "Kd", mat->diffuse);
		mtl_color(o, "Ks", mat->specular);
		mtl_color(o, "Ke", mat->emissive);
		nm_out_str(o, "Ns ");
		nm_out_float(o, mat->specpower);
		nm_out_str(o, "\nd ");
		nm_out_float(o, mat->opacity);
		nm_out_char(o, '\n');
		for (int s = 0; s < CMOD_TEXTURE_SEMANTICS; s++)
			if (mat->texture[s])
				map_line(o, map_keys[s], mat->texture[s]);
	}
}

nm_status cmod_add_obj(nm_tree *t, nm_node *root, cmod_model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nmeshes; i++)
		for (size_t g = 0; g < m->meshes[i].ngroups; g++)
			n += prim_kind(m->meshes[i].groups[g].prim) >= 0;
	struct cmod_obj *obj = nm_tree_alloc(t, sizeof *obj);
	nm_obj_group *groups = nm_tree_alloc(t, (n ? n : 1) * sizeof *groups);
	struct obj_group_ref *refs = nm_tree_alloc(t, (n ? n : 1) * sizeof *refs);
	if (!obj || !groups || !refs)
		return NM_E_NOMEM;
	m->obj = obj;
	obj->refs = refs;
	size_t k = 0;
	for (size_t i = 0; i < m->nmeshes; i++) {
		cmod_mesh *mesh = &m->meshes[i];
		bool first = true;
		for (size_t g = 0; g < mesh->ngroups; g++) {
			cmod_group *grp = &mesh->groups[g];
			if (prim_kind(grp->prim) < 0)
				continue;
			groups[k].name = nm_tree_printf(t, "mesh%zu_group%zu", i, g);
			/* A material that does not exist: no usemtl, as Celestia draws none. */
			bool has_material = grp->material != UINT32_MAX && !grp->missing_material;
			if (has_material)
				groups[k].material = nm_tree_printf(t, "material%u", grp->material);
			if (!groups[k].name || (has_material && !groups[k].material))
				return NM_E_NOMEM;
			groups[k].nverts = mesh->nverts;
			groups[k].has_normals = find_attr(mesh, CMOD_NORMAL, 3) != NULL;
			groups[k].nuvs = uv_sets(mesh);
			groups[k].has_colors = color_attr(mesh) != NULL;
			if (first)
				groups[k].object = nm_tree_printf(t, "mesh%zu", i);
			if (first && !groups[k].object)
				return NM_E_NOMEM;
			groups[k].ntris = cmod_triangle_count(grp);
			groups[k].reuse_vertices = !first;
			refs[k].mesh = mesh;
			refs[k].group = grp;
			first = false;
			k++;
		}
	}
	obj->model = (nm_obj_model){ .mtllib = "mesh.mtl", .comment = "Celestia CMOD via nmodelfs",
				     .groups = groups, .ngroups = n, .load = load_group, .ctx = m };
	nm_out o;
	nm_out_init(&o);
	write_mtl(&o, m);
	if (!nm_text(t, root, "mesh.mtl", &o))
		return NM_E_NOMEM;
	return nm_obj_add(t, root, &obj->model) ? NM_OK : NM_E_NOMEM;
}
