/* mats/: header.txt, raw.bin, N.txt (every field of a material), combiners/N.txt.
 * Field offsets: FORMATS.md 4.4, completed from two public readers where it is silent
 * (texture binding LOD/border fields, fragment lighting samplers, stencil); see
 * doc/cmb.md for the fields whose meaning is uncertain. */
#include <stdio.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

/* Each field is described once (export/record.h): the same calls write N.txt and read
 * an edited copy back into the material's bytes (nmodel apply). */
static const char *enum_name(int kind, uint32_t v) { return cmb_enum_name(kind, v); }
static bool enum_value(int kind, const char *name, uint32_t *v)
{
	return cmb_enum_value(kind, name, v);
}
static const nm_rec_names names = { enum_name, enum_value };

static void u8(nm_rec *r, size_t off, const char *key) { nm_rec_int(r, key, off, NM_FIELD_U8); }

static void kv_enum(nm_rec *r, size_t off, unsigned bytes, const char *key, enum cmb_enum kind)
{
	nm_rec_enum(r, key, off, bytes == 1 ? NM_FIELD_U8 : bytes == 2 ? NM_FIELD_U16
				 : NM_FIELD_U32, &names, kind);
}

static void rgba(nm_rec *r, size_t off, const char *key)
{
	nm_rec_ints(r, key, off, NM_FIELD_U8, 4);
}

static void texture_binding(nm_rec *r, const cmb_model *m, size_t at, int j)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "texture%d_%s", j, s), k)
	int16_t idx = nm_s16(r->v, at);
	nm_rec_int(r, KEY("index"), at, NM_FIELD_S16);
	if (idx >= 0 && (uint32_t)idx < m->ntex && m->tex[idx].stem)
		nm_rec_derived_str(r, KEY("name"), m->tex[idx].stem);
	nm_rec_hex(r, KEY("unknown_02"), at + 0x02, NM_FIELD_U16, 0);
	kv_enum(r, at + 0x04, 2, KEY("min_filter"), CMB_E_FILTER);
	kv_enum(r, at + 0x06, 2, KEY("mag_filter"), CMB_E_FILTER);
	kv_enum(r, at + 0x08, 2, KEY("wrap_s"), CMB_E_WRAP);
	kv_enum(r, at + 0x0A, 2, KEY("wrap_t"), CMB_E_WRAP);
	nm_rec_floats(r, KEY("min_lod"), at + 0x0C, 1);
	nm_rec_floats(r, KEY("lod_bias"), at + 0x10, 1);
	rgba(r, at + 0x14, KEY("border_color"));
#undef KEY
}

static void texcoord_transform(nm_rec *r, size_t at, int j)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "texcoord%d_%s", j, s), k)
	u8(r, at, KEY("source"));
	u8(r, at + 1, KEY("reference_camera"));
	kv_enum(r, at + 2, 1, KEY("mapping"), CMB_E_MAPPING);
	kv_enum(r, at + 3, 1, KEY("matrix_mode"), CMB_E_MATRIX_MODE);
	nm_rec_floats(r, KEY("scale"), at + 0x04, 2);
	nm_rec_floats(r, KEY("translation"), at + 0x0C, 2);
	nm_rec_floats(r, KEY("rotation"), at + 0x14, 1);
#undef KEY
}

static void sampler(nm_rec *r, size_t at, const char *name)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "%s_%s", name, s), k)
	u8(r, at, KEY("abs"));
	nm_rec_int(r, KEY("lut_index"), at + 1, NM_FIELD_S8);
	kv_enum(r, at + 2, 2, KEY("input"), CMB_E_LUT_INPUT);
	nm_rec_floats(r, KEY("scale"), at + 4, 1);
#undef KEY
}

/* Counts (how many bindings, coordinates and stages the material uses) are read-only:
 * the tables they count have their sizes in the file's layout. */
