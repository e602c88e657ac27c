/* Texture encoders (nm_pica_encode, nm_gx_encode, nm_bcn_encode, nm_astc_encode_level)
 * and the box-filter mip levels, table-driven: one row per format.
 *
 * Every row encodes a gradient-and-noise image, decodes it with our decoder, and:
 * - a lossless row (bit packing): each decoded channel is the nearest value the format
 *   holds, found here by trying every code (not by the encoder's shortcut), and
 *   decoding then encoding again gives the same bytes (a fixed point);
 * - a lossy row: the PSNR over the channels the format stores is at least the row's
 *   floor, and where an independent decoder exists it is run on the same bytes:
 *   libETC1 on our ETC1 blocks (untiled, byte order reversed), libsquish's BC3 alpha on
 *   our BC4/BC5 blocks, libastcenc's own decoder on ASTC, libsquish's DXT1 on CMPR;
 * - every row: the same input gives the same bytes.
 * Each row prints a line "psnr: FORMAT ours X dB, library Y dB (what)": ours is our
 * encoder then our decoder; the library's is its own encoder and decoder on the same
 * image (libETC1, libsquish, libastcenc, libimagequant at 8 bits). */
#include <android/ETC1/etc1.h>
#include <check.h>
#include <libimagequant.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/gx.h"
#include "codec/mip.h"
#include "codec/pica.h"
#include "lib/options.h"
#include "prng.h"

enum family { PICA, GX, BCN, ASTC };

/* How a lossless format stores a texel: bits per channel (0: a constant, in fixed),
 * luma: R, G and B hold one BT.601 luma of bits[0] bits; alpha_is_luma: GX's I4/I8. */
typedef struct packing {
	unsigned bits[4];
	int fixed[4];
	int luma, alpha_is_luma;
} packing;

typedef struct enc_case {
	const char *name;
	enum family family;
	unsigned fmt;
	unsigned pal_fmt, pal_count;   /* GX palette formats */
	unsigned bw, bh;               /* ASTC */
	int srgb;
	int opaque;                    /* the image it is measured on has alpha 255 */
	unsigned channels;             /* bit c: channel c is stored (PSNR over those) */
	const packing *exact;          /* lossless: how */
	const packing *view;           /* lossy grey formats: what they can show (IA8 TLUT) */
	int rgb5a3;                    /* lossless, per texel the nearer of two packings */
	double floor_db;               /* lossy: the least PSNR (ours) */
} enc_case;

#define RGBA_CH 0xF
#define RGB_CH 0x7
#define ANY (-1)
static const packing p8888 = { { 8, 8, 8, 8 }, { ANY, ANY, ANY, ANY }, 0, 0 },
		     p888 = { { 8, 8, 8, 0 }, { ANY, ANY, ANY, 255 }, 0, 0 },
		     p5551 = { { 5, 5, 5, 1 }, { ANY, ANY, ANY, ANY }, 0, 0 },
		     p565 = { { 5, 6, 5, 0 }, { ANY, ANY, ANY, 255 }, 0, 0 },
		     p4444 = { { 4, 4, 4, 4 }, { ANY, ANY, ANY, ANY }, 0, 0 },
		     pla8 = { { 8, 8, 8, 8 }, { ANY, ANY, ANY, ANY }, 1, 0 },
		     philo = { { 8, 8, 0, 0 }, { ANY, ANY, 0, 255 }, 0, 0 },
		     pl8 = { { 8, 8, 8, 0 }, { ANY, ANY, ANY, 255 }, 1, 0 },
		     pa8 = { { 0, 0, 0, 8 }, { 255, 255, 255, ANY }, 0, 0 },
		     pla4 = { { 4, 4, 4, 4 }, { ANY, ANY, ANY, ANY }, 1, 0 },
		     pl4 = { { 4, 4, 4, 0 }, { ANY, ANY, ANY, 255 }, 1, 0 },
		     pa4 = { { 0, 0, 0, 4 }, { 255, 255, 255, ANY }, 0, 0 },
		     pi4 = { { 4, 4, 4, 0 }, { ANY, ANY, ANY, ANY }, 1, 1 },
		     pi8 = { { 8, 8, 8, 0 }, { ANY, ANY, ANY, ANY }, 1, 1 };

#define EXACT(n, fam, f, p) { .name = n, .family = fam, .fmt = f, .exact = &p, \
			      .channels = RGBA_CH }
#define LOSSY(n, fam, f, op, ch, db) { .name = n, .family = fam, .fmt = f, .opaque = op, \
				       .channels = ch, .floor_db = db }
#define PAL(n, f, pf, count, op, db) { .name = n, .family = GX, .fmt = f, .pal_fmt = pf, \
				       .pal_count = count, .opaque = op, .channels = RGBA_CH, \
				       .view = pf == NM_GX_PAL_IA8 ? &pla8 : NULL, .floor_db = db }
#define ASTC_ROW(n, w, h, s, db) { .name = n, .family = ASTC, .bw = w, .bh = h, .srgb = s, \
				   .channels = RGBA_CH, .floor_db = db }

