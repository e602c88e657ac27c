/* A track's keys from the file, and the values the game computes from them
 * (J3DAnimation.cpp: calcTransform, getColor, getTevColorReg, getTexNo, getVisibility,
 * getWeight; FORMATS.md 10.1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formats/j3danim/j3danim.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

const char *j3danim_kind_name(j3danim_kind k)
{
	static const char *const n[J3DANIM_NKINDS] = { "BCK", "BCA", "BTK", "BRK", "BPK",
						       "BTP", "BVA", "BLK", "BLA" };
	return (unsigned)k < J3DANIM_NKINDS ? n[k] : "?";
}

const char *j3danim_loop_name(uint8_t loop)
{
	static const char *const n[5] = { "once", "once_and_reset", "repeat", "mirror_once",
					  "mirror_repeat" };
	return loop < 5 ? n[loop] : NULL;
}

/* ---- keys ------------------------------------------------------------------------------ */

static float element(const uint8_t *p, const j3danim_array *ar)
{
	switch (ar->elem) {
	case 1: return ar->is_signed ? (float)(int8_t)p[0] : (float)p[0];
	case 2: return ar->is_signed ? (float)(int16_t)nm_be16(p) : (float)nm_be16(p);
	default: {
		uint32_t u = nm_be32(p);
		if (!ar->is_float)
			return ar->is_signed ? (float)(int32_t)u : (float)u;
		float f;
		memcpy(&f, &u, sizeof f);
		return f;
	}
	}
}

nm_status j3danim_track_keys(nm_reader *r, const j3danim *a, const j3danim_track *tr,
			     nm_key *keys, nm_error *err)
{
	if (!tr->count)
		return NM_OK;
	const j3danim_array *ar = &a->arrays[tr->array];
	uint8_t *buf;
	nm_status s = nm_reader_load(r, tr->off, (size_t)(tr->elements * ar->elem),
				     a->block_magic, &buf, err);
	if (s != NM_OK)
		return s;
	unsigned per = (unsigned)(tr->elements / tr->count);
	for (size_t i = 0; i < tr->count; i++) {
		const uint8_t *e = buf + (size_t)i * per * ar->elem;
		nm_key *k = &keys[i];
		if (per == 1) {
			*k = (nm_key){ .time = (float)i, .value = element(e, ar) };
			continue;
		}
		k->time = element(e, ar);
		k->value = element(e + ar->elem, ar);
		k->tan_in = element(e + 2 * ar->elem, ar);
		k->tan_out = per == 4 ? element(e + 3 * ar->elem, ar) : k->tan_in;
	}
	free(buf);
	return NM_OK;
}

nm_status j3danim_load_keys(nm_reader *r, j3danim *a, nm_error *err)
{
	uint64_t total = 0;
	for (size_t i = 0; i < a->ntargets; i++)
		for (size_t k = 0; !a->targets[i].problem && k < a->targets[i].ntracks; k++)
			total += a->targets[i].tracks[k].count;
	size_t bytes;
	if (nm_alloc_check(nm_reader_options(r), total, sizeof(nm_key), &bytes) != NM_OK)
		return nm_fail_limit(err, nm_reader_options(r), total * sizeof(nm_key), a->file,
				     a->block_magic, a->block_off);
	nm_key *all = j3danim_alloc(a, total ? total : 1, sizeof *all);
	if (!all)
		return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET,
			       "out of memory");
	for (size_t i = 0; i < a->ntargets; i++) {
		j3danim_target *tg = &a->targets[i];
		for (size_t k = 0; !tg->problem && k < tg->ntracks; k++) {
			j3danim_track *tr = &tg->tracks[k];
			nm_status s = j3danim_track_keys(r, a, tr, all, err);
			if (s != NM_OK)
				return s;
			tr->keys = all;
			all += tr->count;
		}
	}
	return NM_OK;
}

/* ---- samples ----------------------------------------------------------------------------- */

