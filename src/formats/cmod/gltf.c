/* model.glb: mesh.obj's groups (obj.c: one glTF mesh per CMOD mesh, a primitive per
 * triangle group) with the materials' colours. Celestia's textures are files of the
 * add-on beside the model, not in this mount, so no image is embedded (mesh.mtl names
 * them). Opacity below 1 or an additive or premultiplied blend is BLEND. */
#include "export/gltf.h"
#include "formats/cmod/cmod.h"

nm_status cmod_add_gltf(nm_tree *t, nm_node *root, cmod_model *m)
{
	const nm_obj_model *om = &m->obj->model;
	nm_gltf_model *g = nm_tree_alloc(t, sizeof *g);
	int32_t *group_mat = nm_tree_alloc(t, (om->ngroups + 1) * sizeof *group_mat);
	nm_gltf_material *mats = nm_tree_alloc(t, (m->nmaterials + 1) * sizeof *mats);
	if (!g || !group_mat || !mats)
		return NM_E_NOMEM;
	for (size_t i = 0; i < m->nmaterials; i++) {
		const cmod_material *cm = &m->materials[i];
		nm_gltf_material *gm = &mats[i];
		if (!(gm->name = nm_tree_printf(t, "material%zu", i)))
			return NM_E_NOMEM;
		for (int k = 0; k < 3; k++)
			gm->color[k] = cm->diffuse[k];
		gm->color[3] = cm->opacity;
		gm->image = -1;
		gm->alpha = cm->opacity < 1 || cm->blend != 0 ? NM_GLTF_BLEND : NM_GLTF_OPAQUE;
	}
	for (size_t k = 0; k < om->ngroups; k++) {
		const cmod_group *grp = m->obj->refs[k].group;
		group_mat[k] = grp->material != UINT32_MAX && !grp->missing_material &&
			       grp->material < m->nmaterials ? (int32_t)grp->material : -1;
	}
	*g = (nm_gltf_model){ .mesh = om, .group_material = group_mat, .materials = mats,
			      .nmaterials = m->nmaterials, .generator = "nmodelfs (CMOD)" };
	return nm_gltf_add(t, root, g, NULL, NULL);
}
