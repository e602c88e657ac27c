/* SHP1 display lists (FORMATS.md 3.4): draw commands (opcode, u16 vertex count, then
 * each vertex's attributes in the shape's attribute-list order), NOP padding, and the
 * few other GX commands a list may hold, skipped by their length. The walk never
 * allocates: every primitive's vertex run is checked against the list's length, so an
 * absurd vertex count ends the walk with an error instead of a huge loop. */
#include <stdlib.h>
#include <string.h>
#include "export/triangulate.h"
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

const char *j3d_prim_name(uint8_t op)
{
	switch (op & 0xF8) {
	case 0x80: return "QUADS";
	case 0x88: return "QUADS2";
	case 0x90: return "TRIANGLES";
	case 0x98: return "TRIANGLE_STRIP";
	case 0xA0: return "TRIANGLE_FAN";
	case 0xA8: return "LINES";
	case 0xB0: return "LINE_STRIP";
	case 0xB8: return "POINTS";
	default: return NULL;
	}
}

int j3d_prim_class(uint8_t op)
{
	switch (op & 0xF8) {
	case 0xA8: case 0xB0: return J3D_PC_LINES;
	case 0xB8: return J3D_PC_POINTS;
	default: return J3D_PC_TRIANGLES;
	}
}

uint64_t j3d_prim_count(uint8_t op, uint32_t n)
{
	switch (op & 0xF8) {
	case 0x80: case 0x88: return nm_triangle_count(NM_PRIM_QUADS, n);
	case 0x90: return nm_triangle_count(NM_PRIM_TRIANGLES, n);
	case 0x98: return nm_triangle_count(NM_PRIM_STRIP, n);
	case 0xA0: return nm_triangle_count(NM_PRIM_FAN, n);
	case 0xA8: return n / 2;
	case 0xB0: return n >= 2 ? n - 1 : 0;
	case 0xB8: return n;
	default: return 0;
	}
}

nm_prim j3d_prim_kind(uint8_t op)
{
	switch (op & 0xF8) {
	case 0x90: return NM_PRIM_TRIANGLES;
	case 0x98: return NM_PRIM_STRIP;
	case 0xA0: return NM_PRIM_FAN;
	default: return NM_PRIM_QUADS;
	}
}

/* One packet's list: dl holds len bytes found at absolute offset base. */
static nm_status walk_list(const j3d_shape *s, const uint8_t *dl, size_t len, uint64_t base,
			   const j3d_prim *proto, j3d_prim_fn fn, void *ctx, nm_error *err)
{
	const char *file = s->m->file;
	size_t p = 0;
	while (p < len) {
		uint8_t op = dl[p];
		if (op == 0x00) {
			p++;
			continue;
		}
		if (j3d_prim_name(op)) {
			if (len - p < 3)
				return nm_fail(err, NM_E_FORMAT, file, "SHP1", base + p,
					       "shape %u: draw command cut off by the end of the "
					       "display list", s->index);
			uint16_t n = nm_be16(dl + p + 1);
			size_t need = (size_t)n * s->vsize;
			if (len - p - 3 < need)
				return nm_fail(err, NM_E_FORMAT, file, "SHP1", base + p,
					       "shape %u: %s of %u vertices (%zu bytes) runs past the "
					       "end of the display list (%zu bytes left)", s->index,
					       j3d_prim_name(op), n, need, len - p - 3);
			j3d_prim prim = *proto;
			prim.op = (uint8_t)(op & 0xF8);
			prim.nverts = n;
			prim.verts = dl + p + 3;
			prim.off = p;
			nm_status st = fn(ctx, &prim, err);
			if (st != NM_OK)
				return st;
			p += 3 + need;
			continue;
		}
		size_t n = j3d_gx_command_length(dl + p, len - p);
		if (!n)
			return nm_fail(err, NM_E_FORMAT, file, "SHP1", base + p,
				       "shape %u: unknown display list opcode 0x%02x", s->index, op);
		if (n > len - p)
			return nm_fail(err, NM_E_FORMAT, file, "SHP1", base + p,
				       "shape %u: command 0x%02x cut off by the end of the display "
				       "list", s->index, op);
		p += n;
	}
	return NM_OK;
}

uint32_t j3d_dl_value(const j3d_sattr *a, const uint8_t *vert)
{
	const uint8_t *p = vert + a->pos;
	switch (a->type) {
	case J3D_IDX_8: return p[0];
	case J3D_IDX_16: return nm_be16(p);
	case J3D_IDX_DIRECT: return a->size == 1 ? p[0] : 0;
	default: return 0;
	}
}

static void mtx_reset(j3d_mtx_state *st)
{
	memset(st->slot, 0xFF, sizeof st->slot);
}

static void mtx_packet(j3d_mtx_state *st, const j3d_packet *p)
{
	for (uint32_t k = 0; k < p->nmtx && k < J3D_MTX_SLOTS; k++)
		if (p->mtx[k] != 0xFFFF)
			st->slot[k] = p->mtx[k];
}

uint16_t j3d_mtx_resolve(const j3d_shape *s, const j3d_prim *p, const uint8_t *vert)
{
	const uint16_t *slot = p->mtx->slot;
	for (unsigned k = 0; k < s->nattrs; k++)
		if (s->attrs[k].attr == J3D_A_PNMTXIDX && s->attrs[k].type == J3D_IDX_DIRECT)
			return slot[(vert[s->attrs[k].pos] / 3) % J3D_MTX_SLOTS];
	/* No matrix index in the vertices: GX uses slot 0. */
	return slot[0] != 0xFFFF ? slot[0] : s->packets[p->packet].use_mtx;
}

nm_status j3d_shape_walk(j3d_model *m, const j3d_shape *s, j3d_prim_fn fn, void *ctx,
			 nm_error *err)
{
	const j3d_chunk *c = m->shp1->chunk;
	j3d_mtx_state mtx;
	j3d_prim proto = { .mtx = &mtx };
	mtx_reset(&mtx);
	for (proto.packet = 0; proto.packet < s->npackets; proto.packet++) {
		const j3d_packet *p = &s->packets[proto.packet];
		uint8_t *dl;
		nm_status st = nm_reader_load(m->r, c->off + p->dl_off, p->dl_size, c->magic, &dl,
					      err);
		if (st != NM_OK)
			return st;
		mtx_packet(&mtx, p);
		st = walk_list(s, dl, p->dl_size, c->off + p->dl_off, &proto, fn, ctx, err);
		free(dl);
		if (st != NM_OK)
			return st;
	}
	return NM_OK;
}
