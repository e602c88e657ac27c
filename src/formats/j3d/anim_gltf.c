/* A model's animations in its model.glb (doc/j3danim.md, "In model.glb"): one glTF
 * animation per name (the file name without its extension: In.bck, In.brk and In.btk
 * are one action in the games), over the joints by export/gltf_rig.h and, through
 * KHR_animation_pointer, on what the glb's materials and nodes show: BPK drives the
 * material colour the glb's baseColorFactor is, BTK the texture matrix of the glb's
 * base-colour texture, BVA the shapes' visibility. BRK (TEV registers), BTP (texture
 * swaps) and BLK/BLA have no glTF form here and stay in the tree. Every value is the
 * game's at each frame (j3danim_sample*), one sample per frame, LINEAR. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf_anim.h"
#include "export/gltf_rig.h"
#include "formats/j3d/j3d.h"
#include "formats/j3danim/j3danim.h"
#include "lib/alloc.h"

/* One glTF animation: the files of one name, and the BCK/BCA among them (-1: none). */
struct clip {
	nm_pair_group g;
	int joints;
};

struct anim_ctx {
	j3d_model *m;
	struct clip *clips;
	size_t nclips;
	nm_key **keys;            /* per file taken: its keys while the glb is produced */
};

static const j3danim *anim_of(const j3d_model *m, size_t f)
{
	return m->anims.taken[f].anim;
}

/* An extra channel's key: which file and which of its targets. */
#define KEY(file, target) ((uint32_t)(file) << 16 | (uint32_t)(target))
#define KEY_FILE(k) ((k) >> 16)
#define KEY_TARGET(k) ((k) & 0xFFFF)

/* Samples of a channel: frames 0 .. duration, so that the clip lasts duration / 30 s
 * (FORMATS.md 10.13; a repeating animation's last sample is where it wraps). */
static uint32_t frames_of(const struct j3danim *a)
{
	return a->duration > 0 ? (uint32_t)a->duration + 1 : 1;
}

