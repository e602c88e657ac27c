/* Which texture binding carries a CMB material's base colour (mesh.mtl's map_Kd,
 * model.glb's baseColorTexture).
 *
 * Slot 0 is not always the colour: Luigi's Mansion 3D characters bind a white shadow
 * map there and their first stage computes (CONSTANT + TEXTURE0) * TEXTURE1, so the
 * colour is TEXTURE1. The choice follows the combiner stages (FORMATS.md 4.4; GL
 * combine modes): in stage order, the first texture source in a position whose value
 * scales or becomes the output colour (a factor of MODULATE, the multiplier of
 * ADD_MULT_DMP, the product of MULT_ADD_DMP, REPLACE's source, an interpolated
 * operand) and whose binding has a PNG. Textures only added to something (ADD_MULT's
 * sums) are lighting terms such as that shadow map. Without such a stage, the first
 * binding with a PNG, as before. */
#include "formats/cmb/cmb.h"

#define GL_REPLACE 0x1E01
#define GL_MODULATE 0x2100
#define GL_ADD 0x0104
#define GL_ADD_SIGNED 0x8574
#define GL_INTERPOLATE 0x8575
#define GL_SUBTRACT 0x84E7
#define GL_MULT_ADD_DMP 0x6401
#define GL_ADD_MULT_DMP 0x6402
#define GL_TEXTURE0 0x84C0

/* Bit k set: source k of this combine mode carries colour into the result. */
static unsigned colour_positions(uint16_t mode)
{
	switch (mode) {
	case GL_REPLACE: return 1;
	case GL_MODULATE: case GL_MULT_ADD_DMP: case GL_ADD: case GL_ADD_SIGNED:
	case GL_INTERPOLATE: return 3;
	case GL_SUBTRACT: return 1;
	case GL_ADD_MULT_DMP: return 4;
	default: return 0;
	}
}

static bool has_png(const cmb_model *m, const cmb_material *mat, int slot)
{
	int16_t i = mat->tex[slot];
	if (i < 0 || (uint32_t)i >= m->ntex)
		return false;
	const cmb_texture *tx = &m->tex[i];
	return tx->stem && tx->nfaces == 1 && tx->nlevels > 0;
}

int cmb_base_color_slot(const cmb_model *m, const cmb_material *mat)
{
	for (uint32_t k = 0; k < 6 && k < mat->ncombiners; k++) {
		unsigned pos = colour_positions(mat->stage_mode[k]);
		for (int j = 0; j < 3; j++) {
			unsigned src = mat->stage_src[k][j];
			if ((pos >> j & 1) && src >= GL_TEXTURE0 && src < GL_TEXTURE0 + 3 &&
			    has_png(m, mat, (int)(src - GL_TEXTURE0)))
				return (int)(src - GL_TEXTURE0);
		}
	}
	/* The first binding: the one every earlier version of mesh.mtl named. */
	for (int j = 0; j < 3; j++)
		if (mat->tex[j] >= 0 && (uint32_t)mat->tex[j] < m->ntex)
			return has_png(m, mat, j) ? j : -1;
	return -1;
}
