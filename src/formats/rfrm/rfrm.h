/* Donkey Kong Country: Tropical Freeze (FORMATS.md sections 6 and 8): RFRM forms and
 * chunks, CMDL/SMDL/WMDL models with their GPU buffers, and PAK archives.
 *
 * Descriptors and tables are big-endian in both releases. The GPU chunk holds the
 * vertex and index buffers one after another, each behind a 4-byte codec tag
 * (codec/gpu_buffer.h): Retro LZSS tags 0..3 on Wii U (big-endian vertex data), tags
 * 0..13 on Switch (little-endian vertex data). At mount we only find out where each
 * buffer lies (or how we will find out); decompression runs in the producers of the
 * files that need the bytes. */
#ifndef NM_RFRM_H
#define NM_RFRM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "export/obj.h"
#include "formats/driver.h"
#include "lib/chunk.h"
#include "lib/error.h"
#include "lib/out.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

#define RFRM_FORM_LEN 0x20
#define RFRM_CHUNK_LEN 0x18
#define RFRM_GUID_STR 37
#define RFRM_MAX_TABLE (64u << 20)   /* largest table chunk we load at mount */

/* Limits on what a header may make us decompress: no buffer above rfrm_max_buffer (the
 * tree's max_file_size), and none larger than its codec could make of its compressed
 * bytes (nm_gpu_codec's max_ratio). */

extern const nm_driver nm_driver_rfrm;
extern const nm_driver nm_driver_rfrm_pak;

struct rfrm_pak;

/* --- forms and chunks (chunks.c) -------------------------------------------------- */

/* One entry of a form's data: a chunk, or a nested form. */
typedef struct rfrm_item {
	bool is_form;
	char id[5];              /* chunk FourCC, or the form type; NUL-terminated */
	uint64_t off;            /* descriptor offset in the reader */
	uint64_t data_off;       /* first data byte */
	uint64_t size;           /* data bytes */
	uint32_t unknown;        /* chunk: u32 after the size (usually 1) */
	uint64_t skip;           /* chunk: bytes between the descriptor and the data */
	uint64_t form_unknown;   /* form: u64 after the size */
	uint32_t version[2];     /* form: reader and writer version */
} rfrm_item;

static inline uint64_t rfrm_item_end(const rfrm_item *it) { return it->data_off + it->size; }

/* The descriptor at off, whose data must end by end. */
nm_status rfrm_read_item(nm_reader *r, uint64_t off, uint64_t end, rfrm_item *it,
			 nm_error *err);
/* The RFRM form descriptor at off (fails if it is a chunk). */
nm_status rfrm_read_form(nm_reader *r, uint64_t off, uint64_t end, rfrm_item *form,
			 nm_error *err);
/* The items of a form's data, in order, in t's arena; on a broken descriptor, the items
 * before it, *broken set and err filled. */
nm_status rfrm_list_items(nm_reader *r, nm_tree *t, const rfrm_item *form, rfrm_item **items,
			  size_t *count, bool *broken, nm_error *err);
/* The data of a chunk that holds a table (HEAD, MTRL, ADIR...), loaded into v
 * (big-endian, named name in messages): at most RFRM_MAX_TABLE bytes. */
nm_status rfrm_table_load(nm_reader *r, const rfrm_item *it, const char *name, nm_view *v,
			  nm_error *err);

/* A FourCC for messages: non-printable bytes as '?'. */
void rfrm_fourcc_print(char out[5], const uint8_t *p);
void rfrm_guid_str(char out[RFRM_GUID_STR], const uint8_t *guid);
bool rfrm_guid_zero(const uint8_t *guid);

/* header.txt of a chunk or form; rfrm_item_record describes its lines (all derived:
 * offsets and sizes), for a header.txt that goes on with a record's stored fields. */
void rfrm_item_text(nm_out *o, const rfrm_item *it);
struct nm_rec;
void rfrm_item_record(struct nm_rec *r, const rfrm_item *it);
/* Lines of text ("key: value") described as derived lines: text a parser formatted
 * that has no stored field of its own to edit, read back as it was written. */
