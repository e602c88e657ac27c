/* Shared by the Nintendo LZ77 codecs: error wording for the decoders, a match finder and
 * a flag writer for the encoders. See lz_common.h. */
#include <stdlib.h>
#include "codec/lz_common.h"
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

nm_status nm_lz_fail_short(nm_error *err, const char *name, const char *codec, uint64_t off,
			   const char *what, size_t out, size_t dst_len)
{
	return nm_fail(err, NM_E_FORMAT, name, codec, off,
		       "the stream ends too early for %s (output byte 0x%zx of 0x%zx)", what, out,
		       dst_len);
}

nm_status nm_lz_fail_before_start(nm_error *err, const char *name, const char *codec,
				  uint64_t off, size_t dist, size_t out)
{
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
#define CHAIN_MAX 128 /* candidates tried per position: plenty for fixtures */

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

size_t nm_lz_longest(const nm_lz_matcher *m, size_t pos, size_t *dist)
{
	if (pos >= m->len || m->len - pos < m->min_len)
		return 0;
	size_t room = m->len - pos < m->max_len ? m->len - pos : m->max_len, best = 0;
	const uint8_t *a = m->src + pos;
	unsigned steps = 0;
	for (size_t c = m->head[hash3(a)]; c && steps < CHAIN_MAX; c = m->prev[(c - 1) % SLOTS],
	     steps++) {
		size_t cand = c - 1, d = pos - cand;
		if (d > m->max_dist)
			break; /* chains run from near to far */
		const uint8_t *b = m->src + cand;
		size_t n = 0;
		/* b may run into a: the decoder copies byte by byte, so an overlapping match
		 * gives back exactly these bytes. */
		while (n < room && a[n] == b[n])
			n++;
		if (n > best) {
			best = n;
			*dist = d;
			if (best == room)
				break;
		}
	}
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
