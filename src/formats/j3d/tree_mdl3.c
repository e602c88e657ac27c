/* mdl3/: header.txt and N.txt per packet: the packet's table entries, then its
 * register writes (mdl3_text.c). The table part is formatted at mount; the commands are
 * measured at mount by a walk over their headers and written on the first read, so
 * every N.txt has its exact size before anything is decoded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/j3d/j3d.h"

struct mdl3_packet {
	j3d_model *m;
	uint16_t index;
	const char *head;         /* the lines before the commands */
};

/* packet, material name, where it is, the subpacket offsets. */
static void packet_head(nm_out *o, const j3d_model *m, uint16_t i)
{
	static const char *const sub[6] = { "channel_colors", "channel_controls", "texgens",
					    "textures", "tev", "pixel" };
	const j3d_mdl3 *d = m->mdl3;
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
}

static nm_status load_packet(const j3d_model *m, uint16_t i, uint8_t **out, nm_error *err)
{
	const j3d_mdl3 *d = m->mdl3;
	return nm_reader_load(m->r, d->chunk->off + d->pkt_off[i], d->pkt_size[i],
			      d->chunk->magic, out, err);
}

static nm_status produce_packet(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct mdl3_packet *pk = arg;
	uint8_t *dl;
	(void)ctx;
	nm_status s = load_packet(pk->m, pk->index, &dl, err);
	if (s != NM_OK)
		return s;
	nm_out_str(o, pk->head);
	j3d_mdl3_commands(o, dl, pk->m->mdl3->pkt_size[pk->index]);
	free(dl);
	return NM_OK;
}

/* N.txt: the head now and the commands measured. A packet past the walk budget, or
 * one that cannot be read, shows its head and an error line instead. */
static nm_status packet_file(nm_tree *t, j3d_model *m, uint16_t i, uint64_t *left)
{
	const j3d_mdl3 *d = m->mdl3;
	char name[16];
	snprintf(name, sizeof name, "%u.txt", i);
	nm_out o;
	nm_out_init(&o);
	packet_head(&o, m, i);
	uint8_t *dl = NULL;
	nm_error err;
	nm_status s;
	if (d->pkt_size[i] > *left) {
		s = nm_fail(&err, NM_E_FORMAT, m->file, d->chunk->magic,
			    d->chunk->off + d->pkt_off[i], "commands not shown: the packets before "
			    "this one add up to more than %llu bytes (packets that overlap)",
			    (unsigned long long)J3D_WALK_BUDGET(d->chunk->size));
	} else {
		*left -= d->pkt_size[i];
		s = load_packet(m, i, &dl, &err);
	}
	if (s != NM_OK) {
		nm_node *n = NULL;
		if (s != NM_E_NOMEM) {
			nm_kv_str(&o, "error", err.msg);
			n = nm_text(t, d->chunk->dir, name, &o);
		}
		nm_out_free(&o);
		return n ? NM_OK : NM_E_NOMEM;
	}
	struct mdl3_packet *pk = nm_tree_alloc_array(m->t, 1, sizeof *pk);
	char *head = nm_out_status(&o) == NM_OK ? j3d_strdup(m, (const char *)o.data, o.len) : NULL;
	uint64_t size = o.len + j3d_mdl3_commands(NULL, dl, d->pkt_size[i]);
	nm_out_free(&o);
	free(dl);
	if (!pk || !head)
		return NM_E_NOMEM;
	*pk = (struct mdl3_packet){ .m = m, .index = i, .head = head };
	return nm_lazy_formats(nm_lazy(t, d->chunk->dir, name, size, produce_packet, NULL, pk),
			       m->r) ? NM_OK : NM_E_NOMEM;
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
	uint64_t left = J3D_WALK_BUDGET(c->size);
	for (uint16_t i = 0; i < d->count; i++) {
		nm_status s = packet_file(t, m, i, &left);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}
