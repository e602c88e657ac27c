/* Retro Studios LZSS, as used for Tropical Freeze (Wii U) GPU buffers. FORMATS.md 6.5.
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
 */
#include <stdlib.h>
#include <string.h>
#include "codec/lzss_retro.h"

#define HEADER_LEN 4
#define MAX_DIST_UNITS 4095u
#define HASH_BITS 15
#define CHAIN_MAX 256 /* candidates tried per position: plenty for fixtures */

static size_t unit_size(int mode) { return (size_t)1 << (mode - 1); }

/* Count bias: a back-reference is never shorter than 3 bytes (mode 1) or 4 bytes. */
static size_t min_units(int mode) { return (size_t)(4 - mode); }

nm_status nm_lzss_retro_decompress(const uint8_t *src, size_t src_len,
				   uint8_t *dst, size_t dst_len)
{
	if (!src || (!dst && dst_len))
		return NM_E_INVAL;
	if (src_len < HEADER_LEN || src[1] || src[2] || src[3] || src[0] > 3)
		return NM_E_FORMAT;

	int mode = src[0];
	size_t in = HEADER_LEN;
	if (mode == 0) {
		if (src_len - in < dst_len)
			return NM_E_FORMAT;
		if (dst_len)
			memcpy(dst, src + in, dst_len);
		return NM_OK;
	}

	size_t g = unit_size(mode), bias = min_units(mode);
	size_t out = 0;
	unsigned flags = 0, nbits = 0;
	while (out < dst_len) {
		if (nbits == 0) {
			if (in >= src_len)
				return NM_E_FORMAT;
			flags = src[in++];
			nbits = 8;
		}
		/* MSB first: bit 7 describes the first item of the group. */
		unsigned is_ref = (flags >> --nbits) & 1u;
		size_t room = dst_len - out;
		if (!is_ref) {
			size_t n = g < room ? g : room;
			if (src_len - in < n)
				return NM_E_FORMAT;
			memcpy(dst + out, src + in, n);
			in += n;
			out += n;
			continue;
		}
		if (src_len - in < 2)
			return NM_E_FORMAT;
		unsigned b0 = src[in], b1 = src[in + 1];
		in += 2;
		size_t count = ((b0 >> 4) + bias) * g;
		size_t dist = (((size_t)(b0 & 0x0F) << 8) | b1) * g;
		if (dist == 0 || dist > out)
			return NM_E_FORMAT;
		if (count > room)
			count = room;
		/* Byte by byte on purpose: a distance shorter than the count repeats the
		 * bytes this very copy is writing. */
		for (size_t k = 0; k < count; k++)
			dst[out + k] = dst[out - dist + k];
		out += count;
	}
	return NM_OK;
}

/* Greedy matcher over unit-aligned positions with hash chains. Only whole units take
 * part in matches; a trailing partial unit is always sent as a literal. */
struct matcher {
	const uint8_t *src;
	size_t full_len;  /* bytes in whole units */
	size_t g;
	size_t min_units, max_units;
	size_t key_len;   /* bytes hashed = the shortest match, min_units * g (3 or 4) */
	size_t *head;     /* per hash: latest unit index + 1, 0 = none */
	size_t *prev;     /* per unit index: the previous unit index + 1 with that hash */
};

static size_t hash_at(const struct matcher *m, size_t pos)
{
	uint32_t v = 0;
	for (size_t k = 0; k < m->key_len; k++)
		v = v << 8 | m->src[pos + k];
	return (size_t)((v * 2654435761u) >> (32 - HASH_BITS));
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
		if (d > MAX_DIST_UNITS)
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

nm_status nm_lzss_retro_compress(int mode, const uint8_t *src, size_t src_len,
				 uint8_t **out, size_t *out_len)
{
	if (!out || !out_len || mode < 0 || mode > 3 || (!src && src_len))
		return NM_E_INVAL;
	*out = NULL;
	*out_len = 0;
	/* Keeps the worst-case size arithmetic below from overflowing. */
	if (src_len > SIZE_MAX / 4)
		return NM_E_NOMEM;

	if (mode == 0) {
		uint8_t *buf = malloc(HEADER_LEN + src_len);
		if (!buf)
			return NM_E_NOMEM;
		memset(buf, 0, HEADER_LEN);
		if (src_len)
			memcpy(buf + HEADER_LEN, src, src_len);
		*out = buf;
		*out_len = HEADER_LEN + src_len;
		return NM_OK;
	}

	size_t g = unit_size(mode);
	size_t nunits = (src_len + g - 1) / g, nfull = src_len / g;
	/* Worst case is all literals; a back-reference (2 bytes) never covers fewer
	 * than 3 bytes, so it can only make the stream shorter. */
	size_t cap = HEADER_LEN + nunits * g + (nunits + 7) / 8;
	struct matcher m = {
		.src = src, .full_len = nfull * g, .g = g,
		.min_units = min_units(mode), .max_units = 15 + min_units(mode),
		.key_len = min_units(mode) * g,
	};
	struct emitter e = { .buf = malloc(cap), .len = HEADER_LEN };
	m.head = calloc((size_t)1 << HASH_BITS, sizeof *m.head);
	m.prev = calloc(nfull ? nfull : 1, sizeof *m.prev);
	if (!e.buf || !m.head || !m.prev) {
		free(e.buf);
		free(m.head);
		free(m.prev);
		return NM_E_NOMEM;
	}
	e.buf[0] = (uint8_t)mode;
	e.buf[1] = e.buf[2] = e.buf[3] = 0;

	size_t i = 0;
	while (i < nunits) {
		size_t d = 0, len = matcher_find(&m, i, &d);
		if (len) {
			emit_flag(&e, 1);
			e.buf[e.len++] = (uint8_t)((len - m.min_units) << 4 | d >> 8);
			e.buf[e.len++] = (uint8_t)(d & 0xFF);
			for (size_t k = 0; k < len; k++)
				matcher_insert(&m, i + k);
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
