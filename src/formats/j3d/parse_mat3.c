/* MAT3 (and MAT2 of J3D2bmd2 files): materials as indices into shared tables
 * (FORMATS.md 3.6). The chunk holds records only, so it is loaded whole while the tree
 * is built; each material's text resolves every index into the value it points at.
 *
 * MAT2 layout (J3DMaterialBlock_v21 in the decompiled JSystem): the same tables without
 * the indirect, ambient colour and light tables, and 0x138-byte entries that lack the
 * ambient colour and light slots. No corpus file has MAT2, so that layout is tested only
 * against the project's own fixture writer. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/j3d/j3d.h"

enum mt {
	T_ENTRIES, T_REMAP, T_NAMES, T_IND, T_CULL, T_MATCOLOR, T_CHANNUM, T_CHANCTRL,
	T_AMBCOLOR, T_LIGHT, T_TEXGENNUM, T_TEXGEN, T_POSTTEXGEN, T_TEXMTX, T_POSTTEXMTX,
	T_TEXNO, T_TEVORDER, T_TEVCOLOR, T_KCOLOR, T_TEVNUM, T_TEVSTAGE, T_SWAPMODE,
	T_SWAPTABLE, T_FOG, T_ALPHACOMP, T_BLEND, T_ZMODE, T_ZCOMPLOC, T_DITHER, T_NBT,
	T_COUNT
};

static const char *const table_names[T_COUNT] = {
	"entries", "remap", "names", "indirect", "cull_modes", "material_colors",
	"channel_counts", "channel_controls", "ambient_colors", "lights", "texgen_counts",
	"texgens", "post_texgens", "tex_matrices", "post_tex_matrices", "texture_indices",
	"tev_orders", "tev_colors", "konst_colors", "tev_stage_counts", "tev_stages",
	"swap_modes", "swap_tables", "fogs", "alpha_compares", "blends", "z_modes",
	"z_comp_locs", "dithers", "nbt_scales"
};

/* Element sizes; entries and indirect entries are indexed directly, not by a slot. */
static const uint32_t elem_size[T_COUNT] = {
	0, 2, 0, 0x138, 4, 4, 1, 8, 4, 0x34, 1, 4, 4, 0x64, 0x64, 2, 4, 8, 4, 1, 0x14, 4, 4,
	0x2C, 8, 4, 4, 1, 1, 0x10
};

/* Header offset of each table; 0 = the layout has no such table. */
static const uint16_t hdr_v26[T_COUNT] = {
	0x0C, 0x10, 0x14, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x2C, 0x30, 0x34, 0x38, 0x3C, 0x40,
	0x44, 0x48, 0x4C, 0x50, 0x54, 0x58, 0x5C, 0x60, 0x64, 0x68, 0x6C, 0x70, 0x74, 0x78,
	0x7C, 0x80
};
static const uint16_t hdr_v21[T_COUNT] = {
	0x0C, 0x10, 0x14, 0, 0x18, 0x1C, 0x20, 0x24, 0, 0, 0x28, 0x2C, 0x30, 0x34, 0x38,
	0x3C, 0x40, 0x44, 0x48, 0x4C, 0x50, 0x54, 0x58, 0x5C, 0x60, 0x64, 0x68, 0x6C, 0x70,
	0x74
};

/* Fields of one material entry. */
typedef struct layout {
	uint32_t entry_size, header_size;
	int matcolor, colorchan, ambcolor, light, texgen, posttexgen, texmtx, posttexmtx,
	    texno, kcolor, kcsel, kasel, tevorder, tevcolor, tevstage, swapmode, swaptable,
	    fog, alphacomp, blend, nbt;
} layout;

static const layout L26 = { 0x14C, 0x84, 0x08, 0x0C, 0x14, 0x18, 0x28, 0x38, 0x48, 0x5C,
			    0x84, 0x94, 0x9C, 0xAC, 0xBC, 0xDC, 0xE4, 0x104, 0x124, 0x144,
			    0x146, 0x148, 0x14A };
static const layout L21 = { 0x138, 0x78, 0x08, 0x0C, -1, -1, 0x14, 0x24, 0x34, 0x48,
			    0x70, 0x80, 0x88, 0x98, 0xA8, 0xC8, 0xD0, 0xF0, 0x110, 0x130,
			    0x132, 0x134, 0x136 };

