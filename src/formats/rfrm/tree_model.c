/* The tree of one RFRM asset, and the "rfrm" driver.
 *
 * A model (CMDL/SMDL/WMDL): info.txt, mesh.obj + mesh.mtl, one directory per chunk in
 * file order (head/, mtrl/, mesh/, vbuf/, ibuf/, gpu/, skhd/, wdhd/ and any other chunk
 * or form as it is), each with header.txt and raw.bin. A texture (TXTR): tree_txtr.c.
 * Any other asset: info.txt and its chunk tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/rfrm/rfrm.h"
#include "formats/rfrm/txtr.h"

void rfrm_form_info(nm_out *o, const rfrm_item *form, nm_reader *r)
{
	char id[5];
	rfrm_fourcc_print(id, (const uint8_t *)form->id);
	nm_info_begin(o, &nm_driver_rfrm, r);
	nm_kv_str(o, "form", id);
	nm_kv(o, "version", "%u", form->version[0]);
	nm_kv(o, "writer_version", "%u", form->version[1]);
	uint64_t end = rfrm_item_end(form), size = nm_reader_size(r);
	if (size > end)
		nm_kv(o, "trailing_bytes", "%llu", (unsigned long long)(size - end));
}

static void model_info(nm_out *o, rfrm_model *m)
{
	uint64_t verts = 0, indices = 0, tris = 0;
	for (size_t i = 0; i < m->nvbufs; i++)
		verts += m->vbufs[i].count;
	for (size_t i = 0; i < m->nmeshes; i++) {
		indices += m->meshes[i].count;
		tris += rfrm_mesh_triangles(&m->meshes[i]);
	}
	rfrm_form_info(o, &m->form, m->r);
	nm_kv(o, "chunks", "%zu", m->nitems);
	nm_kv(o, "materials", "%zu", m->nmats);
	nm_kv(o, "meshes", "%zu", m->nmeshes);
	nm_kv(o, "vertex_buffers", "%zu", m->nvbufs);
	nm_kv(o, "index_buffers", "%zu", m->nibufs);
	nm_kv(o, "vertices", "%llu", (unsigned long long)verts);
	nm_kv(o, "indices", "%llu", (unsigned long long)indices);
	nm_kv(o, "triangles", "%llu", (unsigned long long)tris);
	if (m->has_aabb)
		nm_kv_floats(o, "bounding_box", m->aabb, 6);
	nm_kv(o, "gpu_layout", "%s", rfrm_gpu_source_name(m->source));
	if (m->source != RFRM_GPU_NONE)
		nm_kv(o, "byte_order", "%s", m->little ? "little-endian (Switch)"
							 : "big-endian (Wii U)");
	if (m->items_broken)
		nm_kv_str(o, "error", m->items_err.msg);
}

/* mesh/N.txt, every mesh's, over MESH's data read again (the parse's view is gone). */
static nm_status add_meshes(rfrm_model *m, nm_node *d)
{
	nm_tree *t = m->t;
	bool editable = nm_tree_options(t)->editable;
	nm_error err;
	nm_view v;
	if (!m->nmeshes)
		return NM_OK;
	if (rfrm_table_load(m->r, &m->chunk[RC_MESH].item, "MESH", &v, &err) != NM_OK)
		return err.code;
	rfrm_record_ref *refs = editable ? nm_tree_alloc_array(t, m->nmeshes, sizeof *refs) : NULL;
	nm_status s = editable && !refs ? NM_E_NOMEM : NM_OK;
	for (size_t i = 0; i < m->nmeshes && s == NM_OK; i++) {
		char name[32];
		nm_out o;
		nm_rec r;
		nm_out_init(&o);
		nm_rec_write(&r, &o, &v);
		rfrm_mesh_record(&r, m, i);
		snprintf(name, sizeof name, "%zu.txt", i);
		nm_node *n = nm_text(t, d, name, &o);
		nm_out_free(&o);
		if (!n)
			s = NM_E_NOMEM;
		else if (refs) {
			refs[i] = (rfrm_record_ref){ m, i };
			nm_text_inverse(n, rfrm_mesh_inverse, &refs[i]);
		}
	}
	nm_view_free(&v);
	return s;
}

/* mtrl/N.txt, as the parse wrote them. */
static nm_status add_materials(rfrm_model *m, nm_node *d)
{
	nm_tree *t = m->t;
	bool editable = nm_tree_options(t)->editable;
	rfrm_record_ref *refs = editable && m->nmats ?
		nm_tree_alloc_array(t, m->nmats, sizeof *refs) : NULL;
	if (editable && m->nmats && !refs)
		return NM_E_NOMEM;
	for (size_t i = 0; i < m->nmats; i++) {
		char name[32];
		nm_out o;
		nm_out_init(&o);
		snprintf(name, sizeof name, "%zu.txt", i);
		nm_out_write(&o, m->mats[i].text, m->mats[i].text_len);
		nm_node *n = nm_text(t, d, name, &o);
		nm_out_free(&o);
		if (!n)
			return NM_E_NOMEM;
		/* A material the parse could not read whole has no inverse. */
		if (refs && !m->chunk[RC_MTRL].c.failed) {
			refs[i] = (rfrm_record_ref){ m, i };
			nm_text_inverse(n, rfrm_mtrl_inverse, &refs[i]);
		}
	}
	return NM_OK;
}

static int chunk_of(const rfrm_model *m, const rfrm_item *it)
{
	for (int c = 0; c < RC_COUNT; c++)
		if (m->chunk[c].c.present && m->chunk[c].item.off == it->off)
			return c;
	return -1;
}

