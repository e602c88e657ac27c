/* The shared mesh description, and Wavefront OBJ output from it with an exact size known
 * before any vertex is read.
 *
 * A driver describes the model as groups whose counts come from headers (vertices,
 * triangles after strip/fan conversion, which attributes exist) and one load callback
 * that fills a group's arrays on demand. mesh.obj (here) and model.glb (gltf.h) both
 * read geometry through that one callback: each asks only for the arrays it writes, and
 * the callback fills the non-NULL ones.
 *
 * OBJ: the size is computed from the counts. Numbers are fixed width (floats as %+.8e,
 * indices padded with spaces), and a triangle the driver drops (an index outside a
 * damaged model's vertices) becomes a comment line of the same length. OBJ indices are global: group g's
 * vertices follow those of groups 0..g-1. Every face of one file has the same form
 * (v/vt/vn, v/vt, v//vn or v), since viewers that meet mixed forms drop faces (VTK) or
 * texture coordinates (Open3D): a group without texture coordinates or normals refers
 * to one placeholder vt/vn line written before the first group. Vertex colours, when
 * any group has them, follow every position (`v x y z r g b`, white for a group
 * without). */
#ifndef NM_OBJ_H
#define NM_OBJ_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"
#include "lib/tree.h"

#define NM_OBJ_DROPPED UINT32_MAX   /* put in tris[3k] to leave triangle k out */
#define NM_MESH_MAX_UV 8            /* UV sets a group can carry (J3D has 8) */
#define NM_MESH_INFLUENCES 4        /* joints per vertex (glTF's JOINTS_0/WEIGHTS_0) */

typedef struct nm_obj_group {
	char *name;             /* "g" line; safe text, no newline */
	char *object;           /* "o" line before the group (a new object starts), or NULL */
	char *material;         /* "usemtl" line, or NULL */
	uint64_t nverts;        /* positions (and every other attribute present) */
	bool has_normals;
	bool has_colors;
	bool has_skin;          /* joints and weights (the model's skeleton) */
	unsigned nuvs;          /* UV sets 0..nuvs-1 */
	unsigned obj_uv;        /* the one mesh.obj writes as vt: its material's texture's
				 * (0 when that is not below nuvs) */
	uint64_t ntris;
	/* Faces use the vertices of the previous group that had its own (one mesh drawn
	 * with several materials): no v/vt/vn lines, and load() gets only tris. */
	bool reuse_vertices;
} nm_obj_group;

/* What load() fills for one group: the arrays the caller allocated (non-NULL); a
 * callback leaves the others alone. */
typedef struct nm_obj_data {
	float *positions;       /* nverts * 3 (NULL for a reuse_vertices group) */
	float *normals;         /* nverts * 3, when has_normals */
	float *texcoords[NM_MESH_MAX_UV]; /* nverts * 2 each, for sets below nuvs */
	float *colors;          /* nverts * 4, RGBA in 0..1, when has_colors */
	uint16_t *joints;       /* nverts * NM_MESH_INFLUENCES joint numbers, when has_skin */
	float *weights;         /* nverts * NM_MESH_INFLUENCES, summing to 1, when has_skin */
	uint32_t *tris;         /* ntris * 3, group-local vertex indices */
} nm_obj_data;

typedef struct nm_obj_model {
	const char *mtllib;     /* "mtllib" line, or NULL */
	const char *comment;    /* first line after '# ', or NULL */
	nm_obj_group *groups;
	size_t ngroups;
	nm_status (*load)(void *ctx, size_t group, nm_obj_data *d, nm_error *err);
	/* Optional: fill only the positions (and colours, when d->colors is not NULL) of
	 * the group's first count vertices, d's arrays sized for count. For a range that
	 * ends among a group's v lines (head, a file manager's sniffing): it then costs
	 * what those vertices need, not the group's whole buffers. NM_E_UNSUPPORTED (or
	 * NULL): load() of the whole group instead. */
	nm_status (*load_head)(void *ctx, size_t group, uint64_t count, nm_obj_data *d,
			       nm_error *err);
	void *ctx;
} nm_obj_model;

uint64_t nm_obj_size(const nm_obj_model *m);
/* Writes exactly nm_obj_size(m) bytes. An index >= the group's nverts is an error. The
 * per-group arrays come from nm_alloc under o->opt; err must not be NULL. */
nm_status nm_obj_write(const nm_obj_model *m, nm_out *o, nm_error *err);

/* Bytes [off, off+len) of what nm_obj_write writes (len within nm_obj_size), at the
 * cost of the groups they fall in: every section's offset follows from the counts, and
 * only the lines reaching into the range are formatted. */
nm_status nm_obj_write_range(const nm_obj_model *m, uint64_t off, size_t len, nm_out *o,
			     nm_error *err);

/* nm_produce_fn adapter: ctx is the nm_obj_model. */
nm_status nm_obj_produce(void *ctx, void *arg, nm_out *o, nm_error *err);
/* Its nm_range_fn. */
nm_status nm_obj_produce_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err);
/* mesh.obj in dir over m (which lives as long as the tree), produced by ranges where a
 * front end allows them. */
nm_node *nm_obj_add(nm_tree *t, nm_node *dir, const nm_obj_model *m);

/* For writers of the description (mesh.obj, model.glb): allocate under opt the arrays
 * of group i that `want` asks for (NM_WANT_* bits; those the group lacks are not
 * allocated, positions never for a reuse_vertices group), run load() and check every
 * triangle's indices. `file` names the output in messages. On failure nothing is left
 * allocated. */
enum { NM_WANT_NORMALS = 1, NM_WANT_OBJ_UV = 2, NM_WANT_UVS = 4, NM_WANT_COLORS = 8,
       NM_WANT_SKIN = 16 };
/* The UV set mesh.obj writes for group g. */
unsigned nm_obj_uv(const nm_obj_group *g);
nm_status nm_obj_load(const nm_obj_model *m, size_t i, unsigned want, const nm_options *opt,
		      const char *file, nm_obj_data *d, nm_error *err);
void nm_obj_data_free(nm_obj_data *d);

#endif
