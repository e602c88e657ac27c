/* Names of the GX enums that J3D stores as raw numbers (GX API order), for text output
 * as `NAME (0x..)`. Every function returns NULL for a value it does not know. Each table
 * is sized by the range of values it covers and read through NM_NAME (lib/names.h). */
#include <stddef.h>
#include "formats/j3d/j3d.h"
#include "lib/names.h"

const char *j3d_attr_name(uint32_t a)
{
	static const char *const n[26] = {
		"PNMTXIDX", "TEX0MTXIDX", "TEX1MTXIDX", "TEX2MTXIDX", "TEX3MTXIDX",
		"TEX4MTXIDX", "TEX5MTXIDX", "TEX6MTXIDX", "TEX7MTXIDX", "POS", "NRM", "CLR0",
		"CLR1", "TEX0", "TEX1", "TEX2", "TEX3", "TEX4", "TEX5", "TEX6", "TEX7",
		"POS_MTX_ARRAY", "NRM_MTX_ARRAY", "TEX_MTX_ARRAY", "LIGHT_ARRAY", "NBT"
	};
	return a == J3D_A_NULL ? "NULL" : NM_NAME(n, a);
}

const char *j3d_index_type_name(uint32_t t)
{
	static const char *const n[4] = { "NONE", "DIRECT", "INDEX8", "INDEX16" };
	return NM_NAME(n, t);
}

const char *j3d_comp_type_name(uint32_t t, bool color)
{
	static const char *const num[5] = { "U8", "S8", "U16", "S16", "F32" };
	static const char *const col[6] = { "RGB565", "RGB8", "RGBX8", "RGBA4", "RGBA6", "RGBA8" };
	return color ? NM_NAME(col, t) : NM_NAME(num, t);
}

const char *j3d_comp_count_name(uint32_t attr, uint32_t cnt)
{
	static const char *const pos[2] = { "XY", "XYZ" };
	static const char *const nrm[3] = { "XYZ", "NBT", "NBT3" };
	static const char *const clr[2] = { "RGB", "RGBA" };
	static const char *const tex[2] = { "S", "ST" };
	if (attr == J3D_A_POS)
		return NM_NAME(pos, cnt);
	if (attr == J3D_A_NRM || attr == J3D_A_NBT)
		return NM_NAME(nrm, cnt);
	if (attr == J3D_A_CLR0 || attr == J3D_A_CLR1)
		return NM_NAME(clr, cnt);
	if (attr >= J3D_A_TEX0 && attr <= J3D_A_TEX7)
		return NM_NAME(tex, cnt);
	return NULL;
}

const char *j3d_mtx_type_name(unsigned t)
{
	static const char *const n[4] = { "SINGLE", "BILLBOARD", "Y_BILLBOARD", "MULTI" };
	return NM_NAME(n, t);
}

const char *j3d_mat_mode_name(unsigned v)
{
	switch (v) {
	case 1: return "OPAQUE";
	case 2: return "EDGE";
	case 4: return "TRANSLUCENT";
	default: return NULL;
	}
}

const char *gx_cull_name(unsigned v)
{
	static const char *const n[4] = { "NONE", "FRONT", "BACK", "ALL" };
	return NM_NAME(n, v);
}

const char *gx_color_src_name(unsigned v)
{
	static const char *const n[2] = { "REG", "VTX" };
	return NM_NAME(n, v);
}

const char *gx_diffuse_fn_name(unsigned v)
{
	static const char *const n[3] = { "NONE", "SIGN", "CLAMP" };
	return NM_NAME(n, v);
}

const char *gx_attn_fn_name(unsigned v)
{
	static const char *const n[3] = { "SPEC", "SPOT", "NONE" };
	return NM_NAME(n, v);
}

const char *gx_texgen_type_name(unsigned v)
{
	static const char *const n[11] = { "MTX3x4", "MTX2x4", "BUMP0", "BUMP1", "BUMP2",
					   "BUMP3", "BUMP4", "BUMP5", "BUMP6", "BUMP7", "SRTG" };
	return NM_NAME(n, v);
}

const char *gx_texgen_src_name(unsigned v)
{
	static const char *const n[21] = {
		"POS", "NRM", "BINRM", "TANGENT", "TEX0", "TEX1", "TEX2", "TEX3", "TEX4",
		"TEX5", "TEX6", "TEX7", "TEXCOORD0", "TEXCOORD1", "TEXCOORD2", "TEXCOORD3",
		"TEXCOORD4", "TEXCOORD5", "TEXCOORD6", "COLOR0", "COLOR1"
	};
	return NM_NAME(n, v);
}

