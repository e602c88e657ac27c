/* CMB, Grezzo's 3DS model format (Ocarina of Time 3D v6, Majora's Mask 3D v10, Ever Oasis
 * v12, Luigi's Mansion 3D v15); FORMATS.md section 4. Little-endian throughout.
 *
 * The build parses the file header and every chunk's record tables into a cmb_model
 * (parse_*.c), then turns it into nodes (tree_*.c, obj.c). Vertex, index and texture
 * bytes are never read at build: their ranges are checked against the file and read by
 * the producers on the first read(). */
#ifndef NM_CMB_H
#define NM_CMB_H

#include "formats/container/container.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "codec/pica.h"
#include "export/obj.h"
#include "export/png.h"
#include "lib/chunk.h"
#include "lib/error.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

#define CMB_MAGIC "cmb "
#define CMB_NAME_LEN 16

/* Top-level chunks, in the order the header lists them (qtrs only from v10). */
enum cmb_chunk_kind {
	CMB_SKL, CMB_QTRS, CMB_MATS, CMB_TEX, CMB_SKLM, CMB_LUTS, CMB_VATR, CMB_NCHUNKS
};

/* Vertex attributes, in the order of SEPD descriptors and VATR slices. */
enum cmb_attr_kind {
	CMB_POSITION, CMB_NORMAL, CMB_TANGENT, CMB_COLOR, CMB_TEXCOORD0, CMB_TEXCOORD1,
	CMB_TEXCOORD2, CMB_BONE_INDICES, CMB_BONE_WEIGHTS, CMB_NATTRS
};

enum cmb_skinning { CMB_SKIN_SINGLE = 0, CMB_SKIN_RIGID = 1, CMB_SKIN_SMOOTH = 2 };

/* What differs between versions. */
typedef struct cmb_layout {
	bool known;             /* one of 6, 10, 12, 15 */
	const char *game;
	bool qtrs;              /* the header has a qtrs slot (v10+) */
	unsigned header_size;   /* 0x44 (v6) or 0x4C */
	unsigned bone_stride;   /* 0x28 (v6) or 0x2C */
	unsigned mat_size;      /* 0x15C (v6) or 0x16C (+ stencil) */
	bool mat_short_counts;  /* v12+: u32 unknown, u16 binding count, u16 coord count */
	unsigned mesh_stride;   /* 4, 0x0C, 0x10, 0x58 */
	unsigned sepd_attrs;    /* first attribute descriptor: 0x24, or 0x3C after v15's bbox */
	bool sepd_bbox;
	bool tangents;          /* v10+: tangent descriptor and VATR slice */
	bool luts_short;        /* v10+: u16 LUT header fields */
} cmb_layout;

/* A slot of the header's chunk table (src/lib/chunk.h): name is the directory name,
 * present says the header gives an offset, len is the declared size clipped to the file. */
typedef nm_chunk cmb_chunk;

typedef struct cmb_bone {
	uint16_t raw_id;        /* low 12 bits: id; the rest: flags */
	int16_t parent;         /* index into the bone table, -1 for a root */
	float scale[3], rot[3], trans[3];
	uint32_t extra;         /* v10+: the u32 at 0x28 */
	float world[16];        /* row-major 4x4, parent chain composed */
	bool parent_bad;        /* parent out of range or in a cycle: treated as a root */
} cmb_bone;

typedef struct cmb_material {
	uint32_t offset;        /* within mats */
	int16_t tex[3];         /* texture binding indices (-1: none) */
	uint8_t emission[4], ambient[4], diffuse[4], specular0[4];
	uint32_t ncombiners;    /* as stored (only the first 6 are listed) */
	uint16_t combiner[6];
	/* The RGB half of each stage used (min(ncombiners, 6) of them; 0 when the combiner
	 * table could not be read): GL combine mode and its three sources. */
	uint16_t stage_mode[6], stage_src[6][3];
	uint8_t coord_source[3];/* the UV set each binding's texcoord transform reads */
	uint16_t wrap[3][2];    /* each binding's wrap S and T (GL enums) */
	uint8_t cull;           /* 0x04: 1 back, 2 front, 3 none (FORMATS.md 4.4) */
	bool alpha_test;        /* 0x130 */
	uint8_t blend_mode;     /* 0x138: 0 none, else blended */
	uint8_t alpha_ref;      /* 0x131 */
} cmb_material;


