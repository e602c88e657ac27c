/* libFuzzer target for one codec (NM_FUZZ_CODEC: pica, gx, lzss, inflate, gpu, tegra,
 * astc, bcn, yaz0, yay0, lz_cx, lzs). The first bytes choose the format and sizes; the
 * rest is the encoded data. */
#include <stdlib.h>
#include <string.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/gpu_buffer.h"
#include "codec/tegra_swizzle.h"
#include "codec/gx.h"
#include "codec/inflate.h"
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/lzss_retro.h"
#include "codec/pica.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef NM_REPLAY
extern int nm_fuzz_codec_id;
#define NM_FUZZ_CODEC nm_fuzz_codec_id
#endif

enum { PICA = 1, GX, LZSS, INFLATE, GPU, TEGRA, ASTC, BCN, YAZ0, YAY0, LZ_CX, LZS };

static nm_status enc_lz_cx(const uint8_t *s, size_t n, nm_out *o)
{
	/* The variant from the data, so that both get fuzzed. */
	return nm_lz_cx_encode(n && (s[0] & 1) ? NM_LZ11 : NM_LZ10, s, n, o);
}

static const struct lz_fns {
	nm_status (*header)(const uint8_t *, size_t, const char *, uint64_t *, nm_error *);
	nm_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, const char *, nm_error *,
			    size_t *);
	uint64_t (*bound)(uint64_t);
	nm_status (*encode)(const uint8_t *, size_t, nm_out *);
} lz_fns[] = {
	[YAZ0] = { nm_yaz0_header, nm_yaz0_decode, nm_yaz0_input_bound, nm_yaz0_encode },
	[YAY0] = { nm_yay0_header, nm_yay0_decode, nm_yay0_input_bound, nm_yay0_encode },
	[LZ_CX] = { nm_lz_cx_header, nm_lz_cx_decode, nm_lz_cx_input_bound, enc_lz_cx },
	[LZS] = { nm_lzs_header, nm_lzs_decode, nm_lzs_input_bound, nm_lzs_encode },
};

/* The archive codecs: bytes 1-2 cap the output (a prefix of what the header announces,
 * up to 64 KiB); a prefix that decodes must decode the same from the input bound alone.
 * Byte 3 bit 0: also encode the stream's bytes as data and check the round trip. */