static const enc_case cases[] = {
	EXACT("PICA RGBA8", PICA, NM_PICA_RGBA8, p8888),
	EXACT("PICA RGB8", PICA, NM_PICA_RGB8, p888),
	EXACT("PICA RGBA5551", PICA, NM_PICA_RGBA5551, p5551),
	EXACT("PICA RGB565", PICA, NM_PICA_RGB565, p565),
	EXACT("PICA RGBA4", PICA, NM_PICA_RGBA4, p4444),
	EXACT("PICA LA8", PICA, NM_PICA_LA8, pla8),
	EXACT("PICA HILO8", PICA, NM_PICA_HILO8, philo),
	EXACT("PICA L8", PICA, NM_PICA_L8, pl8),
	EXACT("PICA A8", PICA, NM_PICA_A8, pa8),
	EXACT("PICA LA4", PICA, NM_PICA_LA4, pla4),
	EXACT("PICA L4", PICA, NM_PICA_L4, pl4),
	EXACT("PICA A4", PICA, NM_PICA_A4, pa4),
	LOSSY("PICA ETC1", PICA, NM_PICA_ETC1, 1, RGB_CH, 30),
	LOSSY("PICA ETC1A4", PICA, NM_PICA_ETC1A4, 0, RGBA_CH, 30),
	EXACT("GX I4", GX, NM_GX_I4, pi4),
	EXACT("GX I8", GX, NM_GX_I8, pi8),
	EXACT("GX IA4", GX, NM_GX_IA4, pla4),
	EXACT("GX IA8", GX, NM_GX_IA8, pla8),
	EXACT("GX RGB565", GX, NM_GX_RGB565, p565),
	{ .name = "GX RGB5A3", .family = GX, .fmt = NM_GX_RGB5A3, .rgb5a3 = 1,
	  .channels = RGBA_CH },
	EXACT("GX RGBA8", GX, NM_GX_RGBA8, p8888),
	LOSSY("GX CMPR", GX, NM_GX_CMPR, 1, RGB_CH, 30),
	PAL("GX C4 IA8", NM_GX_C4, NM_GX_PAL_IA8, 16, 0, 22),
	PAL("GX C4 RGB565", NM_GX_C4, NM_GX_PAL_RGB565, 16, 1, 22),
	PAL("GX C4 RGB5A3", NM_GX_C4, NM_GX_PAL_RGB5A3, 16, 0, 20),
	PAL("GX C8 IA8", NM_GX_C8, NM_GX_PAL_IA8, 256, 0, 30),
	PAL("GX C8 RGB565", NM_GX_C8, NM_GX_PAL_RGB565, 256, 1, 30),
	PAL("GX C8 RGB5A3", NM_GX_C8, NM_GX_PAL_RGB5A3, 256, 0, 26),
	PAL("GX C14X2 RGB5A3", NM_GX_C14X2, NM_GX_PAL_RGB5A3, 4096, 0, 28),
	PAL("GX C14X2 RGB565", NM_GX_C14X2, NM_GX_PAL_RGB565, 64, 1, 26),
	LOSSY("BC1", BCN, NM_BC1, 1, RGB_CH, 30),
	LOSSY("BC2", BCN, NM_BC2, 0, RGBA_CH, 30),
	LOSSY("BC3", BCN, NM_BC3, 0, RGBA_CH, 30),
	LOSSY("BC4", BCN, NM_BC4, 1, 0x1, 38),
	LOSSY("BC5", BCN, NM_BC5, 1, 0x3, 38),
	ASTC_ROW("ASTC 4x4", 4, 4, 0, 36), ASTC_ROW("ASTC 5x4", 5, 4, 0, 34),
	ASTC_ROW("ASTC 5x5", 5, 5, 0, 32), ASTC_ROW("ASTC 6x5", 6, 5, 0, 30),
	ASTC_ROW("ASTC 6x6", 6, 6, 0, 29), ASTC_ROW("ASTC 8x5", 8, 5, 0, 28),
	ASTC_ROW("ASTC 8x6", 8, 6, 0, 27), ASTC_ROW("ASTC 8x8", 8, 8, 0, 25),
	ASTC_ROW("ASTC 10x5", 10, 5, 0, 26), ASTC_ROW("ASTC 10x6", 10, 6, 0, 25),
	ASTC_ROW("ASTC 10x8", 10, 8, 0, 24), ASTC_ROW("ASTC 10x10", 10, 10, 0, 23),
	ASTC_ROW("ASTC 12x10", 12, 10, 0, 22), ASTC_ROW("ASTC 12x12", 12, 12, 0, 21),
	ASTC_ROW("ASTC 4x4 sRGB", 4, 4, 1, 36), ASTC_ROW("ASTC 8x5 sRGB", 8, 5, 1, 28),
	ASTC_ROW("ASTC 12x12 sRGB", 12, 12, 1, 21),
};
#define NCASES (sizeof cases / sizeof cases[0])

/* The image every row is measured on (PICA's sides are multiples of 8) and the one
 * with ragged edges for the others. */
#define W 128
#define H 96
#define EW 37
#define EH 29

/* A smooth picture with texture: two gradients, a soft circle, a little noise in
 * every channel; alpha a ramp with a cut-out corner (or 255). */
