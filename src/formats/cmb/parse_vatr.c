/* vatr: one slice per vertex attribute, shared by every sepd (FORMATS.md 4.7). */
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

nm_status cmb_parse_vatr(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_VATR];
	if (!c->present || c->failed || !m->L.known)
		return NM_OK;
	nm_view *v = &c->v;
	m->vatr_total = nm_u32(v, 0x08);
	size_t o = 0x0C;
	for (int k = 0; k < CMB_NATTRS; k++) {
		if (k == CMB_TANGENT && !m->L.tangents)
			continue;
		m->slice_size[k] = nm_u32(v, o);
		m->slice_off[k] = nm_u32(v, o + 4);
		o += 8;
		if (v->bad) {
			cmb_chunk_fail(m, CMB_VATR, v->bad_off, "the slice table runs past the end "
				       "of the chunk (0x%llx bytes)", (unsigned long long)c->len);
			return NM_OK;
		}
		if (m->slice_size[k] == 0)
			continue;
		if (nm_view_has(v, m->slice_off[k], m->slice_size[k])) {
			m->slice_ok[k] = true;
		} else {
			v->bad = false;
			cmb_chunk_fail(m, CMB_VATR, o - 8, "the %s slice (0x%x bytes at 0x%x) runs past "
				       "the end of the chunk (0x%llx bytes)", cmb_attr_name(k),
				       m->slice_size[k], m->slice_off[k], (unsigned long long)c->len);
		}
	}
	return NM_OK;
}
