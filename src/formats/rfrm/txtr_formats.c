/* TXTR format codes, texture types and sampler enums (FORMATS.md 6.6, 9).
 *
 * Codes 0..31 are the same in both releases (kinnay's GX2 table for Wii U). Above,
 * the Switch release uses the enum Metroid Prime Remastered (same engine, retrotool)
 * has: ASTC 4x4 is 53 in both, which fixes the 21 codes between; the Wii U table ends
 * at 33 (RG16_FLOAT 32, RG8_UNORM 33 there, RG8_UNORM 32 on Switch). Only codes 58
 * (ASTC 8x5), 54 (ASTC 5x4) and 12 (RGBA8) occur in the corpus. Block bytes are the
 * format's, whatever retrotool's table says (it gives RGBA16 64 bytes). */
#include <stddef.h>
#include "codec/bcn.h"
#include "formats/rfrm/txtr.h"
#include "lib/names.h"

#define DATA "not decoded: float, signed, integer and depth data have no PNG form that keeps them exactly"
#define HALF "not decoded: half floats (HDR), which no PNG keeps exactly"

#define RAW(n, bytes) { n, 1, 1, bytes, RFRM_TEX_NONE, 0, false, 0, DATA }
#define PLAIN(n, bytes, kind, srgb, ch) { n, 1, 1, bytes, kind, 0, srgb, ch, NULL }
#define BC(n, bytes, f, srgb, ch) { n, 4, 4, bytes, RFRM_TEX_BCN, f, srgb, ch, NULL }
#define BC_NONE(n, bytes, why) { n, 4, 4, bytes, RFRM_TEX_NONE, 0, false, 0, why }
#define ASTC(n, w, h, srgb) { n, w, h, 16, RFRM_TEX_ASTC, 0, srgb, 4, NULL }

static const rfrm_txtr_format common[32] = {
	PLAIN("R8_UNORM", 1, RFRM_TEX_R8, false, 1), RAW("R8_SNORM", 1), RAW("R8_UINT", 1), RAW("R8_SINT", 1),
	RAW("R16_UNORM", 2), RAW("R16_SNORM", 2), RAW("R16_UINT", 2), RAW("R16_SINT", 2),
	RAW("R16_FLOAT", 2), RAW("R32_UINT", 4), RAW("R32_SINT", 4), RAW("RGB8_UNORM", 3),
	PLAIN("RGBA8_UNORM", 4, RFRM_TEX_RGBA8, false, 4),
	PLAIN("RGBA8_SRGB", 4, RFRM_TEX_RGBA8, true, 4),
	RAW("RGBA16_FLOAT", 8), RAW("RGBA32_FLOAT", 16), RAW("D16_UNORM", 2),
	RAW("D16_UNORM_2", 2), RAW("D24S8_UNORM", 4), RAW("D32_FLOAT", 4),
	BC("BC1_UNORM", 8, NM_BC1, false, 4), BC("BC1_SRGB", 8, NM_BC1, true, 4),
	BC("BC2_UNORM", 16, NM_BC2, false, 4), BC("BC2_SRGB", 16, NM_BC2, true, 4),
	BC("BC3_UNORM", 16, NM_BC3, false, 4), BC("BC3_SRGB", 16, NM_BC3, true, 4),
	BC("BC4_UNORM", 8, NM_BC4, false, 1),
	BC_NONE("BC4_SNORM", 8, "not decoded: SNORM BC4 has no library decoder in Debian"),
	BC("BC5_UNORM", 16, NM_BC5, false, 3),
	BC_NONE("BC5_SNORM", 16, "not decoded: SNORM BC5 has no library decoder in Debian"),
	RAW("R11G11B10_FLOAT", 4), RAW("R32_FLOAT", 4),
};