static void material_text(nm_rec *r, const cmb_model *m, uint32_t i)
{
	nm_view *v = r->v;
	size_t b = m->mats[i].offset;
	static const char *const colors[] = { "emission_color", "ambient_color", "diffuse_color",
					      "specular0_color", "specular1_color" };
	static const char *const samplers[] = { "distribution0", "distribution1",
						"reflectance_r", "reflectance_g", "reflectance_b",
						"fresnel" };
	nm_rec_derived(r, "index", "%u", i);
	nm_rec_derived(r, "offset", "0x%zx", b);
	u8(r, b + 0x00, "fragment_lighting");
	u8(r, b + 0x01, "vertex_lighting");
	u8(r, b + 0x02, "fog");
	u8(r, b + 0x03, "render_layer");
	kv_enum(r, b + 0x04, 1, "cull_mode", CMB_E_CULL);
	u8(r, b + 0x05, "polygon_offset_enabled");
	nm_rec_int(r, "polygon_offset_units", b + 0x06, NM_FIELD_S16);
	if (m->L.mat_short_counts) {
		nm_rec_hex(r, "unknown_08", b + 0x08, NM_FIELD_U32, 0);
		nm_rec_derived(r, "texture_binding_count", "%u", nm_u16(v, b + 0x0C));
		nm_rec_derived(r, "texcoord_count", "%u", nm_u16(v, b + 0x0E));
	} else {
		nm_rec_derived(r, "texture_binding_count", "%u", nm_u32(v, b + 0x08));
		nm_rec_derived(r, "texcoord_count", "%u", nm_u32(v, b + 0x0C));
	}
	for (int j = 0; j < 3; j++)
		texture_binding(r, m, b + 0x10 + 0x18 * (size_t)j, j);
	for (int j = 0; j < 3; j++)
		texcoord_transform(r, b + 0x58 + 0x18 * (size_t)j, j);
	for (int j = 0; j < 5; j++)
		rgba(r, b + 0xA0 + 4 * (size_t)j, colors[j]);
	for (int j = 0; j < 6; j++) {
		char k[32];
		snprintf(k, sizeof k, "constant%d_color", j);
		rgba(r, b + 0xB4 + 4 * (size_t)j, k);
	}
	nm_rec_floats(r, "combiner_buffer_color", b + 0xCC, 4);
	kv_enum(r, b + 0xDC, 2, "bump_texture", CMB_E_TEXTURE);
	kv_enum(r, b + 0xDE, 2, "bump_mode", CMB_E_BUMP_MODE);
	nm_rec_int(r, "bump_renormalize", b + 0xE0, NM_FIELD_U32);
	kv_enum(r, b + 0xE4, 4, "light_layer_config", CMB_E_LAYER_CONFIG);
	kv_enum(r, b + 0xE8, 2, "fresnel", CMB_E_FRESNEL);
	u8(r, b + 0xEA, "clamp_highlight");
	u8(r, b + 0xEB, "distribution0_enabled");
	u8(r, b + 0xEC, "distribution1_enabled");
	u8(r, b + 0xED, "geometric_factor0_enabled");
	u8(r, b + 0xEE, "geometric_factor1_enabled");
	u8(r, b + 0xEF, "reflection_enabled");
	for (int j = 0; j < 6; j++)
		sampler(r, b + 0xF0 + 8 * (size_t)j, samplers[j]);
	nm_rec_derived(r, "combiner_count", "%u", nm_u32(v, b + 0x120));
	nm_rec_ints(r, "combiners", b + 0x124, NM_FIELD_S16, 6);
	u8(r, b + 0x130, "alpha_test_enabled");
	u8(r, b + 0x131, "alpha_test_reference");
	kv_enum(r, b + 0x132, 2, "alpha_test_function", CMB_E_COMPARE);
	u8(r, b + 0x134, "depth_test_enabled");
	u8(r, b + 0x135, "depth_write_enabled");
	kv_enum(r, b + 0x136, 2, "depth_test_function", CMB_E_COMPARE);
	kv_enum(r, b + 0x138, 1, "blend_mode", CMB_E_BLEND_MODE);
	u8(r, b + 0x139, "unknown_139");
	nm_rec_hex(r, "unknown_13a", b + 0x13A, NM_FIELD_U16, 0);
	kv_enum(r, b + 0x13C, 2, "blend_src_rgb", CMB_E_BLEND_FACTOR);
	kv_enum(r, b + 0x13E, 2, "blend_dst_rgb", CMB_E_BLEND_FACTOR);
	kv_enum(r, b + 0x140, 4, "blend_equation_rgb", CMB_E_BLEND_EQUATION);
	kv_enum(r, b + 0x144, 2, "blend_src_alpha", CMB_E_BLEND_FACTOR);
	kv_enum(r, b + 0x146, 2, "blend_dst_alpha", CMB_E_BLEND_FACTOR);
	kv_enum(r, b + 0x148, 4, "blend_equation_alpha", CMB_E_BLEND_EQUATION);
	nm_rec_floats(r, "blend_color", b + 0x14C, 4);
	if (m->L.mat_size >= 0x16C) {
		u8(r, b + 0x15C, "stencil_enabled");
		u8(r, b + 0x15D, "stencil_reference");
		u8(r, b + 0x15E, "stencil_mask");
		u8(r, b + 0x15F, "stencil_unknown_15f");
		kv_enum(r, b + 0x160, 2, "stencil_function", CMB_E_COMPARE);
		kv_enum(r, b + 0x162, 2, "stencil_fail_op", CMB_E_STENCIL_OP);
		kv_enum(r, b + 0x164, 2, "stencil_depth_fail_op", CMB_E_STENCIL_OP);
		kv_enum(r, b + 0x166, 2, "stencil_depth_pass_op", CMB_E_STENCIL_OP);
		nm_rec_hex(r, "stencil_unknown_168", b + 0x168, NM_FIELD_U32, 8);
	}
}