static uint8_t *test_image(unsigned w, unsigned h, int opaque, uint32_t seed)
{
	uint8_t *p = malloc((size_t)w * h * 4);
	ck_assert_ptr_nonnull(p);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint8_t *px = p + ((size_t)y * w + x) * 4;
			int dx = (int)x - (int)w / 2, dy = (int)y - (int)h / 3;
			int circle = dx * dx + dy * dy < (int)(w * w / 16) ? 60 : 0;
			int base[4] = { (int)(x * 200 / w) + circle, (int)(y * 220 / h) + 20,
					(int)((x + y) * 255 / (w + h)) - circle / 2,
					(int)(x * 255 / w) };
			for (int c = 0; c < 4; c++) {
				int v = base[c] + (int)(xorshift(&seed) >> 28) - 8;
				px[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
			}
			if (opaque)
				px[3] = 255;
			else if (x < w / 4 && y < h / 4)
				px[3] = 0;
		}
	return p;
}

static size_t level_size(const enc_case *k, unsigned w, unsigned h)
{
	switch (k->family) {
	case PICA:
		return nm_pica_level_size((nm_pica_format)k->fmt, w, h);
	case GX:
		return nm_gx_level_size(k->fmt, w, h);
	case BCN:
		return (size_t)((w + 3) / 4) * ((h + 3) / 4) * nm_bcn_block_bytes((nm_bcn_format)k->fmt);
	case ASTC:
		return (size_t)((w + k->bw - 1) / k->bw) * ((h + k->bh - 1) / k->bh) * 16;
	}
	return 0;
}

/* A palette of k's format and size: a grey ramp, so that an image needs a new one. */
static uint8_t *start_palette(const enc_case *k)
{
	uint8_t *pal = calloc(k->pal_count ? k->pal_count : 1, 2);
	for (unsigned i = 0; i < k->pal_count; i++) {
		pal[2 * i] = 0x80 | (uint8_t)(i & 0x7F);
		pal[2 * i + 1] = (uint8_t)i;
	}
	return pal;
}

static nm_status encode(const enc_case *k, const uint8_t *img, unsigned w, unsigned h,
			uint8_t *dst, size_t len, uint8_t *pal, bool *changed)
{
	const nm_options *opt = nm_options_defaults();
	switch (k->family) {
	case PICA:
		return nm_pica_encode((nm_pica_format)k->fmt, img, w, h, dst, len);
	case GX:
		return nm_gx_encode(opt, k->fmt, img, w, h, dst, len, pal, k->pal_count,
				    k->pal_fmt, changed);
	case BCN:
		return nm_bcn_encode((nm_bcn_format)k->fmt, img, w, h, dst, len);
	case ASTC:
		return nm_astc_encode_level(opt, k->bw, k->bh, k->srgb, img, w, h, dst, len);
	}
	return NM_E_INVAL;
}

static void decode(const enc_case *k, const uint8_t *src, size_t len, unsigned w, unsigned h,
		   const uint8_t *pal, uint8_t *out)
{
	nm_status s = NM_E_INVAL;
	switch (k->family) {
	case PICA:
		s = nm_pica_decode((nm_pica_format)k->fmt, src, len, w, h, out);
		break;
	case GX:
		s = nm_gx_decode(k->fmt, src, len, w, h, pal, k->pal_count, k->pal_fmt, out);
		break;
	case BCN:
		s = nm_bcn_decode((nm_bcn_format)k->fmt, src, len, w, h, out);
		break;
	case ASTC:
		s = nm_astc_decode(nm_options_defaults(), k->bw, k->bh, k->srgb, src, len, w, h, out);
		break;
	}
	ck_assert_msg(s == NM_OK, "%s: decode: %d", k->name, s);
}

static double psnr(const uint8_t *a, const uint8_t *b, size_t texels, unsigned channels)
{
	double sum = 0;
	size_t n = 0;
	for (size_t t = 0; t < texels; t++)
		for (unsigned c = 0; c < 4; c++)
			if (channels >> c & 1) {
				double d = (double)a[4 * t + c] - b[4 * t + c];
				sum += d * d;
				n++;
			}
	return sum == 0 ? INFINITY : 10 * log10(255.0 * 255.0 * (double)n / sum);
}

/* Widening by bit replication, written out per width as FORMATS.md gives it. */
static unsigned widen(unsigned q, unsigned bits)
{
	switch (bits) {
	case 1: return q ? 255 : 0;
	case 3: return q << 5 | q << 2 | q >> 1;
	case 4: return q * 17;
	case 5: return q << 3 | q >> 2;
	case 6: return q << 2 | q >> 4;
	default: return q;
	}
}

/* The nearest value bits can hold, by trying every code (ties: the lower code). */
static unsigned nearest(unsigned v, unsigned bits)
{
	unsigned best = 0, best_err = 999;
	for (unsigned q = 0; q < 1u << bits; q++) {
		unsigned e = (unsigned)abs((int)widen(q, bits) - (int)v);
		if (e < best_err) {
			best_err = e;
			best = widen(q, bits);
		}
	}
	return best;
}

static void ideal(const packing *p, const uint8_t *in, uint8_t out[4])
{
	unsigned luma = (77u * in[0] + 150u * in[1] + 29u * in[2] + 128) >> 8;
	for (unsigned c = 0; c < 4; c++) {
		unsigned v = p->luma && c < 3 ? luma : in[c];
		out[c] = (uint8_t)(p->fixed[c] >= 0 ? (unsigned)p->fixed[c] : nearest(v, p->bits[c]));
	}
	if (p->alpha_is_luma)
		out[3] = out[0];
}