void rfrm_rec_replay(struct nm_rec *r, const char *text, size_t len);
/* A directory for the item named by its id, lower-case, trimmed, made safe and unique,
 * with header.txt (the descriptor, then extra if not NULL) and raw.bin (its data). */
nm_node *rfrm_item_dir(nm_tree *t, nm_node *parent, nm_reader *r, const rfrm_item *it,
		       const char *extra, size_t extra_len);
/* The generic tree of a form's items below dir (every chunk, nested forms recursed).
 * A broken descriptor gets error.txt in the directory of the form it is in. */
void rfrm_add_items(nm_tree *t, nm_node *dir, nm_reader *r, const rfrm_item *form,
		    int depth);

/* --- vertex component formats (vertex_formats.c) ---------------------------------- */

typedef enum rfrm_kind {
	RFRM_K_UNORM, RFRM_K_UINT, RFRM_K_SNORM, RFRM_K_SINT, RFRM_K_FLOAT, RFRM_K_HALF,
	RFRM_K_UNORM_1010102, RFRM_K_UINT_1010102
} rfrm_kind;

typedef struct rfrm_format_info {
	const char *name;        /* "RGBA16_FLOAT" */
	unsigned comps;          /* components per element */
	unsigned bytes;          /* bytes per element */
	rfrm_kind kind;
} rfrm_format_info;

#define RFRM_FORMAT_COUNT 41
#define RFRM_SEMANTIC_COUNT 22

const rfrm_format_info *rfrm_format(uint32_t format); /* NULL if unknown */
bool rfrm_format_is_int(const rfrm_format_info *f);
/* CSV width of one integer component (sign included). */
unsigned rfrm_format_int_width(const rfrm_format_info *f);
/* Component c of the element at p (f->bytes readable), normalized / converted. */
float rfrm_component_float(const rfrm_format_info *f, const uint8_t *p, unsigned c,
			   bool little);
int64_t rfrm_component_int(const rfrm_format_info *f, const uint8_t *p, unsigned c,
			   bool little);
float rfrm_half(uint16_t h);

const char *rfrm_semantic_name(uint32_t semantic);    /* NULL if unknown */
/* File stem for a semantic's CSV ("positions", "texcoords0", "semantic_23"). */
void rfrm_semantic_stem(uint32_t semantic, char *buf, size_t len);
/* Column name of component c ("x", "u", "r", "index0"...). */
void rfrm_semantic_column(uint32_t semantic, unsigned c, char *buf, size_t len);

/* --- models (parse_model.c, parse_*.c) -------------------------------------------- */

enum rfrm_semantic { RFRM_POSITION = 0, RFRM_NORMAL = 1, RFRM_TANGENT0 = 2, RFRM_TEXCOORD0 = 4,
		     RFRM_COLOR = 8, RFRM_BONE_INDICES = 9, RFRM_BONE_WEIGHTS = 10 };
#define RFRM_TEXCOORDS (RFRM_COLOR - RFRM_TEXCOORD0)   /* semantics 4-7 */

typedef struct rfrm_comp {
	uint32_t buffer, offset, stride, format, semantic;
} rfrm_comp;

typedef struct rfrm_vbuf {
	uint32_t count;          /* vertices */
	uint32_t ncomps;
	rfrm_comp *comps;
	uint32_t stride;         /* the largest component stride */
	uint64_t size;           /* count * stride: the buffer size VBUF implies */
	bool bad;                /* components or size unusable: err says why */
	nm_error err;
} rfrm_vbuf;

typedef struct rfrm_ibuf {
	uint32_t type;
	unsigned isize;          /* 2 or 4; 0 for an unknown type */
	uint64_t used;           /* indices the meshes use: max(first + count) */
	bool bad;
	nm_error err;
} rfrm_ibuf;

typedef struct rfrm_mesh {
	uint32_t prim;
	uint16_t material;
	uint8_t vbuf, ibuf;
	uint32_t first, count;
	uint16_t field_10;
	uint8_t field_12, field_13, flags;
	bool bad;                /* refers to a missing or broken buffer */
} rfrm_mesh;

