#include "codec/etc1.h"

#include <string.h>

/* A block is two sub-blocks of eight pixels, each with a palette of four colours
 * (base colour plus one of four modifiers, clamped). Every kernel builds the eight
 * colours once per block, as the 32-bit words the image stores, and then each pixel
 * is a look-up into them stored straight into the image: no per-pixel arithmetic,
 * no branch that depends on the data, no staging block. The kernels differ in how:
 *   portable  clamps through a table, looks pixels up one by one;
 *   SSE2      clamps with saturating byte arithmetic, looks up one by one;
 *   AVX2      the same palette in one register, eight pixels per look-up (vpermd);
 * and all give the same bytes (tests/test_codec_etc1.c runs each). */

#if defined(__SSE2__)
#include <emmintrin.h>
#define ETC1_SSE2 1
#endif
/* AVX2 is not in the x86-64 baseline: built for it apart, chosen when the CPU has it. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && defined(ETC1_SSE2)
#include <immintrin.h>
#define ETC1_AVX2 1
#endif

/* Where channel c (0 R, 1 G, 2 B, 3 A) sits in the 32-bit word that stores a pixel,
 * so that the bytes in memory are R, G, B, A on either byte order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CHANNEL_SHIFT(c) (24u - 8u * (c))
#else
#define CHANNEL_SHIFT(c) (8u * (c))
#endif

/* (small, large) modifier per table index; the selector's MSB makes it negative. */
#define ETC1_TABLES(X) \
	X(2, 8) X(5, 17) X(9, 29) X(13, 42) X(18, 60) X(24, 80) X(33, 106) X(47, 183)

/* A word with R, G, B (as its low three bytes) in memory order on either byte order. */
static uint32_t etc1_rgb(uint32_t r_g_b_)
{
	uint32_t r = r_g_b_ >> 24, g = (r_g_b_ >> 16) & 0xFF, b = (r_g_b_ >> 8) & 0xFF;

	return r << CHANNEL_SHIFT(0) | g << CHANNEL_SHIFT(1) | b << CHANNEL_SHIFT(2);
}

/* The two base colours. The channels are the top three bytes of hi, R highest: in
 * each, base 1 and base 2 as two nibbles, or base 1 in five bits and a three-bit
 * delta. All three are worked out at once, one per byte (no sum leaves its byte),
 * in both readings; the diff bit picks one with a mask, since a branch on it would
 * be as unpredictable as the blocks are. */
static inline void etc1_bases(uint32_t hi, uint32_t bases[2])
{
	uint32_t diff = 0u - ((hi >> 1) & 1);
	uint32_t i1 = (hi >> 4) & 0x0F0F0F00, i2 = hi & 0x0F0F0F00;
	uint32_t d1 = (hi >> 3) & 0x1F1F1F00, dd = hi & 0x07070700;
	/* Two's-complement 3-bit delta: adding dd-8 mod 32 == dd+24. */
	uint32_t d2 = (d1 + dd + (dd & 0x04040400) * 6) & 0x1F1F1F00;
	/* Widening: 4 -> 8 bits n * 17, 5 -> 8 bits n << 3 | n >> 2. */
	uint32_t b1 = (i1 * 17 & ~diff) | ((d1 << 3 | (d1 >> 2 & 0x07070700)) & diff);
	uint32_t b2 = (i2 * 17 & ~diff) | ((d2 << 3 | (d2 >> 2 & 0x07070700)) & diff);

	bases[0] = etc1_rgb(b1);
	bases[1] = etc1_rgb(b2);
}

/* The alpha a block's palette carries: the one alpha of the whole block (every ETC1
 * block: opaque), or 0 when *per_pixel, where each pixel adds its own. */
static inline uint32_t etc1_block_alpha(uint64_t alpha, int *per_pixel)
{
	*per_pixel = alpha != (alpha & 15) * UINT64_C(0x1111111111111111);
	return *per_pixel ? 0 : (uint32_t)(alpha & 15) * 17;
}

/* ---- portable: a clamp table ---- */

/* clamp_255[v + CLAMP_BIAS] for every base + modifier, -183 .. 255 + 183: a table,
 * because a comparison there is the branch random blocks mispredict most. */
