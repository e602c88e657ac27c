/* CMAB, Grezzo's material animation (FORMATS.md 10.12): a 0x20-byte header, one
 * animation (duration, loop, the `mads` list of `mmad` entries, an optional `txpt`
 * texture list), the `strt` string table and the textures' bytes. */
#include <string.h>
#include "formats/grezzo_anim/parse_keys.h"

#define HEADER_LEN 0x20
#define ANIM_LEN 0x14
#define TRACK_HEADER 0x10
#define TXPT_ENTRY 0x18

/* A track: 16 bytes of header in one of two forms, then keys. OoT3D writes u32 type,
 * u32 count, u32 start, u32 end; MM3D u16 type, u16 count, u16 start, u16 end, f32,
 * u32. A type below 0x10000 in the first u32 is the long form: the short form's count
 * fills the upper half (a short track of no keys reads as long: harmless, the keys'
 * range check then fails or finds none). */
static nm_status parse_track(ga_parser *p, ga_target *g, const char *block, uint64_t at,
			     ga_track **out)
{
	nm_view *v = &p->v;
	nm_status s;
	if (!ga_has(p, at, TRACK_HEADER))
		return ga_target_fail(p, g, block, at, "the 16-byte track header runs past the end "
				      "of the file (0x%zx bytes)", v->size);
	uint32_t first = nm_u32(v, at);
	bool short_form = first >= 0x10000;
	uint32_t type = short_form ? nm_u16(v, at) : first;
	uint32_t count = short_form ? nm_u16(v, at + 2) : nm_u32(v, at + 4);
	uint64_t stride = type == 2 ? 16 : 8;
	if (type < 1 || type > 3)
		return ga_target_fail(p, g, block, at, "track type %u is not 1 (linear), 2 (Hermite) "
				      "or 3 (step)", type);
	ga_track *tr = ga_track_new(p, g, block, at, at + TRACK_HEADER, count, stride, &s);
	if (!tr)
		return s;
	tr->type = type;
	tr->interp = type == 1 ? NM_INTERP_LINEAR : type == 2 ? NM_INTERP_HERMITE : NM_INTERP_STEP;
	tr->hermite_tangents = type == 2;
	if (short_form) {
		tr->form = GA_FORM_SHORT;
		tr->start = nm_u16(v, at + 4);
		tr->end_frame = nm_u16(v, at + 6);
		tr->scale = nm_f32(v, at + 8);
		tr->unknown = nm_u32(v, at + 12);
		p->a->short_tracks = true;
	} else {
		tr->form = GA_FORM_LONG;
		tr->start = nm_s32(v, at + 8);
		tr->end_frame = nm_u32(v, at + 12);
		p->a->long_tracks = true;
	}
	for (uint32_t k = 0; k < count; k++) {
		uint64_t o = at + TRACK_HEADER + k * stride;
		nm_key *key = &tr->keys[k];
		key->time = (float)nm_s32(v, o);
		key->value = nm_f32(v, o + 4);
		if (type == 2) {
			key->tan_in = nm_f32(v, o + 8);
			key->tan_out = nm_f32(v, o + 12);
		}
	}
	*out = tr;
	return NM_OK;
}

/* Where a type's track offsets start and how many there are. Types 3 and 5 are known
 * from one source each [L]: type 3 has no channel field (M-1's template), type 5 has
 * a channel and one rotation track (noclip). */
static bool type_layout(uint32_t type, unsigned *n, size_t *first, bool *channel)
{
	static const unsigned counts[6] = { 0, 2, 1, 3, 4, 1 };
	if (type < 1 || type > 5)
		return false;
	*n = counts[type];
	*channel = type != 3;
	*first = *channel ? 0x10 : 0x0C;
	return true;
}

static nm_status parse_mmad(ga_parser *p, ga_target *g, uint32_t index, uint64_t at)
{
	nm_view *v = &p->v;
	char block[32];
	snprintf(block, sizeof block, "mmad %u", index);
	g->at = g->end = at;
	nm_status s = ga_record_head(p, g, block, at, 0x10, "mmad", "the entry's header");
	if (s != NM_OK)
		return s;
	g->type = nm_u32(v, at + 4);
	g->material = nm_u32(v, at + 8);
	size_t first;
	if (!type_layout(g->type, &g->ntracks, &first, &g->has_channel))
		return ga_target_fail(p, g, block, at + 4, "animation type %u is not one of 1-5 "
				      "(FORMATS.md 10.12): its tracks are not read", g->type);
	if (g->has_channel)
		g->channel = nm_u32(v, at + 0x0C);
	size_t head = (first + 2 * g->ntracks + 3) & ~(size_t)3;
	if (!ga_has(p, at, head))
		return ga_target_fail(p, g, block, at, "the entry's 0x%zx-byte header runs past the "
				      "end of the file (0x%zx bytes)", head, v->size);
	g->end = at + head;
	for (unsigned k = 0; k < g->ntracks; k++) {
		g->track_off[k] = nm_u16(v, at + first + 2 * k);
		if (g->track_off[k] == 0)
			continue;
		nm_status s = parse_track(p, g, block, at + g->track_off[k], &g->track[k]);
		if (s != NM_OK)
			return s;
		if (g->track[k]->end > g->end)
			g->end = g->track[k]->end;
		p->a->ntracks++;
		p->a->nkeys += g->track[k]->count;
	}
	g->ok = true;
	return NM_OK;
}

