/* Celestia binary CMOD (FORMATS.md section 5): a stream of int16 tokens, little-endian.
 * The parser walks the stream once at mount, keeping materials whole and, for meshes,
 * only where their vertex and index data lie; the data is read when a file needs it. */
#ifndef NM_CMOD_H
#define NM_CMOD_H

#include <stdbool.h>
#include <stdint.h>
#include "export/obj.h"
#include "lib/reader.h"
#include "lib/tree.h"

#define CMOD_MAGIC "#celmodel_binary"
#define CMOD_ASCII_MAGIC "#celmodel__ascii"
#define CMOD_MAGIC_LEN 16
#define CMOD_TEXTURE_SEMANTICS 4
#define CMOD_MAX_ATTRS 16

enum cmod_token {
	CMOD_MATERIAL = 1001, CMOD_END_MATERIAL = 1002, CMOD_DIFFUSE = 1003,
	CMOD_SPECULAR = 1004, CMOD_SPECULAR_POWER = 1005, CMOD_OPACITY = 1006,
	CMOD_TEXTURE = 1007, CMOD_MESH = 1009, CMOD_END_MESH = 1010,
	CMOD_VERTEX_DESC = 1011, CMOD_END_VERTEX_DESC = 1012, CMOD_VERTICES = 1013,
	CMOD_EMISSIVE = 1014, CMOD_BLEND = 1015,
	/* Cosmographia's extension (claurel/cosmographia CmodLoader): a bare u16, no type
	 * tag. Celestia does not know it. */
	CMOD_ILLUMINATION = 1016
};

enum cmod_type { CMOD_FLOAT1 = 1, CMOD_FLOAT2, CMOD_FLOAT3, CMOD_FLOAT4, CMOD_STRING,
		 CMOD_UINT32, CMOD_COLOR };

enum cmod_format { CMOD_F1 = 0, CMOD_F2, CMOD_F3, CMOD_F4, CMOD_UB4, CMOD_FORMAT_COUNT };

enum cmod_semantic { CMOD_POSITION = 0, CMOD_COLOR0, CMOD_COLOR1, CMOD_NORMAL, CMOD_TANGENT,
		     CMOD_TEXCOORD0, CMOD_TEXCOORD1, CMOD_TEXCOORD2, CMOD_TEXCOORD3,
		     CMOD_POINTSIZE, CMOD_NEXTPOSITION, CMOD_SCALEFACTOR, CMOD_SEMANTIC_COUNT };

enum cmod_prim { CMOD_TRILIST = 0, CMOD_TRISTRIP, CMOD_TRIFAN, CMOD_LINELIST, CMOD_LINESTRIP,
		 CMOD_POINTS, CMOD_SPRITES, CMOD_PRIM_COUNT };

/* Oddities of a record (notes.c): what Celestia lets pass and we follow, or
 * refuses where we go on; listed in the record's text and in info.txt. */
typedef struct cmod_notes {
	char **v;
	size_t n;
} cmod_notes;

/* An unknown token inside a material: skipped by its type tag, listed in its text. */
typedef struct cmod_unknown {
	uint16_t token, type;
	uint64_t offset;
} cmod_unknown;

/* Which properties a material stores (cmod_material.stored): the ASCII form writes a
 * line for each and the binary writer a token, so a file read and written again keeps
 * a stored default value (Celestia's own writers leave defaults out). */
enum cmod_stored { CMOD_HAS_DIFFUSE = 1, CMOD_HAS_SPECULAR = 2, CMOD_HAS_EMISSIVE = 4,
		   CMOD_HAS_SPECPOWER = 8, CMOD_HAS_OPACITY = 16, CMOD_HAS_BLEND = 32 };

