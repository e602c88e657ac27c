#include "codec/pica.h"
#include "codec/etc1.h"
#include "codec/pica_internal.h"

#include <stdint.h>
#include "lib/bands.h"
#include "lib/options.h"

#define TILE 8u

static const struct {
	uint32_t gl;
	nm_pica_format f;
} gl_codes[] = {
	{ 0x14016752, NM_PICA_RGBA8 },
	{ 0x14016754, NM_PICA_RGB8 },
	{ 0x80346752, NM_PICA_RGBA5551 },
	{ 0x83636754, NM_PICA_RGB565 },
	{ 0x80336752, NM_PICA_RGBA4 },
	{ 0x14016758, NM_PICA_LA8 },
	{ 0x14016759, NM_PICA_HILO8 },
	{ 0x14016757, NM_PICA_L8 },
	{ 0x14016756, NM_PICA_A8 },
	{ 0x67606758, NM_PICA_LA4 },
	{ 0x67616757, NM_PICA_L4 },
	{ 0x67616756, NM_PICA_A4 },
	/* Grezzo writes the compressed formats with and without a data type. */
	{ 0x0000675A, NM_PICA_ETC1 },
	{ 0x1401675A, NM_PICA_ETC1 },
	{ 0x0000675B, NM_PICA_ETC1A4 },
	{ 0x1401675B, NM_PICA_ETC1A4 },
};

static const struct {
	const char *name;
	unsigned bpp;
} formats[NM_PICA_FORMAT_COUNT] = {
	[NM_PICA_RGBA8] = { "RGBA8", 32 },
	[NM_PICA_RGB8] = { "RGB8", 24 },
	[NM_PICA_RGBA5551] = { "RGBA5551", 16 },
	[NM_PICA_RGB565] = { "RGB565", 16 },
	[NM_PICA_RGBA4] = { "RGBA4", 16 },
	[NM_PICA_LA8] = { "LA8", 16 },
	[NM_PICA_HILO8] = { "HILO8", 16 },
	[NM_PICA_L8] = { "L8", 8 },
	[NM_PICA_A8] = { "A8", 8 },
	[NM_PICA_LA4] = { "LA4", 8 },
	[NM_PICA_L4] = { "L4", 4 },
	[NM_PICA_A4] = { "A4", 4 },
	[NM_PICA_ETC1] = { "ETC1", 4 },
	[NM_PICA_ETC1A4] = { "ETC1A4", 8 },
};

static int known(nm_pica_format f)
{
	return f >= 0 && f < NM_PICA_FORMAT_COUNT;
}

nm_pica_format nm_pica_format_from_gl(uint32_t gl_code)
{
	for (size_t i = 0; i < sizeof gl_codes / sizeof gl_codes[0]; i++)
		if (gl_codes[i].gl == gl_code)
			return gl_codes[i].f;
	return NM_PICA_UNKNOWN;
}

const char *nm_pica_format_name(nm_pica_format f)
{
	return known(f) ? formats[f].name : NULL;
}

unsigned nm_pica_bits_per_pixel(nm_pica_format f)
{
	return known(f) ? formats[f].bpp : 0;
}

/* PICA200 itself tops out at 1024x1024; anything beyond NM_DIMENSION_MAX is a corrupt
 * header. */
size_t nm_pica_level_size(nm_pica_format f, unsigned w, unsigned h)
{
	if (!known(f) || w == 0 || h == 0 || w % TILE || h % TILE ||
	    w > NM_DIMENSION_MAX || h > NM_DIMENSION_MAX)
		return 0;
	size_t px = (size_t)w * h;
	/* 16384^2 * 32 bits overflows a 32-bit size_t. */
	if (px > SIZE_MAX / formats[f].bpp)
		return 0;
	return px * formats[f].bpp / 8;
}

static uint8_t expand4(unsigned n)
{
	return (uint8_t)(n << 4 | n);
}

static uint8_t expand5(unsigned n)
{
	return (uint8_t)(n << 3 | n >> 2);
}

