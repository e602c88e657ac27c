/* Keyframe curves as the games sample them: the one piece of animation maths that J3D
 * (BCK, BTK, BRK, BPK, BLK) and Grezzo (CSAB, CMAB) share (FORMATS.md 10.1, 10.11, 10.12).
 * A track is an array of keys in stored order; every sampler clamps outside the first and
 * last key (no extrapolation, no wrap) and never allocates. */
#ifndef NM_KEYFRAMES_H
#define NM_KEYFRAMES_H

#include <float.h>
#include <math.h>
#include <stddef.h>

/* One key. tan_in/tan_out are slopes per frame (J3D's tangent mode 0 stores one tangent:
 * the reader puts it in both). Unused by LINEAR and STEP. */
typedef struct {
	float time;
	float value;
	float tan_in;
	float tan_out;
} nm_key;

typedef enum {
	NM_INTERP_HERMITE, /* cubic Hermite, tangents x segment length (J3DGetKeyFrameInterpolation) */
	NM_INTERP_LINEAR,  /* straight line between keys (Grezzo type 1) */
	NM_INTERP_STEP     /* the last key at or before the frame (Grezzo type 3) */
} nm_interp;

/* The value at `frame` (a float: the game's frame counter is one). count 0 gives `rest`
 * (what the game uses for an empty track: scale 1, rotation 0, ...); count 1 the one
 * value, whatever its time. The segment is the one starting at the last key whose time
 * is <= frame, as the game's bisection picks it, so two keys at the same time make a step. */
double nm_keys_sample(const nm_key *keys, size_t count, nm_interp interp, double frame,
		      double rest);

/* J3D's own evaluation of a keyed track (J3DGetKeyFrameInterpolation and the two
 * Hermite routines it calls), in single precision with fused multiply-adds in the
 * game's order of operations, and its bisection. nm_keys_sample gives the same curve in
 * double precision; this one gives the game's float, which matters where the game
 * truncates it (a rotation to an integer s16 angle, a colour to a byte): there, a value
 * within an ulp of an integer truncates as the game's does.
 * NM_J3D_ORDER_S16 is the rotation sampler's order (J3DHermiteInterpolationS, used for
 * the s16 rotation arrays), NM_J3D_ORDER_F32 JMAHermiteInterpolation's (f32 arrays and
 * the s16 colour arrays). count 0 gives rest, count 1 the one value. A segment with a
 * NaN time holds its first key (the game would divide by NaN). */
typedef enum { NM_J3D_ORDER_F32, NM_J3D_ORDER_S16 } nm_j3d_order;
float nm_keys_sample_j3d(const nm_key *keys, size_t count, nm_j3d_order order, float frame,
			 float rest);

/* A computed value as a float: past float's range, +-infinity (C leaves that conversion
 * undefined; keys near FLT_MAX make sums and tangent products that large). A writer
 * that needs a finite value checks isfinite after. */
static inline float nm_float_sat(double v)
{
	return v > FLT_MAX ? INFINITY : v < -FLT_MAX ? -INFINITY : (float)v;
}

/* Per-frame ("full") tables (BCA, BTP, BVA, BLA): values[int(frame)] for 0 <= frame <
 * count, values[0] before, values[count - 1] after (truncated, not rounded). */
size_t nm_full_index(size_t count, double frame);

#endif
