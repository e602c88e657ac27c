/* skl/: header.txt, raw.bin, bones/N.txt with each bone's world matrix. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "lib/transform.h"

/* local = T * Rz * Ry * Rx * S: scale first, then rotate about X, Y, Z (the rotation is
 * Euler XYZ in radians, FORMATS.md 4.3), then translate. Row-major, column vectors. */
static void local_matrix(const cmb_bone *b, double out[16])
{
	double rot[3] = { b->rot[0], b->rot[1], b->rot[2] };
	nm_transform_trs(b->scale, rot, b->trans, out);
	out[12] = out[13] = out[14] = 0;
	out[15] = 1;
}

static void mul(const double a[16], const double b[16], double out[16])
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			double s = 0;
			for (int k = 0; k < 4; k++)
				s += a[i * 4 + k] * b[k * 4 + j];
			out[i * 4 + j] = s;
		}
}

/* Parents first, without recursion: walk up from each bone to one already done (or a
 * root), then compose on the way back. A parent out of range or a cycle makes the bone a
 * root (parent_bad). O(bones) time and memory. */
void cmb_compute_world(cmb_model *m)
{
	uint32_t n = m->nbones;
	double *world = malloc(((size_t)n + 1) * 16 * sizeof *world);
	uint8_t *state = calloc((size_t)n + 1, 1);          /* 0 new, 1 on the path, 2 done */
	uint32_t *path = malloc(((size_t)n + 1) * sizeof *path);
	if (!world || !state || !path) {
		/* No memory for the matrices: leave them identity, say nothing worse. */
		for (uint32_t i = 0; i < n; i++) {
			memset(m->bones[i].world, 0, sizeof m->bones[i].world);
			for (int k = 0; k < 4; k++)
				m->bones[i].world[k * 5] = 1;
		}
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		size_t len = 0;
		uint32_t b = i;
		while (state[b] == 0) {
			state[b] = 1;
			path[len++] = b;
			int32_t p = m->bones[b].parent;
			if (p < 0)
				break;
			if ((uint32_t)p >= n || state[p] == 1) {
				m->bones[b].parent_bad = true;
				break;
			}
			b = (uint32_t)p;
		}
		while (len > 0) {
			uint32_t c = path[--len];
			double local[16];
			local_matrix(&m->bones[c], local);
			int32_t p = m->bones[c].parent;
			if (p < 0 || m->bones[c].parent_bad)
				memcpy(world + 16 * (size_t)c, local, sizeof local);
			else
				mul(world + 16 * (size_t)p, local, world + 16 * (size_t)c);
			for (int k = 0; k < 16; k++)
				m->bones[c].world[k] = (float)world[16 * (size_t)c + k];
			state[c] = 2;
		}
	}
out:
	free(world);
	free(state);
	free(path);
}

/* One description writes bones/N.txt and reads an edited copy back (export/record.h):
 * the id and its flags, the parent, scale, rotation and translation are stored; the
 * world matrix follows from them and is read-only. */
static void bone_text(nm_rec *r, const cmb_model *m, uint32_t i)
{
	const cmb_bone *b = &m->bones[i];
	size_t at = 0x10 + (size_t)i * m->L.bone_stride;
	nm_rec_derived(r, "index", "%u", i);
	nm_rec_bits(r, "id", at, NM_FIELD_U16, 0, 12, false);
	nm_rec_bits(r, "id_flags", at, NM_FIELD_U16, 12, 4, true);
	nm_rec_int(r, "parent", at + 2, NM_FIELD_S16);
	if (b->parent_bad)
		nm_rec_derived(r, "parent_error", "bone %d is not in the table or makes a cycle; "
			       "treated as a root", b->parent);
	nm_rec_floats(r, "scale", at + 0x04, 3);
	nm_rec_floats(r, "rotation", at + 0x10, 3);
	nm_rec_floats(r, "translation", at + 0x1C, 3);
	if (m->L.bone_stride >= 0x2C)
		nm_rec_hex(r, "unknown_28", at + 0x28, NM_FIELD_U32, 8);
	for (int k = 0; k < 4; k++) {
		char key[24];
		snprintf(key, sizeof key, "world_matrix_row%d", k);
		nm_rec_derived_floats(r, key, b->world + 4 * k, 4);
	}
}

nm_status cmb_tree_skl(nm_tree *t, nm_node *root, cmb_model *m)
{
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_SKL);
	const cmb_chunk *c = &m->chunk[CMB_SKL];
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (m->bones) {
		nm_kv(&o, "bone_count", "%u", m->nbones);
		nm_kv(&o, "unknown_0c", "0x%x", m->skl_unknown);
		nm_kv(&o, "bone_stride", "0x%x", m->L.bone_stride);
		nm_kv(&o, "rotation_order", "%s", "local = T * Rz * Ry * Rx * S (radians)");
	}
	cmb_text(t, dir, "header.txt", &o);
	if (!m->bones)
		return nm_out_status(&o);
	nm_node *bones = nm_dir(t, dir, "bones");
	if (!bones)
		return NM_E_NOMEM;
	bool edit = nm_tree_options(t)->editable;
	cmb_record_ref *refs = edit ? nm_tree_alloc_array(t, m->nbones, sizeof *refs) : NULL;
	if (edit && !refs)
		return NM_E_NOMEM;
	nm_rec r;
	nm_rec_write(&r, &o, &m->chunk[CMB_SKL].v);
	for (uint32_t i = 0; i < m->nbones; i++) {
		char name[32];
		bone_text(&r, m, i);
		snprintf(name, sizeof name, "%u.txt", i);
		if (!cmb_record_file(t, bones, name, &o, refs ? &refs[i] : NULL, m, CMB_SKL, i,
				     bone_text)) {
			nm_out_free(&o);
			return NM_E_NOMEM;
		}
	}
	return NM_OK;
}
