/* SHP1: shapes, their attribute lists, packets and matrix tables (FORMATS.md 3.4).
 * Only the tables are read here; display lists stay in the file (displaylist.c).
 * Each table is loaded once, as far as the shapes need it and the chunk allows, and
 * every shape checks its own ranges: one broken shape gets an error, the rest show. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "formats/j3d/j3d.h"

static nm_status nomem(j3d_model *m, const j3d_chunk *c, nm_error *err)
{
	return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
}

/* Load [off, off + want) of the chunk, cut at the chunk end (an empty view when off is
 * outside the chunk); the caller checks each use against v->size. */
static nm_status load_table(j3d_model *m, const j3d_chunk *c, uint32_t off, uint64_t want,
			    const char *what, nm_view *v, nm_error *err)
{
	if (off >= c->size)
		want = 0, off = c->size;
	if (want > c->size - off)
		want = c->size - off;
	return j3d_load(m, c, off, want, what, v, err);
}

static void shape_fail(j3d_model *m, const j3d_chunk *c, j3d_shape *s, uint64_t rel,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void shape_fail(j3d_model *m, const j3d_chunk *c, j3d_shape *s, uint64_t rel,
		       const char *fmt, ...)
{
	s->ok = false;
	j3d_chunk_fail(c, m, &s->err, rel, "shape %u: ", s->index);
	va_list ap;
	va_start(ap, fmt);
	nm_error_appendv(&s->err, fmt, ap);
	va_end(ap);
}

static void read_attrs(j3d_model *m, const j3d_chunk *c, const j3d_shp1 *h, nm_view *av,
		       j3d_shape *s)
{
	size_t o = s->attr_off;
	for (unsigned k = 0;; k++) {
		if (!nm_view_has(av, o, 8)) {
			shape_fail(m, c, s, (uint64_t)h->off_attrs + o,
				   "attribute list runs past the end of the chunk");
			return;
		}
		uint32_t attr = nm_u32(av, o), type = nm_u32(av, o + 4);
		if (attr == J3D_A_NULL)
			return;
		if (k == J3D_MAX_ATTRS) {
			shape_fail(m, c, s, (uint64_t)h->off_attrs + s->attr_off,
				   "attribute list has more than %u entries", J3D_MAX_ATTRS);
			return;
		}
		s->attrs[s->nattrs++] = (j3d_sattr){ .attr = attr, .type = type };
		o += 8;
	}
}

nm_status j3d_parse_shp1(j3d_model *m, const j3d_chunk *c, j3d_shp1 *h, nm_error *err)
{
	nm_view v;
	nm_status st = j3d_load(m, c, 0, 0x2C, "SHP1 header", &v, err);
	if (st != NM_OK)
		return st;
	h->count = nm_u16(&v, 0x08);
	h->off_shapes = nm_u32(&v, 0x0C);
	h->off_remap = nm_u32(&v, 0x10);
	h->off_names = nm_u32(&v, 0x14);
	h->off_attrs = nm_u32(&v, 0x18);
	h->off_mtx = nm_u32(&v, 0x1C);
	h->off_dl = nm_u32(&v, 0x20);
	h->off_mtxdata = nm_u32(&v, 0x24);
	h->off_packets = nm_u32(&v, 0x28);
	nm_view_free(&v);
	h->shapes = nm_tree_alloc_array(m->t, h->count, sizeof *h->shapes);
	if (!h->shapes)
		return nomem(m, c, err);
	if (!h->count)
		return NM_OK;
	st = j3d_load(m, c, h->off_shapes, (uint64_t)h->count * 0x28, "shape table", &v, err);
	if (st != NM_OK)
		return st;
	uint64_t attr_end = 0, mtxdata_end = 0, packet_end = 0;
	for (uint16_t i = 0; i < h->count; i++) {
		j3d_shape *s = &h->shapes[i];
		size_t o = (size_t)i * 0x28;
		s->m = m;
		s->index = i;
		s->ok = true;
		s->material = -1;
		s->mtx_type = nm_u8(&v, o);
		s->npackets = nm_u16(&v, o + 2);
		s->attr_off = nm_u16(&v, o + 4);
		s->first_mtxdata = nm_u16(&v, o + 6);
		s->first_packet = nm_u16(&v, o + 8);
		s->radius = nm_f32(&v, o + 0x0C);
		for (int k = 0; k < 3; k++) {
			s->bmin[k] = nm_f32(&v, o + 0x10 + 4 * k);
			s->bmax[k] = nm_f32(&v, o + 0x1C + 4 * k);
		}
		if (s->attr_off + 8u * (J3D_MAX_ATTRS + 1) > attr_end)
			attr_end = s->attr_off + 8u * (J3D_MAX_ATTRS + 1);
		if ((uint64_t)s->first_mtxdata + s->npackets > mtxdata_end)
			mtxdata_end = (uint64_t)s->first_mtxdata + s->npackets;
		if ((uint64_t)s->first_packet + s->npackets > packet_end)
			packet_end = (uint64_t)s->first_packet + s->npackets;
	}
	nm_view_free(&v);

	nm_view av, mv, pv, tv;
	st = load_table(m, c, h->off_attrs, attr_end, "attribute lists", &av, err);
	if (st != NM_OK)
		return st;
	st = load_table(m, c, h->off_mtxdata, mtxdata_end * 8, "matrix group table", &mv, err);
	if (st != NM_OK)
		goto free_av;
	st = load_table(m, c, h->off_packets, packet_end * 8, "packet table", &pv, err);
	if (st != NM_OK)
		goto free_mv;

	/* Matrix table: as far as the matrix groups reach. */
	uint64_t mtx_end = 0;
	for (size_t k = 0; k + 8 <= mv.size; k += 8) {
		uint64_t e = (uint64_t)nm_u32(&mv, k + 4) + nm_u16(&mv, k + 2);
		if (e > mtx_end)
			mtx_end = e;
	}
	if (mtx_end > c->size / 2)
		mtx_end = c->size / 2;
	st = load_table(m, c, h->off_mtx, mtx_end * 2, "matrix table", &tv, err);
	if (st != NM_OK)
		goto free_pv;
	h->nmtx_table = (uint32_t)(tv.size / 2);
	h->mtx_table = nm_tree_alloc_array(m->t, h->nmtx_table, sizeof *h->mtx_table);
	if (!h->mtx_table) {
		st = nomem(m, c, err);
		goto free_tv;
	}
	for (uint32_t k = 0; k < h->nmtx_table; k++)
		h->mtx_table[k] = nm_u16(&tv, 2 * (size_t)k);

	for (uint16_t i = 0; i < h->count; i++) {
		j3d_shape *s = &h->shapes[i];
		read_attrs(m, c, h, &av, s);
		if (!s->ok)
			continue;
		s->packets = nm_tree_alloc_array(m->t, s->npackets, sizeof *s->packets);
		if (!s->packets) {
			st = nomem(m, c, err);
			goto free_tv;
		}
		for (uint32_t j = 0; j < s->npackets && s->ok; j++) {
			j3d_packet *p = &s->packets[j];
			size_t pe = ((size_t)s->first_packet + j) * 8;
			size_t me = ((size_t)s->first_mtxdata + j) * 8;
			if (!nm_view_has(&pv, pe, 8)) {
				shape_fail(m, c, s, (uint64_t)h->off_packets + pe,
					   "packet table entry %u runs past the end of the chunk",
					   s->first_packet + j);
				break;
			}
			if (!nm_view_has(&mv, me, 8)) {
				shape_fail(m, c, s, (uint64_t)h->off_mtxdata + me,
					   "matrix group table entry %u runs past the end of the chunk",
					   s->first_mtxdata + j);
				break;
			}
			p->dl_size = nm_u32(&pv, pe);
			uint64_t dl = (uint64_t)h->off_dl + nm_u32(&pv, pe + 4);
			if (dl > c->size || p->dl_size > c->size - dl) {
				shape_fail(m, c, s, (uint64_t)h->off_packets + pe,
					   "display list of packet %u runs past the end of the chunk", j);
				break;
			}
			p->dl_off = (uint32_t)dl;
			p->use_mtx = nm_u16(&mv, me);
			p->nmtx = nm_u16(&mv, me + 2);
			p->mtx_first = nm_u32(&mv, me + 4);
			if ((uint64_t)p->mtx_first + p->nmtx > h->nmtx_table) {
				shape_fail(m, c, s, (uint64_t)h->off_mtxdata + me,
					   "matrix table of packet %u runs past the end of the chunk", j);
				break;
			}
			p->mtx = h->mtx_table + p->mtx_first;
			s->npackets_ok = j + 1;
		}
	}
	st = NM_OK;
free_tv:
	nm_view_free(&tv);
free_pv:
	nm_view_free(&pv);
free_mv:
	nm_view_free(&mv);
free_av:
	nm_view_free(&av);
	return st;
}

/* Bytes of each attribute in a display-list vertex. Needs VTX1 for direct data and
 * NBT3, so it runs after every chunk is parsed. */
void j3d_shp1_layout(j3d_model *m)
{
	if (!m->shp1)
		return;
	for (uint16_t i = 0; i < m->shp1->count; i++) {
		j3d_shape *s = &m->shp1->shapes[i];
		uint32_t pos = 0;
		for (unsigned k = 0; s->ok && k < s->nattrs; k++) {
			j3d_sattr *a = &s->attrs[k];
			uint32_t n = 0;
			bool nbt3 = false;
			if (a->attr == J3D_A_NRM || a->attr == J3D_A_NBT) {
				const j3d_varray *arr = m->vtx1 ? &m->vtx1->arrays[J3D_NRM] : NULL;
				nbt3 = arr && arr->fmt && arr->fmt->cnt == 2;
			}
			switch (a->type) {
			case J3D_IDX_NONE: n = 0; break;
			case J3D_IDX_8: n = nbt3 ? 3 : 1; break;
			case J3D_IDX_16: n = nbt3 ? 6 : 2; break;
			case J3D_IDX_DIRECT:
				n = j3d_direct_size(m, a->attr);
				if (!n) {
					s->ok = false;
					j3d_chunk_fail(m->shp1->chunk, m, &s->err,
						       (uint64_t)m->shp1->off_attrs + s->attr_off,
						       "shape %u: direct %s data has no VTX1 format to "
						       "size it", i, j3d_attr_name(a->attr)
								      ? j3d_attr_name(a->attr) : "?");
				}
				break;
			default:
				s->ok = false;
				j3d_chunk_fail(m->shp1->chunk, m, &s->err,
					       (uint64_t)m->shp1->off_attrs + s->attr_off,
					       "shape %u: attribute 0x%x has unknown index type %u", i,
					       a->attr, a->type);
				break;
			}
			a->size = n;
			a->pos = pos;
			pos += n;
		}
		s->vsize = pos;
	}
}
