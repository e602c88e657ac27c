/* Scaling rules as glTF nodes and channels (gltf_rig.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf_rig.h"
#include "lib/keyframes.h"
#include "lib/transform.h"

/* Equal within 1e-5, relative: exporters leave rest scales like (1, 0.99999994, 1),
 * whose rules differ from glTF's by less than a float's rounding of the result. */
static bool near(float a, float b)
{
	return fabsf(a - b) <= 1e-5f * fmaxf(fabsf(a), fabsf(b));
}

/* Its scale may be non-uniform at some frame. */
static bool odd(const nm_gltf_bone *b)
{
	return b->odd_scale || !near(b->s[0], b->s[1]) || !near(b->s[1], b->s[2]);
}

/* Its scale may be other than 1 at some frame. */
static bool scaled(const nm_gltf_bone *b)
{
	return b->odd_scale || !near(b->s[0], 1) || !near(b->s[1], 1) || !near(b->s[2], 1);
}

nm_status nm_gltf_rig_init(nm_gltf_rig *rig, nm_tree *t, enum nm_gltf_rule rule,
			   const nm_gltf_bone *bones, size_t n)
{
	memset(rig, 0, sizeof *rig);
	rig->rule = rule;
	rig->n = n;
	rig->bones = bones;
	rig->parent = nm_tree_alloc_array(t, n + 1, sizeof *rig->parent);
	rig->order = nm_tree_alloc_array(t, n + 1, sizeof *rig->order);
	rig->helper = nm_tree_alloc_array(t, n + 1, sizeof *rig->helper);
	uint8_t *state = calloc(n + 1, 1);
	/* Children lists to visit every joint after its parent, without recursion. */
	int32_t *first = calloc(n + 1, sizeof *first), *next = calloc(n + 1, sizeof *next);
	if (!rig->parent || !rig->order || !rig->helper || !state || !first || !next) {
		free(state);
		free(first);
		free(next);
		return NM_E_NOMEM;
	}
	for (size_t j = 0; j < n; j++)
		rig->parent[j] = bones[j].parent;
	nm_gltf_parents(rig->parent, n, state);
	free(state);
	for (size_t j = 0; j < n; j++)
		first[j] = -1;
	for (size_t j = n; j-- > 0;)
		if (rig->parent[j] >= 0) {
			next[j] = first[rig->parent[j]];
			first[rig->parent[j]] = (int32_t)j;
		}
	/* Breadth first from the roots: order itself is the queue. */
	size_t len = 0;
	for (size_t j = 0; j < n; j++)
		if (rig->parent[j] < 0)
			rig->order[len++] = (uint32_t)j;
	for (size_t k = 0; k < len; k++)
		for (int32_t c = first[rig->order[k]]; c >= 0; c = next[c])
			rig->order[len++] = (uint32_t)c;
	free(first);
	free(next);
	/* Helpers: Maya's scale-compensate joints under a scale that may be other than 1;
	 * Softimage's joints under a scale that may be non-uniform (an ancestor's: parents
	 * come first in order). Elsewhere the rules are glTF's. */
	bool *odd_above = calloc(n + 1, sizeof *odd_above);
	if (!odd_above)
		return NM_E_NOMEM;
	for (size_t k = 0; k < n; k++) {
		size_t j = rig->order[k];
		int32_t p = rig->parent[j];
		if (p >= 0)
			odd_above[j] = odd_above[p] || odd(&bones[p]);
		rig->helper[j] = p >= 0 && ((rule == NM_GLTF_RULE_MAYA && bones[j].compensate &&
					     scaled(&bones[p])) ||
					    (rule == NM_GLTF_RULE_SOFTIMAGE && odd_above[j]));
	}
	free(odd_above);
	return NM_OK;
}

/* ---- the game's world matrices ------------------------------------------------------ */

/* 3x4 affine product. */
static void mul(const double *a, const double *b, double *out)
{
	double r[12];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			r[i * 4 + j] = a[i * 4] * b[j] + a[i * 4 + 1] * b[4 + j] +
				       a[i * 4 + 2] * b[8 + j] + (j == 3 ? a[i * 4 + 3] : 0);
	memcpy(out, r, sizeof r);
}