typedef struct mctx {
	j3d_model *m;
	j3d_mat3 *t;
	nm_view *v;               /* the whole chunk */
	const layout *L;
	const uint16_t *hdr;
	size_t entry;             /* offset of the entry in the chunk */
	nm_rec *r;                /* the material's text (j3d_material_record) */
} mctx;

static uint32_t table_off(nm_view *v, const uint16_t *hdr, int k)
{
	return hdr[k] ? nm_u32(v, hdr[k]) : 0;
}

/* Element idx of table k, or NULL when the table is absent or too short. */
static const uint8_t *elem(mctx *c, int k, uint32_t idx)
{
	uint32_t off = table_off(c->v, c->hdr, k);
	if (!off)
		return NULL;
	uint64_t at = (uint64_t)off + (uint64_t)idx * elem_size[k];
	if (at > c->v->size || elem_size[k] > c->v->size - at)
		return NULL;
	return c->v->data + at;
}

static uint8_t e8(mctx *c, int field) { return nm_u8(c->v, c->entry + (size_t)field); }
static uint16_t e16(mctx *c, int field, int k)
{
	return nm_u16(c->v, c->entry + (size_t)field + 2 * (size_t)k);
}

static uint16_t b16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/* The chunk offset of p (an element of a table in c->v). */
static size_t at(const mctx *c, const uint8_t *p) { return (size_t)(p - c->v->data); }

/* "key3_field", "key3", "key_field" or "key" (k < 0: no slot number). */
static const char *key_k(char *full, size_t n, const char *key, int k, const char *field)
{
	if (k >= 0)
		snprintf(full, n, "%s%d%s%s", key, k, *field ? "_" : "", field);
	else
		snprintf(full, n, "%s%s%s", key, *field ? "_" : "", field);
	return full;
}

#define KEY(key, k, field) key_k(full, sizeof full, key, k, field)

static void enum_k(mctx *c, const char *key, int k, const char *field, const uint8_t *p,
		   int kind)
{
	char full[96];
	nm_rec_enum(c->r, KEY(key, k, field), at(c, p), NM_FIELD_U8, &j3d_gx_names, kind);
}

static void ints_k(mctx *c, const char *key, int k, const char *field, const uint8_t *p,
		   nm_field_type type, unsigned n)
{
	char full[96];
	nm_rec_ints(c->r, KEY(key, k, field), at(c, p), type, n);
}

static void floats_k(mctx *c, const char *key, int k, const char *field, const uint8_t *p,
		     unsigned n)
{
	char full[96];
	nm_rec_floats(c->r, KEY(key, k, field), at(c, p), n);
}

/* The index of a slot is the material's choice of a shared table entry: it is shown
 * (read-only: pointing the slot at another entry would leave the lines below showing
 * the old one), then the entry's values, which are edited in place. */
static const uint8_t *slot_at(mctx *c, const char *key, int k, uint32_t idx, int table)
{
	char full[96];
	nm_rec_derived(c->r, KEY(key, k, "index"), "%u", idx);
	const uint8_t *p = elem(c, table, idx);
	if (!p)
		nm_rec_derived(c->r, KEY(key, k, ""), "index %u is outside the %s table", idx,
			       table_names[table]);
	return p;
}

/* A u8 index field (count tables, cull, z mode...): 0xFF = unused. */
static const uint8_t *byte_slot(mctx *c, const char *key, int field, int table)
{
	uint8_t idx = e8(c, field);
	return idx == 0xFF ? NULL : slot_at(c, key, -1, idx, table);
}

/* A u16 slot k of a field array: 0xFFFF = unused. */
static const uint8_t *slot(mctx *c, const char *key, int field, int k, int table)
{
	uint16_t idx = e16(c, field, k < 0 ? 0 : k);
	return idx == 0xFFFF ? NULL : slot_at(c, key, k, idx, table);
}

