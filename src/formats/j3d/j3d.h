/* J3D models (BMD/BDL: J3D2bmd3, J3D2bdl4, J3D2bmd2; BMT material tables: J3D2bmt3),
 * FORMATS.md sections 2 and 3; also standalone BTI textures (bti.c).
 *
 * The file is a 0x20-byte header and chunks found by walking their sizes. At mount each
 * chunk's record tables are loaded and parsed into the structs below (parse_*.c); the
 * bulk data (vertex arrays, display lists, texture images) stays in the file and is read
 * by the producers of the files that need it. Every size is known at mount: one cheap
 * walk over the display-list command headers counts what each shape draws
 * (dl_count.c), another over the MDL3 command headers sizes mdl3/N.txt (mdl3_text.c);
 * neither reads a vertex or a register value. All big-endian. */
#ifndef NM_J3D_H
#define NM_J3D_H

#include <stdbool.h>
#include <stdint.h>
#include "export/obj.h"
#include "export/png.h"
#include "export/triangulate.h"
#include "lib/chunk.h"
#include "formats/container/container.h"
#include "lib/error.h"
#include "lib/out.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

#define J3D_HEADER_SIZE 0x20
#define J3D_VTX_SLOTS 13          /* POS, NRM, NBT, CLR0, CLR1, TEX0..TEX7 */
#define J3D_MAX_ATTRS 32          /* entries of one shape's attribute list */
#define J3D_NAME_MAX 1024         /* longest name read from a name table */

enum j3d_slot { J3D_POS = 0, J3D_NRM, J3D_NBT, J3D_CLR0, J3D_CLR1, J3D_TEX0 };

/* GX vertex attribute ids (VTX1 formats, SHP1 attribute lists). */
enum j3d_attr {
	J3D_A_PNMTXIDX = 0x00, J3D_A_TEX0MTXIDX = 0x01, J3D_A_TEX7MTXIDX = 0x08,
	J3D_A_POS = 0x09, J3D_A_NRM = 0x0A, J3D_A_CLR0 = 0x0B, J3D_A_CLR1 = 0x0C,
	J3D_A_TEX0 = 0x0D, J3D_A_TEX7 = 0x14, J3D_A_NBT = 0x19, J3D_A_NULL = 0xFF
};

enum j3d_index_type { J3D_IDX_NONE = 0, J3D_IDX_DIRECT, J3D_IDX_8, J3D_IDX_16 };

/* INF1 hierarchy node types. */
enum j3d_node_type { J3D_N_END = 0x00, J3D_N_OPEN = 0x01, J3D_N_CLOSE = 0x02,
		     J3D_N_JOINT = 0x10, J3D_N_MATERIAL = 0x11, J3D_N_SHAPE = 0x12 };

/* A chunk of the file (src/lib/chunk.h): magic, fourcc, off, size, dir, failed, err. */
typedef nm_chunk j3d_chunk;

/* ---- INF1 ---- */
typedef struct j3d_hnode {
	uint16_t type, index;
	uint32_t depth;
} j3d_hnode;

typedef struct j3d_inf1 {
	const j3d_chunk *chunk;
	uint16_t flags;
	uint32_t packets, vertices, hier_off;
	j3d_hnode *nodes;
	size_t nnodes;
	bool terminated;          /* an END node closed the list */
} j3d_inf1;

/* ---- VTX1 ---- */
typedef struct j3d_vfmt {
	uint32_t attr, cnt, type;
	uint8_t shift;
} j3d_vfmt;

typedef struct j3d_varray {
	bool present;
	uint32_t attr;            /* GX attribute id of the slot */
	uint32_t off, span;       /* chunk-relative start and bytes to the next array */
	const j3d_vfmt *fmt;      /* NULL: no format entry (the array is listed, not decoded) */
	bool color;
	unsigned ncomp;           /* components per element (colours: 4, RGBA out) */
	unsigned csize;           /* bytes per component (numbers) */
	uint32_t stride;          /* bytes per element; 0 when the format is unusable */
	uint32_t count;           /* floor(span / stride) */
	float scale;              /* 1 / 2^shift for integer types */
	const char *problem;      /* why it cannot be decoded, or NULL */
} j3d_varray;

