/* mats/: header.txt, raw.bin, N.txt (every field of a material), combiners/N.txt.
 * Field offsets: FORMATS.md 4.4, completed from two public readers where it is silent
 * (texture binding LOD/border fields, fragment lighting samplers, stencil); see
 * doc/cmb.md for the fields whose meaning is uncertain. */
#include <stdio.h>
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

static void kv_u8(nm_out *o, nm_view *v, size_t off, const char *key)
{
	nm_kv(o, key, "%u", nm_u8(v, off));
}

static void kv_enum(nm_out *o, nm_view *v, size_t off, unsigned bytes, const char *key,
		    enum cmb_enum kind)
{
	uint32_t x = bytes == 1 ? nm_u8(v, off) : bytes == 2 ? nm_u16(v, off) : nm_u32(v, off);
	nm_kv_enum(o, key, cmb_enum_name(kind, x), x);
}

static void kv_rgba(nm_out *o, nm_view *v, size_t off, const char *key)
{
	nm_kv(o, key, "%u %u %u %u", nm_u8(v, off), nm_u8(v, off + 1), nm_u8(v, off + 2),
	      nm_u8(v, off + 3));
}

static void kv_f32s(nm_out *o, nm_view *v, size_t off, unsigned n, const char *key)
{
	float f[4];
	for (unsigned i = 0; i < n && i < 4; i++)
		f[i] = nm_f32(v, off + 4 * i);
	nm_kv_floats(o, key, f, n);
}

static void texture_binding(nm_out *o, nm_view *v, const cmb_model *m, size_t at, int j)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "texture%d_%s", j, s), k)
	int16_t idx = nm_s16(v, at);
	nm_kv(o, KEY("index"), "%d", idx);
	if (idx >= 0 && (uint32_t)idx < m->ntex && m->tex[idx].stem)
		nm_kv_str(o, KEY("name"), m->tex[idx].stem);
	nm_kv(o, KEY("unknown_02"), "0x%x", nm_u16(v, at + 0x02));
	kv_enum(o, v, at + 0x04, 2, KEY("min_filter"), CMB_E_FILTER);
	kv_enum(o, v, at + 0x06, 2, KEY("mag_filter"), CMB_E_FILTER);
	kv_enum(o, v, at + 0x08, 2, KEY("wrap_s"), CMB_E_WRAP);
	kv_enum(o, v, at + 0x0A, 2, KEY("wrap_t"), CMB_E_WRAP);
	kv_f32s(o, v, at + 0x0C, 1, KEY("min_lod"));
	kv_f32s(o, v, at + 0x10, 1, KEY("lod_bias"));
	kv_rgba(o, v, at + 0x14, KEY("border_color"));
#undef KEY
}

static void texcoord_transform(nm_out *o, nm_view *v, size_t at, int j)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "texcoord%d_%s", j, s), k)
	kv_u8(o, v, at, KEY("source"));
	kv_u8(o, v, at + 1, KEY("reference_camera"));
	kv_enum(o, v, at + 2, 1, KEY("mapping"), CMB_E_MAPPING);
	kv_enum(o, v, at + 3, 1, KEY("matrix_mode"), CMB_E_MATRIX_MODE);
	kv_f32s(o, v, at + 0x04, 2, KEY("scale"));
	kv_f32s(o, v, at + 0x0C, 2, KEY("translation"));
	kv_f32s(o, v, at + 0x14, 1, KEY("rotation"));
#undef KEY
}

static void sampler(nm_out *o, nm_view *v, size_t at, const char *name)
{
	char k[48];
#define KEY(s) (snprintf(k, sizeof k, "%s_%s", name, s), k)
	kv_u8(o, v, at, KEY("abs"));
	nm_kv(o, KEY("lut_index"), "%d", nm_s8(v, at + 1));
	kv_enum(o, v, at + 2, 2, KEY("input"), CMB_E_LUT_INPUT);
	kv_f32s(o, v, at + 4, 1, KEY("scale"));
#undef KEY
}