static void channels(mctx *c)
{
	const uint8_t *p = byte_slot(c, "color_channel_count", 0x02, T_CHANNUM);
	if (p)
		ints_k(c, "color_channel_count", -1, "", p, NM_FIELD_U8, 1);
	for (int k = 0; k < 2; k++)
		if ((p = slot(c, "material_color", c->L->matcolor, k, T_MATCOLOR)))
			ints_k(c, "material_color", k, "", p, NM_FIELD_U8, 4);
	if (c->L->ambcolor >= 0)
		for (int k = 0; k < 2; k++)
			if ((p = slot(c, "ambient_color", c->L->ambcolor, k, T_AMBCOLOR)))
				ints_k(c, "ambient_color", k, "", p, NM_FIELD_U8, 4);
	for (int k = 0; k < 4; k++) {
		if (!(p = slot(c, "color_channel", c->L->colorchan, k, T_CHANCTRL)))
			continue;
		char full[96];
		ints_k(c, "color_channel", k, "lighting", p, NM_FIELD_U8, 1);
		enum_k(c, "color_channel", k, "material_source", p + 1, J3D_K_COLOR_SRC);
		nm_rec_hex(c->r, KEY("color_channel", k, "light_mask"), at(c, p + 2), NM_FIELD_U8, 2);
		enum_k(c, "color_channel", k, "diffuse_function", p + 3, J3D_K_DIFFUSE_FN);
		enum_k(c, "color_channel", k, "attenuation_function", p + 4, J3D_K_ATTN_FN);
		enum_k(c, "color_channel", k, "ambient_source", p + 5, J3D_K_COLOR_SRC);
	}
	if (c->L->light >= 0)
		for (int k = 0; k < 8; k++) {
			if (!(p = slot(c, "light", c->L->light, k, T_LIGHT)))
				continue;
			floats_k(c, "light", k, "position", p, 3);
			floats_k(c, "light", k, "direction", p + 12, 3);
			ints_k(c, "light", k, "color", p + 24, NM_FIELD_U8, 4);
			floats_k(c, "light", k, "angle_attenuation", p + 28, 3);
			floats_k(c, "light", k, "distance_attenuation", p + 40, 3);
		}
}

static void texgens(mctx *c)
{
	const uint8_t *p = byte_slot(c, "texgen_count", 0x03, T_TEXGENNUM);
	if (p)
		ints_k(c, "texgen_count", -1, "", p, NM_FIELD_U8, 1);
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, "texgen", c->L->texgen, k, T_TEXGEN)))
			continue;
		enum_k(c, "texgen", k, "type", p, J3D_K_TEXGEN_TYPE);
		enum_k(c, "texgen", k, "source", p + 1, J3D_K_TEXGEN_SRC);
		enum_k(c, "texgen", k, "matrix", p + 2, J3D_K_TEXMTX);
	}
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, "post_texgen", c->L->posttexgen, k, T_POSTTEXGEN)))
			continue;
		enum_k(c, "post_texgen", k, "type", p, J3D_K_TEXGEN_TYPE);
		enum_k(c, "post_texgen", k, "source", p + 1, J3D_K_TEXGEN_SRC);
		enum_k(c, "post_texgen", k, "matrix", p + 2, J3D_K_POSTTEXMTX);
	}
}

static void tex_matrix(mctx *c, const char *key, int k, const uint8_t *p)
{
	char full[96];
	enum_k(c, key, k, "projection", p, J3D_K_TEXGEN_TYPE);
	nm_rec_bits(c->r, KEY(key, k, "mapping_mode"), at(c, p + 1), NM_FIELD_U8, 0, 6, false);
	nm_rec_bits(c->r, KEY(key, k, "maya"), at(c, p + 1), NM_FIELD_U8, 7, 1, false);
	floats_k(c, key, k, "center", p + 4, 3);
	floats_k(c, key, k, "scale", p + 0x10, 2);
	/* An s16 angle, 0x8000 = 180 degrees, shown both ways. */
	nm_rec_scaled(c->r, KEY(key, k, "rotation_degrees"), at(c, p + 0x18), NM_FIELD_S16, 1,
		      180.0, 32768.0);
	ints_k(c, key, k, "rotation_raw", p + 0x18, NM_FIELD_S16, 1);
	floats_k(c, key, k, "translation", p + 0x1C, 2);
	floats_k(c, key, k, "effect_matrix", p + 0x24, 16);
}

/* TEX1 index of texture slot k, or -1. */
static int texture_of(mctx *c, int k)
{
	uint16_t idx = e16(c, c->L->texno, k);
	if (idx == 0xFFFF)
		return -1;
	const uint8_t *p = elem(c, T_TEXNO, idx);
	return p ? b16(p) : -1;
}