/* GX_TEXMTX0 = 30, in steps of 3; GX_IDENTITY = 60. */
const char *gx_texmtx_name(unsigned v)
{
	static const char *const n[10] = { "TEXMTX0", "TEXMTX1", "TEXMTX2", "TEXMTX3", "TEXMTX4",
					   "TEXMTX5", "TEXMTX6", "TEXMTX7", "TEXMTX8", "TEXMTX9" };
	if (v == 60)
		return "IDENTITY";
	return v >= 30 && (v - 30) % 3 == 0 ? NM_NAME(n, (v - 30) / 3) : NULL;
}

/* GX_PTTEXMTX0 = 64, in steps of 3; GX_PTIDENTITY = 125. */
const char *gx_posttexmtx_name(unsigned v)
{
	static const char *const n[20] = {
		"PTTEXMTX0", "PTTEXMTX1", "PTTEXMTX2", "PTTEXMTX3", "PTTEXMTX4", "PTTEXMTX5",
		"PTTEXMTX6", "PTTEXMTX7", "PTTEXMTX8", "PTTEXMTX9", "PTTEXMTX10", "PTTEXMTX11",
		"PTTEXMTX12", "PTTEXMTX13", "PTTEXMTX14", "PTTEXMTX15", "PTTEXMTX16",
		"PTTEXMTX17", "PTTEXMTX18", "PTTEXMTX19"
	};
	if (v == 125)
		return "PTIDENTITY";
	return v >= 64 && (v - 64) % 3 == 0 ? NM_NAME(n, (v - 64) / 3) : NULL;
}

const char *gx_texcoord_name(unsigned v)
{
	static const char *const n[8] = { "TEXCOORD0", "TEXCOORD1", "TEXCOORD2", "TEXCOORD3",
					  "TEXCOORD4", "TEXCOORD5", "TEXCOORD6", "TEXCOORD7" };
	return v == 0xFF ? "TEXCOORD_NULL" : NM_NAME(n, v);
}

const char *gx_texmap_name(unsigned v)
{
	static const char *const n[8] = { "TEXMAP0", "TEXMAP1", "TEXMAP2", "TEXMAP3",
					  "TEXMAP4", "TEXMAP5", "TEXMAP6", "TEXMAP7" };
	return v == 0xFF ? "TEXMAP_NULL" : NM_NAME(n, v);
}

const char *gx_channel_name(unsigned v)
{
	static const char *const n[9] = { "COLOR0", "COLOR1", "ALPHA0", "ALPHA1", "COLOR0A0",
					  "COLOR1A1", "COLOR_ZERO", "ALPHA_BUMP", "ALPHA_BUMPN" };
	return v == 0xFF ? "COLOR_NULL" : NM_NAME(n, v);
}

const char *gx_tev_color_arg_name(unsigned v)
{
	static const char *const n[16] = { "CPREV", "APREV", "C0", "A0", "C1", "A1", "C2", "A2",
					   "TEXC", "TEXA", "RASC", "RASA", "ONE", "HALF", "KONST",
					   "ZERO" };
	return NM_NAME(n, v);
}

const char *gx_tev_alpha_arg_name(unsigned v)
{
	static const char *const n[8] = { "APREV", "A0", "A1", "A2", "TEXA", "RASA", "KONST",
					  "ZERO" };
	return NM_NAME(n, v);
}

const char *gx_tev_op_name(unsigned v)
{
	static const char *const n[16] = { "ADD", "SUB", NULL, NULL, NULL, NULL, NULL, NULL,
					   "COMP_R8_GT", "COMP_R8_EQ", "COMP_GR16_GT",
					   "COMP_GR16_EQ", "COMP_BGR24_GT", "COMP_BGR24_EQ",
					   "COMP_RGB8_GT", "COMP_RGB8_EQ" };
	return NM_NAME(n, v);
}

const char *gx_tev_bias_name(unsigned v)
{
	static const char *const n[3] = { "ZERO", "ADDHALF", "SUBHALF" };
	return NM_NAME(n, v);
}

const char *gx_tev_scale_name(unsigned v)
{
	static const char *const n[4] = { "SCALE_1", "SCALE_2", "SCALE_4", "DIVIDE_2" };
	return NM_NAME(n, v);
}

