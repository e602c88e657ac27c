/* tex: texture entries (FORMATS.md 4.5) and where each mip level of each face lies in
 * the texture data. Only offsets and sizes are checked here; nothing is decoded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmb/cmb.h"

#define TEX_ENTRY 0x24

/* PNG channels per format: the natural layout (RGB for formats without alpha, grey for
 * luminance, grey+alpha for luminance+alpha and for alpha-only, whose decoder gives white
 * + alpha). HILO8 is two channels of a normal map, shown as RGB with B = 0. */
static unsigned png_channels(nm_pica_format f)
{
	switch (f) {
	case NM_PICA_RGB8: case NM_PICA_RGB565: case NM_PICA_ETC1: case NM_PICA_HILO8:
		return 3;
	case NM_PICA_L8: case NM_PICA_L4:
		return 1;
	case NM_PICA_LA8: case NM_PICA_LA4: case NM_PICA_A8: case NM_PICA_A4:
		return 2;
	default:
		return 4;
	}
}

/* The mip chain: level k is (w >> k) x (h >> k); PICA tiles are 8x8, so the chain stops
 * before a level narrower than 8 (FORMATS.md 1.5). A mip count of 0 means one level. */
static void plan_levels(cmb_texture *tx)
{
	unsigned want = tx->mips ? tx->mips : 1;
	uint64_t off = 0;
	tx->nlevels = 0;
	for (unsigned k = 0; k < want && k < CMB_MAX_LEVELS; k++) {
		unsigned w = tx->width >> k, h = tx->height >> k;
		size_t size = nm_pica_level_size(tx->fmt, w, h);
		if (size == 0)
			break;
		tx->level_off[k] = off;
		tx->level_size[k] = size;
		off += size;
		tx->nlevels = k + 1;
	}
	tx->chain_size = off;
	if (tx->nlevels == 0)
		snprintf(tx->problem, sizeof tx->problem,
			 "%ux%u is not a size PICA200 can tile (multiples of 8, at most %u)",
			 tx->width, tx->height, NM_DIMENSION_MAX);
	else if (tx->nlevels < want)
		snprintf(tx->problem, sizeof tx->problem, "%u of %u mip levels shown (the rest are "
			 "smaller than 8x8)", tx->nlevels, want);
}

static void damaged(cmb_texture *tx, uint64_t at)
{
	tx->damaged = true;
	tx->damaged_at = at;
}

/* Cube maps [L, FORMATS.md 1.5]: the data offset points at six u32 face offsets inside
 * the tex chunk (after the entries); each face offset is relative to the texture data. */
static void plan_faces(const cmb_chunk *c, nm_view *v, cmb_texture *tx, uint32_t ntex)
{
	tx->nfaces = 1;
	tx->face_rel[0] = tx->data_offset;
	if (!tx->is_cube)
		return;
	uint64_t entries_end = 0x0C + (uint64_t)ntex * TEX_ENTRY;
	if (tx->data_offset < entries_end || !nm_view_array(v, tx->data_offset, 6, 4)) {
		v->bad = false;
		snprintf(tx->problem, sizeof tx->problem, "the cube map face table at 0x%x is not "
			 "inside the tex chunk after the entries", tx->data_offset);
		tx->nlevels = 0;
		damaged(tx, c->off + tx->data_offset);
		return;
	}
	tx->nfaces = 6;
	for (int f = 0; f < 6; f++)
		tx->face_rel[f] = nm_u32(v, tx->data_offset + 4 * (size_t)f);
}

/* Keep the levels whose bytes lie inside the source (size bytes, the texture data from
 * base) for every face. */
static void check_bytes(cmb_texture *tx, uint64_t base, uint64_t size)
{
	for (unsigned f = 0; f < tx->nfaces; f++) {
		tx->face_off[f] = base + tx->face_rel[f];
		unsigned k = 0;
		while (k < tx->nlevels && tx->face_off[f] <= size &&
		       tx->level_off[k] + tx->level_size[k] <= size - tx->face_off[f])
			k++;
		if (k < tx->nlevels) {
			char face[32] = "";
			if (tx->nfaces > 1)
				snprintf(face, sizeof face, " of face %u", f);
			snprintf(tx->problem, sizeof tx->problem, "level %u%s at 0x%llx (0x%llx bytes) "
				 "runs past the end of the file", k, face,
				 (unsigned long long)(tx->face_off[f] + tx->level_off[k]),
				 (unsigned long long)tx->level_size[k]);
			tx->nlevels = k;
			damaged(tx, tx->face_off[f] + tx->level_off[k]);
		}
	}
	tx->bin_off = tx->face_off[0] < size ? tx->face_off[0] : size;
	tx->bin_len = 0;
	if (tx->bin_off < size)
		tx->bin_len = tx->size < size - tx->bin_off ? tx->size : size - tx->bin_off;
}

