/* mesh.obj + mesh.mtl: one OBJ object and group per mesh (mshs entry) in bind pose,
 * with the material of the mesh and the texture its combiners take the colour from as
 * map_Kd (material_texture.c); vertex colours when the shape has them.
 *
 * Bind pose (FORMATS.md 4.6, "Skinning for OBJ"): vertices of single-bone and rigid prms
 * are stored in their bone's space, so they go through that bone's world matrix (normals
 * through its 3x3, renormalised); smooth-skinned vertices are already in model space. A
 * vertex's bone: bone index attribute (component 0; 0 when there is none) -> the prms's
 * bone table -> skl. A vertex used by several prms takes the first one's bone. Texture
 * coordinates go in unchanged (FORMATS.md 7: PICA rows are stored top-down and CMB t
 * runs bottom-up like OBJ's v). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/obj.h"
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "lib/alloc.h"


static uint64_t mesh_triangles(const cmb_sepd *s)
{
	uint64_t n = 0;
	for (uint16_t i = 0; i < s->nprms; i++)
		if (s->prms[i].ok)
			n += s->prms[i].ntris;
	return n;
}

static nm_status load_or_zero(cmb_model *m, const cmb_sepd *s, int kind, unsigned comps,
			      float *dst, nm_error *err)
{
	const cmb_attrib *a = &s->attr[kind];
	if (!a->usable) {
		memset(dst, 0, (size_t)s->nverts * comps * sizeof *dst);
		return NM_OK;
	}
	float *f;
	nm_status st = cmb_load_attr(m, s, kind, &f, err);
	if (st != NM_OK)
		return st;
	for (uint32_t v = 0; v < s->nverts; v++)
		for (unsigned c = 0; c < comps; c++)
			dst[(size_t)v * comps + c] = c < a->comps ? f[(size_t)v * a->comps + c] : 0;
	free(f);
	return NM_OK;
}

/* The skl bone of vertex v in prms p, or -1 (leave the vertex as it is). */
static int32_t vertex_bone(const cmb_model *m, const cmb_sepd *s, const cmb_prms *p,
			   const float *bone_idx, uint32_t v)
{
	float fi = bone_idx ? bone_idx[(size_t)v * s->attr[CMB_BONE_INDICES].comps] : 0.0f;
	if (!(fi >= 0.0f) || fi >= (float)p->nbones)
		return -1;
	uint16_t bone = p->bones[(size_t)fi];
	return bone < m->nbones ? (int32_t)bone : -1;
}

static void transform(const float w[16], float *pos, float *nrm)
{
	float p[3] = { pos[0], pos[1], pos[2] };
	for (int r = 0; r < 3; r++)
		pos[r] = w[r * 4] * p[0] + w[r * 4 + 1] * p[1] + w[r * 4 + 2] * p[2] + w[r * 4 + 3];
	if (!nrm)
		return;
	float n[3] = { nrm[0], nrm[1], nrm[2] }, len = 0;
	for (int r = 0; r < 3; r++) {
		nrm[r] = w[r * 4] * n[0] + w[r * 4 + 1] * n[1] + w[r * 4 + 2] * n[2];
		len += nrm[r] * nrm[r];
	}
	if (len > 0) {
		len = sqrtf(len);
		for (int r = 0; r < 3; r++)
			nrm[r] /= len;
	}
}

/* JOINTS_0/WEIGHTS_0 for model.glb. A single-bone or rigid vertex follows the one bone
 * that placed it (weight 1; a vertex left as stored, joint 0 at weight 1, which at bind
 * pose is no move either). A smooth vertex takes bone_dim influences: bone index
 * attribute -> its prms's bone table -> skl, weights from the weight attribute (u8 x
 * 0.01 in the corpus, so they sum to 1; the writer renormalises what does not). */