#define CMB_MAX_LEVELS 16

typedef struct cmb_texture {
	uint32_t entry;         /* offset of the 0x24-byte entry within tex */
	char raw_name[CMB_NAME_LEN + 1];
	char *stem;             /* file stem in tex/ (safe, unique) */
	uint32_t size;
	uint16_t mips;
	uint8_t is_etc1, is_cube;
	uint16_t width, height;
	uint32_t gl_format;
	uint32_t data_offset;   /* relative to the header's texture data offset */
	nm_pica_format fmt;
	unsigned nfaces;        /* 1, or 6 for a cube map */
	uint32_t face_rel[6];   /* cube map face offsets as stored */
	uint64_t face_off[6];   /* absolute start of each face's mip chain */
	unsigned nlevels;       /* levels whose bytes lie inside the file (0: no PNG) */
	uint64_t level_off[CMB_MAX_LEVELS]; /* relative to the face start */
	uint64_t level_size[CMB_MAX_LEVELS];
	uint64_t chain_size;    /* sum of the level sizes the mip count asks for */
	unsigned channels;      /* PNG channels */
	uint64_t bin_off, bin_len; /* the undecoded bytes */
	bool external;          /* the header's texture data offset is 0: data elsewhere */
	/* Where the bytes are read: the model's reader, or for an external texture the
	 * CTXB of its name beside the model in a folder or archive (ctxb.c). */
	nm_reader *src;
	const char *src_file;   /* that CTXB's name; NULL: the model itself */
	int64_t overlaps;       /* the texture whose data this one's runs into, or -1 */
	char problem[200];      /* why levels are missing, or "" */
	/* The file lacks bytes the entry points at (problem says which), so the texture
	 * counts as an error in tex/error.txt; a limit or a format we do not decode does
	 * not. damaged_at is the absolute offset the error names. */
	bool damaged;
	uint64_t damaged_at;
	nm_png_source png;      /* NAME.png (level 0 of a 2D texture), for model.glb */
} cmb_texture;

typedef struct cmb_attrib {
	bool described;         /* this version has the descriptor (tangent: v10+) */
	uint32_t desc_off;      /* within the sepd */
	uint32_t start;
	float scale;
	uint16_t type, mode;
	float constant[4];
	bool present;           /* flag bit set, or a constant */
	unsigned comps;
	unsigned type_size;     /* 0 for an unknown type */
	bool usable;            /* present, and its values can be produced */
	uint64_t data_off;      /* absolute offset of vertex 0 (array mode) */
	char problem[160];
} cmb_attrib;

typedef struct cmb_prms {
	uint32_t offset;        /* within sklm */
	uint32_t prm_count;
	uint16_t skinning, nbones;
	uint32_t bone_table_off, prm_off;
	uint16_t *bones;
	uint32_t prm_at;        /* prm chunk, within sklm */
	uint32_t visible, prim_mode, index_type;
	uint16_t index_count, first_index;
	unsigned index_size;    /* 1 or 2 */
	uint64_t index_abs;     /* absolute offset of the first index */
	uint64_t ntris;
	bool ok;                /* header parsed and its indices lie in the index buffer */
	char *error;            /* why not (malloc'd), or NULL */
} cmb_prms;

typedef struct cmb_sepd {
	uint32_t offset;        /* within sklm */
	uint32_t size;
	uint16_t nprms, flags;
	float center[3], pos_offset[3], bbox_min[3], bbox_max[3];
	cmb_attrib attr[CMB_NATTRS];
	uint16_t bone_dim;
	cmb_prms *prms;
	uint32_t nverts;
	int count_attr;         /* the attribute the vertex count came from, or -1 */
	bool ok;
	char *error;            /* why not (malloc'd), or NULL */
} cmb_sepd;

typedef struct cmb_mesh {
	uint32_t offset;        /* within sklm */
	uint16_t sepd;
	uint8_t material, id;
} cmb_mesh;

