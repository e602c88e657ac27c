/* TEX1: BTI headers (FORMATS.md 2.1, 3.7). Image and palette offsets are relative to
 * each header; several headers may point at the same image bytes. Only the headers
 * and names are read at mount; images are decoded by the PNG producers (tree_tex1.c). */
#include <stdio.h>
#include <stdlib.h>
#include "codec/gx.h"
#include "formats/j3d/j3d.h"

#define MAX_LEVELS 11          /* 1024 x 1024 down to 1 x 1 */

static void tex_fail(j3d_model *m, const j3d_chunk *c, j3d_texture *t, uint64_t rel,
		     const char *what)
{
	t->ok = false;
	j3d_chunk_fail(c, m, &t->err, rel, "texture %s: %s", t->name ? t->name : "?", what);
}

static void check_texture(j3d_model *m, const j3d_chunk *c, j3d_texture *t, uint64_t hdr_rel)
{
	char msg[160];
	uint64_t img = hdr_rel + t->img_off;
	t->ok = true;
	if (!nm_gx_format_name(t->fmt)) {
		snprintf(msg, sizeof msg, "unknown image format 0x%x", t->fmt);
		tex_fail(m, c, t, hdr_rel, msg);
		return;
	}
	if (t->width == 0 || t->height == 0 || nm_gx_level_size(t->fmt, t->width, t->height) == 0) {
		snprintf(msg, sizeof msg, "unusable size %ux%u", t->width, t->height);
		tex_fail(m, c, t, hdr_rel + 2, msg);
		return;
	}
	unsigned want = t->images ? t->images : 1;
	if (want > MAX_LEVELS)
		want = MAX_LEVELS;
	t->img_len = 0;
	t->levels = 0;
	for (unsigned n = 0; n < want; n++) {
		unsigned w = t->width >> n, h = t->height >> n;
		size_t len = nm_gx_level_size(t->fmt, w ? w : 1, h ? h : 1);
		/* Mips that do not fit are left out; the base level must fit. */
		if (img > c->size || t->img_len + len > c->size - img)
			break;
		t->img_len += len;
		t->levels++;
	}
	if (!t->levels) {
		snprintf(msg, sizeof msg, "image data (0x%zx bytes at chunk offset 0x%llx) runs "
			 "past the end of the chunk",
			 nm_gx_level_size(t->fmt, t->width, t->height), (unsigned long long)img);
		tex_fail(m, c, t, hdr_rel + 0x1C, msg);
		return;
	}
	t->img_abs = c->off + img;
	if (nm_gx_format_is_indexed(t->fmt)) {
		uint64_t pal = hdr_rel + t->pal_off;
		if (!nm_gx_palette_format_name(t->pal_fmt)) {
			snprintf(msg, sizeof msg, "unknown palette format %u", t->pal_fmt);
			tex_fail(m, c, t, hdr_rel + 9, msg);
			return;
		}
		if (pal > c->size || (uint64_t)t->npal * 2 > c->size - pal) {
			snprintf(msg, sizeof msg, "palette of %u entries at chunk offset 0x%llx runs "
				 "past the end of the chunk", t->npal, (unsigned long long)pal);
			tex_fail(m, c, t, hdr_rel + 0x0C, msg);
			return;
		}
		t->pal_abs = c->off + pal;
	}
}

void j3d_read_bti(j3d_model *m, const j3d_chunk *c, nm_view *v, size_t o,
		  uint64_t hdr_rel, j3d_texture *t)
{
	t->m = m;
	t->shares = -1;
	t->fmt = nm_u8(v, o);
	t->alpha = nm_u8(v, o + 1);
	t->width = nm_u16(v, o + 2);
	t->height = nm_u16(v, o + 4);
	t->wrap_s = nm_u8(v, o + 6);
	t->wrap_t = nm_u8(v, o + 7);
	t->pal_enabled = nm_u8(v, o + 8);
	t->pal_fmt = nm_u8(v, o + 9);
	t->npal = nm_u16(v, o + 0x0A);
	t->pal_off = nm_u32(v, o + 0x0C);
	for (int k = 0; k < 3; k++)
		t->flags[k] = nm_u8(v, o + 0x10 + (size_t)k);
	t->max_aniso = nm_u8(v, o + 0x13);
	t->min_filter = nm_u8(v, o + 0x14);
	t->mag_filter = nm_u8(v, o + 0x15);
	t->min_lod = nm_s8(v, o + 0x16);
	t->max_lod = nm_s8(v, o + 0x17);
	t->images = nm_u8(v, o + 0x18);
	t->unknown = nm_u8(v, o + 0x19);
	t->lod_bias = nm_s16(v, o + 0x1A);
	t->img_off = nm_u32(v, o + 0x1C);
	t->hdr_abs = c->off + hdr_rel;
	check_texture(m, c, t, hdr_rel);
}

struct shared_key {
	uint64_t img;
	uint32_t index;
};

static int cmp_key(const void *a, const void *b)
{
	const struct shared_key *x = a, *y = b;
	if (x->img != y->img)
		return x->img < y->img ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

nm_status j3d_parse_tex1(j3d_model *m, const j3d_chunk *c, j3d_tex1 *x, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x14, "TEX1 header", &v, err);
	if (s != NM_OK)
		return s;
	x->count = nm_u16(&v, 0x08);
	x->off_headers = nm_u32(&v, 0x0C);
	x->off_names = nm_u32(&v, 0x10);
	nm_view_free(&v);
	x->tex = nm_tree_alloc_array(m->t, x->count, sizeof *x->tex);
	if (!x->tex)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!x->count)
		return NM_OK;
	if (x->off_names) {
		char **names;
		size_t got;
		s = j3d_names_soft(m, c, x->off_names, x->count, &names, &got, &x->names_problem,
				   err);
		if (s != NM_OK)
			return s;
		for (uint16_t i = 0; i < x->count; i++)
			x->tex[i].name = names[i];
	}
	s = j3d_load(m, c, x->off_headers, (uint64_t)x->count * 0x20, "BTI header table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < x->count; i++)
		j3d_read_bti(m, c, &v, (size_t)i * 0x20, (uint64_t)x->off_headers + (size_t)i * 0x20,
			     &x->tex[i]);
	nm_view_free(&v);
	/* Shared image data: sort by image offset, point each texture at the first of its run. */
	struct shared_key *keys = malloc((size_t)x->count * sizeof *keys);
	if (!keys)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	size_t n = 0;
	for (uint16_t i = 0; i < x->count; i++)
		if (x->tex[i].ok)
			keys[n++] = (struct shared_key){ x->tex[i].img_abs, i };
	qsort(keys, n, sizeof *keys, cmp_key);
	for (size_t k = 1; k < n; k++)
		if (keys[k].img == keys[k - 1].img)
			x->tex[keys[k].index].shares = x->tex[keys[k - 1].index].shares >= 0
						       ? x->tex[keys[k - 1].index].shares
						       : (int)keys[k - 1].index;
	free(keys);
	return NM_OK;
}
