/* Yay0. Sources: FORMATS.md 3.8, noclip Yay0.ts and gclib yaz0_yay0.py (read, not
 * copied). The flags are u32be words whose bits are taken from the top: the same bit
 * order as reading them a byte at a time, which is what we do, so a stream whose last
 * word is cut after the bits it needs still decodes. Streams may lie in any order and
 * may even overlap; each read is checked against the end of the input only. */
#include <stdlib.h>
#include "codec/lz_common.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "lib/bytes.h"

#define CODEC "Yay0"

bool nm_yay0_probe(const uint8_t *head, size_t len)
{
	return nm_lz_has_magic(head, len, "Yay0");
}

nm_status nm_yay0_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			 nm_error *err)
{
	return nm_lz_check_magic_size(src, len, "Yay0", NM_YAY0_HEADER_LEN, name, CODEC, size, err);
}

nm_status nm_yay0_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			 const char *name, nm_error *err, size_t *done)
{
	if (done)
		*done = 0;
	uint64_t size = 0;
	nm_status st = nm_lz_begin(nm_yay0_header(src, src_len, name, &size, err), &size, src, dst,
				   dst_len, name, CODEC, err);
	if (st != NM_OK)
		return st;
	/* 64-bit positions: offsets from the header plus a count cannot wrap. */
	uint64_t fl = NM_YAY0_HEADER_LEN, link = nm_be32(src + 8), chunk = nm_be32(src + 12);
	size_t out = 0;
	unsigned flags = 0, nbits = 0;
	while (out < dst_len) {
		if (nbits == 0) {
			if (fl >= src_len)
				return nm_lz_fail_short(err, done, name, CODEC, fl,
							"the flag stream", out, dst_len);
			flags = src[fl++];
			nbits = 8;
		}
		nbits--;
		bool literal = flags & 0x80;
		flags <<= 1;
		if (literal) {
			if (chunk >= src_len)
				return nm_lz_fail_short(err, done, name, CODEC, chunk,
							"the chunk stream", out, dst_len);
			dst[out++] = src[chunk++];
			continue;
		}
		if (link + 2 > src_len)
			return nm_lz_fail_short(err, done, name, CODEC, link, "the link stream",
						out, dst_len);
		uint64_t at = link;
		unsigned v = nm_be16(src + link);
		link += 2;
		size_t dist = (v & 0x0FFFu) + 1, n = v >> 12;
		if (n == 0) {
			if (chunk >= src_len)
				return nm_lz_fail_short(err, done, name, CODEC, chunk,
							"the chunk stream (a long link's length)",
							out, dst_len);
			n = (size_t)src[chunk++] + 0x12;
		} else {
			n += 2;
		}
		if (dist > out)
			return nm_lz_fail_before_start(err, done, name, CODEC, at, dist, out);
		if (n > dst_len - out)
			n = dst_len - out;
		nm_lz_copy(dst, out, dist, n);
		out += n;
	}
	if (done)
		*done = out;
	return NM_OK;
}

uint64_t nm_yay0_input_bound(uint64_t n)
{
	(void)n;
	return UINT64_MAX;
}

uint64_t nm_yay0_prefix_bound(const uint8_t head[NM_YAY0_HEADER_LEN], uint64_t n)
{
	if (n > UINT32_MAX)
		return UINT64_MAX;
	/* At most n tokens, each with one flag bit, at most one link and one chunk byte. */
	uint64_t fl = NM_YAY0_HEADER_LEN + (n + 7) / 8, link = nm_be32(head + 8) + 2 * n;
	uint64_t chunk = nm_be32(head + 12) + n, m = fl > link ? fl : link;
	return m > chunk ? m : chunk;
}

nm_status nm_yay0_encode(const uint8_t *src, size_t len, nm_out *out)
{
	if ((!src && len) || (uint64_t)len > UINT32_MAX)
		return NM_E_INVAL;
	nm_out fl, links, chunks;
	nm_out_init(&fl);
	nm_out_init(&links);
	nm_out_init(&chunks);
	fl.opt = links.opt = chunks.opt = out->opt;
	nm_lz_token *t;
	size_t n;
	nm_status pst = nm_lz_parse(src, len, &nm_yaz0_costs, out->opt, &t, &n);
	if (pst != NM_OK)
		return pst;
	nm_lz_flags f = { .out = &fl };
	for (size_t k = 0, i = 0; k < n; k++) {
		size_t l = t[k].len, d = t[k].dist;
		nm_lz_flag(&f, l == 0);
		if (l == 0) {
			nm_out_write(&chunks, src + i, 1);
			l = 1;
		} else {
			unsigned code = l < 0x12 ? (unsigned)(l - 2) : 0;
			uint8_t b[2] = { (uint8_t)(code << 4 | (d - 1) >> 8), (uint8_t)(d - 1) };
			nm_out_write(&links, b, 2);
			if (code == 0) {
				uint8_t extra = (uint8_t)(l - 0x12);
				nm_out_write(&chunks, &extra, 1);
			}
		}
		i += l;
	}
	free(t);
	/* Whole u32 flag words, and the other streams at 4-byte offsets as Nintendo's
	 * files have them. */
	static const uint8_t zeros[4];
	nm_out_write(&fl, zeros, (4 - fl.len % 4) % 4);
	nm_out_write(&links, zeros, (4 - links.len % 4) % 4);
	uint64_t link_off = NM_YAY0_HEADER_LEN + fl.len, chunk_off = link_off + links.len;
	nm_status st = nm_out_status(&fl);
	if (st == NM_OK)
		st = nm_out_status(&links);
	if (st == NM_OK)
		st = nm_out_status(&chunks);
	if (st == NM_OK && chunk_off > UINT32_MAX)
		st = NM_E_INVAL;
	if (st == NM_OK) {
		uint8_t head[NM_YAY0_HEADER_LEN] = {
			'Y', 'a', 'y', '0', (uint8_t)(len >> 24), (uint8_t)(len >> 16),
			(uint8_t)(len >> 8), (uint8_t)len, (uint8_t)(link_off >> 24),
			(uint8_t)(link_off >> 16), (uint8_t)(link_off >> 8), (uint8_t)link_off,
			(uint8_t)(chunk_off >> 24), (uint8_t)(chunk_off >> 16),
			(uint8_t)(chunk_off >> 8), (uint8_t)chunk_off,
		};
		nm_out_write(out, head, sizeof head);
		nm_out_write(out, fl.data, fl.len);
		nm_out_write(out, links.data, links.len);
		nm_out_write(out, chunks.data, chunks.len);
		st = nm_out_status(out);
	}
	nm_out_free(&fl);
	nm_out_free(&links);
	nm_out_free(&chunks);
	return st;
}
