/* The palette and indices of a C4/C8/C14X2 texture being encoded (gx_internal.h).
 *
 * A texture's palette is kept when it already holds every colour of the image (an edit
 * that only moved or repainted texels with colours of the palette, or none at all), so
 * such an edit changes the indices alone and the bytes of an unchanged texture come
 * back as they were (when no two entries show the same colour: a texel takes the first). Otherwise a new palette: every texel is first rounded to the
 * nearest colour the TLUT format holds (as nm_gx_tlut_pack does); when the image has no
 * more such colours than the palette has entries, they are the palette (sorted, so the
 * result is the same for the same image) and nothing is lost beyond the TLUT's own
 * rounding; when it has more, libimagequant chooses the palette from their histogram
 * (so the work is per colour, not per texel) and each colour takes the nearest entry
 * as our decoder shows it, without dithering, which would make noise that a
 * minified, filtered texture does not need. */
#include <libimagequant.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gx.h"
#include "codec/gx_internal.h"
#include "lib/alloc.h"

/* What the work buffers and libimagequant's histogram take, in bytes a texel at most:
 * keys, their sorted copy, counts or map (4 each), histogram entries (8), and
 * libimagequant's own copy of the histogram (about 32 per colour). */
#define WORK_BYTES_PER_TEXEL 52

/* libimagequant's speed (1 best .. 10 fastest): fixed, so the palette is too. */
#define LIQ_SPEED 3

static uint32_t key_of(const uint8_t px[4])
{
	return (uint32_t)px[0] << 24 | (uint32_t)px[1] << 16 | (uint32_t)px[2] << 8 | px[3];
}

static void px_of(uint32_t key, uint8_t px[4])
{
	for (int c = 0; c < 4; c++)
		px[c] = (uint8_t)(key >> (24 - 8 * c));
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The position of key in the sorted keys[0..n), or -1. */
static long find(const uint32_t *keys, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo] == key ? (long)lo : -1;
}

