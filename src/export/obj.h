/* Wavefront OBJ output with an exact size known before any vertex is read.
 *
 * A driver describes the model as groups whose counts come from headers (vertices,
 * triangles after strip/fan conversion, which attributes exist); the writer computes
 * the size from those counts and, on read, asks the driver to load one group at a time.
 * Numbers are fixed width (floats as %+.8e, indices padded with spaces), and a triangle
 * the driver drops (degenerate strip joins) becomes a comment line of the same length.
 * OBJ indices are global: group g's vertices follow those of groups 0..g-1. */
#ifndef NM_OBJ_H
#define NM_OBJ_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/out.h"

#define NM_OBJ_DROPPED UINT32_MAX   /* put in tris[3k] to leave triangle k out */

typedef struct nm_obj_group {
	char *name;             /* "g" line; safe text, no newline */
	char *material;         /* "usemtl" line, or NULL */
	uint64_t nverts;        /* positions (and normals/texcoords when present) */
	bool has_normals;
	bool has_texcoords;
	uint64_t ntris;
	/* Faces use the vertices of the previous group that had its own (one mesh drawn
	 * with several materials): no v/vt/vn lines, and load() gets only tris. */
	bool reuse_vertices;
} nm_obj_group;

/* What load() fills for one group; the arrays are allocated by the writer. */
typedef struct nm_obj_data {
	float *positions;       /* nverts * 3 (NULL for a reuse_vertices group) */
	float *normals;         /* nverts * 3, when has_normals */
	float *texcoords;       /* nverts * 2, when has_texcoords */
	uint32_t *tris;         /* ntris * 3, group-local vertex indices */
} nm_obj_data;

typedef struct nm_obj_model {
	const char *mtllib;     /* "mtllib" line, or NULL */
	const char *comment;    /* first line after '# ', or NULL */
	nm_obj_group *groups;
	size_t ngroups;
	nm_status (*load)(void *ctx, size_t group, nm_obj_data *d, nm_error *err);
	void *ctx;
} nm_obj_model;

uint64_t nm_obj_size(const nm_obj_model *m);
/* Writes exactly nm_obj_size(m) bytes. An index >= the group's nverts is an error. The
 * per-group arrays come from nm_alloc under o->opt; err must not be NULL. */
nm_status nm_obj_write(const nm_obj_model *m, nm_out *o, nm_error *err);

/* nm_produce_fn adapter: ctx is the nm_obj_model. */
nm_status nm_obj_produce(void *ctx, void *arg, nm_out *o, nm_error *err);

#endif