/* T * R (* S when s is not NULL) as a 3x4 matrix. */
static void local(const float *s, const float r[3], const double t[3], double out[12])
{
	static const float one[3] = { 1, 1, 1 };
	const double rot[3] = { r[0], r[1], r[2] };
	const float tf[3] = { 0, 0, 0 };
	nm_transform_trs(s ? s : one, rot, tf, out);
	for (int i = 0; i < 3; i++)
		out[i * 4 + 3] = t[i];
}

void nm_gltf_rig_worlds(const nm_gltf_rig *rig, const float (*srt)[9], double (*world)[12])
{
	/* Softimage keeps, per joint, the unscaled chain (in world) and the scale product. */
	for (size_t k = 0; k < rig->n; k++) {
		size_t j = rig->order[k];
		int32_t p = rig->parent[j];
		const float *s = srt[j], *r = srt[j] + 3, *tf = srt[j] + 6;
		double t[3] = { tf[0], tf[1], tf[2] }, l[12];
		if (rig->rule == NM_GLTF_RULE_SOFTIMAGE) {
			/* world[j] here is the chain; the scale is applied in a second pass. */
			double sp[3] = { 1, 1, 1 };
			for (int32_t a = p; a >= 0; a = rig->parent[a])
				for (int c = 0; c < 3; c++)
					sp[c] *= srt[a][c];
			for (int c = 0; c < 3; c++)
				t[c] *= sp[c];
			local(NULL, r, t, l);
		} else {
			local(s, r, t, l);
			/* A zero parent scale (a damaged file's) has no inverse: nothing is
			 * undone on that axis. */
			if (rig->rule == NM_GLTF_RULE_MAYA && rig->bones[j].compensate && p >= 0)
				for (int i = 0; i < 3; i++)
					for (int c = 0; c < 3 && srt[p][i] != 0; c++)
						l[i * 4 + c] /= srt[p][i];
		}
		if (p >= 0)
			mul(world[p], l, world[j]);
		else
			memcpy(world[j], l, sizeof l);
	}
	if (rig->rule != NM_GLTF_RULE_SOFTIMAGE)
		return;
	/* Every chain is known: now each joint's world = its chain * diag(the product of
	 * its own and its ancestors' scales). */
	for (size_t j = 0; j < rig->n; j++) {
		double sc[3] = { 1, 1, 1 };
		for (int32_t a = (int32_t)j; a >= 0; a = rig->parent[a])
			for (int c = 0; c < 3; c++)
				sc[c] *= srt[a][c];
		for (int i = 0; i < 3; i++)
			for (int c = 0; c < 3; c++)
				world[j][i * 4 + c] *= sc[c];
	}
}

/* A helper's scale, 1 / the scale it undoes: a zero scale (a damaged file's) has none,
 * and infinity is what the glb writer then replaces by the default. */
static float inverse(double v)
{
	return v != 0 ? nm_float_sat(1 / v) : INFINITY;
}

nm_status nm_gltf_rig_joints(const nm_gltf_rig *rig, nm_gltf_joint *joints)
{
	float (*srt)[9] = calloc(rig->n + 1, sizeof *srt);
	double (*world)[12] = calloc(rig->n + 1, sizeof *world);
	if (!srt || !world) {
		free(srt);
		free(world);
		return NM_E_NOMEM;
	}
	for (size_t j = 0; j < rig->n; j++) {
		memcpy(srt[j], rig->bones[j].s, 3 * sizeof(float));
		memcpy(srt[j] + 3, rig->bones[j].r, 3 * sizeof(float));
		memcpy(srt[j] + 6, rig->bones[j].t, 3 * sizeof(float));
	}
	nm_gltf_rig_worlds(rig, (const float (*)[9])srt, world);
	for (size_t j = 0; j < rig->n; j++) {
		const nm_gltf_bone *b = &rig->bones[j];
		nm_gltf_joint *g = &joints[j];
		int32_t p = rig->parent[j];
		g->parent = p;
		nm_gltf_euler_quat(b->r, g->r);
		memcpy(g->s, b->s, sizeof g->s);
		memcpy(g->t, b->t, sizeof g->t);
		g->helper = rig->helper[j];
		if (g->helper) {
			memcpy(g->helper_t, b->t, sizeof g->helper_t);
			memset(g->t, 0, sizeof g->t);
			double sa[3] = { 1, 1, 1 };
			if (rig->rule == NM_GLTF_RULE_MAYA)
				for (int c = 0; c < 3; c++)
					sa[c] = rig->bones[p].s[c];
			else
				for (int32_t a = p; a >= 0; a = rig->parent[a])
					for (int c = 0; c < 3; c++)
						sa[c] *= rig->bones[a].s[c];
			for (int c = 0; c < 3; c++) {
				g->helper_s[c] = inverse(sa[c]);
				if (rig->rule == NM_GLTF_RULE_SOFTIMAGE)
					g->s[c] = nm_float_sat(sa[c] * b->s[c]);
			}
		}
		float rows[12];
		for (int k = 0; k < 12; k++)
			rows[k] = nm_float_sat(world[j][k]);
		nm_gltf_inverse_bind(rows, g->inverse_bind);
	}
	free(srt);
	free(world);
	return NM_OK;
}

