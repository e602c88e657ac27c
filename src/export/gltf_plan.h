/* model.glb's layout, private to src/export/gltf*.c: which groups write vertices and
 * primitives, accessor numbers and BIN offsets, the joint hierarchy as written, all
 * from counts (gltf_plan.c); the JSON over it (gltf_json.c). */
#ifndef NM_GLTF_PLAN_H
#define NM_GLTF_PLAN_H

#include "export/gltf.h"

#define NM_GLTF_NUM_WIDTH 23       /* "%+.16e" of a float's double: sign, 17 digits, e±XX */
/* [a,b,c],"max":[d,e,f] */
#define NM_GLTF_MINMAX_LEN (2 * (2 + 3 * NM_GLTF_NUM_WIDTH + 2) + 7)

/* Where each group's data goes: accessor numbers (bufferView k is accessor k) and
 * BIN offsets, all from counts. */
typedef struct nm_gltf_group_plan {
	bool own, draws;           /* writes vertices / a primitive */
	bool used;                 /* some group draws with its vertices */
	unsigned nuv;              /* UV sets written (enough for its materials) */
	bool skin;
	size_t owner;              /* the group whose vertices it uses */
	size_t acc;                /* its first vertex accessor (own), POSITION */
	size_t idx_acc;            /* its indices accessor (draws) */
	int mesh;                  /* glTF mesh of an owner, -1 */
} nm_gltf_group_plan;

typedef struct nm_gltf_plan {
	nm_gltf_group_plan *g;
	size_t naccessors, nmeshes, ibm_acc;
	bool skinned;              /* some mesh carries JOINTS_0 and the model has joints */
	size_t *image_of;          /* driver image -> glTF image, SIZE_MAX when unused */
	/* The hierarchy as written: a joint's parent (-1: a root; a joint in a loop of
	 * parents is a root), and each joint's children as lists in index order. */
	int32_t *parent, *first_child, *next_sibling;
	/* glTF wants a skin's joints under one common root: with several root joints, one
	 * more node ("skeleton", node njoints) holds them. */
	bool extra_root;
	size_t nused_images;
	/* Nodes: joints, the extra root, one per mesh, then one per helper (joint order);
	 * helper_node[j] is joint j's helper, -1 without one. */
	int32_t *helper_node;
	size_t first_mesh_node, first_helper_node, nnodes;
	/* Animations (gltf_anim.c), channels of every animation in one run: each one's
	 * target node or material (-1: left out) and time accessor (an index into
	 * in_frames/in_fps, whose accessors come first after the model's own). */
	int64_t *anim_target;
	uint32_t *anim_input;
	uint32_t *in_frames;
	float *in_fps;
	size_t ninputs, nanim_channels, nanim_accessors;
	bool *node_visibility;     /* per node: carries KHR_node_visibility */
	bool *material_uv;         /* per material: its texture carries KHR_texture_transform */
	bool uses_pointer, uses_uv, uses_visibility;
	uint64_t anim_bin_at;      /* where the animation data starts in BIN */
	uint64_t bin_len;
} nm_gltf_plan;

nm_status nm_gltf_plan_make(const nm_gltf_model *m, const nm_options *opt, nm_gltf_plan *p,
			    nm_error *err);
void nm_gltf_plan_free(nm_gltf_plan *p);
/* Group i's material and whether it has an image the glb embeds. */
bool nm_gltf_material_ok(const nm_gltf_model *m, size_t group);
bool nm_gltf_image_ok(const nm_gltf_model *m, const nm_gltf_material *mat);

/* Animations (gltf_anim.c): the plan's part from counts, after everything else is
 * planned; the JSON (accessors and views after the model's, their first flag and
 * running offset shared; the animations array); the BIN part. */
nm_status nm_gltf_anim_plan(const nm_gltf_model *m, const nm_options *opt, nm_gltf_plan *p,
			    nm_error *err);
void nm_gltf_anim_plan_free(nm_gltf_plan *p);
void nm_gltf_anim_accessors(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p,
			    bool *first);
void nm_gltf_anim_views(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p,
			bool *first, uint64_t *off);
void nm_gltf_anim_json(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p);
/* nm_gltf_anim_left_out's lines from a plan already made (nm_gltf_add's). */
void nm_gltf_anim_account(const nm_gltf_model *m, const nm_gltf_plan *p, nm_out *o);
nm_status nm_gltf_anim_write(const nm_gltf_model *m, const nm_gltf_plan *p, nm_out *o,
			     nm_error *err);
/* Little-endian floats into BIN (gltf.c). */
void nm_gltf_put_floats(nm_out *o, const float *f, uint64_t n);
/* Shared JSON writers (gltf_json.c). */
void nm_gltf_json_name(nm_out *o, const char *s);
void nm_gltf_json_floats(nm_out *o, const float *f, int n, float fallback);

/* The JSON chunk's text; minmax_at (one per group, or NULL) gets where each POSITION's
 * min/max text starts in o, NM_GLTF_MINMAX_LEN bytes that nm_gltf_minmax_text writes. */
void nm_gltf_json(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p, uint64_t *minmax_at);
void nm_gltf_minmax_text(char *buf, const float mn[3], const float mx[3]);

#endif
