/* sklm/: header.txt, raw.bin; sklm/mshs/ (N.txt per mesh: shape, material, id) and
 * sklm/shp/ (the sepd offset list). The sepds themselves sit at the top: /sepd/N/. */
#include <stdio.h>
#include "export/text.h"
#include "formats/cmb/cmb.h"

static nm_node *sub_dir(nm_tree *t, nm_node *parent, cmb_model *m, const char *name,
			uint32_t at, uint32_t size, const nm_error *err)
{
	nm_node *dir = nm_dir(t, parent, name);
	if (!dir)
		return NULL;
	uint64_t abs = (uint64_t)m->chunk[CMB_SKLM].off + at;
	if (abs > m->file_size)
		abs = m->file_size;
	nm_slice(t, dir, "raw.bin", m->r, abs, size);
	if (err->msg[0])
		nm_error_file(t, dir, err);
	return dir;
}

static void mesh_text(nm_out *o, cmb_model *m, uint32_t i)
{
	const cmb_mesh *me = &m->meshes[i];
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%x", me->offset);
	nm_kv(o, "shape", "%u", me->sepd);
	if (me->sepd >= m->nsepds)
		nm_kv(o, "shape_error", "there are %u shapes", m->nsepds);
	nm_kv(o, "material", "%u", me->material);
	if (me->material >= m->nmats)
		nm_kv(o, "material_error", "there are %u materials", m->nmats);
	nm_kv(o, "id", "%u", me->id);
	nm_kv(o, "draw_pass", "%s", i < m->opaque_count ? "opaque" : "translucent");
	/* The rest of the entry (v10+) is not understood (hashes, per one reader). */
	if (m->L.mesh_stride > 4) {
		nm_view *v = &m->chunk[CMB_SKLM].v;
		size_t rel = me->offset + 4;
		nm_out_str(o, "unknown_bytes:");
		for (unsigned k = 0; k + 4 < m->L.mesh_stride; k++)
			nm_out_printf(o, " %02x", nm_u8(v, rel + k));
		nm_out_char(o, '\n');
	}
}

nm_status cmb_tree_sklm(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_SKLM];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_SKLM);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (!c->failed && m->L.known) {
		nm_kv(&o, "mshs_offset", "0x%x", m->mshs_at);
		nm_kv(&o, "shp_offset", "0x%x", m->shp_at);
	}
	cmb_text(t, dir, "header.txt", &o);
	if (c->failed || !m->L.known)
		return NM_OK;

	nm_node *mshs = sub_dir(t, dir, m, "mshs", m->mshs_at, m->mshs_size, &m->mshs_err);
	if (!mshs)
		return NM_E_NOMEM;
	nm_kv(&o, "offset", "0x%x", m->mshs_at);
	nm_kv(&o, "size", "0x%x", m->mshs_size);
	if (m->mshs_ok) {
		nm_kv(&o, "mesh_count", "%u", m->nmeshes);
		nm_kv(&o, "opaque_count", "%u", m->opaque_count);
		nm_kv(&o, "id_count", "%u", m->id_count);
		nm_kv(&o, "mesh_stride", "0x%x", m->L.mesh_stride);
	}
	cmb_text(t, mshs, "header.txt", &o);
	for (uint32_t i = 0; m->mshs_ok && i < m->nmeshes; i++) {
		char name[32];
		mesh_text(&o, m, i);
		snprintf(name, sizeof name, "%u.txt", i);
		if (!cmb_text(t, mshs, name, &o))
			return NM_E_NOMEM;
	}

	nm_node *shp = sub_dir(t, dir, m, "shp", m->shp_at, m->shp_size, &m->shp_err);
	if (!shp)
		return NM_E_NOMEM;
	nm_kv(&o, "offset", "0x%x", m->shp_at);
	nm_kv(&o, "size", "0x%x", m->shp_size);
	if (m->shp_ok) {
		nm_kv(&o, "shape_count", "%u", m->nsepds);
		nm_kv(&o, "flags", "0x%x", m->shp_flags);
		nm_out_str(&o, "sepd_offsets:");
		for (uint32_t i = 0; i < m->nsepds; i++)
			nm_out_printf(&o, " 0x%x", m->sepds[i].offset - m->shp_at);
		nm_out_char(&o, '\n');
	}
	cmb_text(t, shp, "header.txt", &o);
	return NM_OK;
}
