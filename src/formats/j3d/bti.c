/* BTI: one GX texture on its own (FORMATS.md 2.1): the 0x20-byte header TEX1 keeps per
 * texture, at offset 0, its offsets counting from there. Shown with TEX1's own code, the
 * whole file standing as the "chunk":
 *   info.txt, header.txt (the header's fields, as TEX1's NAME.txt), texture.png,
 *   texture.mipK.png, texture.bin (the image bytes), texture.palette.bin, raw.bin.
 *
 * A BTI has no magic, so the probe is strict and the driver is the last in the registry:
 * every field must hold a value GX knows and that real files have (the corpus's 127 TEX1
 * headers: alpha 0, 1, 2 or 0xCC from one tool; palette fields zero for direct formats;
 * mipmap flags 0 or 1; anisotropy 0..2; filters 0..5 and 0..1), the size 1..1024 on both
 * sides with at most log2 + 1 levels, the first level and the palette inside the file.
 * The byte at 0x19 and the palette offset of a direct format carry junk in real files,
 * so they are not checked. */
#include <string.h>
#include "codec/gx.h"
#include "export/text.h"
#include "formats/driver.h"
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

#define BTI_HEADER 0x20u
#define BTI_MAX_SIDE 1024u

static unsigned max_levels(unsigned w, unsigned h)
{
	unsigned side = w > h ? w : h, n = 1;
	while (side >>= 1)
		n++;
	return n;
}

static bool bti_probe(const uint8_t *p, size_t len, uint64_t size)
{
	if (len < BTI_HEADER || size < BTI_HEADER || !nm_gx_format_name(p[0]))
		return false;
	unsigned fmt = p[0], w = nm_be16(p + 2), h = nm_be16(p + 4), npal = nm_be16(p + 0x0A);
	uint32_t pal_off = nm_be32(p + 0x0C), img_off = nm_be32(p + 0x1C);
	if (p[1] > 2 && p[1] != 0xCC)
		return false;
	if (w < 1 || w > BTI_MAX_SIDE || h < 1 || h > BTI_MAX_SIDE)
		return false;
	if (p[6] > 2 || p[7] > 2 || p[9] > 2)
		return false;
	if (p[0x10] > 1 || p[0x11] > 1 || p[0x12] > 1 || p[0x13] > 2 || p[0x14] > 5 ||
	    p[0x15] > 1)
		return false;
	if (p[0x18] > max_levels(w, h))
		return false;
	if (img_off < BTI_HEADER || img_off > size ||
	    nm_gx_level_size(fmt, w, h) > size - img_off)
		return false;
	if (!nm_gx_format_is_indexed(fmt))
		return p[8] == 0 && npal == 0;
	/* An index reaches 16, 256 or 16384 entries. */
	unsigned most = fmt == NM_GX_C4 ? 16 : fmt == NM_GX_C8 ? 256 : 16384;
	return p[8] == 1 && npal >= 1 && npal <= most && pal_off >= BTI_HEADER &&
	       pal_off <= size && (uint64_t)npal * 2 <= size - pal_off;
}

static nm_status bti_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_bti = {
	.name = "bti",
	.description = "GX texture (BTI)",
	.probe = bti_probe,
	.build = bti_build,
};

static void write_info(nm_out *o, const j3d_model *m, const j3d_texture *tx)
{
	nm_info_begin(o, &nm_driver_bti, m->r);
	nm_kv_enum(o, "image_format", nm_gx_format_name(tx->fmt), tx->fmt);
	nm_kv(o, "width", "%u", tx->width);
	nm_kv(o, "height", "%u", tx->height);
	nm_kv(o, "image_count", "%u", tx->images);
	nm_kv(o, "levels_shown", "%u", tx->ok ? tx->levels : 0);
	if (nm_gx_format_is_indexed(tx->fmt))
		nm_kv(o, "palette_entries", "%u", tx->npal);
	if (!tx->ok)
		nm_kv_str(o, "error", tx->err.msg);
}

static nm_status bti_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	const char *file = nm_reader_name(r);
	uint64_t size = nm_reader_size(r);
	if (size < BTI_HEADER || size > UINT32_MAX)
		return nm_fail(err, NM_E_FORMAT, file, NULL, 0,
			       "a BTI is 0x20 header bytes and at most 4 GiB (this file: %llu bytes)",
			       (unsigned long long)size);
	j3d_model *m = nm_tree_alloc(t, sizeof *m);
	j3d_tex1 *x = nm_tree_alloc(t, sizeof *x);
	j3d_chunk *c = nm_tree_alloc(t, sizeof *c);
	j3d_texture *tx = nm_tree_alloc(t, sizeof *tx);
	if (!m || !x || !c || !tx)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	m->t = t;
	m->r = r;
	m->file = file;
	memcpy(m->type, "BTI", 4);
	c->present = true;
	c->off = 0;
	c->size = (uint32_t)size;
	c->len = size;
	c->dir = root;
	memcpy(c->magic, "BTI", 4);
	x->chunk = c;
	x->count = 1;
	x->tex = tx;
	m->tex1 = x;
	nm_view v;
	nm_status s = nm_view_load(r, 0, BTI_HEADER, "BTI", NM_BIG, &v, err);
	if (s != NM_OK)
		return s;
	j3d_read_bti(m, c, &v, 0, 0, tx);
	nm_view_free(&v);
	tx->stem = "texture";

	j3d_texture_limit(t, x, 0);
	nm_out o;
	nm_out_init(&o);
	write_info(&o, m, tx);
	nm_node *info = nm_text(t, root, "info.txt", &o);
	nm_out_free(&o);
	/* A broken header gets an error.txt; a texture only too large for the limit not
	 * (as in TEX1). */
	bool broken = !tx->ok && tx->err.code != NM_E_LIMIT;
	if (!info || (broken && !nm_error_file(t, root, &tx->err)) ||
	    j3d_texture_files(t, root, x, 0, "header.txt") != NM_OK ||
	    !nm_slice(t, root, "raw.bin", r, 0, size))
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}
