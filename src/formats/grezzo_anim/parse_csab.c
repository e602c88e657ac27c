/* CSAB, Grezzo's skeletal animation (FORMATS.md 10.11). No real file was at hand: this
 * follows the section's layout (noclip, MeltyTool, M-1's template), and the fixtures in
 * tests/fixtures/grezzo_anim_writer.c are written from the same text.
 *
 * Header: `csab`, u32 size, u32 version (3 OoT3D, 5 MM3D; above 4 the newer tracks),
 * u32 0, [v5: three f32], u32 animation count, u32 animation offset A. At A: 16 reserved
 * bytes, u32 duration, u32 loop, u32 anod count, u32 bone count, s16 bone -> anod table,
 * aligned to 4, u32 anod offsets relative to A. */
#include <math.h>
#include <string.h>
#include "formats/grezzo_anim/parse_keys.h"

#define ANIM_LEN 0x20
#define ANOD_LEN 0x1C
#define RAD_TO_DEG (180.0 / M_PI)
/* An s16 angle of these tracks: value / 32767 * pi radians [L: noclip's reading]. */
#define S16_TO_DEG (180.0 / 32767.0)

static bool is_rotation(unsigned slot)
{
	return slot >= GA_CSAB_RX && slot <= GA_CSAB_RZ;
}

/* Keys of the v3 layout (also v5 Hermite): float keys (u32 frame, f32 value[, f32 in,
 * f32 out]) or, for a rotation of an anod whose flag says so, s16 keys (u16 frame, s16
 * value[, s16 in, s16 out]). */
static void read_v3_keys(ga_parser *p, ga_track *tr, uint64_t from, bool s16, bool hermite)
{
	nm_view *v = &p->v;
	uint64_t stride = (s16 ? 2 : 4) * (hermite ? 4 : 2);
	double unit = s16 ? S16_TO_DEG : tr->rotation ? RAD_TO_DEG : 1.0;
	for (uint32_t k = 0; k < tr->count; k++) {
		uint64_t o = from + k * stride;
		nm_key *key = &tr->keys[k];
		if (s16) {
			key->time = nm_u16(v, o);
			key->value = (float)(nm_s16(v, o + 2) * unit);
			if (hermite) {
				key->tan_in = (float)(nm_s16(v, o + 4) * unit);
				key->tan_out = (float)(nm_s16(v, o + 6) * unit);
			}
		} else {
			key->time = (float)nm_u32(v, o);
			key->value = (float)(nm_f32(v, o + 4) * unit);
			if (hermite) {
				key->tan_in = (float)(nm_f32(v, o + 8) * unit);
				key->tan_out = (float)(nm_f32(v, o + 12) * unit);
			}
		}
	}
}

static nm_status track_v3(ga_parser *p, ga_target *g, const char *block, uint64_t at,
			  unsigned slot, ga_track **out)
{
	nm_view *v = &p->v;
	if (!ga_has(p, at, 16))
		return ga_target_fail(p, g, block, at, "%s: the 16-byte track header runs past the "
				      "end of the file (0x%zx bytes)", ga_track_name(p->a, g, slot), v->size);
	uint32_t type = nm_u32(v, at), count = nm_u32(v, at + 4);
	if (type != 1 && type != 2)
		return ga_target_fail(p, g, block, at, "%s: track type %u is not 1 (linear) or 2 "
				      "(Hermite)", ga_track_name(p->a, g, slot), type);
	bool s16 = is_rotation(slot) && g->rot_flag, hermite = type == 2;
	nm_status s;
	ga_track *tr = ga_track_new(p, g, block, at, at + 16, count,
				    (s16 ? 2 : 4) * (hermite ? 4 : 2), &s);
	if (!tr)
		return s;
	tr->form = s16 ? GA_FORM_S16 : GA_FORM_LONG;
	tr->type = type;
	tr->interp = hermite ? NM_INTERP_HERMITE : NM_INTERP_LINEAR;
	tr->hermite_tangents = hermite;
	tr->start = nm_s32(v, at + 8);
	tr->end_frame = nm_u32(v, at + 12);
	tr->rotation = is_rotation(slot);
	read_v3_keys(p, tr, at + 16, s16, hermite);
	*out = tr;
	return NM_OK;
}