static void material_text(nm_out *o, const cmb_model *m, nm_view *v, uint32_t i)
{
	size_t b = m->mats[i].offset;
	static const char *const colors[] = { "emission_color", "ambient_color", "diffuse_color",
					      "specular0_color", "specular1_color" };
	static const char *const samplers[] = { "distribution0", "distribution1",
						"reflectance_r", "reflectance_g", "reflectance_b",
						"fresnel" };
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%zx", b);
	kv_u8(o, v, b + 0x00, "fragment_lighting");
	kv_u8(o, v, b + 0x01, "vertex_lighting");
	kv_u8(o, v, b + 0x02, "fog");
	kv_u8(o, v, b + 0x03, "render_layer");
	kv_enum(o, v, b + 0x04, 1, "cull_mode", CMB_E_CULL);
	kv_u8(o, v, b + 0x05, "polygon_offset_enabled");
	nm_kv(o, "polygon_offset_units", "%d", nm_s16(v, b + 0x06));
	if (m->L.mat_short_counts) {
		nm_kv(o, "unknown_08", "0x%x", nm_u32(v, b + 0x08));
		nm_kv(o, "texture_binding_count", "%u", nm_u16(v, b + 0x0C));
		nm_kv(o, "texcoord_count", "%u", nm_u16(v, b + 0x0E));
	} else {
		nm_kv(o, "texture_binding_count", "%u", nm_u32(v, b + 0x08));
		nm_kv(o, "texcoord_count", "%u", nm_u32(v, b + 0x0C));
	}
	for (int j = 0; j < 3; j++)
		texture_binding(o, v, m, b + 0x10 + 0x18 * (size_t)j, j);
	for (int j = 0; j < 3; j++)
		texcoord_transform(o, v, b + 0x58 + 0x18 * (size_t)j, j);
	for (int j = 0; j < 5; j++)
		kv_rgba(o, v, b + 0xA0 + 4 * (size_t)j, colors[j]);
	for (int j = 0; j < 6; j++) {
		char k[32];
		snprintf(k, sizeof k, "constant%d_color", j);
		kv_rgba(o, v, b + 0xB4 + 4 * (size_t)j, k);
	}
	kv_f32s(o, v, b + 0xCC, 4, "combiner_buffer_color");
	kv_enum(o, v, b + 0xDC, 2, "bump_texture", CMB_E_TEXTURE);
	kv_enum(o, v, b + 0xDE, 2, "bump_mode", CMB_E_BUMP_MODE);
	nm_kv(o, "bump_renormalize", "%u", nm_u32(v, b + 0xE0));
	kv_enum(o, v, b + 0xE4, 4, "light_layer_config", CMB_E_LAYER_CONFIG);
	kv_enum(o, v, b + 0xE8, 2, "fresnel", CMB_E_FRESNEL);
	kv_u8(o, v, b + 0xEA, "clamp_highlight");
	kv_u8(o, v, b + 0xEB, "distribution0_enabled");
	kv_u8(o, v, b + 0xEC, "distribution1_enabled");
	kv_u8(o, v, b + 0xED, "geometric_factor0_enabled");
	kv_u8(o, v, b + 0xEE, "geometric_factor1_enabled");
	kv_u8(o, v, b + 0xEF, "reflection_enabled");
	for (int j = 0; j < 6; j++)
		sampler(o, v, b + 0xF0 + 8 * (size_t)j, samplers[j]);
	nm_kv(o, "combiner_count", "%u", nm_u32(v, b + 0x120));
	nm_out_str(o, "combiners:");
	for (int j = 0; j < 6; j++)
		nm_out_printf(o, " %d", nm_s16(v, b + 0x124 + 2 * (size_t)j));
	nm_out_char(o, '\n');
	kv_u8(o, v, b + 0x130, "alpha_test_enabled");
	kv_u8(o, v, b + 0x131, "alpha_test_reference");
	kv_enum(o, v, b + 0x132, 2, "alpha_test_function", CMB_E_COMPARE);
	kv_u8(o, v, b + 0x134, "depth_test_enabled");
	kv_u8(o, v, b + 0x135, "depth_write_enabled");
	kv_enum(o, v, b + 0x136, 2, "depth_test_function", CMB_E_COMPARE);
	kv_enum(o, v, b + 0x138, 1, "blend_mode", CMB_E_BLEND_MODE);
	kv_u8(o, v, b + 0x139, "unknown_139");
	nm_kv(o, "unknown_13a", "0x%x", nm_u16(v, b + 0x13A));
	kv_enum(o, v, b + 0x13C, 2, "blend_src_rgb", CMB_E_BLEND_FACTOR);
	kv_enum(o, v, b + 0x13E, 2, "blend_dst_rgb", CMB_E_BLEND_FACTOR);
	kv_enum(o, v, b + 0x140, 4, "blend_equation_rgb", CMB_E_BLEND_EQUATION);
	kv_enum(o, v, b + 0x144, 2, "blend_src_alpha", CMB_E_BLEND_FACTOR);
	kv_enum(o, v, b + 0x146, 2, "blend_dst_alpha", CMB_E_BLEND_FACTOR);
	kv_enum(o, v, b + 0x148, 4, "blend_equation_alpha", CMB_E_BLEND_EQUATION);
	kv_f32s(o, v, b + 0x14C, 4, "blend_color");
	if (m->L.mat_size >= 0x16C) {
		kv_u8(o, v, b + 0x15C, "stencil_enabled");
		kv_u8(o, v, b + 0x15D, "stencil_reference");
		kv_u8(o, v, b + 0x15E, "stencil_mask");
		kv_u8(o, v, b + 0x15F, "stencil_unknown_15f");
		kv_enum(o, v, b + 0x160, 2, "stencil_function", CMB_E_COMPARE);
		kv_enum(o, v, b + 0x162, 2, "stencil_fail_op", CMB_E_STENCIL_OP);
		kv_enum(o, v, b + 0x164, 2, "stencil_depth_fail_op", CMB_E_STENCIL_OP);
		kv_enum(o, v, b + 0x166, 2, "stencil_depth_pass_op", CMB_E_STENCIL_OP);
		nm_kv(o, "stencil_unknown_168", "0x%08x", nm_u32(v, b + 0x168));
	}
}

