/* A CMB's Grezzo animations in its model.glb: one glTF animation per name (the file name
 * without its extension), at frames 0 .. duration (t = frame / 30 s):
 *  - CSAB: the bones' translation, rotation and scale over export/gltf_rig.h (CMB bones
 *    compose as glTF's do); a component without a track keeps the bone's bind value;
 *  - CMAB texture translation, scale and rotation (types 1, 3, 5) of the texture slot the
 *    glb's base colour reads: KHR_texture_transform through KHR_animation_pointer.
 * CMAB palettes (type 2: a texture swap) and colours (type 4: which of the material's
 * colours it drives is not known, FORMATS.md 10.12) stay in the tree. */
#include <math.h>
#include <string.h>
#include "export/gltf_anim.h"
#include "export/gltf_rig.h"
#include "formats/cmb/cmb.h"
#include "formats/grezzo_anim/grezzo_anim.h"

/* One glTF animation: the files of one name, and the CSAB among them (-1: none). */
struct clip {
	nm_pair_group g;
	int bones;
};

struct anim_ctx {
	const cmb_model *m;
	struct clip *clips;
	size_t nclips;
};

#define KEY(file, target) ((uint32_t)(file) << 16 | (uint32_t)(target))

static const ga_anim *anim_of(const cmb_model *m, size_t f)
{
	return m->anims.taken[f].anim;
}

static uint32_t frames_of(const ga_anim *a)
{
	return a->duration > 0 && a->duration < 65536 ? a->duration + 1 : 1;
}

/* A track's value at frame, or the value the model keeps without it. */
static float track_or(const ga_track *tr, uint32_t frame, float rest)
{
	double v = tr ? ga_track_sample(tr, frame) : NAN;
	return isfinite(v) ? nm_float_sat(v) : rest;
}

static nm_status sample_srt(void *ctx, size_t anim, size_t joint, enum nm_gltf_part part,
			    uint32_t frame, float out[3], nm_error *err)
{
	(void)err;
	const struct anim_ctx *c = ctx;
	const ga_anim *a = anim_of(c->m, (size_t)c->clips[anim].bones);
	const cmb_bone *b = &c->m->bones[joint];
	int16_t ti = joint < a->nbones ? a->bone_table[joint] : -1;
	const ga_target *tg = ti >= 0 && (uint32_t)ti < a->ntargets ? &a->targets[ti] : NULL;
	static const int first[3] = { [NM_GLTF_PART_S] = GA_CSAB_SX, [NM_GLTF_PART_R] = GA_CSAB_RX,
				      [NM_GLTF_PART_T] = GA_CSAB_TX };
	const float *rest = part == NM_GLTF_PART_S ? b->scale : part == NM_GLTF_PART_R ? b->rot
										: b->trans;
	for (int k = 0; k < 3; k++) {
		const ga_track *tr = tg && tg->ok ? tg->track[first[part] + k] : NULL;
		float v = track_or(tr, frame, NAN);
		/* CSAB rotations are read in degrees (grezzo_anim.h). */
		out[k] = isfinite(v) ? (part == NM_GLTF_PART_R ? nm_float_sat(v * M_PI / 180) : v)
				     : rest[k];
	}
	return NM_OK;
}

/* The texture slot a CMAB target names, when it is the one the glb's base colour reads. */
static bool drives_base_texture(const cmb_model *m, const ga_target *tg)
{
	if (!tg->ok || tg->material >= m->nmats)
		return false;
	int slot = cmb_base_color_slot(m, &m->mats[tg->material]);
	return slot >= 0 && (!tg->has_channel || tg->channel == (uint32_t)slot);
}

/* The material's texture matrix at frame from its type 1, 3 and 5 targets in file f. */
static void uv_srt(const ga_anim *a, uint32_t material, uint32_t frame, float s[2], float *r,
		   float t[2])
{
	s[0] = s[1] = 1;
	*r = 0;
	t[0] = t[1] = 0;
	for (uint32_t i = 0; i < a->ntargets; i++) {
		const ga_target *tg = &a->targets[i];
		if (!tg->ok || tg->material != material)
			continue;
		if (tg->type == 1 || tg->type == 3)
			for (int k = 0; k < 2; k++) {
				float *d = tg->type == 1 ? t : s;
				d[k] = track_or(tg->track[k], frame, d[k]);
			}
		else if (tg->type == 5)
			*r = track_or(tg->track[0], frame, 0);
	}
}

static nm_status sample_extra(void *ctx, size_t anim, const nm_gltf_channel *ch,
			      uint32_t frame, float out[4], nm_error *err)
{
	(void)anim;
	(void)err;
	const struct anim_ctx *c = ctx;
	const ga_anim *a = anim_of(c->m, ch->key >> 16);
	float s[2], r, t[2], offset[2], rotation, scale[2];
	static const float centre[2] = { 0, 0 };
	uv_srt(a, ch->index, frame, s, &r, t);
	/* The glb's v is 1 - CMB's (OpenGL's t = 0 is the image's bottom row). */
	nm_gltf_uv_transform(s, r, t, centre, true, offset, &rotation, scale);
	if (ch->path == NM_GLTF_UV_OFFSET)
		memcpy(out, offset, sizeof offset);
	else if (ch->path == NM_GLTF_UV_ROTATION)
		out[0] = rotation;
	else
		memcpy(out, scale, sizeof scale);
	return NM_OK;
}

