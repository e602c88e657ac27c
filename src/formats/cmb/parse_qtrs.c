/* qtrs (v10+): bounding boxes, 0x28 bytes each from 0x0C: u32 ?, u32 ?, f32 min[3],
 * f32 max[3], s32 ?, s32 ? (the last two are -1 in every corpus file: links of a tree?). */
#include "formats/cmb/cmb.h"

#define QTRS_STRIDE 0x28

nm_status cmb_parse_qtrs(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_QTRS];
	if (!c->present || c->failed)
		return NM_OK;
	uint32_t n = nm_u32(&c->v, 0x08);
	if (!nm_view_table(&c->v, 0x0C, n, QTRS_STRIDE, "boxes", &c->err))
		return cmb_chunk_failed(c);
	m->nqtrs = n;
	return NM_OK;
}
