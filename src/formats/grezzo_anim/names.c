/* Names of the stored values of CMAB and CSAB (FORMATS.md 10.11, 10.12). */
#include "formats/grezzo_anim/grezzo_anim.h"
#include "lib/names.h"

const char *ga_cmab_type_name(uint32_t type)
{
	static const char *const n[6] = { NULL, "translation", "palette", "scale", "color",
					  "rotation" };
	return NM_NAME(n, type);
}

const char *ga_loop_name(uint32_t loop)
{
	static const char *const n[2] = { "once", "repeat" };
	return NM_NAME(n, loop);
}

const char *ga_interp_name(uint32_t stored_type, ga_kind kind)
{
	static const char *const n[4] = { NULL, "linear", "hermite", "step" };
	return kind == GA_CSAB && stored_type == 3 ? NULL : NM_NAME(n, stored_type);
}

const char *ga_form_name(ga_form f)
{
	static const char *const n[6] = {
		[GA_FORM_LONG] = "long header (u32 fields)",
		[GA_FORM_SHORT] = "short header (u16 fields, f32, u32)",
		[GA_FORM_S16] = "s16 rotation keys",
		[GA_FORM_V5_CONSTANT] = "v5 constant (scale, bias, raw)",
		[GA_FORM_V5_LINEAR] = "v5 per-frame values (scale, bias)",
		[GA_FORM_V5_HERMITE] = "v5 Hermite keys",
	};
	return NM_NAME(n, f);
}

const char *ga_track_name(const ga_anim *a, const ga_target *g, unsigned slot)
{
	static const char *const csab[GA_MAX_TRACKS] = {
		"translation_x", "translation_y", "translation_z", "rotation_x", "rotation_y",
		"rotation_z", "scale_x", "scale_y", "scale_z"
	};
	/* Per CMAB type; type 3's third track is unnamed in every source (q, as the third
	 * texture coordinate). */
	static const char *const translation[2] = { "translation_s", "translation_t" };
	static const char *const palette[1] = { "texture" };
	static const char *const scale[3] = { "scale_s", "scale_t", "scale_q" };
	static const char *const color[4] = { "red", "green", "blue", "alpha" };
	static const char *const rotation[1] = { "rotation" };
	if (a->kind == GA_CSAB)
		return NM_NAME(csab, slot);
	switch (g->type) {
	case 1: return NM_NAME(translation, slot);
	case 2: return NM_NAME(palette, slot);
	case 3: return NM_NAME(scale, slot);
	case 4: return NM_NAME(color, slot);
	case 5: return NM_NAME(rotation, slot);
	default: return NULL;
	}
}
