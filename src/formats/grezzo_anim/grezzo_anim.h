/* Grezzo's 3DS animations (FORMATS.md 10.11, 10.12; little-endian):
 *   CMAB: material animation (OoT3D, MM3D): texture translation, palette swap, scale,
 *         colour and rotation of a CMB material's texture slot;
 *   CSAB: skeletal animation (OoT3D v3, MM3D v5): per-bone scale, rotation, translation.
 *
 * The parse (parse_cmab.c, parse_csab.c) reads a file into a ga_anim of plain records:
 * targets, each with its tracks as nm_key arrays and an interpolation, so that anything
 * (the tree here, a model's glb later) samples them with nm_keys_sample through
 * ga_track_sample. It needs nothing from the tree but its arena; the tree code
 * (tree_*.c) only reads the result. A target or track that cannot be read keeps the
 * reason (error) and the rest of the file is still read. */
#ifndef NM_GREZZO_ANIM_H
#define NM_GREZZO_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/keyframes.h"
#include "lib/reader.h"
#include "lib/tree.h"

typedef enum ga_kind { GA_CMAB, GA_CSAB } ga_kind;

/* How a track's keys are stored. */
typedef enum ga_form {
	GA_FORM_LONG,        /* CMAB OoT3D / CSAB v3: u32 type, u32 count, s32 start, u32 end */
	GA_FORM_SHORT,       /* CMAB MM3D: u16 type, u16 count, u16 start, u16 end, f32, u32 */
	GA_FORM_S16,         /* CSAB v3 and v5 Hermite rotation keys stored as s16 */
	GA_FORM_V5_CONSTANT, /* CSAB v5: count x (f32 scale, f32 bias, u32 raw) */
	GA_FORM_V5_LINEAR,   /* CSAB v5: f32 scale, f32 bias, one u16/s16 per frame */
	GA_FORM_V5_HERMITE   /* CSAB v5: u8 0, u8 2, u16 count, then v3-style keys */
} ga_form;

typedef struct ga_track {
	uint64_t at;          /* absolute offset of the track's header */
	uint64_t end;         /* absolute offset just past its last key */
	ga_form form;
	uint32_t type;        /* interpolation type as stored (1 linear, 2 Hermite, 3 step) */
	nm_interp interp;
	uint32_t count;       /* keys */
	int32_t start;        /* the header's frame range, as stored (0 when the form has none) */
	uint32_t end_frame;
	float scale, bias;    /* v5 linear; CMAB short form: the f32 after the frames (scale) */
	uint32_t unknown;     /* CMAB short form: the last u32 */
	bool rotation;        /* a CSAB rotation: keys converted to degrees */
	/* Keys in display units: CMAB values as stored (0-1 colours, texture-list indices,
	 * UV units); CSAB scale and translation as stored, rotations in degrees. Frame
	 * numbers are the stored integers. A glb writer wants radians: x * pi / 180. */
	nm_key *keys;
	bool hermite_tangents;/* the keys carry tangents (Hermite); else they are unused */
} ga_track;

#define GA_MAX_TRACKS 9

/* One animated thing: a CMAB `mmad` (material, texture slot) or a CSAB `anod` (bone). */
typedef struct ga_target {
	uint64_t at;          /* absolute offset of its FourCC */
	uint64_t end;         /* past its last track (or its header) */
	/* CMAB: type 1-5 (names: ga_cmab_type_name), material index in CMB `mats` order,
	 * channel (texture slot); has_channel false for type 3 (no channel field). */
	uint32_t type, material, channel;
	bool has_channel;
	/* CSAB: the bone index in the CMB's skl; rot_flag 1 = rotations stored as s16
	 * (v3: u16, v5: u8 and one unknown u8). */
	uint16_t bone, rot_flag;
	uint8_t unknown_v5;
	/* Tracks in stored slot order: CMAB per ga_cmab_track_names(type); CSAB tx ty tz
	 * rx ry rz sx sy sz (GA_CSAB_*). offset 0 = no track: the model's own value holds
	 * (CMB bind pose or material value), which this file does not know. */
	unsigned ntracks;
	uint16_t track_off[GA_MAX_TRACKS];
	ga_track *track[GA_MAX_TRACKS]; /* NULL when absent */
	bool ok;
	char *error;          /* why not ok (tree arena), or NULL */
} ga_target;

/* CSAB track slots, in stored order. */
enum { GA_CSAB_TX, GA_CSAB_TY, GA_CSAB_TZ, GA_CSAB_RX, GA_CSAB_RY, GA_CSAB_RZ,
       GA_CSAB_SX, GA_CSAB_SY, GA_CSAB_SZ };

