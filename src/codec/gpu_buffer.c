/* Tropical Freeze GPU buffers by codec tag (gpu_buffer.h): one table, and decode,
 * measure and encode dispatched over it. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "codec/arith_retro.h"
#include "codec/gpu_buffer.h"
#include "codec/inflate.h"
#include "codec/lzss_retro.h"

/* Ratios: a short reference gives at most 16 units from 2 bytes + 1/8 of a flag byte
 * (unit 4: 64 bytes from 2.125), a long one 256 units from 3.125 bytes (unit 4: 1024).
 * An arithmetic-coded symbol can cost as little as 0.023 bits (the most frequent
 * symbol of a model capped at 0x3fff holds at most 1 - 256/0x3fff of it), so one byte
 * can carry ~352 symbols: ~117 long references of 1024 bytes. deflate gives 1032:1. */
static const nm_gpu_codec codecs[NM_GPU_TAG_COUNT] = {
	{ 0x00, "STORED", "stored", 0, false, false, false, 1 },
	{ 0x01, "LZSS8", "LZSS, 1-byte units", 1, false, false, false, 32 },
	{ 0x02, "LZSS16", "LZSS, 2-byte units", 2, false, false, false, 32 },
	{ 0x03, "LZSS32", "LZSS, 4-byte units", 4, false, false, false, 32 },
	{ 0x04, "LZSS8_ARITH", "LZSS, 1-byte units, arithmetic-coded", 1, false, true, true,
	  352u * 64 },
	{ 0x05, "LZSS16_ARITH", "LZSS, 2-byte units, arithmetic-coded", 2, false, true, true,
	  352u * 64 },
	{ 0x06, "LZSS32_ARITH", "LZSS, 4-byte units, arithmetic-coded", 4, false, true, true,
	  352u * 64 },
	{ 0x07, "LZSS8_LONG", "LZSS, 1-byte units, 3-byte references", 1, true, false, false,
	  330 },
	{ 0x08, "LZSS16_LONG", "LZSS, 2-byte units, 3-byte references", 2, true, false, false,
	  330 },
	{ 0x09, "LZSS32_LONG", "LZSS, 4-byte units, 3-byte references", 4, true, false, false,
	  330 },
	{ 0x0a, "LZSS8_LONG_ARITH", "LZSS, 1-byte units, 3-byte references, arithmetic-coded",
	  1, true, true, true, 352u * 1024 },
	{ 0x0b, "LZSS16_LONG_ARITH", "LZSS, 2-byte units, 3-byte references, arithmetic-coded",
	  2, true, true, true, 352u * 1024 },
	{ 0x0c, "LZSS32_LONG_ARITH", "LZSS, 4-byte units, 3-byte references, arithmetic-coded",
	  4, true, true, true, 352u * 1024 },
	{ 0x0d, "ZLIB", "zlib", 0, false, false, true, 1032 },
};

const nm_gpu_codec *nm_gpu_codec_by_tag(uint32_t tag)
{
	return tag < NM_GPU_TAG_COUNT ? &codecs[tag] : NULL;
}

const nm_gpu_codec *nm_gpu_codec_of(const uint8_t p[NM_GPU_TAG_LEN])
{
	uint32_t tag = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	/* The tag is a big-endian u32 whose value sits in the first byte. */
	return (tag & 0x00FFFFFFu) ? NULL : nm_gpu_codec_by_tag(tag >> 24);
}

static nm_lzss_kind kind_of(const nm_gpu_codec *c)
{
	return (nm_lzss_kind){ c->unit, c->long_refs };
}

/* LZSS items from the payload (memory or arithmetic-coded). until_end: see nm_lzss_run.
 * *used: payload bytes the stream occupies. prefix: stop at dst_len, the stream's end
 * not checked (nor *used set). */
static nm_status run_lzss(const nm_gpu_codec *c, const uint8_t *p, size_t len,
			  uint8_t *dst, size_t dst_len, bool until_end, bool prefix, size_t *out,
			  size_t *used)
{
	nm_arith_decoder *ar = NULL;
	if (c->arith) {
		ar = malloc(sizeof *ar);
		if (!ar)
			return NM_E_NOMEM;
		nm_arith_decoder_init(ar, p, len);
	}
	nm_lzss_src s = { p, len, 0, ar };
	nm_status st = nm_lzss_run(kind_of(c), &s, dst, dst_len, until_end, out);
	if (st == NM_OK && !prefix && ar) {
		/* Full: what follows must be the end symbol (nm_lzss_run took the rest of
		 * a literal cut by dst_len). */
		if (nm_arith_next(ar) != NM_ARITH_END)
			st = NM_E_FORMAT;
		else if ((*used = nm_arith_stream_len(ar)) > len)
			st = NM_E_FORMAT; /* its padding is cut off */
	} else if (st == NM_OK && !prefix) {
		*used = s.pos;
	}
	free(ar);
	return st;
}

