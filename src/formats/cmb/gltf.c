/* model.glb: mesh.obj's groups (obj.c: one mesh per mshs entry, in bind pose) with
 * materials and the tree's PNGs.
 *
 * A material's base colour is its diffuse colour and the texture its combiners take the
 * colour from (cmb_base_color_slot, the same as mesh.mtl), read through the UV set that
 * binding's texcoord transform names. Alpha: a material with the alpha test on is MASK
 * at its reference, one with a blend mode is BLEND. Cull mode NONE is double-sided
 * (glTF cannot cull front faces only: FRONT is drawn as one-sided). */
#include <string.h>
#include "export/gltf.h"
#include "formats/cmb/cmb.h"

static int wrap(uint16_t gl)
{
	switch (gl) {
	case 0x2900: case 0x812F: return NM_GLTF_CLAMP;
	case 0x8370: return NM_GLTF_MIRROR;
	default: return NM_GLTF_REPEAT;
	}
}

static void material(const cmb_model *m, const cmb_material *mat, size_t i,
		     nm_gltf_material *g, nm_tree *t)
{
	g->name = nm_tree_printf(t, "material%zu", i);
	for (int k = 0; k < 4; k++)
		g->color[k] = mat->diffuse[k] / 255.0f;
	g->image = -1;
	int slot = cmb_base_color_slot(m, mat);
	if (slot >= 0) {
		g->image = mat->tex[slot];
		g->uv = mat->coord_source[slot] < 3 ? mat->coord_source[slot] : 0;
		g->wrap_s = wrap(mat->wrap[slot][0]);
		g->wrap_t = wrap(mat->wrap[slot][1]);
	}
	nm_gltf_alpha_mode(g, mat->alpha_test, mat->alpha_ref, mat->blend_mode != 0);
	g->double_sided = mat->cull == 3;
}

/* A node per skl bone: its local scale, Euler XYZ rotation and translation as the file
 * gives them (FORMATS.md 4.3; glTF's T * R * S with R = Rz * Ry * Rx is the same local
 * matrix as tree_skl.c's), and the inverse of its world matrix as the inverse bind: the
 * mesh (in bind pose, as mesh.obj) is then where the skeleton's rest pose puts it. */
static nm_gltf_joint *joints(nm_tree *t, const cmb_model *m)
{
	nm_gltf_joint *j = nm_tree_alloc(t, ((size_t)m->nbones + 1) * sizeof *j);
	for (uint32_t i = 0; j && i < m->nbones; i++) {
		const cmb_bone *b = &m->bones[i];
		j[i].name = nm_tree_printf(t, "bone%u", b->raw_id & 0x0FFF);
		if (!j[i].name)
			return NULL;
		j[i].parent = b->parent_bad ? -1 : b->parent;
		memcpy(j[i].t, b->trans, sizeof j[i].t);
		memcpy(j[i].s, b->scale, sizeof j[i].s);
		nm_gltf_euler_quat(b->rot, j[i].r);
		nm_gltf_inverse_bind(b->world, j[i].inverse_bind);
	}
	return j;
}

nm_status cmb_add_gltf(nm_tree *t, nm_node *root, cmb_model *m)
{
	const nm_obj_model *om = &m->obj->model;
	nm_gltf_model *g = nm_tree_alloc(t, sizeof *g);
	int32_t *group_mat = nm_tree_alloc(t, (om->ngroups + 1) * sizeof *group_mat);
	nm_gltf_material *mats = nm_tree_alloc(t, ((size_t)m->nmats + 1) * sizeof *mats);
	nm_png_source *images = nm_tree_alloc(t, ((size_t)m->ntex + 1) * sizeof *images);
	nm_gltf_joint *bones = joints(t, m);
	if (!g || !group_mat || !mats || !images || !bones)
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < m->nmats; i++) {
		material(m, &m->mats[i], i, &mats[i], t);
		if (!mats[i].name)
			return NM_E_NOMEM;
	}
	for (uint32_t i = 0; i < m->ntex; i++)
		images[i] = m->tex[i].png;
	for (size_t k = 0; k < om->ngroups; k++) {
		uint8_t mi = m->meshes[m->obj->mesh_of_group[k]].material;
		group_mat[k] = mi < m->nmats ? mi : -1;
	}
	*g = (nm_gltf_model){ .mesh = om, .group_material = group_mat, .materials = mats,
			      .nmaterials = m->nmats, .images = images, .nimages = m->ntex,
			      .joints = bones, .njoints = m->nbones,
			      .generator = "nmodelfs (CMB)" };
	if (m->anims.n && cmb_add_gltf_animated(t, root, m, g) != NM_OK)
		return NM_E_NOMEM;
	return nm_gltf_add(t, root, g, NULL, NULL);
}
