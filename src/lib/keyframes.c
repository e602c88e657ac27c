#include <math.h>
#include <stdbool.h>
#include "lib/keyframes.h"

/* The segment's first key: the last key with time <= frame, found by bisection as the
 * game does (keys are in stored order; equal times are allowed). Needs count >= 2 and
 * keys[0].time <= frame < keys[count - 1].time. */
static size_t segment_start(const nm_key *keys, size_t count, double frame)
{
	size_t lo = 0, hi = count - 1; /* keys[lo].time <= frame < keys[hi].time */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid].time <= frame)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* What both samplers give outside a segment: rest for no keys, the one value, the first
 * before the first key and the last from the last key on (true, *v set). */
static bool outside(const nm_key *keys, size_t count, double frame, double rest, double *v)
{
	if (count == 0)
		*v = rest;
	else if (count == 1 || frame < keys[0].time)
		*v = keys[0].value;
	else if (frame >= keys[count - 1].time)
		*v = keys[count - 1].value;
	else
		return false;
	return true;
}

double nm_keys_sample(const nm_key *keys, size_t count, nm_interp interp, double frame,
		      double rest)
{
	double v;
	if (outside(keys, count, frame, rest, &v))
		return v;
	size_t i = segment_start(keys, count, frame);
	const nm_key *k0 = &keys[i], *k1 = &keys[i + 1];
	double len = (double)k1->time - k0->time;
	if (interp == NM_INTERP_STEP || len <= 0)
		return k0->value;
	double s = (frame - k0->time) / len;
	if (interp == NM_INTERP_LINEAR)
		return k0->value + s * ((double)k1->value - k0->value);
	/* Tangents are slopes per frame: over a segment of `len` frames they scale by len
	 * (FORMATS.md 10.1; a viewer that forgets this is wrong on longer segments). */
	double s2 = s * s, s3 = s2 * s;
	double m0 = (double)k0->tan_out * len, m1 = (double)k1->tan_in * len;
	return (2 * s3 - 3 * s2 + 1) * k0->value + (s3 - 2 * s2 + s) * m0 +
	       (-2 * s3 + 3 * s2) * k1->value + (s3 - s2) * m1;
}

size_t nm_full_index(size_t count, double frame)
{
	if (count == 0 || frame < 0)
		return 0;
	if (frame >= (double)count)
		return count - 1;
	return (size_t)frame;
}

/* The segment J3DGetKeyFrameInterpolation picks: its own halving search (n keys left,
 * step to the upper half when frame >= its first time). For keys in time order this is
 * segment_start's answer; for keys out of order it is still the game's (the upper end of
 * the range searched always has a time above frame). Needs count >= 2,
 * keys[0].time <= frame < keys[count - 1].time. */
static size_t j3d_segment(const nm_key *keys, size_t count, float frame)
{
	size_t base = 0, n = count;
	while (n > 1) {
		size_t half = n / 2;
		if (frame >= keys[base + half].time) {
			base += half;
			n -= half;
		} else {
			n = half;
		}
	}
	/* frame < keys[count - 1].time keeps base below the last key; kept safe anyway. */
	return base < count - 1 ? base : count - 2;
}

/* JMAHermiteInterpolation (JMath.h): t0, v0, out-tangent m0, t1, v1, in-tangent m1. */
static float hermite_f32(float f, float t0, float v0, float m0, float t1, float v1, float m1)
{
	float d = f - t0, s = d / (t1 - t0);
	float s2 = s * s, twice = s + s, s2s = s2 - s, dv = v0 - v1;
	float a = fmaf(twice, s2s, -s2);       /* 2s^3 - 3s^2 */
	float b = fmaf(m0, s2s, m0);           /* m0 (s^2 - s + 1) */
	a = fmaf(a, dv, v0);                   /* v0 + (2s^3 - 3s^2)(v0 - v1) */
	b = fmaf(m1, s2s, b);
	b = fmaf(s, m0, -b);                   /* -m0 (s - 1)^2 - m1 s (s - 1) */
	return fmaf(-d, b, a);
}

/* J3DHermiteInterpolationS (J3DAnimation.cpp, its assembly): the same curve summed in
 * another order. */
static float hermite_s16(float f, float t0, float v0, float m0, float t1, float v1, float m1)
{
	float len = t1 - t0, d = f - t0, dv = v1 - v0;
	float s = d / len;
	float e = fmaf(m1, len, v0);
	float s2 = s * s;
	float g = fmaf(-len, m0, dv);          /* (v1 - v0) - len m0 */
	e = e - v1;
	e = e - g;
	float h = s2 * e;
	float r = fmaf(len, m0, h);
	r = fmaf(r, s, v0);
	r = fmaf(g, s2, r);
	return r - h;
}

float nm_keys_sample_j3d(const nm_key *keys, size_t count, nm_j3d_order order, float frame,
			 float rest)
{
	double v; /* a float frame and float times compare the same as doubles */
	if (outside(keys, count, frame, rest, &v))
		return (float)v;
	size_t i = j3d_segment(keys, count, frame);
	const nm_key *k0 = &keys[i], *k1 = &keys[i + 1];
	/* The search ends with keys[i].time <= frame < keys[i + 1].time even for times out
	 * of order; only a NaN time gives a segment of no positive length, where the game
	 * would divide by it: hold the first key instead, as nm_keys_sample does. */
	if (!(k1->time - k0->time > 0))
		return k0->value;
	return (order == NM_J3D_ORDER_S16 ? hermite_s16 : hermite_f32)(
		frame, k0->time, k0->value, k0->tan_out, k1->time, k1->value, k1->tan_in);
}
