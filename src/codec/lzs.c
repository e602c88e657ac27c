/* LzS. Sources: FORMATS.md 4.9; noclip LzS.ts and Okumura's LZSS.C as found in
 * yyogo/pylzss (read, not copied). The two agree on everything but the ring's first
 * contents: Okumura fills it with spaces, noclip with zeros. The corpus GAR settles it:
 * its first back-reference (input 0x1f) copies 3 bytes from ring 0xFEB, before the
 * start, into the file-type table offset of the GAR header, which reads 0x20 (the
 * header's size) with zeros and 0x20202020 with spaces. So zeros.
 *
 * A ring position p seen from write position w is the byte d = (w - p) mod 4096 back
 * (4096 when p == w: the byte about to be overwritten); the copy keeps d, so it is an
 * ordinary, possibly overlapping, back-reference, and bytes before the start are the
 * ring's zeros. */
#include "codec/lz_common.h"
#include "codec/lzs.h"
#include <stdlib.h>
#include "lib/bytes.h"

#define CODEC "LzS"
#define RING_MASK (NM_LZ_WINDOW - 1)

bool nm_lzs_probe(const uint8_t *head, size_t len)
{
	return nm_lz_has_magic(head, len, "LzS\x01");
}

nm_status nm_lzs_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			nm_error *err)
{
	nm_status st = nm_lz_check_magic(src, len, "LzS\x01", NM_LZS_HEADER_LEN, name, CODEC, err);
	if (st != NM_OK)
		return st;
	*size = nm_le32(src + 8);
	return NM_OK;
}

/* The input ran out at `in`: at the end of src, or (end < src_len) at the end of what
 * the header says the stream occupies. */
static nm_status short_input(nm_error *err, size_t *done, const char *name, size_t in,
			     size_t end, size_t src_len, const char *what, size_t out,
			     size_t dst_len)
{
	if (end >= src_len)
		return nm_lz_fail_short(err, done, name, CODEC, in, what, out, dst_len);
	if (done)
		*done = out;
	return nm_fail(err, NM_E_FORMAT, name, CODEC, in,
		       "%s runs past the compressed size the header announces (0x%zx "
		       "bytes; output byte 0x%zx of 0x%zx)", what,
		       in - NM_LZS_HEADER_LEN, out, dst_len);
}

nm_status nm_lzs_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			const char *name, nm_error *err, size_t *done)
{
	if (done)
		*done = 0;
	uint64_t size = 0;
	nm_status st = nm_lz_begin(nm_lzs_header(src, src_len, name, &size, err), &size, src, dst,
				   dst_len, name, CODEC, err);
	if (st != NM_OK)
		return st;
	uint64_t csize = nm_le32(src + 12);
	size_t end = csize < src_len - NM_LZS_HEADER_LEN ? NM_LZS_HEADER_LEN + (size_t)csize
							  : src_len;
	size_t in = NM_LZS_HEADER_LEN, out = 0;
	unsigned flags = 0, nbits = 0;
	while (out < dst_len) {
		if (nbits == 0) {
			if (in >= end)
				return short_input(err, done, name, in, end, src_len,
						   "a flag byte", out, dst_len);
			flags = src[in++];
			nbits = 8;
		}
		nbits--;
		bool literal = flags & 1;
		flags >>= 1;
		if (literal) {
			if (in >= end)
				return short_input(err, done, name, in, end, src_len,
						   "a literal", out, dst_len);
			dst[out++] = src[in++];
			continue;
		}
		if (end - in < 2)
			return short_input(err, done, name, in, end, src_len,
					   "a back-reference", out, dst_len);
		size_t pos = src[in] | (size_t)(src[in + 1] & 0xF0) << 4;
		size_t n = (size_t)(src[in + 1] & 0x0F) + 3;
		in += 2;
		size_t w = (NM_LZS_RING_START + out) & RING_MASK;
		size_t dist = (w - pos) & RING_MASK;
		if (dist == 0)
			dist = NM_LZ_WINDOW;
		if (n > dst_len - out)
			n = dst_len - out;
		if (dist > out) {
			/* The ring's first contents, then (a long copy near the start) what
			 * this very copy began to write, the same distance back. */
			size_t z = dist - out < n ? dist - out : n;
			memset(dst + out, 0, z);
			out += z;
			n -= z;
		}
		if (n) {
			nm_lz_copy(dst, out, dist, n);
			out += n;
		}
	}
	if (done)
		*done = out;
	return NM_OK;
}

uint64_t nm_lzs_input_bound(uint64_t n)
{
	/* All literals, but for the last token: a 2-byte reference cut to one byte. */
	if (n > (UINT64_MAX - 64) / 2)
		return UINT64_MAX;
	return NM_LZS_HEADER_LEN + n + (n + 7) / 8 + 1;
}

/* How many of src[i..] (at most max) are zeros. */
static size_t zero_run(const uint8_t *src, size_t len, size_t i, size_t max)
{
	size_t n = 0;
	while (n < max && i + n < len && src[i + n] == 0)
		n++;
	return n;
}

/* Zeros near the start may come from the ring's own zeros, 4096 back. */
static size_t ring_zeros(const uint8_t *src, size_t len, size_t i, size_t *dist)
{
	*dist = NM_LZ_WINDOW;
	return i + 18 <= NM_LZ_WINDOW ? zero_run(src, len, i, 18) : 0;
}

static unsigned lzs_match_bits(size_t len) { (void)len; return 17; }
static const nm_lz_costs lzs_costs = { NM_LZ_WINDOW, 3, 18, 9, lzs_match_bits, ring_zeros };

nm_status nm_lzs_encode(const uint8_t *src, size_t len, nm_out *out)
{
	if ((!src && len) || (uint64_t)len > UINT32_MAX)
		return NM_E_INVAL;
	size_t head_at = out->len;
	uint8_t head[NM_LZS_HEADER_LEN] = { 'L', 'z', 'S', 1, 0, 0, 0, 0, (uint8_t)len,
					    (uint8_t)(len >> 8), (uint8_t)(len >> 16),
					    (uint8_t)(len >> 24) };
	nm_out_write(out, head, sizeof head);
	nm_lz_token *t;
	size_t n;
	nm_status pst = nm_lz_parse(src, len, &lzs_costs, out->opt, &t, &n);
	if (pst != NM_OK)
		return pst;
	nm_lz_flags f = { .out = out, .lsb_first = true };
	for (size_t k = 0, i = 0; k < n; k++) {
		size_t l = t[k].len, d = t[k].dist;
		nm_lz_flag(&f, l == 0);
		if (l == 0) {
			nm_out_write(out, src + i, 1);
			l = 1;
		} else {
			size_t pos = (NM_LZS_RING_START + i - d) & RING_MASK;
			uint8_t b[2] = { (uint8_t)pos, (uint8_t)((pos >> 4 & 0xF0) | (l - 3)) };
			nm_out_write(out, b, 2);
		}
		i += l;
	}
	free(t);
	nm_status st = nm_out_status(out);
	if (st == NM_OK) {
		uint64_t csize = out->len - head_at - NM_LZS_HEADER_LEN;
		if (csize > UINT32_MAX)
			return NM_E_INVAL;
		for (int k = 0; k < 4; k++)
			out->data[head_at + 12 + k] = (uint8_t)(csize >> (8 * k));
	}
	return st;
}
