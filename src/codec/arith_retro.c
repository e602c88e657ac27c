/* Adaptive arithmetic coding of bytes for Tropical Freeze GPU buffers (arith_retro.h).
 *
 * The coder keeps low/high/code in 16 bits. Symbols are kept in ranks sorted by
 * decreasing frequency (rank 1 the most frequent), cum[r] being the total frequency of
 * the ranks after r, so cum[0] is the total and a symbol of rank r owns
 * [cum[r], cum[r-1]) of it. Rank 257 is the end symbol, which never moves: only a
 * decoded byte's rank changes, and only towards rank 1. */
#include <stdlib.h>
#include <string.h>
#include "codec/arith_retro.h"

#define TOP 0xFFFFu
#define HALF 0x8000u
#define FIRST_QTR 0x4000u
#define THIRD_QTR 0xC000u
#define MAX_TOTAL 0x3FFFu
#define END_RANK NM_ARITH_SYMBOLS

static void recount(nm_arith_model *m)
{
	m->cum[NM_ARITH_SYMBOLS] = 0;
	for (int r = NM_ARITH_SYMBOLS; r > 0; r--)
		m->cum[r - 1] = (uint16_t)(m->cum[r] + m->freq[r]);
}

static void model_init(nm_arith_model *m)
{
	m->freq[0] = 0;
	for (int r = 1; r <= NM_ARITH_SYMBOLS; r++)
		m->freq[r] = 1;
	for (int b = 0; b < 256; b++) {
		m->byte_at[b + 1] = (uint8_t)b;
		m->rank_of[b] = (uint16_t)(b + 1);
	}
	m->byte_at[0] = m->byte_at[END_RANK] = 0;
	recount(m);
}

/* Count one more of the symbol at rank r: halve the counts when the total is at its
 * cap, move the symbol ahead of those with its frequency, add one. */
static void model_update(nm_arith_model *m, int r)
{
	if (m->cum[0] >= MAX_TOTAL) {
		for (int k = 1; k <= NM_ARITH_SYMBOLS; k++)
			m->freq[k] = (uint16_t)((m->freq[k] + 1) / 2);
		recount(m);
	}
	int to = r;
	while (m->freq[to] == m->freq[to - 1]) /* freq[0] = 0 stops it at rank 1 */
		to--;
	if (to < r) {
		uint8_t a = m->byte_at[to], b = m->byte_at[r];
		m->byte_at[to] = b;
		m->byte_at[r] = a;
		m->rank_of[b] = (uint16_t)to;
		m->rank_of[a] = (uint16_t)r;
	}
	m->freq[to]++;
	for (int k = 0; k < to; k++)
		m->cum[k]++;
}

/* --- decoder ---------------------------------------------------------------------- */

/* The rank whose share of the total holds target: a walk down the ranks, a step per
 * rank above the symbol's. Fuzz builds leave it and model_update without coverage hooks
 * (tests/fuzz/coverage-ignore.txt), which names functions: so it is never inlined into
 * nm_arith_next, whose branches keep theirs. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int rank_owning(const nm_arith_model *m, uint32_t target)
{
	int r = 1;
	while (r < END_RANK && m->cum[r] > target)
		r++;
	return r;
}

static unsigned next_bit(nm_arith_decoder *d)
{
	uint64_t i = d->bits++;
	if (i >= (uint64_t)d->len * 8) {
		/* A real stream is padded so that this never happens. */
		d->status = NM_E_FORMAT;
		return 0;
	}
	return (d->src[i >> 3] >> (i & 7)) & 1u;
}

void nm_arith_decoder_init(nm_arith_decoder *d, const uint8_t *src, size_t len)
{
	memset(d, 0, sizeof *d);
	d->src = src;
	d->len = len;
	d->high = TOP;
	d->status = NM_OK;
	model_init(&d->model);
	for (int k = 0; k < 16; k++)
		d->code = d->code << 1 | next_bit(d);
}

