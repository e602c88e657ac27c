/* Vertex component formats and semantics (FORMATS.md 6.4: the GX2 attribute formats
 * as Tropical Freeze numbers them, and EVertexComponent for DKCTF).
 *
 * Multi-byte components follow the buffer's byte order (big-endian on Wii U, little on
 * Switch). unorm/snorm are normalized (snorm clamped at -1, as GX2 and D3D do), half
 * floats are IEEE binary16. The packed 10:10:10:2 formats are read as one 32-bit word
 * in the buffer's byte order with x in bits 0-9, y in 10-19, z in 20-29, w in 30-31
 * (GX2 and D3D's R10G10B10A2 order; the corpus has no such component, so this is
 * unverified [L]). */
#include <stdio.h>
#include <string.h>
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"
#include "lib/names.h"

static const rfrm_format_info formats[RFRM_FORMAT_COUNT] = {
	{ "R8_UNORM", 1, 1, RFRM_K_UNORM },       { "R8_UINT", 1, 1, RFRM_K_UINT },
	{ "R8_SNORM", 1, 1, RFRM_K_SNORM },       { "R8_SINT", 1, 1, RFRM_K_SINT },
	{ "R16_UNORM", 1, 2, RFRM_K_UNORM },      { "R16_UINT", 1, 2, RFRM_K_UINT },
	{ "R16_SNORM", 1, 2, RFRM_K_SNORM },      { "R16_SINT", 1, 2, RFRM_K_SINT },
	{ "R16_FLOAT", 1, 2, RFRM_K_HALF },       { "RG8_UNORM", 2, 2, RFRM_K_UNORM },
	{ "RG8_UINT", 2, 2, RFRM_K_UINT },        { "RG8_SNORM", 2, 2, RFRM_K_SNORM },
	{ "RG8_SINT", 2, 2, RFRM_K_SINT },        { "R32_UINT", 1, 4, RFRM_K_UINT },
	{ "R32_SINT", 1, 4, RFRM_K_SINT },        { "R32_FLOAT", 1, 4, RFRM_K_FLOAT },
	{ "RG16_UNORM", 2, 4, RFRM_K_UNORM },     { "RG16_UINT", 2, 4, RFRM_K_UINT },
	{ "RG16_SNORM", 2, 4, RFRM_K_SNORM },     { "RG16_SINT", 2, 4, RFRM_K_SINT },
	{ "RG16_FLOAT", 2, 4, RFRM_K_HALF },      { "RGBA8_UNORM", 4, 4, RFRM_K_UNORM },
	{ "RGBA8_UINT", 4, 4, RFRM_K_UINT },      { "RGBA8_SNORM", 4, 4, RFRM_K_SNORM },
	{ "RGBA8_SINT", 4, 4, RFRM_K_SINT },      { "RGB10A2_UNORM", 4, 4, RFRM_K_UNORM_1010102 },
	{ "RGB10A2_UINT", 4, 4, RFRM_K_UINT_1010102 },
	{ "RG32_UINT", 2, 8, RFRM_K_UINT },       { "RG32_SINT", 2, 8, RFRM_K_SINT },
	{ "RG32_FLOAT", 2, 8, RFRM_K_FLOAT },     { "RGBA16_UNORM", 4, 8, RFRM_K_UNORM },
	{ "RGBA16_UINT", 4, 8, RFRM_K_UINT },     { "RGBA16_SNORM", 4, 8, RFRM_K_SNORM },
	{ "RGBA16_SINT", 4, 8, RFRM_K_SINT },     { "RGBA16_FLOAT", 4, 8, RFRM_K_HALF },
	{ "RGB32_UINT", 3, 12, RFRM_K_UINT },     { "RGB32_SINT", 3, 12, RFRM_K_SINT },
	{ "RGB32_FLOAT", 3, 12, RFRM_K_FLOAT },   { "RGBA32_UINT", 4, 16, RFRM_K_UINT },
	{ "RGBA32_SINT", 4, 16, RFRM_K_SINT },    { "RGBA32_FLOAT", 4, 16, RFRM_K_FLOAT },
};

const rfrm_format_info *rfrm_format(uint32_t format)
{
	return format < RFRM_FORMAT_COUNT ? &formats[format] : NULL;
}

bool rfrm_format_is_int(const rfrm_format_info *f)
{
	return f->kind == RFRM_K_UINT || f->kind == RFRM_K_SINT ||
	       f->kind == RFRM_K_UINT_1010102;
}

static unsigned comp_bytes(const rfrm_format_info *f) { return f->bytes / f->comps; }

unsigned rfrm_format_int_width(const rfrm_format_info *f)
{
	if (f->kind == RFRM_K_UINT_1010102)
		return 4; /* 1023 */
	static const unsigned uw[] = { 0, 3, 5, 0, 10 }, sw[] = { 0, 4, 6, 0, 11 };
	return f->kind == RFRM_K_SINT ? sw[comp_bytes(f)] : uw[comp_bytes(f)];
}

