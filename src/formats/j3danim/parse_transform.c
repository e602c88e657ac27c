/* ANK1 (BCK) and ANF1 (BCA): joint scale, rotation and translation (FORMATS.md 10.2,
 * 10.3). The two share the header; an ANK1 entry holds 6-byte key tables, an ANF1 entry
 * 4-byte (count, first) pairs. */
#include "formats/j3danim/j3danim.h"

static const char *const track_names[9] = {
	"scale_x", "scale_y", "scale_z", "rotation_x", "rotation_y", "rotation_z",
	"translation_x", "translation_y", "translation_z",
};

nm_status j3danim_parse_transform(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	bool full = a->kind == J3DANIM_BCA;
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, full ? "byte_09" : "rotation_shift", a->byte9, full);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	uint16_t joints = (uint16_t)j3danim_field(a, "joint_count", nm_u16(h, 0x0C), false);
	uint32_t counts[3], offs[3];
	static const char *const count_keys[3] = { "scale_count", "rotation_count",
						    "translation_count" };
	static const char *const off_keys[3] = { "scale_offset", "rotation_offset",
						  "translation_offset" };
	for (int c = 0; c < 3; c++)
		counts[c] = j3danim_field(a, count_keys[c], nm_u16(h, 0x0E + 2 * c), false);
	uint32_t table = j3danim_field(a, "joint_table_offset", nm_u32(h, 0x14), true);
	for (int c = 0; c < 3; c++)
		offs[c] = j3danim_field(a, off_keys[c], nm_u32(h, 0x18 + 4 * c), true);
	uint8_t arr[3] = {
		j3danim_add_array(a, "scale", offs[0], counts[0], 4, true, true),
		j3danim_add_array(a, "rotation", offs[1], counts[1], 2, false, true),
		j3danim_add_array(a, "translation", offs[2], counts[2], 4, true, true),
	};
	size_t table_size = full ? 4 : 6, entry = 9 * table_size;
	nm_view v;
	nm_status s = j3danim_load(p, table, (uint64_t)joints * entry, "joint table", &v, err);
	if (s != NM_OK)
		return s;
	a->targets = j3danim_alloc(a, joints, sizeof *a->targets);
	j3danim_track *tracks = j3danim_alloc(a, (size_t)joints * 9, sizeof *tracks);
	if (!a->targets || !tracks) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET,
			       "out of memory");
	}
	static const j3danim_unit units[3] = { J3DANIM_SCALE, J3DANIM_ROTATION,
					      J3DANIM_TRANSLATION };
	for (uint16_t j = 0; j < joints; j++) {
		j3danim_target *tg = &a->targets[j];
		tg->kind = J3DANIM_JOINT;
		tg->index = j;
		tg->tracks = tracks + (size_t)j * 9;
		tg->ntracks = 9;
		/* Stored per axis (sx rx tx sy ry ty sz rz tz); kept per component. */
		for (int axis = 0; axis < 3; axis++)
			for (int c = 0; c < 3; c++)
				j3danim_track_from(&tg->tracks[c * 3 + axis], &v,
						   (size_t)j * entry + (size_t)(axis * 3 + c) * table_size,
						   full, track_names[c * 3 + axis], units[c], arr[c]);
	}
	a->ntargets = joints;
	nm_view_free(&v);
	return NM_OK;
}