static uint32_t decoded_key(unsigned v, unsigned pfmt)
{
	uint8_t px[4];
	nm_gx_tlut_entry(v, pfmt, px);
	return key_of(px);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Is each texel's colour one of the existing palette's first reach entries, decoded?
 * Then idx gets the first entry of its colour. pairs has room for reach entries. */
static bool keep_palette(const uint8_t *rgba, size_t n, const uint8_t *palette, size_t reach,
			 unsigned pfmt, uint64_t *pairs, uint16_t *idx)
{
	/* (colour, entry) sorted: the first pair of a colour has its lowest entry. */
	for (size_t i = 0; i < reach; i++)
		pairs[i] = (uint64_t)decoded_key((unsigned)palette[2 * i] << 8 | palette[2 * i + 1],
						 pfmt) << 32 | i;
	qsort(pairs, reach, sizeof *pairs, cmp_u64);
	for (size_t t = 0; t < n; t++) {
		uint64_t key = key_of(rgba + 4 * t);
		size_t lo = 0, hi = reach;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (pairs[mid] >> 32 < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == reach || pairs[lo] >> 32 != key)
			return false;
		idx[t] = (uint16_t)pairs[lo];
	}
	return true;
}

static void write_entry(uint8_t *palette, size_t i, const uint8_t px[4], unsigned pfmt)
{
	unsigned v = nm_gx_tlut_pack(px, pfmt);
	palette[2 * i] = (uint8_t)(v >> 8);
	palette[2 * i + 1] = (uint8_t)v;
}

static unsigned distance(const uint8_t a[4], const uint8_t b[4])
{
	unsigned d = 0;
	for (int c = 0; c < 4; c++)
		d += (unsigned)((a[c] - b[c]) * (a[c] - b[c]));
	return d;
}

/* libimagequant's palette of at most liq_cap (2..256) colours for the nu colours uniq
 * with their counts, its first cap of them written to palette; counts_map[u] then gets
 * the entry nearest colour u. */
static nm_status quantize(const uint32_t *uniq, uint32_t *counts_map, size_t nu,
			  liq_histogram_entry *hist_entries, unsigned liq_cap, size_t cap,
			  uint8_t *palette, unsigned pfmt)
{
	for (size_t u = 0; u < nu; u++) {
		uint8_t px[4];
		px_of(uniq[u], px);
		hist_entries[u].color = (liq_color){ px[0], px[1], px[2], px[3] };
		hist_entries[u].count = counts_map[u];
	}
	liq_attr *attr = liq_attr_create();
	if (!attr)
		return NM_E_NOMEM;
	liq_histogram *hist = liq_histogram_create(attr);
	liq_result *res = NULL;
	nm_status s = NM_E_NOMEM;
	if (hist && liq_set_max_colors(attr, (int)liq_cap) == LIQ_OK &&
	    liq_set_speed(attr, LIQ_SPEED) == LIQ_OK &&
	    liq_histogram_add_colors(hist, attr, hist_entries, (int)nu, 0) == LIQ_OK &&
	    liq_histogram_quantize(hist, attr, &res) == LIQ_OK) {
		const liq_palette *lp = liq_get_palette(res);
		memset(palette, 0, cap * 2);
		unsigned entries = lp->count < cap ? lp->count : (unsigned)cap;
		uint8_t shown[256][4];
		for (unsigned k = 0; k < entries; k++) {
			const liq_color *c = &lp->entries[k];
			uint8_t px[4] = { c->r, c->g, c->b, c->a };
			write_entry(palette, k, px, pfmt);
			nm_gx_tlut_entry((unsigned)palette[2 * k] << 8 | palette[2 * k + 1], pfmt,
					 shown[k]);
		}
		for (size_t u = 0; u < nu; u++) {
			uint8_t px[4];
			unsigned best = 0, best_d = ~0u;
			px_of(uniq[u], px);
			for (unsigned k = 0; k < entries; k++) {
				unsigned d = distance(px, shown[k]);
				if (d < best_d) {
					best_d = d;
					best = k;
				}
			}
			counts_map[u] = best;
		}
		s = NM_OK;
	}
	if (res)
		liq_result_destroy(res);
	if (hist)
		liq_histogram_destroy(hist);
	liq_attr_destroy(attr);
	return s;
}

/* A new palette of at most cap entries over the old one's first cap (the rest of those
 * zero; entries past cap, which this format cannot index, untouched). On an error the
 * palette is as it was. */
static nm_status new_palette(const uint8_t *rgba, size_t n, uint8_t *palette, unsigned pfmt,
			     size_t cap, uint32_t *work, uint16_t *idx)
{
	uint32_t *keys = work, *uniq = work + n, *counts = work + 2 * n;
	for (size_t t = 0; t < n; t++) {
		uint8_t px[4];
		nm_gx_tlut_entry(nm_gx_tlut_pack(rgba + 4 * t, pfmt), pfmt, px);
		keys[t] = key_of(px);
	}
	memcpy(uniq, keys, n * sizeof *keys);
	qsort(uniq, n, sizeof *uniq, cmp_u32);
	size_t nu = 0;
	for (size_t t = 0; t < n; t++) {
		if (nu && uniq[nu - 1] == uniq[t]) {
			counts[nu - 1]++;
			continue;
		}
		uniq[nu] = uniq[t];
		counts[nu++] = 1;
	}
	if (nu <= cap) {
		memset(palette, 0, cap * 2);
		for (size_t u = 0; u < nu; u++) {
			uint8_t px[4];
			px_of(uniq[u], px);
			write_entry(palette, u, px, pfmt);
			counts[u] = (uint32_t)u;
		}
	} else {
		/* libimagequant makes 2..256 colours; a one-entry palette keeps the
		 * first of two. */
		unsigned liq_cap = cap > 256 ? 256 : cap < 2 ? 2 : (unsigned)cap;
		nm_status s = quantize(uniq, counts, nu, (liq_histogram_entry *)(work + 3 * n),
				       liq_cap, cap, palette, pfmt);
		if (s != NM_OK)
			return s;
	}
	for (size_t t = 0; t < n; t++)
		idx[t] = (uint16_t)counts[find(uniq, nu, keys[t])];
	return NM_OK;
}

nm_status nm_gx_palette_indices(const nm_options *opt, const uint8_t *rgba, size_t n,
				uint8_t *palette, size_t count, unsigned pfmt,
				unsigned max_index, uint16_t *idx, bool *changed)
{
	size_t reach = count < (size_t)max_index + 1 ? count : (size_t)max_index + 1, bytes;
	uint64_t texels = n > reach ? n : reach;
	if (nm_alloc_check(opt, texels, WORK_BYTES_PER_TEXEL, &bytes) != NM_OK)
		return NM_E_LIMIT;
	/* keys, sorted colours, counts (u32 each) and histogram entries (two u32s); before
	 * them, the existing palette's (colour, entry) pairs. */
	uint32_t *work = malloc(texels * 5 * sizeof(uint32_t));
	if (!work)
		return NM_E_NOMEM;
	nm_status s = NM_OK;
	*changed = !keep_palette(rgba, n, palette, reach, pfmt, (uint64_t *)work, idx);
	if (*changed)
		s = new_palette(rgba, n, palette, pfmt, reach, work, idx);
	free(work);
	return s;
}
