/* Names for the GL-style enums CMB stores (OpenGL ES 1.1 values plus the PICA200 "DMP"
 * extensions) and for CMB's own small enums. One table per context, because the same
 * number means different things in different fields (0 is ZERO as a blend factor and as a
 * stencil op, 0x1E01 is REPLACE for both stencil and combiner). */
#include <stddef.h>
#include <string.h>
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"
#include "lib/names.h"

typedef struct named { uint32_t v; const char *name; } named;

#define LOOKUP(table, v) lookup(table, NM_COUNT(table), v)

static const char *lookup(const named *t, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	return NULL;
}

static const named filters[] = {
	{ 0x2600, "NEAREST" }, { 0x2601, "LINEAR" },
	{ 0x2700, "NEAREST_MIPMAP_NEAREST" }, { 0x2701, "LINEAR_MIPMAP_NEAREST" },
	{ 0x2702, "NEAREST_MIPMAP_LINEAR" }, { 0x2703, "LINEAR_MIPMAP_LINEAR" },
};

static const named wraps[] = {
	{ 0x2900, "CLAMP_TO_BORDER" }, { 0x2901, "REPEAT" },
	{ 0x812F, "CLAMP_TO_EDGE" }, { 0x8370, "MIRRORED_REPEAT" },
};

static const named compares[] = {
	{ 0x200, "NEVER" }, { 0x201, "LESS" }, { 0x202, "EQUAL" }, { 0x203, "LEQUAL" },
	{ 0x204, "GREATER" }, { 0x205, "NOTEQUAL" }, { 0x206, "GEQUAL" }, { 0x207, "ALWAYS" },
};

static const named blend_factors[] = {
	{ 0, "ZERO" }, { 1, "ONE" },
	{ 0x300, "SRC_COLOR" }, { 0x301, "ONE_MINUS_SRC_COLOR" },
	{ 0x302, "SRC_ALPHA" }, { 0x303, "ONE_MINUS_SRC_ALPHA" },
	{ 0x304, "DST_ALPHA" }, { 0x305, "ONE_MINUS_DST_ALPHA" },
	{ 0x306, "DST_COLOR" }, { 0x307, "ONE_MINUS_DST_COLOR" },
	{ 0x308, "SRC_ALPHA_SATURATE" },
	{ 0x8001, "CONSTANT_COLOR" }, { 0x8002, "ONE_MINUS_CONSTANT_COLOR" },
	{ 0x8003, "CONSTANT_ALPHA" }, { 0x8004, "ONE_MINUS_CONSTANT_ALPHA" },
};

static const named blend_equations[] = {
	{ 0x8006, "FUNC_ADD" }, { 0x8007, "MIN" }, { 0x8008, "MAX" },
	{ 0x800A, "FUNC_SUBTRACT" }, { 0x800B, "FUNC_REVERSE_SUBTRACT" },
};

static const named stencil_ops[] = {
	{ 0, "ZERO" }, { 0x1E00, "KEEP" }, { 0x1E01, "REPLACE" }, { 0x1E02, "INCR" },
	{ 0x1E03, "DECR" }, { 0x150A, "INVERT" }, { 0x8507, "INCR_WRAP" },
	{ 0x8508, "DECR_WRAP" },
};

static const named combine_modes[] = {
	{ 0x1E01, "REPLACE" }, { 0x2100, "MODULATE" }, { 0x0104, "ADD" },
	{ 0x8574, "ADD_SIGNED" }, { 0x8575, "INTERPOLATE" }, { 0x84E7, "SUBTRACT" },
	{ 0x86AE, "DOT3_RGB" }, { 0x86AF, "DOT3_RGBA" },
	{ 0x6401, "MULT_ADD_DMP" }, { 0x6402, "ADD_MULT_DMP" },
};