/* ---- animations ---------------------------------------------------------------------- */

/* What a rig channel's key says: the joint and which of its values. */
enum { KEY_T, KEY_R, KEY_S, KEY_HELPER_T, KEY_HELPER_S };
#define KEY(joint, what) ((uint32_t)(joint) * 8 + (what))

typedef struct rig_anim {
	const nm_gltf_rig *rig;
	const nm_gltf_clips *clips;
	nm_gltf_anim anim;
} rig_anim;

/* A joint's part at a frame: the clip's when it animates that part (its last frame
 * past its end), else the rest pose. */
static nm_status part(const rig_anim *ra, size_t anim, size_t j, enum nm_gltf_part w,
		      uint32_t frame, float out[3], nm_error *err)
{
	const nm_gltf_clip *c = &ra->clips->clips[anim];
	uint32_t n = c->joint_frames ? c->joint_frames[j][w] : 0;
	if (n)
		return ra->clips->srt(ra->clips->ctx, anim, j, w, frame < n ? frame : n - 1,
				      out, err);
	const nm_gltf_bone *b = &ra->rig->bones[j];
	memcpy(out, w == NM_GLTF_PART_S ? b->s : w == NM_GLTF_PART_R ? b->r : b->t,
	       3 * sizeof *out);
	return NM_OK;
}

/* The product of the scales of joint a and its ancestors (none: a < 0). */
static nm_status scale_product(const rig_anim *ra, size_t anim, int32_t a, uint32_t frame,
			       double out[3], nm_error *err)
{
	out[0] = out[1] = out[2] = 1;
	for (; a >= 0; a = ra->rig->parent[a]) {
		float s[3];
		nm_status st = part(ra, anim, (size_t)a, NM_GLTF_PART_S, frame, s, err);
		if (st != NM_OK)
			return st;
		for (int c = 0; c < 3; c++)
			out[c] *= s[c];
	}
	return NM_OK;
}

static nm_status rig_sample(void *ctx, size_t anim, const nm_gltf_channel *ch, uint32_t frame,
			    float out[4], nm_error *err)
{
	const rig_anim *ra = ctx;
	bool ours = ch->path <= NM_GLTF_SCALE && (ch->node_kind == NM_GLTF_NODE_JOINT ||
						   ch->node_kind == NM_GLTF_NODE_HELPER);
	if (!ours)
		return ra->clips->sample(ra->clips->ctx, anim, ch, frame, out, err);
	const nm_gltf_rig *rig = ra->rig;
	size_t j = ch->key / 8;
	int32_t p = rig->parent[j];
	float v[3];
	double sa[3];
	nm_status s;
	switch (ch->key % 8) {
	case KEY_T:
	case KEY_HELPER_T:
		return part(ra, anim, j, NM_GLTF_PART_T, frame, out, err);
	case KEY_R:
		if ((s = part(ra, anim, j, NM_GLTF_PART_R, frame, v, err)) == NM_OK)
			nm_gltf_euler_quat(v, out);
		return s;
	case KEY_S:
		if ((s = part(ra, anim, j, NM_GLTF_PART_S, frame, out, err)) != NM_OK ||
		    !(rig->helper[j] && rig->rule == NM_GLTF_RULE_SOFTIMAGE))
			return s;
		/* Softimage under a helper: the whole product of scales. */
		if ((s = scale_product(ra, anim, p, frame, sa, err)) == NM_OK)
			for (int c = 0; c < 3; c++)
				out[c] = nm_float_sat(out[c] * sa[c]);
		return s;
	default: /* KEY_HELPER_S: undoes the parent's own scale (Maya) or the product (Softimage) */
		if (rig->rule == NM_GLTF_RULE_MAYA) {
			s = part(ra, anim, (size_t)p, NM_GLTF_PART_S, frame, v, err);
			for (int c = 0; c < 3; c++)
				sa[c] = v[c];
		} else {
			s = scale_product(ra, anim, p, frame, sa, err);
		}
		for (int c = 0; c < 3 && s == NM_OK; c++)
			out[c] = inverse(sa[c]);
		return s;
	}
}

