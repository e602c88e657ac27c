/* The GX enum names of gx_names.c both ways, for record fields (export/record.h): a
 * kind picks the enum; a name is looked up over the byte values, which hold every
 * value these enums name. */
#include <string.h>
#include "codec/gx.h"
#include "export/record.h"
#include "formats/j3d/j3d.h"

static const char *blend_src(unsigned v) { return gx_blend_factor_name(v, true); }
static const char *blend_dst(unsigned v) { return gx_blend_factor_name(v, false); }

static const char *(*const namers[J3D_K_COUNT])(unsigned) = {
	[J3D_K_MAT_MODE] = j3d_mat_mode_name, [J3D_K_CULL] = gx_cull_name,
	[J3D_K_COLOR_SRC] = gx_color_src_name, [J3D_K_DIFFUSE_FN] = gx_diffuse_fn_name,
	[J3D_K_ATTN_FN] = gx_attn_fn_name, [J3D_K_TEXGEN_TYPE] = gx_texgen_type_name,
	[J3D_K_TEXGEN_SRC] = gx_texgen_src_name, [J3D_K_TEXMTX] = gx_texmtx_name,
	[J3D_K_POSTTEXMTX] = gx_posttexmtx_name, [J3D_K_TEXCOORD] = gx_texcoord_name,
	[J3D_K_TEXMAP] = gx_texmap_name, [J3D_K_CHANNEL] = gx_channel_name,
	[J3D_K_TEV_COLOR_ARG] = gx_tev_color_arg_name,
	[J3D_K_TEV_ALPHA_ARG] = gx_tev_alpha_arg_name, [J3D_K_TEV_OP] = gx_tev_op_name,
	[J3D_K_TEV_BIAS] = gx_tev_bias_name, [J3D_K_TEV_SCALE] = gx_tev_scale_name,
	[J3D_K_TEV_REG] = gx_tev_reg_name, [J3D_K_KCOLOR_SEL] = gx_kcolor_sel_name,
	[J3D_K_KALPHA_SEL] = gx_kalpha_sel_name, [J3D_K_SWAP_SEL] = gx_swap_sel_name,
	[J3D_K_COMPARE] = gx_compare_name, [J3D_K_ALPHA_OP] = gx_alpha_op_name,
	[J3D_K_BLEND_MODE] = gx_blend_mode_name, [J3D_K_BLEND_SRC] = blend_src,
	[J3D_K_BLEND_DST] = blend_dst, [J3D_K_LOGIC_OP] = gx_logic_op_name,
	[J3D_K_FOG_TYPE] = gx_fog_type_name, [J3D_K_WRAP] = gx_wrap_name,
	[J3D_K_FILTER] = gx_filter_name, [J3D_K_GX_FORMAT] = nm_gx_format_name,
	[J3D_K_PALETTE_FORMAT] = nm_gx_palette_format_name,
};

static const char *name_of(int kind, uint32_t v)
{
	return namers[kind](v);
}

static bool value_of(int kind, const char *name, uint32_t *v)
{
	for (uint32_t x = 0; x < 256; x++) {
		const char *n = namers[kind](x);
		if (n && strcmp(n, name) == 0) {
			*v = x;
			return true;
		}
	}
	return false;
}

const nm_rec_names j3d_gx_names = { name_of, value_of };