/* Float to s32 as the PowerPC's fctiwz does it: toward zero, saturating, NaN to
 * INT32_MIN (C leaves these cases undefined). */
static int32_t to_s32(float v)
{
	if (v != v || v <= -2147483648.0f)
		return INT32_MIN;
	if (v >= 2147483648.0f)
		return INT32_MAX;
	return (int32_t)v;
}

/* `(s32)v << shift` stored in an s16: slw takes the shift's low 6 bits and gives 0 from
 * 32 on; the s16 keeps the low half, so angles wrap. */
static int16_t shifted_angle(int32_t v, uint8_t shift)
{
	unsigned sh = shift & 63u;
	uint32_t u = sh >= 32 ? 0 : (uint32_t)v << sh;
	return (int16_t)(uint16_t)u;
}

double j3danim_unit_scale(const j3danim *a, const j3danim_track *tr)
{
	if (tr->unit != J3DANIM_ROTATION)
		return 1;
	unsigned sh = tr->full ? 0 : a->shift & 63u;
	return sh >= 32 ? 0 : ldexp(180.0 / 32768.0, (int)sh);
}

/* What an empty track gives (10.1: not the bind pose). */
static float rest(j3danim_unit u)
{
	return u == J3DANIM_SCALE || u == J3DANIM_WEIGHT ? 1.0f : 0.0f;
}

int16_t j3danim_sample_angle(const j3danim *a, const j3danim_track *tr, const nm_key *keys,
			     float frame)
{
	if (!tr->count || !keys)
		return 0;
	if (tr->full) /* BCA: stored angles, no shift */
		return (int16_t)keys[nm_full_index(tr->count, frame)].value;
	if (tr->count == 1)
		return shifted_angle((int32_t)keys[0].value, a->shift);
	float v = nm_keys_sample_j3d(keys, tr->count, NM_J3D_ORDER_S16, frame, 0.0f);
	return shifted_angle(to_s32(v), a->shift);
}

double j3danim_sample(const j3danim *a, const j3danim_track *tr, const nm_key *keys,
		      float frame)
{
	if (tr->unit == J3DANIM_ROTATION)
		return j3danim_sample_angle(a, tr, keys, frame) * (180.0 / 32768.0);
	if (!tr->count || !keys)
		return rest(tr->unit);
	if (tr->full)
		return keys[nm_full_index(tr->count, frame)].value;
	if (tr->count == 1) {
		/* Used raw: an s16 stored into a u8 colour keeps its low byte. */
		if (tr->unit == J3DANIM_COLOR_U8)
			return (uint8_t)(int32_t)keys[0].value;
		return keys[0].value;
	}
	float v = nm_keys_sample_j3d(keys, tr->count, NM_J3D_ORDER_F32, frame, rest(tr->unit));
	if (tr->unit == J3DANIM_COLOR_U8)
		return v < 0.0f ? 0 : v > 255.0f ? 255 : v >= 0.0f ? (double)to_s32(v) : 0;
	if (tr->unit == J3DANIM_COLOR_S10)
		return v < -1024.0f ? -1024 : v > 1023.0f ? 1023
		       : v >= -1024.0f ? (double)to_s32(v) : 0;
	return v;
}

void j3danim_sample_joint(const j3danim *a, const j3danim_target *joint, float frame,
			  j3danim_trs *out)
{
	const j3danim_track *tr = joint->tracks;
	for (int k = 0; k < 3; k++) {
		out->scale[k] = (float)j3danim_sample(a, &tr[k], tr[k].keys, frame);
		out->angle[k] = j3danim_sample_angle(a, &tr[3 + k], tr[3 + k].keys, frame);
		out->rotation[k] = (float)(out->angle[k] * (180.0 / 32768.0));
		out->translation[k] = (float)j3danim_sample(a, &tr[6 + k], tr[6 + k].keys, frame);
	}
}