typedef struct cmod_material {
	uint64_t offset, end;
	unsigned stored;                          /* enum cmod_stored bits */
	/* Where the value of each stored property lies (its last occurrence, the one
	 * shown), by bit of enum cmod_stored; and token 1016's. materials/N.txt's edits
	 * are written there. */
	uint64_t value_at[6], illumination_at;
	float diffuse[3], specular[3], emissive[3];
	float specpower, opacity;
	int blend;                                /* 0 normal, 1 add, 2 premultiplied */
	int illumination;                         /* token 1016; -1 when absent */
	char *texture[CMOD_TEXTURE_SEMANTICS];    /* by semantic; NULL when absent */
	cmod_unknown *unknown;
	size_t nunknown, unknown_cap;
	cmod_notes notes;
} cmod_material;

typedef struct cmod_attr {
	int semantic, format;
	unsigned offset;                          /* within a vertex */
} cmod_attr;

typedef struct cmod_group {
	int prim;
	uint32_t material;                        /* UINT32_MAX: none (-1) */
	bool missing_material;                    /* past the material count */
	uint32_t count;
	uint64_t index_offset;                    /* file offset of count u32 indices */
} cmod_group;

typedef struct cmod_mesh {
	uint64_t offset, end;
	cmod_attr attrs[CMOD_MAX_ATTRS];
	unsigned nattrs, stride;
	uint32_t nverts;
	uint64_t vertex_offset;
	cmod_group *groups;
	size_t ngroups, groups_cap;
	cmod_notes notes;
} cmod_mesh;

/* mesh.obj's description (obj.c), which model.glb reads too (gltf.c): the groups and,
 * for each, its mesh and primitive group. */
struct cmod_obj {
	nm_obj_model model;
	struct obj_group_ref { struct cmod_mesh *mesh; struct cmod_group *group; } *refs;
};

typedef struct cmod_model {
	nm_reader *reader;
	/* The record arrays grow as the stream is walked, by doubling through nm_alloc
	 * (parse_binary.c): their size comes from the file, so the tree's limit applies. */
	cmod_material *materials;
	size_t nmaterials, materials_cap;
	cmod_mesh *meshes;
	size_t nmeshes, meshes_cap;
	uint64_t vertices, indices;               /* totals */
	bool truncated;                           /* parsing stopped at an error */
	nm_error parse_error;
	cmod_notes notes;                         /* of the file as a whole */
	char *ascii_header;                       /* materials section of the ASCII form */
	struct cmod_obj *obj;                     /* mesh.obj description */
} cmod_model;

/* Parse the token stream. On a broken stream after the header, returns the error and
 * keeps what was parsed before it (m->truncated). */
nm_status cmod_parse(nm_reader *r, cmod_model *m, nm_error *err);
void cmod_model_free(cmod_model *m);

