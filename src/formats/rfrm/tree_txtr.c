/* The TXTR tree (doc/rfrm.md "Textures"): info.txt; head/ and gpu/ (and any other chunk)
 * with header.txt and raw.bin; gpu/surface.bin, the decompressed surface; tex/K.png for
 * level K (cube maps tex/faceF/K.png, arrays tex/layerL/K.png). Sizes come from HEAD:
 * the surface's from its layout, each PNG's from nm_png_size; nothing is decoded
 * before a read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/astc.h"
#include "codec/gpu_buffer.h"
#include "export/png.h"
#include "export/record.h"
#include "export/text.h"
#include "formats/rfrm/txtr.h"
#include "lib/alloc.h"

/* Whether the GPU chunk was found broken (its error in *err when err is not NULL). */
static bool surface_known_broken(rfrm_txtr *x, nm_error *err)
{
	pthread_mutex_lock(&x->lock);
	bool broken = x->surface_broken;
	if (broken && err)
		*err = x->surface_err;
	pthread_mutex_unlock(&x->lock);
	return broken;
}

static nm_status produce_surface(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	rfrm_txtr *x = arg;
	(void)ctx;
	if (surface_known_broken(x, err))
		return err->code;
	/* Only a broken stream is remembered: a limit or a short read may not recur. */
	nm_status s = rfrm_txtr_surface(x, o, err);
	if (s == NM_E_FORMAT) {
		pthread_mutex_lock(&x->lock);
		x->surface_broken = true;
		x->surface_err = *err;
		pthread_mutex_unlock(&x->lock);
	}
	return s;
}

/* A range of surface.bin: the first buffer's prefix through it (its cost grows with off,
 * so the head is what gains). */
static nm_status range_surface(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	rfrm_txtr *x = arg;
	(void)ctx;
	if (surface_known_broken(x, NULL) || off + len > x->surf.size)
		return NM_E_UNSUPPORTED;
	uint8_t *prefix = nm_alloc(o->opt, off + len, 1, err, x->name, "GPU", x->gpu->data_off);
	nm_status s = prefix ? rfrm_txtr_surface_prefix(x, prefix, (size_t)(off + len), err)
			     : err->code;
	if (s == NM_OK)
		nm_out_write(o, prefix + off, len);
	free(prefix);
	return s;
}

/* n buffers, the largest first: a refusal comes before anything is allocated. */
static nm_status alloc_largest_first(const nm_options *opt, const uint64_t *need, uint8_t **buf,
				     int n, const rfrm_txtr *x, nm_error *err)
{
	bool done[4] = { false };
	for (int k = 0; k < n; k++) {
		int big = -1;
		for (int i = 0; i < n; i++)
			if (!done[i] && (big < 0 || need[i] > need[big]))
				big = i;
		done[big] = true;
		buf[big] = nm_alloc(opt, need[big], 1, err, x->name, "GPU", x->gpu->data_off);
		if (!buf[big])
			return err->code;
	}
	return NM_OK;
}

static nm_status level_fail(nm_error *err, nm_status s, const rfrm_txtr_level *ref,
			    const char *what)
{
	char layer[24];
	rfrm_txtr_layer_dir(ref->x, ref->layer, layer, sizeof layer);
	return nm_fail(err, s, ref->x->name, "GPU", ref->x->gpu->data_off,
		       "level %u%s%s of the %s surface: %s", ref->level, layer[0] ? " of " : "",
		       layer, ref->x->fmt->name, what);
}

/* Take the level's bytes from the surface, put them in rows, decode. surface: the whole
 * surface in memory, or NULL to read it through the tree, made whole into its cache for
 * the other levels (a mount reads surface.bin by ranges otherwise: each level would
 * inflate the stream again up to its bytes). */
