/* Shared by the Nintendo LZ77 codecs: error wording for the decoders, a match finder and
 * a flag writer for the encoders. See lz_common.h. */
#include <stdlib.h>
#include "codec/lz_common.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

bool nm_lz_has_magic(const uint8_t *head, size_t len, const char magic[4])
{
	return head && len >= 4 && memcmp(head, magic, 4) == 0;
}

nm_status nm_lz_check_magic(const uint8_t *src, size_t len, const char magic[4],
			    size_t hdr_len, const char *name, const char *codec, nm_error *err)
{
	if (!nm_lz_has_magic(src, len, magic) || len < hdr_len)
		return nm_lz_fail_header(err, name, codec, src, len, hdr_len);
	return NM_OK;
}

nm_status nm_lz_check_magic_size(const uint8_t *src, size_t len, const char magic[4],
				 size_t hdr_len, const char *name, const char *codec,
				 uint64_t *size, nm_error *err)
{
	nm_status st = nm_lz_check_magic(src, len, magic, hdr_len, name, codec, err);
	if (st == NM_OK)
		*size = nm_be32(src + 4);
	return st;
}

nm_status nm_lz_begin(nm_status header_st, const uint64_t *announced, const uint8_t *src,
		      const uint8_t *dst, size_t dst_len, const char *name, const char *codec,
		      nm_error *err)
{
	if (header_st != NM_OK)
		return header_st;
	if (!src || (!dst && dst_len))
		return nm_fail(err, NM_E_INVAL, name, codec, NM_NO_OFFSET,
			       "no %s buffer to decode %s", src ? "output" : "input",
			       src ? "into" : "from");
	if (dst_len > *announced)
		return nm_fail(err, NM_E_INVAL, name, codec, NM_NO_OFFSET,
			       "asked for %zu bytes of output, the header announces %llu",
			       dst_len, (unsigned long long)*announced);
	return NM_OK;
}

nm_status nm_lz_fail_short(nm_error *err, size_t *done, const char *name, const char *codec,
			   uint64_t off, const char *what, size_t out, size_t dst_len)
{
	if (done)
		*done = out;
	return nm_fail(err, NM_E_FORMAT, name, codec, off,
		       "the stream ends too early for %s (output byte 0x%zx of 0x%zx)", what, out,
		       dst_len);
}

nm_status nm_lz_fail_before_start(nm_error *err, size_t *done, const char *name,
				  const char *codec, uint64_t off, size_t dist, size_t out)
{
	if (done)
		*done = out;
	return nm_fail(err, NM_E_FORMAT, name, codec, off,
		       "back-reference %zu bytes back at output byte 0x%zx reaches before the "
		       "start of the output", dist, out);
}

nm_status nm_lz_fail_header(nm_error *err, const char *name, const char *codec,
			    const uint8_t *src, size_t len, size_t need)
{
	if (len < need && (!src || len < 4))
		return nm_fail(err, NM_E_FORMAT, name, NULL, 0,
			       "too short for a %s header (%zu bytes, needs %zu)", codec, len, need);
	if (len < need)
		return nm_fail(err, NM_E_FORMAT, name, NULL, 0,
			       "too short for a %s header (%zu bytes, needs %zu; starts with "
			       "%02x %02x %02x %02x)", codec, len, need, src[0], src[1], src[2],
			       src[3]);
	return nm_fail(err, NM_E_FORMAT, name, NULL, 0,
		       "not a %s stream (starts with %02x %02x %02x %02x)", codec, src[0], src[1],
		       src[2], src[3]);
}

/* ---- match finder ------------------------------------------------------------------- */

#define HASH_BITS 15
/* Chains are kept for twice the window, so a slot is never reused while a position
 * within max_dist can still reach it. */
#define SLOTS (2 * NM_LZ_WINDOW)
/* Candidates tried per position. 256 finds what Nintendo's encoders find on the corpus
 * (scripts/bench's table) at several MB/s. */
#define CHAIN_MAX 256
#define GOOD_LEN 32