static nm_status skin(cmb_model *m, const cmb_sepd *s, const int32_t *bone_of,
		      const float *bone_idx, nm_obj_data *d, nm_error *err)
{
	float *weights = NULL;
	const cmb_attrib *wa = &s->attr[CMB_BONE_WEIGHTS], *ia = &s->attr[CMB_BONE_INDICES];
	if (wa->usable) {
		nm_status st = cmb_load_attr(m, s, CMB_BONE_WEIGHTS, &weights, err);
		if (st != NM_OK)
			return st;
	}
	for (uint32_t v = 0; v < s->nverts; v++) {
		uint16_t *j = d->joints + NM_MESH_INFLUENCES * (size_t)v;
		float *w = d->weights + NM_MESH_INFLUENCES * (size_t)v;
		memset(j, 0, NM_MESH_INFLUENCES * sizeof *j);
		memset(w, 0, NM_MESH_INFLUENCES * sizeof *w);
		if (bone_of[v] > -3) {
			j[0] = bone_of[v] >= 0 ? (uint16_t)bone_of[v] : 0;
			w[0] = 1;
			continue;
		}
		const cmb_prms *p = &s->prms[-3 - bone_of[v]];
		unsigned n = ia->usable ? ia->comps : 0;
		for (unsigned k = 0; k < n && k < NM_MESH_INFLUENCES; k++) {
			float fi = bone_idx[(size_t)v * ia->comps + k];
			if (!(fi >= 0.0f) || fi >= (float)p->nbones || p->bones[(size_t)fi] >= m->nbones)
				continue;
			j[k] = p->bones[(size_t)fi];
			w[k] = weights && k < wa->comps ? weights[(size_t)v * wa->comps + k]
						       : n == 1;
		}
	}
	free(weights);
	return NM_OK;
}

static nm_status load_group(void *ctx, size_t gi, nm_obj_data *d, nm_error *err)
{
	cmb_model *m = ctx;
	const cmb_mesh *mesh = &m->meshes[m->obj->mesh_of_group[gi]];
	const cmb_sepd *s = &m->sepds[mesh->sepd];
	float *bone_idx = NULL;
	int32_t *bone_of = NULL;
	nm_status st;

	if ((st = load_or_zero(m, s, CMB_POSITION, 3, d->positions, err)) != NM_OK)
		return st;
	if (d->normals && (st = load_or_zero(m, s, CMB_NORMAL, 3, d->normals, err)) != NM_OK)
		return st;
	for (int k = 0; k < 3; k++)
		if (d->texcoords[k] &&
		    (st = load_or_zero(m, s, CMB_TEXCOORD0 + k, 2, d->texcoords[k], err)) != NM_OK)
			return st;
	if (d->colors && (st = load_or_zero(m, s, CMB_COLOR, 4, d->colors, err)) != NM_OK)
		return st;
	bone_of = nm_alloc(nm_reader_options(m->r), s->nverts, sizeof *bone_of, err, m->file,
			   "mesh.obj", NM_NO_OFFSET);
	if (!bone_of)
		return err->code;
	for (uint32_t v = 0; v < s->nverts; v++)
		bone_of[v] = -2; /* not yet claimed by a prms */
	if (s->attr[CMB_BONE_INDICES].usable &&
	    (st = cmb_load_attr(m, s, CMB_BONE_INDICES, &bone_idx, err)) != NM_OK)
		goto out;

	uint64_t k = 0;
	for (uint16_t i = 0; i < s->nprms; i++) {
		const cmb_prms *p = &s->prms[i];
		uint32_t *tris;
		if (!p->ok)
			continue;
		if ((st = cmb_load_triangles(m, p, &tris, err)) != NM_OK)
			goto out;
		bool rigid = p->skinning != CMB_SKIN_SMOOTH;
		for (uint64_t j = 0; j < p->ntris * 3; j += 3) {
			uint32_t *t = tris + j;
			/* A triangle outside the vertex range becomes a comment line. */
			if (t[0] >= s->nverts || t[1] >= s->nverts || t[2] >= s->nverts)
				t[0] = t[1] = t[2] = NM_OBJ_DROPPED;
			/* Smooth: -3 - i, so that the skin knows which bone table to read. */
			for (int c = 0; c < 3 && t[0] != NM_OBJ_DROPPED; c++)
				if (bone_of[t[c]] == -2)
					bone_of[t[c]] = rigid ? vertex_bone(m, s, p, bone_idx, t[c])
							      : -3 - (int32_t)i;
		}
		memcpy(d->tris + 3 * k, tris, (size_t)p->ntris * 3 * sizeof *tris);
		k += p->ntris;
		free(tris);
	}
	for (uint32_t v = 0; v < s->nverts; v++)
		if (bone_of[v] >= 0)
			transform(m->bones[bone_of[v]].world, d->positions + 3 * (size_t)v,
				  d->normals ? d->normals + 3 * (size_t)v : NULL);
	st = d->joints ? skin(m, s, bone_of, bone_idx, d, err) : NM_OK;
out:
	free(bone_idx);
	free(bone_of);
	return st;
}

