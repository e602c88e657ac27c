/* skl: the bone table (FORMATS.md 4.3). */
#include <stdlib.h>
#include "formats/cmb/cmb.h"

nm_status cmb_parse_skl(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_SKL];
	if (!c->present || c->failed || !m->L.known)
		return NM_OK;
	nm_view *v = &c->v;
	uint32_t n = nm_u32(v, 0x08);
	m->skl_unknown = nm_u32(v, 0x0C);
	if (!nm_view_table(v, 0x10, n, m->L.bone_stride, "bones", &c->err))
		return cmb_chunk_failed(c);
	m->bones = nm_tree_alloc_array(m->t, n, sizeof *m->bones);
	if (!m->bones)
		return NM_E_NOMEM;
	m->nbones = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t o = 0x10 + (size_t)i * m->L.bone_stride;
		cmb_bone *b = &m->bones[i];
		b->raw_id = nm_u16(v, o);
		b->parent = nm_s16(v, o + 2);
		for (int k = 0; k < 3; k++) {
			b->scale[k] = nm_f32(v, o + 0x04 + 4 * k);
			b->rot[k] = nm_f32(v, o + 0x10 + 4 * k);
			b->trans[k] = nm_f32(v, o + 0x1C + 4 * k);
		}
		if (m->L.bone_stride >= 0x2C)
			b->extra = nm_u32(v, o + 0x28);
	}
	cmb_compute_world(m);
	return NM_OK;
}