/* The UV set the TEV stage reading texture k takes its coordinates from (the texgen's
 * source TEXn), and in *mtx the texture matrix slot that texgen applies (GX_TEXMTX0 = 30
 * in steps of 3 up to 57; -1: identity or none), which a BTK animates. 0 when no stage
 * samples it or the coordinates are generated otherwise (from positions or normals:
 * environment maps). */
static uint8_t texture_uv(mctx *c, int k, int8_t *mtx)
{
	*mtx = -1;
	for (int s = 0; s < 16; s++) {
		uint16_t idx = e16(c, c->L->tevorder, s);
		const uint8_t *p = idx == 0xFFFF ? NULL : elem(c, T_TEVORDER, idx);
		if (!p || p[1] != k)
			continue;
		idx = p[0] < 8 ? e16(c, c->L->texgen, p[0]) : 0xFFFF;
		const uint8_t *g = idx == 0xFFFF ? NULL : elem(c, T_TEXGEN, idx);
		if (g && g[2] >= 30 && g[2] <= 57 && (g[2] - 30) % 3 == 0)
			*mtx = (int8_t)((g[2] - 30) / 3);
		return g && g[1] >= 4 && g[1] <= 11 ? (uint8_t)(g[1] - 4) : 0;
	}
	return 0;
}

static void textures(mctx *c)
{
	const uint8_t *p;
	for (int k = 0; k < 10; k++)
		if ((p = slot(c, "tex_matrix", c->L->texmtx, k, T_TEXMTX)))
			tex_matrix(c, "tex_matrix", k, p);
	for (int k = 0; k < 20; k++)
		if ((p = slot(c, "post_tex_matrix", c->L->posttexmtx, k, T_POSTTEXMTX)))
			tex_matrix(c, "post_tex_matrix", k, p);
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, "texture", c->L->texno, k, T_TEXNO)))
			continue;
		/* The TEX1 texture of this table entry: a stored u16; its file name follows
		 * from it (as it was: the line after an edited index is not another edit). */
		uint16_t ti = b16(p);
		char full[96];
		ints_k(c, "texture", k, "", p, NM_FIELD_U16, 1);
		const j3d_tex1 *tx = c->m->tex1;
		if (tx && ti < tx->count && tx->tex[ti].stem)
			nm_rec_derived(c->r, KEY("texture", k, "file"), "tex1/%s.png", tx->tex[ti].stem);
	}
}