static uint8_t expand6(unsigned n)
{
	return (uint8_t)(n << 2 | n >> 4);
}

static void set(uint8_t *p, unsigned r, unsigned g, unsigned b, unsigned a)
{
	p[0] = (uint8_t)r;
	p[1] = (uint8_t)g;
	p[2] = (uint8_t)b;
	p[3] = (uint8_t)a;
}

/* Texel n of the stream (tiles and Morton order already folded into n). */
static void decode_texel(nm_pica_format f, const uint8_t *src, size_t n, uint8_t *o)
{
	const uint8_t *p = src + n * (formats[f].bpp / 8);
	unsigned v;

	switch (f) {
	case NM_PICA_RGBA8:
		set(o, p[3], p[2], p[1], p[0]);
		break;
	case NM_PICA_RGB8:
		set(o, p[2], p[1], p[0], 255);
		break;
	case NM_PICA_RGBA5551:
		v = (unsigned)p[0] | (unsigned)p[1] << 8;
		set(o, expand5(v >> 11), expand5((v >> 6) & 31), expand5((v >> 1) & 31),
		    (v & 1) ? 255 : 0);
		break;
	case NM_PICA_RGB565:
		v = (unsigned)p[0] | (unsigned)p[1] << 8;
		set(o, expand5(v >> 11), expand6((v >> 5) & 63), expand5(v & 31), 255);
		break;
	case NM_PICA_RGBA4:
		v = (unsigned)p[0] | (unsigned)p[1] << 8;
		set(o, expand4(v >> 12), expand4((v >> 8) & 15), expand4((v >> 4) & 15),
		    expand4(v & 15));
		break;
	case NM_PICA_LA8:
		set(o, p[1], p[1], p[1], p[0]);
		break;
	case NM_PICA_HILO8:
		set(o, p[1], p[0], 0, 255);
		break;
	case NM_PICA_L8:
		set(o, p[0], p[0], p[0], 255);
		break;
	case NM_PICA_A8:
		/* White, so an alpha-only PNG still shows its shape over any background. */
		set(o, 255, 255, 255, p[0]);
		break;
	case NM_PICA_LA4:
		set(o, expand4(p[0] >> 4), expand4(p[0] >> 4), expand4(p[0] >> 4),
		    expand4(p[0] & 15));
		break;
	case NM_PICA_L4:
	case NM_PICA_A4:
		/* Unlike GX, the earlier texel is in the low nibble. */
		v = (src[n / 2] >> ((n & 1) * 4)) & 15;
		if (f == NM_PICA_L4)
			set(o, expand4(v), expand4(v), expand4(v), 255);
		else
			set(o, 255, 255, 255, expand4(v));
		break;
	default:
		break;
	}
}

/* The one walk over PICA's tiles, both ways: texel n of the stream <-> its pixel, for
 * the rows of tiles [row0, row1). The stream is written only when encoding. */
static void walk_texels(nm_pica_format f, uint8_t *stream, unsigned w, unsigned row0,
			unsigned row1, uint8_t *rgba, int encode)
{
	size_t n = (size_t)row0 * TILE * w;

	for (unsigned ty = row0 * TILE; ty < row1 * TILE; ty += TILE)
		for (unsigned tx = 0; tx < w; tx += TILE)
			for (unsigned i = 0; i < TILE * TILE; i++, n++) {
				/* Storage index bits, LSB first: x0 y0 x1 y1 x2 y2. */
				unsigned x = (i & 1) | ((i >> 1) & 2) | ((i >> 2) & 4);
				unsigned y = ((i >> 1) & 1) | ((i >> 2) & 2) | ((i >> 3) & 4);
				size_t at = ((size_t)(ty + y) * w + tx + x) * 4;

				if (encode)
					nm_pica_encode_texel(f, rgba + at, stream, n);
				else
					decode_texel(f, stream, n, rgba + at);
			}
}

/* The same for ETC1's 4x4 blocks: each is decoded straight into its place in the image,
 * or encoded from there. */
