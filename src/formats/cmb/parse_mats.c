/* mats: the material table, then the texture-combiner table (FORMATS.md 4.4). The
 * chunk's size field does not cover the whole combiner table in any corpus file (the
 * next chunk starts after it), so the combiners shown are those the materials use, and
 * the chunk's bytes are extended to reach them. */
#include <stdlib.h>
#include <string.h>
#include "formats/cmb/cmb.h"

#define COMBINER_SIZE 0x28

static void rgba_at(nm_view *v, size_t off, uint8_t dst[4])
{
	const uint8_t *p = nm_bytes(v, off, 4);
	if (p)
		memcpy(dst, p, 4);
}

nm_status cmb_parse_mats(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_MATS];
	if (!c->present || c->failed || !m->L.known)
		return NM_OK;
	nm_view *v = &c->v;
	uint32_t n = nm_u32(v, 0x08);
	if (!nm_view_table(v, 0x0C, n, m->L.mat_size, "materials", &c->err))
		return cmb_chunk_failed(c);
	m->mats = nm_tree_alloc_array(m->t, n, sizeof *m->mats);
	if (!m->mats)
		return NM_E_NOMEM;
	m->nmats = n;
	m->combiner_table = 0x0C + n * m->L.mat_size;
	uint32_t used = 0;
	for (uint32_t i = 0; i < n; i++) {
		cmb_material *mat = &m->mats[i];
		size_t o = 0x0C + (size_t)i * m->L.mat_size;
		mat->offset = (uint32_t)o;
		for (int j = 0; j < 3; j++)
			mat->tex[j] = nm_s16(v, o + 0x10 + 0x18 * j);
		rgba_at(v, o + 0xA0, mat->emission);
		rgba_at(v, o + 0xA4, mat->ambient);
		rgba_at(v, o + 0xA8, mat->diffuse);
		rgba_at(v, o + 0xAC, mat->specular0);
		mat->cull = nm_u8(v, o + 0x04);
		for (int j = 0; j < 3; j++) {
			mat->coord_source[j] = nm_u8(v, o + 0x58 + 0x18 * j);
			mat->wrap[j][0] = nm_u16(v, o + 0x10 + 0x18 * j + 0x08);
			mat->wrap[j][1] = nm_u16(v, o + 0x10 + 0x18 * j + 0x0A);
		}
		mat->alpha_test = nm_u8(v, o + 0x130) != 0;
		mat->alpha_ref = nm_u8(v, o + 0x131);
		mat->blend_mode = nm_u8(v, o + 0x138);
		mat->ncombiners = nm_u32(v, o + 0x120);
		for (uint32_t k = 0; k < 6; k++) {
			mat->combiner[k] = nm_u16(v, o + 0x124 + 2 * k);
			if (k < mat->ncombiners && mat->combiner[k] + 1u > used)
				used = mat->combiner[k] + 1u;
		}
	}
	uint64_t need = (uint64_t)m->combiner_table + (uint64_t)used * COMBINER_SIZE;
	m->mats_len = need > c->len ? need : c->len;
	if (need > c->len) {
		if (need > m->file_size - c->off) {
			cmb_chunk_fail(m, CMB_MATS, m->combiner_table, "the materials use %u combiners, "
				       "and a table of that many runs past the end of the file", used);
			m->mats_len = c->len;
			return NM_OK;
		}
		nm_view_free(v);
		if (nm_view_load(m->r, c->off, (size_t)need, c->name, NM_LITTLE, v, &c->err)
		    != NM_OK) {
			c->failed = true;
			return NM_OK;
		}
	}
	m->ncombiners = used;
	/* Each material's stages, for the base-colour choice (cmb_base_color_slot). */
	for (uint32_t i = 0; i < n; i++) {
		cmb_material *mat = &m->mats[i];
		for (uint32_t k = 0; k < 6 && k < mat->ncombiners; k++) {
			size_t b = m->combiner_table + (size_t)mat->combiner[k] * COMBINER_SIZE;
			mat->stage_mode[k] = nm_u16(v, b);
			for (int j = 0; j < 3; j++)
				mat->stage_src[k][j] = nm_u16(v, b + 0x0C + 2 * (size_t)j);
		}
	}
	return NM_OK;
}
