/* tex1/: per texture NAME.png (level 0), NAME.mip1.png ... (further levels that fit in
 * the chunk), NAME.txt (the BTI header, fields named), NAME.bin (the undecoded image
 * bytes of those levels) and NAME.palette.bin for indexed formats. PNG sizes follow
 * from width, height and channels (stored deflate), so nothing decodes before a read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gx.h"
#include "export/png.h"
#include "export/record.h"
#include "export/tex_inverse.h"
#include "export/text.h"
#include "formats/j3d/j3d.h"
#include "lib/alloc.h"

/* PNG channels: the format's natural layout (grey, grey+alpha, RGB or RGBA). */
static unsigned channels(const j3d_texture *t)
{
	switch (t->fmt) {
	case NM_GX_I4: case NM_GX_I8: return 1;
	case NM_GX_IA4: case NM_GX_IA8: return 2;
	case NM_GX_RGB565: return 3;
	case NM_GX_C4: case NM_GX_C8: case NM_GX_C14X2:
		return t->pal_fmt == NM_GX_PAL_IA8 ? 2 : t->pal_fmt == NM_GX_PAL_RGB565 ? 3 : 4;
	default: return 4;
	}
}

#define NAME_BUF 512

static unsigned level_dim(unsigned d, unsigned n)
{
	return d >> n ? d >> n : 1;
}

static uint64_t level_offset(const j3d_texture *t, unsigned level)
{
	uint64_t off = 0;
	for (unsigned n = 0; n < level; n++)
		off += nm_gx_level_size(t->fmt, level_dim(t->width, n), level_dim(t->height, n));
	return off;
}

struct level_ref {
	j3d_texture *t;
	unsigned level;
	unsigned channels;  /* the PNG's: channels(t), or 2 for model.glb's I4/I8 */
};

static nm_status produce_level(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	struct level_ref *ref = arg;
	const j3d_texture *t = ref->t;
	j3d_model *m = t->m;
	unsigned w = level_dim(t->width, ref->level), h = level_dim(t->height, ref->level);
	size_t len = nm_gx_level_size(t->fmt, w, h);
	uint8_t *src = NULL, *pal = NULL;
	(void)ctx;
	/* The RGBA buffer first: it is the largest, and the limit refuses it before anything
	 * else is allocated. */
	uint8_t *rgba = nm_alloc(o->opt, (uint64_t)w * h, 4, err, m->file, "TEX1", t->img_abs);
	nm_status s = rgba ? nm_reader_load(m->r, t->img_abs + level_offset(t, ref->level), len,
					    "TEX1", &src, err)
			   : err->code;
	bool indexed = nm_gx_format_is_indexed(t->fmt);
	if (s == NM_OK && indexed && t->npal)
		s = nm_reader_load(m->r, t->pal_abs, (size_t)t->npal * 2, "TEX1", &pal, err);
	if (s != NM_OK)
		goto done;
	s = nm_gx_decode(t->fmt, src, len, w, h, pal, indexed ? t->npal : 0, t->pal_fmt, rgba);
	if (s != NM_OK) {
		s = nm_fail(err, s, m->file, "TEX1", t->img_abs, "texture %s level %u: %s",
			    t->stem, ref->level, nm_status_str(s));
		goto done;
	}
	s = nm_png_write(o, rgba, w, h, ref->channels);
	if (s != NM_OK)
		nm_fail(err, s, m->file, "TEX1", t->img_abs, "texture %s: PNG encoding failed",
			t->stem);
done:
	free(src);
	free(pal);
	free(rgba);
	return s;
}

/* Rows [y0, y1) of a level, y0 a multiple of 8: GX blocks are 4 or 8 texels high and
 * their rows lie one after another, so 8 rows begin a row of blocks in every format. */
#define ROWS_BAND 8u

