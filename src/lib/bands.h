/* One job split into contiguous bands of items (rows of texels, blocks of a stream), run
 * on threads of their own: the first band on the caller's thread, each other band on a
 * new thread (on the caller's too when one cannot start). For one large production that
 * would otherwise leave the other CPUs idle (a 2048x2048 texture's decode and its PNG);
 * the result must not depend on the split, so a band writes only its own items. */
#ifndef NM_BANDS_H
#define NM_BANDS_H

#include "lib/status.h"

/* At most this many bands. */
#define NM_BANDS_MAX 8u

/* Make items [begin, end) of the job; its status. */
typedef nm_status (*nm_band_fn)(void *job, unsigned band, unsigned begin, unsigned end);

/* How many bands nm_bands_run makes of count items on at most threads threads, each band
 * at least min_items long (1 when threads < 2 or count < 2 * min_items). */
unsigned nm_bands_count(unsigned threads, unsigned count, unsigned min_items);

/* Band i of nbands over count items is [count * i / nbands, count * (i + 1) / nbands).
 * Runs them all and waits; the first failing band's status (in band order), else NM_OK. */
nm_status nm_bands_run(unsigned nbands, unsigned count, nm_band_fn fn, void *job);

#endif