/* A texture a material names (model_textures.c). */
typedef struct rfrm_texref {
	uint8_t id[4];           /* the parameter: DIFT, NMAP, SPCT, ICAN... */
	uint8_t guid[16];
	const char *png;         /* in a PAK: the asset's level-0 PNG from the model's
				  * directory ("../NAME.txtr/tex/0.png"), if it has one */
} rfrm_texref;

/* What mesh.mtl needs of a material; its text is material text. */
typedef struct rfrm_material {
	char *name;              /* escaped to one line */
	size_t off;              /* of its record in MTRL's data */
	char *text;              /* mtrl/N.txt */
	size_t text_len;
	rfrm_texref *tex;        /* its texture parameters, in order (a slot for each
				  * parameter) */
	size_t ntex;
	bool has_color;          /* DIFC */
	bool switch_layout;      /* parameters in the Switch layout (parse_mtrl.c) */
	float color[4];
} rfrm_material;

/* A text file a chunk parser formats at mount (record-sized). */
typedef struct rfrm_file {
	char name[32];
	char *text;
	size_t len;
} rfrm_file;

#define RFRM_CHUNK_FILES 6

/* A chunk of the model that a parser reads: its record in the chunk table (lib/chunk.h:
 * present, its data in v while its parser runs, failed with the first reason, which
 * goes to its error.txt; off and len are those of its data) and its descriptor. */
typedef struct rfrm_chunk {
	nm_chunk c;
	rfrm_item item;
	char *text;              /* added to header.txt (HEAD/SKHD/WDHD summary) */
	size_t text_len;
	rfrm_file files[RFRM_CHUNK_FILES];
	size_t nfiles;
} rfrm_chunk;

enum rfrm_chunk_id { RC_HEAD, RC_MTRL, RC_MESH, RC_VBUF, RC_IBUF, RC_GPU, RC_SKHD, RC_WDHD,
		     RC_COUNT };

typedef enum rfrm_gpu_source {
	RFRM_GPU_NONE,           /* no layout: gpu/error.txt says why */
	RFRM_GPU_PAK_META,       /* the PAK's META entry */
	RFRM_GPU_APPENDED_META,  /* metadata appended after the form */
	RFRM_GPU_WALK            /* buffers one after another, found on first read */
} rfrm_gpu_source;

typedef struct rfrm_gpubuf {
	uint64_t off;            /* absolute offset of its 4-byte header */
	uint64_t comp;           /* compressed bytes, header included */
	uint64_t size;           /* decompressed bytes */
	uint8_t codec;           /* codec tag (codec/gpu_buffer.h) */
	bool bad;
	nm_error err;
} rfrm_gpubuf;

/* The CMDL META blob (FORMATS.md 6.4, kinnay's NModelFormat::SMetaData), parsed. */
typedef struct rfrm_meta {
	uint32_t unknown, gpu_offset;
	uint32_t nread;
	uint32_t (*read)[2];     /* {size, offset} */
	uint32_t nvb, nib;
	uint32_t (*vb)[4], (*ib)[4]; /* {read buffer, offset, compressed, decompressed} */
} rfrm_meta;

/* mesh.obj's description (obj.c), which model.glb reads too (gltf.c). */
struct rfrm_obj {
	nm_obj_model model;
	size_t *mesh;            /* group -> mesh index */
};

