/* Yaz0. Sources: FORMATS.md 3.8 (gclib yaz0_yay0.py, noclip Yaz0.ts: read, not copied).
 *
 * Decisions where the sources are silent:
 * - The 8 bytes after the size are not checked: Wii U and Switch files keep an
 *   alignment value there, GameCube files zeros.
 * - A back-reference that runs past the announced size is cut there (as every known
 *   decoder's "stop at the decompressed size" does); the same cut gives a prefix.
 * - Bytes after the last token are ignored (encoders pad the file). */
#include "codec/lz_common.h"
#include "codec/yaz0.h"
#include <stdlib.h>
#include "lib/bytes.h"

#define CODEC "Yaz0"

bool nm_yaz0_probe(const uint8_t *head, size_t len)
{
	return nm_lz_has_magic(head, len, "Yaz0");
}

nm_status nm_yaz0_header(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			 nm_error *err)
{
	return nm_lz_check_magic_size(src, len, "Yaz0", NM_YAZ0_HEADER_LEN, name, CODEC, size, err);
}

nm_status nm_yaz0_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			 const char *name, nm_error *err, size_t *done)
{
	if (done)
		*done = 0;
	uint64_t size = 0;
	nm_status st = nm_lz_begin(nm_yaz0_header(src, src_len, name, &size, err), &size, src, dst,
				   dst_len, name, CODEC, err);
	if (st != NM_OK)
		return st;
	size_t in = NM_YAZ0_HEADER_LEN, out = 0;
	unsigned flags = 0, nbits = 0;
	while (out < dst_len) {
		if (nbits == 0) {
			if (in >= src_len)
				return nm_lz_fail_short(err, done, name, CODEC, in,
							"a flag byte", out, dst_len);
			flags = src[in++];
			nbits = 8;
		}
		nbits--;
		bool literal = flags & 0x80;
		flags <<= 1;
		if (literal) {
			if (in >= src_len)
				return nm_lz_fail_short(err, done, name, CODEC, in, "a literal",
							out, dst_len);
			dst[out++] = src[in++];
			continue;
		}
		size_t at = in;
		if (src_len - in < 2 || (src[in] >> 4 == 0 && src_len - in < 3))
			return nm_lz_fail_short(err, done, name, CODEC, at, "a back-reference",
						out, dst_len);
		size_t dist = ((size_t)(src[in] & 0x0F) << 8 | src[in + 1]) + 1;
		size_t n = src[in] >> 4;
		in += 2;
		n = n ? n + 2 : (size_t)src[in++] + 0x12;
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

uint64_t nm_yaz0_input_bound(uint64_t n)
{
	/* A literal costs 1 byte and a back-reference at least 2 for 3 bytes out, so all
	 * literals is the worst, but for the last token: a 3-byte reference cut to 1 byte. */
	if (n > (UINT64_MAX - 64) / 2)
		return UINT64_MAX;
	return NM_YAZ0_HEADER_LEN + n + (n + 7) / 8 + 2;
}

/* Yaz0's and Yay0's tokens: a flag bit and a byte; a flag bit and two bytes for 3..17
 * bytes, three for 18..0x111. */
static unsigned yaz0_match_bits(size_t len) { return len < 0x12 ? 17 : 25; }
const nm_lz_costs nm_yaz0_costs = { NM_LZ_WINDOW, 3, 0x111, 9, yaz0_match_bits, NULL };

nm_status nm_yaz0_encode(const uint8_t *src, size_t len, nm_out *out)
{
	if ((!src && len) || (uint64_t)len > UINT32_MAX)
		return NM_E_INVAL;
	uint8_t head[NM_YAZ0_HEADER_LEN] = { 'Y', 'a', 'z', '0', (uint8_t)(len >> 24),
					     (uint8_t)(len >> 16), (uint8_t)(len >> 8),
					     (uint8_t)len };
	nm_out_write(out, head, sizeof head);
	nm_lz_token *t;
	size_t n;
	nm_status st = nm_lz_parse(src, len, &nm_yaz0_costs, out->opt, &t, &n);
	if (st != NM_OK)
		return st;
	nm_lz_flags f = { .out = out };
	for (size_t k = 0, i = 0; k < n; k++) {
		size_t l = t[k].len, d = t[k].dist;
		nm_lz_flag(&f, l == 0);
		if (l == 0) {
			nm_out_write(out, src + i, 1);
			l = 1;
		} else if (l < 0x12) {
			uint8_t b[2] = { (uint8_t)((l - 2) << 4 | (d - 1) >> 8), (uint8_t)(d - 1) };
			nm_out_write(out, b, 2);
		} else {
			uint8_t b[3] = { (uint8_t)((d - 1) >> 8), (uint8_t)(d - 1),
					 (uint8_t)(l - 0x12) };
			nm_out_write(out, b, 3);
		}
		i += l;
	}
	free(t);
	return nm_out_status(out);
}