/* One channel per path for each material a CMAB moves the base texture of. */
static void file_channels(const cmb_model *m, size_t f, nm_gltf_channel *chs, size_t *n)
{
	const ga_anim *a = anim_of(m, f);
	for (uint32_t i = 0; a->kind == GA_CMAB && i < a->ntargets; i++) {
		const ga_target *tg = &a->targets[i];
		if ((tg->type != 1 && tg->type != 3 && tg->type != 5) || !drives_base_texture(m, tg))
			continue;
		static const uint8_t uv[] = { NM_GLTF_UV_OFFSET, NM_GLTF_UV_ROTATION,
					      NM_GLTF_UV_SCALE };
		for (int k = 0; k < 3; k++) {
			nm_gltf_channel ch = { .path = uv[k], .index = tg->material,
					       .frames = frames_of(a), .key = KEY(f, i) };
			bool dup = false;
			for (size_t j = 0; j < *n && !dup; j++)
				dup = chs[j].path == ch.path && chs[j].index == ch.index;
			if (!dup)
				chs[(*n)++] = ch;
		}
	}
}

nm_status cmb_add_gltf_animated(nm_tree *t, nm_node *root, cmb_model *m,
				nm_gltf_model *g)
{
	const nm_pairs *an = &m->anims;
	size_t nb = m->nbones;
	struct anim_ctx *c = nm_tree_alloc(t, sizeof *c);
	struct clip *clips = nm_tree_alloc_array(t, an->n, sizeof *clips);
	nm_gltf_clip *gc = nm_tree_alloc_array(t, an->n, sizeof *gc);
	nm_gltf_clips *all = nm_tree_alloc(t, sizeof *all);
	nm_gltf_bone *bones = nm_tree_alloc_array(t, nb + 1, sizeof *bones);
	nm_gltf_rig *rig = nm_tree_alloc(t, sizeof *rig);
	nm_gltf_joint *joints = nm_tree_alloc_array(t, nb + 1, sizeof *joints);
	if (!c || !clips || !gc || !all || !bones || !rig || !joints)
		return NM_E_NOMEM;
	*c = (struct anim_ctx){ .m = m, .clips = clips };
	nm_pair_group *groups;
	if (nm_pairs_by_name(t, an, &groups, &c->nclips) != NM_OK)
		return NM_E_NOMEM;
	for (size_t k = 0; k < c->nclips; k++) {
		clips[k] = (struct clip){ .g = groups[k], .bones = -1 };
		for (size_t i = 0; i < groups[k].n && clips[k].bones < 0; i++)
			if (anim_of(m, groups[k].files[i])->kind == GA_CSAB)
				clips[k].bones = (int)groups[k].files[i];
	}
	for (size_t k = 0; k < c->nclips; k++) {
		struct clip *cl = &clips[k];
		size_t room = 0;
		for (size_t i = 0; i < cl->g.n; i++)
			room += 3 * anim_of(m, cl->g.files[i])->ntargets;
		nm_gltf_channel *chs = nm_tree_alloc_array(t, room ? room : 1, sizeof *chs);
		if (!chs)
			return NM_E_NOMEM;
		size_t n = 0;
		for (size_t i = 0; i < cl->g.n; i++)
			file_channels(m, cl->g.files[i], chs, &n);
		gc[k] = (nm_gltf_clip){ .name = an->taken[cl->g.files[0]].stem, .extra = chs,
					.nextra = n };
		if (cl->bones >= 0 && nb) {
			const ga_anim *a = anim_of(m, (size_t)cl->bones);
			uint32_t (*jf)[3] = nm_tree_alloc_array(t, nb, sizeof *jf);
			if (!jf)
				return NM_E_NOMEM;
			for (uint32_t j = 0; j < nb && j < a->nbones; j++)
				if (a->bone_table[j] >= 0)
					jf[j][0] = jf[j][1] = jf[j][2] = frames_of(a);
			gc[k].joint_frames = (const uint32_t (*)[3])jf;
		}
	}
	for (size_t i = 0; i < nb; i++) {
		const cmb_bone *b = &m->bones[i];
		bones[i] = (nm_gltf_bone){ .parent = b->parent_bad ? -1 : b->parent };
		memcpy(bones[i].s, b->scale, sizeof bones[i].s);
		memcpy(bones[i].r, b->rot, sizeof bones[i].r);
		memcpy(bones[i].t, b->trans, sizeof bones[i].t);
	}
	if (nm_gltf_rig_init(rig, t, NM_GLTF_RULE_BASIC, bones, nb) != NM_OK ||
	    nm_gltf_rig_joints(rig, joints) != NM_OK)
		return NM_E_NOMEM;
	for (size_t i = 0; i < nb; i++) {
		joints[i].name = g->joints[i].name;
		memcpy(joints[i].inverse_bind, g->joints[i].inverse_bind, sizeof joints[i].inverse_bind);
	}
	*all = (nm_gltf_clips){ .clips = gc, .n = c->nclips, .srt = sample_srt,
				.sample = sample_extra, .ctx = c };
	g->joints = joints;
	g->anim = nm_gltf_rig_anim(t, rig, all);
	return g->anim ? NM_OK : NM_E_NOMEM;
}