nm_status cmod_note(cmod_notes *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmod_notes_free(cmod_notes *l);
/* Why Celestia's binary loader would not use this texture name, or NULL when it would
 * (buf: room for a reason that quotes a character). */
const char *cmod_texture_name_problem(const char *name, size_t len, char *buf, size_t cap);
/* Every oddity of the model (oddities: N, then the first ones as oddity: lines). */
void cmod_oddities_text(nm_out *o, const cmod_model *m);

/* Names used in every output. */
const char *cmod_semantic_name(int semantic);    /* NULL past the known semantics */
const char *cmod_semantic_label(int semantic);   /* every semantic, for CSV and notes */
const char *cmod_format_name(int format);
const char *cmod_prim_name(int prim);
const char *cmod_blend_name(int blend);
const char *cmod_illumination_name(int model);
const char *cmod_texture_keyword(int semantic);  /* texture0, normalmap, ... */
unsigned cmod_format_components(int format);
unsigned cmod_format_size(int format);

/* Vertex data of a mesh and the index data of a group, read and checked. */
nm_status cmod_load_vertices(cmod_model *m, const cmod_mesh *mesh, uint8_t **out,
			     nm_error *err);
nm_status cmod_load_indices(cmod_model *m, const cmod_mesh *mesh, const cmod_group *g,
			    uint32_t **out, nm_error *err);
/* Component c of attribute a of vertex v, as a float (ub4 as 0..255). */
float cmod_component(const cmod_mesh *mesh, const uint8_t *verts, uint32_t v,
		     const cmod_attr *a, unsigned c);

/* One vertex as fixed-width values and a newline (CSV: sep ','; ASCII CMOD: ' '). */
void cmod_write_vertex(nm_out *o, const cmod_mesh *mesh, const uint8_t *verts, uint32_t v,
		       char sep);
/* Digits of the largest index of a mesh; index lines with every index that wide. */
unsigned cmod_index_width(const cmod_mesh *mesh);
void cmod_write_indices(nm_out *o, const cmod_mesh *mesh, const cmod_group *g,
			const uint32_t *idx);
/* Indices [i0, i1) of those lines alone (each with the space or newline after it), idx
 * holding the group's all. */
void cmod_write_index_run(nm_out *o, const cmod_mesh *mesh, const cmod_group *g,
			  const uint32_t *idx, uint32_t i0, uint32_t i1);
/* Triangles of a triangle group, after strip/fan conversion (0 for lines and points). */
uint64_t cmod_triangle_count(const cmod_group *g);
/* Every group's, the total info.txt shows (export/triangulate.h's rule). */
uint64_t cmod_triangles(const cmod_model *m);

/* Files: vertices.csv, primitives, model.ascii.cmod, mesh.obj/mtl. */
nm_status cmod_add_mesh_files(nm_tree *t, nm_node *dir, cmod_model *m, cmod_mesh *mesh);
/* vertices.csv's inverse (a tree opened for editing; once per tree). */
nm_status cmod_mesh_inverses(nm_tree *t);
nm_status cmod_add_ascii(nm_tree *t, nm_node *root, cmod_model *m);
nm_status cmod_add_obj(nm_tree *t, nm_node *root, cmod_model *m);
/* model.glb over mesh.obj's groups (gltf.c); after cmod_add_obj. */
nm_status cmod_add_gltf(nm_tree *t, nm_node *root, cmod_model *m);
/* materials/N.txt, described once (export/record.h) over a view of the materials'
 * bytes: writing makes the text, reading an edited copy back patches the stored values. */
struct nm_rec;
void cmod_material_record(struct nm_rec *rec, const cmod_model *m, size_t i);

/* The whole model in the ASCII form model.ascii.cmod shows (tree_ascii.c), from the
 * bytes of a binary CMOD: what an ASCII source's edits are encoded back into (the
 * origin of the binary an ASCII file is mounted through). */
nm_status cmod_binary_to_ascii(const char *name, const uint8_t *bin, size_t len,
			       nm_out *out, nm_error *err);

/* Binary CMOD, written (write_binary.c): the token stream parse_binary.c reads. A
 * material's properties go in Celestia's writer's order (diffuse, emissive, specular,
 * specpower, opacity, blend, textures by semantic), those it stores only. */
void cmod_bin_u16(nm_out *o, uint16_t v);
void cmod_bin_u32(nm_out *o, uint32_t v);
void cmod_bin_f32(nm_out *o, float f);
void cmod_bin_material(nm_out *o, const cmod_material *mat);
/* 1009, the vertex description and 1013 with the count; the vertex bytes follow. */
void cmod_bin_mesh_begin(nm_out *o, const cmod_attr *attrs, unsigned nattrs, uint32_t nverts);
/* A primitive group's head; its count u32 indices follow. 1010 ends the mesh. */
void cmod_bin_group(nm_out *o, int prim, uint32_t material, uint32_t count);

/* ASCII CMOD (#celmodel__ascii, FORMATS.md 5.1) read with Celestia's tokenizer and
 * grammar (parse_ascii.c) and written as binary CMOD into bin (whose options limit
 * it). A fault names the line and the token; err says "NAME:LINE: why". Where Celestia
 * lets something pass that the binary cannot keep (an unknown material property, an
 * empty texture name), notes say so. */
typedef struct cmod_ascii_fault {
	unsigned line;
	char why[400];
} cmod_ascii_fault;
nm_status cmod_ascii_to_binary(const char *name, const uint8_t *text, size_t len,
			       nm_out *bin, cmod_notes *notes, cmod_ascii_fault *fault,
			       nm_error *err);

#endif