void cmb_place_texture(cmb_texture *tx, uint64_t base, uint32_t rel, uint64_t size)
{
	tx->problem[0] = '\0';
	tx->nfaces = 1;
	tx->face_rel[0] = rel;
	plan_levels(tx);
	check_bytes(tx, base, size);
}

struct span { uint64_t start; uint32_t index; };

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* A texture whose data (data size bytes from its start) runs into the start of the
 * texture that follows it in the file is flagged: its .bin and PNGs hold the other's
 * bytes too. Sorted, so a hostile table of thousands costs n log n. Cube maps, whose
 * faces lie apart, and external data are left out. */
static nm_status flag_overlaps(cmb_model *m)
{
	struct span *v = calloc((size_t)m->ntex + 1, sizeof *v);
	size_t n = 0;
	if (!v)
		return NM_E_NOMEM;
	for (uint32_t i = 0; i < m->ntex; i++)
		if (!m->tex[i].external && m->tex[i].nfaces == 1 && m->tex[i].size)
			v[n++] = (struct span){ m->tex[i].face_off[0], i };
	qsort(v, n, sizeof *v, cmp_span);
	for (size_t k = 0; k + 1 < n; k++) {
		cmb_texture *tx = &m->tex[v[k].index];
		if (v[k + 1].start - v[k].start < tx->size)
			tx->overlaps = v[k + 1].index;
	}
	free(v);
	return NM_OK;
}

nm_status cmb_parse_tex(cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_TEX];
	if (!c->present || c->failed)
		return NM_OK;
	nm_view *v = &c->v;
	uint32_t n = nm_u32(v, 0x08);
	if (!nm_view_array(v, 0x0C, n, TEX_ENTRY)) {
		cmb_chunk_fail(m, CMB_TEX, v->bad_off, "a table of %u textures of 0x%x bytes runs "
			       "past the end of the chunk (0x%llx bytes)", n, TEX_ENTRY,
			       (unsigned long long)c->len);
		return NM_OK;
	}
	m->tex = nm_tree_alloc_array(m->t, n, sizeof *m->tex);
	if (!m->tex)
		return NM_E_NOMEM;
	m->ntex = n;
	for (uint32_t i = 0; i < n; i++) {
		cmb_texture *tx = &m->tex[i];
		size_t o = 0x0C + (size_t)i * TEX_ENTRY;
		tx->entry = (uint32_t)o;
		tx->size = nm_u32(v, o);
		tx->mips = nm_u16(v, o + 0x04);
		tx->is_etc1 = nm_u8(v, o + 0x06);
		tx->is_cube = nm_u8(v, o + 0x07);
		tx->width = nm_u16(v, o + 0x08);
		tx->height = nm_u16(v, o + 0x0A);
		tx->gl_format = nm_u32(v, o + 0x0C);
		tx->data_offset = nm_u32(v, o + 0x10);
		memcpy(tx->raw_name, nm_bytes(v, o + 0x14, CMB_NAME_LEN), CMB_NAME_LEN);
		tx->raw_name[CMB_NAME_LEN] = '\0';
		tx->fmt = nm_pica_format_from_gl(tx->gl_format);
		tx->channels = png_channels(tx->fmt);
		if (tx->fmt == NM_PICA_UNKNOWN)
			snprintf(tx->problem, sizeof tx->problem, "format 0x%08x is not a PICA200 "
				 "image format", tx->gl_format);
		else
			plan_levels(tx);
		plan_faces(c, v, tx, n);
		tx->overlaps = -1;
		/* Luigi's Mansion 3D rooms keep their textures in another file and say so
		 * with a texture data offset of 0 (FORMATS.md section 9). */
		tx->external = m->texdata_off == 0;
		tx->src = m->r;
		if (tx->external) {
			snprintf(tx->problem, sizeof tx->problem, "the texture data is external: "
				 "the header's texture data offset is 0, so the data lies in "
				 "another file");
			tx->nlevels = 0;
			tx->bin_off = tx->bin_len = 0; /* data_offset is relative to another file */
			continue;
		}
		if (m->texdata_off >= m->file_size) {
			snprintf(tx->problem, sizeof tx->problem, "the header's texture data offset "
				 "0x%x is not inside the file", m->texdata_off);
			tx->nlevels = 0;
			damaged(tx, m->texdata_off);
		}
		check_bytes(tx, m->texdata_off, m->file_size);
	}
	return flag_overlaps(m);
}