typedef struct rfrm_model {
	nm_reader *r;
	nm_tree *t;
	const char *name;        /* reader name, for messages */
	const struct rfrm_pak *pak; /* the PAK it is a member of, or NULL */
	bool folder_textures;       /* a texture was found beside it (folder, archive) */
	rfrm_item form;
	rfrm_item *items;        /* every item of the form, in order */
	size_t nitems;
	/* items, the chunk texts and every parsed table below live in t's arena
	 * (nm_tree_alloc_array): the model frees nothing of its own but its lock. */
	bool items_broken;
	nm_error items_err;
	rfrm_chunk chunk[RC_COUNT];

	float aabb[6];
	bool has_aabb;
	uint32_t mesh_counts[5];
	size_t head_fixed_len;   /* HEAD's text up to the data sources */

	rfrm_material *mats;
	size_t nmats;
	rfrm_mesh *meshes;
	size_t nmeshes;
	rfrm_vbuf *vbufs;
	size_t nvbufs;
	rfrm_ibuf *ibufs;
	size_t nibufs;

	/* GPU buffers. vb[i] belongs to vbufs[i], ib[j] to ibufs[j]. */
	rfrm_gpu_source source;
	nm_error gpu_err;        /* source NONE: why */
	uint8_t *meta_blob;      /* the META blob used, verbatim (NULL if none) */
	size_t meta_len;
	rfrm_meta meta;
	bool meta_gpu_relative;  /* read-buffer offsets were relative to meta.gpu_offset */
	bool meta_bad;           /* a META blob was found but not usable: meta_err says why */
	nm_error meta_err;
	bool little;             /* vertex and index data byte order: the Switch's */
	/* SMDL: SKHD's u32. In every corpus SMDL it is one more than the largest bone index
	 * of its vertex buffers: the number of bones the skin addresses (0: no SKHD). */
	uint32_t skin_bones;
	bool switch_mtrl;        /* MTRL has the Switch layout */
	bool switch_codec;       /* a buffer uses a Switch-only codec tag (4..13) */
	uint32_t codec;          /* codec tag of the first buffer */
	rfrm_gpubuf *vb, *ib;
	nm_node **vb_node, **ib_node;  /* gpu/vertex/N.bin, gpu/index/N.bin */
	nm_reader **vb_reader;   /* editable: vertex buffer N's bytes, made on first edit
				  * (vertex_edit.c), under lock */

	/* The walk (RFRM_GPU_WALK): done once, on first access. */
	pthread_mutex_t lock;
	bool walked;
	nm_status walk_status;
	nm_error walk_err;

	struct rfrm_obj *obj;
	nm_reader *stream;       /* rfrm_model_gpu_stream's, once made */
} rfrm_model;

/* The largest decompressed buffer: the tree's max_file_size. */
static inline unsigned long long rfrm_max_buffer(const rfrm_model *m)
{
	return nm_tree_options(m->t)->max_file_size;
}

/* Is this form type a model? */
bool rfrm_is_model_type(const char *type);

/* Parse the model in form (items, chunks, META). meta/meta_len: the PAK's blob or
 * NULL. Fails only if nothing can be shown. */
nm_status rfrm_model_parse(nm_reader *r, nm_tree *t, const rfrm_item *form,
			   const uint8_t *meta, size_t meta_len, rfrm_model *m, nm_error *err);
/* What the model holds beyond the tree's arena (its lock): an nm_free_fn. */
void rfrm_model_free(void *m);

/* Chunk parsers: read the chunk's data (v, loaded by rfrm_model_parse) into the model,
 * or return an error for the chunk's error.txt. */
nm_status rfrm_parse_head(rfrm_model *m, nm_view *v, nm_error *err);
struct nm_edit;
/* head/header.txt edited (arg: the model): the bounding box is stored; the mesh
 * counts and data sources are derived lines. */
nm_status rfrm_head_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    struct nm_edit *ed, nm_error *err);
nm_status rfrm_parse_skhd(rfrm_model *m, nm_view *v, nm_error *err);
nm_status rfrm_parse_wdhd(rfrm_model *m, nm_view *v, nm_error *err);
nm_status rfrm_parse_mtrl(rfrm_model *m, nm_view *v, nm_error *err);
/* A texture parameter of mat (model_textures.c): its slot and, in a PAK, its asset and
 * PNG, as lines key_slot, key_asset, key_png of o; remembered in mat->tex for mesh.mtl. */
void rfrm_texture_ref(rfrm_model *m, rfrm_material *mat, const char *key,
		      const uint8_t *id, const uint8_t *guid, nm_out *o);