#define CLAMP_BIAS 192
#define C1(v) (uint8_t)((v) < 0 ? 0 : (v) > 255 ? 255 : (v))
#define C4(v) C1(v), C1((v) + 1), C1((v) + 2), C1((v) + 3)
#define C16(v) C4(v), C4((v) + 4), C4((v) + 8), C4((v) + 12)
#define C64(v) C16(v), C16((v) + 16), C16((v) + 32), C16((v) + 48)
static const uint8_t clamp_255[640] = {
	C64(-192), C64(-128), C64(-64), C64(0), C64(64), C64(128), C64(192), C64(256),
	C64(320), C64(384)
};

#define MOD_PAIR(s, l) { s, l },
static const int etc1_modifiers[8][2] = { ETC1_TABLES(MOD_PAIR) };

static void palette_table(uint32_t base, unsigned table, uint32_t alpha, uint32_t pal[4])
{
	for (unsigned sel = 0; sel < 4; sel++) {
		int m = etc1_modifiers[table][sel & 1];
		uint32_t px = alpha << CHANNEL_SHIFT(3);

		if (sel & 2)
			m = -m;
		for (unsigned c = 0; c < 3; c++)
			px |= (uint32_t)clamp_255[(int)((base >> CHANNEL_SHIFT(c)) & 0xFF) + m +
						  CLAMP_BIAS] << CHANNEL_SHIFT(c);
		pal[sel] = px;
	}
}

/* ---- the scalar pixel stage (portable and SSE2) ---- */

/* The 16 selectors as 2-bit numbers, pixel k (x = k / 4, y = k % 4) at bits 2k and
 * 2k + 1: the block keeps their LSBs in lo bits 0..15 and MSBs in bits 16..31, and
 * interleaving the two halves puts each pair together. */
static inline uint32_t etc1_selectors(uint32_t lo)
{
	uint64_t x = (lo & 0xFFFF) | (uint64_t)(lo >> 16) << 32;

	x = (x | x << 8) & UINT64_C(0x00FF00FF00FF00FF);
	x = (x | x << 4) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	x = (x | x << 2) & UINT64_C(0x3333333333333333);
	x = (x | x << 1) & UINT64_C(0x5555555555555555);
	return (uint32_t)x | (uint32_t)(x >> 32) << 1;
}

/* Pixel k of the block (x = k / 4, y = k % 4) from its palette pal, with or without
 * an alpha of its own (per_pixel is a constant at every call). */
static inline void etc1_put(uint8_t *dst, const uint32_t *pal, uint32_t sel, unsigned k,
			    uint64_t alpha, int per_pixel)
{
	uint32_t px = pal[(sel >> 2 * k) & 3];

	if (per_pixel)
		px |= (uint32_t)((alpha >> 4 * k) & 15) * (0x11u << CHANNEL_SHIFT(3));
	memcpy(dst, &px, 4);
}

/* Row y: the palettes of its left and right halves. Written out pixel by pixel so
 * that every shift is a constant. */
static inline void etc1_row(uint8_t *dst, const uint32_t *left, const uint32_t *right,
			    uint32_t sel, unsigned y, uint64_t alpha, int per_pixel)
{
	etc1_put(dst, left, sel, y, alpha, per_pixel);
	etc1_put(dst + 4, left, sel, 4 + y, alpha, per_pixel);
	etc1_put(dst + 8, right, sel, 8 + y, alpha, per_pixel);
	etc1_put(dst + 12, right, sel, 12 + y, alpha, per_pixel);
}

/* quad[q]: the palette of quadrant q = (y / 2) * 2 + x / 2. */
static inline void etc1_pixels(const uint32_t *const quad[4], uint32_t sel, uint64_t alpha,
			       int per_pixel, uint8_t *dst, size_t stride)
{
	etc1_row(dst, quad[0], quad[1], sel, 0, alpha, per_pixel);
	etc1_row(dst + stride, quad[0], quad[1], sel, 1, alpha, per_pixel);
	etc1_row(dst + 2 * stride, quad[2], quad[3], sel, 2, alpha, per_pixel);
	etc1_row(dst + 3 * stride, quad[2], quad[3], sel, 3, alpha, per_pixel);
}

typedef void etc1_palette_fn(uint32_t base, unsigned table, uint32_t alpha, uint32_t pal[4]);

