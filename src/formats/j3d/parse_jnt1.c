/* JNT1: joints (FORMATS.md 3.5) and their matrices. local = T * Rz * Ry * Rx * S;
 * world = parent world * local, parents from INF1 (j3d_link). Matrices are 3x4,
 * row-major: m[r * 4 + c], translation in column 3. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf_rig.h"
#include "formats/j3d/j3d.h"
#include "lib/transform.h"

void j3d_mat_identity(float *m)
{
	memset(m, 0, 12 * sizeof *m);
	m[0] = m[5] = m[10] = 1.0f;
}

void j3d_mat_mul(const float *a, const float *b, float *out)
{
	float r[12];
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 4; j++) {
			double v = (double)a[i * 4 + 0] * b[0 * 4 + j] +
				   (double)a[i * 4 + 1] * b[1 * 4 + j] +
				   (double)a[i * 4 + 2] * b[2 * 4 + j];
			if (j == 3)
				v += a[i * 4 + 3];
			r[i * 4 + j] = (float)v;
		}
	}
	memcpy(out, r, sizeof r);
}

double j3d_angle_radians(int16_t v)
{
	return v * (M_PI / 32768.0);
}

void j3d_joint_local(const j3d_joint *j, float *out)
{
	double rot[3], m[12];
	for (int i = 0; i < 3; i++)
		rot[i] = j3d_angle_radians(j->rot[i]);
	nm_transform_trs(j->scale, rot, j->trans, m);
	for (int i = 0; i < 12; i++)
		out[i] = (float)m[i];
}

int j3d_scaling_rule(const j3d_model *m)
{
	int rule = m->inf1 ? m->inf1->flags & 15 : 0;
	return rule == 1 ? NM_GLTF_RULE_SOFTIMAGE : rule == 2 ? NM_GLTF_RULE_MAYA
							      : NM_GLTF_RULE_BASIC;
}

nm_gltf_bone *j3d_bones(const j3d_model *m)
{
	size_t n = m->jnt1 ? m->jnt1->count : 0;
	nm_gltf_bone *b = nm_tree_alloc_array(m->t, n + 1, sizeof *b);
	for (size_t i = 0; b && i < n; i++) {
		const j3d_joint *j = &m->jnt1->joints[i];
		b[i].parent = j->parent;
		b[i].compensate = j->calc == 1;
		for (int k = 0; k < 3; k++) {
			b[i].s[k] = j->scale[k];
			b[i].r[k] = (float)j3d_angle_radians(j->rot[k]);
			b[i].t[k] = j->trans[k];
		}
	}
	return b;
}

/* Where the rule needs a helper node in glTF, its world differs from parent world *
 * local (gltf_rig.h); elsewhere j3d_link's worlds stay, to the last bit. */
void j3d_rule_worlds(j3d_model *m)
{
	size_t n = m->jnt1 ? m->jnt1->count : 0;
	nm_gltf_rig rig;
	nm_gltf_bone *b = j3d_bones(m);
	if (!n || !b || nm_gltf_rig_init(&rig, m->t, j3d_scaling_rule(m), b, n) != NM_OK)
		return;
	bool differs = false;
	for (size_t i = 0; i < n; i++)
		differs |= rig.helper[i];
	float (*srt)[9] = differs ? calloc(n, sizeof *srt) : NULL;
	double (*world)[12] = srt ? calloc(n, sizeof *world) : NULL;
	if (world) {
		for (size_t i = 0; i < n; i++) {
			memcpy(srt[i], b[i].s, sizeof b[i].s);
			memcpy(srt[i] + 3, b[i].r, sizeof b[i].r);
			memcpy(srt[i] + 6, b[i].t, sizeof b[i].t);
		}
		nm_gltf_rig_worlds(&rig, (const float (*)[9])srt, world);
		for (size_t i = 0; i < n; i++)
			for (int k = 0; k < 12; k++)
				m->jnt1->joints[i].world[k] = (float)world[i][k];
	}
	free(srt);
	free(world);
}

nm_status j3d_parse_jnt1(j3d_model *m, const j3d_chunk *c, j3d_jnt1 *J, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x18, "JNT1 header", &v, err);
	if (s != NM_OK)
		return s;
	J->count = nm_u16(&v, 0x08);
	J->off_entries = nm_u32(&v, 0x0C);
	J->off_remap = nm_u32(&v, 0x10);
	J->off_names = nm_u32(&v, 0x14);
	nm_view_free(&v);
	J->joints = nm_tree_alloc_array(m->t, J->count, sizeof *J->joints);
	if (!J->joints)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!J->count)
		return NM_OK;
	uint32_t nentries = J->count;
	if (J->off_remap) {
		s = j3d_load(m, c, J->off_remap, (uint64_t)J->count * 2, "joint remap table", &v,
			     err);
		if (s != NM_OK)
			return s;
		nentries = 0;
		for (uint16_t i = 0; i < J->count; i++) {
			J->joints[i].entry = nm_u16(&v, 2 * (size_t)i);
			if (J->joints[i].entry + 1u > nentries)
				nentries = J->joints[i].entry + 1u;
		}
		nm_view_free(&v);
	} else {
		for (uint16_t i = 0; i < J->count; i++)
			J->joints[i].entry = i;
	}
	s = j3d_load(m, c, J->off_entries, (uint64_t)nentries * 0x40, "joint table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < J->count; i++) {
		j3d_joint *j = &J->joints[i];
		size_t o = (size_t)j->entry * 0x40;
		j->flags = nm_u16(&v, o);
		j->calc = nm_u8(&v, o + 2);
		for (int k = 0; k < 3; k++) {
			j->scale[k] = nm_f32(&v, o + 0x04 + 4 * k);
			j->rot[k] = nm_s16(&v, o + 0x10 + 2 * k);
			j->trans[k] = nm_f32(&v, o + 0x18 + 4 * k);
			j->bmin[k] = nm_f32(&v, o + 0x28 + 4 * k);
			j->bmax[k] = nm_f32(&v, o + 0x34 + 4 * k);
		}
		j->radius = nm_f32(&v, o + 0x24);
		j->parent = -1;
	}
	nm_view_free(&v);
	if (J->off_names) {
		char **names;
		s = j3d_names_soft(m, c, J->off_names, J->count, &names, &J->nnames,
				   &J->names_problem, err);
		if (s != NM_OK)
			return s;
		for (uint16_t i = 0; i < J->count; i++)
			J->joints[i].name = names[i];
	}
	return NM_OK;
}