/* DECODE: exactly size bytes (dst may be NULL to only check); MEASURE: a stream by its
 * own end, up to size bytes (dst NULL); PREFIX: its first size bytes, nothing past them
 * checked (*used then unknown). */
enum run_mode { DECODE, MEASURE, PREFIX };

static nm_status run(const uint8_t *src, size_t src_len, uint8_t *dst, size_t size,
		     enum run_mode mode, size_t *out_len, size_t *used)
{
	if (src_len < NM_GPU_TAG_LEN)
		return NM_E_FORMAT;
	const nm_gpu_codec *c = nm_gpu_codec_of(src);
	if (!c)
		return NM_E_UNSUPPORTED;
	const uint8_t *p = src + NM_GPU_TAG_LEN;
	size_t len = src_len - NM_GPU_TAG_LEN, n = 0, out = 0;
	bool until_end = mode == MEASURE;
	nm_status st = NM_OK;
	if (c->tag == NM_GPU_TAG_STORED) {
		/* Measured, stored data is what there is; decoded, at least size bytes. */
		out = n = until_end ? len : size;
		if (until_end ? len > size : len < size)
			st = until_end ? NM_E_LIMIT : NM_E_FORMAT;
		else if (dst && size)
			memcpy(dst, p, size);
	} else if (c->tag == NM_GPU_TAG_ZLIB) {
		st = dst ? nm_inflate_stream(p, len, dst, size, &out, &n)
			 : nm_inflate_measure(p, len, size, &out, &n);
		if (mode == PREFIX && st == NM_E_LIMIT)
			st = NM_OK;   /* output past size stopped it: size bytes are there */
		if (!until_end && (st == NM_E_LIMIT || (st == NM_OK && out != size)))
			st = NM_E_FORMAT; /* the stream is not size bytes long */
	} else {
		st = run_lzss(c, p, len, dst, size, until_end, mode == PREFIX, &out, &n);
	}
	if (st == NM_OK) {
		*out_len = out;
		*used = NM_GPU_TAG_LEN + n;
	}
	return st;
}

nm_status nm_gpu_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			size_t *used)
{
	size_t out;
	return src && used ? run(src, src_len, dst, dst_len, DECODE, &out, used) : NM_E_INVAL;
}

nm_status nm_gpu_decode_prefix(const uint8_t *src, size_t src_len, uint8_t *dst,
			       size_t dst_len)
{
	size_t out, used;
	return src && dst ? run(src, src_len, dst, dst_len, PREFIX, &out, &used) : NM_E_INVAL;
}

nm_status nm_gpu_measure(const uint8_t *src, size_t src_len, size_t max, size_t *out_len,
			 size_t *used)
{
	return src && out_len && used ? run(src, src_len, NULL, max, MEASURE, out_len, used)
				       : NM_E_INVAL;
}

nm_status nm_gpu_encode(uint32_t tag, const uint8_t *src, size_t len, uint8_t **out,
			size_t *out_len)
{
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	if (!c || !out || !out_len || (!src && len))
		return NM_E_INVAL;
	uint8_t *body = NULL;
	size_t blen = 0;
	nm_status st = NM_OK;
	if (c->tag == NM_GPU_TAG_STORED) {
		blen = len;
	} else if (c->tag == NM_GPU_TAG_ZLIB) {
		uLongf zlen = compressBound((uLong)len);
		body = malloc(zlen ? zlen : 1);
		if (!body)
			return NM_E_NOMEM;
		if (compress2(body, &zlen, src ? src : (const uint8_t *)"", (uLong)len, 9) != Z_OK)
			st = NM_E_NOMEM;
		blen = zlen;
	} else {
		st = nm_lzss_compress(kind_of(c), src, len, &body, &blen);
		if (st == NM_OK && c->arith) {
			uint8_t *coded;
			st = nm_arith_encode(body, blen, &coded, &blen);
			free(body);
			body = st == NM_OK ? coded : NULL;
		}
	}
	uint8_t *buf = st == NM_OK ? malloc(NM_GPU_TAG_LEN + blen) : NULL;
	if (!buf) {
		free(body);
		return st == NM_OK ? NM_E_NOMEM : st;
	}
	buf[0] = (uint8_t)tag;
	buf[1] = buf[2] = buf[3] = 0;
	if (blen)
		memcpy(buf + NM_GPU_TAG_LEN, body ? body : src, blen);
	free(body);
	*out = buf;
	*out_len = NM_GPU_TAG_LEN + blen;
	return NM_OK;
}
