/* GX texture decoding (FORMATS.md section 2). Every format is handled the same
 * way: decode one storage block into a small RGBA tile, then copy the part of the
 * tile that lies inside the image. That keeps edge clipping in one place. */
#include <string.h>

#include "codec/gx.h"
#include "codec/gx_internal.h"
#include "lib/options.h"

struct gx_fmt {
	unsigned id;
	const char *name;
	unsigned bw, bh;      /* block size in texels */
	unsigned block_bytes;
};

static const struct gx_fmt gx_fmts[] = {
	{ NM_GX_I4, "I4", 8, 8, 32 },
	{ NM_GX_I8, "I8", 8, 4, 32 },
	{ NM_GX_IA4, "IA4", 8, 4, 32 },
	{ NM_GX_IA8, "IA8", 4, 4, 32 },
	{ NM_GX_RGB565, "RGB565", 4, 4, 32 },
	{ NM_GX_RGB5A3, "RGB5A3", 4, 4, 32 },
	{ NM_GX_RGBA8, "RGBA8", 4, 4, 64 },
	{ NM_GX_C4, "C4", 8, 8, 32 },
	{ NM_GX_C8, "C8", 8, 4, 32 },
	{ NM_GX_C14X2, "C14X2", 4, 4, 32 },
	{ NM_GX_CMPR, "CMPR", 8, 8, 32 },
};

/* The largest block is 8x8 texels. */
#define GX_TILE_TEXELS 64

struct gx_palette {
	const uint8_t *data;
	size_t count;
	unsigned fmt;
};

static const struct gx_fmt *find_fmt(unsigned fmt)
{
	for (size_t i = 0; i < sizeof gx_fmts / sizeof gx_fmts[0]; i++)
		if (gx_fmts[i].id == fmt)
			return &gx_fmts[i];
	return NULL;
}

const char *nm_gx_format_name(unsigned fmt)
{
	const struct gx_fmt *f = find_fmt(fmt);
	return f ? f->name : NULL;
}

const char *nm_gx_palette_format_name(unsigned pfmt)
{
	switch (pfmt) {
	case NM_GX_PAL_IA8: return "IA8";
	case NM_GX_PAL_RGB565: return "RGB565";
	case NM_GX_PAL_RGB5A3: return "RGB5A3";
	default: return NULL;
	}
}

int nm_gx_format_is_indexed(unsigned fmt)
{
	return fmt == NM_GX_C4 || fmt == NM_GX_C8 || fmt == NM_GX_C14X2;
}

/* GX itself cannot address textures larger than 1024x1024; NM_DIMENSION_MAX is
 * generous and keeps size_t arithmetic from wrapping. */
static size_t level_size(const struct gx_fmt *f, unsigned w, unsigned h)
{
	if (w == 0 || h == 0 || w > NM_DIMENSION_MAX || h > NM_DIMENSION_MAX)
		return 0;
	size_t bx = (w + f->bw - 1) / f->bw, by = (h + f->bh - 1) / f->bh;
	return bx * by * f->block_bytes;
}

int nm_gx_block_shape(unsigned fmt, unsigned *bw, unsigned *bh, unsigned *bytes)
{
	const struct gx_fmt *f = find_fmt(fmt);
	if (!f)
		return 0;
	*bw = f->bw;
	*bh = f->bh;
	*bytes = f->block_bytes;
	return 1;
}

size_t nm_gx_level_size(unsigned fmt, unsigned w, unsigned h)
{
	const struct gx_fmt *f = find_fmt(fmt);
	return f ? level_size(f, w, h) : 0;
}

static void put(uint8_t *px, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	px[0] = r;
	px[1] = g;
	px[2] = b;
	px[3] = a;
}

static void rgb565(unsigned v, uint8_t *px)
{
	put(px, nm_gx_expand5((v >> 11) & 0x1F), nm_gx_expand6((v >> 5) & 0x3F),
	    nm_gx_expand5(v & 0x1F), 255);
}

/* The top bit picks between opaque 5:5:5 and translucent 3:4:4:4, so the
 * format trades colour depth for alpha per texel. */
static void rgb5a3(unsigned v, uint8_t *px)
{
	if (v & 0x8000)
		put(px, nm_gx_expand5((v >> 10) & 0x1F), nm_gx_expand5((v >> 5) & 0x1F),
		    nm_gx_expand5(v & 0x1F), 255);
	else
		put(px, nm_gx_expand4((v >> 8) & 0xF), nm_gx_expand4((v >> 4) & 0xF),
		    nm_gx_expand4(v & 0xF), nm_gx_expand3((v >> 12) & 0x7));
}

/* GX samples intensity formats with alpha = intensity; an I8 glow texture
 * relies on that, so the alpha channel is not forced opaque. */
static void intensity(unsigned i, uint8_t *px)
{
	put(px, (uint8_t)i, (uint8_t)i, (uint8_t)i, (uint8_t)i);
}