/* v5: u8 constant flag, u8 type, u16 count. Constant: count x (f32 scale, f32 bias, u32
 * raw); linear: f32 scale, f32 bias, one raw value per frame (u16 for translations, s16
 * for scale and rotation [L]); both give raw * scale - bias at frames 0, 1, ...
 * Hermite: the v3 keys right after the four bytes [L]. Rotations are radians. */
static nm_status track_v5(ga_parser *p, ga_target *g, const char *block, uint64_t at,
			  unsigned slot, ga_track **out)
{
	nm_view *v = &p->v;
	if (!ga_has(p, at, 4))
		return ga_target_fail(p, g, block, at, "%s: the track header runs past the end of "
				      "the file (0x%zx bytes)", ga_track_name(p->a, g, slot), v->size);
	uint8_t constant = nm_u8(v, at), type = nm_u8(v, at + 1);
	uint16_t count = nm_u16(v, at + 2);
	bool rot = is_rotation(slot), s16 = rot && g->rot_flag;
	double unit = rot ? RAD_TO_DEG : 1.0;
	ga_form form;
	uint64_t keys_at, stride;
	if (constant > 1 || (!constant && type != 1 && type != 2))
		return ga_target_fail(p, g, block, at, "%s: constant flag %u with type %u is not a "
				      "track this reader knows (constant 0 or 1; type 1 linear, 2 "
				      "Hermite)", ga_track_name(p->a, g, slot), constant, type);
	if (constant) {
		form = GA_FORM_V5_CONSTANT;
		keys_at = at + 4;
		stride = 12;
	} else if (type == 1) {
		if (!ga_has(p, at + 4, 8))
			return ga_target_fail(p, g, block, at, "%s: the scale and bias run past the end "
					      "of the file", ga_track_name(p->a, g, slot));
		form = GA_FORM_V5_LINEAR;
		keys_at = at + 12;
		stride = 2;
	} else {
		form = GA_FORM_V5_HERMITE;
		keys_at = at + 4;
		stride = s16 ? 8 : 16;
	}
	nm_status s;
	ga_track *tr = ga_track_new(p, g, block, at, keys_at, count, stride, &s);
	if (!tr)
		return s;
	tr->form = form;
	tr->type = type;
	tr->rotation = rot;
	tr->interp = form == GA_FORM_V5_HERMITE ? NM_INTERP_HERMITE : NM_INTERP_LINEAR;
	tr->hermite_tangents = form == GA_FORM_V5_HERMITE;
	if (form == GA_FORM_V5_HERMITE) {
		read_v3_keys(p, tr, keys_at, s16, true);
	} else if (form == GA_FORM_V5_LINEAR) {
		tr->scale = nm_f32(v, at + 4);
		tr->bias = nm_f32(v, at + 8);
		for (uint32_t k = 0; k < count; k++) {
			uint64_t o = keys_at + 2 * (uint64_t)k;
			double raw = slot <= GA_CSAB_TZ ? (double)nm_u16(v, o) : (double)nm_s16(v, o);
			tr->keys[k].time = (float)k;
			tr->keys[k].value = (float)((raw * tr->scale - tr->bias) * unit);
		}
	} else {
		for (uint32_t k = 0; k < count; k++) {
			uint64_t o = keys_at + 12 * (uint64_t)k;
			double sc = nm_f32(v, o), bias = nm_f32(v, o + 4), raw = nm_u32(v, o + 8);
			tr->keys[k].time = (float)k;
			tr->keys[k].value = (float)((raw * sc - bias) * unit);
		}
	}
	tr->end = (tr->end + 3) & ~(uint64_t)3; /* tracks are 4-byte aligned */
	*out = tr;
	return NM_OK;
}

