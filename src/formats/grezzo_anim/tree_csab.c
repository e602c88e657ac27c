/* A CSAB's tree:
 *   /joints/  header.txt (the bone -> anod table) raw.bin (the animation header and tables)
 *   /joints/N/  (N: the anod's bone index) header.txt raw.bin TRACK.csv... sampled.csv
 * sampled.csv has the columns every skeletal animation of the project shares: scale,
 * rotation (degrees), translation, x y z each. */
#include <stdio.h>
#include "export/text.h"
#include "formats/grezzo_anim/grezzo_anim.h"

static const char *const sampled_cols[9] = {
	"scale_x", "scale_y", "scale_z", "rotation_x", "rotation_y", "rotation_z",
	"translation_x", "translation_y", "translation_z"
};
static const unsigned sampled_slot[9] = {
	GA_CSAB_SX, GA_CSAB_SY, GA_CSAB_SZ, GA_CSAB_RX, GA_CSAB_RY, GA_CSAB_RZ,
	GA_CSAB_TX, GA_CSAB_TY, GA_CSAB_TZ
};

static nm_status joint_dir(nm_tree *t, nm_node *joints, ga_anim *a, nm_reader *r, uint32_t i)
{
	const ga_target *g = &a->targets[i];
	char name[48];
	/* A bone animated twice (or an anod whose header is unreadable) goes by its index. */
	if (g->ok)
		snprintf(name, sizeof name, "%u", g->bone);
	if (!g->ok || nm_child(t, joints, name))
		snprintf(name, sizeof name, "anod_%u", i);
	nm_node *dir = nm_dir(t, joints, name);
	if (!dir || !ga_raw(t, dir, r, g->at, g->end))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "anod_index", "%u", i);
	nm_kv(&o, "offset", "0x%llx", (unsigned long long)g->at);
	if (g->ok) {
		nm_kv(&o, "bone", "%u", g->bone);
		nm_kv(&o, "rotations_s16", "%u", g->rot_flag);
		if (a->version > 4)
			nm_kv(&o, "unknown_07", "0x%x", g->unknown_v5);
		ga_tracks_text(&o, a, g);
	} else {
		nm_kv_str(&o, "error", g->error ? g->error : "");
	}
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	if (!g->ok)
		return ga_error_file(t, dir, g->error);
	return ga_tree_tracks(t, dir, a, g, sampled_cols, sampled_slot, 9);
}

nm_status ga_tree_csab(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r)
{
	nm_node *dir = nm_dir(t, root, "joints");
	if (!dir || !ga_raw(t, dir, r, a->anim_off, a->anod_table + 4 * (uint64_t)a->ntargets))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "offset", "0x%x", a->anim_off);
	nm_kv(&o, "anod_count", "%u", a->ntargets);
	nm_kv(&o, "bone_count", "%u", a->nbones);
	nm_out_str(&o, "bone_to_anod:");
	for (uint32_t i = 0; i < a->nbones; i++)
		nm_out_printf(&o, " %d", a->bone_table[i]);
	nm_out_char(&o, '\n');
	nm_kv(&o, "anod_table", "0x%llx", (unsigned long long)a->anod_table);
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < a->ntargets; i++) {
		nm_status s = joint_dir(t, dir, a, r, i);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}