float rfrm_half(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	uint32_t bits;
	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | man << 13;       /* inf, nan */
	} else if (exp != 0) {
		bits = sign | (exp + 112) << 23 | man << 13; /* rebias 15 -> 127 */
	} else if (man == 0) {
		bits = sign;                                 /* zero */
	} else {
		/* Subnormal half: normalize into a float. */
		int e = -1;
		do {
			man <<= 1;
			e++;
		} while (!(man & 0x400));
		bits = sign | (uint32_t)(112 - e) << 23 | (man & 0x3ff) << 13;
	}
	return nm_bits_f32(bits);
}

static uint32_t load(const uint8_t *p, unsigned n, bool little)
{
	switch (n) {
	case 1: return p[0];
	case 2: return little ? nm_le16(p) : nm_be16(p);
	default: return little ? nm_le32(p) : nm_be32(p);
	}
}

/* The raw bits of component c; packed formats unpacked. */
static uint32_t raw(const rfrm_format_info *f, const uint8_t *p, unsigned c, bool little)
{
	if (f->kind == RFRM_K_UNORM_1010102 || f->kind == RFRM_K_UINT_1010102) {
		uint32_t w = load(p, 4, little);
		return c < 3 ? (w >> (10 * c)) & 0x3ff : w >> 30;
	}
	unsigned n = comp_bytes(f);
	return load(p + (size_t)c * n, n, little);
}

static int64_t sign_extend(uint32_t v, unsigned bits)
{
	if (bits >= 32)
		return (int32_t)v;
	uint32_t m = 1u << (bits - 1);
	return (int64_t)((v ^ m)) - (int64_t)m;
}

int64_t rfrm_component_int(const rfrm_format_info *f, const uint8_t *p, unsigned c,
			   bool little)
{
	uint32_t v = raw(f, p, c, little);
	if (f->kind == RFRM_K_SINT || f->kind == RFRM_K_SNORM)
		return sign_extend(v, comp_bytes(f) * 8);
	return v;
}

float rfrm_component_float(const rfrm_format_info *f, const uint8_t *p, unsigned c,
			   bool little)
{
	uint32_t v = raw(f, p, c, little);
	unsigned bits = comp_bytes(f) * 8;
	switch (f->kind) {
	case RFRM_K_FLOAT:
		return nm_bits_f32(v);
	case RFRM_K_HALF:
		return rfrm_half((uint16_t)v);
	case RFRM_K_UNORM:
		return (float)((double)v / (double)((1ull << bits) - 1));
	case RFRM_K_SNORM: {
		double x = (double)sign_extend(v, bits) / (double)((1ull << (bits - 1)) - 1);
		return (float)(x < -1.0 ? -1.0 : x);
	}
	case RFRM_K_UNORM_1010102:
		return (float)((double)v / (c < 3 ? 1023.0 : 3.0));
	case RFRM_K_UINT:
	case RFRM_K_UINT_1010102:
		return (float)v;
	case RFRM_K_SINT:
		return (float)sign_extend(v, bits);
	}
	return 0.0f;
}

/* --- semantics ------------------------------------------------------------------ */

static const char *const semantic_names[RFRM_SEMANTIC_COUNT] = {
	"POSITION", "NORMAL", "TANGENT0", "TANGENT1", "TEXCOORD0", "TEXCOORD1", "TEXCOORD2",
	"TEXCOORD3", "COLOR", "BONE_INDICES", "BONE_WEIGHTS", "BAKED_LIGHTING_COORD",
	"BAKED_LIGHTING_TANGENT", "INSTANCE_COLOR", "VERT_TRANSFORM0", "VERT_TRANSFORM1",
	"VERT_TRANSFORM2", "VERT_TRANSFORM_IT0", "VERT_TRANSFORM_IT1", "VERT_TRANSFORM_IT2",
	"LAST_POSITION", "CURRENT_POSITION"
};

static const char *const semantic_stems[RFRM_SEMANTIC_COUNT] = {
	"positions", "normals", "tangents", "tangents1", "texcoords0", "texcoords1",
	"texcoords2", "texcoords3", "colors", "bone_indices", "bone_weights",
	"baked_lighting_coords", "baked_lighting_tangents", "instance_colors",
	"vert_transforms0", "vert_transforms1", "vert_transforms2", "vert_transforms_it0",
	"vert_transforms_it1", "vert_transforms_it2", "last_positions", "current_positions"
};

const char *rfrm_semantic_name(uint32_t s)
{
	return NM_NAME(semantic_names, s);
}

void rfrm_semantic_stem(uint32_t s, char *buf, size_t len)
{
	const char *stem = NM_NAME(semantic_stems, s);
	if (stem)
		snprintf(buf, len, "%s", stem);
	else
		snprintf(buf, len, "semantic_%u", s);
}

void rfrm_semantic_column(uint32_t s, unsigned c, char *buf, size_t len)
{
	if (s == 9 || s == 10) {
		snprintf(buf, len, "%s%u", s == 9 ? "index" : "weight", c);
		return;
	}
	const char *set = (s >= 4 && s <= 7) || s == 11 ? "uvwq"
			: s == 8 || s == 13 ? "rgba" : "xyzw";
	snprintf(buf, len, "%c", c < 4 ? set[c] : '?');
}