static void mtl_color(nm_out *o, const char *key, const uint8_t *c)
{
	nm_out_str(o, key);
	for (int i = 0; i < 3; i++) {
		nm_out_char(o, ' ');
		nm_out_float(o, c[i] / 255.0f);
	}
	nm_out_char(o, '\n');
}

static void write_mtl(nm_out *o, const cmb_model *m)
{
	nm_out_str(o, "# CMB materials via nmodelfs: colours from the material, map_Kd = the "
		      "texture the combiners take the colour from (vt: the UV set it reads)\n");
	for (uint32_t i = 0; i < m->nmats; i++) {
		const cmb_material *mat = &m->mats[i];
		nm_out_printf(o, "\nnewmtl material%u\n", i);
		mtl_color(o, "Ka", mat->ambient);
		mtl_color(o, "Kd", mat->diffuse);
		mtl_color(o, "Ks", mat->specular0);
		mtl_color(o, "Ke", mat->emission);
		nm_out_str(o, "d 1\n");
		int slot = cmb_base_color_slot(m, mat);
		if (slot >= 0)
			nm_out_printf(o, "map_Kd tex/%s.png\n", m->tex[mat->tex[slot]].stem);
	}
}

nm_status cmb_add_obj(nm_tree *t, nm_node *root, cmb_model *m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nmeshes; i++)
		n += m->meshes[i].sepd < m->nsepds && m->sepds[m->meshes[i].sepd].ok;
	struct cmb_obj *obj = nm_tree_alloc(t, sizeof *obj);
	nm_obj_group *groups = nm_tree_alloc(t, ((size_t)n + 1) * sizeof *groups);
	uint32_t *map = nm_tree_alloc(t, ((size_t)n + 1) * sizeof *map);
	if (!obj || !groups || !map)
		return NM_E_NOMEM;
	m->obj = obj;
	obj->mesh_of_group = map;
	uint32_t g = 0;
	for (uint32_t i = 0; i < m->nmeshes; i++) {
		const cmb_mesh *mesh = &m->meshes[i];
		if (mesh->sepd >= m->nsepds || !m->sepds[mesh->sepd].ok)
			continue;
		const cmb_sepd *s = &m->sepds[mesh->sepd];
		groups[g].name = nm_tree_printf(t, "mesh%u_shape%u", i, mesh->sepd);
		if (mesh->material < m->nmats)
			groups[g].material = nm_tree_printf(t, "material%u", mesh->material);
		if (!groups[g].name || (mesh->material < m->nmats && !groups[g].material))
			return NM_E_NOMEM;
		groups[g].nverts = s->nverts;
		groups[g].has_normals = s->attr[CMB_NORMAL].usable;
		groups[g].object = groups[g].name;
		for (int k = 0; k < 3; k++)
			if (s->attr[CMB_TEXCOORD0 + k].usable)
				groups[g].nuvs = (unsigned)k + 1;
		groups[g].has_colors = s->attr[CMB_COLOR].usable;
		/* vt: the UV set map_Kd's binding reads (its texcoord transform's source). */
		if (mesh->material < m->nmats) {
			const cmb_material *mat = &m->mats[mesh->material];
			int slot = cmb_base_color_slot(m, mat);
			groups[g].obj_uv = slot >= 0 ? mat->coord_source[slot] : 0;
		}
		groups[g].has_skin = m->nbones > 0;
		groups[g].ntris = mesh_triangles(s);
		map[g++] = i;
	}
	obj->model = (nm_obj_model){ .mtllib = "mesh.mtl", .comment = "CMB via nmodelfs (bind pose)",
				     .groups = groups, .ngroups = n, .load = load_group, .ctx = m };
	nm_out o;
	nm_out_init(&o);
	write_mtl(&o, m);
	if (!cmb_text(t, root, "mesh.mtl", &o))
		return NM_E_NOMEM;
	return nm_obj_add(t, root, &obj->model) ? NM_OK : NM_E_NOMEM;
}