static nm_status rig_begin(void *ctx, size_t anim, const nm_options *opt, nm_error *err)
{
	const rig_anim *ra = ctx;
	return ra->clips->begin ? ra->clips->begin(ra->clips->ctx, anim, opt, err) : NM_OK;
}

static void rig_end(void *ctx, size_t anim)
{
	const rig_anim *ra = ctx;
	if (ra->clips->end)
		ra->clips->end(ra->clips->ctx, anim);
}

static uint32_t max3(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/* The most frames of the scales of joint a and its ancestors. */
static uint32_t scale_frames(const nm_gltf_rig *rig, const nm_gltf_clip *c, int32_t a)
{
	uint32_t n = 0;
	for (; a >= 0 && c->joint_frames; a = rig->parent[a])
		n = max3(n, c->joint_frames[a][NM_GLTF_PART_S]);
	return n;
}

/* The channels of one clip (out NULL: only counted). */
static size_t clip_channels(const nm_gltf_rig *rig, const nm_gltf_clip *c, nm_gltf_channel *out)
{
	size_t n = 0;
	for (size_t j = 0; j < rig->n && c->joint_frames; j++) {
		const uint32_t *f = c->joint_frames[j];
		int32_t p = rig->parent[j];
		bool h = rig->helper[j], soft = rig->rule == NM_GLTF_RULE_SOFTIMAGE;
		uint32_t frames[5] = {
			[KEY_T] = h ? 0 : f[NM_GLTF_PART_T],
			[KEY_R] = f[NM_GLTF_PART_R],
			[KEY_S] = h && soft ? scale_frames(rig, c, (int32_t)j) : f[NM_GLTF_PART_S],
			[KEY_HELPER_T] = h ? f[NM_GLTF_PART_T] : 0,
			[KEY_HELPER_S] = !h ? 0 : soft ? scale_frames(rig, c, p)
						  : c->joint_frames[p][NM_GLTF_PART_S],
		};
		static const uint8_t path[5] = { NM_GLTF_TRANSLATION, NM_GLTF_ROTATION,
						 NM_GLTF_SCALE, NM_GLTF_TRANSLATION, NM_GLTF_SCALE };
		for (int k = 0; k < 5; k++) {
			if (!frames[k])
				continue;
			if (out)
				out[n] = (nm_gltf_channel){
					.path = path[k], .index = (uint32_t)j, .frames = frames[k],
					.key = KEY(j, k),
					.node_kind = k >= KEY_HELPER_T ? NM_GLTF_NODE_HELPER
								      : NM_GLTF_NODE_JOINT };
			n++;
		}
	}
	for (size_t k = 0; k < c->nextra; k++)
		if (out)
			out[n++] = c->extra[k];
		else
			n++;
	return n;
}

const nm_gltf_anim *nm_gltf_rig_anim(nm_tree *t, const nm_gltf_rig *rig,
				     const nm_gltf_clips *clips)
{
	rig_anim *ra = nm_tree_alloc(t, sizeof *ra);
	nm_gltf_animation *anims = nm_tree_alloc_array(t, clips->n + 1, sizeof *anims);
	if (!ra || !anims)
		return NULL;
	for (size_t k = 0; k < clips->n; k++) {
		const nm_gltf_clip *c = &clips->clips[k];
		size_t n = clip_channels(rig, c, NULL);
		nm_gltf_channel *ch = nm_tree_alloc_array(t, n + 1, sizeof *ch);
		if (!ch)
			return NULL;
		clip_channels(rig, c, ch);
		anims[k] = (nm_gltf_animation){ .name = c->name, .fps = c->fps, .channels = ch,
						.nchannels = n };
	}
	*ra = (rig_anim){ .rig = rig, .clips = clips };
	ra->anim = (nm_gltf_anim){ .anims = anims, .nanims = clips->n, .sample = rig_sample,
				   .begin = rig_begin, .end = rig_end, .ctx = ra };
	return &ra->anim;
}