static nm_status level_png(const rfrm_txtr_level *ref, const uint8_t *surface, nm_out *o,
			   nm_error *err)
{
	rfrm_txtr *x = ref->x;
	const nm_tegra_level *l = &x->surf.level[ref->level];
	uint64_t at = x->surf.layer_size * ref->layer + l->offset;
	uint64_t need[3] = { (uint64_t)l->width * l->height * 4, l->size, l->linear_size };
	uint8_t *buf[3] = { NULL, NULL, NULL };
	nm_status s = alloc_largest_first(o->opt, need, buf, 3, x, err);
	if (s == NM_OK)
		rfrm_txtr_decode_ahead(x->fmt, o->opt);
	uint8_t *rgba = buf[0], *sw = buf[1], *lin = buf[2];
	size_t got = 0;
	if (s == NM_OK && surface) {
		memcpy(sw, surface + at, (size_t)l->size);   /* the layout is inside surf.size */
		got = (size_t)l->size;
	} else if (s == NM_OK) {
		s = nm_read_made(x->t, x->surface_node, at, sw, (size_t)l->size, &got, err);
	}
	if (s == NM_OK && got != l->size)
		s = level_fail(err, NM_E_IO, ref, "the surface is shorter than its layout");
	if (s == NM_OK && nm_tegra_deswizzle(sw, got, l->row_bytes, l->blocks_y, l->block_height,
					     lin) != NM_OK)
		s = level_fail(err, NM_E_FORMAT, ref, "cannot deswizzle it");
	if (s == NM_OK) {
		s = rfrm_txtr_decode(x->fmt, o->opt, o->threads, lin, (size_t)l->linear_size,
				     l->width, l->height, rgba);
		if (s == NM_E_LIMIT)
			s = nm_fail_limit(err, o->opt, NM_ASTC_CONTEXT_BYTES, x->name, "GPU",
					  x->gpu->data_off);
		else if (s != NM_OK)
			s = level_fail(err, s, ref, "cannot decode it");
	}
	if (s == NM_OK)
		s = nm_png_write(o, rgba, l->width, l->height, x->fmt->channels);
	for (int i = 0; i < 3; i++)
		free(buf[i]);
	return s;
}

static nm_status produce_png(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)ctx;
	return level_png(arg, NULL, o, err);
}

/* Rows [y0, y1) of a level (whole rows of GOBs: 8 rows of blocks): the surface's bytes
 * through them (from the cache when the surface is made, else the first buffer's
 * prefix), those GOB rows alone in rows, decoded. A prefix past half the surface costs
 * about what the whole does: the whole is made then, and kept for the next level (a
 * file manager sniffing each level's head inflated the stream again for each one). */
static nm_status level_rows(void *arg, unsigned y0, unsigned y1, uint8_t *rgba, nm_error *err)
{
	const rfrm_txtr_level *ref = arg;
	rfrm_txtr *x = ref->x;
	const nm_tegra_level *l = &x->surf.level[ref->level];
	const nm_options *opt = nm_tree_options(x->t);
	uint64_t by0 = y0 / x->fmt->block_h, by1 = (y1 + x->fmt->block_h - 1) / x->fmt->block_h;
	if (by1 > l->blocks_y)
		by1 = l->blocks_y;
	uint64_t gobs_x = (l->row_bytes + NM_TEGRA_GOB_WIDTH - 1) / NM_TEGRA_GOB_WIDTH;
	uint64_t need = nm_tegra_offset(l->row_bytes - 1, by1 - 1, gobs_x, l->block_height) + 1;
	uint64_t at = x->surf.layer_size * ref->layer + l->offset;
	bool cached = at + need > x->surf.size / 2 || nm_node_produced(x->t, x->surface_node);
	uint64_t first = cached ? at : 0;   /* where the bytes loaded start in the surface */
	uint8_t *lin = nm_alloc(opt, by1 - by0, l->row_bytes, err, x->name, "GPU", x->gpu->data_off);
	uint8_t *sw = lin ? nm_alloc(opt, at + need - first, 1, err, x->name, "GPU",
				     x->gpu->data_off) : NULL;
	nm_status s = sw ? NM_OK : err->code;
	size_t got = 0;
	if (s == NM_OK)
		rfrm_txtr_decode_ahead(x->fmt, opt);
	if (s == NM_OK && cached)
		s = nm_read_made(x->t, x->surface_node, at, sw, (size_t)need, &got, err);
	else if (s == NM_OK && (s = rfrm_txtr_surface_prefix(x, sw, (size_t)(at + need), err)) ==
				       NM_OK)
		got = (size_t)need;
	if (s == NM_OK && nm_tegra_deswizzle_rows(sw + (at - first), got, l->row_bytes,
						  l->blocks_y, l->block_height, by0, by1,
						  lin) != NM_OK)
		s = level_fail(err, NM_E_FORMAT, ref, "cannot deswizzle it");
	if (s == NM_OK) {
		s = rfrm_txtr_decode(x->fmt, opt, 1, lin, (size_t)((by1 - by0) * l->row_bytes),
				     l->width, y1 - y0, rgba);
		if (s == NM_E_LIMIT)
			s = nm_fail_limit(err, opt, NM_ASTC_CONTEXT_BYTES, x->name, "GPU",
					  x->gpu->data_off);
		else if (s != NM_OK)
			s = level_fail(err, s, ref, "cannot decode it");
	}
	free(sw);
	free(lin);
	return s;
}

