/* TXTR textures written back (doc/apply.md): an edited tex/K.png is encoded in the
 * texture's format (R8 from red, RG8 from red and green, RGBA8 as it is, BC1-BC5 by
 * nm_bcn_encode, ASTC by libastcenc at a fixed preset; BC7 refused by name), put back
 * in its block-linear place (the level's padding kept as it was) and patched into the
 * surface, whose reader carries the change to the GPU chunk by compressing it again in
 * its own codec (rfrm_txtr_reencode). An edited level 0 makes the layer's other levels
 * (export/tex_inverse.h). gpu/surface.bin edited whole is written back the same way. */
#include <stdlib.h>
#include <string.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/tegra_swizzle.h"
#include "export/tex_inverse.h"
#include "formats/rfrm/txtr.h"
#include "lib/alloc.h"
#include "lib/edit.h"

/* The surface as a reader: its bytes are gpu/surface.bin's. */
static nm_status surface_read(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			      nm_error *err)
{
	rfrm_txtr *x = ctx;
	size_t got = 0;
	nm_status s = nm_read(x->t, x->surface_node, off, buf, len, &got, err);
	if (s == NM_OK && got != len)
		s = nm_fail(err, NM_E_IO, x->name, chunk ? chunk : "GPU", off,
			    "the surface gave %zu of %zu bytes", got, len);
	return s;
}

static void close_reader(void *r) { nm_reader_close(r); }

/* The level's texels into the format's rows of blocks (lin: linear_size bytes). */
static nm_status encode_rows(const rfrm_txtr *x, const nm_options *opt, const uint8_t *rgba,
			     unsigned w, unsigned h, uint8_t *lin, size_t len, nm_error *err)
{
	const rfrm_txtr_format *f = x->fmt;
	size_t n = (size_t)w * h;
	nm_status s = NM_OK;
	switch (f->kind) {
	case RFRM_TEX_R8:
		for (size_t i = 0; i < n; i++)
			lin[i] = rgba[4 * i];
		break;
	case RFRM_TEX_RG8:
		for (size_t i = 0; i < n; i++) {
			lin[2 * i] = rgba[4 * i];
			lin[2 * i + 1] = rgba[4 * i + 1];
		}
		break;
	case RFRM_TEX_RGBA8:
		memcpy(lin, rgba, n * 4);
		break;
	case RFRM_TEX_BCN:
		if (nm_bcn_no_encoder((nm_bcn_format)f->bcn))
			return nm_fail(err, NM_E_UNSUPPORTED, x->name, "GPU", NM_NO_OFFSET, "%s: %s",
				       f->name, nm_bcn_no_encoder((nm_bcn_format)f->bcn));
		s = nm_bcn_encode((nm_bcn_format)f->bcn, rgba, w, h, lin, len);
		break;
	case RFRM_TEX_ASTC:
		s = nm_astc_encode_level(opt, f->block_w, f->block_h, f->srgb, rgba, w, h, lin, len);
		if (s == NM_E_LIMIT)
			return nm_fail_limit(err, opt, NM_ASTC_CONTEXT_BYTES, x->name, "GPU",
					     NM_NO_OFFSET);
		break;
	case RFRM_TEX_NONE:
		s = NM_E_UNSUPPORTED;
		break;
	}
	if (s != NM_OK)
		nm_fail(err, s, x->name, "GPU", NM_NO_OFFSET, "%s: a %ux%u level cannot be encoded "
			"(%s)", f->name, w, h, nm_status_str(s));
	return s;
}

/* Rows of blocks into their places in the level's block-linear bytes (dst, the level as
 * it is: its padding stays). A GOB row holds 16 bytes of a row together. */
static void place_rows(const nm_tegra_level *l, const uint8_t *lin, uint8_t *dst)
{
	uint64_t gobs_x = (l->row_bytes + NM_TEGRA_GOB_WIDTH - 1) / NM_TEGRA_GOB_WIDTH;
	for (uint64_t y = 0; y < l->blocks_y; y++)
		for (uint64_t x = 0; x < l->row_bytes; x += 16) {
			uint64_t n = l->row_bytes - x < 16 ? l->row_bytes - x : 16;
			memcpy(dst + nm_tegra_offset(x, y, gobs_x, l->block_height),
			       lin + y * l->row_bytes + x, (size_t)n);
		}
}