static nm_status parse_anod(ga_parser *p, ga_target *g, uint32_t index, uint64_t at)
{
	ga_anim *a = p->a;
	nm_view *v = &p->v;
	char block[32];
	snprintf(block, sizeof block, "anod %u", index);
	g->at = g->end = at;
	nm_status s = ga_record_head(p, g, block, at, ANOD_LEN, "anod", "the 0x1c-byte bone entry");
	if (s != NM_OK)
		return s;
	g->bone = nm_u16(v, at + 4);
	if (a->version > 4) {
		g->rot_flag = nm_u8(v, at + 6);
		g->unknown_v5 = nm_u8(v, at + 7);
	} else {
		g->rot_flag = nm_u16(v, at + 6);
	}
	g->ntracks = GA_MAX_TRACKS;
	g->end = at + ANOD_LEN;
	for (unsigned k = 0; k < GA_MAX_TRACKS; k++) {
		g->track_off[k] = nm_u16(v, at + 8 + 2 * k);
		if (g->track_off[k] == 0)
			continue;
		uint64_t t_at = at + g->track_off[k];
		nm_status s = a->version > 4 ? track_v5(p, g, block, t_at, k, &g->track[k])
					     : track_v3(p, g, block, t_at, k, &g->track[k]);
		if (s != NM_OK)
			return s;
		if (g->track[k]->end > g->end)
			g->end = g->track[k]->end;
		a->ntracks++;
		a->nkeys += g->track[k]->count;
	}
	g->ok = true;
	return NM_OK;
}

nm_status ga_parse_csab(nm_reader *r, nm_tree *t, ga_anim *a, nm_error *err)
{
	ga_parser p;
	nm_status s = ga_parser_open(&p, r, t, a, GA_CSAB, "csab header", err);
	if (s != NM_OK)
		return s;
	nm_view *v = &p.v;
	a->version = ga_has(&p, 0, 0x10) ? nm_u32(v, 0x08) : 0;
	size_t head = a->version > 4 ? 0x24 : 0x18;
	if (!ga_has(&p, 0, head)) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "csab header", 0, "the file ends inside "
			       "the 0x%zx-byte header of a version %u file (0x%zx bytes)", head,
			       a->version, v->size);
	}
	a->size_field = nm_u32(v, 0x04);
	a->unknown_0c = nm_u32(v, 0x0C);
	if (a->version > 4)
		for (int k = 0; k < 3; k++)
			a->v5_floats[k] = nm_f32(v, 0x10 + 4 * (size_t)k);
	a->anim_count = nm_u32(v, head - 8);
	a->anim_off = nm_u32(v, head - 4);
	uint64_t an = a->anim_off;
	const char *bad = NULL;
	if (a->anim_count == 0)
		bad = "the file holds no animation (count 0)";
	else if (!ga_has(&p, an, ANIM_LEN))
		bad = "the animation header runs past the end of the file";
	if (bad) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "csab header", head - 8, "%s (animation "
			       "offset 0x%llx, file 0x%zx bytes)", bad, (unsigned long long)an, v->size);
	}
	a->duration = nm_u32(v, an + 0x10);
	a->loop = nm_u32(v, an + 0x14);
	uint32_t nanod = nm_u32(v, an + 0x18), nbones = nm_u32(v, an + 0x1C);
	uint64_t table = an + ANIM_LEN;
	a->anod_table = (table + 2 * (uint64_t)nbones + 3) & ~(uint64_t)3;
	if (!ga_has(&p, table, 2 * (uint64_t)nbones) ||
	    !ga_has(&p, a->anod_table, 4 * (uint64_t)nanod)) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "animation", an + 0x18, "a bone table of "
			       "%u entries and %u anod offsets run past the end of the file (0x%zx "
			       "bytes)", nbones, nanod, v->size);
	}
	a->bone_table = nm_tree_alloc_array(t, nbones ? nbones : 1, sizeof *a->bone_table);
	a->targets = nm_tree_alloc_array(t, nanod ? nanod : 1, sizeof *a->targets);
	if (!a->bone_table || !a->targets) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_NOMEM, a->file, NULL, NM_NO_OFFSET, "out of memory");
	}
	a->nbones = nbones;
	for (uint32_t i = 0; i < nbones; i++)
		a->bone_table[i] = nm_s16(v, table + 2 * (uint64_t)i);
	a->ntargets = nanod;
	for (uint32_t i = 0; i < nanod; i++) {
		uint64_t off = an + nm_u32(v, a->anod_table + 4 * (uint64_t)i);
		if (parse_anod(&p, &a->targets[i], i, off) == NM_E_NOMEM) {
			ga_parser_close(&p);
			return nm_fail(err, NM_E_NOMEM, a->file, NULL, NM_NO_OFFSET, "out of memory");
		}
	}
	ga_parser_close(&p);
	return NM_OK;
}