/* A range of a level's PNG from the rows it holds (export/png.h); the whole file when
 * the surface is known to be broken. */
static nm_status range_png(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			   nm_error *err)
{
	const rfrm_txtr_level *ref = arg;
	rfrm_txtr *x = ref->x;
	const nm_tegra_level *l = &x->surf.level[ref->level];
	(void)ctx;
	if (surface_known_broken(x, NULL) || !x->surface_node)
		return NM_E_UNSUPPORTED;
	nm_png_image img = { l->width, l->height, x->fmt->channels,
			     NM_TEGRA_GOB_ROWS * x->fmt->block_h, level_rows, arg, x->name, "GPU",
			     x->gpu->data_off };
	return nm_png_write_range(o, &img, off, len, err);
}

/* Type, format and size, under the keys info.txt or head/header.txt use. */
static void summary(nm_out *o, const rfrm_txtr *x, const char *type_key, const char *format_key)
{
	nm_kv_enum(o, type_key, rfrm_txtr_type_name(x->type), x->type);
	nm_kv_enum(o, format_key, x->fmt ? x->fmt->name : NULL, x->format);
	nm_kv(o, "width", "%u", x->width);
	nm_kv(o, "height", "%u", x->height);
	nm_kv(o, "depth", "%u", x->depth);
}

static void info_text(nm_out *o, const rfrm_txtr *x)
{
	rfrm_form_info(o, &x->form, x->r);
	if (x->head_ok) {
		summary(o, x, "texture", "texture_format");
		nm_kv(o, "levels", "%u", x->mip_count);
	}
	nm_kv(o, "platform", "%s", x->switch_platform ? "Switch (Tegra X1 block-linear)"
						   : "Wii U (GX2 tiling)");
	if (x->has_layout)
		nm_kv(o, "surface_size", "%llu", (unsigned long long)x->surf.size);
	else
		nm_kv(o, "surface", "none (%s)", x->no_layout);
	if (rfrm_txtr_has_png(x))
		nm_kv(o, "png_files", "%llu", (unsigned long long)x->layers * x->mip_count);
	else
		nm_kv(o, "png_files", "0 (%s)", x->has_layout ? x->no_png : x->no_layout);
	if (x->items_broken)
		nm_kv_str(o, "error", x->items_err.msg);
}

/* HEAD's record (export/record.h): the texture's type, format, size and levels follow
 * the surface's layout and cannot be edited; tile mode, swizzle and the sampler (flags,
 * filter, wraps) are stored values, written back in their own type. v: HEAD's data. */
