/* Retro Studios LZSS, as used for Tropical Freeze GPU buffers. FORMATS.md 6.5 and 9.
 *
 * What the sources say, and what we decided where they are silent. Sources: Retro
 * Modding wiki "LZSS Compression" (wiki.axiodl.com); the wiki's C++ reference decoder
 * (PrimeWorldEditor lineage, found by its comments); PrimeDecomp/retrotool
 * lib/src/util/{lzss,compression}.rs (Metroid Prime Remastered, same engine family).
 *
 * - Header: byte 0 is the mode, bytes 1..3 "unused; always 0" (wiki). retrotool reads
 *   the four bytes as one little-endian u32 mode, so nonzero bytes 1..3 are an unknown
 *   mode there. We reject them too: a stray header must not be taken for LZSS (the
 *   Switch release's `0d 00 00 00` zlib header fails here as mode 13).
 * - Mode 0: the data follows as is. retrotool insists on exactly dst_len bytes; we need
 *   at least dst_len and ignore any padding after them.
 * - Literal: one whole unit (1, 2 or 4 bytes) in every mode; all three sources agree.
 * - Back-reference: count = (b0 >> 4) + (4 - mode) units, distance = (b0 & 15) << 8 | b1
 *   units, no +1; copied byte by byte, so it may overlap what it writes (run-length).
 *   retrotool accepts distance 0 (its output is zero-filled, so it copies zeros, or
 *   rather copies bytes onto themselves); the wiki decoder would read bytes not yet
 *   written. No sane encoder emits it, so we reject it as a format error.
 * - End: there is no end marker. Decoders stop when the output is full (retrotool: the
 *   loop runs while out < len; the wiki decoder while both buffers have room), so the
 *   unused low bits of the last flag byte mean nothing. Bytes left in the input after
 *   the output is full are ignored (retrotool does too; the wiki decoder would fail).
 * - dst_len not a multiple of the unit: no source covers it (retrotool fails, the wiki
 *   decoder overruns). We stop exactly at dst_len: the last literal or back-reference
 *   is cut short, and a cut literal needs only the bytes that fit to be present. Our
 *   compressor pads that final literal to a whole unit with zeros, so its streams stay
 *   well-formed for decoders that read whole units.
 * - Switch (waxedhyphen/pakpydkctf `decode_lzss_stream`, no other source): the same
 *   items, optionally with 3-byte references (count byte + 1 units, big-endian 16-bit
 *   distance in units), optionally read through the arithmetic-coded byte stream. We
 *   apply every rule above to them too. Such a stream inside a GPU chunk is followed by
 *   the next buffer, so "until the source ends" (nm_lzss_run's until_end) means: the
 *   end symbol of an arithmetic stream, or the last byte of a memory one.
 */
#include <stdlib.h>
#include <string.h>
#include "codec/lzss_retro.h"

#define HEADER_LEN 4
#define HASH_BITS 15 /* the most: fewer for small inputs (nm_lzss_compress) */
#define CHAIN_MAX 256 /* candidates tried per position: plenty for fixtures */

/* Count bias of short references: never shorter than 3 bytes (unit 1) or 4 bytes. */
static size_t short_bias(unsigned unit) { return unit == 1 ? 3 : unit == 2 ? 2 : 1; }

/* The next item byte, or -1 where the source ends (memory: no byte left; arithmetic:
 * the end symbol), or -2 for a broken arithmetic stream. */
static inline int next_byte(nm_lzss_src *s)
{
	if (!s->ar)
		return s->pos < s->len ? s->p[s->pos++] : -1;
	int b = nm_arith_next(s->ar);
	return b >= 0 ? b : b == NM_ARITH_END ? -1 : -2;
}

/* n item bytes into b; false if the source ends or breaks first. */
static bool next_bytes(nm_lzss_src *s, uint8_t *b, size_t n)
{
	if (!s->ar) {
		if (s->len - s->pos < n)
			return false;
		memcpy(b, s->p + s->pos, n);
		s->pos += n;
		return true;
	}
	for (size_t k = 0; k < n; k++) {
		int c = next_byte(s);
		if (c < 0)
			return false;
		b[k] = (uint8_t)c;
	}
	return true;
}

/* Up to n bytes of a cut literal's unit: taken if the source has them (an arithmetic
 * stream may instead end right there, which its end symbol shows). */
static void skip_padding(nm_lzss_src *s, size_t n)
{
	if (!s->ar) {
		if (s->len - s->pos >= n)
			s->pos += n;
		return;
	}
	for (size_t k = 0; k < n && nm_arith_next(s->ar) >= 0; k++)
		;
}

