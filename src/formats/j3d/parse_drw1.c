/* DRW1: the draw matrices a shape's matrix table points at: a joint or an envelope. */
#include "formats/j3d/j3d.h"

nm_status j3d_parse_drw1(j3d_model *m, const j3d_chunk *c, j3d_drw1 *d, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x14, "DRW1 header", &v, err);
	if (s != NM_OK)
		return s;
	d->count = nm_u16(&v, 0x08);
	d->off_kinds = nm_u32(&v, 0x0C);
	d->off_params = nm_u32(&v, 0x10);
	nm_view_free(&v);
	d->kinds = nm_tree_alloc_array(m->t, d->count, 1);
	d->params = nm_tree_alloc_array(m->t, d->count, sizeof *d->params);
	if (!d->kinds || !d->params)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!d->count)
		return NM_OK;
	s = j3d_load(m, c, d->off_kinds, d->count, "matrix kind table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < d->count; i++)
		d->kinds[i] = nm_u8(&v, i);
	nm_view_free(&v);
	s = j3d_load(m, c, d->off_params, (uint64_t)d->count * 2, "matrix index table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < d->count; i++)
		d->params[i] = nm_u16(&v, 2 * (size_t)i);
	nm_view_free(&v);
	return NM_OK;
}
