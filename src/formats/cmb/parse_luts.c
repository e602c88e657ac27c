/* luts: Hermite keyframe tracks for fragment lighting (FORMATS.md 4.8). v6 headers are
 * u32 type, u32 key count, s32 start, s32 end; v10+ use u16/u16/s16/s16 followed by two
 * floats (1 and 0 in every corpus file). Keys of 16 bytes start at +0x10 in both. */
#include <stdlib.h>
#include "formats/cmb/cmb.h"

#define LUT_KEY 16

nm_status cmb_parse_luts(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_LUTS];
	if (!c->present || c->failed || !m->L.known)
		return NM_OK;
	nm_view *v = &c->v;
	uint32_t n = nm_u32(v, 0x08);
	m->luts_unknown = nm_u32(v, 0x0C);
	/* Each LUT has its own 4-byte offset and 16-byte header: a longer list repeats. */
	if (n > (c->len < 0x10 ? 0 : (c->len - 0x10) / 0x14) || !nm_view_array(v, 0x10, n, 4)) {
		cmb_chunk_fail(m, CMB_LUTS, 0x10, "a list of %u LUT offsets and headers runs past "
			       "the end of the chunk (0x%llx bytes)", n, (unsigned long long)c->len);
		return NM_OK;
	}
	m->luts = nm_tree_alloc_array(m->t, n, sizeof *m->luts);
	if (!m->luts)
		return NM_E_NOMEM;
	m->nluts = n;
	for (uint32_t i = 0; i < n; i++) {
		cmb_lut *l = &m->luts[i];
		size_t o = l->offset = nm_u32(v, 0x10 + 4 * (size_t)i);
		if (m->L.luts_short) {
			l->type = nm_u16(v, o);
			l->count = nm_u16(v, o + 2);
			l->start = nm_s16(v, o + 4);
			l->end = nm_s16(v, o + 6);
			l->unknown[0] = nm_f32(v, o + 8);
			l->unknown[1] = nm_f32(v, o + 12);
		} else {
			l->type = nm_u32(v, o);
			l->count = nm_u32(v, o + 4);
			l->start = nm_s32(v, o + 8);
			l->end = nm_s32(v, o + 12);
		}
		if (v->bad || !nm_view_array(v, o + 0x10, l->count, LUT_KEY)) {
			nm_error e;
			nm_view_fail(v, &e, "LUT %u (%u keys at 0x%zx)", i, l->count, o);
			cmb_keep_error(m, &l->error, &e);
			v->bad = false;
			continue;
		}
		l->ok = true;
	}
	return NM_OK;
}