static const named combine_sources[] = {
	{ 0x84C0, "TEXTURE0" }, { 0x84C1, "TEXTURE1" }, { 0x84C2, "TEXTURE2" },
	{ 0x84C3, "TEXTURE3" }, { 0x8576, "CONSTANT" }, { 0x8577, "PRIMARY_COLOR" },
	{ 0x8578, "PREVIOUS" }, { 0x8579, "PREVIOUS_BUFFER_DMP" },
	{ 0x6210, "FRAGMENT_PRIMARY_COLOR_DMP" }, { 0x6211, "FRAGMENT_SECONDARY_COLOR_DMP" },
};

static const named combine_operands[] = {
	{ 0x300, "SRC_COLOR" }, { 0x301, "ONE_MINUS_SRC_COLOR" },
	{ 0x302, "SRC_ALPHA" }, { 0x303, "ONE_MINUS_SRC_ALPHA" },
	{ 0x8580, "SRC_R_DMP" }, { 0x8581, "SRC_G_DMP" }, { 0x8582, "SRC_B_DMP" },
	{ 0x8583, "ONE_MINUS_SRC_R_DMP" }, { 0x8584, "ONE_MINUS_SRC_G_DMP" },
	{ 0x8585, "ONE_MINUS_SRC_B_DMP" },
};

static const named lut_inputs[] = {
	{ 0x62A0, "LIGHT_ENV_NH_DMP" }, { 0x62A1, "LIGHT_ENV_VH_DMP" },
	{ 0x62A2, "LIGHT_ENV_NV_DMP" }, { 0x62A3, "LIGHT_ENV_LN_DMP" },
	{ 0x62A4, "LIGHT_ENV_SP_DMP" }, { 0x62A5, "LIGHT_ENV_CP_DMP" },
};

static const named layer_configs[] = {
	{ 0x62B0, "LIGHT_ENV_LAYER_CONFIG0_DMP" }, { 0x62B1, "LIGHT_ENV_LAYER_CONFIG1_DMP" },
	{ 0x62B2, "LIGHT_ENV_LAYER_CONFIG2_DMP" }, { 0x62B3, "LIGHT_ENV_LAYER_CONFIG3_DMP" },
	{ 0x62B4, "LIGHT_ENV_LAYER_CONFIG4_DMP" }, { 0x62B5, "LIGHT_ENV_LAYER_CONFIG5_DMP" },
	{ 0x62B6, "LIGHT_ENV_LAYER_CONFIG6_DMP" }, { 0x62B7, "LIGHT_ENV_LAYER_CONFIG7_DMP" },
};

static const named fresnels[] = {
	{ 0x62C0, "LIGHT_ENV_NO_FRESNEL_DMP" }, { 0x62C1, "LIGHT_ENV_PRI_ONLY_FRESNEL_DMP" },
	{ 0x62C2, "LIGHT_ENV_SEC_ONLY_FRESNEL_DMP" },
	{ 0x62C3, "LIGHT_ENV_PRI_SEC_ALPHA_FRESNEL_DMP" },
};

static const named bump_modes[] = {
	{ 0x62C8, "LIGHT_ENV_BUMP_NOT_USED_DMP" }, { 0x62C9, "LIGHT_ENV_BUMP_AS_BUMP_DMP" },
	{ 0x62CA, "LIGHT_ENV_BUMP_AS_TANG_DMP" },
};

static const named textures[] = {
	{ 0x84C0, "TEXTURE0" }, { 0x84C1, "TEXTURE1" }, { 0x84C2, "TEXTURE2" },
	{ 0x84C3, "TEXTURE3" },
};

static const named data_types[] = {
	{ 0x1400, "BYTE" }, { 0x1401, "UNSIGNED_BYTE" }, { 0x1402, "SHORT" },
	{ 0x1403, "UNSIGNED_SHORT" }, { 0x1404, "INT" }, { 0x1405, "UNSIGNED_INT" },
	{ 0x1406, "FLOAT" },
};