/* What a format with packing p shows of in at full depth: its luma, its constants. */
static void view_of(const packing *p, const uint8_t *in, uint8_t out[4], unsigned *channels)
{
	packing full = *p;
	*channels = 0;
	for (unsigned c = 0; c < 4; c++) {
		full.bits[c] = 8;
		*channels |= (p->fixed[c] < 0 ? 1u : 0u) << c;
	}
	ideal(&full, in, out);
}

static unsigned err4(const uint8_t *a, const uint8_t *b)
{
	unsigned e = 0;
	for (int c = 0; c < 4; c++)
		e += (unsigned)((a[c] - b[c]) * (a[c] - b[c]));
	return e;
}

/* RGB5A3: the decoded texel is the opaque 5:5:5 one or the 4:4:4:3 one, whichever is
 * nearer the input (opaque on a tie). */
static void ck_rgb5a3(const uint8_t *in, const uint8_t *got, size_t t)
{
	uint8_t op[4] = { (uint8_t)nearest(in[0], 5), (uint8_t)nearest(in[1], 5),
			  (uint8_t)nearest(in[2], 5), 255 };
	uint8_t al[4] = { (uint8_t)nearest(in[0], 4), (uint8_t)nearest(in[1], 4),
			  (uint8_t)nearest(in[2], 4), (uint8_t)nearest(in[3], 3) };
	const uint8_t *want = err4(op, in) <= err4(al, in) ? op : al;
	if (memcmp(got, want, 4))
		ck_abort_msg("RGB5A3 texel %zu: %u,%u,%u,%u from %u,%u,%u,%u, want %u,%u,%u,%u", t,
			     got[0], got[1], got[2], got[3], in[0], in[1], in[2], in[3], want[0],
			     want[1], want[2], want[3]);
}

static void ck_lossless(const enc_case *k, const uint8_t *img, const uint8_t *dec, size_t n)
{
	for (size_t t = 0; t < n; t++) {
		if (k->rgb5a3) {
			ck_rgb5a3(img + 4 * t, dec + 4 * t, t);
			continue;
		}
		uint8_t want[4];
		ideal(k->exact, img + 4 * t, want);
		if (memcmp(dec + 4 * t, want, 4))
			ck_abort_msg("%s texel %zu: %u,%u,%u,%u, want %u,%u,%u,%u", k->name, t,
				     dec[4 * t], dec[4 * t + 1], dec[4 * t + 2], dec[4 * t + 3],
				     want[0], want[1], want[2], want[3]);
	}
}

/* ---- the libraries' own round trips, and their decoders on our bytes ---- */

/* libETC1 alone: its encoder and decoder on the RGB of img. */
static double etc1_library(const uint8_t *img, unsigned w, unsigned h)
{
	size_t n = (size_t)w * h;
	uint8_t *rgb = malloc(n * 3), *enc = malloc(etc1_get_encoded_data_size(w, h)),
		*back = malloc(n * 3), *rgba = malloc(n * 4);
	for (size_t t = 0; t < n; t++)
		memcpy(rgb + 3 * t, img + 4 * t, 3);
	ck_assert_int_eq(etc1_encode_image(rgb, w, h, 3, w * 3, enc), 0);
	ck_assert_int_eq(etc1_decode_image(enc, back, w, h, 3, w * 3), 0);
	for (size_t t = 0; t < n; t++) {
		memcpy(rgba + 4 * t, back + 3 * t, 3);
		rgba[4 * t + 3] = img[4 * t + 3];
	}
	double db = psnr(img, rgba, n, RGB_CH);
	free(rgb), free(enc), free(back), free(rgba);
	return db;
}

/* libETC1's decoder on our PICA blocks: tiles undone, each colour word reversed back to
 * the standard big-endian order. Its RGB must be ours exactly. */
static void ck_etc1_by_libetc1(const enc_case *k, const uint8_t *src, unsigned w, unsigned h,
			       const uint8_t *ours)
{
	size_t stride = k->fmt == NM_PICA_ETC1A4 ? 16 : 8;
	for (unsigned ty = 0; ty < h; ty += 8)
		for (unsigned tx = 0; tx < w; tx += 8)
			for (unsigned b = 0; b < 4; b++, src += stride) {
				etc1_byte be[8], rgb[48];
				for (int i = 0; i < 8; i++)
					be[i] = src[stride - 1 - i];
				etc1_decode_block(be, rgb);
				unsigned bx = tx + (b & 1) * 4, by = ty + (b >> 1) * 4;
				for (unsigned y = 0; y < 4; y++)
					for (unsigned x = 0; x < 4; x++) {
						const uint8_t *o = ours + ((size_t)(by + y) * w + bx + x) * 4;
						if (memcmp(o, rgb + 3 * (x + 4 * y), 3))
							ck_abort_msg("%s (%u,%u): ours %u,%u,%u, libETC1 %u,%u,%u",
								     k->name, bx + x, by + y, o[0], o[1], o[2],
								     rgb[3 * (x + 4 * y)],
								     rgb[3 * (x + 4 * y) + 1],
								     rgb[3 * (x + 4 * y) + 2]);
					}
			}
}

/* libsquish on the same image: for BC1-BC3 its best fit and its decoder (which are ours);
 * for BC4/BC5 its own BC4/BC5 encoder, decoded by ours (its decoder has none). */
