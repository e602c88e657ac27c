/* sklm and what it nests: mshs (meshes), shp (shapes) -> sepd (one per shape: vertex
 * attribute descriptors) -> prms (skinning mode, bone table) -> prm (an index range).
 * FORMATS.md 4.6. Offsets are relative to the enclosing chunk. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/triangulate.h"
#include "formats/cmb/cmb.h"
#include "formats/cmb/names.h"

#define ATTR_DESC 0x1C
#define MAX_BONE_DIM 16   /* PICA200 blends at most 4 bones; far more is a broken file */

/* A nested chunk at off of parent: magic, size >= 8, inside the parent. */
static bool sub_chunk(cmb_model *m, nm_view *parent, size_t off, const char *magic,
		      const char *name, nm_view *out, nm_error *err)
{
	const uint8_t *head = nm_bytes(parent, off, 8);
	if (!head) {
		parent->bad = false;
		nm_fail(err, NM_E_FORMAT, m->file, name, parent->base + off,
			"the %s chunk header lies outside its parent %s (0x%zx bytes)", name,
			parent->chunk, parent->size);
		return false;
	}
	if (memcmp(head, magic, 4) != 0) {
		nm_fail(err, NM_E_FORMAT, m->file, name, parent->base + off,
			"expected the magic \"%s\", found %02x %02x %02x %02x", magic, head[0],
			head[1], head[2], head[3]);
		return false;
	}
	uint32_t size = nm_u32(parent, off + 4);
	if (size < 8 || !nm_view_has(parent, off, size)) {
		parent->bad = false;
		nm_fail(err, NM_E_FORMAT, m->file, name, parent->base + off,
			"chunk size 0x%x does not fit in its parent %s (0x%zx bytes from 0x%zx)",
			size, parent->chunk, parent->size, off);
		return false;
	}
	*out = nm_view_sub(parent, off, size, name);
	return true;
}

static unsigned attr_comps(int k, unsigned bone_dim)
{
	switch (k) {
	case CMB_POSITION: case CMB_NORMAL: case CMB_TANGENT: return 3;
	case CMB_COLOR: return 4;
	case CMB_TEXCOORD0: case CMB_TEXCOORD1: case CMB_TEXCOORD2: return 2;
	default: return bone_dim;
	}
}

/* In MM3D files the mshs size counts 4 bytes per mesh although entries take 0x0C (the
 * table runs on to the shp chunk), so the table is checked against sklm instead. */
static nm_status parse_mshs(cmb_model *m, nm_view *sklm)
{
	nm_view head;
	if (!sub_chunk(m, sklm, m->mshs_at, "mshs", "mshs", &head, &m->mshs_err))
		return NM_OK;
	nm_view v = nm_view_sub(sklm, m->mshs_at, sklm->size - m->mshs_at, "mshs");
	uint32_t n = nm_u32(&v, 0x08);
	m->opaque_count = nm_u16(&v, 0x0C);
	m->id_count = nm_u16(&v, 0x0E);
	if (!nm_view_table(&v, 0x10, n, m->L.mesh_stride, "meshes", &m->mshs_err))
		return NM_OK;
	uint64_t table = 0x10 + (uint64_t)n * m->L.mesh_stride;
	m->mshs_size = (uint32_t)(table > head.size ? table : head.size);
	m->meshes = nm_tree_alloc_array(m->t, n, sizeof *m->meshes);
	if (!m->meshes)
		return NM_E_NOMEM;
	m->nmeshes = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t o = 0x10 + (size_t)i * m->L.mesh_stride;
		m->meshes[i] = (cmb_mesh){ .offset = m->mshs_at + (uint32_t)o,
					   .sepd = nm_u16(&v, o), .material = nm_u8(&v, o + 2),
					   .id = nm_u8(&v, o + 3) };
	}
	m->mshs_ok = true;
	return NM_OK;
}

