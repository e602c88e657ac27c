/* Skeletons whose joints compose by a game's scaling rule, as glTF nodes (gltf.h) and
 * node animation channels (gltf_anim.h), such that every joint's world transform in
 * the glb is the game's, at rest and at every frame.
 *
 * The rules are J3D's (FORMATS.md 10.14, J3DJoint.cpp), with a joint's local
 * L = T * R * S (R = Rz * Ry * Rx) and its parent's world P:
 *  - basic: world = P * L. glTF's own rule: one node per joint.
 *  - Maya: the same, except that a scale-compensate joint divides by its parent's own
 *    (local) scale Sp: world = P * T * diag(1/Sp) * R * S. When Sp may be other than 1
 *    (at rest, or in an animation: the parent's nm_gltf_bone.odd_scale), the joint gets
 *    a helper node between it and its parent, translation T and scale 1/Sp (animated
 *    when the parent's scale is); the joint node keeps R and S, translation 0.
 *  - Softimage: translations are scaled by the product Sa of the ancestors' scales and
 *    the rotations and translations compose without scale, the joint's own world is
 *    that chain times diag(Sa * S). That is P * T * R * S whenever Sa is uniform; when it
 *    may not be (an ancestor's scale is non-uniform at rest or, as the driver says,
 *    in some animation: nm_gltf_bone.odd_scale), the joint gets a helper with
 *    translation T and scale 1/Sa and keeps R with scale Sa * S: P * T * diag(1/Sa) *
 *    R * diag(Sa * S) is then exactly the game's world (P = the chain * diag(Sa)).
 * Helpers change no joint's world, so inverse binds and skins are as without them.
 *
 * A driver describes its joints at rest (nm_gltf_bone) and, per animation, which parts
 * of which joints it animates and over how many frames (nm_gltf_clip); the game's
 * local scale, rotation and translation of a joint at a frame come from a callback at
 * produce time. The rig turns them into the nodes' and helpers' channels; the
 * driver's other channels (materials, visibility) ride along unchanged. */
#ifndef NM_GLTF_RIG_H
#define NM_GLTF_RIG_H

#include "export/gltf.h"
#include "lib/tree.h"

enum nm_gltf_rule { NM_GLTF_RULE_BASIC, NM_GLTF_RULE_SOFTIMAGE, NM_GLTF_RULE_MAYA };
enum nm_gltf_part { NM_GLTF_PART_S, NM_GLTF_PART_R, NM_GLTF_PART_T };

typedef struct nm_gltf_bone {
	int32_t parent;            /* -1: a root (out of range or a loop: a root) */
	bool compensate;           /* Maya: ignores its parent's scale */
	/* Some animation may set its scale to values not known at mount (J3D: a scale
	 * track): non-uniform ones matter under Softimage, any but 1 under Maya. */
	bool odd_scale;
	float s[3], r[3], t[3];    /* at rest: scale, rotation (radians about X, Y, Z), translation */
} nm_gltf_bone;

typedef struct nm_gltf_rig {
	enum nm_gltf_rule rule;
	size_t n;
	const nm_gltf_bone *bones;
	int32_t *parent;           /* as the glb writes it (nm_gltf_parents) */
	uint32_t *order;           /* every joint after its parent */
	bool *helper;
} nm_gltf_rig;

/* The rig of n bones (which must live as long as the tree), its arrays in the tree's
 * arena. NM_E_NOMEM. */
nm_status nm_gltf_rig_init(nm_gltf_rig *rig, nm_tree *t, enum nm_gltf_rule rule,
			   const nm_gltf_bone *bones, size_t n);
/* The game's world matrices (3x4 row-major) of every joint from each one's local
 * srt[j] = { sx, sy, sz, rx, ry, rz, tx, ty, tz } under the rig's rule. */
void nm_gltf_rig_worlds(const nm_gltf_rig *rig, const float (*srt)[9], double (*world)[12]);
/* Fills each joint's node TRS, helper and inverse bind (the inverse of its world at
 * rest); names are the driver's. joints has rig->n entries. NM_E_NOMEM (scratch from
 * malloc: n is a count the driver already holds records for). */
nm_status nm_gltf_rig_joints(const nm_gltf_rig *rig, nm_gltf_joint *joints);

/* The game's local scale, rotation (radians about X, Y, Z) or translation of a joint
 * at a frame of an animation; asked only for the parts the clip animates, at frames
 * 0 .. that part's frames - 1. */
typedef nm_status (*nm_gltf_srt_fn)(void *ctx, size_t anim, size_t joint,
				    enum nm_gltf_part part, uint32_t frame, float out[3],
				    nm_error *err);

typedef struct nm_gltf_clip {
	const char *name;
	float fps;                 /* 0: 30 */
	/* Per joint (rig->n rows, or NULL: no joint animated): how many frames its scale,
	 * rotation and translation are sampled at (0: not animated, the rest pose stays;
	 * 1: a constant). A part the game sets in this animation, even to a constant, is
	 * animated: J3D's count-0 tracks mean scale 1, rotation 0, translation 0. */
	const uint32_t (*joint_frames)[3];
	/* The driver's own channels (materials, visibility): not joint or helper TRS. */
	const nm_gltf_channel *extra;
	size_t nextra;
} nm_gltf_clip;

typedef struct nm_gltf_clips {
	const nm_gltf_clip *clips;
	size_t n;
	nm_gltf_srt_fn srt;
	nm_gltf_sample_fn sample;  /* the extra channels */
	nm_gltf_anim_begin_fn begin;
	nm_gltf_anim_end_fn end;
	void *ctx;
} nm_gltf_clips;

/* The animation description (in the tree's arena) that writes clips over the rig, for
 * nm_gltf_model.anim. Both rig and clips must live as long as the tree. NULL: out of
 * memory. */
const nm_gltf_anim *nm_gltf_rig_anim(nm_tree *t, const nm_gltf_rig *rig,
				     const nm_gltf_clips *clips);

#endif