int nm_arith_next(nm_arith_decoder *d)
{
	if (d->ended)
		return NM_ARITH_END;
	if (d->status != NM_OK)
		return NM_ARITH_ERROR;
	nm_arith_model *m = &d->model;
	if (d->code < d->low || d->code > d->high) {
		d->status = NM_E_FORMAT; /* only a corrupt state gets here */
		return NM_ARITH_ERROR;
	}
	uint32_t range = d->high - d->low + 1;
	int r = rank_owning(m, ((d->code - d->low + 1) * m->cum[0] - 1) / range);
	d->high = d->low + range * m->cum[r - 1] / m->cum[0] - 1;
	d->low = d->low + range * m->cum[r] / m->cum[0];
	for (;;) {
		if (d->high < HALF) {
			/* nothing to take away */
		} else if (d->low >= HALF) {
			d->code -= HALF;
			d->low -= HALF;
			d->high -= HALF;
		} else if (d->low >= FIRST_QTR && d->high < THIRD_QTR) {
			d->code -= FIRST_QTR;
			d->low -= FIRST_QTR;
			d->high -= FIRST_QTR;
		} else {
			break;
		}
		d->low <<= 1;
		d->high = d->high << 1 | 1;
		d->code = (d->code << 1 | next_bit(d)) & TOP;
	}
	if (d->status != NM_OK)
		return NM_ARITH_ERROR;
	if (r == END_RANK) {
		d->ended = true;
		return NM_ARITH_END;
	}
	int byte = m->byte_at[r];
	model_update(m, r);
	return byte;
}

size_t nm_arith_stream_len(const nm_arith_decoder *d)
{
	return (size_t)((d->bits + 2 + 7) / 8);
}

/* --- encoder ---------------------------------------------------------------------- */

struct bit_writer {
	uint8_t *buf;
	size_t cap, bits;
	unsigned pending; /* opposite bits owed after the next bit (middle-half zooms) */
	bool failed;
};

static void put_bit(struct bit_writer *w, unsigned bit)
{
	if (w->bits / 8 >= w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		uint8_t *p = realloc(w->buf, cap);
		if (!p) {
			w->failed = true;
			return;
		}
		memset(p + w->cap, 0, cap - w->cap);
		w->buf = p;
		w->cap = cap;
	}
	if (bit)
		w->buf[w->bits / 8] |= (uint8_t)(1u << (w->bits % 8));
	w->bits++;
}

static void put_bits_with_pending(struct bit_writer *w, unsigned bit)
{
	put_bit(w, bit);
	for (; w->pending; w->pending--)
		put_bit(w, !bit);
}

struct encoder {
	uint32_t low, high;
	nm_arith_model model;
	struct bit_writer w;
};

static void encode_rank(struct encoder *e, int r)
{
	nm_arith_model *m = &e->model;
	uint32_t range = e->high - e->low + 1;
	e->high = e->low + range * m->cum[r - 1] / m->cum[0] - 1;
	e->low = e->low + range * m->cum[r] / m->cum[0];
	for (;;) {
		if (e->high < HALF) {
			put_bits_with_pending(&e->w, 0);
		} else if (e->low >= HALF) {
			put_bits_with_pending(&e->w, 1);
			e->low -= HALF;
			e->high -= HALF;
		} else if (e->low >= FIRST_QTR && e->high < THIRD_QTR) {
			e->w.pending++;
			e->low -= FIRST_QTR;
			e->high -= FIRST_QTR;
		} else {
			break;
		}
		e->low <<= 1;
		e->high = e->high << 1 | 1;
	}
}

nm_status nm_arith_encode(const uint8_t *src, size_t len, uint8_t **out, size_t *out_len)
{
	if (!out || !out_len || (!src && len))
		return NM_E_INVAL;
	struct encoder e = { .low = 0, .high = TOP };
	model_init(&e.model);
	for (size_t i = 0; i < len && !e.w.failed; i++) {
		int r = e.model.rank_of[src[i]];
		encode_rank(&e, r);
		model_update(&e.model, r);
	}
	encode_rank(&e, END_RANK);
	/* Two bits pick a point inside the final interval; 16 zero bits keep the
	 * decoder's read-ahead inside the stream. */
	e.w.pending++;
	put_bits_with_pending(&e.w, e.low >= FIRST_QTR);
	for (int k = 0; k < 16; k++)
		put_bit(&e.w, 0);
	if (e.w.failed) {
		free(e.w.buf);
		return NM_E_NOMEM;
	}
	*out = e.w.buf;
	*out_len = (e.w.bits + 7) / 8;
	return NM_OK;
}
