/* mesh.obj + mesh.mtl: one OBJ group per triangle or triangle-strip mesh (strips turned
 * into triangles), and one object per vertex buffer, whose meshes share its vertices.
 * Texcoords 0-3 and colours (semantics 4-8, FORMATS.md 6.4); bone indices and weights
 * for model.glb's skin. Texture coordinates are texcoord0 with v flipped (GX2 and NVN put t = 0 at
 * the top of the image; FORMATS.md 7). Textures are TXTR assets: inside a PAK, mesh.mtl
 * names the level-0 PNG in each texture's directory (model_textures.c); a model mounted
 * alone names them GUID.png, and says why. Points, lines and adjacency meshes stay in
 * mesh/ only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/obj.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "formats/rfrm/rfrm.h"
#include "lib/alloc.h"


/* The first usable component of a semantic with at least min_comps components. */
static const rfrm_comp *find_comp(const rfrm_vbuf *vb, uint32_t semantic, unsigned min_comps)
{
	for (uint32_t k = 0; k < vb->ncomps; k++) {
		const rfrm_comp *c = &vb->comps[k];
		const rfrm_format_info *f = rfrm_format(c->format);
		if (c->semantic == semantic && f && f->comps >= min_comps &&
		    (uint64_t)c->offset + f->bytes <= c->stride)
			return c;
	}
	return NULL;
}

/* n floats per vertex from component c; zeros when c is NULL (a UV set below the last
 * one the buffer has, which it lacks). */
static nm_status copy_comp(const rfrm_model *m, const rfrm_vbuf *vb, const uint8_t *data,
			   size_t len, const rfrm_comp *c, unsigned n, bool flip_v, float *dst,
			   nm_error *err)
{
	if (!c) {
		memset(dst, 0, (size_t)vb->count * n * sizeof *dst);
		return NM_OK;
	}
	const rfrm_format_info *f = rfrm_format(c->format);
	uint64_t need = vb->count ? (uint64_t)(vb->count - 1) * c->stride + c->offset + f->bytes : 0;
	if (need > len)
		return nm_fail(err, NM_E_FORMAT, m->name, "VBUF", NM_NO_OFFSET,
			       "a vertex buffer holds %zu bytes; its %u vertices need %llu", len,
			       vb->count, (unsigned long long)need);
	for (uint32_t v = 0; v < vb->count; v++) {
		const uint8_t *p = data + (size_t)v * c->stride + c->offset;
		for (unsigned k = 0; k < n; k++) {
			float x = k < f->comps ? rfrm_component_float(f, p, k, m->little) : 0.0f;
			dst[(size_t)v * n + k] = flip_v && k == 1 ? 1.0f - x : x;
		}
	}
	return NM_OK;
}

/* COLOR (semantic 8), alpha 1 when it has three components. */
static nm_status copy_colors(const rfrm_model *m, const rfrm_vbuf *vb, const uint8_t *data,
			     size_t len, float *dst, nm_error *err)
{
	const rfrm_comp *c = find_comp(vb, RFRM_COLOR, 3);
	nm_status s = copy_comp(m, vb, data, len, c, 4, false, dst, err);
	if (s == NM_OK && rfrm_format(c->format)->comps < 4)
		for (uint32_t v = 0; v < vb->count; v++)
			dst[(size_t)v * 4 + 3] = 1.0f;
	return s;
}

/* BONE_INDICES and BONE_WEIGHTS (semantics 9, 10), four each. */
static nm_status copy_skin(const rfrm_model *m, const rfrm_vbuf *vb, const uint8_t *data,
			   size_t len, nm_obj_data *d, nm_error *err)
{
	float *idx = nm_alloc(nm_tree_options(m->t), vb->count, 4 * sizeof *idx, err, m->name,
			      "VBUF", NM_NO_OFFSET);
	if (!idx)
		return err->code;
	nm_status s = copy_comp(m, vb, data, len, find_comp(vb, RFRM_BONE_INDICES, 1), 4, false,
				idx, err);
	if (s == NM_OK)
		s = copy_comp(m, vb, data, len, find_comp(vb, RFRM_BONE_WEIGHTS, 1), 4, false,
			      d->weights, err);
	/* An index that is no bone number gets a joint past the skeleton: weight 0. */
	for (size_t k = 0; s == NM_OK && k < (size_t)vb->count * 4; k++)
		d->joints[k] = idx[k] >= 0 && idx[k] < 65535 ? (uint16_t)idx[k] : 65535;
	free(idx);
	return s;
}