/* A whole block with the palettes from palette (a constant at each call). */
static inline void etc1_scalar(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride,
			       etc1_palette_fn *palette)
{
	uint32_t hi = (uint32_t)(word >> 32), lo = (uint32_t)word;
	uint32_t bases[2], pal[2][4];
	int per_pixel;
	uint32_t a = etc1_block_alpha(alpha, &per_pixel);

	etc1_bases(hi, bases);
	palette(bases[0], (hi >> 5) & 7, a, pal[0]);
	palette(bases[1], (hi >> 2) & 7, a, pal[1]);

	/* flip 0: sub-block 2 is columns 2-3; flip 1: rows 2-3. Quadrants (0,0) and
	 * (1,1) belong to one sub-block whatever the flip. */
	int flip = hi & 1;
	const uint32_t *const quad[4] = {
		pal[0], flip ? pal[0] : pal[1], flip ? pal[1] : pal[0], pal[1]
	};
	uint32_t sel = etc1_selectors(lo);

	if (per_pixel)
		etc1_pixels(quad, sel, alpha, 1, dst, stride);
	else
		etc1_pixels(quad, sel, 0, 0, dst, stride);
}

static void decode_portable(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride)
{
	etc1_scalar(word, alpha, dst, stride, palette_table);
}

/* ---- SSE2: saturating bytes ---- */

#ifdef ETC1_SSE2
/* (x86 is little-endian: bytes 0..2 of each word are R, G, B.)
 * Per table: the modifiers as bytes added to R, G and B of each palette entry
 * (selectors 0 and 1) and subtracted from them (2 and 3). Unsigned saturating byte
 * arithmetic clamps to 0..255 exactly, since an entry only adds or only subtracts. */
#define MOD_ADD(s, l) { (s) * 0x010101u, (l) * 0x010101u, 0, 0 },
#define MOD_SUB(s, l) { 0, 0, (s) * 0x010101u, (l) * 0x010101u },
static const uint32_t mod_add[8][4] = { ETC1_TABLES(MOD_ADD) };
static const uint32_t mod_sub[8][4] = { ETC1_TABLES(MOD_SUB) };

static inline __m128i palette_vector(uint32_t base, unsigned table, uint32_t alpha)
{
	__m128i v = _mm_set1_epi32((int)(base | alpha << CHANNEL_SHIFT(3)));

	v = _mm_adds_epu8(v, _mm_loadu_si128((const __m128i *)mod_add[table]));
	return _mm_subs_epu8(v, _mm_loadu_si128((const __m128i *)mod_sub[table]));
}

static void palette_sse2(uint32_t base, unsigned table, uint32_t alpha, uint32_t pal[4])
{
	_mm_storeu_si128((__m128i *)pal, palette_vector(base, table, alpha));
}

static void decode_sse2(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride)
{
	etc1_scalar(word, alpha, dst, stride, palette_sse2);
}
#endif

/* ---- AVX2: both palettes in one register, vpermd picks eight pixels at once ---- */

#ifdef ETC1_AVX2
/* Lane i of the two vectors: rows 0-1, then rows 2-3, four pixels each, x = i % 4.
 * For each lane, the pixel number k = 4x + y whose selector bits it takes... */
#define LANES(f) \
	{ f(0, 0), f(1, 0), f(2, 0), f(3, 0), f(0, 1), f(1, 1), f(2, 1), f(3, 1) }, \
	{ f(0, 2), f(1, 2), f(2, 2), f(3, 2), f(0, 3), f(1, 3), f(2, 3), f(3, 3) }
#define K(x, y) (4 * (x) + (y))
#define K_MSB(x, y) (4 * (x) + (y) + 15)
/* ... the shift to its alpha nibble in the 32-bit half of the alpha word that holds
 * it (columns 0-1 in the low half, 2-3 in the high) ... */
#define K_ALPHA(x, y) (4 * K(x, y) % 32)
/* ... and the palette half it reads (4: the second sub-block), per flip. */
#define SUB_FLIP0(x, y) ((x) >= 2 ? 4 : 0)
#define SUB_FLIP1(x, y) ((y) >= 2 ? 4 : 0)
static const int32_t lsb_shift[2][8] = { LANES(K) };
static const int32_t msb_shift[2][8] = { LANES(K_MSB) };
static const int32_t alpha_shift[2][8] = { LANES(K_ALPHA) };
static const int32_t sub_of[2][2][8] = { { LANES(SUB_FLIP0) }, { LANES(SUB_FLIP1) } };

__attribute__((target("avx2")))
static inline __m256i avx2_half(const int32_t *v)
{
	return _mm256_loadu_si256((const __m256i *)v);
}