const char *gx_tev_reg_name(unsigned v)
{
	static const char *const n[4] = { "TEVPREV", "TEVREG0", "TEVREG1", "TEVREG2" };
	return NM_NAME(n, v);
}

const char *gx_kcolor_sel_name(unsigned v)
{
	static const char *const frac[8] = { "KCSEL_1", "KCSEL_7_8", "KCSEL_3_4", "KCSEL_5_8",
					     "KCSEL_1_2", "KCSEL_3_8", "KCSEL_1_4", "KCSEL_1_8" };
	static const char *const k[0x20 - 0x0C] = {
		"KCSEL_K0", "KCSEL_K1", "KCSEL_K2", "KCSEL_K3",
		"KCSEL_K0_R", "KCSEL_K1_R", "KCSEL_K2_R", "KCSEL_K3_R",
		"KCSEL_K0_G", "KCSEL_K1_G", "KCSEL_K2_G", "KCSEL_K3_G",
		"KCSEL_K0_B", "KCSEL_K1_B", "KCSEL_K2_B", "KCSEL_K3_B",
		"KCSEL_K0_A", "KCSEL_K1_A", "KCSEL_K2_A", "KCSEL_K3_A"
	};
	if (v < 0x0C)
		return NM_NAME(frac, v);
	return NM_NAME(k, v - 0x0C);
}

const char *gx_kalpha_sel_name(unsigned v)
{
	static const char *const frac[8] = { "KASEL_1", "KASEL_7_8", "KASEL_3_4", "KASEL_5_8",
					     "KASEL_1_2", "KASEL_3_8", "KASEL_1_4", "KASEL_1_8" };
	static const char *const k[0x20 - 0x10] = {
		"KASEL_K0_R", "KASEL_K1_R", "KASEL_K2_R", "KASEL_K3_R",
		"KASEL_K0_G", "KASEL_K1_G", "KASEL_K2_G", "KASEL_K3_G",
		"KASEL_K0_B", "KASEL_K1_B", "KASEL_K2_B", "KASEL_K3_B",
		"KASEL_K0_A", "KASEL_K1_A", "KASEL_K2_A", "KASEL_K3_A"
	};
	if (v < 0x10)
		return NM_NAME(frac, v);
	return NM_NAME(k, v - 0x10);
}

const char *gx_swap_sel_name(unsigned v)
{
	static const char *const n[4] = { "SWAP0", "SWAP1", "SWAP2", "SWAP3" };
	return NM_NAME(n, v);
}

const char *gx_channel_sel_name(unsigned v)
{
	static const char *const n[4] = { "R", "G", "B", "A" };
	return NM_NAME(n, v);
}

const char *gx_compare_name(unsigned v)
{
	static const char *const n[8] = { "NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER",
					  "NEQUAL", "GEQUAL", "ALWAYS" };
	return NM_NAME(n, v);
}

const char *gx_alpha_op_name(unsigned v)
{
	static const char *const n[4] = { "AND", "OR", "XOR", "XNOR" };
	return NM_NAME(n, v);
}

const char *gx_blend_mode_name(unsigned v)
{
	static const char *const n[4] = { "NONE", "BLEND", "LOGIC", "SUBTRACT" };
	return NM_NAME(n, v);
}

/* GX names 2 and 3 by the side they are used on: DSTCLR for the source factor,
 * SRCCLR for the destination factor. */
const char *gx_blend_factor_name(unsigned v, bool src)
{
	static const char *const n[8] = { "ZERO", "ONE", NULL, NULL, "SRCALPHA", "INVSRCALPHA",
					  "DSTALPHA", "INVDSTALPHA" };
	if (v == 2)
		return src ? "DSTCLR" : "SRCCLR";
	if (v == 3)
		return src ? "INVDSTCLR" : "INVSRCCLR";
	return NM_NAME(n, v);
}

const char *gx_logic_op_name(unsigned v)
{
	static const char *const n[16] = { "CLEAR", "AND", "REVAND", "COPY", "INVAND", "NOOP",
					   "XOR", "OR", "NOR", "EQUIV", "INV", "REVOR", "INVCOPY",
					   "INVOR", "NAND", "SET" };
	return NM_NAME(n, v);
}