/* strt: FourCC, u32 count, u32 offsets relative to the end of the offset table, then
 * NUL-terminated strings. */
static nm_status parse_strt(ga_parser *p)
{
	ga_anim *a = p->a;
	nm_view *v = &p->v;
	ga_target fail = { 0 };
	uint64_t at = a->strt_off;
	nm_status s = ga_record_head(p, &fail, "strt", at, 8, "strt", "the string table's header");
	uint32_t n = s == NM_OK ? nm_u32(v, at + 4) : 0;
	if (s == NM_OK && !ga_has(p, at + 8, (uint64_t)n * 4))
		s = ga_target_fail(p, &fail, "strt", at + 4, "a table of %u string offsets runs past "
				   "the end of the file (0x%zx bytes)", n, v->size);
	if (s != NM_OK) {
		a->strt_error = fail.error;
		return fail.error ? NM_OK : NM_E_NOMEM;
	}
	a->strings = nm_tree_alloc_array(p->t, n ? n : 1, sizeof *a->strings);
	if (!a->strings)
		return NM_E_NOMEM;
	uint64_t base = at + 8 + (uint64_t)n * 4, copied = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t o = base + nm_u32(v, at + 8 + 4 * (uint64_t)i);
		const uint8_t *str = o < v->size ? v->data + o : NULL;
		const uint8_t *nul = str ? memchr(str, 0, v->size - o) : NULL;
		/* Strings that share bytes would be copied once each: a hostile table of
		 * offsets to one long string is refused once the copies outgrow the file. */
		if (nul)
			copied += (uint64_t)(nul - str) + 1;
		if (!nul || copied > v->size) {
			ga_target_fail(p, &fail, "strt", at + 8 + 4 * (uint64_t)i, nul ? "string %u at "
				       "0x%llx overlaps others: the strings add up to more bytes than "
				       "the file" : "string %u at 0x%llx does not end inside the file",
				       i, (unsigned long long)o);
			a->strt_error = fail.error;
			return fail.error ? NM_OK : NM_E_NOMEM;
		}
		a->strings[i] = nm_tree_strndup(p->t, str, (size_t)(nul - str));
		if (!a->strings[i])
			return NM_E_NOMEM;
		a->nstrings = i + 1; /* the strings read so far, should a later one fail */
	}
	a->strt_ok = true;
	return NM_OK;
}

/* txpt: FourCC, u16 count, u16 unknown, 0x18-byte texture entries. */
static nm_status parse_txpt(ga_parser *p)
{
	ga_anim *a = p->a;
	nm_view *v = &p->v;
	ga_target fail = { 0 };
	uint64_t at = a->txpt_off;
	nm_status s = ga_record_head(p, &fail, "txpt", at, 8, "txpt", "the texture list's header");
	uint16_t n = s == NM_OK ? nm_u16(v, at + 4) : 0;
	if (s == NM_OK && !ga_has(p, at + 8, (uint64_t)n * TXPT_ENTRY))
		s = ga_target_fail(p, &fail, "txpt", at + 4, "a table of %u textures of 0x18 bytes "
				   "runs past the end of the file (0x%zx bytes)", n, v->size);
	if (s != NM_OK) {
		a->txpt_error = fail.error;
		return fail.error ? NM_OK : NM_E_NOMEM;
	}
	a->txpt_unknown = nm_u16(v, at + 6);
	a->textures = nm_tree_alloc_array(p->t, n ? n : 1, sizeof *a->textures);
	if (!a->textures)
		return NM_E_NOMEM;
	a->ntextures = n;
	for (uint16_t i = 0; i < n; i++) {
		ga_texture *x = &a->textures[i];
		uint64_t e = x->at = at + 8 + (uint64_t)i * TXPT_ENTRY;
		x->size = nm_u32(v, e);
		x->mips = nm_u16(v, e + 4);
		x->etc1 = nm_u8(v, e + 6);
		x->cube = nm_u8(v, e + 7);
		x->width = nm_u16(v, e + 8);
		x->height = nm_u16(v, e + 10);
		x->gl_format = nm_u16(v, e + 12);
		x->data_type = nm_u16(v, e + 14);
		x->data_offset = nm_u32(v, e + 16);
		x->name_index = nm_u32(v, e + 20);
		x->name = x->name_index < a->nstrings ? a->strings[x->name_index] : NULL;
	}
	a->txpt_ok = true;
	return NM_OK;
}

