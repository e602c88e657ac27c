/* LZ10 / LZ11. Sources: FORMATS.md 4.9, noclip CX.ts, DSDecmp's LZ10/LZ11 notes (read,
 * not copied). Decisions:
 * - A stream may be tagged: "LZ77" before the header, as DS games (Super Mario 64 DS)
 *   and some Wii games store it. The tag is skipped; offsets in errors stay the file's.
 * - The 8-byte header (size 0, then a u32le size) is read for both variants, as
 *   DSDecmp does; a stream of 4 bytes with size 0 is too short for it.
 * - As with Yaz0, a back-reference past the announced size is cut there and bytes
 *   after the last token are ignored (GBA/DS files are padded to 4 bytes). */
#include <stdlib.h>
#include <string.h>
#include "codec/lz_common.h"
#include "codec/lz_cx.h"
#include "lib/bytes.h"

size_t nm_lz_cx_tag_len(const uint8_t *src, size_t len)
{
	return src && len >= 4 && memcmp(src, "LZ77", 4) == 0 ? 4 : 0;
}

static const char *codec_name(const uint8_t *src, size_t len)
{
	return src && nm_lz_cx_variant_of(src, len) == NM_LZ11 ? "LZ11" : "LZ10";
}

/* Header length: 4, or 8 with the extended size; 0 when len cannot hold it. */
static size_t header_len(const uint8_t *src, size_t len)
{
	if (len < 4)
		return 0;
	size_t h = (src[1] | src[2] | src[3]) ? 4 : 8;
	return len >= h ? h : 0;
}

bool nm_lz_cx_probe(const uint8_t *head, size_t len)
{
	if (!head)
		return false;
	size_t tag = nm_lz_cx_tag_len(head, len);
	head += tag;
	len -= tag;
	if (len < 4 || (head[0] != NM_LZ10 && head[0] != NM_LZ11))
		return false;
	size_t h = header_len(head, len);
	if (h == 0 || (h == 8 && nm_le32(head + 4) == 0))
		return false;
	return len <= h || !(head[h] & 0x80);
}

nm_status nm_lz_cx_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			  nm_error *err)
{
	const char *codec = "LZ10/LZ11";
	size_t tag = nm_lz_cx_tag_len(src, len);
	if (!src || len < tag + 1 || (src[tag] != NM_LZ10 && src[tag] != NM_LZ11))
		return nm_lz_fail_header(err, name, codec, src, len, tag + 4);
	size_t h = header_len(src + tag, len - tag);
	if (h == 0)
		return nm_lz_fail_header(err, name, codec_name(src, len), src, len,
					 tag + (len - tag >= 4 ? 8 : 4));
	src += tag;
	*size = h == 4 ? (uint64_t)(src[1] | src[2] << 8 | src[3] << 16) : nm_le32(src + 4);
	return NM_OK;
}

nm_lz_cx_variant nm_lz_cx_variant_of(const uint8_t *src, size_t len)
{
	size_t tag = nm_lz_cx_tag_len(src, len);
	return len > tag && src[tag] == NM_LZ11 ? NM_LZ11 : NM_LZ10;
}

nm_status nm_lz_cx_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			  const char *name, nm_error *err, size_t *done)
{
	if (done)
		*done = 0;
	uint64_t size = 0;
	const char *codec = codec_name(src, src_len);
	nm_status st = nm_lz_begin(nm_lz_cx_header(src, src_len, name, &size, err), &size, src,
				   dst, dst_len, name, codec, err);
	if (st != NM_OK)
		return st;
	size_t tag = nm_lz_cx_tag_len(src, src_len);
	bool lz11 = src[tag] == NM_LZ11;
	size_t in = tag + header_len(src + tag, src_len - tag), out = 0;
	unsigned flags = 0, nbits = 0;
	while (out < dst_len) {
		if (nbits == 0) {
			if (in >= src_len)
				return nm_lz_fail_short(err, done, name, codec, in,
							"a flag byte", out, dst_len);
			flags = src[in++];
			nbits = 8;
		}
		nbits--;
		bool ref = flags & 0x80;
		flags <<= 1;
		if (!ref) {
			if (in >= src_len)
				return nm_lz_fail_short(err, done, name, codec, in, "a literal",
							out, dst_len);
			dst[out++] = src[in++];
			continue;
		}
		size_t at = in, left = src_len - in;
		/* Token size: LZ10 always 2; LZ11 by the top nibble of its first byte. */
		size_t size_b = 2;
		if (lz11 && left > 0 && src[in] >> 4 < 2)
			size_b = src[in] >> 4 == 0 ? 3 : 4;
		if (left < size_b)
			return nm_lz_fail_short(err, done, name, codec, at, "a back-reference",
						out, dst_len);
		const uint8_t *t = src + in;
		in += size_b;
		size_t n;
		uint32_t tail; /* the last two bytes: 4 bits of length, 12 of distance */
		if (!lz11) {
			n = (size_t)(t[0] >> 4) + 3;
			tail = nm_be16(t);
		} else if (size_b == 2) {
			n = (size_t)(t[0] >> 4) + 1;
			tail = nm_be16(t);
		} else if (size_b == 3) {
			n = ((size_t)(t[0] & 0x0F) << 4 | t[1] >> 4) + 0x11;
			tail = nm_be16(t + 1);
		} else {
			n = ((size_t)(t[0] & 0x0F) << 12 | (size_t)t[1] << 4 | t[2] >> 4) + 0x111;
			tail = nm_be16(t + 2);
		}
		size_t dist = (tail & 0x0FFFu) + 1;
		if (dist > out)
			return nm_lz_fail_before_start(err, done, name, codec, at, dist, out);
		if (n > dst_len - out)
			n = dst_len - out;
		nm_lz_copy(dst, out, dist, n);
		out += n;
	}
	if (done)
		*done = out;
	return NM_OK;
}