const char *gx_fog_type_name(unsigned v)
{
	static const char *const n[15] = { "NONE", NULL, "PERSP_LIN", "PERSP_EXP", "PERSP_EXP2",
					   "PERSP_REVEXP", "PERSP_REVEXP2", NULL, NULL, NULL,
					   "ORTHO_LIN", "ORTHO_EXP", "ORTHO_EXP2", "ORTHO_REVEXP",
					   "ORTHO_REVEXP2" };
	return NM_NAME(n, v);
}

const char *gx_wrap_name(unsigned v)
{
	static const char *const n[3] = { "CLAMP", "REPEAT", "MIRROR" };
	return NM_NAME(n, v);
}

const char *gx_filter_name(unsigned v)
{
	static const char *const n[6] = { "NEAR", "LINEAR", "NEAR_MIP_NEAR", "LIN_MIP_NEAR",
					  "NEAR_MIP_LIN", "LIN_MIP_LIN" };
	return NM_NAME(n, v);
}

/* BP (blitting processor) registers, by their 8-bit address: three tables for the
 * ranges 0x00-0x7F, 0x80-0xBF (texture units) and 0xC0-0xFF (TEV, fog, masks), each
 * sized by its range, so an unnamed register (0x70-0x7F, 0xBC-0xBF, 0xFF) is NULL. */