static nm_status level_rows(void *arg, unsigned y0, unsigned y1, uint8_t *rgba, nm_error *err)
{
	struct level_ref *ref = arg;
	const j3d_texture *t = ref->t;
	j3d_model *m = t->m;
	unsigned w = level_dim(t->width, ref->level);
	size_t len = nm_gx_level_size(t->fmt, w, y1 - y0);
	uint64_t at = t->img_abs + level_offset(t, ref->level) +
		      nm_gx_level_size(t->fmt, w, ROWS_BAND) * (y0 / ROWS_BAND);
	uint8_t *src = NULL, *pal = NULL;
	bool indexed = nm_gx_format_is_indexed(t->fmt);
	nm_status s = nm_reader_load(m->r, at, len, "TEX1", &src, err);
	if (s == NM_OK && indexed && t->npal)
		s = nm_reader_load(m->r, t->pal_abs, (size_t)t->npal * 2, "TEX1", &pal, err);
	if (s == NM_OK &&
	    (s = nm_gx_decode(t->fmt, src, len, w, y1 - y0, pal, indexed ? t->npal : 0,
			      t->pal_fmt, rgba)) != NM_OK)
		nm_fail(err, s, m->file, "TEX1", t->img_abs, "texture %s level %u: %s", t->stem,
			ref->level, nm_status_str(s));
	free(src);
	free(pal);
	return s;
}

/* A range of a level's PNG from the rows it holds (export/png.h). */
static nm_status range_level(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			     nm_error *err)
{
	struct level_ref *ref = arg;
	const j3d_texture *t = ref->t;
	(void)ctx;
	nm_png_image img = { level_dim(t->width, ref->level), level_dim(t->height, ref->level),
			     ref->channels, ROWS_BAND, level_rows, arg, t->m->file, "TEX1",
			     t->img_abs };
	return nm_png_write_range(o, &img, off, len, err);
}

/* Encoding an edited level (nmodel apply) in the texture's own format. An indexed
 * texture keeps its palette when every texel's colour is in it; a new palette (for
 * other colours) is written back only where it changes nothing else: a texture of one
 * image whose palette no other header points at. */
struct tex_encode {
	const j3d_texture *t;
	uint8_t *palette;         /* npal entries as stored, then as encoded */
	bool may_change;
	const char *why_not;      /* when !may_change */
};

static nm_status encode_gx(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			   unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err)
{
	struct tex_encode *x = ctx;
	const j3d_texture *t = x->t;
	bool indexed = nm_gx_format_is_indexed(t->fmt), changed = false;
	nm_status s = nm_gx_encode(nm_reader_options(t->m->r), t->fmt, rgba, w, h, dst, len,
				   indexed ? x->palette : NULL, indexed ? t->npal : 0, t->pal_fmt,
				   &changed);
	if (s != NM_OK)
		return nm_fail(err, s, t->m->file, "TEX1", t->img_abs, "%s level %u (%s): cannot "
			       "be encoded: %s", t->stem, level, nm_gx_format_name(t->fmt),
			       nm_status_str(s));
	if (!changed)
		return NM_OK;
	if (!x->may_change)
		return nm_fail(err, NM_E_UNSUPPORTED, t->m->file, "TEX1", t->pal_abs, "%s level "
			       "%u has colours its palette lacks, and a new palette would %s: use "
			       "only the palette's colours (%s.palette.bin)", t->stem, level,
			       x->why_not, t->stem);
	if (ed)
		nm_edit_patch(ed, t->m->r, t->pal_abs, x->palette, (size_t)t->npal * 2, "TEX1", 0,
			      "palette");
	x->may_change = false;
	x->why_not = "differ from the one level 0 was given";
	return NM_OK;
}

/* A level's bytes as the tree's PNG shows them (the palette as encoding left it). */
static nm_status decode_gx(void *ctx, unsigned level, const uint8_t *src, size_t len,
			   unsigned w, unsigned h, uint8_t *rgba, nm_error *err)
{
	struct tex_encode *x = ctx;
	const j3d_texture *t = x->t;
	bool indexed = nm_gx_format_is_indexed(t->fmt);
	nm_status s = nm_gx_decode(t->fmt, src, len, w, h, indexed ? x->palette : NULL,
				   indexed ? t->npal : 0, t->pal_fmt, rgba);
	if (s != NM_OK)
		return nm_fail(err, s, t->m->file, "TEX1", t->img_abs, "texture %s level %u: %s",
			       t->stem, level, nm_status_str(s));
	return NM_OK;
}

/* An edited level PNG: that level in the texture's format, and when it is level 0 the
 * other levels shown made from it (export/tex_inverse.h). */