static void fuzz_lz(int which, const uint8_t *data, const uint8_t *src, size_t len)
{
	const struct lz_fns *f = &lz_fns[which];
	uint64_t announced;
	nm_error err;
	if (f->header(src, len, "fuzz", &announced, &err) == NM_OK) {
		size_t cap = (size_t)data[1] << 8 | data[2];
		size_t n = announced < cap ? (size_t)announced : cap;
		uint8_t *dst = malloc(n ? n : 1), *again = malloc(n ? n : 1);
		size_t done;
		nm_status st = f->decode(src, len, dst, n, "fuzz", &err, &done);
		if (st == NM_OK) {
			uint64_t b = which == YAY0 ? nm_yay0_prefix_bound(src, n) : f->bound(n);
			if (done != n ||
			    f->decode(src, b < len ? (size_t)b : len, again, n, "fuzz", &err,
				      NULL) != NM_OK ||
			    (n && memcmp(dst, again, n) != 0))
				abort();
		} else if (st == NM_E_FORMAT) {
			/* The bytes before the failure decode alone, the same (what a damaged
			 * archive's members are read from). */
			if (done >= n || f->decode(src, len, again, done, "fuzz", &err, NULL) != NM_OK ||
			    (done && memcmp(dst, again, done) != 0))
				abort();
		}
		free(dst);
		free(again);
	}
	if (data[3] & 1) {
		nm_out o;
		nm_out_init(&o);
		if (f->encode(src, len, &o) != NM_OK)
			abort();
		uint8_t *back = malloc(len ? len : 1);
		if (f->decode(o.data, o.len, back, len, "fuzz", &err, NULL) != NM_OK ||
		    (len && memcmp(back, src, len) != 0))
			abort();
		free(back);
		nm_out_free(&o);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	/* Dimensions from two bytes: up to 256 x 256, enough to reach every code path. */
	unsigned fmt = data[0], w = 1u + data[1], h = 1u + data[2];
	const uint8_t *src = data + 4;
	size_t len = size - 4;
	switch (NM_FUZZ_CODEC) {
	case PICA: {
		uint8_t *rgba = malloc((size_t)w * h * 4);
		nm_pica_decode((nm_pica_format)(fmt % (NM_PICA_FORMAT_COUNT + 1)), src, len,
			       w & ~7u, h & ~7u, rgba);
		free(rgba);
		break;
	}
	case GX: {
		uint8_t *rgba = malloc((size_t)w * h * 4);
		size_t pal = len > 64 ? 32 : 0;
		nm_gx_decode(fmt & 0xF, src + pal * 2 < src + len ? src + pal * 2 : src,
			     len - (pal * 2 < len ? pal * 2 : 0), w, h, src, pal, data[3] % 4, rgba);
		free(rgba);
		break;
	}
	case LZSS: {
		size_t out = (size_t)data[1] << 8 | data[2];
		uint8_t *dst = malloc(out ? out : 1);
		nm_lzss_retro_decompress(src, len, dst, out);
		free(dst);
		break;
	}
	case INFLATE: {
		size_t cap = (size_t)data[1] << 10, got, used;
		uint8_t *dst = malloc(cap ? cap : 1);
		nm_inflate_stream(src, len, dst, cap, &got, &used);
		nm_inflate_measure(src, len, 1u << 20, &got, &used);
		free(dst);
		break;
	}
	case GPU: {
		/* Byte 0 picks the tag (and sometimes a bad one), bytes 1-2 the size. */
		size_t out = (size_t)data[1] << 8 | data[2], got, used;
		uint8_t *buf = malloc(len + 4), *dst = malloc(out ? out : 1);
		buf[0] = (uint8_t)(fmt % (NM_GPU_TAG_COUNT + 1));
		buf[1] = buf[2] = 0;
		buf[3] = data[3] & 0x80;
		memcpy(buf + 4, src, len);
		nm_gpu_decode(buf, len + 4, dst, out, &used);
		nm_gpu_decode(buf, len + 4, NULL, out, &used);
		nm_gpu_measure(buf, len + 4, 1u << 20, &got, &used);
		free(dst);
		free(buf);
		break;
	}
	case TEGRA: {
		/* One level of up to 256 x 256 bytes, any block height (3 of 8 invalid), and a
		 * surface layout whose figures must hold together. */
		uint64_t row_bytes = 1u + data[1], rows = 1u + data[2];
		unsigned bh = 1u << (data[3] % 6);
		uint8_t *dst = malloc(row_bytes * rows);
		nm_tegra_deswizzle(src, len, row_bytes, rows, bh, dst);
		free(dst);
		nm_tegra_surface s;
		if (nm_tegra_surface_layout(1u + data[1] * 7u, 1u + data[2] * 5u, 1u + data[0] % 12,
					    1u + data[3] % 12, 1u + data[0] / 16, 1u + data[3] / 16,
					    1u + data[0] % 7, &s) == NM_OK &&
		    (s.span > s.size || s.level[0].span > s.level[0].size))
			abort();
		break;
	}
	case ASTC: {
		/* Mostly 8x5 (Tropical Freeze's most common size): libastcenc's context is
		 * rebuilt (15-45 ms) whenever the size changes, so a random size per input
		 * would run a few dozen inputs a second. */
		static const unsigned sizes[14][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 },
						       { 6, 6 }, { 8, 5 }, { 8, 6 }, { 8, 8 },
						       { 10, 5 }, { 10, 6 }, { 10, 8 }, { 10, 10 },
						       { 12, 10 }, { 12, 12 } };
		const unsigned *bs = fmt < 240 ? sizes[5] : sizes[fmt % 14];
		unsigned aw = 1u + data[1] % 64, ah = 1u + data[2] % 64;
		uint8_t *rgba = malloc((size_t)aw * ah * 4);
		nm_astc_decode(NULL, bs[0], bs[1], data[3] & 1, src, len, aw, ah, rgba);
		free(rgba);
		break;
	}
	case YAZ0:
	case YAY0:
	case LZ_CX:
	case LZS:
		fuzz_lz(NM_FUZZ_CODEC, data, src, len);
		break;
	case BCN: {
		unsigned bw = 1u + data[1] % 64, bh = 1u + data[2] % 64;
		uint8_t *rgba = malloc((size_t)bw * bh * 4);
		nm_bcn_decode((nm_bcn_format)(fmt % 6), src, len, bw, bh, rgba);
		free(rgba);
		break;
	}
	}
	return 0;
}
