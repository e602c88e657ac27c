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
	const layout *L;
	const uint16_t *hdr;
	size_t entry;             /* offset of the entry in the chunk */
} mctx;

static uint32_t table_off(j3d_mat3 *t, const uint16_t *hdr, int k)
{
	return hdr[k] ? nm_u32(&t->v, hdr[k]) : 0;
}

/* Element idx of table k, or NULL when the table is absent or too short. */
static const uint8_t *elem(mctx *c, int k, uint32_t idx)
{
	uint32_t off = table_off(c->t, c->hdr, k);
	if (!off)
		return NULL;
	uint64_t at = (uint64_t)off + (uint64_t)idx * elem_size[k];
	if (at > c->t->v.size || elem_size[k] > c->t->v.size - at)
		return NULL;
	return c->t->v.data + at;
}

static uint8_t e8(mctx *c, int field) { return nm_u8(&c->t->v, c->entry + (size_t)field); }
static uint16_t e16(mctx *c, int field, int k)
{
	return nm_u16(&c->t->v, c->entry + (size_t)field + 2 * (size_t)k);
}

static uint16_t b16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static int16_t bs16(const uint8_t *p) { return (int16_t)b16(p); }
static float bf32(const uint8_t *p)
{
	uint32_t u = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static void kv_index(nm_out *o, const char *key, int k, uint32_t idx)
{
	if (k >= 0)
		nm_out_printf(o, "%s%d_index: %u\n", key, k, idx);
	else
		nm_out_printf(o, "%s_index: %u\n", key, idx);
}

static void kv_missing(nm_out *o, const char *key, int k, uint32_t idx, int table)
{
	if (k >= 0)
		nm_out_printf(o, "%s%d: index %u is outside the %s table\n", key, k, idx,
			      table_names[table]);
	else
		nm_out_printf(o, "%s: index %u is outside the %s table\n", key, idx,
			      table_names[table]);
}

static void kv_enum_k(nm_out *o, const char *key, int k, const char *field, const char *name,
		      unsigned v)
{
	char full[96];
	if (k >= 0)
		snprintf(full, sizeof full, "%s%d%s%s", key, k, *field ? "_" : "", field);
	else
		snprintf(full, sizeof full, "%s%s%s", key, *field ? "_" : "", field);
	nm_kv_enum(o, full, name, v);
}

static void kv_rgba(nm_out *o, const char *key, int k, const uint8_t *p)
{
	nm_out_printf(o, "%s%d: %u %u %u %u\n", key, k, p[0], p[1], p[2], p[3]);
}

static void kv_floats_k(nm_out *o, const char *key, int k, const char *field, const uint8_t *p,
			int n)
{
	float f[16];
	char full[96];
	for (int i = 0; i < n; i++)
		f[i] = bf32(p + 4 * i);
	snprintf(full, sizeof full, "%s%d_%s", key, k, field);
	nm_kv_floats(o, full, f, (size_t)n);
}

/* A u8 index field (count tables, cull, z mode...): 0xFF = unused. */
static const uint8_t *byte_slot(mctx *c, nm_out *o, const char *key, int field, int table)
{
	uint8_t idx = e8(c, field);
	if (idx == 0xFF)
		return NULL;
	kv_index(o, key, -1, idx);
	const uint8_t *p = elem(c, table, idx);
	if (!p)
		kv_missing(o, key, -1, idx, table);
	return p;
}

/* A u16 slot k of a field array: 0xFFFF = unused. */
static const uint8_t *slot(mctx *c, nm_out *o, const char *key, int field, int k, int table)
{
	uint16_t idx = e16(c, field, k < 0 ? 0 : k);
	if (idx == 0xFFFF)
		return NULL;
	kv_index(o, key, k, idx);
	const uint8_t *p = elem(c, table, idx);
	if (!p)
		kv_missing(o, key, k, idx, table);
	return p;
}

static void channels(mctx *c, nm_out *o)
{
	const uint8_t *p = byte_slot(c, o, "color_channel_count", 0x02, T_CHANNUM);
	if (p)
		nm_kv(o, "color_channel_count", "%u", p[0]);
	for (int k = 0; k < 2; k++)
		if ((p = slot(c, o, "material_color", c->L->matcolor, k, T_MATCOLOR)))
			kv_rgba(o, "material_color", k, p);
	if (c->L->ambcolor >= 0)
		for (int k = 0; k < 2; k++)
			if ((p = slot(c, o, "ambient_color", c->L->ambcolor, k, T_AMBCOLOR)))
				kv_rgba(o, "ambient_color", k, p);
	for (int k = 0; k < 4; k++) {
		if (!(p = slot(c, o, "color_channel", c->L->colorchan, k, T_CHANCTRL)))
			continue;
		nm_out_printf(o, "color_channel%d_lighting: %u\n", k, p[0]);
		kv_enum_k(o, "color_channel", k, "material_source", gx_color_src_name(p[1]), p[1]);
		nm_out_printf(o, "color_channel%d_light_mask: 0x%02x\n", k, p[2]);
		kv_enum_k(o, "color_channel", k, "diffuse_function", gx_diffuse_fn_name(p[3]), p[3]);
		kv_enum_k(o, "color_channel", k, "attenuation_function", gx_attn_fn_name(p[4]),
			  p[4]);
		kv_enum_k(o, "color_channel", k, "ambient_source", gx_color_src_name(p[5]), p[5]);
	}
	if (c->L->light >= 0)
		for (int k = 0; k < 8; k++) {
			if (!(p = slot(c, o, "light", c->L->light, k, T_LIGHT)))
				continue;
			kv_floats_k(o, "light", k, "position", p, 3);
			kv_floats_k(o, "light", k, "direction", p + 12, 3);
			nm_out_printf(o, "light%d_color: %u %u %u %u\n", k, p[24], p[25], p[26],
				      p[27]);
			kv_floats_k(o, "light", k, "angle_attenuation", p + 28, 3);
			kv_floats_k(o, "light", k, "distance_attenuation", p + 40, 3);
		}
}

static void texgens(mctx *c, nm_out *o)
{
	const uint8_t *p = byte_slot(c, o, "texgen_count", 0x03, T_TEXGENNUM);
	if (p)
		nm_kv(o, "texgen_count", "%u", p[0]);
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, o, "texgen", c->L->texgen, k, T_TEXGEN)))
			continue;
		kv_enum_k(o, "texgen", k, "type", gx_texgen_type_name(p[0]), p[0]);
		kv_enum_k(o, "texgen", k, "source", gx_texgen_src_name(p[1]), p[1]);
		kv_enum_k(o, "texgen", k, "matrix", gx_texmtx_name(p[2]), p[2]);
	}
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, o, "post_texgen", c->L->posttexgen, k, T_POSTTEXGEN)))
			continue;
		kv_enum_k(o, "post_texgen", k, "type", gx_texgen_type_name(p[0]), p[0]);
		kv_enum_k(o, "post_texgen", k, "source", gx_texgen_src_name(p[1]), p[1]);
		kv_enum_k(o, "post_texgen", k, "matrix", gx_posttexmtx_name(p[2]), p[2]);
	}
}