static nm_status invert_level(void *ctx, void *arg, const uint8_t *png, size_t len,
			      nm_edit *ed, nm_error *err)
{
	struct level_ref *ref = arg;
	const j3d_texture *t = ref->t;
	j3d_model *m = t->m;
	(void)ctx;
	nm_tex_level levels[16];
	unsigned n = t->levels < 16 ? t->levels : 16;
	for (unsigned l = 0; l < n; l++) {
		unsigned w = level_dim(t->width, l), h = level_dim(t->height, l);
		levels[l] = (nm_tex_level){ w, h, m->r, t->img_abs + level_offset(t, l),
					    nm_gx_level_size(t->fmt, w, h) };
	}
	struct tex_encode x = { .t = t, .may_change = t->images <= 1 };
	x.why_not = "change the image's other mip levels";
	for (uint16_t k = 0; x.may_change && k < m->tex1->count; k++) {
		const j3d_texture *o = &m->tex1->tex[k];
		if (o != t && o->ok && nm_gx_format_is_indexed(o->fmt) && o->img_abs != t->img_abs &&
		    o->pal_abs < t->pal_abs + (uint64_t)t->npal * 2 &&
		    t->pal_abs < o->pal_abs + (uint64_t)o->npal * 2) {
			x.may_change = false;
			x.why_not = "change the colours of another texture that shares it";
		}
	}
	nm_status s = NM_OK;
	if (nm_gx_format_is_indexed(t->fmt) && t->npal)
		s = nm_reader_load(m->r, t->pal_abs, (size_t)t->npal * 2, "TEX1", &x.palette, err);
	if (s == NM_OK) {
		nm_tex_chain c = { .levels = levels, .nlevels = n, .encode = encode_gx,
				   .decode = decode_gx, .ctx = &x, .opt = nm_reader_options(m->r),
				   .file = m->file, .chunk = "TEX1" };
		s = nm_tex_invert(&c, ref->level, png, len, ed, err);
	}
	free(x.palette);
	return s;
}

/* Level 0 for model.glb: the tree's NAME.png, but grey+alpha for I4 and I8, whose
 * intensity GX samples as alpha too (gx.c): a glTF material that blends or alpha-tests
 * with such a texture needs that alpha, and a grey PNG has none. */
static bool glb_png(nm_tree *t, j3d_texture *tx, struct level_ref *level0, uint64_t size,
		    nm_node *file)
{
	if (tx->fmt != NM_GX_I4 && tx->fmt != NM_GX_I8) {
		tx->png = (nm_png_source){ size, produce_level, NULL, level0, t, file };
		return true;
	}
	struct level_ref *ref = nm_tree_alloc_array(t, 1, sizeof *ref);
	if (!ref)
		return false;
	*ref = (struct level_ref){ tx, 0, 2 };
	tx->png = (nm_png_source){ nm_png_size(tx->width, tx->height, 2), produce_level, NULL,
				   ref, NULL, NULL }; /* no file shows this variant */
	return true;
}

/* NAME.txt (header.txt of a BTI) over a view of the texture's 0x20-byte header. The
 * sampler fields edit in place; format, size, palette and image counts and offsets say
 * where and how big the image is, so another value would be a layout change. */