static void tev(mctx *c)
{
	const uint8_t *p = byte_slot(c, "tev_stage_count", 0x04, T_TEVNUM);
	unsigned nstages = 16;
	if (p) {
		/* It also says how many konst select lines follow: another count would
		 * change this file's lines, which a record edit does not do. */
		nm_rec *r = c->r;
		r->locked = "is also the number of konst_color_select lines of this file: "
			    "another count is not edited here yet";
		ints_k(c, "tev_stage_count", -1, "", p, NM_FIELD_U8, 1);
		r->locked = NULL;
		nstages = p[0] < 16 ? p[0] : 16;
	}
	for (int k = 0; k < 4; k++)
		if ((p = slot(c, "konst_color", c->L->kcolor, k, T_KCOLOR)))
			ints_k(c, "konst_color", k, "", p, NM_FIELD_U8, 4);
	for (int k = 0; k < 4; k++)
		if ((p = slot(c, "tev_color", c->L->tevcolor, k, T_TEVCOLOR)))
			ints_k(c, "tev_color", k, "", p, NM_FIELD_S16, 4);
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, "tev_order", c->L->tevorder, k, T_TEVORDER)))
			continue;
		enum_k(c, "tev_order", k, "texcoord", p, J3D_K_TEXCOORD);
		enum_k(c, "tev_order", k, "texmap", p + 1, J3D_K_TEXMAP);
		enum_k(c, "tev_order", k, "channel", p + 2, J3D_K_CHANNEL);
	}
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, "tev_stage", c->L->tevstage, k, T_TEVSTAGE)))
			continue;
		/* The colour half (bytes 1..9), then the alpha half (10..18), alike. */
		static const char *const abcd[4] = { "a", "b", "c", "d" };
		static const char *const half[2] = { "color", "alpha" };
		static const int args[2] = { J3D_K_TEV_COLOR_ARG, J3D_K_TEV_ALPHA_ARG };
		for (int h = 0; h < 2; h++) {
			const uint8_t *q = p + 1 + 9 * h;
			char f[32];
			for (int i = 0; i < 4; i++) {
				snprintf(f, sizeof f, "%s_%s", half[h], abcd[i]);
				enum_k(c, "tev_stage", k, f, q + i, args[h]);
			}
			static const char *const tail[3] = { "op", "bias", "scale" };
			static const int kinds[3] = { J3D_K_TEV_OP, J3D_K_TEV_BIAS, J3D_K_TEV_SCALE };
			for (int i = 0; i < 3; i++) {
				snprintf(f, sizeof f, "%s_%s", half[h], tail[i]);
				enum_k(c, "tev_stage", k, f, q + 4 + i, kinds[i]);
			}
			snprintf(f, sizeof f, "%s_clamp", half[h]);
			ints_k(c, "tev_stage", k, f, q + 7, NM_FIELD_U8, 1);
			snprintf(f, sizeof f, "%s_register", half[h]);
			enum_k(c, "tev_stage", k, f, q + 8, J3D_K_TEV_REG);
		}
	}
	for (unsigned k = 0; k < nstages; k++) {
		const uint8_t *cs = c->v->data + c->entry + c->L->kcsel + k;
		const uint8_t *as = c->v->data + c->entry + c->L->kasel + k;
		enum_k(c, "konst_color_select", (int)k, "", cs, J3D_K_KCOLOR_SEL);
		enum_k(c, "konst_alpha_select", (int)k, "", as, J3D_K_KALPHA_SEL);
	}
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, "swap_mode", c->L->swapmode, k, T_SWAPMODE)))
			continue;
		enum_k(c, "swap_mode", k, "rasterized", p, J3D_K_SWAP_SEL);
		enum_k(c, "swap_mode", k, "texture", p + 1, J3D_K_SWAP_SEL);
	}
	for (int k = 0; k < 4; k++) {
		if (!(p = slot(c, "swap_table", c->L->swaptable, k, T_SWAPTABLE)))
			continue;
		const char *n[4];
		for (int i = 0; i < 4; i++)
			n[i] = gx_channel_sel_name(p[i]) ? gx_channel_sel_name(p[i]) : "?";
		char full[96];
		/* Four channel names on one line: read-only for now. */
		nm_rec_derived(c->r, KEY("swap_table", k, ""), "%s %s %s %s", n[0], n[1], n[2],
			       n[3]);
	}
}

static void pixel(mctx *c)
{
	const uint8_t *p;
	if ((p = slot(c, "fog", c->L->fog, -1, T_FOG))) {
		enum_k(c, "fog", -1, "type", p, J3D_K_FOG_TYPE);
		ints_k(c, "fog", -1, "range_adjust", p + 1, NM_FIELD_U8, 1);
		ints_k(c, "fog", -1, "center", p + 2, NM_FIELD_U16, 1);
		floats_k(c, "fog", -1, "start_z", p + 4, 1);
		floats_k(c, "fog", -1, "end_z", p + 8, 1);
		floats_k(c, "fog", -1, "near_z", p + 12, 1);
		floats_k(c, "fog", -1, "far_z", p + 16, 1);
		ints_k(c, "fog", -1, "color", p + 20, NM_FIELD_U8, 4);
		ints_k(c, "fog", -1, "range_adjust_table", p + 24, NM_FIELD_U16, 10);
	}
	if ((p = slot(c, "alpha_compare", c->L->alphacomp, -1, T_ALPHACOMP))) {
		enum_k(c, "alpha_compare", -1, "function0", p, J3D_K_COMPARE);
		ints_k(c, "alpha_compare", -1, "reference0", p + 1, NM_FIELD_U8, 1);
		enum_k(c, "alpha_compare", -1, "op", p + 2, J3D_K_ALPHA_OP);
		enum_k(c, "alpha_compare", -1, "function1", p + 3, J3D_K_COMPARE);
		ints_k(c, "alpha_compare", -1, "reference1", p + 4, NM_FIELD_U8, 1);
	}
	if ((p = slot(c, "blend", c->L->blend, -1, T_BLEND))) {
		enum_k(c, "blend", -1, "mode", p, J3D_K_BLEND_MODE);
		enum_k(c, "blend", -1, "source_factor", p + 1, J3D_K_BLEND_SRC);
		enum_k(c, "blend", -1, "destination_factor", p + 2, J3D_K_BLEND_DST);
		enum_k(c, "blend", -1, "logic_op", p + 3, J3D_K_LOGIC_OP);
	}
	if ((p = byte_slot(c, "z_mode", 0x06, T_ZMODE))) {
		ints_k(c, "z_mode", -1, "test", p, NM_FIELD_U8, 1);
		enum_k(c, "z_mode", -1, "function", p + 1, J3D_K_COMPARE);
		ints_k(c, "z_mode", -1, "update", p + 2, NM_FIELD_U8, 1);
	}
	if ((p = byte_slot(c, "z_compare_before_texture", 0x05, T_ZCOMPLOC)))
		ints_k(c, "z_compare_before_texture", -1, "", p, NM_FIELD_U8, 1);
	if ((p = byte_slot(c, "dither", 0x07, T_DITHER)))
		ints_k(c, "dither", -1, "", p, NM_FIELD_U8, 1);
	if ((p = slot(c, "nbt_scale", c->L->nbt, -1, T_NBT))) {
		ints_k(c, "nbt_scale", -1, "enabled", p, NM_FIELD_U8, 1);
		floats_k(c, "nbt_scale", -1, "", p + 4, 3);
	}
}