static nm_status add_chunk(rfrm_model *m, nm_node *root, int c)
{
	nm_tree *t = m->t;
	rfrm_chunk *ch = &m->chunk[c];
	nm_out o;
	nm_out_init(&o);
	if (ch->text)
		nm_out_write(&o, ch->text, ch->text_len);
	if (c == RC_GPU)
		rfrm_gpu_header(&o, m);
	if (c == RC_MTRL)
		nm_kv(&o, "materials", "%zu", m->nmats);
	if (c == RC_MESH)
		nm_kv(&o, "meshes", "%zu", m->nmeshes);
	if (c == RC_VBUF)
		nm_kv(&o, "vertex_buffers", "%zu", m->nvbufs);
	if (c == RC_IBUF)
		nm_kv(&o, "index_buffers", "%zu", m->nibufs);
	if (nm_out_status(&o) != NM_OK) {
		nm_out_free(&o);
		return NM_E_NOMEM;
	}
	nm_node *d = rfrm_item_dir(t, root, m->r, &ch->item, (const char *)o.data, o.len);
	nm_out_free(&o);
	if (!d)
		return NM_E_NOMEM;
	if (ch->c.failed)
		nm_error_file(t, d, &ch->c.err);
	else if (c == RC_HEAD && ch->text && nm_tree_options(t)->editable) {
		nm_node *h = nm_child(t, d, "header.txt");
		if (h)
			nm_text_inverse(h, rfrm_head_inverse, m);
	}
	for (size_t f = 0; f < ch->nfiles; f++) {
		nm_out_write(&o, ch->files[f].text, ch->files[f].len);
		nm_text(t, d, ch->files[f].name, &o);
		nm_out_free(&o);
	}
	switch (c) {
	case RC_MTRL:
		return add_materials(m, d);
	case RC_MESH:
		return add_meshes(m, d);
	case RC_VBUF:
		return rfrm_add_vbufs(m, d);
	case RC_IBUF:
		return rfrm_add_ibufs(m, d);
	case RC_GPU:
		return rfrm_add_gpu(m, d);
	}
	return NM_OK;
}

nm_status rfrm_build_model_tree(rfrm_model *m, nm_node *root, nm_error *err)
{
	nm_tree *t = m->t;
	nm_out o;
	nm_out_init(&o);
	model_info(&o, m);
	if (!nm_text(t, root, "info.txt", &o))
		goto nomem;
	if (m->items_broken)
		nm_error_file(t, root, &m->items_err);
	for (size_t i = 0; i < m->nitems; i++) {
		const rfrm_item *it = &m->items[i];
		int c = chunk_of(m, it);
		if (c >= 0) {
			if (add_chunk(m, root, c) != NM_OK)
				goto nomem;
			continue;
		}
		nm_node *d = rfrm_item_dir(t, root, m->r, it, NULL, 0);
		if (!d)
			goto nomem;
		if (it->is_form)
			rfrm_add_items(t, d, m->r, it, 1);
	}
	if (!m->chunk[RC_GPU].c.present) {
		/* gpu/error.txt says why there are no buffers. */
		char *name = nm_unique_stem(t, root, "gpu", NULL);
		nm_node *g = name ? nm_dir(t, root, name) : NULL;
		free(name);
		if (g)
			nm_error_file(t, g, &m->gpu_err);
	}
	if (m->source != RFRM_GPU_NONE && (rfrm_add_obj(m, root) != NM_OK ||
						 rfrm_add_gltf(m, root) != NM_OK))
		goto nomem;
	nm_out_free(&o);
	return NM_OK;
nomem:
	nm_out_free(&o);
	return nm_fail(err, NM_E_NOMEM, m->name, NULL, NM_NO_OFFSET, "out of memory");
}

/* Form types whose body is one record rather than a chunk list: walked as chunks, a
 * valid asset would show as broken. CHAR (version 6 on Switch) is read as a record by
 * pakpydkctf (char_codec.py: name, GUID, model slots, animations), whose offsets are
 * found by scanning, so its fields are left to a reader who knows them. NULL: chunks. */
static const char *record_form(const rfrm_item *form)
{
	if (memcmp(form->id, "CHAR", 4) == 0)
		return "CHAR: a character's name and its model and animation references";
	return NULL;
}

nm_status rfrm_build_asset(nm_reader *r, nm_tree *t, nm_node *dir, const uint8_t *meta,
			   size_t meta_len, const struct rfrm_pak *pak, nm_error *err)
{
	rfrm_item form;
	nm_status s = rfrm_read_form(r, 0, nm_reader_size(r), &form, err);
	if (s != NM_OK)
		return s;
	/* A GPU buffer compressed again to another size moves what follows it. */
	nm_reader_set_repack(r, rfrm_form_repack, NULL);
	if (memcmp(form.id, "TXTR", 4) == 0)
		return rfrm_build_txtr(r, t, dir, &form, meta, meta_len, err);
	if (!rfrm_is_model_type(form.id)) {
		const char *record = record_form(&form);
		nm_out o;
		nm_out_init(&o);
		rfrm_form_info(&o, &form, r);
		if (record)
			nm_kv(&o, "body", "one record, not a chunk list (%s); its fields are not "
			      "read: body.bin", record);
		nm_node *n = nm_text(t, dir, "info.txt", &o);
		nm_out_free(&o);
		if (!n || (record && !nm_slice(t, dir, "body.bin", r, form.data_off, form.size)))
			return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
				       "out of memory");
		if (!record)
			rfrm_add_items(t, dir, r, &form, 0);
		return NM_OK;
	}
	rfrm_model *m = nm_tree_alloc(t, sizeof *m);
	if (!m)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
	m->pak = pak;
	s = rfrm_model_parse(r, t, &form, meta, meta_len, m, err);
	if (nm_tree_on_free(t, rfrm_model_free, m) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
	if (s != NM_OK)
		return s;
	return rfrm_build_model_tree(m, dir, err);
}
