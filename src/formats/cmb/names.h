/* Enum names for CMB text files (names.c). */
#ifndef NM_CMB_NAMES_H
#define NM_CMB_NAMES_H

#include <stdbool.h>
#include <stdint.h>

enum cmb_enum {
	CMB_E_FILTER, CMB_E_WRAP, CMB_E_COMPARE, CMB_E_BLEND_FACTOR, CMB_E_BLEND_EQUATION,
	CMB_E_STENCIL_OP, CMB_E_COMBINE_MODE, CMB_E_COMBINE_SOURCE, CMB_E_COMBINE_OPERAND,
	CMB_E_LUT_INPUT, CMB_E_LAYER_CONFIG, CMB_E_FRESNEL, CMB_E_BUMP_MODE, CMB_E_TEXTURE,
	CMB_E_DATA_TYPE, CMB_E_CULL, CMB_E_SKINNING, CMB_E_PRIMITIVE, CMB_E_MAPPING,
	CMB_E_MATRIX_MODE, CMB_E_BLEND_MODE, CMB_E_ATTR_MODE
};

/* NULL when the value has no name (nm_kv_enum prints "unknown"). */
const char *cmb_enum_name(enum cmb_enum kind, uint32_t v);
/* The value named name in kind (the reverse of cmb_enum_name), for edits read back. */
bool cmb_enum_value(enum cmb_enum kind, const char *name, uint32_t *v);
unsigned cmb_data_type_size(uint16_t t);   /* bytes, 0 if unknown */
const char *cmb_attr_name(int kind);       /* "position" */
const char *cmb_attr_file(int kind);       /* "positions.csv" */

#endif
