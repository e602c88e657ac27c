/* model.glb's layout from counts (gltf_plan.h). */
#include <stdlib.h>
#include <string.h>
#include "export/gltf_plan.h"
#include "lib/alloc.h"

/* Accessors of an owner group, in order: POSITION, NORMAL?, TEXCOORD_0..nuv-1, COLOR_0?,
 * JOINTS_0?, WEIGHTS_0?. */
static size_t vertex_accessors(const nm_obj_group *g, const nm_gltf_group_plan *p)
{
	return 1 + g->has_normals + p->nuv + g->has_colors + 2 * p->skin;
}

bool nm_gltf_material_ok(const nm_gltf_model *m, size_t group)
{
	return m->group_material && m->group_material[group] >= 0 &&
	       (size_t)m->group_material[group] < m->nmaterials;
}

static const nm_gltf_material *material_of(const nm_gltf_model *m, size_t group)
{
	return nm_gltf_material_ok(m, group) ? &m->materials[m->group_material[group]] : NULL;
}

bool nm_gltf_image_ok(const nm_gltf_model *m, const nm_gltf_material *mat)
{
	return mat && mat->image >= 0 && (size_t)mat->image < m->nimages &&
	       m->images[mat->image].size > 0;
}

void nm_gltf_plan_free(nm_gltf_plan *p)
{
	free(p->g);
	free(p->image_of);
	free(p->parent);
	free(p->first_child);
	free(p->next_sibling);
	free(p->helper_node);
	nm_gltf_anim_plan_free(p);
}

void nm_gltf_parents(int32_t *parent, size_t n, uint8_t *state)
{
	for (size_t j = 0; j < n; j++) {
		if (parent[j] < 0 || (size_t)parent[j] >= n || (size_t)parent[j] == j)
			parent[j] = -1;
		state[j] = 0;
	}
	/* Walk up from each joint until a joint already settled or one on the current walk
	 * (a loop: its members become roots). state: 0 new, 1 on this walk, 2 settled. */
	for (size_t j = 0; j < n; j++) {
		size_t b = j;
		while (state[b] == 0) {
			state[b] = 1;
			if (parent[b] < 0)
				break;
			size_t up = (size_t)parent[b];
			if (state[up] == 1) {
				/* A loop from up to b: every member becomes a root. */
				for (size_t c = up; parent[c] >= 0 && state[c] == 1;) {
					size_t next = (size_t)parent[c];
					parent[c] = -1;
					state[c] = 2;
					c = next;
				}
				break;
			}
			b = up;
		}
		for (b = j; state[b] == 1; b = (size_t)parent[b]) {
			state[b] = 2;
			if (parent[b] < 0)
				break;
		}
	}
}

/* The hierarchy as written: parents without loops, children lists in index order. */
static void plan_hierarchy(const nm_gltf_model *m, nm_gltf_plan *p, uint8_t *state)
{
	size_t n = m->njoints;
	for (size_t j = 0; j < n; j++) {
		p->parent[j] = m->joints[j].parent;
		p->first_child[j] = p->next_sibling[j] = -1;
	}
	nm_gltf_parents(p->parent, n, state);
	size_t roots = 0;
	for (size_t j = n; j-- > 0;)
		if (p->parent[j] >= 0) {
			p->next_sibling[j] = p->first_child[p->parent[j]];
			p->first_child[p->parent[j]] = (int32_t)j;
		} else {
			roots++;
		}
	p->extra_root = roots > 1;
}

