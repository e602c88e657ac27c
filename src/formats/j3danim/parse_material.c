/* The kinds whose entries name materials (FORMATS.md 10.4-10.7): TTK1 (BTK, texture
 * matrices), TRK1 (BRK, TEV colour and konst registers), PAK1 (BPK, material colour),
 * TPT1 (BTP, texture indices). Each has an entry table, a u16 material-ID table (tool
 * leftovers: the game matches by name) and a name table, entry i named by name i. */
#include <string.h>
#include "formats/j3danim/j3danim.h"

/* What an entry table shares across the four kinds. */
typedef struct entries {
	nm_view table;
	uint16_t *ids;
	const char **names;
	j3danim_track *tracks;
} entries;

static nm_status no_memory(const j3danim *a, nm_error *err)
{
	return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET, "out of memory");
}

/* Room for n more targets. */
static j3danim_target *grow_targets(j3danim *a, size_t n)
{
	j3danim_target *t = j3danim_alloc(a, a->ntargets + n, sizeof *t);
	if (t && a->ntargets)
		memcpy(t, a->targets, a->ntargets * sizeof *t);
	if (t)
		a->targets = t;
	return t;
}

/* n entries of esize bytes at table, their IDs at ids and names at names, room for
 * tracks_per tracks each, and n more targets (*tg: the first of them). */
static nm_status load_entries(j3danim_parse_ctx *p, uint32_t n, uint32_t table, size_t esize,
			      uint32_t ids, uint32_t names, size_t tracks_per, const char *what,
			      entries *e, j3danim_target **tg, nm_error *err)
{
	j3danim *a = p->a;
	nm_status s = j3danim_load(p, table, (uint64_t)n * esize, what, &e->table, err);
	if (s != NM_OK)
		return s;
	nm_view iv;
	if ((s = j3danim_load(p, ids, (uint64_t)n * 2, "material-ID table", &iv, err)) != NM_OK)
		return s;
	e->ids = j3danim_alloc(a, n, sizeof *e->ids);
	e->tracks = j3danim_alloc(a, (size_t)n * tracks_per, sizeof *e->tracks);
	if (!e->ids || !e->tracks) {
		nm_view_free(&iv);
		return no_memory(a, err);
	}
	for (uint32_t i = 0; i < n; i++)
		e->ids[i] = nm_u16(&iv, 2 * (size_t)i);
	nm_view_free(&iv);
	s = j3danim_names(p, names, n, &e->names, err);
	if (s == NM_OK && !(*tg = grow_targets(a, n)))
		s = no_memory(a, err);
	if (s == NM_OK)
		*tg += a->ntargets;
	return s;
}

static void entries_free(entries *e) { nm_view_free(&e->table); }

static void material_target(j3danim_target *tg, j3danim_target_kind kind, uint32_t i,
			    const entries *e, size_t tracks_per)
{
	tg->kind = kind;
	tg->index = i;
	tg->name = e->names[i];
	tg->material_id = e->ids[i];
	tg->tracks = e->tracks + (size_t)i * tracks_per;
	tg->ntracks = tracks_per;
}

/* ---- TTK1 ---------------------------------------------------------------------------- */

static const char *const srt_names[9] = {
	"scale_s", "rotation_s", "translation_s", "scale_t", "rotation_t", "translation_t",
	"scale_q", "rotation_q", "translation_q",
};

