/* MESH, VBUF and IBUF: the render meshes and the descriptions of the vertex and index
 * buffers that the GPU chunk holds (FORMATS.md 6.4, kinnay's CRenderMesh,
 * CGraphicsVertexBufferToken, CGraphicsIndexBufferToken).
 *
 * MESH: List<{u32 primitive, u16 material, u8 vertex buffer, u8 index buffer, u32 first
 * index, u32 index count, u16, u8, u8, u8 flags}> (0x15 bytes each).
 * VBUF: List<{u32 vertex count, List<{u32 buffer, offset, stride, format, semantic}>}>.
 * IBUF: List<u32 index type> (0 and 1: u16, 2: u32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/rfrm/rfrm.h"
#include "lib/names.h"
#include "lib/view.h"

#define MESH_RECORD 0x15
#define COMP_RECORD 20

const char *rfrm_prim_name(uint32_t prim)
{
	static const char *const n[9] = {
		"POINTS", "LINES", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP",
		"LINES_ADJACENCY", "LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY",
		"TRIANGLE_STRIP_ADJACENCY"
	};
	return NM_NAME(n, prim);
}

/* The list ends at end, as its chunk should. */
static nm_status trailing(const nm_view *v, size_t end, const char *what, nm_error *err)
{
	if (end == v->size)
		return NM_OK;
	return nm_view_fail_at(v, err, NM_E_FORMAT, end, "%zu bytes after the last %s",
			       v->size - end, what);
}

/* n parsed records of size bytes in the model's arena, their count checked against the
 * chunk before: NULL with err set. */
static void *records(rfrm_model *m, const nm_view *v, size_t n, size_t size, nm_error *err)
{
	void *a = nm_tree_alloc_array(m->t, n ? n : 1, size);
	if (!a)
		nm_fail(err, NM_E_NOMEM, m->name, v->chunk, NM_NO_OFFSET, "out of memory");
	return a;
}

/* The list at the start of v: a u32 count, then count records of stride bytes; their
 * parsed form in the arena (size bytes each), or NULL with err set. */
static void *table(rfrm_model *m, nm_view *v, size_t stride, const char *what, size_t size,
		   uint32_t *n, nm_error *err)
{
	*n = nm_u32(v, 0);
	return nm_view_table(v, 4, *n, stride, what, err) ? records(m, v, *n, size, err) : NULL;
}

nm_status rfrm_parse_mesh(rfrm_model *m, nm_view *v, nm_error *err)
{
	uint32_t n;
	if (!(m->meshes = table(m, v, MESH_RECORD, "meshes", sizeof *m->meshes, &n, err)))
		return err->code;
	m->nmeshes = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t p = 4 + (size_t)i * MESH_RECORD;
		rfrm_mesh *me = &m->meshes[i];
		me->prim = nm_u32(v, p);
		me->material = nm_u16(v, p + 4);
		me->vbuf = nm_u8(v, p + 6);
		me->ibuf = nm_u8(v, p + 7);
		me->first = nm_u32(v, p + 8);
		me->count = nm_u32(v, p + 12);
		me->field_10 = nm_u16(v, p + 16);
		me->field_12 = nm_u8(v, p + 18);
		me->field_13 = nm_u8(v, p + 19);
		me->flags = nm_u8(v, p + 20);
	}
	return trailing(v, 4 + (size_t)n * MESH_RECORD, "mesh", err);
}

/* Checks one vertex buffer's components and size; a bad buffer keeps its layout.txt. */
static void check_vbuf(rfrm_model *m, rfrm_vbuf *vb, size_t index, uint64_t base)
{
	uint32_t stride = 0;
	for (uint32_t c = 0; c < vb->ncomps; c++)
		if (vb->comps[c].stride > stride)
			stride = vb->comps[c].stride;
	vb->stride = stride;
	vb->size = (uint64_t)vb->count * stride; /* both u32: no overflow in u64 */
	if (vb->size > rfrm_max_buffer(m)) {
		vb->bad = true;
		nm_fail(&vb->err, NM_E_LIMIT, m->name, "VBUF", base,
			"vertex buffer %zu: %u vertices x %u bytes = %llu bytes, above the %llu MiB limit",
			index, vb->count, stride, (unsigned long long)vb->size,
			(unsigned long long)(rfrm_max_buffer(m) >> 20));
	}
}

