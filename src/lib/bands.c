/* Bands of a job on threads (bands.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/bands.h"

unsigned nm_bands_count(unsigned threads, unsigned count, unsigned min_items)
{
	if (min_items == 0)
		min_items = 1;
	unsigned k = threads < NM_BANDS_MAX ? threads : NM_BANDS_MAX;
	if (k > count / min_items)
		k = count / min_items;
	return k ? k : 1;
}

struct band {
	nm_band_fn fn;
	void *job;
	unsigned index, begin, end;
	nm_status s;
	pthread_t thread;
	bool started;
};

static void *run_band(void *arg)
{
	struct band *b = arg;
	b->s = b->fn(b->job, b->index, b->begin, b->end);
	return NULL;
}

static void *band_thread(void *arg)
{
	/* Not a request thread: mount.sh counts those by their name. */
	pthread_setname_np(pthread_self(), "nm-split");
	return run_band(arg);
}

nm_status nm_bands_run(unsigned nbands, unsigned count, nm_band_fn fn, void *job)
{
	if (nbands < 1)
		nbands = 1;
	if (nbands > NM_BANDS_MAX)
		nbands = NM_BANDS_MAX;
	struct band b[NM_BANDS_MAX];
	for (unsigned i = 0; i < nbands; i++) {
		b[i] = (struct band){ .fn = fn, .job = job, .index = i,
				      .begin = (unsigned)((uint64_t)count * i / nbands),
				      .end = (unsigned)((uint64_t)count * (i + 1) / nbands) };
		b[i].started = i > 0 && pthread_create(&b[i].thread, NULL, band_thread, &b[i]) == 0;
	}
	run_band(&b[0]);
	nm_status s = NM_OK;
	for (unsigned i = 0; i < nbands; i++) {
		if (i > 0 && b[i].started)
			pthread_join(b[i].thread, NULL);
		else if (i > 0)
			run_band(&b[i]);
		if (s == NM_OK)
			s = b[i].s;
	}
	return s;
}
