/* MDL3 (BDL only): one precompiled GX display list per material, which loads the
 * material's BP, XF and CP registers. Header (after the chunk header): u16 count, u16
 * pad, then offsets of the packet table (u32 offset relative to the entry, u32 size),
 * the subpacket table (6 u16 offsets into each packet: channel colours, channel
 * controls, texgens, textures, TEV, pixel; u32 pad), a matrix table (8 bytes per
 * packet), a u8 and a u16 table, and the material name table. The packets' commands
 * are walked by mdl3_text.c: their headers at mount (sizes), their values on read. */
#include "formats/j3d/j3d.h"

nm_status j3d_parse_mdl3(j3d_model *m, const j3d_chunk *c, j3d_mdl3 *d, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x24, "MDL3 header", &v, err);
	if (s != NM_OK)
		return s;
	d->count = nm_u16(&v, 0x08);
	d->off_packets = nm_u32(&v, 0x0C);
	d->off_subpackets = nm_u32(&v, 0x10);
	d->off_matrix = nm_u32(&v, 0x14);
	d->off_unknown = nm_u32(&v, 0x18);
	d->off_indices = nm_u32(&v, 0x1C);
	d->off_names = nm_u32(&v, 0x20);
	nm_view_free(&v);
	d->pkt_off = nm_tree_alloc_array(m->t, d->count, sizeof *d->pkt_off);
	d->pkt_size = nm_tree_alloc_array(m->t, d->count, sizeof *d->pkt_size);
	if (!d->pkt_off || !d->pkt_size)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!d->count)
		return NM_OK;
	s = j3d_load(m, c, d->off_packets, (uint64_t)d->count * 8, "packet table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < d->count; i++) {
		uint64_t at = (uint64_t)d->off_packets + 8 * (uint64_t)i + nm_u32(&v, 8 * (size_t)i);
		uint32_t size = nm_u32(&v, 8 * (size_t)i + 4);
		if (at > c->size || size > c->size - at) {
			nm_view_free(&v);
			return j3d_chunk_fail(c, m, err, d->off_packets + 8 * (uint64_t)i,
					      "packet %u (0x%x bytes at 0x%llx) runs past the end of "
					      "the chunk", i, size, (unsigned long long)at);
		}
		d->pkt_off[i] = (uint32_t)at;
		d->pkt_size[i] = size;
	}
	nm_view_free(&v);
	/* The subpacket offsets are informational: shown only when the table fits. */
	if (d->off_subpackets && d->off_subpackets < c->size &&
	    (uint64_t)d->count * 0x10 <= c->size - d->off_subpackets) {
		s = j3d_load(m, c, d->off_subpackets, (uint64_t)d->count * 0x10, "subpacket table",
			     &v, err);
		if (s != NM_OK)
			return s;
		d->sub = nm_tree_alloc_array(m->t, d->count, sizeof *d->sub);
		if (!d->sub) {
			nm_view_free(&v);
			return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET,
				       "out of memory");
		}
		for (uint16_t i = 0; i < d->count; i++)
			for (int k = 0; k < 6; k++)
				d->sub[i][k] = nm_u16(&v, 0x10 * (size_t)i + 2 * (size_t)k);
		nm_view_free(&v);
	}
	if (d->off_names && d->off_names < c->size) {
		nm_error ignored;
		/* A broken name table only loses the names. */
		if (j3d_names(m, c, d->off_names, d->count, &d->names, &d->nnames, &ignored) != NM_OK)
			d->names = NULL;
	}
	return NM_OK;
}