static mctx material_ctx(j3d_model *m, nm_view *v, uint32_t i, nm_rec *r)
{
	j3d_mat3 *t = m->mat3;
	mctx c = { .m = m, .t = t, .v = v, .L = t->v21 ? &L21 : &L26,
		   .hdr = t->v21 ? hdr_v21 : hdr_v26, .r = r };
	c.entry = (size_t)table_off(v, c.hdr, T_ENTRIES) + (size_t)t->mats[i].entry *
		  c.L->entry_size;
	return c;
}

void j3d_material_record(nm_rec *r, j3d_model *m, uint32_t i)
{
	j3d_mat3 *t = m->mat3;
	const j3d_material *mat = &t->mats[i];
	mctx c = material_ctx(m, r->v, i, r);
	nm_rec_derived(r, "index", "%u", i);
	if (mat->name)
		nm_rec_derived_str(r, "name", mat->name);
	nm_rec_derived(r, "entry", "%u", mat->entry);
	nm_rec_enum(r, "mode", c.entry, NM_FIELD_U8, &j3d_gx_names, J3D_K_MAT_MODE);
	const uint8_t *p = byte_slot(&c, "cull_mode", 0x01, T_CULL);
	if (p)
		nm_rec_enum(r, "cull_mode", at(&c, p), NM_FIELD_U32, &j3d_gx_names, J3D_K_CULL);
	channels(&c);
	texgens(&c);
	textures(&c);
	tev(&c);
	pixel(&c);
	if (!t->v21 && (p = elem(&c, T_IND, i))) {
		ints_k(&c, "indirect", -1, "enabled", p, NM_FIELD_U8, 1);
		ints_k(&c, "indirect", -1, "stage_count", p + 1, NM_FIELD_U8, 1);
	}
}

/* Where a material's fields lead: its entry, and the table entries its slots index. */
static const struct { int8_t u8_field; int table; } byte_slots[] = {
	{ 0x01, T_CULL }, { 0x02, T_CHANNUM }, { 0x03, T_TEXGENNUM }, { 0x04, T_TEVNUM },
	{ 0x05, T_ZCOMPLOC }, { 0x06, T_ZMODE }, { 0x07, T_DITHER },
};