/* A CMAB `txpt` entry: a texture the palette tracks switch to. */
typedef struct ga_texture {
	uint64_t at;          /* absolute offset of the 0x18-byte entry */
	uint32_t size;
	uint16_t mips;
	uint8_t etc1, cube;
	uint16_t width, height, gl_format, data_type;
	uint32_t data_offset; /* relative to the header's texture data offset */
	uint32_t name_index;  /* into strt */
	const char *name;     /* strt's string, or NULL */
} ga_texture;

typedef struct ga_anim {
	ga_kind kind;
	const char *file;
	uint64_t file_size;
	uint32_t size_field, version, unknown_0c;
	uint32_t anim_count, anim_off;   /* header: animation count and offset */
	/* The animation: duration as stored (sampled.csv has rows 0 ... duration - 1),
	 * loop 0 once, 1 repeat. */
	uint32_t duration, loop;
	int32_t cmab_tag;                /* CMAB: the animation's first s32 (-1) */
	float v5_floats[3];              /* CSAB v5: 0x10 (40.0 in MM3D) */
	/* CMAB */
	uint32_t strt_off, texdata_off, mads_off, txpt_off; /* absolute (0: none) */
	/* The mads offset as the animation gives it, when it points elsewhere than the list
	 * right after the animation header, which is read instead (parse_cmab.c); else 0. */
	uint32_t mads_field;
	uint32_t nstrings;
	char **strings;                  /* strt, tree arena */
	uint16_t ntextures, txpt_unknown;
	ga_texture *textures;
	bool strt_ok, txpt_ok;
	char *strt_error, *txpt_error;
	/* CSAB */
	uint32_t nbones;
	int16_t *bone_table;             /* bone -> target index, -1 none */
	uint64_t anod_table;             /* absolute offset of the u32 anod offsets */
	/* Both */
	uint32_t ntargets;
	ga_target *targets;
	uint64_t ntracks, nkeys;         /* present tracks and their keys */
	bool short_tracks, long_tracks;  /* CMAB: which track header forms occur */
} ga_anim;

/* Parse r (the whole file is loaded once; its size must pass the options' limit). t
 * gives the arena every table lives in. A broken file header or animation header is
 * an error ("x.cmab: cmab header at 0x14: ..."); a broken target or track is kept in
 * that target's error and NM_OK is returned. */
nm_status ga_parse_cmab(nm_reader *r, nm_tree *t, ga_anim *out, nm_error *err);
nm_status ga_parse_csab(nm_reader *r, nm_tree *t, ga_anim *out, nm_error *err);
/* Either, by the magic. */
nm_status ga_parse(nm_reader *r, nm_tree *t, ga_anim *out, nm_error *err);

/* The track's value at frame (NAN when tr is NULL: the model's own value holds). */
double ga_track_sample(const ga_track *tr, double frame);

/* Names (NULL for an unknown value). */
const char *ga_cmab_type_name(uint32_t type);       /* "translation", "palette", ... */
const char *ga_loop_name(uint32_t loop);            /* "once", "repeat" */
const char *ga_interp_name(uint32_t stored_type, ga_kind kind); /* "linear", ... */
/* The track slot names of a target: CMAB by type, CSAB translation_x ... scale_z;
 * NULL past the slots. */
const char *ga_track_name(const ga_anim *a, const ga_target *g, unsigned slot);
const char *ga_form_name(ga_form f);

/* The longest animation sampled.csv is made for. The duration is a u32 no bytes of the
 * file bound: a flipped byte in a 1 KB file would otherwise announce a 1 GB table that a
 * walk of the tree produces. 65536 frames is 36 minutes at 30 fps (MM3D's tracks store
 * frames as u16); past it the key CSVs still hold every key. */
#define GA_MAX_SAMPLED_FRAMES 65536u

/* tree_*.c */
nm_status ga_tree_cmab(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r);
nm_status ga_tree_csab(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r);
nm_status ga_tree_txpt(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r);
/* Shared by both trees: a target's directory content (header lines are the caller's),
 * the key CSV of each track and sampled.csv with the given column names. */
nm_status ga_tree_tracks(nm_tree *t, nm_node *dir, const ga_anim *a, const ga_target *g,
			 const char *const *sampled_cols, const unsigned *sampled_slot,
			 size_t nsampled);
/* nm_text that always leaves o empty. */
nm_node *ga_text(nm_tree *t, nm_node *dir, const char *name, nm_out *o);
/* raw.bin: the bytes [at, end) of r, clipped to the file. */
bool ga_raw(nm_tree *t, nm_node *dir, nm_reader *r, uint64_t at, uint64_t end);
/* error.txt holding msg (a target's, txpt's or strt's kept error). */
nm_status ga_error_file(nm_tree *t, nm_node *dir, const char *msg);
/* `name: N keys, TYPE, FORM at 0x...` lines for a target's header.txt. */
void ga_tracks_text(nm_out *o, const ga_anim *a, const ga_target *g);

#endif