uint64_t nm_lz_cx_input_bound(uint64_t n)
{
	/* All literals is the worst case, but for the last token: a 4-byte LZ11 reference
	 * cut to one byte. The header may be 8 bytes, after a 4-byte tag. */
	if (n > (UINT64_MAX - 64) / 2)
		return UINT64_MAX;
	return 4 + 8 + n + (n + 7) / 8 + 3;
}

/* A flag bit and a byte; a flag bit and 2 bytes (LZ10: 3..18 bytes; LZ11: 3..16), 3
 * (LZ11: 17..0x110) or 4 (LZ11: up to 0x10110). */
static unsigned lz10_match_bits(size_t len) { (void)len; return 17; }
static unsigned lz11_match_bits(size_t len) { return len <= 16 ? 17 : len <= 0x110 ? 25 : 33; }
static const nm_lz_costs lz10_costs = { NM_LZ_WINDOW, 3, 18, 9, lz10_match_bits, NULL };
static const nm_lz_costs lz11_costs = { NM_LZ_WINDOW, 3, 0x10110, 9, lz11_match_bits, NULL };

nm_status nm_lz_cx_encode(nm_lz_cx_variant v, const uint8_t *src, size_t len, nm_out *out)
{
	if ((v != NM_LZ10 && v != NM_LZ11) || (!src && len) || (uint64_t)len > UINT32_MAX)
		return NM_E_INVAL;
	if (len == 0 || len > 0xFFFFFF) {
		uint8_t head[8] = { (uint8_t)v, 0, 0, 0, (uint8_t)len, (uint8_t)(len >> 8),
				    (uint8_t)(len >> 16), (uint8_t)(len >> 24) };
		nm_out_write(out, head, sizeof head);
	} else {
		uint8_t head[4] = { (uint8_t)v, (uint8_t)len, (uint8_t)(len >> 8),
				    (uint8_t)(len >> 16) };
		nm_out_write(out, head, sizeof head);
	}
	nm_lz_token *t;
	size_t n;
	nm_status st = nm_lz_parse(src, len, v == NM_LZ10 ? &lz10_costs : &lz11_costs, out->opt,
				   &t, &n);
	if (st != NM_OK)
		return st;
	nm_lz_flags f = { .out = out };
	for (size_t k = 0, i = 0; k < n; k++) {
		size_t l = t[k].len, dd = t[k].dist - 1;
		nm_lz_flag(&f, l != 0);
		if (l == 0) {
			nm_out_write(out, src + i, 1);
			l = 1;
		} else if (v == NM_LZ10) {
			uint8_t b[2] = { (uint8_t)((l - 3) << 4 | dd >> 8), (uint8_t)dd };
			nm_out_write(out, b, 2);
		} else if (l <= 16) {
			uint8_t b[2] = { (uint8_t)((l - 1) << 4 | dd >> 8), (uint8_t)dd };
			nm_out_write(out, b, 2);
		} else if (l <= 0x110) {
			size_t x = l - 0x11;
			uint8_t b[3] = { (uint8_t)(x >> 4), (uint8_t)((x & 15) << 4 | dd >> 8),
					 (uint8_t)dd };
			nm_out_write(out, b, 3);
		} else {
			size_t x = l - 0x111;
			uint8_t b[4] = { (uint8_t)(0x10 | x >> 12), (uint8_t)(x >> 4),
					 (uint8_t)((x & 15) << 4 | dd >> 8), (uint8_t)dd };
			nm_out_write(out, b, 4);
		}
		i += l;
	}
	free(t);
	return nm_out_status(out);
}
