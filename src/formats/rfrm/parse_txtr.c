/* TXTR: the form's chunks, HEAD, and what the surface looks like (see txtr.h). Nothing
 * here reads the GPU chunk beyond its first 4 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "formats/rfrm/txtr.h"
#include "lib/view.h"

#define HEAD_FIXED 0x20    /* type .. mip count */
#define SAMPLER_LEN 8      /* u32 flags, u8 filter, u8 wrap x, y, z */

static nm_status parse_head(rfrm_txtr *x, nm_error *err)
{
	nm_view v;
	nm_status s = rfrm_table_load(x->r, x->head, "HEAD", &v, err);
	if (s != NM_OK)
		return s;
	x->type = nm_u32(&v, 0x00);
	x->format = nm_u32(&v, 0x04);
	x->width = nm_u32(&v, 0x08);
	x->height = nm_u32(&v, 0x0c);
	x->depth = nm_u32(&v, 0x10);
	x->tile_mode = nm_u32(&v, 0x14);
	x->swizzle = nm_u32(&v, 0x18);
	x->mip_count = nm_u32(&v, 0x1c);
	if (v.bad) {
		s = nm_view_fail(&v, err, "texture header (0x20 bytes before the mip sizes)");
	} else if (x->mip_count == 0 || x->mip_count > NM_TEGRA_MAX_LEVELS) {
		s = nm_view_fail_at(&v, err, NM_E_FORMAT, 0x1c,
				    "%u mip levels: a texture has 1 to %u", x->mip_count,
				    NM_TEGRA_MAX_LEVELS);
	} else if (!nm_view_array(&v, HEAD_FIXED, x->mip_count, 4) ||
		   !nm_view_has(&v, HEAD_FIXED + 4 * (size_t)x->mip_count, SAMPLER_LEN)) {
		s = nm_view_fail(&v, err, "mip size list of %u entries and the sampler",
				 x->mip_count);
	} else {
		size_t p = HEAD_FIXED;
		for (uint32_t k = 0; k < x->mip_count; k++, p += 4)
			x->mip_size[k] = nm_u32(&v, p);
		x->sampler_flags = nm_u32(&v, p);
		x->filter = nm_u8(&v, p + 4);
		for (int i = 0; i < 3; i++)
			x->wrap[i] = nm_u8(&v, p + 5 + (size_t)i);
		x->head_extra = v.size - (p + SAMPLER_LEN);
	}
	nm_view_free(&v);
	return s;
}

/* Why the surface has no layout we can compute, or "" if it has one. */
static void decide_layout(rfrm_txtr *x)
{
	const rfrm_txtr_format *f = x->fmt;
	char *why = x->no_layout;
	size_t n = sizeof x->no_layout;
	x->layers = x->depth;
	if (!x->switch_platform)
		snprintf(why, n, "Wii U surface (GX2 tiling, tile mode %u): not decoded, no real Wii U texture to check a GX2 deswizzle against",
			 x->tile_mode);
	else if (!f)
		snprintf(why, n, "format code %u is not one we know", x->format);
	else if (!f->block_bytes)
		snprintf(why, n, "format %s has no texels", f->name);
	else if (x->type == RFRM_TXTR_TYPE_3D)
		snprintf(why, n, "3D textures are not decoded (their slices share GOBs; no corpus texture to check that against)");
	else if (x->type == 6 || x->type == 7)
		snprintf(why, n, "multisampled textures are not decoded");
	else if (nm_tegra_surface_layout(x->width, x->height, f->block_w, f->block_h,
					 f->block_bytes, x->mip_count, x->layers,
					 &x->surf) != NM_OK)
		snprintf(why, n, "%ux%u, %u levels, %u layers: outside what we lay out (sides 1 to %u, 1 to %u layers)",
			 x->width, x->height, x->mip_count, x->depth, NM_TEGRA_MAX_SIDE,
			 NM_TEGRA_MAX_LAYERS);
	else
		x->has_layout = true;
}

/* With a layout: why there is no PNG, or "". */
static void decide_png(rfrm_txtr *x)
{
	const rfrm_txtr_format *f = x->fmt;
	char *why = x->no_png;
	size_t n = sizeof x->no_png;
	uint64_t max = nm_tree_options(x->t)->max_dimension;
	if (f->kind == RFRM_TEX_NONE) {
		snprintf(why, n, "%s is %s", f->name, f->why);
		return;
	}
	if (x->width > max || x->height > max) {
		snprintf(why, n, "%ux%u is larger than max_dimension (%llu): not decoded",
			 x->width, x->height, (unsigned long long)max);
		return;
	}
	/* HEAD's sizes are the levels unpadded, all layers together: a second opinion on
	 * the format and size that the layout follows. */
	for (uint32_t k = 0; k < x->mip_count; k++) {
		const nm_tegra_level *l = &x->surf.level[k];
		uint64_t want = l->linear_size * x->layers;
		if (x->mip_size[k] != want) {
			snprintf(why, n, "HEAD gives level %u %u bytes, %s at %ux%u x %u layers takes %llu: the format or size is not what we read",
				 k, x->mip_size[k], f->name, l->width, l->height, x->layers,
				 (unsigned long long)want);
			return;
		}
	}
}