typedef struct cmb_lut {
	uint32_t offset;        /* within luts */
	uint32_t type, count;
	int32_t start, end;
	float unknown[2];       /* v10+: two floats before the keys */
	bool ok;
	char *error;            /* why not (malloc'd), or NULL */
} cmb_lut;

/* mesh.obj's description (obj.c), which model.glb reads too (gltf.c). */
struct cmb_obj {
	nm_obj_model model;
	uint32_t *mesh_of_group;
};

typedef struct cmb_model {
	nm_tree *t;             /* the parsed tables live in its arena (nm_tree_alloc) */
	nm_reader *r;
	const char *file;
	uint64_t file_size;
	uint32_t version, size_field, unknown_0c, nindices, unknown_48;
	char name[CMB_NAME_LEN + 1];
	cmb_layout L;
	cmb_chunk chunk[CMB_NCHUNKS];
	uint32_t index_off, texdata_off;
	uint64_t index_len;     /* nindices * 2, clipped to the file */
	char skipped[400];      /* what an unknown version leaves out */

	cmb_bone *bones;
	uint32_t nbones, skl_unknown;

	uint32_t nqtrs;

	cmb_material *mats;
	uint32_t nmats;
	uint32_t combiner_table;/* within mats */
	uint32_t ncombiners;    /* entries shown: max index used + 1 */
	uint64_t mats_len;      /* bytes the material and combiner tables span */

	cmb_texture *tex;
	uint32_t ntex;

	uint32_t mshs_at, shp_at, mshs_size, shp_size; /* within sklm */
	bool mshs_ok, shp_ok;
	nm_error mshs_err, shp_err;
	cmb_mesh *meshes;
	uint32_t nmeshes;
	uint16_t opaque_count, id_count, shp_flags;
	cmb_sepd *sepds;
	uint32_t nsepds;
	uint64_t prms_left;     /* prms the sklm chunk has room for (hostile lists repeat) */

	cmb_lut *luts;
	uint32_t nluts, luts_unknown;

	uint32_t vatr_total;
	uint32_t slice_size[CMB_NATTRS], slice_off[CMB_NATTRS]; /* offsets within vatr */
	bool slice_ok[CMB_NATTRS];  /* described, non-empty and inside the chunk */

	struct cmb_obj *obj;
	nm_pairs anims;         /* the Grezzo animations around it it takes (anim_pair.c) */
} cmb_model;

/* parse_*.c: fill the model from the chunks. Each sets the chunk's failed/err (or a
 * record's) and returns NM_OK unless memory ran out. */
nm_status cmb_parse_header(cmb_model *m, nm_error *err);
nm_status cmb_parse_skl(cmb_model *m);
nm_status cmb_parse_qtrs(cmb_model *m);
nm_status cmb_parse_mats(cmb_model *m);
nm_status cmb_parse_tex(cmb_model *m);
/* Plan tx's levels again, in a source of size bytes where they start rel bytes after
 * base, keeping those inside it, and set the .bin range (parse_tex.c). */
void cmb_place_texture(cmb_texture *tx, uint64_t base, uint32_t rel, uint64_t size);
/* External textures (Luigi's Mansion 3D rooms) read from NAME.ctxb beside the model, in a
 * folder or an archive, when one holds a texture of the same name, size and format. */
nm_status cmb_borrow_textures(cmb_model *m);
/* Load the chunk of that kind at offset (parse_header.c; names set by cmb_name_chunks). */
void cmb_name_chunks(cmb_model *m);
void cmb_load_chunk(cmb_model *m, int kind, uint32_t offset);
nm_status cmb_parse_vatr(cmb_model *m);
nm_status cmb_parse_sklm(cmb_model *m);
nm_status cmb_parse_luts(cmb_model *m);
/* The chunk views (the tables are the arena's); void *, so that it is an nm_free_fn too
 * (nm_tree_on_free: driver.c, ctxb.c). */
void cmb_model_free(void *model);
/* A record's error message, kept as a string in the tree's arena (records are many; nm_error
 * is big). */