nm_status rfrm_parse_vbuf(rfrm_model *m, nm_view *v, nm_error *err)
{
	uint32_t n = nm_u32(v, 0);
	/* Each entry takes at least 8 bytes. */
	if (v->bad || !nm_view_array(v, 4, n, 8))
		return nm_view_fail(v, err, "vertex buffer list of %u entries", n);
	if (!(m->vbufs = records(m, v, n, sizeof *m->vbufs, err)))
		return err->code;
	size_t p = 4;
	for (uint32_t i = 0; i < n; i++) {
		rfrm_vbuf *vb = &m->vbufs[i];
		uint64_t base = v->base + p;
		char what[48];
		vb->count = nm_u32(v, p);
		vb->ncomps = nm_u32(v, p + 4);
		snprintf(what, sizeof what, "components (vertex buffer %u)", i);
		if (!nm_view_table(v, p + 8, vb->ncomps, COMP_RECORD, what, err))
			return NM_E_FORMAT;
		if (!(vb->comps = records(m, v, vb->ncomps, sizeof *vb->comps, err)))
			return err->code;
		m->nvbufs = i + 1;
		for (uint32_t c = 0; c < vb->ncomps; c++) {
			size_t q = p + 8 + (size_t)c * COMP_RECORD;
			rfrm_comp *k = &vb->comps[c];
			k->buffer = nm_u32(v, q);
			k->offset = nm_u32(v, q + 4);
			k->stride = nm_u32(v, q + 8);
			k->format = nm_u32(v, q + 12);
			k->semantic = nm_u32(v, q + 16);
		}
		check_vbuf(m, vb, i, base);
		p += 8 + (size_t)vb->ncomps * COMP_RECORD;
	}
	return trailing(v, p, "vertex buffer", err);
}

nm_status rfrm_parse_ibuf(rfrm_model *m, nm_view *v, nm_error *err)
{
	uint32_t n;
	if (!(m->ibufs = table(m, v, 4, "index buffers", sizeof *m->ibufs, &n, err)))
		return err->code;
	m->nibufs = n;
	for (uint32_t i = 0; i < n; i++) {
		rfrm_ibuf *ib = &m->ibufs[i];
		ib->type = nm_u32(v, 4 + 4 * (size_t)i);
		ib->isize = ib->type <= 1 ? 2 : ib->type == 2 ? 4 : 0;
		if (!ib->isize) {
			ib->bad = true;
			nm_fail(&ib->err, NM_E_UNSUPPORTED, m->name, "IBUF", v->base + 4 + 4 * (uint64_t)i,
				"index buffer %u: unknown index type %u (0 and 1 are u16, 2 is u32)",
				i, ib->type);
		}
	}
	return trailing(v, 4 + (size_t)n * 4, "index buffer", err);
}

/* Which indices the meshes use of each index buffer, and which meshes can be drawn. */
void rfrm_link_meshes(rfrm_model *m)
{
	for (size_t i = 0; i < m->nmeshes; i++) {
		rfrm_mesh *me = &m->meshes[i];
		if (me->vbuf >= m->nvbufs || me->ibuf >= m->nibufs) {
			me->bad = true;
			continue;
		}
		rfrm_ibuf *ib = &m->ibufs[me->ibuf];
		uint64_t end = (uint64_t)me->first + me->count;
		if (end > ib->used)
			ib->used = end;
		if (m->vbufs[me->vbuf].bad || ib->bad)
			me->bad = true;
	}
	for (size_t j = 0; j < m->nibufs; j++) {
		rfrm_ibuf *ib = &m->ibufs[j];
		if (!ib->bad && ib->used * ib->isize > rfrm_max_buffer(m)) {
			ib->bad = true;
			nm_fail(&ib->err, NM_E_LIMIT, m->name, "MESH", NM_NO_OFFSET,
				"index buffer %zu: the meshes use %llu indices, above the %llu MiB limit",
				j, (unsigned long long)ib->used,
				(unsigned long long)(rfrm_max_buffer(m) >> 20));
			for (size_t i = 0; i < m->nmeshes; i++)
				if (m->meshes[i].ibuf == j)
					m->meshes[i].bad = true;
		}
	}
}
