/* mat3/ (or mat2/): header.txt and N.txt per material, formatted at mount from the
 * loaded tables. mdl3/: header.txt and N.txt per packet: its register writes, decoded
 * on first use. Those texts are small, but their length depends on the display list,
 * so they are NM_SIZE_MEASURE files: produced once on the first stat. */
#include <stdio.h>
#include <stdlib.h>
#include "export/text.h"
#include "formats/j3d/j3d.h"

nm_status j3d_tree_mat3(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	j3d_mat3_header(&o, m->mat3);
	nm_node *n = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < m->mat3->count; i++) {
		char name[16];
		nm_out_init(&o);
		j3d_material_text(&o, m, i);
		snprintf(name, sizeof name, "%u.txt", i);
		n = nm_text(t, c->dir, name, &o);
		nm_out_free(&o);
		if (!n)
			return NM_E_NOMEM;
	}
	return NM_OK;
}

struct mdl3_ref {
	j3d_model *m;
	uint16_t index;
};

static nm_status produce_packet(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	static const char *const sub[6] = { "channel_colors", "channel_controls", "texgens",
					    "textures", "tev", "pixel" };
	struct mdl3_ref *ref = arg;
	j3d_model *m = ref->m;
	const j3d_mdl3 *d = m->mdl3;
	uint16_t i = ref->index;
	(void)ctx;
	uint8_t *dl;
	nm_status s = nm_reader_load(m->r, d->chunk->off + d->pkt_off[i], d->pkt_size[i],
				     d->chunk->magic, &dl, err);
	if (s != NM_OK)
		return s;
	nm_kv(o, "packet", "%u", i);
	const char *name = i < d->nnames && d->names && d->names[i] ? d->names[i]
			 : m->mat3 && i < m->mat3->count ? m->mat3->mats[i].name : NULL;
	if (name)
		nm_kv_str(o, "material_name", name);
	nm_kv(o, "offset", "0x%llx", (unsigned long long)(d->chunk->off + d->pkt_off[i]));
	nm_kv(o, "size", "%u", d->pkt_size[i]);
	if (d->sub)
		for (int k = 0; k < 6; k++) {
			char key[48];
			snprintf(key, sizeof key, "%s_offset", sub[k]);
			nm_kv(o, key, "0x%x", d->sub[i][k]);
		}
	j3d_mdl3_commands(o, dl, d->pkt_size[i]);
	free(dl);
	return NM_OK;
}

nm_status j3d_tree_mdl3(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	const j3d_mdl3 *d = m->mdl3;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "count", "%u", d->count);
	nm_kv(&o, "packet_table_offset", "0x%x", d->off_packets);
	nm_kv(&o, "subpacket_table_offset", "0x%x", d->off_subpackets);
	nm_kv(&o, "matrix_table_offset", "0x%x", d->off_matrix);
	nm_kv(&o, "table_0x18_offset", "0x%x", d->off_unknown);
	nm_kv(&o, "index_table_offset", "0x%x", d->off_indices);
	nm_kv(&o, "name_table_offset", "0x%x", d->off_names);
	nm_node *n = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < d->count; i++) {
		struct mdl3_ref *ref = j3d_alloc(m, 1, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		ref->m = m;
		ref->index = i;
		char name[16];
		snprintf(name, sizeof name, "%u.txt", i);
		/* Size measured on first stat: the text length follows the display list. */
		if (!nm_lazy(t, c->dir, name, NM_SIZE_MEASURE, produce_packet, NULL, ref))
			return NM_E_NOMEM;
	}
	return NM_OK;
}