static void texture_record(nm_rec *r, j3d_model *m, uint32_t i)
{
	const j3d_tex1 *x = m->tex1;
	const j3d_texture *t = &x->tex[i];
	static const char layout[] = "says where the image or palette is or how big it is: "
				     "another value would change the file's layout (refused)";
	nm_rec_derived(r, "index", "%u", i);
	if (t->name)
		nm_rec_derived_str(r, "name", t->name);
	nm_rec_derived(r, "header_offset", "0x%llx", (unsigned long long)t->hdr_abs);
	r->locked = layout;
	nm_rec_enum(r, "format", 0x00, NM_FIELD_U8, &j3d_gx_names, J3D_K_GX_FORMAT);
	r->locked = NULL;
	nm_rec_int(r, "alpha", 0x01, NM_FIELD_U8);
	r->locked = layout;
	nm_rec_int(r, "width", 0x02, NM_FIELD_U16);
	nm_rec_int(r, "height", 0x04, NM_FIELD_U16);
	r->locked = NULL;
	nm_rec_enum(r, "wrap_s", 0x06, NM_FIELD_U8, &j3d_gx_names, J3D_K_WRAP);
	nm_rec_enum(r, "wrap_t", 0x07, NM_FIELD_U8, &j3d_gx_names, J3D_K_WRAP);
	nm_rec_int(r, "palettes_enabled", 0x08, NM_FIELD_U8);
	r->locked = layout;
	nm_rec_enum(r, "palette_format", 0x09, NM_FIELD_U8, &j3d_gx_names, J3D_K_PALETTE_FORMAT);
	nm_rec_int(r, "palette_entries", 0x0A, NM_FIELD_U16);
	nm_rec_hex(r, "palette_offset", 0x0C, NM_FIELD_U32, 0);
	r->locked = NULL;
	nm_rec_derived(r, "mipmap_flags", "0x%02x 0x%02x 0x%02x", t->flags[0], t->flags[1],
		       t->flags[2]);
	nm_rec_int(r, "max_anisotropy", 0x13, NM_FIELD_U8);
	nm_rec_enum(r, "min_filter", 0x14, NM_FIELD_U8, &j3d_gx_names, J3D_K_FILTER);
	nm_rec_enum(r, "mag_filter", 0x15, NM_FIELD_U8, &j3d_gx_names, J3D_K_FILTER);
	nm_rec_scaled(r, "min_lod", 0x16, NM_FIELD_S8, 1, 1.0, 8.0);
	nm_rec_scaled(r, "max_lod", 0x17, NM_FIELD_S8, 1, 1.0, 8.0);
	r->locked = layout;
	nm_rec_int(r, "image_count", 0x18, NM_FIELD_U8);
	r->locked = NULL;
	nm_rec_int(r, "unknown_0x19", 0x19, NM_FIELD_U8);
	nm_rec_scaled(r, "lod_bias", 0x1A, NM_FIELD_S16, 1, 1.0, 100.0);
	r->locked = layout;
	nm_rec_hex(r, "image_offset", 0x1C, NM_FIELD_U32, 0);
	r->locked = NULL;
	if (!t->ok) {
		nm_rec_derived_str(r, "error", t->err.msg);
		return;
	}
	nm_rec_derived(r, "image_data_offset", "0x%llx", (unsigned long long)t->img_abs);
	nm_rec_derived(r, "image_data_size", "%llu", (unsigned long long)t->img_len);
	nm_rec_derived(r, "levels_shown", "%u", t->levels);
	if (nm_gx_format_is_indexed(t->fmt))
		nm_rec_derived(r, "palette_data_offset", "0x%llx", (unsigned long long)t->pal_abs);
	if (t->shares >= 0) {
		nm_rec_derived(r, "shares_image_with", "%d", t->shares);
		if (x->tex[t->shares].stem)
			nm_rec_derived(r, "shares_image_with_file", "%s.png",
				       x->tex[t->shares].stem);
	}
}

/* File name stem for texture i, unique among everything in tex1/. */
static char *texture_stem(nm_tree *t, nm_node *dir, const j3d_texture *tx, uint16_t i)
{
	static const char *const exts[] = {
		".png", ".txt", ".bin", ".palette.bin", ".mip1.png", ".mip2.png", ".mip3.png",
		".mip4.png", ".mip5.png", ".mip6.png", ".mip7.png", ".mip8.png", ".mip9.png",
		".mip10.png", NULL
	};
	char fallback[32];
	snprintf(fallback, sizeof fallback, "texture%u", i);
	char *safe = j3d_safe_stem(tx->name);
	char *stem = nm_unique_stem(t, dir, safe ? safe : fallback, exts);
	free(safe);
	return stem;
}

static bool add_file_name(char *buf, size_t n, const char *stem, const char *ext)
{
	return (size_t)snprintf(buf, n, "%s%s", stem, ext) < n;
}

