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

typedef nm_status (*parse_fn)(rfrm_model *m, nm_view *v, nm_error *err);

/* Chunk c's data loaded, parsed, and let go: a failure (the first reason) goes to its
 * error.txt, and the other chunks are parsed all the same. */
static void parse_chunk(rfrm_model *m, int c, parse_fn fn)
{
	nm_chunk *ch = &m->chunk[c].c;
	if (!ch->present)
		return;
	if (rfrm_table_load(m->r, &m->chunk[c].item, chunk_ids[c], &ch->v, &ch->err) != NM_OK) {
		ch->failed = true;
		return;
	}
	nm_error err;
	nm_error_clear(&err);
	if (fn(m, &ch->v, &err) != NM_OK && !ch->failed) {
		ch->failed = true;
		ch->err = err;
	}
	nm_view_free(&ch->v);
}

nm_status rfrm_model_parse(nm_reader *r, nm_tree *t, const rfrm_item *form,
			   const uint8_t *meta, size_t meta_len, rfrm_model *m, nm_error *err)
{
	m->r = r;
	m->t = t;
	m->name = nm_reader_name(r);
	m->form = *form;
	pthread_mutex_init(&m->lock, NULL);
	nm_status s = rfrm_list_items(r, t, form, &m->items, &m->nitems, &m->items_broken,
				      &m->items_err);
	if (s != NM_OK && !m->items_broken) {
		*err = m->items_err;
		return s; /* out of memory */
	}
	for (size_t i = 0; i < m->nitems; i++) {
		const rfrm_item *it = &m->items[i];
		for (int c = 0; c < RC_COUNT && !it->is_form; c++) {
			rfrm_chunk *ch = &m->chunk[c];
			if (!ch->c.present && memcmp(it->id, chunk_ids[c], 4) == 0) {
				nm_chunk_magic(&ch->c, (const uint8_t *)it->id);
				ch->c.present = true;
				ch->c.off = it->data_off;
				ch->c.len = it->size;
				ch->c.size = it->size > UINT32_MAX ? UINT32_MAX : (uint32_t)it->size;
				ch->item = *it;
				break;
			}
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
		m->meta_blob = (uint8_t *)nm_tree_strndup(t, meta, meta_len);
		if (!m->meta_blob)
			return nm_fail(err, NM_E_NOMEM, m->name, NULL, NM_NO_OFFSET, "out of memory");
		m->meta_len = meta_len;
		m->source = RFRM_GPU_PAK_META;
	}
	rfrm_gpu_locate(m);
	/* Vertex and index data follow the platform, which the MTRL layout or a codec tag
	 * only the Switch uses tells; the tables are big-endian on both. */
	m->little = m->switch_mtrl || m->switch_codec;
	return NM_OK;
}

void rfrm_model_free(void *model)
{
	rfrm_model *m = model;
	pthread_mutex_destroy(&m->lock);
}
