/* The tests' one pseudo-random generator (xorshift32): the same bytes on every run and
 * machine, so a failing case can be replayed. */
#ifndef NM_TEST_PRNG_H
#define NM_TEST_PRNG_H

#include <stdint.h>
#include <stdlib.h>

static inline uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* n bytes of it from seed, malloc'd (at least 1 byte, so never NULL for n == 0 when
 * memory is there); NULL when out of memory. */
static inline uint8_t *prng_bytes(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n ? n : 1);
	for (size_t i = 0; p && i < n; i++)
		p[i] = (uint8_t)(xorshift(&seed) >> 24);
	return p;
}

#endif
