/* model.glb: mesh.obj's groups (obj.c: one glTF mesh per shape, in bind pose) with the
 * MAT3 materials and the tree's TEX1 PNGs.
 *
 * A material's base colour is material colour 0 and its first texture (as mesh.mtl),
 * read through the UV set its TEV stage's texgen names (parse_mat3.c). Alpha: an alpha compare that can fail is MASK at its reference
 * (the first compare's, or the second's when the first always passes); blend mode BLEND
 * is BLEND. Cull mode NONE is double-sided. The geometry is read through mesh.obj's
 * load callback, with the arrays it needs loaded once per production (j3d_with_mesh). */
#include <math.h>
#include <string.h>
#include "export/gltf_rig.h"
#include "formats/j3d/j3d.h"

static int wrap(uint8_t gx)
{
	return gx == 0 ? NM_GLTF_CLAMP : gx == 2 ? NM_GLTF_MIRROR : NM_GLTF_REPEAT;
}

static nm_status write_glb(const nm_obj_model *mesh, const void *arg, nm_out *o,
			   nm_error *err)
{
	nm_gltf_model g = *(const nm_gltf_model *)arg;
	g.mesh = mesh;
	return nm_gltf_write(&g, o, err);
}

static nm_status produce(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	return j3d_with_mesh(ctx, write_glb, arg, o, err);
}

/* arg: the model and the range. */
struct glb_range {
	const nm_gltf_model *g;
	uint64_t off;
	size_t len;
};

static nm_status write_glb_range(const nm_obj_model *mesh, const void *arg, nm_out *o,
				 nm_error *err)
{
	const struct glb_range *r = arg;
	nm_gltf_model g = *r->g;
	g.mesh = mesh;
	return nm_gltf_write_range(&g, r->off, r->len, o, err);
}

static nm_status produce_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	const struct glb_range r = { arg, off, len };
	return j3d_with_mesh(ctx, write_glb_range, &r, o, err);
}

/* A node per JNT1 joint with its local scale, rotation (j3d_angle_radians about X, Y, Z:
 * R = Rz * Ry * Rx as parse_jnt1.c) and translation, INF1's parent, a helper node where
 * INF1's scaling rule needs one (export/gltf_rig.h), and the inverse of its world
 * matrix (j3d_link's, under the rule) as the inverse bind: the mesh is stored in bind
 * pose (as mesh.obj), so the file's EVP1 inverse binds, which mesh.obj already applied,
 * are not needed. */
static nm_gltf_joint *joints(nm_tree *t, const j3d_model *m, nm_gltf_rig *rig,
			     const nm_gltf_clips *clips, const bool *odd_scale)
{
	size_t n = m->jnt1 ? m->jnt1->count : 0;
	nm_gltf_joint *j = nm_tree_alloc(t, (n + 1) * sizeof *j);
	nm_gltf_bone *b = j3d_bones(m);
	if (!j || !b)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		b[i].odd_scale = odd_scale && odd_scale[i];
		for (size_t k = 0; !odd_scale && clips && k < clips->n; k++)
			b[i].odd_scale |= clips->clips[k].joint_frames &&
					  clips->clips[k].joint_frames[i][NM_GLTF_PART_S] > 0;
	}
	if (nm_gltf_rig_init(rig, t, j3d_scaling_rule(m), b, n) != NM_OK ||
	    nm_gltf_rig_joints(rig, j) != NM_OK)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const j3d_joint *jt = &m->jnt1->joints[i];
		j[i].name = jt->name ? jt->name : "";
		nm_gltf_inverse_bind(jt->world, j[i].inverse_bind);
	}
	return j;
}

nm_status j3d_add_gltf(nm_tree *t, nm_node *root, j3d_model *m)
{
	return j3d_add_gltf_clips(t, root, m, NULL, NULL);
}

nm_status j3d_add_gltf_clips(nm_tree *t, nm_node *root, j3d_model *m,
			     const nm_gltf_clips *clips, const bool *odd_scale)
{
	const nm_obj_model *om = j3d_mesh_groups(m);
	size_t nmats = m->mat3 ? m->mat3->count : 0, ntex = m->tex1 ? m->tex1->count : 0;
	nm_gltf_model *g = nm_tree_alloc(t, sizeof *g);
	int32_t *group_mat = om ? nm_tree_alloc(t, (om->ngroups + 1) * sizeof *group_mat) : NULL;
	nm_gltf_material *mats = nm_tree_alloc(t, (nmats + 1) * sizeof *mats);
	nm_png_source *images = nm_tree_alloc(t, (ntex + 1) * sizeof *images);
	nm_gltf_rig *rig = nm_tree_alloc(t, sizeof *rig);
	nm_gltf_joint *bones = rig ? joints(t, m, rig, clips, odd_scale) : NULL;
	const nm_gltf_anim *anim = clips && bones ? nm_gltf_rig_anim(t, rig, clips) : NULL;
	if (!g || !group_mat || !mats || !images || !bones || (clips && !anim))
		return NM_E_NOMEM;
	for (size_t i = 0; i < ntex; i++)
		images[i] = m->tex1->tex[i].ok ? m->tex1->tex[i].png : (nm_png_source){ 0 };
	for (size_t i = 0; i < nmats; i++) {
		const j3d_material *jm = &m->mat3->mats[i];
		nm_gltf_material *gm = &mats[i];
		gm->name = jm->name ? jm->name : "";
		for (int k = 0; k < 4; k++)
			gm->color[k] = jm->color[k] / 255.0f;
		gm->image = jm->texture >= 0 && (size_t)jm->texture < ntex ? jm->texture : -1;
		if (gm->image >= 0) {
			gm->uv = jm->texture_uv;
			gm->wrap_s = wrap(m->tex1->tex[gm->image].wrap_s);
			gm->wrap_t = wrap(m->tex1->tex[gm->image].wrap_t);
		}
		nm_gltf_alpha_mode(gm, jm->alpha_mask, jm->alpha_ref, jm->blended);
		gm->double_sided = jm->cull == 0;
	}
	for (size_t k = 0; k < om->ngroups; k++) {
		int mi = m->mesh ? j3d_group_shape(m, k)->material : -1;
		group_mat[k] = mi >= 0 && (size_t)mi < nmats ? mi : -1;
	}
	*g = (nm_gltf_model){ .mesh = om, .group_material = group_mat, .materials = mats,
			      .nmaterials = nmats, .images = images, .nimages = ntex,
			      .joints = bones, .njoints = m->jnt1 ? m->jnt1->count : 0,
			      .generator = "nmodelfs (J3D)", .anim = anim };
	if (nm_tree_range_producer(t, produce, produce_range) != NM_OK)
		return NM_E_NOMEM;
	return nm_gltf_add(t, root, g, produce, m);
}
