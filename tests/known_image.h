/* Known-answer texture tests as rows of a table: a source that is zero but for a few
 * bytes, and the RGBA pixels those bytes must decode to. test_codec_pica.c and
 * test_codec_gx.c each had one hand-written test per format, all of the same shape
 * (zero a buffer, poke bytes, decode, compare pixels); a row says only what differs,
 * and a new format is one more row. Header-only: each test program is its own binary. */
#ifndef NM_TEST_KNOWN_IMAGE_H
#define NM_TEST_KNOWN_IMAGE_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct ki_set {
	uint16_t at;
	uint8_t n;
	uint8_t bytes[4];
} ki_set;

typedef struct ki_px {
	uint16_t x, y;
	uint8_t rgba[4];
} ki_px;

typedef struct known_image {
	const char *name;
	unsigned format, w, h;
	size_t len;             /* source bytes: zero but for set */
	ki_set set[16];
	size_t nset;
	ki_px want[24];
	size_t nwant;
} known_image;

/* KI_SET(at, b0, b1...): bytes written at at, in the order given (at most 4). */
#define KI_SET(at, ...) { (at), sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }
/* A big-endian u16 (GX). */
#define KI_SET16(at, v) KI_SET(at, (uint8_t)((v) >> 8), (uint8_t)(v))
#define KI_SETS(...) .set = { __VA_ARGS__ }, \
	.nset = sizeof((ki_set[]){ __VA_ARGS__ }) / sizeof(ki_set)
#define KI_PX(x, y, r, g, b, a) { (x), (y), { (r), (g), (b), (a) } }
#define KI_GREY(x, y, i, a) KI_PX(x, y, i, i, i, a)
#define KI_WANT(...) .want = { __VA_ARGS__ }, \
	.nwant = sizeof((ki_px[]){ __VA_ARGS__ }) / sizeof(ki_px)

/* The row's source in src (at least k->len bytes). */
static inline void ki_source(const known_image *k, uint8_t *src)
{
	memset(src, 0, k->len);
	for (size_t i = 0; i < k->nset; i++) {
		ck_assert_msg(k->set[i].at + k->set[i].n <= k->len, "%s: set %zu past the source",
			      k->name, i);
		memcpy(src + k->set[i].at, k->set[i].bytes, k->set[i].n);
	}
}

/* Every wanted pixel of the decoded w x h RGBA image. */
static inline void ki_check(const known_image *k, const uint8_t *rgba)
{
	for (size_t i = 0; i < k->nwant; i++) {
		const ki_px *w = &k->want[i];
		const uint8_t *p = rgba + ((size_t)w->y * k->w + w->x) * 4;
		ck_assert_msg(memcmp(p, w->rgba, 4) == 0,
			      "%s: pixel (%u,%u) = %u,%u,%u,%u, want %u,%u,%u,%u", k->name, w->x,
			      w->y, p[0], p[1], p[2], p[3], w->rgba[0], w->rgba[1], w->rgba[2],
			      w->rgba[3]);
	}
}

#endif