static double squish_library(nm_bcn_format f, const uint8_t *img, unsigned w, unsigned h,
			     unsigned channels)
{
	size_t n = (size_t)w * h, len = (size_t)((w + 3) / 4) * ((h + 3) / 4) * 16;
	uint8_t *enc = malloc(len), *dec = malloc(n * 4);
	if (f <= NM_BC3) {
		ck_assert_int_eq(nm_bcn_encode(f, img, w, h, enc, len), NM_OK);
		ck_assert_int_eq(nm_squish_decode(f, enc, len, w, h, dec), NM_OK);
	} else {
		ck_assert_int_eq(nm_squish_encode(f, img, w, h, enc, len), NM_OK);
		ck_assert_int_eq(nm_bcn_decode(f, enc, len, w, h, dec), NM_OK);
	}
	double db = psnr(img, dec, n, channels);
	free(enc), free(dec);
	return db;
}

/* libsquish's BC3 decoder on each channel of our BC4/BC5 blocks (a BC4 block is a BC3
 * alpha block): its alpha must be ours exactly. */
static void ck_bc4_by_squish(const enc_case *k, const uint8_t *src, unsigned w, unsigned h,
			     const uint8_t *ours)
{
	unsigned per = k->fmt == NM_BC5 ? 2 : 1;
	for (unsigned by = 0; by < (h + 3) / 4; by++)
		for (unsigned bx = 0; bx < (w + 3) / 4; bx++, src += 8 * per)
			for (unsigned c = 0; c < per; c++) {
				uint8_t bc3[16] = { 0 }, rgba[64];
				memcpy(bc3, src + 8 * c, 8);
				ck_assert_int_eq(nm_squish_decode(NM_BC3, bc3, 16, 4, 4, rgba), NM_OK);
				for (unsigned t = 0; t < 16; t++) {
					unsigned x = bx * 4 + t % 4, y = by * 4 + t / 4;
					if (x < w && y < h)
						ck_assert_uint_eq(ours[((size_t)y * w + x) * 4 + c],
								  rgba[4 * t + 3]);
				}
			}
}

/* CMPR's library: libsquish's BC1 best fit decoded by libsquish (1/3-2/3 blending).
 * Also the same blocks read as CMPR (only byte order changed) by our decoder: what
 * choosing the indices under GX's 3/8-5/8 palette gains over libsquish's own. */
static double cmpr_library(const uint8_t *img, unsigned w, unsigned h, double *as_cmpr)
{
	size_t n = (size_t)w * h, bc1_len = (size_t)((w + 3) / 4) * ((h + 3) / 4) * 8;
	size_t cmpr_len = nm_gx_level_size(NM_GX_CMPR, w, h);
	uint8_t *bc1 = malloc(bc1_len), *cmpr = calloc(1, cmpr_len), *dec = malloc(n * 4);
	ck_assert_int_eq(nm_bcn_encode(NM_BC1, img, w, h, bc1, bc1_len), NM_OK);
	ck_assert_int_eq(nm_squish_decode(NM_BC1, bc1, bc1_len, w, h, dec), NM_OK);
	double db = psnr(img, dec, n, RGB_CH);
	unsigned bxs = (w + 3) / 4;
	uint8_t *o = cmpr;
	for (unsigned y0 = 0; y0 < h; y0 += 8)
		for (unsigned x0 = 0; x0 < w; x0 += 8)
			for (unsigned s = 0; s < 4; s++, o += 8) {
				unsigned bx = x0 / 4 + (s & 1), by = y0 / 4 + (s >> 1);
				if (bx >= bxs || by >= (h + 3) / 4)
					continue;
				const uint8_t *b = bc1 + ((size_t)by * bxs + bx) * 8;
				o[0] = b[1], o[1] = b[0], o[2] = b[3], o[3] = b[2];
				for (int r = 0; r < 4; r++) {
					unsigned row = 0;
					for (int x = 0; x < 4; x++)
						row |= (unsigned)(b[4 + r] >> (2 * x) & 3) << (6 - 2 * x);
					o[4 + r] = (uint8_t)row;
				}
			}
	ck_assert_int_eq(nm_gx_decode(NM_GX_CMPR, cmpr, cmpr_len, w, h, NULL, 0, 0, dec), NM_OK);
	*as_cmpr = psnr(img, dec, n, RGB_CH);
	free(bc1), free(cmpr), free(dec);
	return db;
}

/* libimagequant alone: its palette of count colours (at most 256) at 8 bits and its own
 * remapping, undithered, as our palettes are made. */
static double liq_library(const uint8_t *img, unsigned w, unsigned h, unsigned count)
{
	size_t n = (size_t)w * h;
	uint8_t *idx = malloc(n), *dec = malloc(n * 4);
	liq_attr *attr = liq_attr_create();
	liq_set_max_colors(attr, count > 256 ? 256 : (int)count);
	liq_image *im = liq_image_create_rgba(attr, img, (int)w, (int)h, 0);
	liq_result *res = NULL;
	ck_assert_int_eq(liq_image_quantize(im, attr, &res), LIQ_OK);
	liq_set_dithering_level(res, 0);
	ck_assert_int_eq(liq_write_remapped_image(res, im, idx, n), LIQ_OK);
	const liq_palette *pal = liq_get_palette(res);
	for (size_t t = 0; t < n; t++) {
		const liq_color *c = &pal->entries[idx[t]];
		dec[4 * t] = c->r, dec[4 * t + 1] = c->g, dec[4 * t + 2] = c->b, dec[4 * t + 3] = c->a;
	}
	double db = psnr(img, dec, n, RGBA_CH);
	liq_result_destroy(res);
	liq_image_destroy(im);
	liq_attr_destroy(attr);
	free(idx), free(dec);
	return db;
}

