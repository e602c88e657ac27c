/* The tests' one pseudo-random generator (xorshift32): the same bytes on every run and
 * machine, so a failing case can be replayed. */
#ifndef NM_TEST_PRNG_H
#define NM_TEST_PRNG_H

#include <stdint.h>

static inline uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

#endif
