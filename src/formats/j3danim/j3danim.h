/* J3D animations (FORMATS.md 10.1-10.10): BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA.
 *
 * The parse (parse_*.c) is separate from the tree (tree_*.c) so that another writer (a
 * model's glb) can read an animation without the tree:
 *
 *	j3danim *a;
 *	if (j3danim_parse(reader, &a, err) == NM_OK &&
 *	    j3danim_load_keys(reader, a, err) == NM_OK) {
 *		for each target a->targets[i], each track tr of it:
 *			tr->keys[0 .. tr->count - 1]          (as stored, tr->unit's raw units)
 *			j3danim_sample(a, tr, tr->keys, frame)  (the game's value, shown units)
 *		j3danim_sample_joint(a, &a->targets[i], frame, &trs)   (BCK/BCA)
 *	}
 *	j3danim_free(a);
 *
 * j3danim_parse reads the header and the record tables only (what the tree's sizes need);
 * j3danim_load_keys reads every track's keys (the tree's producers read one track at a
 * time with j3danim_track_keys instead). */
#ifndef NM_J3DANIM_H
#define NM_J3DANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/keyframes.h"
#include "lib/options.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

#define J3DANIM_HEADER_SIZE 0x20u

typedef enum j3danim_kind {
	J3DANIM_BCK, /* ANK1: joint S/R/T, keyed */
	J3DANIM_BCA, /* ANF1: joint S/R/T, one value per frame */
	J3DANIM_BTK, /* TTK1: texture matrix S/R/T, keyed */
	J3DANIM_BRK, /* TRK1: TEV colour and konst registers, keyed */
	J3DANIM_BPK, /* PAK1: material colour 0, keyed */
	J3DANIM_BTP, /* TPT1: texture index per frame */
	J3DANIM_BVA, /* VAF1: shape visibility per frame */
	J3DANIM_BLK, /* CLK1: cluster weight, keyed */
	J3DANIM_BLA, /* CLF1: cluster weight per frame */
	J3DANIM_NKINDS
} j3danim_kind;

/* What a track's values are, which says how the game post-processes a sample and how
 * the tree shows it. */
typedef enum j3danim_unit {
	J3DANIM_SCALE,       /* factor; empty track 1 */
	J3DANIM_ROTATION,    /* s16 angle units, shifted left by the rotation shift (keyed
			      * kinds), 0x8000 = 180 degrees; empty 0 */
	J3DANIM_TRANSLATION, /* model units (texture: UV units); empty 0 */
	J3DANIM_COLOR_U8,    /* 0..255, samples clamped to 0..255 and truncated; empty 0 */
	J3DANIM_COLOR_S10,   /* TEV colour register: clamped to -1024..1023; empty 0 */
	J3DANIM_TEXTURE,     /* u16 texture index (TEX1) */
	J3DANIM_VISIBLE,     /* u8, 0 hidden */
	J3DANIM_WEIGHT       /* cluster weight; empty 1 */
} j3danim_unit;

/* One value array of the block: where it is and what one element is. */
typedef struct j3danim_array {
	const char *name;    /* "scale", "rotation", "c_red", ... (header.txt) */
	uint32_t off;        /* from the block's start */
	uint32_t count;      /* element count the header declares */
	uint8_t elem;        /* bytes per element: 1, 2 or 4 */
	bool is_float;       /* f32; else an integer of elem bytes */
	bool is_signed;
} j3danim_array;

typedef struct j3danim_track {
	const char *name;    /* "rotation_x", "red", "texture", ... (its CSV's stem) */
	j3danim_unit unit;
	bool full;           /* one value per frame (BCA, BTP, BVA, BLA) rather than keys */
	bool used;           /* the game samples it (BTK: 5 of each entry's 9 tracks) */
	uint16_t count;      /* keys, or per-frame values */
	uint16_t first;      /* element index of the first into its array */
	uint16_t mode;       /* keyed, count >= 2: 0 one tangent, else in and out (the game
			      * reads any non-zero mode as 1) */
	uint8_t array;       /* index into j3danim.arrays */
	uint64_t off;        /* absolute offset of its first element in the reader */
	uint64_t elements;   /* elements it spans: count x (1, 3 or 4) */
	bool past_count;     /* spans elements past the array's declared count (BTP quirk,
			      * 10.7): read, since the game reads by pointer */
	nm_key *keys;        /* j3danim_load_keys: count keys, values as stored (full tracks:
			      * time = index, tangents 0) */
} j3danim_track;

