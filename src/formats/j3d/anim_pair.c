/* Which J3D animations a model takes: the container layer's rule (nm_pair_animations)
 * with J3D's fit (FORMATS.md 10.9, 10.10). Only headers and record tables are read, at
 * the model's build; keys are read when model.glb is produced (anim_gltf.c). */
#include <string.h>
#include "formats/container/container.h"
#include "formats/j3d/j3d.h"
#include "formats/j3danim/j3danim.h"

/* Whether name is one of m's materials (MAT3), or of the BMT beside it. */
static bool has_material(const j3d_model *m, const char *name)
{
	for (const j3d_model *x = m; x; x = x == m ? m->bmt : NULL)
		for (size_t i = 0; x->mat3 && i < x->mat3->count; i++)
			if (x->mat3->mats[i].name && strcmp(x->mat3->mats[i].name, name) == 0)
				return true;
	return false;
}

/* Exact: a joint table as long as JNT1, a visibility entry per shape, every material
 * name found in MAT3 or the BMT. Loose: a shorter joint table (§10.10: the joints past
 * it keep their bind pose), some names found (the game skips entries naming materials
 * the model lacks). */
static nm_fit fit(void *ctx, const void *model, const void *anim, const char **why)
{
	(void)ctx;
	const j3d_model *m = model;
	const j3danim *a = anim;
	size_t joints = m->jnt1 ? m->jnt1->count : 0, shapes = m->shp1 ? m->shp1->count : 0;
	size_t found = 0;
	switch (a->kind) {
	case J3DANIM_BCK:
	case J3DANIM_BCA:
		*why = !a->ntargets ? "it animates no joint"
		       : "it has more joint entries than the model has joints";
		return !a->ntargets || a->ntargets > joints ? NM_NO_FIT
		       : a->ntargets == joints ? NM_EXACT_FIT : NM_LOOSE_FIT;
	case J3DANIM_BVA:
		*why = "its shape count differs from the model's";
		return a->ntargets == shapes ? NM_EXACT_FIT : NM_NO_FIT;
	case J3DANIM_BLK:
	case J3DANIM_BLA:
		*why = "cluster (blend shape) animations drive data BMD/BDL files do not hold";
		return NM_NO_FIT;
	default:
		for (size_t i = 0; i < a->ntargets; i++)
			found += a->targets[i].name && has_material(m, a->targets[i].name);
		*why = "it names none of the model's materials";
		return !found ? NM_NO_FIT : found == a->ntargets ? NM_EXACT_FIT : NM_LOOSE_FIT;
	}
}

/* BMD and BDL (a BMT lends its materials to the BMD of its name instead). */
static bool is_model(const uint8_t *head, size_t len)
{
	return j3d_probe_model(head, len) && memcmp(head + 4, "bmt3", 4) != 0;
}

/* Another model's tables, or a BMT's; the MAT3 chunk copy the parse keeps for the
 * material texts is let go at once (fit reads only the names). */
static void *open_model(nm_tree *t, nm_reader *r)
{
	j3d_model *m;
	nm_error e;
	if (j3d_parse_model(t, r, &m, &e) != NM_OK)
		return NULL;
	if (m->mat3)
		nm_view_free(&m->mat3->v);
	return m;
}

static void *open_animation(nm_tree *t, nm_reader *r, nm_error *err)
{
	(void)t;
	j3danim *a = NULL;
	if (j3danim_parse(r, &a, err) == NM_OK)
		return a;
	j3danim_free(a);
	return NULL;
}

static void close_animation(void *a) { j3danim_free(a); }

static const nm_pairing_rules rules = {
	.is_model = is_model, .is_animation = j3danim_probe, .open_model = open_model,
	.open_animation = open_animation, .close_animation = close_animation, .fit = fit,
};

nm_status j3d_pair_animations(j3d_model *m, nm_error *err)
{
	/* Sunshine keeps a model's materials in a BMT of its name beside it (sky.bmd +
	 * sky.bmt): their names count as the model's. */
	const char *stem = nm_path_stem(m->t, m->file);
	char *bmt_name = stem ? nm_tree_printf(m->t, "%s.bmt", stem) : NULL;
	nm_reader *bmt;
	const char *dir;
	if (!bmt_name)
		return nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory");
	if (nm_member_sibling(m->r, bmt_name, &bmt, &dir))
		m->bmt = open_model(m->t, bmt);
	return nm_pair_animations(m->t, m->r, m, &rules, &m->anims, err);
}
