/* Tree of the scene graph and skinning chunks: inf1/, evp1/, drw1/, jnt1/. All of it is
 * record-sized text, formatted at mount. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/j3d/j3d.h"
#include "lib/names.h"

#define NOMEM NM_E_NOMEM

static nm_status add_text(nm_tree *t, nm_node *dir, const char *name, nm_out *o)
{
	nm_node *n = nm_text(t, dir, name, o);
	nm_out_free(o);
	return n ? NM_OK : NOMEM;
}

static const char *joint_name(const j3d_model *m, uint32_t i)
{
	if (!m->jnt1 || i >= m->jnt1->count || !m->jnt1->joints[i].name)
		return NULL;
	return m->jnt1->joints[i].name;
}

static void matrix_rows(nm_out *o, const char *key, const float *mx)
{
	for (int r = 0; r < 3; r++) {
		char k[64];
		snprintf(k, sizeof k, "%s_row%d", key, r);
		nm_kv_floats(o, k, mx + 4 * r, 4);
	}
}

/* ---- inf1 ---- */

nm_status j3d_tree_inf1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	static const char *const rules[3] = { "BASIC", "SOFTIMAGE", "MAYA" };
	const j3d_inf1 *f = m->inf1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "load_flags", "0x%04x", f->flags);
	nm_kv_enum(&o, "matrix_scaling_rule", NM_NAME(rules, f->flags & 15), f->flags & 15);
	nm_kv(&o, "matrix_groups", "%u", f->packets);
	nm_kv(&o, "vertices", "%u", f->vertices);
	nm_kv(&o, "hierarchy_offset", "0x%x", f->hier_off);
	nm_kv(&o, "hierarchy_nodes", "%zu", f->nnodes);
	if (!f->terminated)
		nm_kv_str(&o, "note", "the hierarchy has no end node before the chunk end");
	nm_status s = add_text(t, c->dir, "header.txt", &o);
	if (s != NM_OK)
		return s;

	nm_out_init(&o);
	for (size_t i = 0; i < f->nnodes; i++) {
		const j3d_hnode *n = &f->nodes[i];
		if (n->type == J3D_N_OPEN || n->type == J3D_N_CLOSE)
			continue;
		for (uint32_t d = 0; d < n->depth && !o.failed; d++)
			nm_out_str(&o, "  ");
		const char *name = NULL;
		bool exists = true;
		switch (n->type) {
		case J3D_N_JOINT:
			nm_out_printf(&o, "joint %u", n->index);
			name = joint_name(m, n->index);
			exists = !m->jnt1 || n->index < m->jnt1->count;
			break;
		case J3D_N_MATERIAL:
			nm_out_printf(&o, "material %u", n->index);
			if (m->mat3 && n->index < m->mat3->count)
				name = m->mat3->mats[n->index].name;
			exists = !m->mat3 || n->index < m->mat3->count;
			break;
		case J3D_N_SHAPE:
			nm_out_printf(&o, "shape %u", n->index);
			exists = !m->shp1 || n->index < m->shp1->count;
			break;
		default:
			nm_out_printf(&o, "node 0x%04x %u", n->type, n->index);
			break;
		}
		if (name) {
			char *safe = nm_safe_name(name, strlen(name));
			nm_out_printf(&o, " %s", safe ? safe : "?");
			free(safe);
		}
		if (!exists)
			nm_out_str(&o, " (no such record)");
		nm_out_char(&o, '\n');
	}
	return add_text(t, c->dir, "hierarchy.txt", &o);
}

/* ---- evp1 ---- */

nm_status j3d_tree_evp1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	const j3d_evp1 *e = m->evp1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "envelopes", "%u", e->count);
	nm_kv(&o, "influences", "%u", e->total);
	nm_kv(&o, "inverse_bind_matrices", "%u", e->nibm);
	nm_kv(&o, "weight_count_offset", "0x%x", e->off_counts);
	nm_kv(&o, "joint_index_offset", "0x%x", e->off_joints);
	nm_kv(&o, "weight_offset", "0x%x", e->off_weights);
	nm_kv(&o, "inverse_bind_offset", "0x%x", e->off_ibm);
	nm_status s = add_text(t, c->dir, "header.txt", &o);
	if (s != NM_OK)
		return s;

	static const char *const cols[] = { "envelope", "joint", "weight" };
	nm_out_init(&o);
	nm_csv_header(&o, cols, 3);
	for (uint16_t i = 0; i < e->count; i++)
		for (uint32_t k = 0; k < e->counts[i]; k++) {
			uint32_t at = e->first[i] + k;
			nm_csv_uint(&o, i, 5);
			nm_out_char(&o, ',');
			nm_csv_uint(&o, e->joints[at], 5);
			nm_out_char(&o, ',');
			nm_csv_float(&o, e->weights[at]);
			nm_out_char(&o, '\n');
		}
	s = add_text(t, c->dir, "envelopes.csv", &o);
	if (s != NM_OK)
		return s;

	nm_node *dir = nm_dir(t, c->dir, "inverse_bind");
	if (!dir)
		return NOMEM;
	for (uint32_t i = 0; i < e->nibm; i++) {
		char name[32];
		nm_out_init(&o);
		nm_kv(&o, "joint", "%u", i);
		const char *jn = joint_name(m, i);
		if (jn)
			nm_kv_str(&o, "joint_name", jn);
		matrix_rows(&o, "matrix", e->ibm[i]);
		snprintf(name, sizeof name, "%u.txt", i);
		if ((s = add_text(t, dir, name, &o)) != NM_OK)
			return s;
	}
	return NM_OK;
}