static nm_status parse_prms(cmb_model *m, nm_view *sepd, size_t off, cmb_prms *p,
			    nm_error *err)
{
	nm_view v, prm;
	if (!sub_chunk(m, sepd, off, "prms", "prms", &v, err))
		return NM_OK;
	p->prm_count = nm_u32(&v, 0x08);
	p->skinning = nm_u16(&v, 0x0C);
	p->nbones = nm_u16(&v, 0x0E);
	p->bone_table_off = nm_u32(&v, 0x10);
	p->prm_off = nm_u32(&v, 0x14);
	if (!nm_view_array(&v, p->bone_table_off, p->nbones, 2)) {
		nm_view_fail(&v, err, "a bone table of %u entries at 0x%x", p->nbones,
			     p->bone_table_off);
		p->nbones = 0;
		return NM_OK;
	}
	p->bones = nm_tree_alloc_array(m->t, p->nbones, sizeof *p->bones);
	if (!p->bones)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < p->nbones; i++)
		p->bones[i] = nm_u16(&v, p->bone_table_off + 2 * (size_t)i);
	/* Every corpus prms has one prm; the table has room for one offset only. */
	if (!sub_chunk(m, &v, p->prm_off, "prm ", "prm", &prm, err))
		return NM_OK;
	p->prm_at = p->offset + p->prm_off;
	p->visible = nm_u32(&prm, 0x08);
	p->prim_mode = nm_u32(&prm, 0x0C);
	p->index_type = nm_u32(&prm, 0x10);
	p->index_count = nm_u16(&prm, 0x14);
	p->first_index = nm_u16(&prm, 0x16);
	if (prm.bad) {
		nm_view_fail(&prm, err, "the prm header");
		return NM_OK;
	}
	if (p->index_type != 0x1401 && p->index_type != 0x1403) {
		nm_fail(err, NM_E_FORMAT, m->file, "prm", prm.base + 0x10,
			"index type 0x%x is neither UNSIGNED_BYTE nor UNSIGNED_SHORT", p->index_type);
		return NM_OK;
	}
	if (p->prim_mode > 2) {
		nm_fail(err, NM_E_FORMAT, m->file, "prm", prm.base + 0x0C,
			"unknown primitive mode %u", p->prim_mode);
		return NM_OK;
	}
	p->index_size = p->index_type == 0x1401 ? 1 : 2;
	/* The first index is counted in 2-byte units even for u8 indices. */
	uint64_t rel = (uint64_t)p->first_index * 2, len = (uint64_t)p->index_count * p->index_size;
	if (rel > m->index_len || len > m->index_len - rel) {
		nm_fail(err, NM_E_FORMAT, m->file, "prm", prm.base + 0x14,
			"%u indices from 0x%llx run past the index buffer (0x%llx bytes at 0x%x)",
			p->index_count, (unsigned long long)rel, (unsigned long long)m->index_len,
			m->index_off);
		return NM_OK;
	}
	p->index_abs = m->index_off + rel;
	nm_prim kind = p->prim_mode == 0 ? NM_PRIM_TRIANGLES
		     : p->prim_mode == 1 ? NM_PRIM_STRIP : NM_PRIM_FAN;
	p->ntris = nm_triangle_count(kind, p->index_count);
	p->ok = true;
	return NM_OK;
}

static nm_status parse_sepd(cmb_model *m, nm_view *shp, size_t off, cmb_sepd *s,
			    nm_error *err)
{
	nm_view v;
	if (!sub_chunk(m, shp, off, "sepd", "sepd", &v, err))
		return NM_OK;
	s->size = (uint32_t)v.size;
	s->nprms = nm_u16(&v, 0x08);
	s->flags = nm_u16(&v, 0x0A);
	for (int k = 0; k < 3; k++) {
		s->center[k] = nm_f32(&v, 0x0C + 4 * k);
		s->pos_offset[k] = nm_f32(&v, 0x18 + 4 * k);
		if (m->L.sepd_bbox) {
			s->bbox_min[k] = nm_f32(&v, 0x24 + 4 * k);
			s->bbox_max[k] = nm_f32(&v, 0x30 + 4 * k);
		}
	}
	size_t o = m->L.sepd_attrs;
	unsigned bit = 0;
	for (int k = 0; k < CMB_NATTRS; k++) {
		cmb_attrib *a = &s->attr[k];
		if (k == CMB_TANGENT && !m->L.tangents)
			continue;
		a->described = true;
		a->desc_off = (uint32_t)o;
		a->start = nm_u32(&v, o);
		a->scale = nm_f32(&v, o + 4);
		a->type = nm_u16(&v, o + 8);
		a->mode = nm_u16(&v, o + 10);
		for (int c = 0; c < 4; c++)
			a->constant[c] = nm_f32(&v, o + 12 + 4 * (size_t)c);
		/* The flags hold one presence bit per descriptor, in descriptor order (v6 bit 2
		 * = colour, v10+ bit 2 = tangent and bit 3 = colour, as FORMATS.md says; every
		 * corpus sepd agrees with its VATR slices). A constant needs no array, so it
		 * counts as present whatever its bit says. */
		a->present = ((s->flags >> bit) & 1) || a->mode == 1;
		a->type_size = cmb_data_type_size(a->type);
		o += ATTR_DESC;
		bit++;
	}
	s->bone_dim = nm_u16(&v, o);
	size_t list = o + 4;
	if (!nm_view_array(&v, list, s->nprms, 2)) {
		nm_view_fail(&v, err, "the attribute descriptors and a list of %u prms", s->nprms);
		return NM_OK;
	}
	/* Every prms is a chunk of its own (0x18 bytes, and 0x18 more for its prm): a list
	 * longer than sklm can hold repeats offsets and would only multiply memory. */
	if (s->nprms > m->prms_left) {
		nm_fail(err, NM_E_FORMAT, m->file, "sepd", v.base + 8, "%u prms are more than the "
			"sklm chunk has room for", s->nprms);
		return NM_OK;
	}
	m->prms_left -= s->nprms;
	for (int k = 0; k < CMB_NATTRS; k++)
		s->attr[k].comps = attr_comps(k, s->bone_dim);
	s->prms = nm_tree_alloc_array(m->t, s->nprms, sizeof *s->prms);
	if (!s->prms)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < s->nprms; i++) {
		cmb_prms *p = &s->prms[i];
		size_t at = nm_u16(&v, list + 2 * (size_t)i);
		nm_error e = { 0 };
		p->offset = s->offset + (uint32_t)at;
		nm_status st = parse_prms(m, &v, at, p, &e);
		if (st != NM_OK)
			return st;
		if (!p->ok)
			cmb_keep_error(m, &p->error, &e);
	}
	s->ok = true;
	return NM_OK;
}