/* ---- the rows ---- */

/* Encode img (w x h) as k, twice (same bytes), and decode it: the bytes in *enc, the
 * texels in *dec, the palette (GX indexed) in *pal. */
static size_t encode_decode(const enc_case *k, const uint8_t *img, unsigned w, unsigned h,
			    uint8_t **enc, uint8_t **dec, uint8_t **pal)
{
	size_t len = level_size(k, w, h), n = (size_t)w * h;
	ck_assert_uint_gt(len, 0);
	uint8_t *a = malloc(len + 1), *b = malloc(len + 1), *pa = start_palette(k),
		*pb = start_palette(k);
	a[len] = b[len] = 0x5A;
	bool changed = false;
	ck_assert_int_eq(encode(k, img, w, h, a, len, pa, &changed), NM_OK);
	ck_assert_int_eq(encode(k, img, w, h, b, len, pb, NULL), NM_OK);
	ck_assert_msg(memcmp(a, b, len) == 0, "%s: two encodings of one image differ", k->name);
	ck_assert_msg(a[len] == 0x5A, "%s: wrote past the level", k->name);
	if (k->pal_count) {
		ck_assert_msg(memcmp(pa, pb, k->pal_count * 2) == 0, "%s: palettes differ", k->name);
		ck_assert_msg(changed, "%s: the grey ramp palette was kept", k->name);
	}
	*dec = malloc(n * 4);
	decode(k, a, len, w, h, pa, *dec);
	free(b), free(pb);
	*enc = a;
	*pal = pa;
	return len;
}

START_TEST(row)
{
	const enc_case *k = &cases[_i];
	for (int edge = 0; edge < 2; edge++) {
		/* PICA has no ragged edges: its sides are multiples of 8. */
		if (edge && k->family == PICA)
			continue;
		unsigned w = edge ? EW : W, h = edge ? EH : H;
		size_t n = (size_t)w * h;
		uint8_t *img = test_image(w, h, k->opaque, 7u + (uint32_t)_i), *enc, *dec, *pal;
		size_t len = encode_decode(k, img, w, h, &enc, &dec, &pal);
		/* Measured against what the format can show at full depth: the grey of a
		 * luma format, its stored channels. */
		uint8_t *ref = malloc(n * 4);
		unsigned channels = k->channels;
		const packing *view = k->exact ? k->exact : k->view;
		for (size_t t = 0; t < n; t++)
			if (view)
				view_of(view, img + 4 * t, ref + 4 * t, &channels);
			else
				memcpy(ref + 4 * t, img + 4 * t, 4);
		double ours = psnr(ref, dec, n, channels);
		if (k->exact || k->rgb5a3) {
			ck_lossless(k, img, dec, n);
			/* Decoded, then encoded again: the same bytes. */
			uint8_t *again = malloc(len);
			ck_assert_int_eq(encode(k, dec, w, h, again, len, NULL, NULL), NM_OK);
			ck_assert_msg(memcmp(again, enc, len) == 0, "%s: not a fixed point", k->name);
			free(again);
			if (!edge)
				printf("psnr: %-16s ours %6.2f dB, exact after quantisation\n", k->name,
				       ours);
		} else {
			/* The ragged image has less room for a fit: a few dB below the floor. */
			ck_assert_msg(ours >= k->floor_db - (edge ? 3 : 0),
				      "%s %ux%u: PSNR %.2f dB, below %.1f", k->name, w, h, ours,
				      k->floor_db);
		}
		double lib = NAN, as_cmpr = NAN;
		const char *what = NULL;
		if (k->family == PICA && !k->exact) {
			ck_etc1_by_libetc1(k, enc, w, h, dec);
			lib = etc1_library(img, w, h);
			what = "libETC1 encode+decode, RGB";
			/* Ours is libETC1's encoder: the same colours wherever it tiles them. */
			if (k->fmt == NM_PICA_ETC1)
				ck_assert_double_eq_tol(ours, lib, 1e-9);
		} else if (k->family == BCN) {
			if (k->fmt >= NM_BC4)
				ck_bc4_by_squish(k, enc, w, h, dec);
			lib = squish_library((nm_bcn_format)k->fmt, img, w, h, k->channels);
			what = k->fmt >= NM_BC4 ? "libsquish's BC4/BC5 encoder, our decoder"
						: "libsquish best fit + libsquish decode";
			/* Our endpoint search beats or meets libsquish's BC4/BC5. */
			ck_assert_msg(ours >= lib - 1e-9, "%s: ours %.2f dB, libsquish %.2f dB",
				      k->name, ours, lib);
		} else if (k->family == GX && k->fmt == NM_GX_CMPR) {
			lib = cmpr_library(img, w, h, &as_cmpr);
			what = "libsquish BC1 best fit + libsquish decode";
			/* Indices chosen under GX's palette: no worse than libsquish's own. */
			ck_assert_msg(ours >= as_cmpr, "%s: ours %.2f dB, libsquish's indices %.2f dB",
				      k->name, ours, as_cmpr);
		} else if (k->pal_count) {
			lib = liq_library(ref, w, h, k->pal_count);
			what = "libimagequant at 8 bits, its remap";
		} else if (k->family == ASTC) {
			uint8_t *ref = malloc(n * 4);
			ck_assert_int_eq(nm_astc_decode_reference(k->bw, k->bh, enc, len, w, h, ref),
					 NM_OK);
			for (size_t i = 0; i < n * 4; i++)
				ck_assert_msg(abs(ref[i] - dec[i]) <= (k->srgb ? 2 : 1),
					      "%s sample %zu: ours %u, libastcenc %u", k->name, i,
					      dec[i], ref[i]);
			lib = psnr(img, ref, n, k->channels);
			what = "libastcenc's own decoder on the same blocks";
			free(ref);
		}
		if (!edge && what) {
			printf("psnr: %-16s ours %6.2f dB, library %6.2f dB (%s)", k->name, ours, lib,
			       what);
			if (!isnan(as_cmpr))
				printf("; libsquish's BC1 indices under GX's blend %.2f dB", as_cmpr);
			printf("\n");
		}
		fflush(stdout);
		free(img), free(ref), free(enc), free(dec), free(pal);
	}
}
END_TEST

