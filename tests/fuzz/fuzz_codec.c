/* libFuzzer target for one codec (NM_FUZZ_CODEC: pica, gx, lzss, inflate, gpu, tegra,
 * astc, bcn). The first bytes choose the format and sizes; the rest is the encoded data. */
#include <stdlib.h>
#include <string.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/gpu_buffer.h"
#include "codec/tegra_swizzle.h"
#include "codec/gx.h"
#include "codec/inflate.h"
#include "codec/lzss_retro.h"
#include "codec/pica.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef NM_REPLAY
extern int nm_fuzz_codec_id;
#define NM_FUZZ_CODEC nm_fuzz_codec_id
#endif

enum { PICA = 1, GX, LZSS, INFLATE, GPU, TEGRA, ASTC, BCN };

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