static void combiner_text(nm_out *o, nm_view *v, uint32_t table, uint32_t i)
{
	static const char *const src[] = { "source0_rgb", "source1_rgb", "source2_rgb" };
	static const char *const op[] = { "operand0_rgb", "operand1_rgb", "operand2_rgb" };
	static const char *const srca[] = { "source0_alpha", "source1_alpha", "source2_alpha" };
	static const char *const opa[] = { "operand0_alpha", "operand1_alpha", "operand2_alpha" };
	size_t b = table + (size_t)i * 0x28;
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%zx", b);
	kv_enum(o, v, b + 0x00, 2, "combine_rgb", CMB_E_COMBINE_MODE);
	kv_enum(o, v, b + 0x02, 2, "combine_alpha", CMB_E_COMBINE_MODE);
	nm_kv(o, "scale_rgb", "%u", nm_u16(v, b + 0x04));
	nm_kv(o, "scale_alpha", "%u", nm_u16(v, b + 0x06));
	kv_enum(o, v, b + 0x08, 2, "buffer_input_rgb", CMB_E_COMBINE_SOURCE);
	kv_enum(o, v, b + 0x0A, 2, "buffer_input_alpha", CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(o, v, b + 0x0C + 2 * (size_t)j, 2, src[j], CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(o, v, b + 0x12 + 2 * (size_t)j, 2, op[j], CMB_E_COMBINE_OPERAND);
	for (int j = 0; j < 3; j++)
		kv_enum(o, v, b + 0x18 + 2 * (size_t)j, 2, srca[j], CMB_E_COMBINE_SOURCE);
	for (int j = 0; j < 3; j++)
		kv_enum(o, v, b + 0x1E + 2 * (size_t)j, 2, opa[j], CMB_E_COMBINE_OPERAND);
	nm_kv(o, "constant_index", "%u", nm_u32(v, b + 0x24));
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
	nm_view *v = &c->v;
	for (uint32_t i = 0; m->mats && i < m->nmats; i++) {
		char name[32];
		material_text(&o, m, v, i);
		snprintf(name, sizeof name, "%u.txt", i);
		cmb_text(t, dir, name, &o);
	}
	if (m->mats && !c->failed) {
		nm_node *comb = nm_dir(t, dir, "combiners");
		for (uint32_t i = 0; comb && i < m->ncombiners; i++) {
			char name[32];
			combiner_text(&o, v, m->combiner_table, i);
			snprintf(name, sizeof name, "%u.txt", i);
			cmb_text(t, comb, name, &o);
		}
	}
	nm_out_free(&o);
	return NM_OK;
}