/* Whether material c uses the chunk bytes at rel (its entry or an entry it indexes). */
static bool material_reaches(mctx *c, size_t rel)
{
	if (rel >= c->entry && rel < c->entry + c->L->entry_size)
		return true;
	const struct { int field, n, table; } arrays[] = {
		{ c->L->matcolor, 2, T_MATCOLOR }, { c->L->colorchan, 4, T_CHANCTRL },
		{ c->L->ambcolor, 2, T_AMBCOLOR }, { c->L->light, 8, T_LIGHT },
		{ c->L->texgen, 8, T_TEXGEN }, { c->L->posttexgen, 8, T_POSTTEXGEN },
		{ c->L->texmtx, 10, T_TEXMTX }, { c->L->posttexmtx, 20, T_POSTTEXMTX },
		{ c->L->texno, 8, T_TEXNO }, { c->L->kcolor, 4, T_KCOLOR },
		{ c->L->tevorder, 16, T_TEVORDER }, { c->L->tevcolor, 4, T_TEVCOLOR },
		{ c->L->tevstage, 16, T_TEVSTAGE }, { c->L->swapmode, 16, T_SWAPMODE },
		{ c->L->swaptable, 4, T_SWAPTABLE }, { c->L->fog, 1, T_FOG },
		{ c->L->alphacomp, 1, T_ALPHACOMP }, { c->L->blend, 1, T_BLEND },
		{ c->L->nbt, 1, T_NBT },
	};
	for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
		for (int k = 0; arrays[a].field >= 0 && k < arrays[a].n; k++) {
			uint16_t idx = e16(c, arrays[a].field, k);
			const uint8_t *p = idx == 0xFFFF ? NULL : elem(c, arrays[a].table, idx);
			if (p && rel >= at(c, p) && rel < at(c, p) + elem_size[arrays[a].table])
				return true;
		}
	for (size_t a = 0; a < sizeof byte_slots / sizeof byte_slots[0]; a++) {
		uint8_t idx = e8(c, byte_slots[a].u8_field);
		const uint8_t *p = idx == 0xFF ? NULL : elem(c, byte_slots[a].table, idx);
		if (p && rel >= at(c, p) && rel < at(c, p) + elem_size[byte_slots[a].table])
			return true;
	}
	return false;
}

/* MAT3 keeps values in tables that materials share by index: an edit of one material's
 * colour changes every material that points at the same entry. Said as a note. */
void j3d_material_notes(nm_rec *r, j3d_model *m, uint32_t i, size_t first)
{
	for (size_t k = first; k < r->ed->npatches; k++) {
		const nm_patch *pt = &r->ed->patches[k];
		if (pt->off < r->v->base || pt->off - r->v->base >= r->v->size)
			continue;
		size_t rel = (size_t)(pt->off - r->v->base);
		char list[200] = "";
		size_t ll = 0, n = 0;
		for (uint32_t j = 0; j < m->mat3->count; j++) {
			mctx c = material_ctx(m, r->v, j, NULL);
			if (j == i || !material_reaches(&c, rel))
				continue;
			if (ll + 12 < sizeof list)
				ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%u",
						       n ? ", " : "", j);
			n++;
		}
		if (n)
			nm_edit_note(r->ed, "line %u: %s: MAT3 keeps it in a table entry other "
				     "materials share: the edit also changes material%s %s%s",
				     pt->line, pt->field, n > 1 ? "s" : "", list,
				     ll + 12 >= sizeof list ? "..." : "");
	}
}

/* What model.glb's material needs of the pixel stage (FORMATS.md 3.6; GX enums): the cull
 * mode, whether the alpha compare can discard (a compare other than ALWAYS on a side the
 * op needs) and whether the blend mode blends. */
static void pixel_state(mctx *c, j3d_material *mat)
{
	uint8_t ci = e8(c, 0x01);
	const uint8_t *p = ci == 0xFF ? NULL : elem(c, T_CULL, ci);
	mat->cull = p ? p[3] : 2;
	uint16_t ai = e16(c, c->L->alphacomp, 0);
	p = ai == 0xFFFF ? NULL : elem(c, T_ALPHACOMP, ai);
	if (p) {
		/* GX compare 7 is ALWAYS; op 0 AND, 1 OR. AND passes everything only when both
		 * are ALWAYS, OR when either is. */
		bool a0 = p[0] == 7, a1 = p[3] == 7;
		mat->alpha_mask = p[2] == 1 ? !(a0 || a1) : !(a0 && a1);
		mat->alpha_ref = p[0] == 7 ? p[4] : p[1];
	}
	uint16_t bi = e16(c, c->L->blend, 0);
	p = bi == 0xFFFF ? NULL : elem(c, T_BLEND, bi);
	mat->blended = p && p[0] == 1;
}

