/* What a joint edit changes besides its JNT1 entry: EVP1's inverse bind matrices. They
 * are the inverses of the joints' bind-pose world matrices, so a changed scale, rotation
 * or translation moves them for the joint and every joint below it. JSystem's tools
 * and SuperBMD write them as the inverse of world = parent world * local (local =
 * T * Rz * Ry * Rx * S, INF1's parents); apply does the same for the joints the edit
 * moves and leaves every other matrix as stored (doc/apply.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "formats/j3d/j3d.h"

/* The inverse of a 3x4 affine matrix (false when singular). */
static bool affine_inverse(const float *m, float *out)
{
	double a[9], inv[9];
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			a[r * 3 + c] = m[r * 4 + c];
	inv[0] = a[4] * a[8] - a[5] * a[7];
	inv[1] = a[2] * a[7] - a[1] * a[8];
	inv[2] = a[1] * a[5] - a[2] * a[4];
	inv[3] = a[5] * a[6] - a[3] * a[8];
	inv[4] = a[0] * a[8] - a[2] * a[6];
	inv[5] = a[2] * a[3] - a[0] * a[5];
	inv[6] = a[3] * a[7] - a[4] * a[6];
	inv[7] = a[1] * a[6] - a[0] * a[7];
	inv[8] = a[0] * a[4] - a[1] * a[3];
	double det = a[0] * inv[0] + a[1] * inv[3] + a[2] * inv[6];
	if (det == 0 || det != det)
		return false;
	for (int r = 0; r < 3; r++) {
		double t = 0;
		for (int c = 0; c < 3; c++) {
			out[r * 4 + c] = (float)(inv[r * 3 + c] / det);
			t -= inv[r * 3 + c] / det * m[c * 4 + 3];
		}
		out[r * 4 + 3] = (float)t;
	}
	return true;
}

/* World matrix of joint k (parents first, memoised in done); depth guards a cycle. */
static void world_of(const j3d_model *m, float (*local)[12], float (*world)[12], bool *done,
		     size_t k, size_t depth)
{
	const j3d_joint *j = &m->jnt1->joints[k];
	if (done[k])
		return;
	if (j->parent < 0 || (size_t)j->parent >= m->jnt1->count || depth > m->jnt1->count) {
		memcpy(world[k], local[k], sizeof world[k]);
	} else {
		world_of(m, local, world, done, (size_t)j->parent, depth + 1);
		j3d_mat_mul(world[j->parent], local[k], world[k]);
	}
	done[k] = true;
}

static bool moved(const j3d_model *m, const bool *edited, size_t k)
{
	for (size_t d = 0; d <= m->jnt1->count; d++) {
		if (edited[k])
			return true;
		int p = m->jnt1->joints[k].parent;
		if (p < 0 || (size_t)p >= m->jnt1->count)
			return false;
		k = (size_t)p;
	}
	return false;
}

void j3d_joint_edited(nm_rec *r, j3d_model *m, uint32_t i, size_t first)
{
	const j3d_jnt1 *J = m->jnt1;
	const j3d_joint *ji = &J->joints[i];
	size_t o = J->off_entries + (size_t)ji->entry * 0x40, n = J->count;
	/* The entry as edited. */
	j3d_joint now = *ji;
	for (int k = 0; k < 3; k++) {
		now.scale[k] = nm_f32(r->v, o + 0x04 + 4 * (size_t)k);
		now.rot[k] = nm_s16(r->v, o + 0x10 + 2 * (size_t)k);
		now.trans[k] = nm_f32(r->v, o + 0x18 + 4 * (size_t)k);
	}
	char others[256] = "";
	size_t ol = 0;
	for (size_t k = 0; k < n; k++)
		if (k != i && J->joints[k].entry == ji->entry && ol + 12 < sizeof others)
			ol += (size_t)snprintf(others + ol, sizeof others - ol, "%s%zu",
					       ol ? ", " : "", k);
	if (ol)
		nm_edit_note(r->ed, "JNT1 entry %u is also joint %s's: the edit changes it too",
			     ji->entry, others);
	if (!memcmp(now.scale, ji->scale, sizeof now.scale) &&
	    !memcmp(now.rot, ji->rot, sizeof now.rot) &&
	    !memcmp(now.trans, ji->trans, sizeof now.trans))
		return;
	const j3d_evp1 *e = m->evp1;
	if (!e || !e->nibm) {
		nm_edit_note(r->ed, "no EVP1 inverse bind matrices to recompute");
		return;
	}
	float (*local)[12] = calloc(n, sizeof *local), (*world)[12] = calloc(n, sizeof *world);
	bool *done = calloc(n, 2), *edited = done ? done + n : NULL;
	if (!local || !world || !done) {
		r->ed->nomem = true;
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		edited[k] = J->joints[k].entry == ji->entry;
		j3d_joint_local(edited[k] ? &now : &J->joints[k], local[k]);
	}
	unsigned line = r->ed->patches[first].line, changed = 0;
	char list[256] = "";
	size_t ll = 0;
	for (size_t k = 0; k < n && k < e->nibm; k++) {
		if (!moved(m, edited, k))
			continue;
		world_of(m, local, world, done, k, 0);
		float inv[12];
		if (!affine_inverse(world[k], inv)) {
			nm_edit_refuse(r->ed, line, NULL, "joint %zu's world matrix has no inverse "
				       "after this edit (a zero scale?): EVP1 cannot bind to it", k);
			goto out;
		}
		uint8_t b[48];
		for (int x = 0; x < 12; x++) {
			uint32_t u;
			memcpy(&u, &inv[x], 4);
			for (int y = 0; y < 4; y++)
				b[4 * x + y] = (uint8_t)(u >> (24 - 8 * y));
		}
		char field[48];
		snprintf(field, sizeof field, "inverse_bind[%zu]", k);
		nm_edit_patch(r->ed, m->r, e->chunk->off + e->off_ibm + 0x30 * (uint64_t)k, b,
			      sizeof b, e->chunk->magic, line, field);
		changed++;
		if (ll + 12 < sizeof list)
			ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%zu", ll ? ", " : "",
					       k);
	}
	if (changed)
		nm_edit_note(r->ed, "EVP1 inverse bind matrices of joint%s %s%s recomputed from "
			     "the joint chain (inverse of parent world x T.Rz.Ry.Rx.S), as "
			     "SuperBMD writes them", changed > 1 ? "s" : "", list,
			     ll + 12 >= sizeof list ? "..." : "");
out:
	free(local);
	free(world);
	free(done);
}
