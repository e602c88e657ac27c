/* Binary CMOD written from the model's records (cmod.h): what an edited
 * model.ascii.cmod becomes, token for token the stream parse_binary.c reads. Little
 * endian throughout (FORMATS.md 5.2). */
#include <string.h>
#include "formats/cmod/cmod.h"

void cmod_bin_u16(nm_out *o, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	nm_out_write(o, b, 2);
}

void cmod_bin_u32(nm_out *o, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	nm_out_write(o, b, 4);
}

void cmod_bin_f32(nm_out *o, float f)
{
	uint32_t u;
	memcpy(&u, &f, 4); /* the bits as they are: -0 and NaN payloads stay */
	cmod_bin_u32(o, u);
}

static void color(nm_out *o, uint16_t token, const float *c)
{
	cmod_bin_u16(o, token);
	cmod_bin_u16(o, CMOD_COLOR);
	for (int i = 0; i < 3; i++)
		cmod_bin_f32(o, c[i]);
}

static void float1(nm_out *o, uint16_t token, float f)
{
	cmod_bin_u16(o, token);
	cmod_bin_u16(o, CMOD_FLOAT1);
	cmod_bin_f32(o, f);
}

void cmod_bin_material(nm_out *o, const cmod_material *mat)
{
	cmod_bin_u16(o, CMOD_MATERIAL);
	if (mat->stored & CMOD_HAS_DIFFUSE)
		color(o, CMOD_DIFFUSE, mat->diffuse);
	if (mat->stored & CMOD_HAS_EMISSIVE)
		color(o, CMOD_EMISSIVE, mat->emissive);
	if (mat->stored & CMOD_HAS_SPECULAR)
		color(o, CMOD_SPECULAR, mat->specular);
	if (mat->stored & CMOD_HAS_SPECPOWER)
		float1(o, CMOD_SPECULAR_POWER, mat->specpower);
	if (mat->stored & CMOD_HAS_OPACITY)
		float1(o, CMOD_OPACITY, mat->opacity);
	if (mat->stored & CMOD_HAS_BLEND) {
		cmod_bin_u16(o, CMOD_BLEND);      /* a bare u16: no type tag */
		cmod_bin_u16(o, (uint16_t)mat->blend);
	}
	for (int s = 0; s < CMOD_TEXTURE_SEMANTICS; s++)
		if (mat->texture[s]) {
			size_t len = strlen(mat->texture[s]);
			cmod_bin_u16(o, CMOD_TEXTURE);
			cmod_bin_u16(o, (uint16_t)s);
			cmod_bin_u16(o, CMOD_STRING);
			cmod_bin_u16(o, (uint16_t)len); /* the reader keeps names to 65535 */
			nm_out_write(o, mat->texture[s], len);
		}
	cmod_bin_u16(o, CMOD_END_MATERIAL);
}

void cmod_bin_mesh_begin(nm_out *o, const cmod_attr *attrs, unsigned nattrs, uint32_t nverts)
{
	cmod_bin_u16(o, CMOD_MESH);
	cmod_bin_u16(o, CMOD_VERTEX_DESC);
	for (unsigned a = 0; a < nattrs; a++) {
		cmod_bin_u16(o, (uint16_t)attrs[a].semantic);
		cmod_bin_u16(o, (uint16_t)attrs[a].format);
	}
	cmod_bin_u16(o, CMOD_END_VERTEX_DESC);
	cmod_bin_u16(o, CMOD_VERTICES);
	cmod_bin_u32(o, nverts);
}

void cmod_bin_group(nm_out *o, int prim, uint32_t material, uint32_t count)
{
	cmod_bin_u16(o, (uint16_t)prim);
	cmod_bin_u32(o, material);
	cmod_bin_u32(o, count);
}