nm_status nm_lzss_run(nm_lzss_kind k, nm_lzss_src *s, uint8_t *dst, size_t dst_len,
		      bool until_end, size_t *out_len)
{
	size_t g = k.unit, out = 0;
	size_t bias = k.long_refs ? 1 : short_bias(k.unit), ref_len = k.long_refs ? 3 : 2;
	unsigned flags = 0, nbits = 0;
	nm_status st = NM_OK;
	*out_len = 0;
	if (g != 1 && g != 2 && g != 4)
		return NM_E_INVAL;
	while (until_end || out < dst_len) {
		if (nbits == 0) {
			int f = next_byte(s);
			if (f < 0) {
				/* A stream may end where a group would begin. */
				st = f == -1 && until_end ? NM_OK : NM_E_FORMAT;
				break;
			}
			flags = (unsigned)f;
			nbits = 8;
		}
		/* MSB first: bit 7 describes the first item of the group. */
		unsigned is_ref = (flags >> --nbits) & 1u;
		uint8_t b[4];
		int c = next_byte(s);
		if (c < 0) {
			/* ... or where an item would begin. */
			st = c == -1 && until_end ? NM_OK : NM_E_FORMAT;
			break;
		}
		if (out == dst_len) {
			st = NM_E_LIMIT; /* until_end: more items than dst_len holds */
			break;
		}
		b[0] = (uint8_t)c;
		size_t room = dst_len - out;
		if (!is_ref) {
			size_t n = g < room ? g : room;
			if (until_end && n < g) {
				st = NM_E_LIMIT;
				break;
			}
			/* A literal cut by dst_len needs only the bytes that fit... */
			if (!next_bytes(s, b + 1, n - 1)) {
				st = NM_E_FORMAT;
				break;
			}
			if (dst)
				memcpy(dst + out, b, n);
			out += n;
			/* ...but the rest of its unit, where it is there, is still the
			 * stream's: the next buffer begins after it. */
			if (n < g)
				skip_padding(s, g - n);
			continue;
		}
		if (!next_bytes(s, b + 1, ref_len - 1)) {
			st = NM_E_FORMAT;
			break;
		}
		size_t count, dist;
		if (k.long_refs) {
			count = ((size_t)b[0] + bias) * g;
			dist = ((size_t)b[1] << 8 | b[2]) * g;
		} else {
			count = ((size_t)(b[0] >> 4) + bias) * g;
			dist = (((size_t)(b[0] & 0x0F) << 8) | b[1]) * g;
		}
		if (dist == 0 || dist > out) {
			st = NM_E_FORMAT;
			break;
		}
		if (count > room) {
			if (until_end) {
				st = NM_E_LIMIT;
				break;
			}
			count = room;
		}
		/* Byte by byte on purpose: a distance shorter than the count repeats the
		 * bytes this very copy is writing. */
		if (dst)
			for (size_t i = 0; i < count; i++)
				dst[out + i] = dst[out - dist + i];
		out += count;
	}
	*out_len = out;
	return st;
}

nm_status nm_lzss_retro_decompress(const uint8_t *src, size_t src_len,
				   uint8_t *dst, size_t dst_len)
{
	if (!src || (!dst && dst_len))
		return NM_E_INVAL;
	if (src_len < HEADER_LEN || src[1] || src[2] || src[3] || src[0] > 3)
		return NM_E_FORMAT;
	int mode = src[0];
	if (mode == 0) {
		if (src_len - HEADER_LEN < dst_len)
			return NM_E_FORMAT;
		if (dst_len)
			memcpy(dst, src + HEADER_LEN, dst_len);
		return NM_OK;
	}
	nm_lzss_kind k = { 1u << (mode - 1), false };
	nm_lzss_src s = { src + HEADER_LEN, src_len - HEADER_LEN, 0, NULL };
	size_t got;
	return nm_lzss_run(k, &s, dst, dst_len, false, &got);
}

/* Greedy matcher over unit-aligned positions with hash chains. Only whole units take
 * part in matches; a trailing partial unit is always sent as a literal. */
struct matcher {
	const uint8_t *src;
	size_t full_len;  /* bytes in whole units */
	size_t g;
	size_t min_units, max_units, max_dist;
	size_t key_len;   /* bytes hashed = the shortest match, min_units * g (3 or 4) */
	unsigned hash_bits;
	size_t *head;     /* per hash: latest unit index + 1, 0 = none */
	size_t *prev;     /* per unit index: the previous unit index + 1 with that hash */
};

static size_t hash_at(const struct matcher *m, size_t pos)
{
	uint32_t v = 0;
	for (size_t k = 0; k < m->key_len; k++)
		v = v << 8 | m->src[pos + k];
	return (size_t)((v * 2654435761u) >> (32 - m->hash_bits));
}

static void matcher_insert(struct matcher *m, size_t unit)
{
	size_t pos = unit * m->g;
	if (pos + m->key_len > m->full_len)
		return;
	size_t h = hash_at(m, pos);
	m->prev[unit] = m->head[h];
	m->head[h] = unit + 1;
}

