/* Vertex and index data of a sepd, read on demand by the CSV, prms and OBJ producers.
 * Ranges were checked against the file at build; a file that shrank since fails here
 * with the reader's error. Vertex arrays (u32 counts) come from nm_alloc; index arrays
 * are bounded by their u16 count. */
#include <stdlib.h>
#include <string.h>
#include "formats/cmb/cmb.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

static float component(const uint8_t *p, uint16_t type)
{
	switch (type) {
	case 0x1400: return (float)(int8_t)p[0];
	case 0x1401: return (float)p[0];
	case 0x1402: return (float)(int16_t)nm_le16(p);
	case 0x1403: return (float)nm_le16(p);
	case 0x1404: return (float)(int32_t)nm_le32(p);
	case 0x1405: return (float)nm_le32(p);
	case 0x1406: return nm_le_f32(p);
	default: return 0.0f;
	}
}

nm_status cmb_load_attr(cmb_model *m, const cmb_sepd *s, int kind, float **out, nm_error *err)
{
	const cmb_attrib *a = &s->attr[kind];
	size_t n = (size_t)s->nverts * a->comps;
	float *f = nm_alloc(nm_reader_options(m->r), n, sizeof *f, err, m->file, "sepd",
			    NM_NO_OFFSET);
	if (!f)
		return err->code;
	if (a->mode == 1) {
		/* A constant is used as stored: the scale applies to array data. */
		for (size_t i = 0; i < n; i++) {
			unsigned c = (unsigned)(i % a->comps);
			f[i] = c < 4 ? a->constant[c] : 0.0f;
		}
		*out = f;
		return NM_OK;
	}
	uint8_t *raw;
	nm_status st = nm_reader_load(m->r, a->data_off, n * a->type_size, "vatr", &raw, err);
	if (st != NM_OK) {
		free(f);
		return st;
	}
	for (size_t i = 0; i < n; i++)
		f[i] = component(raw + i * a->type_size, a->type) * a->scale;
	free(raw);
	*out = f;
	return NM_OK;
}

nm_status cmb_load_indices(cmb_model *m, const cmb_prms *p, uint32_t **out, nm_error *err)
{
	size_t n = p->index_count;
	uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
	uint8_t *raw;
	if (!idx)
		return nm_fail(err, NM_E_NOMEM, m->file, "prm", NM_NO_OFFSET, "out of memory");
	nm_status st = nm_reader_load(m->r, p->index_abs, n * p->index_size, "index buffer",
				      &raw, err);
	if (st != NM_OK) {
		free(idx);
		return st;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = p->index_size == 1 ? raw[i] : nm_le16(raw + 2 * i);
	free(raw);
	*out = idx;
	return NM_OK;
}

/* Strips alternate winding so every triangle faces like the first; fans share idx[0]. */
nm_status cmb_load_triangles(cmb_model *m, const cmb_prms *p, uint32_t **out, nm_error *err)
{
	uint32_t *idx, *tris;
	nm_status st = cmb_load_indices(m, p, &idx, err);
	if (st != NM_OK)
		return st;
	tris = malloc((size_t)(p->ntris ? p->ntris : 1) * 3 * sizeof *tris);
	if (!tris) {
		free(idx);
		return nm_fail(err, NM_E_NOMEM, m->file, "prm", NM_NO_OFFSET, "out of memory");
	}
	for (uint64_t k = 0; k < p->ntris; k++) {
		uint32_t *t = tris + 3 * k;
		if (p->prim_mode == 0) {
			memcpy(t, idx + 3 * k, 3 * sizeof *t);
			continue;
		}
		if (p->prim_mode == 1) {
			t[0] = idx[k + (k & 1)];
			t[1] = idx[k + 1 - (k & 1)];
		} else {
			t[0] = idx[0];
			t[1] = idx[k + 1];
		}
		t[2] = idx[k + 2];
	}
	free(idx);
	*out = tris;
	return NM_OK;
}