static nm_status read_codec(rfrm_txtr *x, nm_error *err)
{
	if (!x->gpu || x->gpu->size < NM_GPU_TAG_LEN)
		return NM_OK;
	nm_status s = nm_reader_read(x->r, x->gpu->data_off, x->codec, NM_GPU_TAG_LEN, "GPU",
				     err);
	x->has_codec = s == NM_OK;
	return s;
}

nm_status rfrm_txtr_parse(nm_reader *r, nm_tree *t, const rfrm_item *form, rfrm_txtr *x,
			  nm_error *err)
{
	x->r = r;
	x->t = t;
	x->name = nm_reader_name(r);
	x->form = *form;
	pthread_mutex_init(&x->lock, NULL);
	x->switch_platform = form->version[0] >= RFRM_TXTR_SWITCH_VERSION;
	nm_status s = rfrm_list_items(r, t, form, &x->items, &x->nitems, &x->items_broken,
				      &x->items_err);
	if (s != NM_OK && !x->items_broken) {
		*err = x->items_err;
		return s;
	}
	for (size_t i = 0; i < x->nitems; i++) {
		const rfrm_item *it = &x->items[i];
		if (!it->is_form && !x->head && memcmp(it->id, "HEAD", 4) == 0)
			x->head = it;
		if (!it->is_form && !x->gpu && memcmp(it->id, "GPU ", 4) == 0)
			x->gpu = it;
	}
	if (!x->head) {
		nm_fail(&x->head_err, NM_E_FORMAT, x->name, "TXTR", form->off,
			"no HEAD chunk: the texture's size and format are unknown");
		snprintf(x->no_layout, sizeof x->no_layout, "no HEAD chunk");
	} else if (parse_head(x, &x->head_err) != NM_OK) {
		snprintf(x->no_layout, sizeof x->no_layout, "HEAD could not be read");
	} else {
		x->head_ok = true;
		x->fmt = rfrm_txtr_format_of(x->format, x->switch_platform);
		decide_layout(x);
		if (x->has_layout)
			decide_png(x);
	}
	if (x->has_layout && !x->gpu) {
		x->has_layout = false;
		snprintf(x->no_layout, sizeof x->no_layout, "no GPU chunk: the texels are missing");
	}
	return read_codec(x, err);
}

void rfrm_txtr_free(void *txtr)
{
	rfrm_txtr *x = txtr;
	pthread_mutex_destroy(&x->lock);
}

void rfrm_txtr_layer_dir(const rfrm_txtr *x, uint32_t layer, char *buf, size_t len)
{
	if (x->layers <= 1)
		snprintf(buf, len, "%s", "");
	else if (x->type == RFRM_TXTR_TYPE_CUBE && x->layers == 6)
		snprintf(buf, len, "face%u", layer);
	else
		snprintf(buf, len, "layer%u", layer);
}

bool rfrm_txtr_png_path(nm_reader *r, nm_tree *t, char *path, size_t len, char *why,
			size_t why_len)
{
	rfrm_item form;
	rfrm_txtr x;
	nm_error err;
	memset(&x, 0, sizeof x);
	bool ok = false;
	if (rfrm_read_form(r, 0, nm_reader_size(r), &form, &err) != NM_OK) {
		snprintf(why, why_len, "%s", err.msg);
	} else if (memcmp(form.id, "TXTR", 4) != 0) {
		snprintf(why, why_len, "not a TXTR form");
	} else if (rfrm_txtr_parse(r, t, &form, &x, &err) != NM_OK) {
		snprintf(why, why_len, "%s", err.msg);
	} else if (!x.has_layout) {
		snprintf(why, why_len, "%s", x.no_layout);
	} else if (x.no_png[0]) {
		snprintf(why, why_len, "%s", x.no_png);
	} else if (x.layers > 1) {
		snprintf(why, why_len, "%u layers (%s): no single PNG", x.layers,
			 x.type == RFRM_TXTR_TYPE_CUBE ? "a cube map" : "an array");
	} else {
		snprintf(path, len, "tex/0.png");
		ok = true;
	}
	rfrm_txtr_free(&x);
	return ok;
}