static void tex_matrix(nm_out *o, const char *key, int k, const uint8_t *p)
{
	kv_enum_k(o, key, k, "projection", gx_texgen_type_name(p[0]), p[0]);
	nm_out_printf(o, "%s%d_mapping_mode: %u\n", key, k, p[1] & 0x3F);
	nm_out_printf(o, "%s%d_maya: %u\n", key, k, p[1] >> 7);
	kv_floats_k(o, key, k, "center", p + 4, 3);
	kv_floats_k(o, key, k, "scale", p + 0x10, 2);
	int16_t rot = bs16(p + 0x18);
	char full[64];
	snprintf(full, sizeof full, "%s%d_rotation_degrees", key, k);
	nm_kv_float(o, full, (float)(rot * 180.0 / 32768.0));
	nm_out_printf(o, "%s%d_rotation_raw: %d\n", key, k, rot);
	kv_floats_k(o, key, k, "translation", p + 0x1C, 2);
	kv_floats_k(o, key, k, "effect_matrix", p + 0x24, 16);
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

/* The UV set texture map k is read through: the texcoord of the first TEV stage that
 * samples it, that texcoord's texgen, and its source TEX0..7 (GX_TG_TEX0 = 4). 0 when
 * no stage samples it or the coordinates are generated otherwise (from positions or
 * normals: environment maps). */
/* The UV set the TEV stage reading texture k takes its coordinates from (the texgen's
 * source TEXn), and in *mtx the texture matrix slot that texgen applies (GX_TEXMTX0 = 30
 * in steps of 3 up to 57; -1: identity or none), which a BTK animates. */
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

static void textures(mctx *c, nm_out *o)
{
	const uint8_t *p;
	for (int k = 0; k < 10; k++)
		if ((p = slot(c, o, "tex_matrix", c->L->texmtx, k, T_TEXMTX)))
			tex_matrix(o, "tex_matrix", k, p);
	for (int k = 0; k < 20; k++)
		if ((p = slot(c, o, "post_tex_matrix", c->L->posttexmtx, k, T_POSTTEXMTX)))
			tex_matrix(o, "post_tex_matrix", k, p);
	for (int k = 0; k < 8; k++) {
		if (!(p = slot(c, o, "texture", c->L->texno, k, T_TEXNO)))
			continue;
		uint16_t ti = b16(p);
		nm_out_printf(o, "texture%d: %u\n", k, ti);
		const j3d_tex1 *tx = c->m->tex1;
		if (tx && ti < tx->count && tx->tex[ti].stem)
			nm_out_printf(o, "texture%d_file: tex1/%s.png\n", k, tx->tex[ti].stem);
	}
}

static void tev(mctx *c, nm_out *o)
{
	const uint8_t *p = byte_slot(c, o, "tev_stage_count", 0x04, T_TEVNUM);
	unsigned nstages = 16;
	if (p) {
		nm_kv(o, "tev_stage_count", "%u", p[0]);
		nstages = p[0] < 16 ? p[0] : 16;
	}
	for (int k = 0; k < 4; k++)
		if ((p = slot(c, o, "konst_color", c->L->kcolor, k, T_KCOLOR)))
			kv_rgba(o, "konst_color", k, p);
	for (int k = 0; k < 4; k++)
		if ((p = slot(c, o, "tev_color", c->L->tevcolor, k, T_TEVCOLOR)))
			nm_out_printf(o, "tev_color%d: %d %d %d %d\n", k, bs16(p), bs16(p + 2),
				      bs16(p + 4), bs16(p + 6));
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, o, "tev_order", c->L->tevorder, k, T_TEVORDER)))
			continue;
		kv_enum_k(o, "tev_order", k, "texcoord", gx_texcoord_name(p[0]), p[0]);
		kv_enum_k(o, "tev_order", k, "texmap", gx_texmap_name(p[1]), p[1]);
		kv_enum_k(o, "tev_order", k, "channel", gx_channel_name(p[2]), p[2]);
	}
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, o, "tev_stage", c->L->tevstage, k, T_TEVSTAGE)))
			continue;
		static const char *const abcd[4] = { "a", "b", "c", "d" };
		char f[32];
		for (int i = 0; i < 4; i++) {
			snprintf(f, sizeof f, "color_%s", abcd[i]);
			kv_enum_k(o, "tev_stage", k, f, gx_tev_color_arg_name(p[1 + i]), p[1 + i]);
		}
		kv_enum_k(o, "tev_stage", k, "color_op", gx_tev_op_name(p[5]), p[5]);
		kv_enum_k(o, "tev_stage", k, "color_bias", gx_tev_bias_name(p[6]), p[6]);
		kv_enum_k(o, "tev_stage", k, "color_scale", gx_tev_scale_name(p[7]), p[7]);
		nm_out_printf(o, "tev_stage%d_color_clamp: %u\n", k, p[8]);
		kv_enum_k(o, "tev_stage", k, "color_register", gx_tev_reg_name(p[9]), p[9]);
		for (int i = 0; i < 4; i++) {
			snprintf(f, sizeof f, "alpha_%s", abcd[i]);
			kv_enum_k(o, "tev_stage", k, f, gx_tev_alpha_arg_name(p[10 + i]), p[10 + i]);
		}
		kv_enum_k(o, "tev_stage", k, "alpha_op", gx_tev_op_name(p[14]), p[14]);
		kv_enum_k(o, "tev_stage", k, "alpha_bias", gx_tev_bias_name(p[15]), p[15]);
		kv_enum_k(o, "tev_stage", k, "alpha_scale", gx_tev_scale_name(p[16]), p[16]);
		nm_out_printf(o, "tev_stage%d_alpha_clamp: %u\n", k, p[17]);
		kv_enum_k(o, "tev_stage", k, "alpha_register", gx_tev_reg_name(p[18]), p[18]);
	}
	for (unsigned k = 0; k < nstages; k++) {
		uint8_t cs = e8(c, c->L->kcsel + (int)k), as = e8(c, c->L->kasel + (int)k);
		kv_enum_k(o, "konst_color_select", (int)k, "", gx_kcolor_sel_name(cs), cs);
		kv_enum_k(o, "konst_alpha_select", (int)k, "", gx_kalpha_sel_name(as), as);
	}
	for (int k = 0; k < 16; k++) {
		if (!(p = slot(c, o, "swap_mode", c->L->swapmode, k, T_SWAPMODE)))
			continue;
		kv_enum_k(o, "swap_mode", k, "rasterized", gx_swap_sel_name(p[0]), p[0]);
		kv_enum_k(o, "swap_mode", k, "texture", gx_swap_sel_name(p[1]), p[1]);
	}
	for (int k = 0; k < 4; k++) {
		if (!(p = slot(c, o, "swap_table", c->L->swaptable, k, T_SWAPTABLE)))
			continue;
		const char *n[4];
		for (int i = 0; i < 4; i++)
			n[i] = gx_channel_sel_name(p[i]) ? gx_channel_sel_name(p[i]) : "?";
		nm_out_printf(o, "swap_table%d: %s %s %s %s\n", k, n[0], n[1], n[2], n[3]);
	}
}