#define HEAD_SAMPLER(x) (0x20 + 4 * (size_t)(x)->mip_count)

static const char *sampler_name(int kind, uint32_t v)
{
	return kind ? rfrm_txtr_wrap_name(v) : rfrm_txtr_filter_name(v);
}

static bool sampler_value(int kind, const char *name, uint32_t *v)
{
	for (uint32_t i = 0; i < 256; i++) {
		const char *n = sampler_name(kind, i);
		if (n && strcmp(n, name) == 0) {
			*v = i;
			return true;
		}
	}
	return false;
}

static const nm_rec_names sampler_names = { sampler_name, sampler_value };

static void head_record(nm_rec *r, const rfrm_txtr *x)
{
	const char *type = rfrm_txtr_type_name(x->type);
	const char *format = x->fmt ? x->fmt->name : NULL;
	nm_rec_derived(r, "type", "%s (0x%x)", type ? type : "unknown", x->type);
	nm_rec_derived(r, "format", "%s (0x%x)", format ? format : "unknown", x->format);
	nm_rec_derived(r, "width", "%u", x->width);
	nm_rec_derived(r, "height", "%u", x->height);
	nm_rec_derived(r, "depth", "%u", x->depth);
	nm_rec_int(r, "tile_mode", 0x14, NM_FIELD_U32);
	nm_rec_int(r, "swizzle", 0x18, NM_FIELD_U32);
	nm_rec_derived(r, "mip_count", "%u", x->mip_count);
	for (uint32_t k = 0; k < x->mip_count; k++) {
		uint32_t w = x->width >> k ? x->width >> k : 1, h = x->height >> k ? x->height >> k : 1;
		char key[16];
		snprintf(key, sizeof key, "mip%u", k);
		nm_rec_derived(r, key, "%ux%u, %u bytes", w, h, x->mip_size[k]);
	}
	size_t p = HEAD_SAMPLER(x);
	nm_rec_hex(r, "sampler_flags", p, NM_FIELD_U32, 0);
	nm_rec_enum(r, "filter", p + 4, NM_FIELD_U8, &sampler_names, 0);
	static const char *const axes[3] = { "wrap_x", "wrap_y", "wrap_z" };
	for (int i = 0; i < 3; i++)
		nm_rec_enum(r, axes[i], p + 5 + (size_t)i, NM_FIELD_U8, &sampler_names, 1);
	if (x->head_extra)
		nm_rec_derived(r, "trailing_bytes", "%llu", (unsigned long long)x->head_extra);
}

