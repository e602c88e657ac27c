/* VTX1: the attribute formats and where each of the 13 arrays starts (FORMATS.md 3.3).
 * Array lengths are not stored: an array runs to the next array (or the format list, or
 * the chunk end), so count = floor(span / stride). That count is exact from headers but
 * may include padding elements at the end; the true count (max index + 1) would need
 * the display lists, which mount does not walk. */
#include <math.h>
#include <stdlib.h>
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

#define MAX_FORMATS 64

static const uint32_t slot_attr[J3D_VTX_SLOTS] = {
	J3D_A_POS, J3D_A_NRM, J3D_A_NBT, J3D_A_CLR0, J3D_A_CLR1, 0x0D, 0x0E, 0x0F, 0x10,
	0x11, 0x12, 0x13, 0x14
};

static const unsigned color_bytes[6] = { 2, 3, 4, 2, 3, 4 };
static const unsigned comp_bytes[5] = { 1, 1, 2, 2, 4 };

static const j3d_vfmt *find_fmt(const j3d_vtx1 *x, uint32_t attr)
{
	for (size_t i = 0; i < x->nfmts; i++)
		if (x->fmts[i].attr == attr)
			return &x->fmts[i];
	return NULL;
}

static bool is_color(uint32_t attr) { return attr == J3D_A_CLR0 || attr == J3D_A_CLR1; }
static bool is_normal(uint32_t attr) { return attr == J3D_A_NRM || attr == J3D_A_NBT; }

/* Components per array element for a numeric attribute; 0 if the count is unknown. */
static unsigned element_comps(uint32_t attr, uint32_t cnt)
{
	if (attr == J3D_A_POS)
		return cnt == 0 ? 2 : cnt == 1 ? 3 : 0;
	if (is_normal(attr))
		return cnt == 0 ? 3 : cnt == 1 ? 9 : cnt == 2 ? 3 : 0;
	if (attr >= J3D_A_TEX0 && attr <= J3D_A_TEX7)
		return cnt == 0 ? 1 : cnt == 1 ? 2 : 0;
	return 0;
}

/* Normals use their stored shift (the corpus has 16-bit normals with 14 and with 15
 * fractional bits, both of unit length); a shift of 0 on an integer normal falls back
 * to GX's usual 6 (8-bit) or 14 (16-bit) bits. */
static unsigned normal_shift(const j3d_vfmt *f)
{
	if (f->shift || f->type == 4)
		return f->shift;
	return f->type <= 1 ? 6 : 14;
}

static void describe(j3d_vtx1 *x, int slot, uint32_t chunk_size)
{
	j3d_varray *a = &x->arrays[slot];
	a->attr = slot_attr[slot];
	a->fmt = find_fmt(x, a->attr);
	if (!a->fmt && slot == J3D_NBT) {
		const j3d_vfmt *n = find_fmt(x, J3D_A_NRM);
		if (n && (n->cnt == 1 || n->cnt == 2))
			a->fmt = n;
	}
	uint32_t end = chunk_size;
	for (int k = 0; k < J3D_VTX_SLOTS; k++)
		if (x->offs[k] > a->off && x->offs[k] < end)
			end = x->offs[k];
	if (x->fmt_off > a->off && x->fmt_off < end)
		end = x->fmt_off;
	a->span = end - a->off;
	if (!a->fmt) {
		a->problem = "no format entry for this attribute";
		return;
	}
	a->color = is_color(a->attr);
	if (a->color) {
		if (a->fmt->type >= 6) {
			a->problem = "unknown colour type";
			return;
		}
		a->ncomp = 4;
		a->stride = color_bytes[a->fmt->type];
	} else {
		a->ncomp = element_comps(a->attr, a->fmt->cnt);
		if (a->fmt->type >= 5) {
			a->problem = "unknown component type";
			return;
		}
		if (!a->ncomp) {
			a->problem = "unknown component count";
			return;
		}
		a->csize = comp_bytes[a->fmt->type];
		a->stride = a->ncomp * a->csize;
		unsigned shift = is_normal(a->attr) ? normal_shift(a->fmt) : a->fmt->shift;
		a->scale = a->fmt->type == 4 ? 1.0f : ldexpf(1.0f, -(int)(shift & 31));
	}
	a->count = a->span / a->stride;
}

