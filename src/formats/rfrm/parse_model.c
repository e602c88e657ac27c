/* A CMDL/SMDL/WMDL model: its chunks found by the generic walker, each parsed on its
 * own (a chunk that fails gets error.txt; the rest still mounts), then the GPU buffers
 * located (gpu.c). Nothing here reads the GPU chunk's data. */
#include <stdlib.h>
#include <string.h>
#include "formats/rfrm/rfrm.h"

static const char chunk_ids[RC_COUNT][5] = { "HEAD", "MTRL", "MESH", "VBUF", "IBUF", "GPU ",
					     "SKHD", "WDHD" };

bool rfrm_is_model_type(const char *type)
{
	return memcmp(type, "CMDL", 4) == 0 || memcmp(type, "SMDL", 4) == 0 ||
	       memcmp(type, "WMDL", 4) == 0;
}

nm_status rfrm_chunk_view(rfrm_model *m, int c, nm_view *v, nm_error *err)
{
	const rfrm_item *it = &m->chunk[c].item;
	if (it->size > RFRM_MAX_TABLE)
		return nm_fail(err, NM_E_LIMIT, m->name, chunk_ids[c], it->off,
			       "chunk of %llu bytes: larger than the %u MiB we load for a table",
			       (unsigned long long)it->size, RFRM_MAX_TABLE >> 20);
	return nm_view_load(m->r, it->data_off, (size_t)it->size, chunk_ids[c], NM_BIG, v, err);
}

typedef nm_status (*parse_fn)(rfrm_model *m, nm_error *err);

static void parse_chunk(rfrm_model *m, int c, parse_fn fn)
{
	rfrm_chunk *ch = &m->chunk[c];
	if (!ch->present)
		return;
	nm_error err;
	nm_error_clear(&err);
	if (fn(m, &err) != NM_OK) {
		ch->bad = true;
		ch->err = err;
	}
}

nm_status rfrm_model_parse(nm_reader *r, nm_tree *t, const rfrm_item *form,
			   const uint8_t *meta, size_t meta_len, rfrm_model *m, nm_error *err)
{
	m->r = r;
	m->t = t;
	m->name = nm_reader_name(r);
	m->form = *form;
	pthread_mutex_init(&m->lock, NULL);
	nm_status s = rfrm_list_items(r, form, &m->items, &m->nitems, &m->items_broken,
				      &m->items_err);
	if (s != NM_OK && !m->items_broken) {
		*err = m->items_err;
		return s; /* out of memory */
	}
	for (size_t i = 0; i < m->nitems; i++) {
		const rfrm_item *it = &m->items[i];
		for (int c = 0; c < RC_COUNT && !it->is_form; c++)
			if (!m->chunk[c].present && memcmp(it->id, chunk_ids[c], 4) == 0) {
				m->chunk[c].present = true;
				m->chunk[c].item = *it;
				break;
			}
	}
	parse_chunk(m, RC_HEAD, rfrm_parse_head);
	parse_chunk(m, RC_SKHD, rfrm_parse_skhd);
	parse_chunk(m, RC_WDHD, rfrm_parse_wdhd);
	parse_chunk(m, RC_MTRL, rfrm_parse_mtrl);
	parse_chunk(m, RC_MESH, rfrm_parse_mesh);
	parse_chunk(m, RC_VBUF, rfrm_parse_vbuf);
	parse_chunk(m, RC_IBUF, rfrm_parse_ibuf);
	rfrm_link_meshes(m);
	if (meta) {
		m->meta_blob = malloc(meta_len ? meta_len : 1);
		if (!m->meta_blob)
			return nm_fail(err, NM_E_NOMEM, m->name, NULL, NM_NO_OFFSET, "out of memory");
		memcpy(m->meta_blob, meta, meta_len);
		m->meta_len = meta_len;
		m->source = RFRM_GPU_PAK_META;
	}
	rfrm_gpu_locate(m);
	/* Vertex and index data follow the platform, which the MTRL layout or a codec tag
	 * only the Switch uses tells; the tables are big-endian on both. */
	m->little = m->switch_mtrl || m->switch_codec;
	return NM_OK;
}

void rfrm_model_free(rfrm_model *m)
{
	for (int c = 0; c < RC_COUNT; c++) {
		free(m->chunk[c].text);
		for (size_t f = 0; f < m->chunk[c].nfiles; f++)
			free(m->chunk[c].files[f].text);
	}
	for (size_t i = 0; i < m->nmats; i++) {
		free(m->mats[i].name);
		free(m->mats[i].text);
		for (size_t k = 0; k < m->mats[i].ntex; k++)
			free(m->mats[i].tex[k].png);
		free(m->mats[i].tex);
	}
	free(m->mats);
	free(m->meshes);
	for (size_t i = 0; i < m->nvbufs; i++)
		free(m->vbufs[i].comps);
	free(m->vbufs);
	free(m->ibufs);
	free(m->items);
	free(m->meta_blob);
	free(m->meta.read);
	free(m->meta.vb);
	free(m->meta.ib);
	free(m->vb);
	free(m->ib);
	free(m->vb_node);
	free(m->ib_node);
	pthread_mutex_destroy(&m->lock);
}