static nm_status load_group(void *ctx, size_t g, nm_obj_data *d, nm_error *err)
{
	rfrm_model *m = ctx;
	const rfrm_mesh *me = &m->meshes[m->obj->mesh[g]];
	const rfrm_vbuf *vb = &m->vbufs[me->vbuf];
	nm_status s;
	if (d->positions) {
		uint8_t *data;
		size_t len;
		s = rfrm_gpu_load(m, false, me->vbuf, &data, &len, err);
		if (s != NM_OK)
			return s;
		s = copy_comp(m, vb, data, len, find_comp(vb, RFRM_POSITION, 1), 3, false,
			      d->positions, err);
		if (s == NM_OK && d->normals)
			s = copy_comp(m, vb, data, len, find_comp(vb, RFRM_NORMAL, 3), 3, false,
				      d->normals, err);
		for (unsigned k = 0; s == NM_OK && k < RFRM_TEXCOORDS; k++)
			if (d->texcoords[k])
				s = copy_comp(m, vb, data, len, find_comp(vb, RFRM_TEXCOORD0 + k, 2), 2,
					      true, d->texcoords[k], err);
		if (s == NM_OK && d->colors)
			s = copy_colors(m, vb, data, len, d->colors, err);
		if (s == NM_OK && d->joints)
			s = copy_skin(m, vb, data, len, d, err);
		free(data);
		if (s != NM_OK)
			return s;
	}
	uint32_t *idx;
	s = rfrm_load_indices(m, me->ibuf, me->first, me->count, &idx, err);
	if (s != NM_OK)
		return s;
	for (uint32_t k = 0; k < me->count; k++)
		if (idx[k] >= vb->count) {
			s = nm_fail(err, NM_E_FORMAT, m->name, "IBUF", NM_NO_OFFSET,
				    "mesh %zu: its index %u (index buffer %u, index %llu) is vertex %u; vertex buffer %u has %u",
				    (size_t)m->obj->mesh[g], k, me->ibuf,
				    (unsigned long long)me->first + k, idx[k], me->vbuf, vb->count);
			free(idx);
			return s;
		}
	nm_triangulate(me->prim == 4 ? NM_PRIM_STRIP : NM_PRIM_TRIANGLES, idx, me->count, d->tris);
	free(idx);
	return NM_OK;
}

/* The first count vertices' positions (and colours) of group g, from the head of its
 * vertex buffer alone (obj.h: load_head). The whole buffer when the head is most of it:
 * through gpu/vertex/N.bin, the tree's cache then keeps it for the next range. */
static nm_status load_group_head(void *ctx, size_t g, uint64_t count, nm_obj_data *d,
				 nm_error *err)
{
	rfrm_model *m = ctx;
	const rfrm_mesh *me = &m->meshes[m->obj->mesh[g]];
	rfrm_vbuf head = m->vbufs[me->vbuf];
	if (count > head.count || count * head.stride > head.size / 2)
		return NM_E_UNSUPPORTED;
	head.count = (uint32_t)count;
	size_t len = (size_t)(count * head.stride);
	uint8_t *data;
	nm_status s = rfrm_gpu_load_head(m, false, me->vbuf, len, &data, err);
	if (s != NM_OK)
		return s;
	s = copy_comp(m, &head, data, len, find_comp(&head, RFRM_POSITION, 1), 3, false,
		      d->positions, err);
	if (s == NM_OK && d->colors)
		s = copy_colors(m, &head, data, len, d->colors, err);
	free(data);
	return s;
}