const char *gx_bp_reg_name(unsigned r)
{
	static const char *const low[0x80] = {
		[0x00] = "GENMODE",
		[0x01] = "DISP_COPY_FILTER0", [0x02] = "DISP_COPY_FILTER1",
		[0x03] = "DISP_COPY_FILTER2", [0x04] = "DISP_COPY_FILTER3",
		[0x06] = "IND_MTXA0", [0x07] = "IND_MTXB0", [0x08] = "IND_MTXC0",
		[0x09] = "IND_MTXA1", [0x0A] = "IND_MTXB1", [0x0B] = "IND_MTXC1",
		[0x0C] = "IND_MTXA2", [0x0D] = "IND_MTXB2", [0x0E] = "IND_MTXC2",
		[0x0F] = "IND_IMASK",
		[0x10] = "IND_CMD0", [0x11] = "IND_CMD1", [0x12] = "IND_CMD2", [0x13] = "IND_CMD3",
		[0x14] = "IND_CMD4", [0x15] = "IND_CMD5", [0x16] = "IND_CMD6", [0x17] = "IND_CMD7",
		[0x18] = "IND_CMD8", [0x19] = "IND_CMD9", [0x1A] = "IND_CMD10",
		[0x1B] = "IND_CMD11", [0x1C] = "IND_CMD12", [0x1D] = "IND_CMD13",
		[0x1E] = "IND_CMD14", [0x1F] = "IND_CMD15",
		[0x20] = "SCISSOR_TL", [0x21] = "SCISSOR_BR", [0x22] = "LINE_PT_WIDTH",
		[0x23] = "PERF0_TRI", [0x24] = "PERF0_QUAD", [0x25] = "RAS1_SS0",
		[0x26] = "RAS1_SS1", [0x27] = "RAS1_IREF",
		[0x28] = "RAS1_TREF0", [0x29] = "RAS1_TREF1", [0x2A] = "RAS1_TREF2",
		[0x2B] = "RAS1_TREF3", [0x2C] = "RAS1_TREF4", [0x2D] = "RAS1_TREF5",
		[0x2E] = "RAS1_TREF6", [0x2F] = "RAS1_TREF7",
		[0x30] = "SU_SSIZE0", [0x31] = "SU_TSIZE0", [0x32] = "SU_SSIZE1",
		[0x33] = "SU_TSIZE1", [0x34] = "SU_SSIZE2", [0x35] = "SU_TSIZE2",
		[0x36] = "SU_SSIZE3", [0x37] = "SU_TSIZE3", [0x38] = "SU_SSIZE4",
		[0x39] = "SU_TSIZE4", [0x3A] = "SU_SSIZE5", [0x3B] = "SU_TSIZE5",
		[0x3C] = "SU_SSIZE6", [0x3D] = "SU_TSIZE6", [0x3E] = "SU_SSIZE7",
		[0x3F] = "SU_TSIZE7",
		[0x40] = "PE_ZMODE", [0x41] = "PE_CMODE0", [0x42] = "PE_CMODE1",
		[0x43] = "PE_CONTROL", [0x44] = "PE_FIELD_MASK", [0x45] = "PE_DONE",
		[0x46] = "PE_CLOCK", [0x47] = "PE_TOKEN", [0x48] = "PE_TOKEN_INT",
		[0x49] = "EFB_TL", [0x4A] = "EFB_BR", [0x4B] = "EFB_ADDR",
		[0x4D] = "MIPMAP_STRIDE", [0x4E] = "COPY_YSCALE", [0x4F] = "PE_CLEAR_AR",
		[0x50] = "PE_CLEAR_GB", [0x51] = "PE_CLEAR_Z", [0x52] = "PE_COPY_EXECUTE",
		[0x53] = "COPY_FILTER0", [0x54] = "COPY_FILTER1", [0x55] = "BOUNDING_BOX0",
		[0x56] = "BOUNDING_BOX1", [0x59] = "SCISSOR_OFFSET",
		[0x64] = "TX_LOADTLUT0", [0x65] = "TX_LOADTLUT1", [0x66] = "TX_INVALTAGS",
		[0x67] = "TX_PERFMODE", [0x68] = "FIELD_MODE", [0x69] = "CLOCK1",
	};
	static const char *const tx[0xC0 - 0x80] = {
		"TX_SETMODE0_I0", "TX_SETMODE0_I1", "TX_SETMODE0_I2", "TX_SETMODE0_I3",
		"TX_SETMODE1_I0", "TX_SETMODE1_I1", "TX_SETMODE1_I2", "TX_SETMODE1_I3",
		"TX_SETIMAGE0_I0", "TX_SETIMAGE0_I1", "TX_SETIMAGE0_I2", "TX_SETIMAGE0_I3",
		"TX_SETIMAGE1_I0", "TX_SETIMAGE1_I1", "TX_SETIMAGE1_I2", "TX_SETIMAGE1_I3",
		"TX_SETIMAGE2_I0", "TX_SETIMAGE2_I1", "TX_SETIMAGE2_I2", "TX_SETIMAGE2_I3",
		"TX_SETIMAGE3_I0", "TX_SETIMAGE3_I1", "TX_SETIMAGE3_I2", "TX_SETIMAGE3_I3",
		"TX_SETTLUT_I0", "TX_SETTLUT_I1", "TX_SETTLUT_I2", "TX_SETTLUT_I3",
		NULL, NULL, NULL, NULL,
		"TX_SETMODE0_I4", "TX_SETMODE0_I5", "TX_SETMODE0_I6", "TX_SETMODE0_I7",
		"TX_SETMODE1_I4", "TX_SETMODE1_I5", "TX_SETMODE1_I6", "TX_SETMODE1_I7",
		"TX_SETIMAGE0_I4", "TX_SETIMAGE0_I5", "TX_SETIMAGE0_I6", "TX_SETIMAGE0_I7",
		"TX_SETIMAGE1_I4", "TX_SETIMAGE1_I5", "TX_SETIMAGE1_I6", "TX_SETIMAGE1_I7",
		"TX_SETIMAGE2_I4", "TX_SETIMAGE2_I5", "TX_SETIMAGE2_I6", "TX_SETIMAGE2_I7",
		"TX_SETIMAGE3_I4", "TX_SETIMAGE3_I5", "TX_SETIMAGE3_I6", "TX_SETIMAGE3_I7",
		"TX_SETTLUT_I4", "TX_SETTLUT_I5", "TX_SETTLUT_I6", "TX_SETTLUT_I7",
	};
	static const char *const tev[0x100 - 0xC0] = {
		"TEV_COLOR_ENV0", "TEV_ALPHA_ENV0", "TEV_COLOR_ENV1", "TEV_ALPHA_ENV1",
		"TEV_COLOR_ENV2", "TEV_ALPHA_ENV2", "TEV_COLOR_ENV3", "TEV_ALPHA_ENV3",
		"TEV_COLOR_ENV4", "TEV_ALPHA_ENV4", "TEV_COLOR_ENV5", "TEV_ALPHA_ENV5",
		"TEV_COLOR_ENV6", "TEV_ALPHA_ENV6", "TEV_COLOR_ENV7", "TEV_ALPHA_ENV7",
		"TEV_COLOR_ENV8", "TEV_ALPHA_ENV8", "TEV_COLOR_ENV9", "TEV_ALPHA_ENV9",
		"TEV_COLOR_ENV10", "TEV_ALPHA_ENV10", "TEV_COLOR_ENV11", "TEV_ALPHA_ENV11",
		"TEV_COLOR_ENV12", "TEV_ALPHA_ENV12", "TEV_COLOR_ENV13", "TEV_ALPHA_ENV13",
		"TEV_COLOR_ENV14", "TEV_ALPHA_ENV14", "TEV_COLOR_ENV15", "TEV_ALPHA_ENV15",
		"TEV_REGISTERL0", "TEV_REGISTERH0", "TEV_REGISTERL1", "TEV_REGISTERH1",
		"TEV_REGISTERL2", "TEV_REGISTERH2", "TEV_REGISTERL3", "TEV_REGISTERH3",
		"FOG_RANGE", "FOG_RANGE_ADJ0", "FOG_RANGE_ADJ1", "FOG_RANGE_ADJ2",
		"FOG_RANGE_ADJ3", "FOG_RANGE_ADJ4", "TEV_FOG_PARAM0", "TEV_FOG_PARAM1",
		"TEV_FOG_PARAM2", "TEV_FOG_PARAM3", "TEV_FOG_COLOR", "TEV_ALPHAFUNC",
		"TEV_Z_ENV0", "TEV_Z_ENV1", "TEV_KSEL0", "TEV_KSEL1", "TEV_KSEL2",
		"TEV_KSEL3", "TEV_KSEL4", "TEV_KSEL5", "TEV_KSEL6", "TEV_KSEL7", "BP_MASK",
	};
	if (r < 0x80)
		return NM_NAME(low, r);
	if (r < 0xC0)
		return NM_NAME(tx, r - 0x80);
	return NM_NAME(tev, r - 0xC0);
}