typedef struct j3d_vtx1 {
	const j3d_chunk *chunk;
	uint32_t fmt_off;
	uint32_t offs[J3D_VTX_SLOTS];
	j3d_vfmt *fmts;
	size_t nfmts;
	j3d_varray arrays[J3D_VTX_SLOTS];
} j3d_vtx1;

/* ---- EVP1, DRW1 ---- */
typedef struct j3d_evp1 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_counts, off_joints, off_weights, off_ibm;
	uint8_t *counts;
	uint32_t *first;          /* index of each envelope's first influence */
	uint32_t total;
	uint16_t *joints;
	float *weights;
	uint32_t nibm;
	float (*ibm)[12];         /* 3x4 row-major */
} j3d_evp1;

typedef struct j3d_drw1 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_kinds, off_params;
	uint8_t *kinds;           /* 0 joint, 1 envelope */
	uint16_t *params;
} j3d_drw1;

/* ---- JNT1 ---- */
typedef struct j3d_joint {
	char *name;               /* raw name from the table, or NULL */
	uint16_t entry;           /* record used (through the remap table) */
	uint16_t flags;
	uint8_t calc;
	float scale[3];
	int16_t rot[3];
	float trans[3];
	float radius, bmin[3], bmax[3];
	int parent;               /* joint index from INF1, -1 for a root */
	float local[12], world[12];
} j3d_joint;

typedef struct j3d_jnt1 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_entries, off_remap, off_names;
	j3d_joint *joints;
	size_t nnames;
	const char *names_problem;    /* the name table could not be read: why */
} j3d_jnt1;

/* ---- SHP1 ---- */
typedef struct j3d_sattr {
	uint32_t attr, type;
	uint32_t size;            /* bytes in one display-list vertex */
	uint32_t pos;             /* offset within the vertex */
} j3d_sattr;

typedef struct j3d_packet {
	uint32_t dl_off, dl_size; /* chunk-relative */
	uint16_t use_mtx, nmtx;
	uint32_t mtx_first;
	const uint16_t *mtx;      /* nmtx DRW1 indices (0xFFFF: keep the previous packet's) */
} j3d_packet;

typedef struct j3d_shape {
	uint8_t mtx_type;
	uint16_t npackets, attr_off, first_mtxdata, first_packet;
	float radius, bmin[3], bmax[3];
	j3d_sattr attrs[J3D_MAX_ATTRS];
	unsigned nattrs;
	uint32_t vsize;           /* bytes per display-list vertex */
	j3d_packet *packets;
	uint32_t npackets_ok;     /* packets whose tables parsed */
	int material;             /* MAT3 index from INF1, -1 when none */
	/* Counted at mount (dl_count.c) when ok: triangles, lines and points after
	 * strip/fan/quad conversion, and the vertices of the triangle primitives
	 * (mesh.obj writes one vertex per display-list vertex). */
	uint64_t count[3];
	uint64_t tri_verts;
	bool ok;                  /* tables parsed and display lists counted */
	nm_error err;             /* when !ok */
	struct j3d_model *m;
	uint32_t index;
} j3d_shape;

typedef struct j3d_shp1 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_shapes, off_remap, off_names, off_attrs, off_mtx, off_dl, off_mtxdata,
		 off_packets;
	j3d_shape *shapes;
	uint16_t *mtx_table;
	uint32_t nmtx_table;
} j3d_shp1;

/* ---- MAT3 / MAT2 ---- */
typedef struct j3d_material {
	char *name;
	uint16_t entry;
	int texture;              /* TEX1 index of the first texture, -1 when none */
	uint8_t texture_uv;       /* the UV set (TEXn) it is read through (model.glb) */
	int8_t texture_mtx;       /* the texture matrix slot its texgen applies, -1 none */
	uint8_t color[4];         /* material colour 0 (white when absent) */
	/* For model.glb: GX cull mode (0 none, 1 front, 2 back, 3 all; 2 when absent), the
	 * alpha compare (masked: it can fail, with its reference) and the blend mode (1:
	 * blended). */
	uint8_t cull;
	bool alpha_mask;
	uint8_t alpha_ref;
	bool blended;
} j3d_material;

typedef struct j3d_mat3 {
	const j3d_chunk *chunk;
	bool v21;                 /* MAT2 (J3D2bmd2): no indirect, ambient or light tables */
	uint16_t count;
	j3d_material *mats;
	const char *names_problem;
	nm_view v;                /* the whole chunk while the tree is built */
} j3d_mat3;