static nm_status parse(j3d_model *m, const j3d_chunk *c, bool v21, j3d_mat3 *t, nm_error *err)
{
	const layout *L = v21 ? &L21 : &L26;
	const uint16_t *hdr = v21 ? hdr_v21 : hdr_v26;
	t->v21 = v21;
	if (c->size < L->header_size)
		return j3d_chunk_fail(c, m, err, 0, "chunk of 0x%x bytes is shorter than its "
				      "0x%x-byte header", c->size, L->header_size);
	/* Records only: loaded whole (it is freed once the tree is built). */
	nm_status s = j3d_load(m, c, 0, c->size, "material tables", &t->v, err);
	if (s != NM_OK)
		return s;
	t->count = nm_u16(&t->v, 0x08);
	uint32_t off_entries = nm_u32(&t->v, hdr[T_ENTRIES]), off_remap = nm_u32(&t->v, hdr[T_REMAP]);
	uint32_t off_names = nm_u32(&t->v, hdr[T_NAMES]);
	t->mats = nm_tree_alloc_array(m->t, t->count, sizeof *t->mats);
	if (!t->mats)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!t->count)
		return NM_OK;
	if (!off_remap || !nm_view_array(&t->v, off_remap, t->count, 2))
		return j3d_chunk_fail(c, m, err, hdr[T_REMAP],
				      "remap table of %u materials at 0x%x runs past the end of "
				      "the chunk", t->count, off_remap);
	for (uint16_t i = 0; i < t->count; i++) {
		t->mats[i].entry = nm_u16(&t->v, off_remap + 2 * (size_t)i);
		t->mats[i].texture = -1;
		t->mats[i].texture_mtx = -1;
		memset(t->mats[i].color, 255, 4);
		uint64_t at = (uint64_t)off_entries + (uint64_t)t->mats[i].entry * L->entry_size;
		if (!off_entries || at > t->v.size || L->entry_size > t->v.size - at)
			return j3d_chunk_fail(c, m, err, off_entries,
					      "material %u uses entry %u, which runs past the end "
					      "of the chunk", i, t->mats[i].entry);
	}
	if (off_names) {
		char **names;
		size_t got;
		s = j3d_names_soft(m, c, off_names, t->count, &names, &got, &t->names_problem, err);
		if (s != NM_OK)
			return s;
		for (uint16_t i = 0; i < t->count; i++)
			t->mats[i].name = names[i];
	}
	for (uint16_t i = 0; i < t->count; i++) {
		mctx cx = { .m = m, .t = t, .v = &t->v, .L = L, .hdr = hdr,
			    .entry = (size_t)off_entries + (size_t)t->mats[i].entry * L->entry_size };
		for (int k = 0; k < 8 && t->mats[i].texture < 0; k++)
			if ((t->mats[i].texture = texture_of(&cx, k)) >= 0)
				t->mats[i].texture_uv = texture_uv(&cx, k, &t->mats[i].texture_mtx);
		uint16_t ci = e16(&cx, L->matcolor, 0);
		const uint8_t *p = ci == 0xFFFF ? NULL : elem(&cx, T_MATCOLOR, ci);
		if (p)
			memcpy(t->mats[i].color, p, 4);
		pixel_state(&cx, &t->mats[i]);
	}
	return NM_OK;
}

nm_status j3d_parse_mat3(j3d_model *m, const j3d_chunk *c, bool v21, j3d_mat3 *t, nm_error *err)
{
	nm_status s = parse(m, c, v21, t, err);
	if (s != NM_OK)
		nm_view_free(&t->v);   /* the model forgets a failed chunk's struct */
	return s;
}

/* header.txt of mat3/: the count and every table offset. */
void j3d_mat3_header(nm_out *o, const j3d_mat3 *t)
{
	const uint16_t *hdr = t->v21 ? hdr_v21 : hdr_v26;
	nm_kv(o, "layout", "%s", t->v21 ? "MAT2 (J3D2bmd2: no indirect, ambient or light tables)"
				       : "MAT3");
	nm_kv(o, "count", "%u", t->count);
	if (t->names_problem)
		nm_kv_str(o, "name_table_problem", t->names_problem);
	for (int k = 0; k < T_COUNT; k++)
		if (hdr[k]) {
			char key[64];
			snprintf(key, sizeof key, "%s_offset", table_names[k]);
			nm_kv(o, key, "0x%x", nm_u32((nm_view *)&t->v, hdr[k]));
		}
}