/* One set of texture-matrix entries: the main one at 0x0C.., the post one at 0x34.. */
static nm_status ttk1_set(j3danim_parse_ctx *p, bool post, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	size_t b = post ? 0x28 : 0; /* the post fields repeat the main ones 0x28 later */
	uint32_t tracks = nm_u16(h, 0x0C + b);
	static const char *const ck[2][3] = {
		{ "scale_count", "rotation_count", "translation_count" },
		{ "post_scale_count", "post_rotation_count", "post_translation_count" } };
	static const char *const ok[2][9] = {
		{ "table_offset", "material_id_offset", "name_table_offset", "slot_offset",
		  "center_offset", "scale_offset", "rotation_offset", "translation_offset" },
		{ "post_table_offset", "post_material_id_offset", "post_name_table_offset",
		  "post_slot_offset", "post_center_offset", "post_scale_offset",
		  "post_rotation_offset", "post_translation_offset" } };
	j3danim_field(a, post ? "post_track_count" : "track_count", tracks, false);
	uint32_t counts[3], offs[8];
	for (int c = 0; c < 3; c++)
		counts[c] = j3danim_field(a, ck[post][c], nm_u16(h, 0x0E + b + 2 * c), false);
	for (int k = 0; k < 8; k++)
		offs[k] = j3danim_field(a, ok[post][k], nm_u32(h, 0x14 + b + 4 * k), true);
	static const char *const an[2][3] = { { "scale", "rotation", "translation" },
					      { "post_scale", "post_rotation", "post_translation" } };
	uint8_t arr[3] = {
		j3danim_add_array(a, an[post][0], offs[5], counts[0], 4, true, true),
		j3danim_add_array(a, an[post][1], offs[6], counts[1], 2, false, true),
		j3danim_add_array(a, an[post][2], offs[7], counts[2], 4, true, true),
	};
	uint32_t n = tracks / 3;
	if (!n)
		return NM_OK;
	entries e = { 0 };
	j3danim_target *tg = NULL;
	nm_view slots = { 0 }, centers = { 0 };
	nm_status s = j3danim_load(p, offs[3], n, "texture-matrix slot table", &slots, err);
	if (s == NM_OK)
		s = j3danim_load(p, offs[4], (uint64_t)n * 12, "center table", &centers, err);
	if (s == NM_OK)
		s = load_entries(p, n, offs[0], 0x36, offs[1], offs[2], 9,
				 post ? "post texture-matrix table" : "texture-matrix table", &e,
				 &tg, err);
	if (s == NM_OK) {
		static const j3danim_unit units[3] = { J3DANIM_SCALE, J3DANIM_ROTATION,
						      J3DANIM_TRANSLATION };
		for (uint32_t i = 0; i < n; i++) {
			j3danim_target *t = &tg[i];
			material_target(t, J3DANIM_TEXMTX, i, &e, 9);
			t->post = post;
			t->slot = nm_u8(&slots, i);
			for (int k = 0; k < 3; k++)
				t->center[k] = nm_f32(&centers, 12 * (size_t)i + 4 * (size_t)k);
			for (int u = 0; u < 3; u++)
				for (int c = 0; c < 3; c++) {
					j3danim_track *tr = &t->tracks[u * 3 + c];
					j3danim_track_from(tr, &e.table, 0x36 * (size_t)i +
							   (size_t)(u * 3 + c) * 6, false,
							   srt_names[u * 3 + c], units[c], arr[c]);
					/* The game samples S and T scale and translation and the
					 * Q rotation (J3DAnmTextureSRTKey::calcTransform). */
					tr->used = (c != 1 && u < 2) || (c == 1 && u == 2);
				}
		}
		a->ntargets += n;
	}
	nm_view_free(&slots);
	nm_view_free(&centers);
	entries_free(&e);
	return s;
}

static nm_status parse_ttk1(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, "rotation_shift", a->byte9, false);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	nm_status s = ttk1_set(p, false, err);
	if (s == NM_OK)
		s = ttk1_set(p, true, err);
	a->calc_type = j3danim_field(a, "calc_type", nm_u32(&p->head, 0x5C), true);
	return s;
}

/* ---- TRK1, PAK1 ------------------------------------------------------------------------ */

static const char *const rgba[4] = { "red", "green", "blue", "alpha" };

/* n colour entries: R, G, B, A key tables at 0, 6, 12, 18 of each esize-byte entry, the
 * register id (TRK1) at 0x18. */
static nm_status colour_set(j3danim_parse_ctx *p, j3danim_target_kind kind, uint32_t n,
			    uint32_t table, size_t esize, uint32_t ids, uint32_t names,
			    const uint8_t arr[4], j3danim_unit unit, const char *what,
			    nm_error *err)
{
	j3danim *a = p->a;
	if (!n)
		return NM_OK;
	entries e = { 0 };
	j3danim_target *tg = NULL;
	nm_status s = load_entries(p, n, table, esize, ids, names, 4, what, &e, &tg, err);
	if (s == NM_OK) {
		for (uint32_t i = 0; i < n; i++) {
			j3danim_target *t = &tg[i];
			material_target(t, kind, i, &e, 4);
			t->slot = kind == J3DANIM_MAT_COLOR ? 0 : nm_u8(&e.table, esize * i + 0x18);
			for (int c = 0; c < 4; c++)
				j3danim_track_from(&t->tracks[c], &e.table, esize * i + 6 * (size_t)c,
						   false, rgba[c], unit, arr[c]);
		}
		a->ntargets += n;
	}
	entries_free(&e);
	return s;
}

