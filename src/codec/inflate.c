/* Bounded zlib inflation for the Tropical Freeze Switch GPU buffers (FORMATS.md 8).
 *
 * Only the zlib format (RFC 1950, windowBits 15) is accepted: every stream seen in the
 * corpus starts `78 da`, and the Adler-32 trailer is what tells a whole stream from a
 * damaged one. Nothing here trusts a declared size: output goes into the caller's
 * buffer or a small scratch buffer, and we stop as soon as one byte more than allowed
 * has been produced, so a decompression bomb costs at most its limit in work. */
#define ZLIB_CONST
#include <limits.h>
#include <zlib.h>
#include "codec/inflate.h"

/* Inflate into dst (capacity cap), or only count the output when dst is NULL.
 * Once the allowed output is used up, a one-byte probe tells a stream that ends
 * there from one that would go on. */
static nm_status inflate_bounded(const uint8_t *src, size_t src_len,
				 uint8_t *dst, size_t cap,
				 size_t *out_len, size_t *in_used)
{
	uint8_t scratch[4096];
	z_stream zs = { 0 };
	size_t fed = 0, total = 0;
	nm_status st;

	if (inflateInit(&zs) != Z_OK)
		return NM_E_NOMEM;
	for (;;) {
		/* zlib counts in uInt; feed huge inputs in slices. */
		if (zs.avail_in == 0 && fed < src_len) {
			size_t n = src_len - fed;
			if (n > UINT_MAX)
				n = UINT_MAX;
			zs.next_in = src + fed;
			zs.avail_in = (uInt)n;
			fed += n;
		}

		size_t room = cap - total, want;
		if (dst && room > 0) {
			zs.next_out = dst + total;
			want = room < UINT_MAX ? room : UINT_MAX;
		} else {
			/* room + 1 so that exceeding the limit shows up as output. */
			zs.next_out = scratch;
			want = room < sizeof scratch ? room + 1 : sizeof scratch;
		}
		zs.avail_out = (uInt)want;

		int zr = inflate(&zs, Z_NO_FLUSH);
		size_t produced = want - zs.avail_out;
		if (produced > room) {
			st = NM_E_LIMIT;
			break;
		}
		total += produced;

		if (zr == Z_STREAM_END) {
			st = NM_OK;
			break;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_BUF_ERROR) {
			/* There is always output space, so zlib wants input: more if we
			 * have it, else the stream was cut short. */
			if (zs.avail_in == 0 && fed < src_len)
				continue;
			st = NM_E_FORMAT;
			break;
		}
		st = zr == Z_MEM_ERROR ? NM_E_NOMEM
		   : zr == Z_NEED_DICT ? NM_E_UNSUPPORTED /* preset dictionary */
		   : NM_E_FORMAT;
		break;
	}

	if (out_len)
		*out_len = total;
	/* zlib stops reading at the end of the Adler-32 trailer; whatever it left in
	 * avail_in belongs to the next stream. */
	if (in_used)
		*in_used = fed - zs.avail_in;
	inflateEnd(&zs);
	return st;
}

nm_status nm_inflate_stream(const uint8_t *src, size_t src_len,
			    uint8_t *dst, size_t dst_cap,
			    size_t *out_len, size_t *in_used)
{
	if (!src || (!dst && dst_cap))
		return NM_E_INVAL;
	return inflate_bounded(src, src_len, dst, dst_cap, out_len, in_used);
}

nm_status nm_inflate_measure(const uint8_t *src, size_t src_len, size_t limit,
			     size_t *out_len, size_t *in_used)
{
	if (!src)
		return NM_E_INVAL;
	return inflate_bounded(src, src_len, NULL, limit, out_len, in_used);
}