/* XF (transform unit) registers at 0x1000 and up; matrix and light memory below is
 * named by the caller. */
const char *gx_xf_reg_name(unsigned a)
{
	static const char *const n[0x1027 - 0x1000] = {
		"XF_ERROR", "XF_DIAG", "XF_STATE0", "XF_STATE1", "XF_CLOCK", "XF_CLIP_DISABLE",
		"XF_PERF0", "XF_PERF1", "XF_INVTXSPEC", "XF_NUMCOLORS", "XF_AMBIENT0",
		"XF_AMBIENT1", "XF_MATERIAL0", "XF_MATERIAL1", "XF_COLOR0CNTRL",
		"XF_COLOR1CNTRL", "XF_ALPHA0CNTRL", "XF_ALPHA1CNTRL", "XF_DUALTEXTRANS",
		NULL, NULL, NULL, NULL, NULL,
		"XF_MATINDEX_A", "XF_MATINDEX_B", "XF_VIEWPORT_SCALE_X", "XF_VIEWPORT_SCALE_Y",
		"XF_VIEWPORT_SCALE_Z", "XF_VIEWPORT_OFFSET_X", "XF_VIEWPORT_OFFSET_Y",
		"XF_VIEWPORT_OFFSET_Z", "XF_PROJECTION_A", "XF_PROJECTION_B",
		"XF_PROJECTION_C", "XF_PROJECTION_D", "XF_PROJECTION_E", "XF_PROJECTION_F",
		"XF_PROJECTION_ORTHO",
	};
	static const char *const tex[8] = { "XF_TEX0", "XF_TEX1", "XF_TEX2", "XF_TEX3",
					    "XF_TEX4", "XF_TEX5", "XF_TEX6", "XF_TEX7" };
	static const char *const dual[8] = { "XF_DUALTEX0", "XF_DUALTEX1", "XF_DUALTEX2",
					     "XF_DUALTEX3", "XF_DUALTEX4", "XF_DUALTEX5",
					     "XF_DUALTEX6", "XF_DUALTEX7" };
	if (a == 0x103F)
		return "XF_NUMTEX";
	if (a < 0x1040)
		return NM_NAME(n, a - 0x1000);
	if (a < 0x1050)
		return NM_NAME(tex, a - 0x1040);
	return NM_NAME(dual, a - 0x1050);
}

/* CP (command processor) registers. */
const char *gx_cp_reg_name(unsigned r)
{
	switch (r & 0xF0) {
	case 0x30: return "CP_MATINDEX_A";
	case 0x40: return "CP_MATINDEX_B";
	case 0x50: return "CP_VCD_LO";
	case 0x60: return "CP_VCD_HI";
	case 0x70: return r < 0x78 ? "CP_VAT_A" : NULL;
	case 0x80: return r < 0x88 ? "CP_VAT_B" : NULL;
	case 0x90: return r < 0x98 ? "CP_VAT_C" : NULL;
	case 0xA0: return "CP_ARRAY_BASE";
	case 0xB0: return "CP_ARRAY_STRIDE";
	default: return NULL;
	}
}