/* "diffuse", "normal"... for a texture parameter id; NULL if its use is unknown. */
const char *rfrm_texture_slot(const uint8_t *id);
/* The mesh.mtl statement for a texture parameter id (map_Kd...), or NULL. */
const char *rfrm_texture_mtl_key(const uint8_t *id);
/* For model.glb: the level-0 PNG of the texture tex names (one with a png path: in the
 * same PAK, or beside the model), as the source of the same bytes its tree shows. */
struct nm_png_source;
bool rfrm_texture_png_source(rfrm_model *m, const rfrm_texref *tex,
			     struct nm_png_source *src);
nm_status rfrm_parse_mesh(rfrm_model *m, nm_view *v, nm_error *err);

/* A record file's inverse argument (doc/apply.md): record index of m. */
typedef struct rfrm_record_ref {
	struct rfrm_model *m;
	size_t index;
} rfrm_record_ref;
struct nm_edit;
/* mtrl/N.txt edited (an nm_inverse_fn; arg: an rfrm_record_ref). */
nm_status rfrm_mtrl_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    struct nm_edit *ed, nm_error *err);
/* mesh/N.txt described (export/record.h) over MESH's data, and its inverse. */
struct nm_rec;
void rfrm_mesh_record(struct nm_rec *r, const struct rfrm_model *m, size_t i);
/* The triangles a mesh draws (0 for a primitive that is not triangles or a strip). */
uint64_t rfrm_mesh_triangles(const rfrm_mesh *me);
nm_status rfrm_mesh_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    struct nm_edit *ed, nm_error *err);
nm_status rfrm_parse_vbuf(rfrm_model *m, nm_view *v, nm_error *err);
nm_status rfrm_parse_ibuf(rfrm_model *m, nm_view *v, nm_error *err);
/* After MESH and IBUF: the indices each index buffer's meshes use; bad meshes marked. */
void rfrm_link_meshes(rfrm_model *m);
const char *rfrm_prim_name(uint32_t prim);

/* --- GPU buffers (gpu.c) ---------------------------------------------------------- */

/* Length of the META blob at p (bounded by avail), or 0 if it does not fit. */
size_t rfrm_meta_length(const uint8_t *p, size_t avail);
/* Where the buffers are: PAK META, appended META, the walk, or none. Reads only
 * descriptors and 4-byte buffer headers. */
void rfrm_gpu_locate(rfrm_model *m);
/* The decompressed buffer (index: false = vertex buffer i, true = index buffer i),
 * appended to o. Runs the walk first if needed. */
nm_status rfrm_gpu_decompress(rfrm_model *m, bool index, size_t i, nm_out *o,
			      nm_error *err);
/* RFRM_GPU_WALK: place every buffer (once; later calls return the first result).
 * Buffers it cannot place are marked bad with the reason. */
/* The buffer table known: NM_OK, or why there is none (the walk run first when the
 * layout comes from it). */
nm_status rfrm_gpu_ready(rfrm_model *m, nm_error *err);
nm_status rfrm_gpu_walk(rfrm_model *m, nm_error *err);
/* The size of gpu/vertex/N.bin or gpu/index/N.bin, known at mount: the buffer, or
 * for an index buffer found by the walk, the indices the meshes use. */
uint64_t rfrm_gpu_file_size(const rfrm_model *m, bool index, size_t i);
/* The decompressed buffer through its gpu/.../N.bin node (so the tree's cache keeps
 * it for the next file that needs it): a malloc'd copy. */
nm_status rfrm_gpu_load(rfrm_model *m, bool index, size_t i, uint8_t **data, size_t *len,
			nm_error *err);
/* The first want bytes of vertex (or index) buffer i (malloc'd): from gpu/vertex/N.bin
 * (gpu/index/N.bin) when it is made, else decoded alone: for a read of the start of
 * mesh.obj or a CSV, which then waits neither for the walk (the first vertex buffer
 * starts the chunk) nor for the rest of the buffer; and for ranges of the buffers' own
 * files. An index buffer's needs the walk when the walk places it. The stream past them
 * is not checked: a whole read may still find it broken. NM_E_UNSUPPORTED when VBUF or
 * IBUF gives no usable size. */
nm_status rfrm_gpu_load_head(rfrm_model *m, bool index, size_t i, size_t want,
			     uint8_t **data, nm_error *err);