/* A C8 texture decoded and encoded with its own palette: the palette is kept and the
 * bytes come back as they were; one texel of a new colour makes a new palette. Few
 * colours (fewer than the entries) make a palette of exactly those: no loss. */
START_TEST(palette_kept_or_exact)
{
	enum { PW = 16, PH = 8, COUNT = 256 };
	uint8_t pal[COUNT * 2], src[PW * PH], rgba[PW * PH * 4], enc[PW * PH], work[COUNT * 2];
	uint32_t seed = 99;
	/* RGB5A3 entries, all opaque and distinct (bit 15 set, colour = entry number). */
	for (unsigned i = 0; i < COUNT; i++) {
		pal[2 * i] = 0x80 | (uint8_t)(i >> 3);
		pal[2 * i + 1] = (uint8_t)(i * 37);
	}
	for (unsigned i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(xorshift(&seed) >> 24);
	ck_assert_int_eq(nm_gx_decode(NM_GX_C8, src, sizeof src, PW, PH, pal, COUNT,
				      NM_GX_PAL_RGB5A3, rgba), NM_OK);
	memcpy(work, pal, sizeof pal);
	bool changed = true;
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C8, rgba, PW, PH, enc, sizeof enc, work, COUNT,
				      NM_GX_PAL_RGB5A3, &changed), NM_OK);
	ck_assert(!changed);
	ck_assert_mem_eq(work, pal, sizeof pal);
	ck_assert_mem_eq(enc, src, sizeof src);

	/* A colour the palette lacks: a new palette, at most COUNT entries. */
	rgba[0] = 1, rgba[1] = 2, rgba[2] = 3, rgba[3] = 40;
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C8, rgba, PW, PH, enc, sizeof enc, work, COUNT,
				      NM_GX_PAL_RGB5A3, &changed), NM_OK);
	ck_assert(changed);

	/* Twelve colours the TLUT holds exactly, into C4: exactly those come back. */
	for (unsigned t = 0; t < PW * PH; t++) {
		unsigned c = (t * 7) % 12;
		uint8_t *px = rgba + 4 * t;
		px[0] = (uint8_t)(c * 17), px[1] = (uint8_t)(255 - c * 17), px[2] = 0x88;
		px[3] = (uint8_t)(c < 6 ? 255 : 0x49);   /* 0x49: 3-bit alpha 2 */
	}
	uint8_t c4[PW * PH / 2], pal16[32] = { 0 }, back[PW * PH * 4];
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C4, rgba, PW, PH, c4, sizeof c4, pal16, 16,
				      NM_GX_PAL_RGB5A3, &changed), NM_OK);
	ck_assert(changed);
	ck_assert_int_eq(nm_gx_decode(NM_GX_C4, c4, sizeof c4, PW, PH, pal16, 16,
				      NM_GX_PAL_RGB5A3, back), NM_OK);
	ck_assert_mem_eq(back, rgba, sizeof back);
	/* The four entries left over are zero. */
	for (unsigned i = 12 * 2; i < 32; i++)
		ck_assert_uint_eq(pal16[i], 0);
	/* Entries past the 16 C4 can index are not the texture's to change. */
	uint8_t pal20[40];
	memset(pal20, 0xAB, sizeof pal20);
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C4, rgba, PW, PH, c4, sizeof c4, pal20, 20,
				      NM_GX_PAL_RGB5A3, &changed), NM_OK);
	ck_assert(changed);
	ck_assert_mem_eq(pal20, pal16, 32);
	for (unsigned i = 32; i < 40; i++)
		ck_assert_uint_eq(pal20[i], 0xAB);
}
END_TEST