typedef enum j3danim_target_kind {
	J3DANIM_JOINT,       /* BCK/BCA: JNT1 joint `index` */
	J3DANIM_TEXMTX,      /* BTK: material `name`, texMtx[`slot`] (post: post-tex matrix) */
	J3DANIM_TEV_COLOR,   /* BRK C: material `name`, tevColor[`slot`] (GX_TEVREG n) */
	J3DANIM_TEV_KONST,   /* BRK K: material `name`, tevKColor[`slot`] */
	J3DANIM_MAT_COLOR,   /* BPK: material `name`, matColor[0] */
	J3DANIM_TEX_NO,      /* BTP: material `name`, texNo[`slot`] */
	J3DANIM_SHAPE,       /* BVA: SHP1 shape `index` */
	J3DANIM_CLUSTER      /* BLK/BLA: cluster `index` */
} j3danim_target_kind;

typedef struct j3danim_target {
	j3danim_target_kind kind;
	uint32_t index;      /* entry index in its table */
	const char *name;    /* material name (material kinds), NULL else or when unreadable */
	uint16_t material_id;/* the stored ID (a tool leftover: match materials by name) */
	uint8_t slot;        /* texture-matrix slot, register id, texture slot */
	bool post;           /* BTK: a post-tex matrix entry */
	float center[3];     /* BTK: the matrix's center */
	j3danim_track *tracks;
	size_t ntracks;
	const char *problem; /* why its tracks cannot be read (a range past the block), or
			      * NULL; its message names file, block and offset */
} j3danim_target;

typedef struct j3danim {
	j3danim_kind kind;
	const char *file;    /* the reader's name, for messages */
	char block_magic[5];
	char file_kind[5];   /* the file header's FourCC at 0x04 ("bck1") */
	uint32_t size_field; /* the file header's size */
	uint32_t block_count;
	uint64_t block_off;  /* J3DANIM_HEADER_SIZE */
	uint32_t block_size; /* as declared */
	uint64_t block_avail;/* bytes of the block in the file (size clipped to the file) */
	uint8_t loop;        /* 0 once, 1 once and reset, 2 repeat, 3 mirror once, 4 mirror
			      * repeat (10.1) */
	uint8_t shift;       /* rotation shift (BCK, BTK; 0 elsewhere) */
	uint8_t byte9;       /* block byte 0x09 as stored (the shift, or padding) */
	int16_t duration;    /* frames */
	uint32_t calc_type;  /* BTK 0x5C as stored (0 basic, 1 Maya, else basic) */
	uint32_t bck_sound;  /* BCK: file header 0x1C (sound table offset, 0xFFFFFFFF none) */
	j3danim_array arrays[12];
	size_t narrays;
	struct j3danim_field {
		const char *key;
		uint32_t value;
		bool hex;
	} fields[48];        /* the block header's fields as read, for header.txt */
	size_t nfields;
	j3danim_target *targets;
	size_t ntargets;
	uint64_t keys_total; /* sum of track counts */
	void *mem;           /* owned allocations (j3danim_free) */
} j3danim;

/* Whether the first bytes are a J3D animation this driver reads (J3D1 + a kind). */
bool j3danim_probe(const uint8_t *head, size_t len);
/* Header and record tables of the animation in r. A file that is no J3D animation, or
 * whose header is cut, fails; so does a block whose tables do not fit (then *out is
 * still set, with no targets, for the tree to show the block and its error). A target
 * whose tracks run past the block is kept with its `problem`. Messages name file,
 * block and offset. Free *out with j3danim_free whenever it is set. */
nm_status j3danim_parse(nm_reader *r, j3danim **out, nm_error *err);
void j3danim_free(j3danim *a);
/* The keys of every track (targets with a problem get none), their total checked
 * against the reader's max_file_size (nm_reader_options) before anything is allocated. */
