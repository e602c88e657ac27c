/* model.glb: mesh.obj's groups (obj.c: one glTF mesh per vertex buffer, a primitive per
 * mesh) with the materials' DIFC colours and the texture mesh.mtl names as map_Kd. That
 * texture is a TXTR asset elsewhere (another member of the same PAK, or a file beside
 * the model): its level-0 PNG, the same bytes as its own tree's tex/0.png, is made for
 * the glb from the asset's bytes (rfrm_texture_png_source), so the glb needs nothing of
 * the other asset's directory. A model mounted alone knows only GUIDs: no texture.
 *
 * Skin (SMDL): the vertex buffers carry bone indices and weights, and SKHD's u32 is the
 * number of bones they address (one more than the largest index in every corpus SMDL).
 * The skeleton itself (hierarchy, bind pose) is not in the model file: it is another
 * asset, not read here. So the skin has that many joints named bone0.., all roots at
 * the origin with identity inverse binds: the mesh stays in its stored pose, and an
 * importer keeps the weights as vertex groups named by bone number, to be bound to the
 * real skeleton by hand. */
#include <string.h>
#include "export/gltf.h"
#include "formats/rfrm/rfrm.h"

/* The image of material i's map_Kd texture (the first DIFT parameter, when it has a
 * PNG, as obj.c writes it), added to images once per GUID; -1 when none. */
static int base_image(rfrm_model *m, const rfrm_material *rm, nm_png_source *images,
		      size_t *nimages, uint8_t (*guid_of)[16])
{
	const rfrm_texref *tex = NULL;
	for (size_t k = 0; k < rm->ntex && !tex; k++) {
		const char *key = rfrm_texture_mtl_key(rm->tex[k].id);
		if (key && strcmp(key, "map_Kd") == 0)
			tex = &rm->tex[k];
	}
	if (!tex || !tex->png)
		return -1;
	for (size_t i = 0; i < *nimages; i++)
		if (memcmp(guid_of[i], tex->guid, 16) == 0)
			return (int)i;
	if (!rfrm_texture_png_source(m, tex, &images[*nimages]))
		return -1;
	memcpy(guid_of[*nimages], tex->guid, 16);
	return (int)(*nimages)++;
}

nm_status rfrm_add_gltf(rfrm_model *m, nm_node *root)
{
	nm_tree *t = m->t;
	const nm_obj_model *om = &m->obj->model;
	nm_gltf_model *g = nm_tree_alloc(t, sizeof *g);
	int32_t *group_mat = nm_tree_alloc(t, (om->ngroups + 1) * sizeof *group_mat);
	nm_gltf_material *mats = nm_tree_alloc(t, (m->nmats + 1) * sizeof *mats);
	size_t nbones = m->skin_bones <= UINT16_MAX ? m->skin_bones : 0;
	nm_gltf_joint *bones = nm_tree_alloc(t, (nbones + 1) * sizeof *bones);
	nm_png_source *images = nm_tree_alloc(t, (m->nmats + 1) * sizeof *images);
	uint8_t (*guid_of)[16] = nm_tree_alloc(t, (m->nmats + 1) * sizeof *guid_of);
	size_t nimages = 0;
	if (!g || !group_mat || !mats || !bones || !images || !guid_of)
		return NM_E_NOMEM;
	for (size_t i = 0; i < nbones; i++) {
		nm_gltf_joint *j = &bones[i];
		if (!(j->name = nm_tree_printf(t, "bone%zu", i)))
			return NM_E_NOMEM;
		j->parent = -1;
		j->r[3] = 1;
		j->s[0] = j->s[1] = j->s[2] = 1;
		j->inverse_bind[0] = j->inverse_bind[5] = j->inverse_bind[10] = j->inverse_bind[15] = 1;
	}
	for (size_t i = 0; i < m->nmats; i++) {
		const rfrm_material *rm = &m->mats[i];
		nm_gltf_material *gm = &mats[i];
		gm->name = rm->name ? rm->name : "";
		for (int k = 0; k < 4; k++)
			gm->color[k] = rm->has_color ? rm->color[k] : 1.0f;
		gm->image = base_image(m, rm, images, &nimages, guid_of);
		gm->wrap_s = gm->wrap_t = NM_GLTF_REPEAT;
	}
	for (size_t k = 0; k < om->ngroups; k++) {
		uint32_t mi = m->meshes[m->obj->mesh[k]].material;
		group_mat[k] = mi < m->nmats ? (int32_t)mi : -1;
	}
	*g = (nm_gltf_model){ .mesh = om, .group_material = group_mat, .materials = mats,
			      .nmaterials = m->nmats, .images = images, .nimages = nimages,
			      .joints = bones, .njoints = nbones,
			      .generator = "nmodelfs (Tropical Freeze)" };
	return nm_gltf_add(t, root, g, NULL, NULL);
}