/* ---- MDL3 ---- */
typedef struct j3d_mdl3 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_packets, off_subpackets, off_matrix, off_unknown, off_indices, off_names;
	uint32_t *pkt_off, *pkt_size;      /* chunk-relative display lists */
	uint16_t (*sub)[6];                /* subpacket offsets (when the table fits) */
	char **names;
	size_t nnames;
} j3d_mdl3;

/* ---- TEX1 ---- */
typedef struct j3d_texture {
	char *name;               /* raw */
	char *stem;               /* file name stem in tex1/ */
	uint8_t fmt, alpha, wrap_s, wrap_t, pal_enabled, pal_fmt;
	uint16_t width, height, npal;
	uint32_t pal_off, img_off;         /* relative to the header, as stored */
	uint8_t flags[3], max_aniso, min_filter, mag_filter, images, unknown;
	int8_t min_lod, max_lod;
	int16_t lod_bias;
	uint64_t hdr_abs, img_abs, pal_abs;
	uint64_t img_len;                  /* all levels */
	unsigned levels;                   /* levels that we show (mips that fit) */
	int shares;                        /* earlier texture with the same image bytes, or -1 */
	bool ok;
	nm_error err;
	struct j3d_model *m;
	nm_png_source png;                 /* level 0 for model.glb: NAME.png, or for I4/I8
	                                    * grey+alpha (tree_tex1.c glb_png) */
} j3d_texture;

typedef struct j3d_tex1 {
	const j3d_chunk *chunk;
	uint16_t count;
	uint32_t off_headers, off_names;
	j3d_texture *tex;
	const char *names_problem;
} j3d_tex1;

/* ---- the model ---- */
typedef struct j3d_model {
	nm_reader *r;
	const char *file;
	char type[9];             /* "J3D2bmd3" ... */
	uint32_t size_field, count_field;
	j3d_chunk *chunks;
	size_t nchunks;
	nm_error walk_err;        /* the chunk walk stopped early */
	bool walk_failed;

	j3d_inf1 *inf1;
	j3d_vtx1 *vtx1;
	j3d_evp1 *evp1;
	j3d_drw1 *drw1;
	j3d_jnt1 *jnt1;
	j3d_shp1 *shp1;
	j3d_mat3 *mat3;
	j3d_mdl3 *mdl3;
	j3d_tex1 *tex1;

	nm_tree *t;               /* the parsed tables live in its arena (nm_tree_alloc) */
	struct j3d_mesh *mesh;    /* mesh.obj's groups (obj.c), for model.glb too */
	struct j3d_model *bmt;    /* the material table of its name beside it, or NULL */
	nm_pairs anims;           /* the animations around it that it takes (anim_pair.c) */
} j3d_model;

/* The chunk tables of the J3D file r, parsed in t's arena without building its tree
 * (another model an animation may belong to, a BMT's material names). */
nm_status j3d_parse_model(nm_tree *t, nm_reader *r, j3d_model **out, nm_error *err);
/* Whether the first bytes are a J3D model or material table (not an animation). */
bool j3d_probe_model(const uint8_t *head, size_t len);
/* Fills m->anims (anim_pair.c). */
nm_status j3d_pair_animations(j3d_model *m, nm_error *err);

/* Bytes of display lists (or MDL3 packets) a mount-time walk reads for a chunk of this
 * size. Real files' lists do not overlap, so they stay under the chunk size; a hostile
 * file whose thousands of packets all point at one big list would make the walk
 * quadratic, and the lists past this budget are reported instead of walked. */
#define J3D_WALK_BUDGET(chunk_size) (4 * (uint64_t)(chunk_size) + ((uint64_t)1 << 20))

/* A NUL-terminated copy of len bytes, freed with the tree. */
char *j3d_strdup(j3d_model *m, const char *s, size_t len);

/* A view of [off, off+len) of chunk c (chunk-relative), checked against the chunk;
 * what names the table in the error. */
nm_status j3d_load(j3d_model *m, const j3d_chunk *c, uint64_t off, uint64_t len,
		   const char *what, nm_view *v, nm_error *err);
/* Where a name table lies: load(ctx, off, len, what, v, err) gives a view of [off,
 * off + len) of its chunk or block, or fails naming it; size is that chunk's bytes. */