/* Longest match (in units) for the unit at index `unit`, 0 if below the minimum. */
static size_t matcher_find(const struct matcher *m, size_t unit, size_t *dist_units)
{
	size_t pos = unit * m->g;
	if (pos + m->key_len > m->full_len)
		return 0;
	size_t max_bytes = m->max_units * m->g;
	if (max_bytes > m->full_len - pos)
		max_bytes = m->full_len - pos;

	size_t best = 0;
	unsigned steps = 0;
	for (size_t c = m->head[hash_at(m, pos)]; c && steps < CHAIN_MAX;
	     c = m->prev[c - 1], steps++) {
		size_t cand = c - 1, d = unit - cand;
		if (d > m->max_dist)
			break; /* chains run from near to far */
		const uint8_t *a = m->src + pos, *b = m->src + cand * m->g;
		size_t n = 0;
		/* b may run into a: the decoder copies byte by byte, so an overlapping
		 * match reproduces exactly these bytes. */
		while (n < max_bytes && a[n] == b[n])
			n++;
		size_t units = n / m->g;
		if (units > best) {
			best = units;
			*dist_units = d;
			if (best == m->max_units)
				break;
		}
	}
	return best >= m->min_units ? best : 0;
}

struct emitter {
	uint8_t *buf;
	size_t len;
	size_t flag_pos;
	unsigned items;
};

static void emit_flag(struct emitter *e, int is_ref)
{
	if (e->items % 8 == 0) {
		e->flag_pos = e->len++;
		e->buf[e->flag_pos] = 0;
	}
	if (is_ref)
		e->buf[e->flag_pos] |= (uint8_t)(0x80u >> (e->items % 8));
	e->items++;
}

/* Shortest reference worth sending, in units: it must cover more bytes than it costs
 * (short references cannot count fewer anyway). */
static size_t min_match_units(nm_lzss_kind k)
{
	return k.long_refs ? (4 + k.unit - 1) / k.unit : short_bias(k.unit);
}

nm_status nm_lzss_compress(nm_lzss_kind k, const uint8_t *src, size_t src_len,
			   uint8_t **out, size_t *out_len)
{
	if (!out || !out_len || (k.unit != 1 && k.unit != 2 && k.unit != 4) ||
	    (!src && src_len))
		return NM_E_INVAL;
	*out = NULL;
	*out_len = 0;
	/* Keeps the worst-case size arithmetic below from overflowing. */
	if (src_len > SIZE_MAX / 4)
		return NM_E_NOMEM;

	size_t g = k.unit, bias = k.long_refs ? 1 : short_bias(g);
	size_t nunits = (src_len + g - 1) / g, nfull = src_len / g;
	/* Worst case is all literals; a reference never covers fewer bytes than it costs,
	 * so it can only make the stream shorter. */
	size_t cap = nunits * g + (nunits + 7) / 8 + 1;
	struct matcher m = {
		.src = src, .full_len = nfull * g, .g = g,
		.min_units = min_match_units(k),
		.max_units = (k.long_refs ? 255 : 15) + bias,
		.max_dist = k.long_refs ? 0xFFFFu : 0x0FFFu,
	};
	m.key_len = m.min_units * g;
	/* A head per unit at most (a power of two, 2^8 at least): a small buffer (a TXTR
	 * level, a vertex buffer re-encoded by apply) no longer zeroes and touches 256 KiB
	 * of heads, fresh pages on every call (a tenth of fuzz_txtr_struct's time). */
	m.hash_bits = 8;
	while (m.hash_bits < HASH_BITS && ((size_t)1 << m.hash_bits) < nfull)
		m.hash_bits++;
	struct emitter e = { .buf = malloc(cap), .len = 0 };
	m.head = calloc((size_t)1 << m.hash_bits, sizeof *m.head);
	m.prev = calloc(nfull ? nfull : 1, sizeof *m.prev);
	if (!e.buf || !m.head || !m.prev) {
		free(e.buf);
		free(m.head);
		free(m.prev);
		return NM_E_NOMEM;
	}

	size_t i = 0;
	while (i < nunits) {
		size_t d = 0, len = matcher_find(&m, i, &d);
		if (len) {
			emit_flag(&e, 1);
			if (k.long_refs) {
				e.buf[e.len++] = (uint8_t)(len - bias);
				e.buf[e.len++] = (uint8_t)(d >> 8);
			} else {
				e.buf[e.len++] = (uint8_t)((len - bias) << 4 | d >> 8);
			}
			e.buf[e.len++] = (uint8_t)(d & 0xFF);
			for (size_t j = 0; j < len; j++)
				matcher_insert(&m, i + j);
			i += len;
			continue;
		}
		size_t pos = i * g, n = src_len - pos < g ? src_len - pos : g;
		emit_flag(&e, 0);
		memcpy(e.buf + e.len, src + pos, n);
		memset(e.buf + e.len + n, 0, g - n);
		e.len += g;
		matcher_insert(&m, i);
		i++;
	}

	free(m.head);
	free(m.prev);
	*out = e.buf;
	*out_len = e.len;
	return NM_OK;
}