/* Rows 2h and 2h + 1 of the block. */
__attribute__((target("avx2")))
static inline void avx2_rows(__m256i pal, __m256i sel, const int32_t *sub, __m256i alpha,
			     int h, int per_pixel, uint8_t *dst, size_t stride)
{
	const __m256i one = _mm256_set1_epi32(1), two = _mm256_set1_epi32(2);
	__m256i i = _mm256_and_si256(_mm256_srlv_epi32(sel, avx2_half(lsb_shift[h])), one);

	i = _mm256_or_si256(i, _mm256_and_si256(_mm256_srlv_epi32(sel, avx2_half(msb_shift[h])),
						two));
	__m256i px = _mm256_permutevar8x32_epi32(pal, _mm256_or_si256(i, avx2_half(sub)));

	if (per_pixel) {
		__m256i n = _mm256_srlv_epi32(alpha, avx2_half(alpha_shift[h]));

		n = _mm256_and_si256(n, _mm256_set1_epi32(15));
		/* n * 17 in the top byte, A on little-endian x86. */
		px = _mm256_or_si256(px, _mm256_mullo_epi32(n, _mm256_set1_epi32(0x11000000)));
	}
	_mm_storeu_si128((__m128i *)dst, _mm256_castsi256_si128(px));
	_mm_storeu_si128((__m128i *)(dst + stride), _mm256_extracti128_si256(px, 1));
}

__attribute__((target("avx2")))
static void decode_avx2(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride)
{
	uint32_t hi = (uint32_t)(word >> 32), lo = (uint32_t)word;
	uint32_t bases[2];
	int per_pixel;
	uint32_t a = etc1_block_alpha(alpha, &per_pixel);

	etc1_bases(hi, bases);
	__m256i pal = _mm256_inserti128_si256(
		_mm256_castsi128_si256(palette_vector(bases[0], (hi >> 5) & 7, a)),
		palette_vector(bases[1], (hi >> 2) & 7, a), 1);
	__m256i sel = _mm256_set1_epi32((int)lo);
	const int32_t (*sub)[8] = sub_of[hi & 1];

	if (per_pixel) {
		/* Each lane the half of the alpha word that holds its nibble: the high
		 * half for x = 2, 3 (lanes 2, 3, 6, 7). */
		__m256i al = _mm256_blend_epi32(_mm256_set1_epi32((int)(uint32_t)alpha),
						_mm256_set1_epi32((int)(uint32_t)(alpha >> 32)),
						0xCC);

		avx2_rows(pal, sel, sub[0], al, 0, 1, dst, stride);
		avx2_rows(pal, sel, sub[1], al, 1, 1, dst + 2 * stride, stride);
	} else {
		avx2_rows(pal, sel, sub[0], sel, 0, 0, dst, stride);
		avx2_rows(pal, sel, sub[1], sel, 1, 0, dst + 2 * stride, stride);
	}
}
#endif

/* ---- choosing ---- */

static const struct {
	const char *name;
	nm_etc1_decode_fn *fn;
} kernels[] = {
#ifdef ETC1_AVX2
	{ "AVX2", decode_avx2 },
#endif
#ifdef ETC1_SSE2
	{ "SSE2", decode_sse2 },
#endif
	{ "portable", decode_portable },
};

/* Whether this CPU runs kernel i. */
static int runs(size_t i)
{
#ifdef ETC1_AVX2
	if (kernels[i].fn == decode_avx2)
		return __builtin_cpu_supports("avx2");
#endif
	(void)i;
	return 1;
}

nm_etc1_decode_fn *nm_etc1_decoder(const char **name)
{
	size_t i = 0;

	while (!runs(i))   /* the last, portable, always runs */
		i++;
	if (name)
		*name = kernels[i].name;
	return kernels[i].fn;
}

nm_etc1_decode_fn *nm_etc1_decoder_named(const char *name)
{
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
		if (!strcmp(kernels[i].name, name))
			return runs(i) ? kernels[i].fn : NULL;
	return NULL;
}

void nm_etc1_decode_rgba(uint64_t word, uint64_t alpha, uint8_t *dst, size_t stride)
{
	nm_etc1_decoder(NULL)(word, alpha, dst, stride);
}

void nm_etc1_decode_block(uint64_t word, uint8_t out[4][4][4])
{
	nm_etc1_decode_rgba(word, NM_ETC1_OPAQUE, &out[0][0][0], 16);
}