static nm_status parse_trk1(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	static const char *const cnt[2][4] = {
		{ "c_red_count", "c_green_count", "c_blue_count", "c_alpha_count" },
		{ "k_red_count", "k_green_count", "k_blue_count", "k_alpha_count" } };
	static const char *const off[2][4] = {
		{ "c_red_offset", "c_green_offset", "c_blue_offset", "c_alpha_offset" },
		{ "k_red_offset", "k_green_offset", "k_blue_offset", "k_alpha_offset" } };
	static const char *const an[2][4] = { { "c_red", "c_green", "c_blue", "c_alpha" },
					      { "k_red", "k_green", "k_blue", "k_alpha" } };
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, "byte_09", a->byte9, true);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	uint32_t n[2] = { j3danim_field(a, "c_entry_count", nm_u16(h, 0x0C), false),
			  j3danim_field(a, "k_entry_count", nm_u16(h, 0x0E), false) };
	uint32_t counts[2][4];
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 4; c++)
			counts[r][c] = j3danim_field(a, cnt[r][c], nm_u16(h, 0x10 + 8 * r + 2 * c),
						     false);
	uint32_t table[2] = { j3danim_field(a, "c_table_offset", nm_u32(h, 0x20), true),
			      j3danim_field(a, "k_table_offset", nm_u32(h, 0x24), true) };
	uint32_t ids[2] = { j3danim_field(a, "c_material_id_offset", nm_u32(h, 0x28), true),
			    j3danim_field(a, "k_material_id_offset", nm_u32(h, 0x2C), true) };
	uint32_t names[2] = { j3danim_field(a, "c_name_table_offset", nm_u32(h, 0x30), true),
			      j3danim_field(a, "k_name_table_offset", nm_u32(h, 0x34), true) };
	uint8_t arr[2][4];
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 4; c++)
			arr[r][c] = j3danim_add_array(
				a, an[r][c],
				j3danim_field(a, off[r][c], nm_u32(h, 0x38 + 0x10 * r + 4 * c), true),
				counts[r][c], 2, false, true);
	nm_status s = colour_set(p, J3DANIM_TEV_COLOR, n[0], table[0], 0x1C, ids[0], names[0],
				 arr[0], J3DANIM_COLOR_S10, "colour-register table", err);
	if (s == NM_OK)
		s = colour_set(p, J3DANIM_TEV_KONST, n[1], table[1], 0x1C, ids[1], names[1],
			       arr[1], J3DANIM_COLOR_U8, "konst-register table", err);
	return s;
}

static nm_status parse_pak1(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	static const char *const cnt[4] = { "red_count", "green_count", "blue_count",
					    "alpha_count" };
	static const char *const off[4] = { "red_offset", "green_offset", "blue_offset",
					    "alpha_offset" };
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	uint32_t n = j3danim_field(a, "entry_count", nm_u16(h, 0x0E), false);
	uint32_t counts[4];
	for (int c = 0; c < 4; c++)
		counts[c] = j3danim_field(a, cnt[c], nm_u16(h, 0x10 + 2 * c), false);
	uint32_t table = j3danim_field(a, "table_offset", nm_u32(h, 0x18), true);
	uint32_t ids = j3danim_field(a, "material_id_offset", nm_u32(h, 0x1C), true);
	uint32_t names = j3danim_field(a, "name_table_offset", nm_u32(h, 0x20), true);
	uint8_t arr[4];
	for (int c = 0; c < 4; c++)
		arr[c] = j3danim_add_array(a, rgba[c],
					   j3danim_field(a, off[c], nm_u32(h, 0x24 + 4 * c), true),
					   counts[c], 2, false, true);
	return colour_set(p, J3DANIM_MAT_COLOR, n, table, 0x18, ids, names, arr,
			  J3DANIM_COLOR_U8, "colour table", err);
}

/* ---- TPT1 ------------------------------------------------------------------------------ */

static nm_status parse_tpt1(j3danim_parse_ctx *p, nm_error *err)
{
	j3danim *a = p->a;
	nm_view *h = &p->head;
	j3danim_field(a, "loop_mode", a->loop, false);
	j3danim_field(a, "byte_09", a->byte9, true);
	j3danim_field(a, "duration", (uint16_t)a->duration, false);
	uint32_t n = j3danim_field(a, "entry_count", nm_u16(h, 0x0C), false);
	uint32_t count = j3danim_field(a, "texture_index_count", nm_u16(h, 0x0E), false);
	uint32_t table = j3danim_field(a, "table_offset", nm_u32(h, 0x10), true);
	uint32_t values = j3danim_field(a, "texture_index_offset", nm_u32(h, 0x14), true);
	uint32_t ids = j3danim_field(a, "material_id_offset", nm_u32(h, 0x18), true);
	uint32_t names = j3danim_field(a, "name_table_offset", nm_u32(h, 0x1C), true);
	uint8_t arr = j3danim_add_array(a, "texture_index", values, count, 2, false, false);
	if (!n)
		return NM_OK;
	entries e = { 0 };
	j3danim_target *tg = NULL;
	nm_status s = load_entries(p, n, table, 8, ids, names, 1, "texture-pattern table", &e,
				   &tg, err);
	if (s == NM_OK) {
		for (uint32_t i = 0; i < n; i++) {
			j3danim_target *t = &tg[i];
			material_target(t, J3DANIM_TEX_NO, i, &e, 1);
			t->slot = nm_u8(&e.table, 8 * (size_t)i + 4);
			j3danim_track_from(&t->tracks[0], &e.table, 8 * (size_t)i, true, "texture",
					   J3DANIM_TEXTURE, arr);
		}
		a->ntargets += n;
	}
	entries_free(&e);
	return s;
}

nm_status j3danim_parse_material(j3danim_parse_ctx *p, nm_error *err)
{
	switch (p->a->kind) {
	case J3DANIM_BTK: return parse_ttk1(p, err);
	case J3DANIM_BRK: return parse_trk1(p, err);
	case J3DANIM_BPK: return parse_pak1(p, err);
	default: return parse_tpt1(p, err);
	}
}