static int material_named(const j3d_model *m, const char *name)
{
	for (size_t i = 0; name && m->mat3 && i < m->mat3->count; i++)
		if (m->mat3->mats[i].name && strcmp(m->mat3->mats[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The glb group that draws shape s, or -1. */
static int group_of_shape(const j3d_model *m, uint32_t s)
{
	const nm_obj_model *om = j3d_mesh_groups(m);
	for (size_t k = 0; om && k < om->ngroups; k++)
		if (j3d_group_shape(m, k)->index == s)
			return (int)k;
	return -1;
}

static bool same_channel(const nm_gltf_channel *a, const nm_gltf_channel *b)
{
	return a->path == b->path && a->node_kind == b->node_kind && a->index == b->index;
}

/* Appends ch unless the clip already drives that property (glTF allows one channel a
 * property; the first file of the stem wins). */
static void add_channel(nm_gltf_channel *chs, size_t *n, nm_gltf_channel ch)
{
	for (size_t i = 0; i < *n; i++)
		if (same_channel(&chs[i], &ch))
			return;
	chs[(*n)++] = ch;
}

/* The channels file f adds to a clip; chs has room for 3 per target. */
static void file_channels(const j3d_model *m, size_t f, nm_gltf_channel *chs, size_t *n)
{
	const struct j3danim *a = anim_of(m, f);
	uint32_t frames = frames_of(a);
	for (size_t i = 0; i < a->ntargets; i++) {
		const j3danim_target *tg = &a->targets[i];
		if (tg->problem)
			continue;
		int mat = material_named(m, tg->name);
		nm_gltf_channel ch = { .index = (uint32_t)mat, .frames = frames,
				       .key = KEY(f, i) };
		if (a->kind == J3DANIM_BPK && mat >= 0) {
			ch.path = NM_GLTF_BASE_COLOR;
			add_channel(chs, n, ch);
		} else if (a->kind == J3DANIM_BTK && mat >= 0 && !tg->post &&
			   m->mat3->mats[mat].texture_mtx == tg->slot) {
			static const uint8_t uv[] = { NM_GLTF_UV_OFFSET, NM_GLTF_UV_ROTATION,
						      NM_GLTF_UV_SCALE };
			for (int k = 0; k < 3; k++) {
				ch.path = uv[k];
				add_channel(chs, n, ch);
			}
		} else if (a->kind == J3DANIM_BVA) {
			int g = group_of_shape(m, tg->index);
			if (g >= 0)
				add_channel(chs, n, (nm_gltf_channel){
					.path = NM_GLTF_VISIBLE, .node_kind = NM_GLTF_NODE_GROUP,
					.step = true, .index = (uint32_t)g, .frames = frames,
					.key = KEY(f, i) });
		}
	}
}

/* ---- sampling, while the glb is produced ---- */

static const j3danim_track *track_named(const j3danim_target *tg, const char *name)
{
	for (size_t i = 0; i < tg->ntracks; i++)
		if (strcmp(tg->tracks[i].name, name) == 0)
			return &tg->tracks[i];
	return NULL;
}

static double sample_named(const struct j3danim *a, const j3danim_target *tg,
			   const char *name, float frame, double rest)
{
	const j3danim_track *tr = track_named(tg, name);
	return tr ? j3danim_sample(a, tr, tr->keys, frame) : rest;
}

static nm_status sample_srt(void *ctx, size_t anim, size_t joint, enum nm_gltf_part part,
			    uint32_t frame, float out[3], nm_error *err)
{
	(void)err;
	const struct anim_ctx *c = ctx;
	const j3danim *a = anim_of(c->m, (size_t)c->clips[anim].joints);
	j3danim_trs trs;
	j3danim_sample_joint(a, &a->targets[joint], (float)frame, &trs);
	for (int k = 0; k < 3; k++)
		out[k] = part == NM_GLTF_PART_S ? trs.scale[k]
		       : part == NM_GLTF_PART_T ? trs.translation[k]
					       : (float)j3d_angle_radians(trs.angle[k]);
	return NM_OK;
}

static nm_status sample_extra(void *ctx, size_t anim, const nm_gltf_channel *ch,
			      uint32_t frame, float out[4], nm_error *err)
{
	(void)anim;
	(void)err;
	const struct anim_ctx *c = ctx;
	const struct j3danim *a = anim_of(c->m, KEY_FILE(ch->key));
	const j3danim_target *tg = &a->targets[KEY_TARGET(ch->key)];
	float fr = (float)frame;
	if (ch->path == NM_GLTF_BASE_COLOR) {
		static const char *const rgba[] = { "red", "green", "blue", "alpha" };
		for (int k = 0; k < 4; k++)
			out[k] = (float)(sample_named(a, tg, rgba[k], fr, 0) / 255.0);
	} else if (ch->path == NM_GLTF_VISIBLE) {
		out[0] = sample_named(a, tg, "visible", fr, 1) != 0;
	} else {
		/* The game's texture matrix from the five tracks it samples (10.4). */
		float s[2] = { (float)sample_named(a, tg, "scale_s", fr, 1),
			       (float)sample_named(a, tg, "scale_t", fr, 1) };
		float t[2] = { (float)sample_named(a, tg, "translation_s", fr, 0),
			       (float)sample_named(a, tg, "translation_t", fr, 0) };
		float r = (float)(sample_named(a, tg, "rotation_q", fr, 0) * M_PI / 180.0);
		float offset[2], rotation, scale[2];
		nm_gltf_uv_transform(s, r, t, tg->center, false, offset, &rotation, scale);
		if (ch->path == NM_GLTF_UV_OFFSET)
			memcpy(out, offset, sizeof offset);
		else if (ch->path == NM_GLTF_UV_ROTATION)
			out[0] = rotation;
		else
			memcpy(out, scale, sizeof scale);
	}
	return NM_OK;
}

/* A clip's keys hang off its files' tracks (j3danim_track.keys) while it is sampled,
 * and a file may be sampled by two productions at once: a model's glb made whole ahead
 * while a range of it is read, two models of an archive that share its animations.
 * One clip is sampled at a time, begin_clip to end_clip, so no production frees the
 * keys another is reading. Sampling reads only memory: nothing waits while holding it. */
static pthread_mutex_t keys_in_use = PTHREAD_MUTEX_INITIALIZER;

/* Keys of one clip's files, read for its samples and freed after them. */
static void end_clip(void *ctx, size_t anim)
{
	const struct anim_ctx *c = ctx;
	for (size_t i = 0; i < c->clips[anim].g.n; i++) {
		size_t f = c->clips[anim].g.files[i];
		j3danim *a = c->m->anims.taken[f].anim;
		for (size_t t = 0; t < a->ntargets; t++)
			for (size_t k = 0; k < a->targets[t].ntracks; k++)
				a->targets[t].tracks[k].keys = NULL;
		free(c->keys[f]);
		c->keys[f] = NULL;
	}
	pthread_mutex_unlock(&keys_in_use);
}

static nm_status begin_clip(void *ctx, size_t anim, const nm_options *opt, nm_error *err)
{
	const struct anim_ctx *c = ctx;
	nm_status s = NM_OK;
	pthread_mutex_lock(&keys_in_use);
	for (size_t i = 0; s == NM_OK && i < c->clips[anim].g.n; i++) {
		size_t f = c->clips[anim].g.files[i];
		j3danim *a = c->m->anims.taken[f].anim;
		nm_key *next = c->keys[f] = nm_alloc(opt, a->keys_total ? a->keys_total : 1,
						     sizeof *next, err, a->file, a->block_magic,
						     a->block_off);
		if (!next) {
			s = err->code;
			break;
		}
		for (size_t t = 0; s == NM_OK && t < a->ntargets; t++)
			for (size_t k = 0; s == NM_OK && !a->targets[t].problem &&
					   k < a->targets[t].ntracks; k++) {
				j3danim_track *tr = &a->targets[t].tracks[k];
				s = j3danim_track_keys(c->m->anims.taken[f].r, a, tr, next, err);
				tr->keys = next;
				next += tr->count;
			}
	}
	if (s != NM_OK)
		end_clip(ctx, anim);
	return s;
}

/* ---- the clips, at the model's build ---- */

static bool joint_kind(const struct j3danim *a)
{
	return a->kind == J3DANIM_BCK || a->kind == J3DANIM_BCA;
}

nm_status j3d_add_gltf_animated(nm_tree *t, nm_node *root, j3d_model *m)
{
	nm_pairs *an = &m->anims;
	if (!an->n)
		return j3d_add_gltf(t, root, m);
	size_t njoints = m->jnt1 ? m->jnt1->count : 0;
	struct anim_ctx *c = nm_tree_alloc(t, sizeof *c);
	struct clip *clips = nm_tree_alloc_array(t, an->n, sizeof *clips);
	nm_key **keys = nm_tree_alloc_array(t, an->n, sizeof *keys);
	nm_gltf_clip *gc = nm_tree_alloc_array(t, an->n, sizeof *gc);
	nm_gltf_clips *all = nm_tree_alloc(t, sizeof *all);
	if (!c || !clips || !keys || !gc || !all)
		return NM_E_NOMEM;
	*c = (struct anim_ctx){ .m = m, .clips = clips, .keys = keys };
	nm_pair_group *groups;
	if (nm_pairs_by_name(t, an, &groups, &c->nclips) != NM_OK)
		return NM_E_NOMEM;
	for (size_t k = 0; k < c->nclips; k++) {
		clips[k] = (struct clip){ .g = groups[k], .joints = -1 };
		for (size_t i = 0; i < groups[k].n && clips[k].joints < 0; i++)
			if (joint_kind(anim_of(m, groups[k].files[i])))
				clips[k].joints = (int)groups[k].files[i];
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
		if (cl->joints >= 0 && njoints) {
			/* Joints past a shorter table keep their bind pose (10.10). */
			const struct j3danim *a = anim_of(m, (size_t)cl->joints);
			uint32_t (*jf)[3] = nm_tree_alloc_array(t, njoints, sizeof *jf);
			if (!jf)
				return NM_E_NOMEM;
			for (size_t j = 0; j < njoints && j < a->ntargets; j++)
				if (!a->targets[j].problem)
					jf[j][0] = jf[j][1] = jf[j][2] = frames_of(a);
			gc[k].joint_frames = (const uint32_t (*)[3])jf;
		}
	}
	*all = (nm_gltf_clips){ .clips = gc, .n = c->nclips, .srt = sample_srt,
				.sample = sample_extra, .begin = begin_clip, .end = end_clip,
				.ctx = c };
	return j3d_add_gltf_clips(t, root, m, all, NULL);
}