struct nm_lz_matcher {
	const uint8_t *src;
	size_t len, max_dist, min_len, max_len;
	size_t head[1u << HASH_BITS]; /* per hash: latest position + 1, 0 = none */
	size_t prev[SLOTS];           /* per position: the one before it with its hash, + 1 */
};

static size_t hash3(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
	return (size_t)((v * 2654435761u) >> (32 - HASH_BITS));
}

nm_lz_matcher *nm_lz_matcher_new(const uint8_t *src, size_t len, size_t max_dist,
				 size_t min_len, size_t max_len)
{
	if (max_dist > NM_LZ_WINDOW || min_len < 3 || max_len < min_len)
		return NULL;
	nm_lz_matcher *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->src = src;
	m->len = len;
	m->max_dist = max_dist;
	m->min_len = min_len;
	m->max_len = max_len;
	return m;
}

void nm_lz_matcher_free(nm_lz_matcher *m) { free(m); }

/* How many of a[0..room) equal b[0..room), 8 bytes at a time. b may run into a: the
 * decoder copies byte by byte, so an overlapping match gives back exactly these bytes,
 * and comparing them as they are in src says the same. */
static size_t common(const uint8_t *a, const uint8_t *b, size_t room)
{
	size_t n = 0;
	while (n + 8 <= room) {
		uint64_t x, y;
		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		if (x != y) {
			uint64_t d = x ^ y;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return n + (size_t)__builtin_ctzll(d) / 8;
#else
			return n + (size_t)__builtin_clzll(d) / 8;
#endif
		}
		n += 8;
	}
	while (n < room && a[n] == b[n])
		n++;
	return n;
}

/* The longest match at pos longer than best (whose distance *dist already holds), or
 * best. */
static size_t longest_past(const nm_lz_matcher *m, size_t pos, size_t best, size_t *dist)
{
	if (pos >= m->len || m->len - pos < m->min_len)
		return 0;
	size_t room = m->len - pos < m->max_len ? m->len - pos : m->max_len;
	if (best >= room)
		return room;
	const uint8_t *a = m->src + pos;
	/* A match already GOOD_LEN long is searched less (zlib's good_length): what a
	 * longer one saves is little beside the time the chain takes on repetitive data. */
	unsigned steps = 0, max_steps = best >= GOOD_LEN ? CHAIN_MAX / 8 : CHAIN_MAX;
	for (size_t c = m->head[hash3(a)]; c && steps < max_steps; c = m->prev[(c - 1) % SLOTS],
	     steps++) {
		size_t cand = c - 1, d = pos - cand;
		if (d > m->max_dist)
			break; /* chains run from near to far */
		const uint8_t *b = m->src + cand;
		/* Only a candidate that agrees one byte past the best so far can beat it. */
		if (b[best] != a[best])
			continue;
		size_t n = common(a, b, room);
		if (n > best) {
			best = n;
			*dist = d;
			if (best == room)
				break;
		}
	}
	return best;
}

size_t nm_lz_longest(const nm_lz_matcher *m, size_t pos, size_t *dist)
{
	size_t best = longest_past(m, pos, 0, dist);
	return best >= m->min_len ? best : 0;
}

void nm_lz_add(nm_lz_matcher *m, size_t pos, size_t n)
{
	for (size_t p = pos; p < pos + n && p + 3 <= m->len; p++) {
		size_t h = hash3(m->src + p);
		m->prev[p % SLOTS] = m->head[h];
		m->head[h] = p + 1;
	}
}

/* ---- optimal parse ------------------------------------------------------------------ */

/* Lengths tried per position, beyond which only the longest is: the costs of every
 * format here are flat past a few hundred bytes (LZ11's 4-byte form), so cutting a
 * very long match gains nothing a shorter one would not. */
#define CUT_MAX 0x112

