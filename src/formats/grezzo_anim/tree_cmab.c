/* A CMAB's tree:
 *   /mads/  header.txt raw.bin  N_TYPE_material_M[_channel_C]/{header.txt, raw.bin,
 *           TRACK.csv..., sampled.csv}
 *   /txpt/  (tree_txpt.c)
 *   /strt/  header.txt raw.bin strings.txt */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/grezzo_anim/grezzo_anim.h"

/* The sampled.csv columns of each type: its track names in slot order. */
static const unsigned slots[4] = { 0, 1, 2, 3 };

/* For a palette entry: which texture each key switches to. */
static void palette_text(nm_out *o, const ga_anim *a, const ga_track *tr)
{
	nm_out_str(o, "key_textures:");
	for (uint32_t k = 0; k < tr->count; k++) {
		float v = tr->keys[k].value;
		const ga_texture *x = v >= 0 && v < a->ntextures && (float)(int)v == v
				    ? &a->textures[(int)v] : NULL;
		nm_out_str(o, k ? ", " : " ");
		nm_out_float(o, v);
		nm_out_printf(o, "=%s", x && x->name ? x->name : "?");
	}
	nm_out_char(o, '\n');
}

static nm_status target_dir(nm_tree *t, nm_node *mads, ga_anim *a, nm_reader *r, uint32_t i)
{
	const ga_target *g = &a->targets[i];
	const char *type = ga_cmab_type_name(g->type);
	char name[96];
	int len = type ? snprintf(name, sizeof name, "%u_%s_material_%u", i, type, g->material)
		       : snprintf(name, sizeof name, "%u_type_%u_material_%u", i, g->type,
				  g->material);
	if (g->has_channel)
		snprintf(name + len, sizeof name - (size_t)len, "_channel_%u", g->channel);
	nm_node *dir = nm_dir(t, mads, name);
	if (!dir || !ga_raw(t, dir, r, g->at, g->end))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "index", "%u", i);
	nm_kv(&o, "offset", "0x%llx", (unsigned long long)g->at);
	nm_kv_enum(&o, "type", type, g->type);
	nm_kv(&o, "material", "%u", g->material);
	if (g->has_channel)
		nm_kv(&o, "channel", "%u", g->channel);
	else
		nm_kv(&o, "channel", "none (type 3 has no channel field)");
	if (g->ok) {
		ga_tracks_text(&o, a, g);
		if (g->type == 2 && g->track[0] && a->txpt_ok)
			palette_text(&o, a, g->track[0]);
	} else {
		nm_kv_str(&o, "error", g->error ? g->error : "");
	}
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	if (!g->ok)
		return ga_error_file(t, dir, g->error);
	/* The column names live in the arena: sampled.csv's producer reads them later. */
	const char **cols = nm_tree_alloc_array(t, g->ntracks ? g->ntracks : 1, sizeof *cols);
	if (!cols)
		return NM_E_NOMEM;
	for (unsigned k = 0; k < g->ntracks; k++)
		cols[k] = ga_track_name(a, g, k);
	return ga_tree_tracks(t, dir, a, g, cols, slots, g->ntracks);
}

static nm_status tree_mads(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r)
{
	nm_node *dir = nm_dir(t, root, "mads");
	if (!dir || !ga_raw(t, dir, r, a->mads_off, a->mads_off + 8 + 4 * (uint64_t)a->ntargets))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "magic", "mads");
	nm_kv(&o, "offset", "0x%x", a->mads_off);
	nm_kv(&o, "entry_count", "%u", a->ntargets);
	nm_out_str(&o, "entry_offsets:");
	for (uint32_t i = 0; i < a->ntargets; i++)
		nm_out_printf(&o, " 0x%llx", (unsigned long long)(a->targets[i].at - a->mads_off));
	nm_out_char(&o, '\n');
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < a->ntargets; i++) {
		nm_status s = target_dir(t, dir, a, r, i);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}

static nm_status tree_strt(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r)
{
	if (!a->strt_off)
		return NM_OK;
	nm_node *dir = nm_dir(t, root, "strt");
	uint64_t end = a->strt_off + 8 + 4 * (uint64_t)a->nstrings;
	for (uint32_t i = 0; i < a->nstrings; i++)
		end += strlen(a->strings[i]) + 1;
	if (!dir || !ga_raw(t, dir, r, a->strt_off, end))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "magic", "strt");
	nm_kv(&o, "offset", "0x%x", a->strt_off);
	if (a->strt_ok)
		nm_kv(&o, "string_count", "%u", a->nstrings);
	else
		nm_kv_str(&o, "error", a->strt_error ? a->strt_error : "");
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	if (!a->strt_ok)
		return ga_error_file(t, dir, a->strt_error);
	for (uint32_t i = 0; i < a->nstrings; i++) {
		char key[16];
		snprintf(key, sizeof key, "%u", i);
		nm_kv_str(&o, key, a->strings[i]);
	}
	return ga_text(t, dir, "strings.txt", &o) ? NM_OK : NM_E_NOMEM;
}

nm_status ga_tree_cmab(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r)
{
	nm_status s = tree_mads(t, root, a, r);
	if (s == NM_OK)
		s = ga_tree_txpt(t, root, a, r);
	if (s == NM_OK)
		s = tree_strt(t, root, a, r);
	return s;
}