nm_status j3d_tree_tex1(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	j3d_tex1 *x = m->tex1;
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	nm_kv(&o, "count", "%u", x->count);
	nm_kv(&o, "header_table_offset", "0x%x", x->off_headers);
	nm_kv(&o, "name_table_offset", "0x%x", x->off_names);
	if (x->names_problem)
		nm_kv_str(&o, "name_table_problem", x->names_problem);
	nm_node *n = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	/* One texture at a time, so each stem is checked against every file made before
	 * it; shares_image_with always names an earlier texture, whose stem is known. */
	for (uint16_t i = 0; i < x->count; i++) {
		j3d_texture *tx = &x->tex[i];
		char *stem = texture_stem(t, c->dir, tx, i);
		if (!stem)
			return NM_E_NOMEM;
		tx->stem = j3d_strdup(m, stem, strlen(stem));
		free(stem);
		if (!tx->stem)
			return NM_E_NOMEM;
		nm_status s = j3d_texture_files(t, c->dir, x, i, NULL);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}

void j3d_texture_limit(nm_tree *t, const j3d_tex1 *x, uint16_t i)
{
	j3d_texture *tx = &x->tex[i];
	uint64_t max = nm_tree_options(t)->max_dimension;
	if (tx->ok && (tx->width > max || tx->height > max)) {
		tx->ok = false;
		nm_fail(&tx->err, NM_E_LIMIT, tx->m->file, x->chunk->magic, tx->hdr_abs,
			"texture %s: %ux%u is larger than max_dimension (%llu): not decoded",
			tx->name ? tx->name : "?", tx->width, tx->height, (unsigned long long)max);
	}
}

nm_status j3d_texture_files(nm_tree *t, nm_node *dir, const j3d_tex1 *x, uint16_t i,
			    const char *text_name)
{
	j3d_texture *tx = &x->tex[i];
	j3d_model *m = tx->m;
	char name[NAME_BUF];
	if (text_name)
		snprintf(name, sizeof name, "%s", text_name);
	else if (!add_file_name(name, sizeof name, tx->stem, ".txt"))
		return NM_E_NOMEM;
	j3d_texture_limit(t, x, i);
	nm_view v;
	nm_error err;
	if (nm_view_load(m->r, tx->hdr_abs, 0x20, x->chunk->magic, NM_BIG, &v, &err) != NM_OK)
		return err.code;
	j3d_record_ref how = { .m = m, .off = tx->hdr_abs, .len = 0x20,
			       .chunk = x->chunk->magic, .index = i, .write = texture_record };
	nm_node *n = j3d_record_file(t, dir, name, &v, &how);
	nm_view_free(&v);
	if (!n)
		return NM_E_NOMEM;
	if (!tx->ok)
		return NM_OK;
	if (nm_tree_range_producer(t, produce_level, range_level) != NM_OK)
		return NM_E_NOMEM;
	if (nm_tree_options(t)->editable &&
	    nm_tree_invert_producer(t, produce_level, invert_level) != NM_OK)
		return NM_E_NOMEM;
	for (unsigned l = 0; l < tx->levels; l++) {
		struct level_ref *ref = nm_tree_alloc_array(m->t, 1, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		*ref = (struct level_ref){ tx, l, channels(tx) };
		char ext[24];
		if (l)
			snprintf(ext, sizeof ext, ".mip%u.png", l);
		else
			snprintf(ext, sizeof ext, ".png");
		uint64_t size = nm_png_size(level_dim(tx->width, l), level_dim(tx->height, l),
					    channels(tx));
		nm_node *file = NULL;
		if (!size || !add_file_name(name, sizeof name, tx->stem, ext) ||
		    !(file = nm_lazy(t, dir, name, size, produce_level, NULL, ref)))
			return NM_E_NOMEM;
		if (l == 0 && !glb_png(t, tx, ref, size, file))
			return NM_E_NOMEM;
	}
	if (!add_file_name(name, sizeof name, tx->stem, ".bin") ||
	    !nm_slice(t, dir, name, m->r, tx->img_abs, tx->img_len))
		return NM_E_NOMEM;
	if (nm_gx_format_is_indexed(tx->fmt) &&
	    (!add_file_name(name, sizeof name, tx->stem, ".palette.bin") ||
	     !nm_slice(t, dir, name, m->r, tx->pal_abs, (uint64_t)tx->npal * 2)))
		return NM_E_NOMEM;
	return NM_OK;
}