static void pixel(mctx *c, nm_out *o)
{
	const uint8_t *p;
	if ((p = slot(c, o, "fog", c->L->fog, -1, T_FOG))) {
		kv_enum_k(o, "fog", -1, "type", gx_fog_type_name(p[0]), p[0]);
		nm_out_printf(o, "fog_range_adjust: %u\n", p[1]);
		nm_out_printf(o, "fog_center: %u\n", b16(p + 2));
		nm_kv_float(o, "fog_start_z", bf32(p + 4));
		nm_kv_float(o, "fog_end_z", bf32(p + 8));
		nm_kv_float(o, "fog_near_z", bf32(p + 12));
		nm_kv_float(o, "fog_far_z", bf32(p + 16));
		nm_out_printf(o, "fog_color: %u %u %u %u\n", p[20], p[21], p[22], p[23]);
		nm_out_str(o, "fog_range_adjust_table:");
		for (int i = 0; i < 10; i++)
			nm_out_printf(o, " %u", b16(p + 24 + 2 * i));
		nm_out_char(o, '\n');
	}
	if ((p = slot(c, o, "alpha_compare", c->L->alphacomp, -1, T_ALPHACOMP))) {
		kv_enum_k(o, "alpha_compare", -1, "function0", gx_compare_name(p[0]), p[0]);
		nm_out_printf(o, "alpha_compare_reference0: %u\n", p[1]);
		kv_enum_k(o, "alpha_compare", -1, "op", gx_alpha_op_name(p[2]), p[2]);
		kv_enum_k(o, "alpha_compare", -1, "function1", gx_compare_name(p[3]), p[3]);
		nm_out_printf(o, "alpha_compare_reference1: %u\n", p[4]);
	}
	if ((p = slot(c, o, "blend", c->L->blend, -1, T_BLEND))) {
		kv_enum_k(o, "blend", -1, "mode", gx_blend_mode_name(p[0]), p[0]);
		kv_enum_k(o, "blend", -1, "source_factor", gx_blend_factor_name(p[1], true), p[1]);
		kv_enum_k(o, "blend", -1, "destination_factor", gx_blend_factor_name(p[2], false),
			  p[2]);
		kv_enum_k(o, "blend", -1, "logic_op", gx_logic_op_name(p[3]), p[3]);
	}
	if ((p = byte_slot(c, o, "z_mode", 0x06, T_ZMODE))) {
		nm_out_printf(o, "z_mode_test: %u\n", p[0]);
		kv_enum_k(o, "z_mode", -1, "function", gx_compare_name(p[1]), p[1]);
		nm_out_printf(o, "z_mode_update: %u\n", p[2]);
	}
	if ((p = byte_slot(c, o, "z_compare_before_texture", 0x05, T_ZCOMPLOC)))
		nm_out_printf(o, "z_compare_before_texture: %u\n", p[0]);
	if ((p = byte_slot(c, o, "dither", 0x07, T_DITHER)))
		nm_out_printf(o, "dither: %u\n", p[0]);
	if ((p = slot(c, o, "nbt_scale", c->L->nbt, -1, T_NBT))) {
		nm_out_printf(o, "nbt_scale_enabled: %u\n", p[0]);
		float f[3] = { bf32(p + 4), bf32(p + 8), bf32(p + 12) };
		nm_kv_floats(o, "nbt_scale", f, 3);
	}
}