static void combiner_text(nm_rec *r, uint32_t table, uint32_t i)
{
	static const char *const src[] = { "source0_rgb", "source1_rgb", "source2_rgb" };
	static const char *const op[] = { "operand0_rgb", "operand1_rgb", "operand2_rgb" };
	static const char *const srca[] = { "source0_alpha", "source1_alpha", "source2_alpha" };
	static const char *const opa[] = { "operand0_alpha", "operand1_alpha", "operand2_alpha" };
	size_t b = table + (size_t)i * 0x28;
	nm_rec_derived(r, "index", "%u", i);
	nm_rec_derived(r, "offset", "0x%zx", b);
	kv_enum(r, b + 0x00, 2, "combine_rgb", CMB_E_COMBINE_MODE);
	kv_enum(r, b + 0x02, 2, "combine_alpha", CMB_E_COMBINE_MODE);
	nm_rec_int(r, "scale_rgb", b + 0x04, NM_FIELD_U16);
	nm_rec_int(r, "scale_alpha", b + 0x06, NM_FIELD_U16);
	kv_enum(r, b + 0x08, 2, "buffer_input_rgb", CMB_E_COMBINE_SOURCE);
	kv_enum(r, b + 0x0A, 2, "buffer_input_alpha", CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(r, b + 0x0C + 2 * (size_t)j, 2, src[j], CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(r, b + 0x12 + 2 * (size_t)j, 2, op[j], CMB_E_COMBINE_OPERAND);
	for (int j = 0; j < 3; j++)
		kv_enum(r, b + 0x18 + 2 * (size_t)j, 2, srca[j], CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(r, b + 0x1E + 2 * (size_t)j, 2, opa[j], CMB_E_COMBINE_OPERAND);
	nm_rec_int(r, "constant_index", b + 0x24, NM_FIELD_U32);
}

/* --- reading an edited copy back (nmodel apply) ---------------------------------- */

static void write_material(nm_rec *r, const cmb_model *m, uint32_t i)
{
	material_text(r, m, i);
}

static void write_combiner(nm_rec *r, const cmb_model *m, uint32_t i)
{
	combiner_text(r, m->combiner_table, i);
}

nm_status cmb_tree_mats(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_MATS];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_MATS);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (m->mats) {
		nm_kv(&o, "material_count", "%u", m->nmats);
		nm_kv(&o, "material_size", "0x%x", m->L.mat_size);
		nm_kv(&o, "combiner_table", "0x%x", m->combiner_table);
		nm_kv(&o, "combiner_count", "%u", m->ncombiners);
		nm_kv(&o, "bytes_shown", "0x%llx", (unsigned long long)m->mats_len);
	}
	cmb_text(t, dir, "header.txt", &o);
	nm_rec r;
	nm_rec_write(&r, &o, &c->v);
	/* Only a tree opened for editing keeps what the inverses need. */
	bool edit = nm_tree_options(t)->editable && !c->failed;
	cmb_record_ref *refs = edit ? nm_tree_alloc_array(t, m->nmats, sizeof *refs) : NULL;
	if (edit && !refs)
		return NM_E_NOMEM;
	for (uint32_t i = 0; m->mats && i < m->nmats; i++) {
		char name[32];
		material_text(&r, m, i);
		snprintf(name, sizeof name, "%u.txt", i);
		cmb_record_file(t, dir, name, &o, refs ? &refs[i] : NULL, m, CMB_MATS, i, write_material);
	}
	if (m->mats && !c->failed) {
		nm_node *comb = nm_dir(t, dir, "combiners");
		refs = edit ? nm_tree_alloc_array(t, m->ncombiners, sizeof *refs) : NULL;
		if (edit && !refs)
			return NM_E_NOMEM;
		for (uint32_t i = 0; comb && i < m->ncombiners; i++) {
			char name[32];
			combiner_text(&r, m->combiner_table, i);
			snprintf(name, sizeof name, "%u.txt", i);
			cmb_record_file(t, comb, name, &o, refs ? &refs[i] : NULL, m, CMB_MATS, i, write_combiner);
		}
	}
	nm_out_free(&o);
	return NM_OK;
}