static void walk_etc1(int alpha, uint8_t *blocks, unsigned w, unsigned row0, unsigned row1,
		      uint8_t *rgba, int encode)
{
	size_t stride = alpha ? 16 : 8, row = (size_t)w * 4;
	nm_etc1_decode_fn *decode = encode ? NULL : nm_etc1_decoder(NULL);

	blocks += (size_t)row0 * (w / TILE) * 4 * stride;   /* four blocks per tile */
	for (unsigned ty = row0 * TILE; ty < row1 * TILE; ty += TILE)
		for (unsigned tx = 0; tx < w; tx += TILE)
			/* Four 4x4 blocks per tile, Z order. */
			for (unsigned b = 0; b < 4; b++, blocks += stride) {
				unsigned bx = tx + (b & 1) * 4, by = ty + (b >> 1) * 4;
				uint8_t *px = rgba + (size_t)by * row + (size_t)bx * 4;
				if (encode) {
					nm_pica_encode_etc1_block(alpha, px, row, blocks);
					continue;
				}
				/* ETC1A4: the alpha nibbles come first and, like the
				 * selectors, run down columns. */
				uint64_t a = alpha ? nm_etc1_word_le(blocks) : NM_ETC1_OPAQUE;

				decode(nm_etc1_word_le(blocks + stride - 8), a, px, row);
			}
}

/* One decode's rows of tiles, for the bands. */
struct decode_job {
	nm_pica_format f;
	const uint8_t *src;
	unsigned w;
	uint8_t *rgba;
};

static nm_status decode_rows(void *arg, unsigned band, unsigned row0, unsigned row1)
{
	const struct decode_job *j = arg;
	(void)band;
	/* Decoding reads src only. */
	if (j->f == NM_PICA_ETC1 || j->f == NM_PICA_ETC1A4)
		walk_etc1(j->f == NM_PICA_ETC1A4, (uint8_t *)j->src, j->w, row0, row1, j->rgba, 0);
	else
		walk_texels(j->f, (uint8_t *)j->src, j->w, row0, row1, j->rgba, 0);
	return NM_OK;
}

/* Texels per band at least: 1 Mi, about a millisecond of decoding against a thread's
 * start of tens of µs. */
#define MIN_BAND_TEXELS (1u << 20)

nm_status nm_pica_decode(nm_pica_format f, const uint8_t *src, size_t src_len,
			 unsigned w, unsigned h, uint8_t *rgba)
{
	return nm_pica_decode_threads(f, src, src_len, w, h, rgba, 1);
}

nm_status nm_pica_decode_threads(nm_pica_format f, const uint8_t *src, size_t src_len,
				 unsigned w, unsigned h, uint8_t *rgba, unsigned threads)
{
	size_t need = nm_pica_level_size(f, w, h);

	if (!rgba)
		return NM_E_INVAL;
	if (need == 0 || !src || src_len < need)
		return NM_E_FORMAT;
	struct decode_job j = { f, src, w, rgba };
	unsigned rows = h / TILE, min_rows = MIN_BAND_TEXELS / (TILE * w);
	return nm_bands_run(nm_bands_count(threads, rows, min_rows ? min_rows : 1), rows,
			    decode_rows, &j);
}

nm_status nm_pica_encode(nm_pica_format f, const uint8_t *rgba, unsigned w, unsigned h,
			 uint8_t *dst, size_t dst_len)
{
	size_t need = nm_pica_level_size(f, w, h);

	if (need == 0 || !rgba || !dst || dst_len < need)
		return NM_E_INVAL;
	/* Encoding reads rgba only. */
	if (f == NM_PICA_ETC1 || f == NM_PICA_ETC1A4)
		walk_etc1(f == NM_PICA_ETC1A4, dst, w, 0, h / TILE, (uint8_t *)rgba, 1);
	else
		walk_texels(f, dst, w, 0, h / TILE, (uint8_t *)rgba, 1);
	return NM_OK;
}