/* Indices [first, first + count) of index buffer ib as u32 (malloc'd). */
nm_status rfrm_load_indices(rfrm_model *m, size_t ib, uint64_t first, uint64_t count,
			    uint32_t **out, nm_error *err);
const char *rfrm_gpu_source_name(rfrm_gpu_source s);

/* vbuf/N/NAME.csv edited (vertex_edit.c): now is the CSV as produced now; the changed
 * values, stored in the component's format, patch vertex buffer vb's reader. */
nm_status rfrm_vertex_invert(rfrm_model *m, size_t vb, const rfrm_comp *c,
			     const rfrm_format_info *f, const char *name, const uint8_t *now,
			     size_t now_len, const uint8_t *bytes, size_t len,
			     struct nm_edit *ed, nm_error *err);

/* In a tree opened for editing, a walk-placed model may change the length of its GPU
 * buffers: the file is laid out again with the new chunk and form sizes
 * (model_repack.c). */
void rfrm_model_editable(rfrm_model *m);

/* --- trees (tree_*.c, obj.c) ------------------------------------------------------ */

/* The tree of one RFRM asset: a model tree if it is a model, a texture tree if it is a
 * TXTR, else its chunk tree. meta: the PAK's META blob for it, or NULL; pak: the PAK it
 * is a member of (whose textures its materials name), or NULL. */
nm_status rfrm_build_asset(nm_reader *r, nm_tree *t, nm_node *dir, const uint8_t *meta,
			   size_t meta_len, const struct rfrm_pak *pak, nm_error *err);
nm_status rfrm_build_model_tree(rfrm_model *m, nm_node *root, nm_error *err);
/* info.txt's first lines for an asset: format, source, form type, versions, trailing bytes. */
void rfrm_form_info(nm_out *o, const rfrm_item *form, nm_reader *r);
nm_status rfrm_add_gpu(rfrm_model *m, nm_node *gpu_dir);
void rfrm_gpu_header(nm_out *o, const rfrm_model *m);
nm_status rfrm_add_vbufs(rfrm_model *m, nm_node *dir);
nm_status rfrm_add_ibufs(rfrm_model *m, nm_node *dir);
nm_status rfrm_add_obj(rfrm_model *m, nm_node *root);
/* model.glb over mesh.obj's groups (gltf.c); after rfrm_add_obj. */
nm_status rfrm_add_gltf(rfrm_model *m, nm_node *root);

/* --- PAK (parse_pak.c, tree_pak.c) ------------------------------------------------ */

/* 56 bytes: a PAK may list 50,000 assets, and they are kept for the mount's life. */
typedef struct rfrm_pak_entry {
	char type[5];
	bool has_meta;           /* listed in META (its blob may still be empty) */
	uint8_t guid[16];
	uint64_t off, size;
	union {
		/* Until its directory is made: the STRG name (raw, NUL-terminated) or
		 * NULL. The names are only needed for that, and freed after. */
		const char *name;
		const char *dir; /* then: its directory in the PAK's tree, NAME.type */
	};
	uint32_t meta, meta_len; /* its META blob in meta_data (the chunk is < 4 GiB) */
} rfrm_pak_entry;

/* What a model needs to know of a texture entry: its level-0 PNG from the model's
 * directory, or why it has none (model_textures.c fills it on first use). */
typedef struct rfrm_pak_png {
	bool known;
	char *png, *why;         /* malloc'd, freed by rfrm_pak_free */
} rfrm_pak_png;


typedef struct rfrm_pak {
	nm_reader *r;
	rfrm_item pack, tocc;
	rfrm_item adir, meta, strg;
	bool has_meta, has_strg;
	/* The tables below live in the tree's arena; the PAK frees its lock and META. */
	rfrm_pak_entry *entries;
	size_t count;
	nm_view meta_view;       /* the META chunk, loaded */
	const uint8_t *meta_data; /* its data */
	size_t meta_size;
	bool strg_sized, meta_sized; /* the Switch layout: u32 name lengths, u32 blob sizes */
	char *strg_names;        /* the entries' names (malloc'd), until the tree is built */
	size_t named, with_meta;
	nm_error meta_err, strg_err;  /* a broken META/STRG: shown, the rest mounts */
	bool meta_bad, strg_bad;
	uint32_t *order;              /* entry indices by GUID (rfrm_pak_find) */
	rfrm_pak_png *png;            /* per entry; under png_lock */
	pthread_mutex_t png_lock;
	bool png_lock_made;
} rfrm_pak;

