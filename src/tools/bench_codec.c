/* bench_codec: decode throughput of every texture format (Mpixel/s, and the ratio to a
 * plain memcpy of the same encoded bytes on the same run) and of the decompressors
 * (MB/s of output). Used by scripts/bench; prints a markdown table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "codec/gx.h"
#include "codec/inflate.h"
#include "codec/gpu_buffer.h"
#include "codec/pica.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds per call of memcpy over n bytes, best of several runs. */
static double memcpy_time(const uint8_t *src, size_t n, uint8_t *dst)
{
	double best = 1e9;
	for (int r = 0; r < 20; r++) {
		double t = now();
		memcpy(dst, src, n);
		__asm__ volatile("" ::"r"(dst) : "memory");
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

#define W 1024
#define H 1024

static void row(const char *family, const char *name, double secs, size_t bytes,
		const uint8_t *src, uint8_t *scratch)
{
	double mc = memcpy_time(src, bytes, scratch);
	printf("| %-5s | %-8s | %8.1f | %9.1f |\n", family, name, (double)W * H / secs / 1e6,
	       secs / mc);
}

static double best_of(nm_status (*fn)(void *), void *arg)
{
	double best = 1e9;
	for (int r = 0; r < 5; r++) {
		double t = now();
		fn(arg);
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

struct pica_job { nm_pica_format f; const uint8_t *src; size_t len; uint8_t *out; };
static nm_status pica_job_run(void *p)
{
	struct pica_job *j = p;
	return nm_pica_decode(j->f, j->src, j->len, W, H, j->out);
}

struct gx_job { unsigned f; const uint8_t *src; size_t len; const uint8_t *pal; uint8_t *out; };
static nm_status gx_job_run(void *p)
{
	struct gx_job *j = p;
	return nm_gx_decode(j->f, j->src, j->len, W, H, j->pal, 256, NM_GX_PAL_RGB5A3, j->out);
}

int main(void)
{
	size_t max = (size_t)W * H * 8;
	uint8_t *src = malloc(max), *out = malloc((size_t)W * H * 4), *scratch = malloc(max);
	uint8_t pal[16384 * 2];
	srand(1);
	for (size_t i = 0; i < max; i++)
		src[i] = (uint8_t)rand();
	for (size_t i = 0; i < sizeof pal; i++)
		pal[i] = (uint8_t)rand();

	printf("Texture decode, %dx%d, best of 5 (ratio = decode time / memcpy of the encoded bytes)\n\n", W, H);
	printf("| codec | format   | Mpixel/s | x memcpy |\n|---|---|---:|---:|\n");
	for (int f = 0; f < NM_PICA_FORMAT_COUNT; f++) {
		struct pica_job j = { (nm_pica_format)f, src, nm_pica_level_size((nm_pica_format)f, W, H), out };
		row("PICA", nm_pica_format_name(j.f), best_of(pica_job_run, &j), j.len, src, scratch);
	}
	static const unsigned gx[] = { NM_GX_I4, NM_GX_I8, NM_GX_IA4, NM_GX_IA8, NM_GX_RGB565,
				       NM_GX_RGB5A3, NM_GX_RGBA8, NM_GX_C4, NM_GX_C8, NM_GX_C14X2,
				       NM_GX_CMPR };
	for (size_t i = 0; i < sizeof gx / sizeof gx[0]; i++) {
		struct gx_job j = { gx[i], src, nm_gx_level_size(gx[i], W, H), pal, out };
		row("GX", nm_gx_format_name(gx[i]), best_of(gx_job_run, &j), j.len, src, scratch);
	}

	/* Decompression: vertex-like data (floats with structure) of 8 MiB, in every GPU
	 * buffer codec; a memcpy of the same output size in the same run beside it. */
	size_t n = 8u << 20;
	uint8_t *plain = malloc(n), *back = malloc(n);
	float *fv = (float *)plain;
	for (size_t i = 0; i < n / 4; i++)
		fv[i] = (float)((i * 7919) % 1000) * 0.01f + (float)(i % 3);
	double mc = 1e9;
	for (int r = 0; r < 5; r++) {
		double t = now();
		memcpy(back, plain, n);
		t = now() - t;
		mc = t < mc ? t : mc;
	}
	printf("\nGPU buffer decode, 8 MiB of vertex-like data (MB/s of output, best of 3; "
	       "memcpy of 8 MiB: %.0f MB/s)\n\n", (double)n / mc / 1e6);
	printf("| tag | codec | compressed/plain | MB/s | x memcpy time |\n|---|---|---:|---:|---:|\n");
	for (uint32_t tag = 0; tag < NM_GPU_TAG_COUNT; tag++) {
		const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
		uint8_t *comp;
		size_t clen, used;
		if (nm_gpu_encode(tag, plain, n, &comp, &clen) != NM_OK)
			continue;
		double best = 1e9;
		for (int r = 0; r < 3; r++) {
			double t = now();
			if (nm_gpu_decode(comp, clen, back, n, &used) != NM_OK)
				printf("tag 0x%02x: decode failed\n", tag);
			t = now() - t;
			best = t < best ? t : best;
		}
		printf("| 0x%02x | %s | %.3f | %.0f | %.1f |\n", tag, c->label,
		       (double)clen / (double)n, (double)n / best / 1e6, best / mc);
		free(comp);
	}
	free(plain);
	free(back);
	free(src);
	free(out);
	free(scratch);
	return 0;
}