static nm_status parse_mads(ga_parser *p, nm_error *err)
{
	ga_anim *a = p->a;
	nm_view *v = &p->v;
	uint64_t at = a->mads_off;
	if (!ga_has(p, at, 8))
		return nm_fail(err, NM_E_FORMAT, a->file, "mads", at, "the entry list's header runs "
			       "past the end of the file (0x%zx bytes)", v->size);
	const uint8_t *magic = nm_bytes(v, at, 4);
	/* Every file has the list right after the 0x14-byte animation header, and every
	 * game file's offset says so; a randomizer's (MM3D Randomizer's
	 * zelda_gi_ocarina.cmab: 0x20, at its first mmad) does not. The list is read where
	 * it is, and header.txt says what the offset was. */
	uint64_t after = (uint64_t)a->anim_off + ANIM_LEN;
	if (memcmp(magic, "mads", 4) != 0 && at != after && ga_has(p, after, 8) &&
	    memcmp(nm_bytes(v, after, 4), "mads", 4) == 0) {
		a->mads_field = (uint32_t)at;
		a->mads_off = (uint32_t)after;
		at = after;
		magic = nm_bytes(v, at, 4);
	}
	if (memcmp(magic, "mads", 4) != 0)
		return nm_fail(err, NM_E_FORMAT, a->file, "mads", at, "expected the magic \"mads\", "
			       "found %02x %02x %02x %02x", magic[0], magic[1], magic[2], magic[3]);
	uint32_t n = nm_u32(v, at + 4);
	if (!ga_has(p, at + 8, (uint64_t)n * 4))
		return nm_fail(err, NM_E_FORMAT, a->file, "mads", at + 4, "a table of %u entry "
			       "offsets runs past the end of the file (0x%zx bytes)", n, v->size);
	a->targets = nm_tree_alloc_array(p->t, n ? n : 1, sizeof *a->targets);
	if (!a->targets)
		return nm_fail(err, NM_E_NOMEM, a->file, NULL, NM_NO_OFFSET, "out of memory");
	a->ntargets = n;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = at + nm_u32(v, at + 8 + 4 * (uint64_t)i);
		if (parse_mmad(p, &a->targets[i], i, off) == NM_E_NOMEM)
			return nm_fail(err, NM_E_NOMEM, a->file, NULL, NM_NO_OFFSET, "out of memory");
	}
	return NM_OK;
}

nm_status ga_parse_cmab(nm_reader *r, nm_tree *t, ga_anim *a, nm_error *err)
{
	ga_parser p;
	nm_status s = ga_parser_open(&p, r, t, a, GA_CMAB, "cmab header", err);
	if (s != NM_OK)
		return s;
	nm_view *v = &p.v;
	if (!ga_has(&p, 0, HEADER_LEN)) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "cmab header", 0, "the file ends inside "
			       "the 0x20-byte header (0x%zx bytes)", v->size);
	}
	a->version = nm_u32(v, 0x04);
	a->size_field = nm_u32(v, 0x08);
	a->unknown_0c = nm_u32(v, 0x0C);
	a->anim_count = nm_u32(v, 0x10);
	a->anim_off = nm_u32(v, 0x14);
	a->strt_off = nm_u32(v, 0x18);
	a->texdata_off = nm_u32(v, 0x1C);
	uint64_t an = a->anim_off;
	if (a->anim_count == 0 || !ga_has(&p, an, ANIM_LEN)) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "cmab header", a->anim_count ? 0x14 : 0x10,
			       a->anim_count ? "the animation at 0x%llx runs past the end of the file"
			       : "the file holds no animation (count 0; offset 0x%llx)",
			       (unsigned long long)an);
	}
	a->cmab_tag = nm_s32(v, an);
	a->duration = nm_u32(v, an + 4);
	a->loop = nm_u32(v, an + 8);
	a->mads_off = (uint32_t)(an + nm_u32(v, an + 12)); /* both < 2^32, the sum checked below */
	uint32_t txpt_rel = nm_u32(v, an + 16);
	if (an + nm_u32(v, an + 12) > UINT32_MAX || an + txpt_rel > UINT32_MAX) {
		ga_parser_close(&p);
		return nm_fail(err, NM_E_FORMAT, a->file, "animation", an, "its mads or txpt offset "
			       "points past 4 GiB");
	}
	a->txpt_off = txpt_rel ? (uint32_t)(an + txpt_rel) : 0;
	s = NM_OK;
	if (a->strt_off)
		s = parse_strt(&p);
	if (s == NM_OK && a->txpt_off)
		s = parse_txpt(&p);
	if (s == NM_E_NOMEM)
		s = nm_fail(err, NM_E_NOMEM, a->file, NULL, NM_NO_OFFSET, "out of memory");
	if (s == NM_OK)
		s = parse_mads(&p, err);
	ga_parser_close(&p);
	return s;
}