static nm_status head_text(nm_out *o, const rfrm_txtr *x, nm_error *err)
{
	nm_view v;
	nm_status s = rfrm_table_load(x->r, x->head, "HEAD", &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_write(&r, o, &v);
	head_record(&r, x);
	nm_view_free(&v);
	return NM_OK;
}

/* head/header.txt edited: the chunk's lines and HEAD's read back (all derived but the
 * stored fields of head_record). */
static nm_status invert_head(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			     nm_edit *ed, nm_error *err)
{
	const rfrm_txtr *x = arg;
	nm_view v;
	(void)ctx;
	nm_status s = rfrm_table_load(x->r, x->head, "HEAD", &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, x->r, "HEAD", (const char *)bytes, len, ed);
	rfrm_item_record(&r, x->head);
	head_record(&r, x);
	nm_rec_end(&r);
	nm_view_free(&v);
	return NM_OK;
}

static void gpu_text(nm_out *o, const rfrm_txtr *x)
{
	const nm_gpu_codec *c = x->has_codec ? nm_gpu_codec_of(x->codec) : NULL;
	if (c)
		nm_kv_enum(o, "codec", c->label, c->tag);
	else if (x->has_codec)
		nm_kv(o, "codec", "unknown (%02x %02x %02x %02x)", x->codec[0], x->codec[1],
		      x->codec[2], x->codec[3]);
	if (!x->has_layout) {
		nm_kv(o, "surface", "none (%s)", x->no_layout);
	} else {
		const nm_tegra_surface *s = &x->surf;
		nm_kv(o, "surface", "%llu bytes, block-linear (surface.bin); texels through byte %llu",
		      (unsigned long long)s->size, (unsigned long long)s->span);
		nm_kv(o, "layers", "%u", s->layers);
		if (s->layers > 1)
			nm_kv(o, "layer_size", "%llu", (unsigned long long)s->layer_size);
		nm_kv(o, "block_height", "%u", s->block_height);
		for (uint32_t k = 0; k < s->levels; k++) {
			const nm_tegra_level *l = &s->level[k];
			char key[16];
			snprintf(key, sizeof key, "level%u", k);
			nm_kv(o, key, "%ux%u, %ux%u blocks of %u bytes, block height %u, at 0x%llx, %llu bytes",
			      l->width, l->height, l->blocks_x, l->blocks_y, x->fmt->block_bytes,
			      l->block_height, (unsigned long long)l->offset,
			      (unsigned long long)l->size);
		}
	}
	if (x->meta)
		nm_kv(o, "pak_meta", "%zu bytes (meta.bin; not used: the buffers are found one after another)",
		      x->meta_len);
}

static nm_status add_pngs(rfrm_txtr *x, nm_node *root)
{
	nm_tree *t = x->t;
	char *stem = nm_unique_stem(t, root, "tex", NULL);
	nm_node *tex = stem ? nm_dir(t, root, stem) : NULL;
	free(stem);
	if (!tex)
		return NM_E_NOMEM;
	for (uint32_t layer = 0; layer < x->layers; layer++) {
		char sub[24];
		rfrm_txtr_layer_dir(x, layer, sub, sizeof sub);
		nm_node *dir = sub[0] ? nm_dir(t, tex, sub) : tex;
		if (!dir)
			return NM_E_NOMEM;
		for (uint32_t k = 0; k < x->mip_count; k++) {
			const nm_tegra_level *l = &x->surf.level[k];
			rfrm_txtr_level *ref = nm_tree_alloc(t, sizeof *ref);
			char name[24];
			snprintf(name, sizeof name, "%u.png", k);
			if (!ref)
				return NM_E_NOMEM;
			*ref = (rfrm_txtr_level){ x, layer, k };
			if (!nm_lazy(t, dir, name, nm_png_size(l->width, l->height, x->fmt->channels),
				     produce_png, NULL, ref))
				return NM_E_NOMEM;
		}
	}
	return NM_OK;
}

static nm_status add_chunk(rfrm_txtr *x, nm_node *root, const rfrm_item *it)
{
	nm_tree *t = x->t;
	nm_out o;
	nm_out_init(&o);
	if (it == x->head && x->head_ok && head_text(&o, x, &x->head_err) != NM_OK)
		x->head_ok = false;
	else if (it == x->gpu)
		gpu_text(&o, x);
	if (nm_out_status(&o) != NM_OK) {
		nm_out_free(&o);
		return NM_E_NOMEM;
	}
	nm_node *d = rfrm_item_dir(t, root, x->r, it, (const char *)o.data, o.len);
	nm_out_free(&o);
	if (!d)
		return NM_E_NOMEM;
	if (it->is_form)
		rfrm_add_items(t, d, x->r, it, 1);
	if (it == x->head && !x->head_ok)
		nm_error_file(t, d, &x->head_err);
	if (it == x->head && x->head_ok && nm_tree_options(t)->editable)
		nm_text_inverse(nm_child(t, d, "header.txt"), invert_head, x);
	if (it != x->gpu)
		return NM_OK;
	if (x->has_layout) {
		x->surface_node = nm_lazy(t, d, "surface.bin", x->surf.size, produce_surface, NULL, x);
		if (!x->surface_node ||
		    nm_tree_range_producer(t, produce_surface, range_surface) != NM_OK)
			return NM_E_NOMEM;
	}
	if (x->meta) {
		nm_out_write(&o, x->meta, x->meta_len);
		if (!nm_text(t, d, "meta.bin", &o)) {
			nm_out_free(&o);
			return NM_E_NOMEM;
		}
	}
	return NM_OK;
}

nm_status rfrm_build_txtr(nm_reader *r, nm_tree *t, nm_node *dir, const rfrm_item *form,
			  const uint8_t *meta, size_t meta_len, nm_error *err)
{
	const char *name = nm_reader_name(r);
	rfrm_txtr *x = nm_tree_alloc(t, sizeof *x);
	if (!x || nm_tree_on_free(t, rfrm_txtr_free, x) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	nm_status s = rfrm_txtr_parse(r, t, form, x, err);
	if (s != NM_OK)
		return s;
	x->meta = meta;
	x->meta_len = meta_len;
	nm_out o;
	nm_out_init(&o);
	info_text(&o, x);
	if (!nm_text(t, dir, "info.txt", &o))
		goto nomem;
	if (x->items_broken)
		nm_error_file(t, dir, &x->items_err);
	if (!x->head)
		nm_error_file(t, dir, &x->head_err);
	for (size_t i = 0; i < x->nitems; i++)
		if (add_chunk(x, dir, &x->items[i]) != NM_OK)
			goto nomem;
	if (rfrm_txtr_has_png(x) && (add_pngs(x, dir) != NM_OK ||
				     nm_tree_range_producer(t, produce_png, range_png) != NM_OK))
		goto nomem;
	if (rfrm_txtr_has_png(x) && x->surface_node && nm_tree_options(t)->editable &&
	    rfrm_txtr_editable(x, produce_png, produce_surface) != NM_OK)
		goto nomem;
	nm_out_free(&o);
	return NM_OK;
nomem:
	nm_out_free(&o);
	return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
}

/* Level 0 without the texture's tree (for a model's model.glb): the surface is
 * decompressed into memory for the one PNG, and freed after it. */
static nm_status produce_png_alone(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const rfrm_txtr_level *ref = arg;
	nm_out surface;
	(void)ctx;
	nm_out_init(&surface);
	surface.opt = o->opt;
	nm_status s = produce_surface(NULL, ref->x, &surface, err);
	if (s == NM_OK && surface.len != ref->x->surf.size)
		s = nm_fail(err, NM_E_FORMAT, ref->x->name, "GPU", ref->x->gpu->data_off,
			    "the surface is %zu bytes, its layout %llu", surface.len,
			    (unsigned long long)ref->x->surf.size);
	if (s == NM_OK)
		s = level_png(ref, surface.data, o, err);
	nm_out_free(&surface);
	return s;
}

bool rfrm_txtr_png_source(nm_reader *r, nm_tree *t, nm_png_source *src)
{
	rfrm_item form;
	nm_error err;
	rfrm_txtr *x = nm_tree_alloc(t, sizeof *x);
	rfrm_txtr_level *ref = nm_tree_alloc(t, sizeof *ref);
	if (!x || !ref || nm_tree_on_free(t, rfrm_txtr_free, x) != NM_OK ||
	    rfrm_read_form(r, 0, nm_reader_size(r), &form, &err) != NM_OK ||
	    memcmp(form.id, "TXTR", 4) != 0 || rfrm_txtr_parse(r, t, &form, x, &err) != NM_OK ||
	    !rfrm_txtr_has_png(x) || x->layers != 1 || !x->gpu)
		return false;
	*ref = (rfrm_txtr_level){ x, 0, 0 };
	const nm_tegra_level *l = &x->surf.level[0];
	/* Made for the model alone (produce_png_alone): no file of its tree to share with. */
	*src = (nm_png_source){ nm_png_size(l->width, l->height, x->fmt->channels),
				produce_png_alone, NULL, ref, NULL, NULL };
	return true;
}