void cmb_keep_error(cmb_model *m, char **dst, const nm_error *e);
/* A chunk fails: its error, at an offset within it. */
void cmb_chunk_fail(cmb_model *m, int kind, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A chunk fails with the reason already in c->err (nm_view_table wrote it); NM_OK, so a
 * parser can `return cmb_chunk_failed(c)` and the build goes on. */
static inline nm_status cmb_chunk_failed(cmb_chunk *c)
{
	c->failed = true;
	return NM_OK;
}

/* Bone world matrices (tree_skl.c). */
void cmb_compute_world(cmb_model *m);

/* tree_*.c */
nm_status cmb_tree_skl(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_qtrs(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_mats(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_tex(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_sklm(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_sepd(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_luts(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_tree_vatr(nm_tree *t, nm_node *root, cmb_model *m);
nm_status cmb_add_obj(nm_tree *t, nm_node *root, cmb_model *m);
/* model.glb over mesh.obj's groups (gltf.c); after cmb_add_obj. */
nm_status cmb_add_gltf(nm_tree *t, nm_node *root, cmb_model *m);
/* Fills m->anims (anim_pair.c). */
nm_status cmb_pair_animations(cmb_model *m, nm_error *err);
/* g (cmb_add_gltf's) gets m->anims as glTF animations (anim_gltf.c). */
struct nm_gltf_model;
nm_status cmb_add_gltf_animated(nm_tree *t, nm_node *root, cmb_model *m,
				struct nm_gltf_model *g);

/* Shared by tree_sepd.c and obj.c: values of an attribute for vertices
 * [0, nverts), comps floats per vertex (scale applied, constants expanded). */
/* The stored bytes (a->type_size of them) of an attribute value that reads back as
 * exactly v (component times scale), or false and the nearest value it can hold. */
bool cmb_quantize(const cmb_attrib *a, float v, uint8_t *out, float *near);
nm_status cmb_load_attr(cmb_model *m, const cmb_sepd *s, int kind, float **out,
			nm_error *err);
/* The indices of a prms, as u32; count = index_count. */
nm_status cmb_load_indices(cmb_model *m, const cmb_prms *p, uint32_t **out, nm_error *err);
/* Triangles of a prms (ntris * 3 entries), strip joins included (export/triangulate.h). */
nm_status cmb_load_triangles(cmb_model *m, const cmb_prms *p, uint32_t **out, nm_error *err);

/* error.txt in a directory of records (prms/, luts/) when some failed: lines holds
 * their messages, one per line; nothing when it is empty. Leaves lines empty. */
nm_status cmb_record_errors(nm_tree *t, nm_node *dir, nm_out *lines);
/* nm_text that always leaves o empty (nm_text keeps the bytes when it fails). */
nm_node *cmb_text(nm_tree *t, nm_node *dir, const char *name, nm_out *o);
/* What a record file's inverse needs (nmodel apply): the model, the record, and the
 * description that writes it (export/record.h). Made only in a tree opened for editing. */
struct nm_rec;
typedef void (*cmb_record_fn)(struct nm_rec *r, const struct cmb_model *m, uint32_t i);
typedef struct cmb_record_ref {
	struct cmb_model *m;
	int chunk;              /* enum cmb_chunk_kind */
	uint32_t index;
	cmb_record_fn write;
} cmb_record_ref;
/* cmb_text, and when ref is not NULL (a tree opened for editing) the file's inverse:
 * write (which wrote o) run again over the chunk's bytes reads an edit back
 * (record_inverse.c). */
nm_node *cmb_record_file(nm_tree *t, nm_node *dir, const char *name, nm_out *o,
			 cmb_record_ref *ref, struct cmb_model *m, int chunk, uint32_t i,
			 cmb_record_fn write);

/* Common chunk files: header.txt lines every chunk dir starts with, and raw.bin. */
void cmb_chunk_header(nm_out *o, const cmb_chunk *c);
nm_node *cmb_chunk_dir(nm_tree *t, nm_node *root, cmb_model *m, int kind);

/* The texture binding (0..2) that carries a material's base colour, or -1: the first
 * texture the combiner stages multiply the colour by, else the first bound
 * texture with a PNG (material_texture.c). mesh.mtl and model.glb both use it. */
int cmb_base_color_slot(const cmb_model *m, const cmb_material *mat);

#endif