static const rfrm_txtr_format switch_only[85 - 32] = {
	PLAIN("RG8_UNORM", 2, RFRM_TEX_RG8, false, 3), RAW("RG8_SNORM", 2), RAW("RG8_UINT", 2),
	RAW("RG8_SINT", 2), RAW("RG16_FLOAT", 4), RAW("RG16_UNORM", 4), RAW("RG16_SNORM", 4),
	RAW("RG16_UINT", 4), RAW("RG16_SINT", 4), RAW("RGB10A2_UNORM", 4),
	RAW("RGB10A2_UINT", 4), RAW("RG32_UINT", 8), RAW("RG32_SINT", 8), RAW("RG32_FLOAT", 8),
	RAW("RGBA16_UNORM", 8), RAW("RGBA16_SNORM", 8), RAW("RGBA16_UINT", 8),
	RAW("RGBA16_SINT", 8), RAW("RGBA32_UINT", 16), RAW("RGBA32_SINT", 16),
	{ "NONE", 1, 1, 0, RFRM_TEX_NONE, 0, false, 0, "format NONE has no texels" },
	ASTC("ASTC_4x4", 4, 4, false), ASTC("ASTC_5x4", 5, 4, false),
	ASTC("ASTC_5x5", 5, 5, false), ASTC("ASTC_6x5", 6, 5, false),
	ASTC("ASTC_6x6", 6, 6, false), ASTC("ASTC_8x5", 8, 5, false),
	ASTC("ASTC_8x6", 8, 6, false), ASTC("ASTC_8x8", 8, 8, false),
	ASTC("ASTC_10x5", 10, 5, false), ASTC("ASTC_10x6", 10, 6, false),
	ASTC("ASTC_10x8", 10, 8, false), ASTC("ASTC_10x10", 10, 10, false),
	ASTC("ASTC_12x10", 12, 10, false), ASTC("ASTC_12x12", 12, 12, false),
	ASTC("ASTC_4x4_SRGB", 4, 4, true), ASTC("ASTC_5x4_SRGB", 5, 4, true),
	ASTC("ASTC_5x5_SRGB", 5, 5, true), ASTC("ASTC_6x5_SRGB", 6, 5, true),
	ASTC("ASTC_6x6_SRGB", 6, 6, true), ASTC("ASTC_8x5_SRGB", 8, 5, true),
	ASTC("ASTC_8x6_SRGB", 8, 6, true), ASTC("ASTC_8x8_SRGB", 8, 8, true),
	ASTC("ASTC_10x5_SRGB", 10, 5, true), ASTC("ASTC_10x6_SRGB", 10, 6, true),
	ASTC("ASTC_10x8_SRGB", 10, 8, true), ASTC("ASTC_10x10_SRGB", 10, 10, true),
	ASTC("ASTC_12x10_SRGB", 12, 10, true), ASTC("ASTC_12x12_SRGB", 12, 12, true),
	BC_NONE("BC6H_UFLOAT", 16, HALF), BC_NONE("BC6H_SFLOAT", 16, HALF),
	BC("BC7_UNORM", 16, NM_BC7, false, 4), BC("BC7_SRGB", 16, NM_BC7, true, 4),
};

static const rfrm_txtr_format wiiu_only[34 - 32] = {
	RAW("RG16_FLOAT", 4), RAW("RG8_UNORM", 2),
};

const rfrm_txtr_format *rfrm_txtr_format_of(uint32_t code, bool switch_platform)
{
	if (code < NM_COUNT(common))
		return &common[code];
	code -= NM_COUNT(common);
	if (switch_platform)
		return code < NM_COUNT(switch_only) ? &switch_only[code] : NULL;
	return code < NM_COUNT(wiiu_only) ? &wiiu_only[code] : NULL;
}

const char *rfrm_txtr_type_name(uint32_t type)
{
	static const char *const n[9] = { "1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY",
					  "2D_MSAA", "2D_MSAA_ARRAY", "CUBE_ARRAY" };
	return NM_NAME(n, type);
}

const char *rfrm_txtr_filter_name(uint32_t filter)
{
	static const char *const n[2] = { "POINT", "LINEAR" };
	return NM_NAME(n, filter);
}

const char *rfrm_txtr_wrap_name(uint32_t wrap)
{
	static const char *const n[4] = { "CLAMP", "WRAP", "MIRROR", "MIRROR_ONCE" };
	return NM_NAME(n, wrap);
}
