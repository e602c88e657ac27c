/* Animations in model.glb (gltf.h), described at mount from counts only and sampled
 * while the glb is produced.
 *
 * A driver lists glTF animations, each a list of channels: a node's translation,
 * rotation or scale (the core glTF targets), a material's base colour or its base-colour
 * texture's KHR_texture_transform offset, rotation or scale, and a node's
 * KHR_node_visibility flag (the last four through KHR_animation_pointer). A channel has
 * one sample per frame 0 .. frames - 1 at time frame / fps (1 frame: a constant), and
 * sample() gives the value at a frame when the glb is produced: nothing is sampled at
 * mount, and the glb's size follows from channels x frames x components.
 *
 * How it is written (gltf_anim.c): one time accessor per distinct (frames, fps), shared
 * by every channel of that length; one output accessor per channel; all of them after
 * the model's own, their bytes at the end of the BIN chunk, each 4-byte aligned.
 * Rotations are unit quaternions kept on one hemisphere from frame to frame (so LINEAR
 * turns the short way between samples); colours are clamped to 0..1; a value that is
 * not finite becomes the property's default. Visibility is STEP with unsigned bytes
 * 0/1 (KHR_animation_pointer: a bool property takes unsigned byte, STEP); everything
 * else is LINEAR unless the channel asks for STEP.
 *
 * A channel that cannot be written is left out, the same way at mount and on read: a
 * node that does not exist (a joint past the skeleton, a helper a joint does not have,
 * a group without a mesh of its own), a material past the list, a texture transform on
 * a material without a base-colour texture in the glb, 0 frames. An animation left
 * with no channel is left out. Two channels of one animation must not target the same
 * property (glTF forbids it; the driver's lists are trusted for that). */
#ifndef NM_GLTF_ANIM_H
#define NM_GLTF_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/options.h"

enum nm_gltf_path {
	NM_GLTF_TRANSLATION,       /* node: VEC3 */
	NM_GLTF_ROTATION,          /* node: quaternion x y z w */
	NM_GLTF_SCALE,             /* node: VEC3 */
	NM_GLTF_BASE_COLOR,        /* material: baseColorFactor, RGBA 0..1 */
	NM_GLTF_UV_OFFSET,         /* material's base-colour texture: VEC2 */
	NM_GLTF_UV_ROTATION,       /* SCALAR, radians */
	NM_GLTF_UV_SCALE,          /* VEC2 */
	NM_GLTF_VISIBLE,           /* node: 0 hidden, anything else visible */
	NM_GLTF_NPATHS
};

/* Which node a node channel names by index. */
enum nm_gltf_node_kind {
	NM_GLTF_NODE_JOINT,        /* joint index (node k = joint k) */
	NM_GLTF_NODE_HELPER,       /* the helper node above joint index (nm_gltf_joint.helper) */
	NM_GLTF_NODE_GROUP         /* the node of the mesh of group index (a group that owns
				    * its vertices: one glTF mesh per such group) */
};

typedef struct nm_gltf_channel {
	uint8_t path;              /* enum nm_gltf_path */
	uint8_t node_kind;         /* enum nm_gltf_node_kind, for node paths */
	bool step;                 /* STEP instead of LINEAR (visibility is always STEP) */
	uint32_t index;            /* joint, group or material */
	uint32_t frames;           /* samples at frames 0 .. frames - 1; 1: a constant */
	uint32_t key;              /* the driver's own: which track this is */
} nm_gltf_channel;

typedef struct nm_gltf_animation {
	const char *name;          /* any bytes: written as JSON-safe ASCII */
	float fps;                 /* frames per second; not above 0 or not finite: 30 */
	const nm_gltf_channel *channels;
	size_t nchannels;
} nm_gltf_animation;

/* The value of channel ch of animation anim at frame (0 .. ch->frames - 1), in out[0..]:
 * 3, 4, 3, 4, 2, 1, 2 or 1 numbers by path. Runs while the glb is produced. */
typedef nm_status (*nm_gltf_sample_fn)(void *ctx, size_t anim, const nm_gltf_channel *ch,
				      uint32_t frame, float out[4], nm_error *err);
/* Optional: before the first and after the last sample of one animation (a driver loads
 * that animation's keys under opt's limits, then frees them). end runs after every
 * begin that succeeded. */
typedef nm_status (*nm_gltf_anim_begin_fn)(void *ctx, size_t anim, const nm_options *opt,
					   nm_error *err);
typedef void (*nm_gltf_anim_end_fn)(void *ctx, size_t anim);

typedef struct nm_gltf_anim {
	const nm_gltf_animation *anims;
	size_t nanims;
	nm_gltf_sample_fn sample;
	nm_gltf_anim_begin_fn begin;
	nm_gltf_anim_end_fn end;
	void *ctx;
} nm_gltf_anim;

/* A texture matrix given as scale, rotation (radians) and translation about a center,
 * uv' = S * R(r) * (uv - C) + C + T with R(r) = [[cos, -sin], [sin, cos]] (J3D's basic
 * texture matrix, FORMATS.md 10.4; Grezzo's with C = 0), as KHR_texture_transform's
 * offset, rotation and scale (uv' = T(offset) * R(rotation) * S(scale) * uv). flip_v: the
 * glb's coordinates are (s, 1 - t) of the game's (J3D's mesh.obj and model.glb), so the
 * matrix is conjugated by that flip. Exact when r = 0 or Sx = Sy (glTF scales after it
 * rotates, the game before); otherwise the rotation and scale are the game's and only
 * the offset is exact for the texture's center. */
void nm_gltf_uv_transform(const float s[2], float r, const float t[2], const float c[2],
			  bool flip_v, float offset[2], float *rotation, float scale[2]);

/* Components of a path's values (VISIBLE: 1). */
unsigned nm_gltf_path_components(enum nm_gltf_path path);
/* A channel's frames-per-second as written: fps, or 30. */
float nm_gltf_anim_fps(const nm_gltf_animation *a);

#endif
