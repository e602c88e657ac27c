/* mesh/N.txt described once (export/record.h): the same calls write the file and read
 * an edited copy back into the mesh's 0x15 bytes of MESH (nmodel apply). Stored and
 * editable: primitive, material, field_10/12/13, flags. Read-only: index, triangles,
 * and the buffers and index range, which place the mesh in the GPU buffers (whose
 * layout apply does not change: the index CSVs' sizes follow from them). */
#include <string.h>
#include "export/record.h"
#include "export/triangulate.h"
#include "formats/rfrm/rfrm.h"
#include "lib/edit.h"

#define MESH_RECORD 0x15

static const char *prim_name(int kind, uint32_t v)
{
	(void)kind;
	return rfrm_prim_name(v);
}

static bool prim_value(int kind, const char *name, uint32_t *v)
{
	(void)kind;
	for (uint32_t k = 0; rfrm_prim_name(k); k++)
		if (strcmp(rfrm_prim_name(k), name) == 0) {
			*v = k;
			return true;
		}
	return false;
}

static const nm_rec_names prims = { prim_name, prim_value };

uint64_t rfrm_mesh_triangles(const rfrm_mesh *me)
{
	return me->prim == 3 ? nm_triangle_count(NM_PRIM_TRIANGLES, me->count)
	     : me->prim == 4 ? nm_triangle_count(NM_PRIM_STRIP, me->count) : 0;
}

void rfrm_mesh_record(nm_rec *r, const rfrm_model *m, size_t i)
{
	const rfrm_mesh *me = &m->meshes[i];
	size_t p = 4 + i * MESH_RECORD;
	nm_rec_derived(r, "index", "%zu", i);
	nm_rec_enum(r, "primitive", p, NM_FIELD_U32, &prims, 0);
	nm_rec_int(r, "material", p + 4, NM_FIELD_U16);
	nm_rec_derived(r, "vertex_buffer", "%u", me->vbuf);
	nm_rec_derived(r, "index_buffer", "%u", me->ibuf);
	nm_rec_derived(r, "first_index", "%u", me->first);
	nm_rec_derived(r, "index_count", "%u", me->count);
	nm_rec_derived(r, "triangles", "%llu", (unsigned long long)rfrm_mesh_triangles(me));
	nm_rec_int(r, "field_10", p + 16, NM_FIELD_U16);
	nm_rec_int(r, "field_12", p + 18, NM_FIELD_U8);
	nm_rec_int(r, "field_13", p + 19, NM_FIELD_U8);
	nm_rec_hex(r, "flags", p + 20, NM_FIELD_U8, 0);
	if (me->vbuf >= m->nvbufs || me->ibuf >= m->nibufs)
		nm_rec_derived(r, "error", "vertex buffer %u or index buffer %u does not exist",
			       me->vbuf, me->ibuf);
	else if (me->bad)
		nm_rec_derived(r, "error", "its vertex or index buffer is broken (see vbuf/ and ibuf/)");
}

nm_status rfrm_mesh_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    nm_edit *ed, nm_error *err)
{
	const rfrm_record_ref *ref = arg;
	rfrm_model *m = ref->m;
	nm_view v;
	(void)ctx;
	nm_status s = rfrm_table_load(m->r, &m->chunk[RC_MESH].item, "MESH", &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, m->r, "MESH", (const char *)bytes, len, ed);
	rfrm_mesh_record(&r, m, ref->index);
	nm_rec_end(&r);
	nm_view_free(&v);
	return NM_OK;
}
