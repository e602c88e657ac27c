/* INF1: load flags, counts and the scene graph (FORMATS.md 3.2), and the relations the
 * graph defines: joint parents and shape materials (j3d_link). */
#include <stdlib.h>
#include <string.h>
#include "formats/j3d/j3d.h"

nm_status j3d_parse_inf1(j3d_model *m, const j3d_chunk *c, j3d_inf1 *f, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x18, "INF1 header", &v, err);
	if (s != NM_OK)
		return s;
	f->flags = nm_u16(&v, 0x08);
	f->packets = nm_u32(&v, 0x0C);
	f->vertices = nm_u32(&v, 0x10);
	f->hier_off = nm_u32(&v, 0x14);
	nm_view_free(&v);
	if (f->hier_off < 0x18 || f->hier_off > c->size)
		return j3d_chunk_fail(c, m, err, 0x14,
				      "hierarchy offset 0x%x is outside the chunk (0x18..0x%x)",
				      f->hier_off, c->size);
	size_t max = (c->size - f->hier_off) / 4;
	s = j3d_load(m, c, f->hier_off, (uint64_t)max * 4, "hierarchy", &v, err);
	if (s != NM_OK)
		return s;
	f->nodes = nm_tree_alloc_array(m->t, max ? max : 1, sizeof *f->nodes);
	if (!f->nodes) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	}
	uint32_t depth = 0;
	for (size_t i = 0; i < max; i++) {
		uint16_t type = nm_u16(&v, 4 * i), index = nm_u16(&v, 4 * i + 2);
		if (type == J3D_N_END) {
			f->terminated = true;
			break;
		}
		if (type == J3D_N_CLOSE && depth > 0)
			depth--;
		f->nodes[f->nnodes++] = (j3d_hnode){ .type = type, .index = index, .depth = depth };
		if (type == J3D_N_OPEN)
			depth++;
	}
	nm_view_free(&v);
	return NM_OK;
}

/* Parent of each joint = the nearest joint above it in the graph; material of each shape
 * = the nearest material above it. When an index occurs twice the first occurrence
 * wins, which also rules out cycles: a parent always occurs before its child. World
 * matrices follow in order of first occurrence, so a parent's is ready first. */
void j3d_link(j3d_model *m)
{
	size_t nj = m->jnt1 ? m->jnt1->count : 0, ns = m->shp1 ? m->shp1->count : 0;
	j3d_joint *joints = m->jnt1 ? m->jnt1->joints : NULL;
	j3d_shp1_layout(m);
	for (size_t i = 0; i < nj; i++) {
		joints[i].parent = -1;
		j3d_joint_local(&joints[i], joints[i].local);
		memcpy(joints[i].world, joints[i].local, sizeof joints[i].world);
	}
	if (!m->inf1)
		return;
	const j3d_inf1 *f = m->inf1;
	int *joint_stack = calloc(f->nnodes + 1, sizeof *joint_stack);
	int *mat_stack = calloc(f->nnodes + 1, sizeof *mat_stack);
	uint32_t *order = calloc(nj ? nj : 1, sizeof *order);
	bool *seen = calloc(nj ? nj : 1, sizeof *seen), *shape_seen = calloc(ns ? ns : 1, 1);
	if (!joint_stack || !mat_stack || !order || !seen || !shape_seen)
		goto done;
	size_t sp = 0, norder = 0;
	int cur_joint = -1, cur_mat = -1;
	const j3d_hnode *prev = NULL;
	for (size_t i = 0; i < f->nnodes; i++) {
		const j3d_hnode *n = &f->nodes[i];
		switch (n->type) {
		case J3D_N_OPEN:
			joint_stack[sp] = cur_joint;
			mat_stack[sp] = cur_mat;
			sp++;
			if (prev && prev->type == J3D_N_JOINT)
				cur_joint = prev->index;
			if (prev && prev->type == J3D_N_MATERIAL)
				cur_mat = prev->index;
			break;
		case J3D_N_CLOSE:
			if (sp > 0) {
				sp--;
				cur_joint = joint_stack[sp];
				cur_mat = mat_stack[sp];
			}
			break;
		case J3D_N_JOINT:
			if (n->index < nj && !seen[n->index]) {
				seen[n->index] = true;
				/* cur_joint came from an earlier node, so it is never this one */
				joints[n->index].parent = cur_joint < (int)nj ? cur_joint : -1;
				order[norder++] = n->index;
			}
			prev = n;
			break;
		case J3D_N_SHAPE:
			if (n->index < ns && !shape_seen[n->index]) {
				shape_seen[n->index] = true;
				m->shp1->shapes[n->index].material = cur_mat;
			}
			prev = n;
			break;
		default:
			prev = n;
			break;
		}
	}
	for (size_t k = 0; k < norder; k++) {
		j3d_joint *j = &joints[order[k]];
		if (j->parent >= 0)
			j3d_mat_mul(joints[j->parent].world, j->local, j->world);
	}
	j3d_rule_worlds(m);
done:
	free(joint_stack);
	free(mat_stack);
	free(order);
	free(seen);
	free(shape_seen);
}
