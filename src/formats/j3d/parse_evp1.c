/* EVP1: weighted envelopes and the inverse bind matrices (FORMATS.md 3.5). */
#include "formats/j3d/j3d.h"

static nm_status nomem(j3d_model *m, const j3d_chunk *c, nm_error *err)
{
	return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
}

nm_status j3d_parse_evp1(j3d_model *m, const j3d_chunk *c, j3d_evp1 *e, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x1C, "EVP1 header", &v, err);
	if (s != NM_OK)
		return s;
	e->count = nm_u16(&v, 0x08);
	e->off_counts = nm_u32(&v, 0x0C);
	e->off_joints = nm_u32(&v, 0x10);
	e->off_weights = nm_u32(&v, 0x14);
	e->off_ibm = nm_u32(&v, 0x18);
	nm_view_free(&v);

	e->counts = nm_tree_alloc_array(m->t, e->count, 1);
	e->first = nm_tree_alloc_array(m->t, e->count, sizeof *e->first);
	if (!e->counts || !e->first)
		return nomem(m, c, err);
	if (e->count) {
		s = j3d_load(m, c, e->off_counts, e->count, "weight count table", &v, err);
		if (s != NM_OK)
			return s;
		for (uint16_t i = 0; i < e->count; i++) {
			e->counts[i] = nm_u8(&v, i);
			e->first[i] = e->total;
			e->total += e->counts[i];
		}
		nm_view_free(&v);
	}
	e->joints = nm_tree_alloc_array(m->t, e->total, sizeof *e->joints);
	e->weights = nm_tree_alloc_array(m->t, e->total, sizeof *e->weights);
	if (!e->joints || !e->weights)
		return nomem(m, c, err);
	if (e->total) {
		s = j3d_load(m, c, e->off_joints, (uint64_t)e->total * 2, "joint index table", &v,
			     err);
		if (s != NM_OK)
			return s;
		for (uint32_t i = 0; i < e->total; i++)
			e->joints[i] = nm_u16(&v, 2 * (size_t)i);
		nm_view_free(&v);
		s = j3d_load(m, c, e->off_weights, (uint64_t)e->total * 4, "weight table", &v, err);
		if (s != NM_OK)
			return s;
		for (uint32_t i = 0; i < e->total; i++)
			e->weights[i] = nm_f32(&v, 4 * (size_t)i);
		nm_view_free(&v);
	}
	/* The matrix table has no count: it runs to the next table or the chunk end. */
	if (e->off_ibm && e->off_ibm < c->size) {
		uint32_t end = c->size;
		uint32_t offs[3] = { e->off_counts, e->off_joints, e->off_weights };
		for (int k = 0; k < 3; k++)
			if (offs[k] > e->off_ibm && offs[k] < end)
				end = offs[k];
		e->nibm = (end - e->off_ibm) / 0x30;
		e->ibm = nm_tree_alloc_array(m->t, e->nibm, sizeof *e->ibm);
		if (!e->ibm)
			return nomem(m, c, err);
		s = j3d_load(m, c, e->off_ibm, (uint64_t)e->nibm * 0x30, "inverse bind matrices",
			     &v, err);
		if (s != NM_OK)
			return s;
		for (uint32_t i = 0; i < e->nibm; i++)
			for (int k = 0; k < 12; k++)
				e->ibm[i][k] = nm_f32(&v, 0x30 * (size_t)i + 4 * (size_t)k);
		nm_view_free(&v);
	} else if (e->off_ibm) {
		return j3d_chunk_fail(c, m, err, 0x18, "inverse bind matrix offset 0x%x is outside "
				      "the chunk", e->off_ibm);
	}
	return NM_OK;
}