nm_status j3danim_load_keys(nm_reader *r, j3danim *a, nm_error *err);
/* The keys of one track into keys[0 .. tr->count - 1]. */
nm_status j3danim_track_keys(nm_reader *r, const j3danim *a, const j3danim_track *tr,
			     nm_key *keys, nm_error *err);

/* Raw stored unit -> shown unit: degrees per rotation unit (2^shift x 180 / 32768 for
 * keyed kinds, 180 / 32768 for BCA), 1 for everything else. */
double j3danim_unit_scale(const j3danim *a, const j3danim_track *tr);
/* The value the game computes for tr at frame (keys: tr's keys), in shown units
 * (rotation: degrees of the wrapped s16 angle; colours after their clamps; per-frame
 * tables their step value). */
double j3danim_sample(const j3danim *a, const j3danim_track *tr, const nm_key *keys,
		      float frame);
/* The game's s16 angle for a rotation track (before conversion to degrees). */
int16_t j3danim_sample_angle(const j3danim *a, const j3danim_track *tr, const nm_key *keys,
			     float frame);

/* A joint's sampled transform (BCK/BCA targets; tracks' keys loaded). */
typedef struct j3danim_trs {
	float scale[3];
	int16_t angle[3];     /* s16 angles, 0x8000 = 180 degrees */
	float rotation[3];    /* the same in degrees */
	float translation[3];
} j3danim_trs;
void j3danim_sample_joint(const j3danim *a, const j3danim_target *joint, float frame,
			  j3danim_trs *out);

/* Names for text. */
const char *j3danim_kind_name(j3danim_kind k);     /* "BCK" */
const char *j3danim_file_kind(j3danim_kind k);     /* "bck1" */
const char *j3danim_loop_name(uint8_t loop);       /* "repeat", NULL past 4 */

/* ---- internal: what parse_*.c and tree_*.c share ---- */
typedef struct j3danim_parse_ctx {
	j3danim *a;
	nm_reader *r;
	nm_view head;        /* the block's header (its kind's size) */
} j3danim_parse_ctx;
/* Zeroed memory owned by a (freed by j3danim_free), count * size overflow-checked. */
void *j3danim_alloc(j3danim *a, size_t count, size_t size);
/* A header field for header.txt (also read back by the parsers: returns v). */
uint32_t j3danim_field(j3danim *a, const char *key, uint32_t v, bool hex);
/* "FILE: ANK1 at ABS: ..." for rel bytes into the block; returns NM_E_FORMAT. */
nm_status j3danim_fail(const j3danim *a, nm_error *err, uint64_t rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A view of len bytes at rel in the block, failing when they pass the block's bytes. */
nm_status j3danim_load(j3danim_parse_ctx *p, uint64_t rel, uint64_t len, const char *what,
		       nm_view *v, nm_error *err);
/* A value array from the header: returns its index. */
uint8_t j3danim_add_array(j3danim *a, const char *name, uint32_t off, uint32_t count,
			  uint8_t elem, bool is_float, bool is_signed);
/* The entry names of a name table at rel (NULL entries where it has none). */
nm_status j3danim_names(j3danim_parse_ctx *p, uint32_t rel, size_t want, const char ***out,
			nm_error *err);
/* A track from a 6-byte key table (keyed) or a 4-byte (count, first) pair (full). */
void j3danim_track_from(j3danim_track *tr, nm_view *v, size_t off, bool full, const char *name,
			j3danim_unit unit, uint8_t array);
nm_status j3danim_parse_transform(j3danim_parse_ctx *p, nm_error *err);
nm_status j3danim_parse_material(j3danim_parse_ctx *p, nm_error *err);
nm_status j3danim_parse_other(j3danim_parse_ctx *p, nm_error *err);

/* tree_info.c: info.txt and the block's directory (raw.bin, header.txt, error.txt). */
nm_status j3danim_tree_info(nm_reader *r, nm_tree *t, nm_node *root, const j3danim *a,
			    const nm_error *block_err);
/* tree_targets.c: a directory per target with its key CSVs and sampled.csv. */
nm_status j3danim_tree_targets(nm_reader *r, nm_tree *t, nm_node *root, j3danim *a);

#endif
