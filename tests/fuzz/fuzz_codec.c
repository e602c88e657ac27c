/* libFuzzer target for one codec (NM_FUZZ_CODEC: pica, gx, lzss, inflate, gpu). The
 * first bytes choose the format and sizes; the rest is the encoded data. */
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "codec/gx.h"
#include "codec/inflate.h"
#include "codec/lzss_retro.h"
#include "codec/pica.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef NM_REPLAY
extern int nm_fuzz_codec_id;
#define NM_FUZZ_CODEC nm_fuzz_codec_id
#endif

enum { PICA = 1, GX, LZSS, INFLATE, GPU };

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
	}
	return 0;
}