nm_status nm_lz_parse(const uint8_t *src, size_t len, const nm_lz_costs *c,
		      const nm_options *opt, nm_lz_token **tokens, size_t *n)
{
	*tokens = NULL;
	*n = 0;
	nm_error err;
	/* The largest first: a refusal comes before anything is allocated. */
	uint64_t *cost = nm_alloc(opt, (uint64_t)len + 1, sizeof *cost, &err, "lz", NULL,
				  NM_NO_OFFSET);
	if (!cost)
		return err.code;
	uint32_t *run = nm_alloc(opt, (uint64_t)len + 1, sizeof *run, &err, "lz", NULL,
				 NM_NO_OFFSET);
	uint16_t *back = run ? nm_alloc(opt, (uint64_t)len + 1, sizeof *back, &err, "lz", NULL,
					NM_NO_OFFSET) : NULL;
	nm_lz_matcher *m = back ? nm_lz_matcher_new(src, len, c->max_dist, c->min_len,
						    c->max_len) : NULL;
	if (!m) {
		nm_status s = back ? NM_E_NOMEM : err.code;
		free(cost);
		free(run);
		free(back);
		return s;
	}
	/* Every position's longest match, found among every position before it. Inside a
	 * match longer than CUT_MAX (a long run), the positions it covers but its last
	 * CUT_MAX take its rest, the same distance back, without a search: LZ11 matches
	 * 64 KiB long would otherwise cost 64 KiB of comparing at every byte. */
	for (size_t i = 0, d = 0, k = 0; i < len;) {
		/* The match one byte back, one byte shorter, is a match here: only a longer
		 * one is searched for. */
		k = k > c->min_len ? longest_past(m, i, k - 1, &d) : longest_past(m, i, 0, &d);
		if (k < c->min_len)
			k = 0;
		if (c->extra) {
			size_t ed = 0, ek = c->extra(src, len, i, &ed);
			if (ek >= c->min_len && ek > k) {
				k = ek;
				d = ed;
			}
		}
		size_t step = k > CUT_MAX ? k - CUT_MAX : 1;
		for (size_t j = 0; j < step; j++) {
			run[i + j] = (uint32_t)(k - j);
			back[i + j] = (uint16_t)(k ? d - 1 : 0);
		}
		nm_lz_add(m, i, step);
		i += step;
		k = k ? k - (step - 1) : 0;
	}
	nm_lz_matcher_free(m);
	/* From the end: the cheapest way to finish from i, and its first token's length
	 * (kept in run[i]: 0 a literal). Ties go to the longer token. */
	unsigned bits[CUT_MAX + 1];
	for (size_t k = c->min_len; k <= CUT_MAX; k++)
		bits[k] = c->match(k);
	cost[len] = 0;
	size_t count = 0;
	for (size_t i = len; i-- > 0;) {
		uint64_t best = c->literal + cost[i + 1];
		uint32_t take = 0;
		size_t longest = run[i];
		for (size_t k = c->min_len; k <= longest; k = k < CUT_MAX || k == longest ? k + 1
											: longest) {
			uint64_t v = (k <= CUT_MAX ? bits[k] : c->match(k)) + cost[i + k];
			if (v <= best) {
				best = v;
				take = (uint32_t)k;
			}
		}
		cost[i] = best;
		run[i] = take;
	}
	free(cost);
	for (size_t i = 0; i < len; i += run[i] ? run[i] : 1)
		count++;
	nm_lz_token *t = nm_alloc(opt, count ? count : 1, sizeof *t, &err, "lz", NULL,
				  NM_NO_OFFSET);
	if (!t) {
		free(run);
		free(back);
		return err.code;
	}
	size_t k = 0;
	for (size_t i = 0; i < len; i += run[i] ? run[i] : 1)
		t[k++] = (nm_lz_token){ run[i], run[i] ? (uint32_t)back[i] + 1 : 0 };
	free(run);
	free(back);
	*tokens = t;
	*n = count;
	return NM_OK;
}

/* ---- flag writer -------------------------------------------------------------------- */

void nm_lz_flag(nm_lz_flags *f, bool bit)
{
	unsigned k = f->n++ % 8;
	if (k == 0) {
		f->at = f->out->len;
		nm_out_write(f->out, "", 1);
	}
	/* After a failed write the output is dropped as a whole (nm_out_status). */
	if (bit && !f->out->failed)
		f->out->data[f->at] |= (uint8_t)(f->lsb_first ? 1u << k : 0x80u >> k);
}
