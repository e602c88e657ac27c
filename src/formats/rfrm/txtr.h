/* Tropical Freeze TXTR textures (FORMATS.md 6.6 and 9; doc/rfrm.md "Textures").
 *
 * RFRM(TXTR) holds a HEAD chunk (big-endian: u32 type, format, width, height, depth,
 * tile mode, swizzle, List<u32> mip sizes, sampler {u32 flags, u8 filter, u8 wrap x, y,
 * z}) and a GPU chunk: buffers back to back, each a codec tag and its stream
 * (codec/gpu_buffer.h), whose bytes together are the surface. On Switch (form version
 * 15 and later, the rule pakpydkctf uses) the surface is Tegra X1 block-linear
 * (codec/tegra_swizzle.h) and every field we need is in HEAD: the surface's layout and
 * exact size follow from format, size, level and layer counts. Wii U surfaces (GX2
 * tiling) are shown as their header and raw bytes only.
 *
 * At mount we read HEAD and the first buffer's 4-byte tag; the GPU chunk is
 * decompressed by the producer of gpu/surface.bin, on the first read of it or of a
 * PNG, and the PNGs decode one level of one layer each. */
#ifndef NM_RFRM_TXTR_H
#define NM_RFRM_TXTR_H

#include <stdbool.h>
#include <stdint.h>
#include "codec/tegra_swizzle.h"
#include "export/png.h"
#include "formats/rfrm/rfrm.h"

/* How a format becomes RGBA8. */
typedef enum rfrm_tex_kind {
	RFRM_TEX_NONE,           /* not decoded: the format's `why` says why */
	RFRM_TEX_R8, RFRM_TEX_RG8, RFRM_TEX_RGBA8,
	RFRM_TEX_BCN,            /* codec/bcn.h */
	RFRM_TEX_ASTC            /* codec/astc.h */
} rfrm_tex_kind;

typedef struct rfrm_txtr_format {
	const char *name;        /* "ASTC_8x5", "RGBA8_UNORM", ... */
	unsigned block_w, block_h;
	unsigned block_bytes;    /* 0: unknown, no layout can be computed */
	rfrm_tex_kind kind;
	int bcn;                 /* nm_bcn_format, for RFRM_TEX_BCN */
	bool srgb;
	unsigned channels;       /* of the PNG: 1 grey, 3 RGB, 4 RGBA */
	const char *why;         /* RFRM_TEX_NONE: why there is no PNG */
} rfrm_txtr_format;

/* The format of a code, by platform (NULL for a code neither enum has). The Switch enum
 * is Metroid Prime Remastered's (retrotool), which puts ASTC 4x4 at 53 as the corpus
 * does; the Wii U enum is kinnay's GX2 table. Both agree on 0..31. */
const rfrm_txtr_format *rfrm_txtr_format_of(uint32_t code, bool switch_platform);
const char *rfrm_txtr_type_name(uint32_t type);      /* "2D", "CUBE"...; NULL if unknown */
const char *rfrm_txtr_filter_name(uint32_t filter);
const char *rfrm_txtr_wrap_name(uint32_t wrap);

#define RFRM_TXTR_SWITCH_VERSION 15
#define RFRM_TXTR_TYPE_3D 2
#define RFRM_TXTR_TYPE_CUBE 3

typedef struct rfrm_txtr {
	nm_reader *r;
	nm_tree *t;
	const char *name;
	rfrm_item form;
	rfrm_item *items;
	size_t nitems;
	bool items_broken;
	nm_error items_err;
	const rfrm_item *head, *gpu;  /* into items; NULL if missing */

	/* HEAD */
	bool head_ok;
	nm_error head_err;
	uint32_t type, format, width, height, depth, tile_mode, swizzle, mip_count;
	uint32_t mip_size[NM_TEGRA_MAX_LEVELS];
	uint32_t sampler_flags;
	uint8_t filter, wrap[3];
	uint64_t head_extra;          /* bytes after the sampler */

	bool switch_platform;
	const rfrm_txtr_format *fmt;  /* NULL if the code is unknown */
	uint32_t layers;              /* faces of a cube map, layers of an array, else 1 */

	/* The surface: known when has_layout. */
	bool has_layout;
	nm_tegra_surface surf;
	char no_layout[200];          /* !has_layout: why there is no surface.bin */
	char no_png[200];             /* has_layout but no PNG: why */
	uint8_t codec[4];             /* the first buffer's tag, if the GPU chunk has 4 bytes */
	bool has_codec;

	const uint8_t *meta;          /* the PAK's META blob for it, or NULL (shown, not used) */
	size_t meta_len;
	nm_node *surface_node;        /* gpu/surface.bin */
	/* In a tree opened for editing: the surface as a reader, whose origin is the GPU
	 * chunk (rfrm_txtr_reencode), for the PNGs' inverses to patch (txtr_inverse.c). */
	nm_reader *surface_reader;
	/* A GPU chunk found broken stays broken (the source does not change under a mount):
	 * the PNGs that need the surface fail at once instead of decompressing it again. */
	pthread_mutex_t lock;
	bool surface_broken;
	nm_error surface_err;
} rfrm_txtr;