/* Out-of-range indices should only occur in block padding, but a damaged file
 * must not read past the palette, so they become transparent black. */
static void palette_lookup(const struct gx_palette *pal, unsigned idx, uint8_t *px)
{
	if (idx >= pal->count) {
		put(px, 0, 0, 0, 0);
		return;
	}
	nm_gx_tlut_entry(nm_gx_be16(pal->data + 2 * (size_t)idx), pal->fmt, px);
}

void nm_gx_tlut_entry(unsigned v, unsigned pfmt, uint8_t px[4])
{
	switch (pfmt) {
	case NM_GX_PAL_IA8:
		/* Same byte order as an IA8 texel: alpha first. */
		put(px, (uint8_t)v, (uint8_t)v, (uint8_t)v, (uint8_t)(v >> 8));
		break;
	case NM_GX_PAL_RGB565:
		rgb565(v, px);
		break;
	default:
		rgb5a3(v, px);
		break;
	}
}

/* Decode one block into tile (bw x bh texels, row-major, stride bw). */
static void decode_block(const struct gx_fmt *f, const uint8_t *b,
			 const struct gx_palette *pal, uint8_t *tile)
{
	unsigned n = f->bw * f->bh;

	if (f->id == NM_GX_CMPR) {
		nm_gx_cmpr_block(b, tile);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t *px = tile + 4 * i;
		/* 4-bit formats: the even (left) texel is in the high nibble. */
		unsigned nib = (i & 1) ? b[i / 2] & 0xF : b[i / 2] >> 4;

		switch (f->id) {
		case NM_GX_I4:
			intensity(nm_gx_expand4(nib), px);
			break;
		case NM_GX_I8:
			intensity(b[i], px);
			break;
		case NM_GX_IA4: {
			uint8_t l = nm_gx_expand4(b[i] & 0xF);
			put(px, l, l, l, nm_gx_expand4(b[i] >> 4));
			break;
		}
		case NM_GX_IA8:
			put(px, b[2 * i + 1], b[2 * i + 1], b[2 * i + 1], b[2 * i]);
			break;
		case NM_GX_RGB565:
			rgb565(nm_gx_be16(b + 2 * i), px);
			break;
		case NM_GX_RGB5A3:
			rgb5a3(nm_gx_be16(b + 2 * i), px);
			break;
		case NM_GX_RGBA8:
			/* 32 bytes of (A,R) then 32 bytes of (G,B): GX keeps
			 * every block at 32 bytes per line, even for 32-bit texels. */
			put(px, b[2 * i + 1], b[32 + 2 * i], b[32 + 2 * i + 1], b[2 * i]);
			break;
		case NM_GX_C4:
			palette_lookup(pal, nib, px);
			break;
		case NM_GX_C8:
			palette_lookup(pal, b[i], px);
			break;
		case NM_GX_C14X2:
			/* The top two bits are unused by the texture unit. */
			palette_lookup(pal, nm_gx_be16(b + 2 * i) & 0x3FFF, px);
			break;
		}
	}
}

nm_status nm_gx_decode(unsigned fmt, const uint8_t *src, size_t src_len,
		       unsigned w, unsigned h,
		       const uint8_t *palette, size_t palette_count, unsigned palette_fmt,
		       uint8_t *rgba)
{
	const struct gx_fmt *f = find_fmt(fmt);
	if (f == NULL)
		return NM_E_FORMAT;

	size_t need = level_size(f, w, h);
	if (need == 0 || src_len < need)
		return NM_E_FORMAT;
	if (src == NULL || rgba == NULL)
		return NM_E_INVAL;

	/* The palette format only matters for indexed textures; BTI headers of
	 * direct-colour textures may carry any value in that field. */
	struct gx_palette pal = { palette, palette_count, palette_fmt };
	if (nm_gx_format_is_indexed(fmt)) {
		if (nm_gx_palette_format_name(palette_fmt) == NULL)
			return NM_E_FORMAT;
		if (palette == NULL && palette_count != 0)
			return NM_E_INVAL;
	} else {
		pal.count = 0;
	}

	uint8_t tile[GX_TILE_TEXELS * 4];
	const uint8_t *b = src;
	for (unsigned y0 = 0; y0 < h; y0 += f->bh) {
		unsigned rows = h - y0 < f->bh ? h - y0 : f->bh;
		for (unsigned x0 = 0; x0 < w; x0 += f->bw) {
			unsigned cols = w - x0 < f->bw ? w - x0 : f->bw;
			decode_block(f, b, &pal, tile);
			b += f->block_bytes;
			for (unsigned y = 0; y < rows; y++)
				memcpy(rgba + ((size_t)(y0 + y) * w + x0) * 4,
				       tile + (size_t)y * f->bw * 4, (size_t)cols * 4);
		}
	}
	return NM_OK;
}
