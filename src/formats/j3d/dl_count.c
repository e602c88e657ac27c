/* What each shape's display lists draw, counted at mount: triangles, lines and points,
 * and the vertices of the triangle primitives. These counts are all that the sizes of
 * shp1/N/{triangles,lines,points}.csv and mesh.obj need, so both are exact from the
 * first stat and nothing is decoded before a read.
 *
 * The walk is j3d_shape_walk with a callback that only adds up: it reads each packet's
 * list once (one pread) and looks at command headers only (opcode and vertex count);
 * the vertices are stepped over by the shape's vertex size, never read, looked up or
 * transformed. For the MKDD course that is 17 packets and 80 KB of lists: 0.2 million
 * instructions, against 205 million to produce its mesh.obj (doc/j3d.md).
 *
 * Real files' lists do not overlap, so the walk reads at most the SHP1 chunk once.
 * Packets that point again and again at one big list (only a hostile file does that)
 * would make mount quadratic: past J3D_WALK_BUDGET bytes the remaining shapes get an
 * error instead of a walk. */
#include <stdlib.h>
#include "formats/j3d/j3d.h"

typedef struct tally {
	uint64_t count[3];
	uint64_t tri_verts;
} tally;

static nm_status tally_prim(void *ctx, const j3d_prim *p, nm_error *err)
{
	tally *t = ctx;
	int cls = j3d_prim_class(p->op);
	(void)err;
	t->count[cls] += j3d_prim_count(p->op, p->nverts);
	if (cls == J3D_PC_TRIANGLES)
		t->tri_verts += p->nverts;
	return NM_OK;
}

/* Walk every packet of s; *left is the budget of bytes still to walk. */
static nm_status count_shape(j3d_model *m, j3d_shape *s, uint64_t *left, tally *t,
			     nm_error *err)
{
	const j3d_chunk *c = m->shp1->chunk;
	uint64_t bytes = 0;
	for (uint32_t j = 0; j < s->npackets; j++)
		bytes += s->packets[j].dl_size;
	if (bytes > *left)
		return j3d_chunk_fail(c, m, err, s->npackets ? s->packets[0].dl_off : 0,
				      "shape %u: display lists not counted: with the shapes before "
				      "it they add up to more than %llu bytes (lists that overlap)",
				      s->index, (unsigned long long)J3D_WALK_BUDGET(c->size));
	*left -= bytes;
	return j3d_shape_walk(m, s, tally_prim, t, err);
}

nm_status j3d_count_shapes(j3d_model *m, nm_error *err)
{
	if (!m->shp1)
		return NM_OK;
	uint64_t left = J3D_WALK_BUDGET(m->shp1->chunk->size);
	for (uint16_t i = 0; i < m->shp1->count; i++) {
		j3d_shape *s = &m->shp1->shapes[i];
		tally t = { { 0 }, 0 };
		if (!s->ok)
			continue;
		nm_status st = count_shape(m, s, &left, &t, &s->err);
		if (st == NM_E_NOMEM) {
			*err = s->err;
			return st;
		}
		if (st != NM_OK) {
			/* Its directory shows error.txt; mesh.obj leaves it out. */
			s->ok = false;
			continue;
		}
		for (int k = 0; k < 3; k++)
			s->count[k] = t.count[k];
		s->tri_verts = t.tri_verts;
	}
	return NM_OK;
}