nm_status rfrm_pak_parse(nm_reader *r, nm_tree *t, rfrm_pak *p, nm_error *err);
/* The PAK's tree: info.txt, toc.txt, the TOC's chunks, one lazy directory per asset. */
nm_status rfrm_build_pak(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);
/* The first entry (in ADIR order) with this GUID, or NULL: a binary search. */
const rfrm_pak_entry *rfrm_pak_find(const rfrm_pak *p, const uint8_t *guid);
/* How the container layer opens and builds an asset of p (pak_asset.c). */
struct nm_member_kind *rfrm_pak_asset_kind(nm_tree *t, const rfrm_pak *p);
/* Its lock and META view (the rest is in the tree's arena): an nm_free_fn. */
void rfrm_pak_free(void *p);

/* GPU buffers as one reader (gpu_stream.c). A buffer: its four tag bytes, its bytes in
 * the asset (tag included) and its decompressed size. */
typedef struct rfrm_gpu_part {
	uint8_t tag[4];
	uint64_t comp, size;
} rfrm_gpu_part;
/* The buffers back to back from off of r up to off + len, each by its own end or, the
 * last, using up the rest (a TXTR's GPU chunk; a model whose buffers the tables size
 * gives its own parts): *parts malloc'd. NM_E_FORMAT naming r and the offset where a
 * buffer has no known tag or does not decode. */
nm_status rfrm_gpu_parts(nm_reader *r, uint64_t off, uint64_t len, rfrm_gpu_part **parts,
			 size_t *n, nm_error *err);
/* A reader (adopted by t) of parts[0..n)'s decompressed bytes back to back, the buffers
 * starting at off of parent: what an inverse of a texture surface or a vertex buffer
 * patches. Written back (its origin), each buffer is compressed again in its tag,
 * keeping its decompressed size; the asset's form then takes the chunk's new length
 * (rfrm_form_repack). Decompressed on the first read, kept until closed. */
nm_status rfrm_gpu_stream_open(nm_tree *t, nm_reader *parent, uint64_t off,
			       const rfrm_gpu_part *parts, size_t n, const char *name,
			       nm_reader **out, nm_error *err);

/* The META blob of e (a model of p) for its new bytes now[0..now_len), into blob_out
 * (e->meta_len bytes, the same counts): its GPU offset, read buffer and buffers'
 * offsets and compressed sizes (meta_rewrite.c). NM_E_UNSUPPORTED naming the asset for
 * a blob in another layout than the one it rewrites. */
nm_status rfrm_meta_rewrite(const rfrm_pak *p, const rfrm_pak_entry *e, const uint8_t *now,
			    uint64_t now_len, uint8_t *blob_out, nm_error *err);

/* The model's GPU buffers as one stream (model_stream.c; rfrm_gpu_stream_open) for
 * an inverse to patch: *at is where buffer i (an index buffer if index) starts in it.
 * Its buffers must fill the GPU chunk back to back (NM_E_UNSUPPORTED otherwise); the
 * walk runs first when the layout comes from it. */
nm_status rfrm_model_gpu_stream(rfrm_model *m, bool index, size_t i, nm_reader **out,
				uint64_t *at, nm_error *err);

/* Laid out again when bytes inside change length (repack.c; nm_repack_fn's): an asset
 * (any RFRM form: its descriptors' sizes; ctx unused) and a PAK (ctx: its rfrm_pak;
 * ADIR's offsets and sizes, PACK's size). */
nm_status rfrm_form_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
			   struct nm_out *out, nm_error *err);
nm_status rfrm_pak_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
			  struct nm_out *out, nm_error *err);

#endif
