/* VAF1 (BVA: shape visibility per frame) and CLK1 / CLF1 (BLK / BLA: cluster weights,
 * keyed / per frame; FORMATS.md 10.8, 10.9). All three: 0x0C u16 entry count, 0x0E u16
 * value count, 0x10 entry table, 0x14 value array. */
#include "formats/j3danim/j3danim.h"

nm_status j3danim_parse_other(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	bool vis = a->kind == J3DANIM_BVA, keyed = a->kind == J3DANIM_BLK;
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, "byte_09", a->byte9, true);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	uint32_t n = j3danim_field(a, vis ? "shape_count" : "cluster_count", nm_u16(h, 0x0C),
				   false);
	uint32_t count = j3danim_field(a, vis ? "value_count" : "weight_count", nm_u16(h, 0x0E),
				       false);
	uint32_t table = j3danim_field(a, "table_offset", nm_u32(h, 0x10), true);
	uint32_t values = j3danim_field(a, vis ? "value_offset" : "weight_offset",
					nm_u32(h, 0x14), true);
	uint8_t arr = vis ? j3danim_add_array(a, "visibility", values, count, 1, false, false)
			  : j3danim_add_array(a, "weight", values, count, 4, true, true);
	size_t esize = keyed ? 6 : 4;
	nm_view v;
	nm_status s = j3danim_load(p, table, (uint64_t)n * esize,
				   vis ? "shape table" : "cluster table", &v, err);
	if (s != NM_OK)
		return s;
	a->targets = j3danim_alloc(a, n, sizeof *a->targets);
	j3danim_track *tracks = j3danim_alloc(a, n, sizeof *tracks);
	if (!a->targets || !tracks) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET,
			       "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		j3danim_target *tg = &a->targets[i];
		tg->kind = vis ? J3DANIM_SHAPE : J3DANIM_CLUSTER;
		tg->index = i;
		tg->tracks = &tracks[i];
		tg->ntracks = 1;
		j3danim_track_from(&tracks[i], &v, esize * i, !keyed, vis ? "visible" : "weight",
				   vis ? J3DANIM_VISIBLE : J3DANIM_WEIGHT, arr);
	}
	a->ntargets = n;
	nm_view_free(&v);
	return NM_OK;
}