typedef struct j3d_name_src {
	nm_status (*load)(void *ctx, uint64_t off, uint64_t len, const char *what, nm_view *v,
			  nm_error *err);
	void *ctx;
	uint64_t size;
} j3d_name_src;
/* The name table at off (name_table.c): *count and a view holding its entries and
 * strings, read through j3d_name_at. */
nm_status j3d_name_view(const j3d_name_src *src, uint32_t off, uint16_t *count, nm_view *v,
			nm_error *err);
/* Entry i's string in such a view and its length (at most J3D_NAME_MAX), or NULL when
 * its offset lies past the view. */
const char *j3d_name_at(const nm_view *v, size_t i, size_t *len);
/* The name table at off: want names (count must match or the rest are NULL). */
nm_status j3d_names(j3d_model *m, const j3d_chunk *c, uint32_t off, size_t want,
		    char ***out, size_t *got, nm_error *err);
/* The same, but a broken table only loses the names: *problem says why (NULL when the
 * names were read). Fails only when memory runs out. */
nm_status j3d_names_soft(j3d_model *m, const j3d_chunk *c, uint32_t off, size_t want,
			 char ***out, size_t *got, const char **problem, nm_error *err);
/* A file name stem from a name of the model: nm_safe_name, cut to at most
 * J3D_STEM_MAX bytes (file names stay under NAME_MAX). NULL for a NULL or empty name. */