/* ---- drw1 ---- */

nm_status j3d_tree_drw1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	const j3d_drw1 *d = m->drw1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "count", "%u", d->count);
	nm_kv(&o, "kind_offset", "0x%x", d->off_kinds);
	nm_kv(&o, "index_offset", "0x%x", d->off_params);
	nm_status s = add_text(t, c->dir, "header.txt", &o);
	if (s != NM_OK)
		return s;
	static const char *const cols[] = { "entry", "kind", "index" };
	nm_out_init(&o);
	nm_csv_header(&o, cols, 3);
	for (uint16_t i = 0; i < d->count; i++) {
		nm_csv_uint(&o, i, 5);
		nm_out_printf(&o, ",%8s,", d->kinds[i] == 0 ? "joint" : d->kinds[i] == 1
					    ? "envelope" : "unknown");
		nm_csv_uint(&o, d->params[i], 5);
		nm_out_char(&o, '\n');
	}
	return add_text(t, c->dir, "entries.csv", &o);
}

/* ---- jnt1 ---- */

/* jnt1/joints/N.txt over a view of the JNT1 chunk: the stored fields of the joint's
 * entry (FORMATS.md 3.5) read back into it; index, entry, name, parent and the matrices
 * come from elsewhere or are computed (the matrices from the values as parsed). */
static void joint_record(nm_rec *r, j3d_model *m, uint32_t i)
{
	const j3d_joint *j = &m->jnt1->joints[i];
	size_t o = m->jnt1->off_entries + (size_t)j->entry * 0x40;
	nm_rec_derived(r, "index", "%u", i);
	if (j->name)
		nm_rec_derived_str(r, "name", j->name);
	nm_rec_derived(r, "entry", "%u", j->entry);
	nm_rec_hex(r, "flags", o, NM_FIELD_U16, 4);
	nm_rec_hex(r, "calc_flags", o + 2, NM_FIELD_U8, 2);
	nm_rec_floats(r, "scale", o + 0x04, 3);
	nm_rec_scaled(r, "rotation_degrees", o + 0x10, NM_FIELD_S16, 3, 180.0, 32768.0);
	nm_rec_ints(r, "rotation_raw", o + 0x10, NM_FIELD_S16, 3);
	nm_rec_floats(r, "translation", o + 0x18, 3);
	nm_rec_floats(r, "bounding_radius", o + 0x24, 1);
	nm_rec_floats(r, "bbox_min", o + 0x28, 3);
	nm_rec_floats(r, "bbox_max", o + 0x34, 3);
	nm_rec_derived(r, "parent", "%d", j->parent);
	if (j->parent >= 0 && m->jnt1->joints[j->parent].name)
		nm_rec_derived_str(r, "parent_name", m->jnt1->joints[j->parent].name);
	static const char *const rows[2][3] = {
		{ "local_matrix_row0", "local_matrix_row1", "local_matrix_row2" },
		{ "world_matrix_row0", "world_matrix_row1", "world_matrix_row2" } };
	for (int k = 0; k < 3; k++)
		nm_rec_derived_floats(r, rows[0][k], j->local + 4 * k, 4);
	for (int k = 0; k < 3; k++)
		nm_rec_derived_floats(r, rows[1][k], j->world + 4 * k, 4);
}

nm_status j3d_tree_jnt1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	const j3d_jnt1 *J = m->jnt1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "count", "%u", J->count);
	nm_kv(&o, "joint_table_offset", "0x%x", J->off_entries);
	nm_kv(&o, "remap_offset", "0x%x", J->off_remap);
	nm_kv(&o, "name_table_offset", "0x%x", J->off_names);
	if (J->names_problem)
		nm_kv_str(&o, "name_table_problem", J->names_problem);
	nm_status s = add_text(t, c->dir, "header.txt", &o);
	if (s != NM_OK)
		return s;
	nm_node *joints = nm_dir(t, c->dir, "joints");
	nm_node *by_name = nm_dir(t, c->dir, "by_name");
	if (!joints || !by_name)
		return NOMEM;
	static const char *const txt[] = { ".txt", NULL };
	/* The joint entries are read from one view of the chunk (records only). */
	nm_view v;
	nm_error err;
	if (nm_view_load(m->r, c->off, c->size, c->magic, NM_BIG, &v, &err) != NM_OK)
		return err.code;
	for (uint16_t i = 0; i < J->count; i++) {
		char name[32];
		j3d_record_ref how = { .m = m, .off = c->off, .len = c->size, .chunk = c->magic,
				       .index = i, .write = joint_record, .after = j3d_joint_edited };
		snprintf(name, sizeof name, "%u.txt", i);
		/* The same text under the joint's name, made safe and unique. */
		const char *raw = J->joints[i].name;
		char fallback[32];
		snprintf(fallback, sizeof fallback, "joint%u", i);
		char *safe = j3d_safe_stem(raw);
		char *stem = nm_unique_stem(t, by_name, safe ? safe : fallback, txt);
		free(safe);
		char *file = stem ? malloc(strlen(stem) + 5) : NULL;
		if (file)
			sprintf(file, "%s.txt", stem);
		free(stem);
		bool ok = file && j3d_record_file(t, by_name, file, &v, &how) &&
			  j3d_record_file(t, joints, name, &v, &how);
		free(file);
		if (!ok) {
			nm_view_free(&v);
			return NOMEM;
		}
	}
	nm_view_free(&v);
	return NM_OK;
}