static void attr_problem(cmb_attrib *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void attr_problem(cmb_attrib *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->problem, sizeof a->problem, fmt, ap);
	va_end(ap);
	a->usable = false;
}

static bool array_ready(const cmb_model *m, const cmb_attrib *a, int k)
{
	return a->present && a->mode == 0 && a->type_size && a->comps && a->comps <= MAX_BONE_DIM &&
	       m->slice_ok[k];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The sorted starts of attribute k over the sepds that store it (for the next-run
 * search: sorting keeps thousands of shapes at n log n). */
static uint32_t *sorted_starts(const cmb_model *m, int k, size_t *n)
{
	uint32_t *v = malloc(((size_t)m->nsepds + 1) * sizeof *v);
	*n = 0;
	if (!v)
		return NULL;
	for (uint32_t j = 0; j < m->nsepds; j++)
		if (m->sepds[j].ok && array_ready(m, &m->sepds[j].attr[k], k))
			v[(*n)++] = m->sepds[j].attr[k].start;
	qsort(v, *n, sizeof *v, cmp_u32);
	return v;
}

/* Vertex counts of the sepds. Every sepd keeps its vertices in one run per VATR slice, and
 * the runs follow each other, so a sepd's run ends where the next larger start of the
 * same attribute begins (or at the slice end): count = run bytes / stride. This comes
 * from headers alone; the indices are never read at build. It uses the first attribute
 * stored as an array, normally the position (floats, so no padding at the slice end; a
 * byte-sized attribute could see one extra vertex of padding there). On every corpus
 * file the count equals the largest index used + 1 (tests/test_cmb.c checks that). */
static nm_status count_vertices(cmb_model *m)
{
	uint32_t *starts[CMB_NATTRS] = { 0 };
	size_t nstarts[CMB_NATTRS] = { 0 };
	for (int k = 0; k < CMB_NATTRS; k++)
		if (!(starts[k] = sorted_starts(m, k, &nstarts[k]))) {
			for (int j = 0; j < k; j++)
				free(starts[j]);
			return NM_E_NOMEM;
		}
	for (uint32_t i = 0; i < m->nsepds; i++) {
		cmb_sepd *s = &m->sepds[i];
		for (int k = 0; s->ok && k < CMB_NATTRS; k++) {
			cmb_attrib *a = &s->attr[k];
			if (!array_ready(m, a, k))
				continue;
			/* The first start above ours, by binary search. */
			size_t lo = 0, hi = nstarts[k];
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (starts[k][mid] <= a->start)
					lo = mid + 1;
				else
					hi = mid;
			}
			uint64_t end = m->slice_size[k];
			if (lo < nstarts[k] && starts[k][lo] < end)
				end = starts[k][lo];
			uint64_t stride = (uint64_t)a->comps * a->type_size;
			s->count_attr = k;
			s->nverts = a->start < end ? (uint32_t)((end - a->start) / stride) : 0;
			break;
		}
	}
	for (int k = 0; k < CMB_NATTRS; k++)
		free(starts[k]);
	return NM_OK;
}