nm_status j3d_parse_vtx1(j3d_model *m, const j3d_chunk *c, j3d_vtx1 *x, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x40, "VTX1 header", &v, err);
	if (s != NM_OK)
		return s;
	x->fmt_off = nm_u32(&v, 0x08);
	for (int k = 0; k < J3D_VTX_SLOTS; k++)
		x->offs[k] = nm_u32(&v, 0x0C + 4 * (size_t)k);
	nm_view_free(&v);
	for (int k = 0; k < J3D_VTX_SLOTS; k++)
		if (x->offs[k] && (x->offs[k] < 0x40 || x->offs[k] >= c->size))
			return j3d_chunk_fail(c, m, err, 0x0C + 4 * (uint64_t)k,
					      "array %d offset 0x%x is outside the chunk data "
					      "(0x40..0x%x)", k, x->offs[k], c->size);
	if (x->fmt_off < 0x40 || x->fmt_off >= c->size)
		return j3d_chunk_fail(c, m, err, 0x08,
				      "format list offset 0x%x is outside the chunk (0x40..0x%x)",
				      x->fmt_off, c->size);
	uint64_t len = (uint64_t)(c->size - x->fmt_off) / 0x10;
	if (len > MAX_FORMATS)
		len = MAX_FORMATS;
	s = j3d_load(m, c, x->fmt_off, len * 0x10, "format list", &v, err);
	if (s != NM_OK)
		return s;
	x->fmts = nm_tree_alloc_array(m->t, len ? len : 1, sizeof *x->fmts);
	if (!x->fmts) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	}
	bool ended = false;
	for (size_t i = 0; i < len; i++) {
		uint32_t attr = nm_u32(&v, 0x10 * i);
		if (attr == J3D_A_NULL) {
			ended = true;
			break;
		}
		x->fmts[x->nfmts++] = (j3d_vfmt){ .attr = attr, .cnt = nm_u32(&v, 0x10 * i + 4),
						  .type = nm_u32(&v, 0x10 * i + 8),
						  .shift = nm_u8(&v, 0x10 * i + 12) };
	}
	nm_view_free(&v);
	if (!ended)
		return j3d_chunk_fail(c, m, err, x->fmt_off,
				      "format list has no end marker within %u entries",
				      (unsigned)len);
	for (int k = 0; k < J3D_VTX_SLOTS; k++) {
		x->arrays[k].off = x->offs[k];
		x->arrays[k].present = x->offs[k] != 0;
		if (x->arrays[k].present)
			describe(x, k, c->size);
		else
			x->arrays[k].attr = slot_attr[k];
	}
	return NM_OK;
}

static float component(const j3d_varray *a, const uint8_t *p)
{
	switch (a->fmt->type) {
	case 0: return p[0] * a->scale;
	case 1: return (int8_t)p[0] * a->scale;
	case 2: return nm_be16(p) * a->scale;
	case 3: return (int16_t)nm_be16(p) * a->scale;
	default: return nm_be_f32(p);
	}
}

void j3d_vtx_floats(const j3d_varray *a, const uint8_t *data, uint32_t i, float *out)
{
	const uint8_t *p = data + (size_t)i * a->stride;
	for (unsigned c = 0; c < a->ncomp; c++)
		out[c] = component(a, p + c * a->csize);
}

static uint8_t x4(unsigned v) { return (uint8_t)(v * 17); }
static uint8_t x5(unsigned v) { return (uint8_t)(v << 3 | v >> 2); }
static uint8_t x6(unsigned v) { return (uint8_t)(v << 2 | v >> 4); }

void j3d_vtx_color(const j3d_varray *a, const uint8_t *data, uint32_t i, uint8_t *rgba)
{
	const uint8_t *p = data + (size_t)i * a->stride;
	unsigned v;
	switch (a->fmt->type) {
	case 0: /* RGB565 */
		v = nm_be16(p);
		rgba[0] = x5(v >> 11);
		rgba[1] = x6(v >> 5 & 63);
		rgba[2] = x5(v & 31);
		rgba[3] = 255;
		break;
	case 1: /* RGB8 */
	case 2: /* RGBX8 */
		rgba[0] = p[0];
		rgba[1] = p[1];
		rgba[2] = p[2];
		rgba[3] = 255;
		break;
	case 3: /* RGBA4 */
		v = nm_be16(p);
		rgba[0] = x4(v >> 12);
		rgba[1] = x4(v >> 8 & 15);
		rgba[2] = x4(v >> 4 & 15);
		rgba[3] = x4(v & 15);
		break;
	case 4: /* RGBA6, 24 bits */
		v = (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
		rgba[0] = x6(v >> 18);
		rgba[1] = x6(v >> 12 & 63);
		rgba[2] = x6(v >> 6 & 63);
		rgba[3] = x6(v & 63);
		break;
	default: /* RGBA8 */
		rgba[0] = p[0];
		rgba[1] = p[1];
		rgba[2] = p[2];
		rgba[3] = p[3];
		break;
	}
}

nm_status j3d_vtx_load(j3d_model *m, const j3d_varray *a, uint8_t **out, nm_error *err)
{
	const j3d_chunk *c = m->vtx1->chunk;
	uint64_t len = (uint64_t)a->count * a->stride;
	return nm_reader_load(m->r, c->off + a->off, (size_t)len, c->magic, out, err);
}

uint32_t j3d_direct_size(const j3d_model *m, uint32_t attr)
{
	if (attr <= J3D_A_TEX7MTXIDX)
		return 1;
	if (!m->vtx1)
		return 0;
	for (int k = 0; k < J3D_VTX_SLOTS; k++) {
		const j3d_varray *a = &m->vtx1->arrays[k];
		if (a->attr != attr)
			continue;
		if (!a->fmt) {
			/* describe() only ran for present arrays; recompute from the format. */
			const j3d_vfmt *f = find_fmt(m->vtx1, attr);
			if (!f)
				return 0;
			if (is_color(attr))
				return f->type < 6 ? color_bytes[f->type] : 0;
			unsigned n = element_comps(attr, f->cnt);
			return f->type < 5 ? n * comp_bytes[f->type] * (is_normal(attr) &&
									f->cnt == 2 ? 3 : 1) : 0;
		}
		if (a->problem)
			return 0;
		return a->stride * (is_normal(attr) && a->fmt->cnt == 2 ? 3 : 1);
	}
	return 0;
}