void j3d_material_text(nm_out *o, j3d_model *m, size_t i)
{
	j3d_mat3 *t = m->mat3;
	const j3d_material *mat = &t->mats[i];
	mctx c = { .m = m, .t = t, .L = t->v21 ? &L21 : &L26, .hdr = t->v21 ? hdr_v21 : hdr_v26 };
	c.entry = (size_t)table_off(t, c.hdr, T_ENTRIES) + (size_t)mat->entry * c.L->entry_size;
	nm_kv(o, "index", "%zu", i);
	if (mat->name)
		nm_kv_str(o, "name", mat->name);
	nm_kv(o, "entry", "%u", mat->entry);
	uint8_t mode = e8(&c, 0x00);
	nm_kv_enum(o, "mode", j3d_mat_mode_name(mode), mode);
	const uint8_t *p = byte_slot(&c, o, "cull_mode", 0x01, T_CULL);
	if (p) {
		uint32_t v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		nm_kv_enum(o, "cull_mode", gx_cull_name(v), v);
	}
	channels(&c, o);
	texgens(&c, o);
	textures(&c, o);
	tev(&c, o);
	pixel(&c, o);
	if (!t->v21 && (p = elem(&c, T_IND, (uint32_t)i))) {
		nm_out_printf(o, "indirect_enabled: %u\n", p[0]);
		nm_out_printf(o, "indirect_stage_count: %u\n", p[1]);
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
		mctx cx = { .m = m, .t = t, .L = L, .hdr = hdr,
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