const char *cmb_enum_name(enum cmb_enum kind, uint32_t v)
{
	switch (kind) {
	case CMB_E_FILTER: return LOOKUP(filters, v);
	case CMB_E_WRAP: return LOOKUP(wraps, v);
	case CMB_E_COMPARE: return LOOKUP(compares, v);
	case CMB_E_BLEND_FACTOR: return LOOKUP(blend_factors, v);
	case CMB_E_BLEND_EQUATION: return LOOKUP(blend_equations, v);
	case CMB_E_STENCIL_OP: return LOOKUP(stencil_ops, v);
	case CMB_E_COMBINE_MODE: return LOOKUP(combine_modes, v);
	case CMB_E_COMBINE_SOURCE: return LOOKUP(combine_sources, v);
	case CMB_E_COMBINE_OPERAND: return LOOKUP(combine_operands, v);
	case CMB_E_LUT_INPUT: return LOOKUP(lut_inputs, v);
	case CMB_E_LAYER_CONFIG: return LOOKUP(layer_configs, v);
	case CMB_E_FRESNEL: return LOOKUP(fresnels, v);
	case CMB_E_BUMP_MODE: return LOOKUP(bump_modes, v);
	case CMB_E_TEXTURE: return LOOKUP(textures, v);
	case CMB_E_DATA_TYPE: return LOOKUP(data_types, v);
	case CMB_E_CULL: {
		/* FORMATS.md 4.4 and noclip; one other reader swaps 1 and 2. */
		static const char *const n[4] = { "FRONT_AND_BACK", "BACK", "FRONT", "NONE" };
		return NM_NAME(n, v);
	}
	case CMB_E_SKINNING: {
		static const char *const n[3] = { "SINGLE_BONE", "RIGID", "SMOOTH" };
		return NM_NAME(n, v);
	}
	case CMB_E_PRIMITIVE: {
		static const char *const n[3] = { "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN" };
		return NM_NAME(n, v);
	}
	case CMB_E_MAPPING: {
		static const char *const n[5] = { "NONE", "UV_COORDINATE_MAP",
						  "CAMERA_CUBE_ENV_MAP", "CAMERA_SPHERE_ENV_MAP",
						  "PROJECTION_MAP" };
		return NM_NAME(n, v);
	}
	case CMB_E_MATRIX_MODE: {
		static const char *const n[3] = { "DCC_MAYA", "DCC_SOFTIMAGE", "DCC_3DSMAX" };
		return NM_NAME(n, v);
	}
	case CMB_E_BLEND_MODE: {
		static const char *const n[4] = { "NONE", "BLEND", "BLEND_SEPARATE", "LOGIC_OP" };
		return NM_NAME(n, v);
	}
	case CMB_E_ATTR_MODE: {
		static const char *const n[2] = { "ARRAY", "CONSTANT" };
		return NM_NAME(n, v);
	}
	}
	return NULL;
}

unsigned cmb_data_type_size(uint16_t t)
{
	switch (t) {
	case 0x1400: case 0x1401: return 1;
	case 0x1402: case 0x1403: return 2;
	case 0x1404: case 0x1405: case 0x1406: return 4;
	default: return 0;
	}
}

static const char *const attr_names[CMB_NATTRS] = {
	"position", "normal", "tangent", "color", "texcoord0", "texcoord1", "texcoord2",
	"bone_indices", "bone_weights"
};

static const char *const attr_files[CMB_NATTRS] = {
	"positions.csv", "normals.csv", "tangents.csv", "colors.csv", "texcoords0.csv",
	"texcoords1.csv", "texcoords2.csv", "bone_indices.csv", "bone_weights.csv"
};

const char *cmb_attr_name(int kind)
{
	const char *n = NM_NAME(attr_names, kind);
	return n ? n : "unknown";
}

const char *cmb_attr_file(int kind)
{
	const char *n = NM_NAME(attr_files, kind);
	return n ? n : "unknown.csv";
}

bool cmb_enum_value(enum cmb_enum kind, const char *name, uint32_t *v)
{
	/* Every value these tables name is below 0x10000 (GL enums and small indices), so
	 * a scan is the reverse of every table at once; it runs per edited field only. */
	for (uint32_t x = 0; x < 0x10000; x++) {
		const char *n = cmb_enum_name(kind, x);
		if (n && strcmp(n, name) == 0) {
			*v = x;
			return true;
		}
	}
	return false;
}
