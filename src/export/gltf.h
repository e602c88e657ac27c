/* model.glb: binary glTF 2.0 (the Khronos specification, "GLB File Format"), with an
 * exact size known at mount.
 *
 * Geometry comes from the same nm_obj_model as mesh.obj (the same groups, the same load
 * callback: vertices in bind pose exactly where mesh.obj puts them); a driver adds its
 * materials, the PNGs its tree shows, and its skeleton.
 *
 * Layout: 12-byte header; JSON chunk (padded with spaces to 4 bytes); BIN chunk. The
 * BIN chunk holds, per group that owns vertices, POSITION, NORMAL, TEXCOORD_n, COLOR_0,
 * JOINTS_0 and WEIGHTS_0 (each tightly packed, 4-byte aligned by their sizes), then per
 * group its u32 triangle indices, then the inverse bind matrices, then every PNG used
 * (padded with zeros to 4), then the animations' times and values (gltf_anim.h). Every offset and count follows from the counts, so the JSON
 * is the same text at mount and on read except for POSITION's min and max, which
 * glTF requires and which depend on the vertices: they are written as fixed-width
 * numbers ("%+.16e" with the '+' turned into a space: the exact double of each float),
 * placeholders of that width at mount, filled in once the vertices are read.
 *
 * Groups: one glTF mesh per group that owns its vertices, with one primitive per group
 * that uses them (itself and the reuse_vertices groups after it); a group without
 * vertices or triangles is left out (glTF accessors count at least one element). A
 * triangle mesh.obj leaves out (NM_OBJ_DROPPED: one whose index is outside a damaged
 * model's vertices) is written as the degenerate triangle (0, 0, 0), which draws nothing. */
#ifndef NM_GLTF_H
#define NM_GLTF_H

#include <stdbool.h>
#include <stdint.h>
#include "export/gltf_anim.h"
#include "export/obj.h"
#include "export/png.h"

enum nm_gltf_alpha { NM_GLTF_OPAQUE, NM_GLTF_MASK, NM_GLTF_BLEND };

/* glTF sampler wrap modes (the GL enums). */
#define NM_GLTF_REPEAT 10497
#define NM_GLTF_CLAMP 33071
#define NM_GLTF_MIRROR 33648

typedef struct nm_gltf_material {
	const char *name;          /* any bytes: written as JSON-safe ASCII */
	float color[4];            /* baseColorFactor, 0..1 */
	int image;                 /* base-colour texture: index into images, or -1 */
	unsigned uv;               /* the UV set it reads (texCoord) */
	int wrap_s, wrap_t;        /* NM_GLTF_REPEAT... */
	enum nm_gltf_alpha alpha;
	float alpha_cutoff;        /* for NM_GLTF_MASK */
	bool double_sided;
} nm_gltf_material;

typedef struct nm_gltf_joint {
	const char *name;
	int32_t parent;            /* index of its parent joint, or -1 (out of range, or in a
				    * loop of parents: a root) */
	float t[3], r[4], s[3];    /* local translation, rotation (quaternion x y z w), scale */
	float inverse_bind[16];    /* column-major, as glTF stores it */
	/* A node between the joint and its parent, with translation helper_t and scale
	 * helper_s (a joint that a scaling rule glTF's T * R * S cannot express needs it:
	 * gltf_rig.h). Helper nodes come after every other node, in joint order. */
	bool helper;
	float helper_t[3], helper_s[3];
} nm_gltf_joint;

typedef struct nm_gltf_model {
	const nm_obj_model *mesh;  /* geometry (group->material is not used) */
	const int32_t *group_material; /* per group: index into materials, or -1 */
	const nm_gltf_material *materials;
	size_t nmaterials;
	const nm_png_source *images;
	size_t nimages;
	/* The skeleton: joint k is node k. Groups with has_skin carry JOINTS_0/WEIGHTS_0
	 * that index these joints; their meshes are skinned by one skin of all joints. */
	const nm_gltf_joint *joints;
	size_t njoints;
	const char *generator;     /* asset.generator */
	/* Animations (gltf_anim.h), or NULL: the glb is then what it was without them. */
	const nm_gltf_anim *anim;
} nm_gltf_model;

/* The exact size model.glb will have: from counts, no vertex read. 0 when the JSON
 * cannot be measured (out of memory). */
uint64_t nm_gltf_size(const nm_gltf_model *m);
/* Writes exactly nm_gltf_size(m) bytes. Geometry arrays come from nm_alloc under o->opt. */
nm_status nm_gltf_write(const nm_gltf_model *m, nm_out *o, nm_error *err);
/* nm_produce_fn adapter: ctx is the nm_gltf_model. */
nm_status nm_gltf_produce(void *ctx, void *arg, nm_out *o, nm_error *err);
/* Bytes [off, off+len) of what nm_gltf_write writes: a prefix of the file up to
 * off+len (the JSON's bounds from every group's positions, the BIN chunk's groups as far
 * as the range reaches), cut; NM_E_UNSUPPORTED for a range past the groups (inverse
 * binds, images, animations: the tree then produces the whole file). */
nm_status nm_gltf_write_range(const nm_gltf_model *m, uint64_t off, size_t len, nm_out *o,
			      nm_error *err);
/* Its nm_range_fn (ctx as nm_gltf_produce's), paired by nm_gltf_add with nm_gltf_produce;
 * a driver passing its own producer pairs its own. */
nm_status nm_gltf_produce_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
				nm_error *err);
/* What model.glb leaves out of m's animations (gltf_anim.c): a line
 * "glb_animation_left_out: NAME: ..." saying why, for each animation none of whose
 * channels has a target in the glb, or that has none (a driver gives only what glTF can
 * carry). One that keeps some is written without the rest, and not listed. Appended to
 * o; fails only when the plan cannot be made. */
nm_status nm_gltf_anim_left_out(const nm_gltf_model *m, nm_out *o, nm_error *err);
/* dir/model.glb at its exact size, produced from m (which must live as long as the
 * tree: its arena) by produce(ctx, m) (NULL: nm_gltf_produce). NM_E_NOMEM when either
 * fails. A model whose glb would pass 4 GiB (GLB's 32-bit length) gets none. The
 * animations it cannot carry are added to dir's info.txt (nm_gltf_anim_left_out). */
nm_status nm_gltf_add(nm_tree *t, nm_node *dir, const nm_gltf_model *m, nm_produce_fn produce,
		      void *ctx);

/* Helpers for drivers: a joint's local TRS from Euler angles (radians, applied X then
 * Y then Z: R = Rz * Ry * Rx, as src/lib/transform), and the column-major inverse of a
 * row-major 3x4 or 4x4 world matrix (rows 0..2 used; the last row is 0 0 0 1). */
void nm_gltf_euler_quat(const float euler[3], float q[4]);
/* A material's alpha mode from a format's pixel state: an alpha test that can discard is
 * MASK at its 8-bit reference (glTF has no blended-and-tested mode: the test wins, as
 * its hard edge is what the game shows), else a blend is BLEND, else OPAQUE. */
void nm_gltf_alpha_mode(nm_gltf_material *mat, bool test, uint8_t ref, bool blend);
void nm_gltf_inverse_bind(const float *world_rows, float out[16]);
/* Parents as model.glb writes them, in place: out of range, itself, or in a loop of
 * parents (every member of the loop) becomes -1, a root. state: n bytes of scratch. */
void nm_gltf_parents(int32_t *parent, size_t n, uint8_t *state);

#endif