static nm_status encode_level(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			      unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err)
{
	const rfrm_txtr_level *ref = ctx;
	rfrm_txtr *x = ref->x;
	const nm_tegra_level *l = &x->surf.level[level];
	const nm_options *opt = nm_reader_options(x->r);
	(void)ed;
	uint8_t *lin = nm_alloc(opt, l->linear_size ? l->linear_size : 1, 1, err, x->name, "GPU",
				x->gpu->data_off);
	if (!lin)
		return err->code;
	nm_status s = encode_rows(x, opt, rgba, w, h, lin, (size_t)l->linear_size, err);
	uint64_t at = x->surf.layer_size * ref->layer + l->offset;
	if (s == NM_OK)
		s = nm_reader_read(x->surface_reader, at, dst, len, "GPU", err);
	if (s == NM_OK)
		place_rows(l, lin, dst);
	free(lin);
	return s;
}

/* The level's block-linear bytes as its PNG shows them. */
static nm_status decode_level(void *ctx, unsigned level, const uint8_t *src, size_t len,
			      unsigned w, unsigned h, uint8_t *rgba, nm_error *err)
{
	const rfrm_txtr_level *ref = ctx;
	rfrm_txtr *x = ref->x;
	const nm_tegra_level *l = &x->surf.level[level];
	const nm_options *opt = nm_reader_options(x->r);
	uint8_t *lin = nm_alloc(opt, l->linear_size ? l->linear_size : 1, 1, err, x->name, "GPU",
				x->gpu->data_off);
	if (!lin)
		return err->code;
	nm_status s = nm_tegra_deswizzle(src, len, l->row_bytes, l->blocks_y, l->block_height, lin);
	if (s == NM_OK)
		s = rfrm_txtr_decode(x->fmt, opt, 1, lin, (size_t)l->linear_size, w, h, rgba);
	if (s != NM_OK)
		nm_fail(err, s, x->name, "GPU", x->gpu->data_off, "level %u of the %s surface "
			"cannot be decoded", level, x->fmt->name);
	free(lin);
	return s;
}

static nm_status invert_png(void *ctx, void *arg, const uint8_t *png, size_t len, nm_edit *ed,
			    nm_error *err)
{
	const rfrm_txtr_level *ref = arg;
	rfrm_txtr *x = ref->x;
	nm_tex_level levels[NM_TEGRA_MAX_LEVELS];
	(void)ctx;
	for (uint32_t k = 0; k < x->mip_count; k++) {
		const nm_tegra_level *l = &x->surf.level[k];
		levels[k] = (nm_tex_level){ l->width, l->height, x->surface_reader,
					    x->surf.layer_size * ref->layer + l->offset,
					    (size_t)l->size };
	}
	/* Each level's encoder needs its layer: a chain per layer. */
	rfrm_txtr_level layer = { x, ref->layer, 0 };
	nm_tex_chain c = { .levels = levels, .nlevels = x->mip_count, .encode = encode_level,
			   .decode = decode_level, .ctx = &layer,
			   .opt = nm_reader_options(x->r), .file = x->name, .chunk = "GPU" };
	return nm_tex_invert(&c, ref->level, png, len, ed, err);
}

/* gpu/surface.bin edited whole: the same length, patched as it is. */
static nm_status invert_surface(void *ctx, void *arg, const uint8_t *bytes, size_t len,
				nm_edit *ed, nm_error *err)
{
	rfrm_txtr *x = arg;
	(void)ctx;
	(void)err;
	if (len != x->surf.size)
		nm_edit_refuse(ed, 0, NULL, "%zu bytes where the surface has %llu: a surface of "
			       "another size changes the texture's layout, which apply does not do",
			       len, (unsigned long long)x->surf.size);
	else
		nm_edit_patch(ed, x->surface_reader, 0, bytes, len, "GPU", 0, "surface.bin");
	return NM_OK;
}

nm_status rfrm_txtr_editable(rfrm_txtr *x, nm_produce_fn produce_png,
			     nm_produce_fn produce_surface)
{
	static const nm_source_ops ops = { .read = surface_read };
	nm_error err;
	nm_reader *r;
	if (nm_reader_new_source("gpu/surface.bin", x->surf.size, &ops, x, &r, &err) != NM_OK)
		return err.code;
	if (nm_tree_on_free(x->t, close_reader, r) != NM_OK) {
		nm_reader_close(r);
		return NM_E_NOMEM;
	}
	nm_reader_set_options(r, nm_reader_options(x->r));
	nm_reader_set_origin(r, &(nm_reader_origin){ .parent = x->r, .off = x->gpu->data_off,
						     .len = x->gpu->size,
						     .encode = rfrm_txtr_reencode, .ctx = x });
	x->surface_reader = r;
	nm_status s = nm_tree_invert_producer(x->t, produce_png, invert_png);
	if (s == NM_OK)
		s = nm_tree_invert_producer(x->t, produce_surface, invert_surface);
	return s;
}