nm_status nm_gltf_plan_make(const nm_gltf_model *m, const nm_options *opt, nm_gltf_plan *p,
			    nm_error *err)
{
	const nm_obj_model *om = m->mesh;
	memset(p, 0, sizeof *p);
	p->g = nm_alloc(opt, om->ngroups + 1, sizeof *p->g, err, "model.glb", "groups",
			NM_NO_OFFSET);
	p->image_of = p->g ? nm_alloc(opt, m->nimages + 1, sizeof *p->image_of, err,
				      "model.glb", "images", NM_NO_OFFSET) : NULL;
	size_t nj = m->njoints + 1;
	uint8_t *state = NULL;
	if (p->image_of &&
	    (!(p->parent = nm_alloc(opt, nj, sizeof *p->parent, err, "model.glb", "joints",
				    NM_NO_OFFSET)) ||
	     !(p->first_child = nm_alloc(opt, nj, sizeof *p->first_child, err, "model.glb",
					 "joints", NM_NO_OFFSET)) ||
	     !(p->next_sibling = nm_alloc(opt, nj, sizeof *p->next_sibling, err, "model.glb",
					  "joints", NM_NO_OFFSET)) ||
	     !(p->helper_node = nm_alloc(opt, nj, sizeof *p->helper_node, err, "model.glb",
					 "joints", NM_NO_OFFSET)) ||
	     !(state = nm_alloc(opt, nj, 1, err, "model.glb", "joints", NM_NO_OFFSET)))) {
		nm_gltf_plan_free(p);
		return err->code;
	}
	if (!p->g || !p->image_of) {
		nm_gltf_plan_free(p);
		return err->code;
	}
	plan_hierarchy(m, p, state);
	free(state);
	size_t owner = SIZE_MAX;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		nm_gltf_group_plan *q = &p->g[i];
		if (!g->reuse_vertices)
			owner = i;
		q->owner = owner;
		q->mesh = -1;
		q->own = !g->reuse_vertices && g->nverts > 0 && g->nverts < UINT32_MAX;
		q->draws = owner != SIZE_MAX && p->g[owner].own && g->ntris > 0;
		/* A mesh has at least one primitive: vertices only some group draws. */
		if (q->draws)
			p->g[owner].used = true;
		/* Enough UV sets for the texture of every material drawn with these vertices. */
		const nm_gltf_material *mat = material_of(m, i);
		if (q->draws && nm_gltf_image_ok(m, mat)) {
			unsigned need = (mat->uv < NM_MESH_MAX_UV ? mat->uv : 0) + 1;
			if (p->g[owner].nuv < need)
				p->g[owner].nuv = need;
		}
		if (q->own) {
			q->nuv = g->nuvs > q->nuv ? g->nuvs : q->nuv;
			q->skin = g->has_skin && m->njoints > 0 && m->njoints <= UINT16_MAX;
			p->skinned |= q->skin;
		}
	}
	/* Accessors and BIN offsets in the order the writer writes them: per group, its
	 * vertices (an owner), then its indices. */
	uint64_t bin = 0;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		nm_gltf_group_plan *q = &p->g[i];
		q->own &= q->used;
		if (q->own) {
			q->acc = p->naccessors;
			q->mesh = (int)p->nmeshes++;
			p->naccessors += vertex_accessors(g, q);
			bin += g->nverts * (12 + 12 * g->has_normals + 8 * (uint64_t)q->nuv +
					    16 * g->has_colors + (8 + 16) * q->skin);
		}
		if (q->draws) {
			q->idx_acc = p->naccessors++;
			bin += g->ntris * 12;
		}
	}
	p->ibm_acc = p->naccessors;
	if (p->skinned) {
		p->naccessors++;
		bin += 64 * (uint64_t)m->njoints;
	}
	for (size_t k = 0; k < m->nimages; k++)
		p->image_of[k] = SIZE_MAX;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_gltf_material *mat = material_of(m, i);
		if (p->g[i].draws && nm_gltf_image_ok(m, mat) && p->image_of[mat->image] == SIZE_MAX)
			p->image_of[mat->image] = p->nused_images++;
	}
	for (size_t k = 0; k < m->nimages; k++)
		if (p->image_of[k] != SIZE_MAX)
			bin += (m->images[k].size + 3) & ~(uint64_t)3;
	p->bin_len = bin;
	p->first_mesh_node = m->njoints + p->extra_root;
	p->first_helper_node = p->nnodes = p->first_mesh_node + p->nmeshes;
	for (size_t j = 0; j < m->njoints; j++)
		p->helper_node[j] = m->joints[j].helper ? (int32_t)p->nnodes++ : -1;
	nm_status s = nm_gltf_anim_plan(m, opt, p, err);
	if (s != NM_OK)
		nm_gltf_plan_free(p);
	return s;
}