#define J3D_STEM_MAX 200
char *j3d_safe_stem(const char *raw);
/* The first lines of every chunk's header.txt: magic, offset, size. */
void j3d_header_begin(nm_out *o, const j3d_chunk *c);
nm_status j3d_chunk_fail(const j3d_chunk *c, const j3d_model *m, nm_error *err,
			 uint64_t rel, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Chunk parsers: fill the struct, or return an error (the chunk's error.txt). */
nm_status j3d_parse_inf1(j3d_model *m, const j3d_chunk *c, j3d_inf1 *out, nm_error *err);
nm_status j3d_parse_vtx1(j3d_model *m, const j3d_chunk *c, j3d_vtx1 *out, nm_error *err);
nm_status j3d_parse_evp1(j3d_model *m, const j3d_chunk *c, j3d_evp1 *out, nm_error *err);
nm_status j3d_parse_drw1(j3d_model *m, const j3d_chunk *c, j3d_drw1 *out, nm_error *err);
nm_status j3d_parse_jnt1(j3d_model *m, const j3d_chunk *c, j3d_jnt1 *out, nm_error *err);
nm_status j3d_parse_shp1(j3d_model *m, const j3d_chunk *c, j3d_shp1 *out, nm_error *err);
nm_status j3d_parse_mat3(j3d_model *m, const j3d_chunk *c, bool v21, j3d_mat3 *out,
			 nm_error *err);
nm_status j3d_parse_mdl3(j3d_model *m, const j3d_chunk *c, j3d_mdl3 *out, nm_error *err);
nm_status j3d_parse_tex1(j3d_model *m, const j3d_chunk *c, j3d_tex1 *out, nm_error *err);
/* One 0x20-byte BTI header at o in v, hdr_rel bytes into chunk c (its offsets count
 * from there), checked against c: t->ok, or t->err says why (TEX1 and a standalone
 * .bti, whose "chunk" is the whole file). */
void j3d_read_bti(j3d_model *m, const j3d_chunk *c, nm_view *v, size_t o, uint64_t hdr_rel,
		  j3d_texture *t);

/* After parsing: joint parents and world matrices, shape materials (from INF1). */
void j3d_link(j3d_model *m);
void j3d_shp1_layout(j3d_model *m);
/* After j3d_link: count each shape's primitives (dl_count.c); a shape whose lists do
 * not walk gets !ok and its error. Fails only when memory runs out. */
nm_status j3d_count_shapes(j3d_model *m, nm_error *err);
/* The joints as the scaling rules see them (export/gltf_rig.h): INF1's rule (0 basic,
 * 1 Softimage, 2 Maya; any other value basic), JNT1's S/R/T and scale-compensate byte,
 * INF1's parents. j3d_bones: one per joint in the tree's arena (NULL: none or out of
 * memory). j3d_rule_worlds: each joint's world as the rule composes it, where the rule
 * makes it differ from world = parent world * local (j3d_link). */
struct nm_gltf_bone;
int j3d_scaling_rule(const j3d_model *m);
struct nm_gltf_bone *j3d_bones(const j3d_model *m);
void j3d_rule_worlds(j3d_model *m);
void j3d_mat_identity(float *m);
void j3d_mat_mul(const float *a, const float *b, float *out);   /* 3x4 affine */
/* An s16 JNT1 angle in radians: 0x8000 is 180 degrees, the unit the game's sine tables
 * use (FORMATS.md 10.1; animations share it). */
double j3d_angle_radians(int16_t v);
void j3d_joint_local(const j3d_joint *j, float *out);

/* VTX1 element decoding. data holds the array's bytes (arr->count * arr->stride). */
void j3d_vtx_floats(const j3d_varray *arr, const uint8_t *data, uint32_t i, float *out);
void j3d_vtx_color(const j3d_varray *arr, const uint8_t *data, uint32_t i, uint8_t *rgba);
/* The CSV column name of component col of an array in slot. */
const char *j3d_vtx_column(const j3d_varray *arr, int slot, unsigned col);
/* The inverse of the array in slot's CSV (vtx1_edit.c): now is the CSV as produced,
 * bytes the edited one; name names the file in patches. */
struct nm_edit;
nm_status j3d_vtx1_invert(j3d_model *m, int slot, const char *name, const uint8_t *now,
			  size_t now_len, const uint8_t *bytes, size_t len, struct nm_edit *ed,
			  nm_error *err);
/* Read the bytes of a present array. */
nm_status j3d_vtx_load(j3d_model *m, const j3d_varray *arr, uint8_t **out, nm_error *err);
/* Bytes of one direct (inline) value of attribute attr in a display list; 0 if unknown. */
uint32_t j3d_direct_size(const j3d_model *m, uint32_t attr);

/* ---- GX command lengths (gx_command.c), for display lists and MDL3 ---- */
/* Bytes of opcode op's fixed part (an XF write's 5-byte header), 0 if unknown. */
size_t j3d_gx_header_length(uint8_t op);
/* Bytes of the whole command at p (an XF write with its words, once its header is in
 * the left bytes), 0 if unknown; the caller checks that it fits. */
size_t j3d_gx_command_length(const uint8_t *p, size_t left);

/* ---- display lists (displaylist.c) ---- */
enum j3d_prim_class { J3D_PC_TRIANGLES, J3D_PC_LINES, J3D_PC_POINTS };

/* The matrix slots GX has loaded while a shape draws: each packet loads its matrix
 * table into slots 0..n-1, and 0xFFFF keeps what the previous packet loaded. A
 * PNMTXIDX value v uses slot v / 3; a shape without PNMTXIDX uses slot 0. */
#define J3D_MTX_SLOTS 86      /* 255 / 3 + 1 */
typedef struct j3d_mtx_state {
	uint16_t slot[J3D_MTX_SLOTS];
} j3d_mtx_state;

typedef struct j3d_prim {
	uint8_t op;               /* 0x80 quads ... 0xB8 points (vertex format bits cleared) */
	uint16_t nverts;
	const uint8_t *verts;     /* nverts * vsize bytes */
	size_t off;               /* of the opcode, within the list */
	uint32_t packet;          /* which packet of the shape draws it */
	const j3d_mtx_state *mtx; /* the slots loaded while it draws */
} j3d_prim;

typedef nm_status (*j3d_prim_fn)(void *ctx, const j3d_prim *p, nm_error *err);

const char *j3d_prim_name(uint8_t op);
int j3d_prim_class(uint8_t op);
/* Triangles (triangle class), lines (line class) or points of a primitive. */
uint64_t j3d_prim_count(uint8_t op, uint32_t n);
/* The converter of a triangle-class opcode (quads, triangles, strip or fan). */
nm_prim j3d_prim_kind(uint8_t op);
/* Walk every packet of shape s in order: read its display list (one pread), load its
 * matrix table into the slots, and call fn per draw primitive; NOPs and the GX
 * commands a list may hold are skipped by their length. Every vertex run is checked
 * against the list, and the vertices are only stepped over: what fn reads of them is
 * all that is read. */
nm_status j3d_shape_walk(j3d_model *m, const j3d_shape *s, j3d_prim_fn fn, void *ctx,
			 nm_error *err);
/* The value of shape attribute a in a vertex (index, or the direct matrix-index byte). */
uint32_t j3d_dl_value(const j3d_sattr *a, const uint8_t *vert);
/* DRW1 index of a vertex of primitive p of shape s, or 0xFFFF when its slot holds
 * nothing. */
uint16_t j3d_mtx_resolve(const j3d_shape *s, const j3d_prim *p, const uint8_t *vert);

/* ---- tree ---- */
nm_status j3d_tree_inf1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_vtx1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_evp1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_drw1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_jnt1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_shp1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_mat3(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_mdl3(nm_tree *t, j3d_model *m, const j3d_chunk *c);
nm_status j3d_tree_tex1(nm_tree *t, j3d_model *m, const j3d_chunk *c);
/* Texture i's files in dir: its header text (text_name, or STEM.txt when NULL), then
 * when it decodes STEM.png, STEM.mipK.png, STEM.bin and STEM.palette.bin (tx->stem set).
 * j3d_texture_limit (which it applies first): a texture past the tree's max_dimension
 * is not decoded; its err says so (NM_E_LIMIT). */
void j3d_texture_limit(nm_tree *t, const j3d_tex1 *x, uint16_t i);
nm_status j3d_texture_files(nm_tree *t, nm_node *dir, const j3d_tex1 *x, uint16_t i,
			    const char *text_name);
nm_status j3d_add_obj(nm_tree *t, nm_node *root, j3d_model *m);
/* The groups of mesh.obj (after j3d_add_obj), for a writer that reads them through
 * their load callback: fn runs once with them ready (the vertex arrays and bind
 * matrices loaded, freed after it). */
const nm_obj_model *j3d_mesh_groups(const j3d_model *m);
/* The shape group k of it draws. */
const struct j3d_shape *j3d_group_shape(const j3d_model *m, size_t k);
typedef nm_status (*j3d_mesh_writer)(const nm_obj_model *mesh, const void *arg, nm_out *o,
				     nm_error *err);
nm_status j3d_with_mesh(j3d_model *m, j3d_mesh_writer fn, const void *arg, nm_out *o,
			nm_error *err);
/* model.glb (gltf.c); after j3d_add_obj. */
nm_status j3d_add_gltf(nm_tree *t, nm_node *root, j3d_model *m);
/* model.glb with animations (export/gltf_rig.h: clips over the joints, under INF1's
 * scaling rule): clips must live as long as the tree. odd_scale (per joint, or NULL:
 * every joint some clip animates the scale of) says which joints' scales may be
 * non-uniform or other than 1 in some clip: under Softimage and Maya those get helper
 * nodes so that every joint's world is the game's. */
struct nm_gltf_clips;
/* model.glb with the animations m takes (anim_gltf.c; j3d_add_gltf without any). */
nm_status j3d_add_gltf_animated(nm_tree *t, nm_node *root, j3d_model *m);
nm_status j3d_add_gltf_clips(nm_tree *t, nm_node *root, j3d_model *m,
			     const struct nm_gltf_clips *clips, const bool *odd_scale);

/* A record file (record_inverse.c): write(r, m, index) describes its fields with
 * export/record.h over a view of [off, off + len) of m->r; in a tree opened for
 * editing, the same description reads an edited copy back. after, when set, runs
 * once the description has made patches (those from first on): what the edit also
 * changes elsewhere (EVP1's inverse binds after a joint), or notes on it. */
struct nm_rec;
typedef struct j3d_record_ref {
	j3d_model *m;
	uint64_t off, len;        /* in m->r: what the view holds */
	const char *chunk;
	uint32_t index;
	void (*write)(struct nm_rec *r, j3d_model *m, uint32_t index);
	void (*after)(struct nm_rec *r, j3d_model *m, uint32_t index, size_t first);
} j3d_record_ref;
/* name in dir: the text write makes over v (the same bytes as [off, off + len)). */
nm_node *j3d_record_file(nm_tree *t, nm_node *dir, const char *name, nm_view *v,
			 const j3d_record_ref *how);

/* Material i's text (parse_mat3.c) over a view of the whole MAT3 chunk. */
void j3d_material_record(struct nm_rec *r, j3d_model *m, uint32_t i);
/* After a joint's record changed its entry (joint_edit.c): EVP1's inverse binds. */
void j3d_joint_edited(struct nm_rec *r, j3d_model *m, uint32_t i, size_t first);
void j3d_material_notes(struct nm_rec *r, j3d_model *m, uint32_t i, size_t first);
void j3d_mat3_header(nm_out *o, const j3d_mat3 *t);
/* MDL3 (mdl3_text.c): one line per register write or command of a packet. With o NULL
 * nothing is written and only the command headers are read: the return value is the
 * byte count the same call with an nm_out writes. */
uint64_t j3d_mdl3_commands(nm_out *o, const uint8_t *dl, size_t len);

/* ---- GX enum names (gx_names.c); NULL for unknown values ---- */
const char *j3d_attr_name(uint32_t attr);
const char *j3d_index_type_name(uint32_t t);
const char *j3d_comp_type_name(uint32_t t, bool color);
const char *j3d_comp_count_name(uint32_t attr, uint32_t cnt);
const char *j3d_mtx_type_name(unsigned t);
const char *gx_cull_name(unsigned v);
const char *gx_color_src_name(unsigned v);
const char *gx_diffuse_fn_name(unsigned v);
const char *gx_attn_fn_name(unsigned v);
const char *gx_texgen_type_name(unsigned v);
const char *gx_texgen_src_name(unsigned v);
const char *gx_texmtx_name(unsigned v);
const char *gx_posttexmtx_name(unsigned v);
const char *gx_texcoord_name(unsigned v);
const char *gx_texmap_name(unsigned v);
const char *gx_channel_name(unsigned v);
const char *gx_tev_color_arg_name(unsigned v);
const char *gx_tev_alpha_arg_name(unsigned v);
const char *gx_tev_op_name(unsigned v);
const char *gx_tev_bias_name(unsigned v);
const char *gx_tev_scale_name(unsigned v);
const char *gx_tev_reg_name(unsigned v);
const char *gx_kcolor_sel_name(unsigned v);
const char *gx_kalpha_sel_name(unsigned v);
const char *gx_swap_sel_name(unsigned v);
const char *gx_channel_sel_name(unsigned v);
const char *gx_compare_name(unsigned v);
const char *gx_alpha_op_name(unsigned v);
const char *gx_blend_mode_name(unsigned v);
const char *gx_blend_factor_name(unsigned v, bool src);
const char *gx_logic_op_name(unsigned v);
const char *gx_fog_type_name(unsigned v);
const char *gx_wrap_name(unsigned v);
const char *gx_filter_name(unsigned v);
const char *gx_bp_reg_name(unsigned reg);
const char *gx_xf_reg_name(unsigned addr);
const char *gx_cp_reg_name(unsigned reg);
const char *j3d_mat_mode_name(unsigned v);
/* The same names for record fields (export/record.h), kind one of these. */
enum j3d_name_kind {
	J3D_K_MAT_MODE, J3D_K_CULL, J3D_K_COLOR_SRC, J3D_K_DIFFUSE_FN, J3D_K_ATTN_FN,
	J3D_K_TEXGEN_TYPE, J3D_K_TEXGEN_SRC, J3D_K_TEXMTX, J3D_K_POSTTEXMTX, J3D_K_TEXCOORD,
	J3D_K_TEXMAP, J3D_K_CHANNEL, J3D_K_TEV_COLOR_ARG, J3D_K_TEV_ALPHA_ARG, J3D_K_TEV_OP,
	J3D_K_TEV_BIAS, J3D_K_TEV_SCALE, J3D_K_TEV_REG, J3D_K_KCOLOR_SEL, J3D_K_KALPHA_SEL,
	J3D_K_SWAP_SEL, J3D_K_COMPARE, J3D_K_ALPHA_OP, J3D_K_BLEND_MODE, J3D_K_BLEND_SRC,
	J3D_K_BLEND_DST, J3D_K_LOGIC_OP, J3D_K_FOG_TYPE, J3D_K_WRAP, J3D_K_FILTER,
	J3D_K_GX_FORMAT, J3D_K_PALETTE_FORMAT, J3D_K_COUNT
};
struct nm_rec_names;
extern const struct nm_rec_names j3d_gx_names;

#endif