/* A palette of one entry, and C14X2 with more colours than libimagequant's 256. */
START_TEST(palette_edges)
{
	uint8_t *img = test_image(EW, EH, 0, 5), pal1[2] = { 0 }, enc[2048];
	uint8_t back[EW * EH * 4];
	bool changed;
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C8, img, EW, EH, enc,
				      nm_gx_level_size(NM_GX_C8, EW, EH), pal1, 1, NM_GX_PAL_IA8,
				      &changed), NM_OK);
	ck_assert_int_eq(nm_gx_decode(NM_GX_C8, enc, sizeof enc, EW, EH, pal1, 1, NM_GX_PAL_IA8,
				      back), NM_OK);
	for (unsigned t = 1; t < EW * EH; t++)
		ck_assert_mem_eq(back + 4 * t, back, 4);
	free(img);
}
END_TEST

START_TEST(refusals)
{
	uint8_t img[16 * 16 * 4] = { 0 }, dst[16 * 16 * 4], pal[32];
	nm_options small;
	nm_options_init(&small);
	small.max_file_size = 1u << 20;
	ck_assert_int_eq(nm_bcn_encode(NM_BC7, img, 4, 4, dst, sizeof dst), NM_E_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(nm_bcn_no_encoder(NM_BC7), "BC7"));
	ck_assert_ptr_null(nm_bcn_no_encoder(NM_BC5));
	ck_assert_int_eq(nm_bcn_encode(NM_BC1, img, 5, 4, dst, 8), NM_E_INVAL);
	ck_assert_int_eq(nm_pica_encode(NM_PICA_RGBA8, img, 8, 8, dst, 255), NM_E_INVAL);
	ck_assert_int_eq(nm_pica_encode(NM_PICA_RGBA8, img, 12, 8, dst, sizeof dst), NM_E_INVAL);
	ck_assert_int_eq(nm_pica_encode(NM_PICA_UNKNOWN, img, 8, 8, dst, sizeof dst), NM_E_INVAL);
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_I8, img, 8, 4, dst, 31, NULL, 0, 0, NULL),
			 NM_E_INVAL);
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C4, img, 8, 8, dst, 32, NULL, 0, 0, NULL),
			 NM_E_INVAL);
	ck_assert_int_eq(nm_gx_encode(NULL, NM_GX_C4, img, 8, 8, dst, 32, pal, 16, 7, NULL),
			 NM_E_INVAL);
	ck_assert_int_eq(nm_gx_encode(NULL, 7, img, 8, 8, dst, 32, NULL, 0, 0, NULL), NM_E_INVAL);
	ck_assert_int_eq(nm_astc_encode_level(NULL, 7, 7, false, img, 4, 4, dst, 16), NM_E_INVAL);
	ck_assert_int_eq(nm_astc_encode_level(NULL, 4, 4, false, img, 8, 4, dst, 16), NM_E_INVAL);
	/* Limits: before anything is allocated. */
	ck_assert_int_eq(nm_astc_encode_level(&small, 4, 4, false, img, 4, 4, dst, 16),
			 NM_E_LIMIT);
	small.max_file_size = 1000;
	bool changed = true;
	ck_assert_int_eq(nm_gx_encode(&small, NM_GX_C8, img, 16, 16, dst, 256, pal, 16,
				      NM_GX_PAL_IA8, &changed), NM_E_LIMIT);
	ck_assert(!changed);
}
END_TEST

START_TEST(mip_box)
{
	/* 2 x 2 -> 1: the rounded mean; 3 x 1 -> 1 x 1: the first two, each weighed twice. */
	const uint8_t sq[16] = { 0, 10, 255, 1, 1, 10, 255, 2, 2, 10, 0, 3, 4, 11, 0, 4 };
	uint8_t out[4];
	ck_assert_int_eq(nm_mip_box(sq, 2, 2, out), NM_OK);
	ck_assert(out[0] == 2 && out[1] == 10 && out[2] == 128 && out[3] == 3);
	const uint8_t row[12] = { 10, 20, 30, 40, 11, 21, 31, 41, 200, 200, 200, 200 };
	ck_assert_int_eq(nm_mip_box(row, 3, 1, out), NM_OK);
	ck_assert(out[0] == 11 && out[1] == 21 && out[2] == 31 && out[3] == 41);
	ck_assert_uint_eq(nm_mip_side(1), 1);
	ck_assert_uint_eq(nm_mip_side(5), 2);
	/* A whole chain of the test image down to 1 x 1: a flat image stays flat. */
	uint8_t *img = test_image(W, H, 0, 3), *next = malloc(W * H * 4);
	memset(img, 77, W * H * 4);
	for (unsigned w = W, h = H; w > 1 || h > 1; w = nm_mip_side(w), h = nm_mip_side(h)) {
		ck_assert_int_eq(nm_mip_box(img, w, h, next), NM_OK);
		for (size_t i = 0; i < (size_t)nm_mip_side(w) * nm_mip_side(h) * 4; i++)
			ck_assert_uint_eq(next[i], 77);
		memcpy(img, next, (size_t)nm_mip_side(w) * nm_mip_side(h) * 4);
	}
	ck_assert_int_eq(nm_mip_box(NULL, 2, 2, out), NM_E_INVAL);
	free(img), free(next);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("codec_encode");
	TCase *tc = tcase_create("encode");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, row, 0, NCASES);
	tcase_add_test(tc, palette_kept_or_exact);
	tcase_add_test(tc, palette_edges);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, mip_box);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
NM_CHECK_MAIN(suite)