static void check_attrs(cmb_model *m, cmb_sepd *s)
{
	for (int k = 0; k < CMB_NATTRS; k++) {
		cmb_attrib *a = &s->attr[k];
		if (!a->described || !a->present)
			continue;
		a->usable = true;
		if (a->comps == 0) {
			attr_problem(a, "the bone dimension is 0");
		} else if (a->comps > MAX_BONE_DIM) {
			attr_problem(a, "a bone dimension of %u is more than %u", a->comps,
				     MAX_BONE_DIM);
		} else if (a->mode == 1) {
			/* constant: nothing to read */
		} else if (a->mode != 0) {
			attr_problem(a, "unknown mode %u", a->mode);
		} else if (!a->type_size) {
			attr_problem(a, "unknown data type 0x%x", a->type);
		} else if (!m->slice_ok[k]) {
			attr_problem(a, "the vatr chunk has no usable %s slice", cmb_attr_name(k));
		} else {
			uint64_t need = (uint64_t)s->nverts * a->comps * a->type_size;
			if (a->start > m->slice_size[k] || need > m->slice_size[k] - a->start)
				attr_problem(a, "%u vertices of %u bytes from 0x%x run past the %s slice "
					     "(0x%x bytes)", s->nverts, a->comps * a->type_size,
					     a->start, cmb_attr_name(k), m->slice_size[k]);
			else
				a->data_off = (uint64_t)m->chunk[CMB_VATR].off + m->slice_off[k] +
					      a->start;
		}
	}
}

static nm_status parse_shp(cmb_model *m, nm_view *sklm)
{
	nm_view v;
	if (!sub_chunk(m, sklm, m->shp_at, "shp ", "shp", &v, &m->shp_err))
		return NM_OK;
	m->shp_size = (uint32_t)v.size;
	uint32_t n = nm_u32(&v, 0x08);
	m->shp_flags = nm_u16(&v, 0x0C);
	if (!nm_view_array(&v, 0x10, n, 2)) {
		nm_view_fail(&v, &m->shp_err, "a list of %u sepd offsets", n);
		return NM_OK;
	}
	/* Each shape has a sepd chunk of its own, at least its descriptors long. */
	size_t min_sepd = m->L.sepd_attrs + (m->L.tangents ? 9 : 8) * ATTR_DESC + 4;
	if (n > sklm->size / min_sepd) {
		nm_fail(&m->shp_err, NM_E_FORMAT, m->file, "shp", v.base + 8, "%u shapes are more "
			"than the sklm chunk (0x%zx bytes) has room for", n, sklm->size);
		return NM_OK;
	}
	m->prms_left = sklm->size / 0x30;
	m->sepds = nm_tree_alloc_array(m->t, n, sizeof *m->sepds);
	if (!m->sepds)
		return NM_E_NOMEM;
	m->nsepds = n;
	m->shp_ok = true;
	for (uint32_t i = 0; i < n; i++) {
		cmb_sepd *sd = &m->sepds[i];
		size_t at = nm_u16(&v, 0x10 + 2 * (size_t)i);
		nm_error e = { 0 };
		sd->offset = m->shp_at + (uint32_t)at;
		sd->count_attr = -1;
		nm_status s = parse_sepd(m, &v, at, sd, &e);
		if (s != NM_OK)
			return s;
		if (!sd->ok)
			cmb_keep_error(m, &sd->error, &e);
	}
	if (count_vertices(m) != NM_OK)
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (m->sepds[i].ok)
			check_attrs(m, &m->sepds[i]);
	return NM_OK;
}

nm_status cmb_parse_sklm(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_SKLM];
	if (!c->present || c->failed || !m->L.known)
		return NM_OK;
	m->mshs_at = nm_u32(&c->v, 0x08);
	m->shp_at = nm_u32(&c->v, 0x0C);
	if (c->v.bad) {
		cmb_chunk_fail(m, CMB_SKLM, 8, "the chunk is too short for its two offsets");
		return NM_OK;
	}
	nm_status s = parse_mshs(m, &c->v);
	return s != NM_OK ? s : parse_shp(m, &c->v);
}