static void write_mtl(nm_out *o, const rfrm_model *m)
{
	if (m->pak)
		nm_out_str(o, "# Tropical Freeze materials via nmodelfs. Textures are TXTR assets of this\n"
			      "# PAK: each map is the level-0 PNG in the texture's directory.\n");
	else if (m->folder_textures)
		nm_out_str(o, "# Tropical Freeze materials via nmodelfs. Textures are TXTR files beside\n"
			      "# the model, named by GUID: each map is the level-0 PNG in the texture's\n"
			      "# directory; a GUID with no such file is named as GUID.png.\n");
	else
		nm_out_str(o, "# Tropical Freeze materials via nmodelfs. This model is mounted on its own:\n"
			      "# its textures are TXTR assets in other files, named here by GUID, and no PNG\n"
			      "# of them exists in this mount. Mount the PAK that holds the model for working\n"
			      "# paths, or put each texture's tex/0.png beside this file as GUID.png.\n");
	for (size_t i = 0; i < m->nmats; i++) {
		const rfrm_material *mat = &m->mats[i];
		nm_out_printf(o, "\nnewmtl material%zu\n# name: ", i);
		for (const char *p = mat->name ? mat->name : ""; *p; p++)
			nm_out_char(o, (unsigned char)*p < 0x20 ? '?' : *p);
		nm_out_char(o, '\n');
		nm_out_str(o, "Kd");
		for (int k = 0; k < 3; k++) {
			nm_out_char(o, ' ');
			nm_out_float(o, mat->has_color ? mat->color[k] : 1.0f);
		}
		nm_out_char(o, '\n');
		for (size_t k = 0; k < mat->ntex; k++) {
			const rfrm_texref *tx = &mat->tex[k];
			const char *key = rfrm_texture_mtl_key(tx->id);
			bool first = true;   /* one statement per key: the first parameter */
			for (size_t j = 0; j < k && key; j++)
				first &= rfrm_texture_mtl_key(mat->tex[j].id) != key;
			char g[RFRM_GUID_STR], id[5];
			rfrm_guid_str(g, tx->guid);
			rfrm_fourcc_print(id, tx->id);
			if (key && first && (tx->png || !m->pak))
				nm_out_printf(o, "%s %s%s\n", key, tx->png ? tx->png : g,
					      tx->png ? "" : ".png");
			else if (tx->png)
				nm_out_printf(o, "# %sTXTR: %s\n", id, tx->png);
			else
				nm_out_printf(o, "# %sTXTR: %s%s\n", id, g,
					      m->pak ? " (no PNG in this PAK: see mtrl/)" : "");
		}
	}
}

static bool drawable(const rfrm_model *m, const rfrm_mesh *me)
{
	return !me->bad && (me->prim == 3 || me->prim == 4) &&
	       find_comp(&m->vbufs[me->vbuf], RFRM_POSITION, 1) != NULL;
}

nm_status rfrm_add_obj(rfrm_model *m, nm_node *root)
{
	nm_tree *t = m->t;
	size_t n = 0;
	for (size_t i = 0; i < m->nmeshes; i++)
		n += drawable(m, &m->meshes[i]);
	struct rfrm_obj *obj = nm_tree_alloc(t, sizeof *obj);
	nm_obj_group *groups = nm_tree_alloc(t, (n ? n : 1) * sizeof *groups);
	size_t *mesh = nm_tree_alloc(t, (n ? n : 1) * sizeof *mesh);
	if (!obj || !groups || !mesh)
		return NM_E_NOMEM;
	m->obj = obj;
	obj->mesh = mesh;
	size_t k = 0;
	for (size_t v = 0; v < m->nvbufs; v++) {
		bool first = true;
		const rfrm_vbuf *vb = &m->vbufs[v];
		for (size_t i = 0; i < m->nmeshes; i++) {
			const rfrm_mesh *me = &m->meshes[i];
			if (me->vbuf != v || !drawable(m, me))
				continue;
			groups[k].name = nm_tree_printf(t, "mesh%zu", i);
			if (me->material < m->nmats)
				groups[k].material = nm_tree_printf(t, "material%u", me->material);
			if (!groups[k].name || (me->material < m->nmats && !groups[k].material))
				return NM_E_NOMEM;
			groups[k].nverts = vb->count;
			groups[k].has_normals = find_comp(vb, RFRM_NORMAL, 3) != NULL;
			for (unsigned u = 0; u < RFRM_TEXCOORDS; u++)
				if (find_comp(vb, RFRM_TEXCOORD0 + u, 2))
					groups[k].nuvs = u + 1;
			groups[k].has_colors = find_comp(vb, RFRM_COLOR, 3) != NULL;
			groups[k].has_skin = m->skin_bones > 0 &&
					     find_comp(vb, RFRM_BONE_INDICES, 1) &&
					     find_comp(vb, RFRM_BONE_WEIGHTS, 1);
			if (first && !(groups[k].object = nm_tree_printf(t, "buffer%zu", v)))
				return NM_E_NOMEM;
			groups[k].ntris = nm_triangle_count(me->prim == 4 ? NM_PRIM_STRIP
									  : NM_PRIM_TRIANGLES, me->count);
			groups[k].reuse_vertices = !first;
			mesh[k] = i;
			first = false;
			k++;
		}
	}
	obj->model = (nm_obj_model){ .mtllib = "mesh.mtl", .comment = "Tropical Freeze model via nmodelfs",
				     .groups = groups, .ngroups = n, .load = load_group,
				     .load_head = load_group_head, .ctx = m };
	nm_out o;
	nm_out_init(&o);
	write_mtl(&o, m);
	nm_node *mtl = nm_text(t, root, "mesh.mtl", &o);
	nm_out_free(&o);
	if (!mtl)
		return NM_E_NOMEM;
	return nm_obj_add(t, root, &obj->model) ? NM_OK : NM_E_NOMEM;
}