/* Parse form, HEAD and the first buffer tag (parse_txtr.c). Fails only when nothing
 * can be shown. */
nm_status rfrm_txtr_parse(nm_reader *r, nm_tree *t, const rfrm_item *form, rfrm_txtr *x,
			  nm_error *err);
/* Its lock (items are in the tree's arena): an nm_free_fn. */
void rfrm_txtr_free(void *x);
/* Does the texture have PNGs (known format, a layout, no reason against)? */
static inline bool rfrm_txtr_has_png(const rfrm_txtr *x)
{
	return x->has_layout && !x->no_png[0];
}
/* A name for one layer's directory under tex/: "face3", "layer7"; "" for one layer. */
void rfrm_txtr_layer_dir(const rfrm_txtr *x, uint32_t layer, char *buf, size_t len);

/* gpu/surface.bin (txtr_surface.c): the GPU buffers decompressed one after another into
 * the surface, exactly surf.size bytes. */
nm_status rfrm_txtr_surface(rfrm_txtr *x, nm_out *o, nm_error *err);
/* The surface's first n bytes alone (a range of a level's PNG): the first buffer's prefix,
 * the stream past it not checked. NM_E_UNSUPPORTED when the first buffer does not make
 * them (or is broken): the whole surface is needed then. */
nm_status rfrm_txtr_surface_prefix(const rfrm_txtr *x, uint8_t *dst, size_t n, nm_error *err);

/* The new bytes of the surface as the GPU chunk's (an nm_reencode_fn, ctx the texture):
 * each buffer compressed again with its own tag from the part it made. A chunk of
 * another length is refused (NM_E_UNSUPPORTED) unless the texture's reader can be laid
 * out again (nm_reader_repack_of: its RFRM sizes written again). */
nm_status rfrm_txtr_reencode(void *ctx, const uint8_t *plain, size_t len, struct nm_out *out,
			     nm_error *err);

/* One level of one layer: what a PNG under tex/ shows. */
typedef struct rfrm_txtr_level {
	rfrm_txtr *x;
	uint32_t layer, level;
} rfrm_txtr_level;

/* In a tree opened for editing (txtr_inverse.c): the surface reader, and the inverses
 * of the PNGs and of surface.bin, paired with their producers. */
nm_status rfrm_txtr_editable(rfrm_txtr *x, nm_produce_fn produce_png,
			     nm_produce_fn produce_surface);

/* Called before a level's surface bytes are fetched (inflated): what the decode of
 * format f will need and can be made meanwhile on another CPU (ASTC's context, ~4 ms:
 * nm_astc_prepare) is started. */
void rfrm_txtr_decode_ahead(const rfrm_txtr_format *f, const nm_options *opt);

/* One level, its rows of blocks (lin, level.linear_size bytes), into w x h RGBA8
 * (txtr_decode.c); ASTC's rows split over at most threads threads. */
nm_status rfrm_txtr_decode(const rfrm_txtr_format *f, const nm_options *opt, unsigned threads,
			   const uint8_t *lin, size_t len, unsigned w, unsigned h, uint8_t *rgba);

/* The TXTR tree (tree_txtr.c). meta: the PAK's blob for it, or NULL. */
nm_status rfrm_build_txtr(nm_reader *r, nm_tree *t, nm_node *dir, const rfrm_item *form,
			  const uint8_t *meta, size_t meta_len, nm_error *err);

/* For a model in a PAK: the path of the asset's level-0 PNG inside its own tree
 * ("tex/0.png"), if that PNG exists; else false with why (a short phrase). Reads the
 * asset's form and HEAD only. */
bool rfrm_txtr_png_path(nm_reader *r, nm_tree *t, char *path, size_t len, char *why,
			size_t why_len);

/* For a model's model.glb: the asset's level-0 PNG as a source (the same bytes as its
 * tree's tex/0.png), made without its tree; false when it has none. r must outlive the
 * source (the model's content holds what this parses). */
bool rfrm_txtr_png_source(nm_reader *r, nm_tree *t, nm_png_source *src);

#endif
