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

double nm_keys_sample(const nm_key *keys, size_t count, nm_interp interp, double frame,
		      double rest)
{
	if (count == 0)
		return rest;
	if (count == 1 || frame < keys[0].time)
		return keys[0].value;
	if (frame >= keys[count - 1].time)
		return keys[count - 1].value;
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
