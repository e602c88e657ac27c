/* Which Grezzo animations a CMB takes: the container layer's rule (nm_pair_animations)
 * with Grezzo's fit. Tables only, at the model's build; anim_gltf.c puts them in the glb. */
#include "formats/cmb/cmb.h"
#include "formats/container/container.h"
#include "formats/grezzo_anim/grezzo_anim.h"

extern const nm_driver nm_driver_cmb, nm_driver_grezzo_anim;

/* Exact: a CSAB's every bone and a CMAB's every material index within the CMB's, and a
 * CSAB's bone count equal to the skeleton's; loose: some of them within. */
static nm_fit fit(void *ctx, const void *model, const void *anim, const char **why)
{
	(void)ctx;
	const cmb_model *m = model;
	const ga_anim *a = anim;
	size_t in = 0;
	for (uint32_t i = 0; i < a->ntargets; i++)
		in += a->kind == GA_CSAB ? a->targets[i].bone < m->nbones
					 : a->targets[i].material < m->nmats;
	*why = a->kind == GA_CSAB ? "it animates none of the model's bones"
				  : "it animates none of the model's materials";
	if (!in)
		return NM_NO_FIT;
	bool all = in == a->ntargets && (a->kind == GA_CMAB || a->nbones == m->nbones);
	return all ? NM_EXACT_FIT : NM_LOOSE_FIT;
}

static bool is_model(const uint8_t *head, size_t len)
{
	return nm_driver_cmb.probe(head, len, 0);
}

static bool is_animation(const uint8_t *head, size_t len)
{
	return nm_driver_grezzo_anim.probe(head, len, 0);
}

/* Another CMB's header, bones and materials: what fit() reads (its tables are the
 * arena's; the chunk copies are let go at once). */
static void *open_model(nm_tree *t, nm_reader *r)
{
	cmb_model *m = nm_tree_alloc(t, sizeof *m);
	nm_error e;
	if (!m)
		return NULL;
	*m = (cmb_model){ .t = t, .r = r, .file = nm_reader_name(r),
			  .file_size = nm_reader_size(r) };
	bool ok = cmb_parse_header(m, &e) == NM_OK && cmb_parse_skl(m) == NM_OK &&
		  cmb_parse_mats(m) == NM_OK;
	cmb_model_free(m);
	return ok ? m : NULL;
}

static void *open_animation(nm_tree *t, nm_reader *r, nm_error *err)
{
	ga_anim *a = nm_tree_alloc(t, sizeof *a);
	if (!a) {
		nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
		return NULL;
	}
	return ga_parse(r, t, a, err) == NM_OK ? a : NULL;
}

/* Its tables are the tree's. */
static void close_animation(void *a) { (void)a; }

static const nm_pairing_rules rules = {
	.is_model = is_model, .is_animation = is_animation, .open_model = open_model,
	.open_animation = open_animation, .close_animation = close_animation, .fit = fit,
};

nm_status cmb_pair_animations(cmb_model *m, nm_error *err)
{
	return nm_pair_animations(m->t, m->r, m, &rules, &m->anims, err);
}
