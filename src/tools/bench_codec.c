/* bench_codec: decode throughput of every texture format (Mpixel/s, and the ratio to a
 * plain memcpy of the same encoded bytes on the same run), of the Switch texture path
 * (Tegra deswizzle, then ASTC/BCn/RGBA8) and of the decompressors (MB/s of output).
 * Used by scripts/bench; prints markdown tables. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/gx.h"
#include "codec/tegra_swizzle.h"
#include "codec/inflate.h"
#include "codec/gpu_buffer.h"
#include "codec/pica.h"
#include "export/fmt_num.h"
#include "tests/fmt_printf.h"

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

/* The Switch texture path: a level stored block-linear, deswizzled into rows of blocks
 * and decoded to RGBA8. Blocks come from the libraries' encoders (a gradient image with
 * noise and flat areas, so that every kind of block shows up), not from random bytes,
 * which ASTC mostly reads as error blocks. */
enum { SW_RGBA8, SW_BCN, SW_ASTC, SW_ASTC_LIB };

struct switch_job {
	int kind;
	unsigned bw, bh;
	nm_bcn_format bcn;
	const uint8_t *sw;
	size_t sw_len, lin_len;
	uint64_t row_bytes, rows;
	unsigned block_height;
	uint8_t *lin, *out;
	int decode;   /* 0: deswizzle only */
};

static nm_status switch_job_run(void *p)
{
	struct switch_job *j = p;
	nm_status s = nm_tegra_deswizzle(j->sw, j->sw_len, j->row_bytes, j->rows, j->block_height,
					 j->kind == SW_RGBA8 ? j->out : j->lin);
	if (s != NM_OK || !j->decode)
		return s;
	switch (j->kind) {
	case SW_BCN: return nm_bcn_decode(j->bcn, j->lin, j->lin_len, W, H, j->out);
	case SW_ASTC: return nm_astc_decode(NULL, j->bw, j->bh, false, j->lin, j->lin_len, W, H, j->out);
	case SW_ASTC_LIB: return nm_astc_decode_reference(j->bw, j->bh, j->lin, j->lin_len, W, H, j->out);
	}
	return NM_OK;
}

static void switch_textures(uint8_t *scratch)
{
	static const struct { const char *name; int kind; unsigned bw, bh; nm_bcn_format bcn; } fmts[] = {
		{ "RGBA8", SW_RGBA8, 1, 1, NM_BC1 },
		{ "BC1", SW_BCN, 4, 4, NM_BC1 }, { "BC2", SW_BCN, 4, 4, NM_BC2 },
		{ "BC3", SW_BCN, 4, 4, NM_BC3 }, { "BC4", SW_BCN, 4, 4, NM_BC4 },
		{ "BC5", SW_BCN, 4, 4, NM_BC5 },
		{ "ASTC_4x4", SW_ASTC, 4, 4, NM_BC1 }, { "ASTC_5x4", SW_ASTC, 5, 4, NM_BC1 },
		{ "ASTC_6x6", SW_ASTC, 6, 6, NM_BC1 }, { "ASTC_8x5", SW_ASTC, 8, 5, NM_BC1 },
		{ "ASTC_8x8", SW_ASTC, 8, 8, NM_BC1 }, { "ASTC_12x12", SW_ASTC, 12, 12, NM_BC1 },
		{ "ASTC_8x5 (libastcenc's own 8-bit decode, not used)", SW_ASTC_LIB, 8, 5, NM_BC1 },
	};
	uint8_t *img = malloc((size_t)W * H * 4), *out = malloc((size_t)W * H * 4);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			uint8_t *p = img + ((size_t)y * W + x) * 4;
			bool flat = (x / 128 + y / 128) % 3 == 0;
			p[0] = flat ? 40 : (uint8_t)(x / 4);
			p[1] = flat ? 90 : (uint8_t)(y / 4);
			p[2] = flat ? 200 : (uint8_t)((x * y) >> 8 ^ (unsigned)rand() % 16);
			p[3] = (uint8_t)(255 - (x + y) % 64);
		}
	printf("\nSwitch textures, %dx%d level stored block-linear: Tegra deswizzle, then decode "
	       "to RGBA8 (best of 5; memcpy of the same stored bytes in the same run)\n\n", W, H);
	printf("| format | stored bytes | deswizzle + decode Mpixel/s | deswizzle alone Mpixel/s | "
	       "memcpy Mpixel/s | x memcpy |\n|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		struct switch_job j = { .kind = fmts[i].kind, .bw = fmts[i].bw, .bh = fmts[i].bh,
					.bcn = fmts[i].bcn, .out = out, .decode = 1 };
		unsigned bytes = j.kind == SW_RGBA8 ? 4 : j.kind == SW_BCN ? nm_bcn_block_bytes(j.bcn) : 16;
		j.row_bytes = (uint64_t)((W + j.bw - 1) / j.bw) * bytes;
		j.rows = (H + j.bh - 1) / j.bh;
		j.lin_len = (size_t)(j.row_bytes * j.rows);
		j.block_height = nm_tegra_block_height(j.rows);
		j.sw_len = (size_t)nm_tegra_level_size(j.row_bytes, j.rows, j.block_height);
		uint8_t *blocks = malloc(j.lin_len), *sw = malloc(j.sw_len);
		j.lin = malloc(j.lin_len);
		nm_status s = j.kind == SW_RGBA8 ? (memcpy(blocks, img, j.lin_len), NM_OK)
			    : j.kind == SW_BCN ? nm_squish_encode(j.bcn, img, W, H, blocks, j.lin_len)
			    : nm_astc_encode(j.bw, j.bh, img, W, H, blocks, j.lin_len);
		if (s == NM_OK)
			s = nm_tegra_swizzle(blocks, j.row_bytes, j.rows, j.block_height, sw, j.sw_len);
		j.sw = sw;
		if (s != NM_OK || switch_job_run(&j) != NM_OK) {
			printf("| %s | setup failed |\n", fmts[i].name);
			continue;
		}
		double both = best_of(switch_job_run, &j);
		j.decode = 0;
		double des = best_of(switch_job_run, &j);
		double mc = memcpy_time(sw, j.sw_len, scratch);
		double px = (double)W * H / 1e6;
		printf("| %s | %zu | %.1f | %.1f | %.0f | %.1f |\n", fmts[i].name, j.sw_len, px / both,
		       px / des, px / mc, both / mc);
		free(blocks);
		free(sw);
		free(j.lin);
	}
	nm_astc_release();
	free(img);
	free(out);
}

/* Number formatting: fmt_num against the printf code it replaced, on the same values in
 * the same run (ns per value, best of 3). Vertex-like floats (what CSV and OBJ files
 * hold) and random bit patterns (every exponent, NaNs included). */
#define NFMT 200000

static volatile size_t fmt_sink;

enum { FMT_SHORTEST, FMT_SCI, FMT_UINT };

static double fmt_time(int what, int ours, const float *f, const uint64_t *u)
{
	char b[NM_PRINTF_BUF];
	double best = 1e9;
	for (int r = 0; r < 3; r++) {
		size_t sum = 0;
		int digits;
		double t = now();
		for (size_t i = 0; i < NFMT; i++) {
			switch (what * 2 + !ours) {
			case FMT_SHORTEST * 2: sum += nm_fmt_shortest(b, f[i]); break;
			case FMT_SHORTEST * 2 + 1: nm_printf_shortest(b, f[i], &digits); break;
			case FMT_SCI * 2: nm_fmt_sci(b, f[i]); break;
			case FMT_SCI * 2 + 1: nm_printf_sci(b, f[i]); break;
			case FMT_UINT * 2: sum += nm_fmt_uint_width(b, u[i], 6); break;
			case FMT_UINT * 2 + 1: snprintf(b, sizeof b, "%*llu", 6, (unsigned long long)u[i]); break;
			}
			sum += (unsigned char)b[1];
		}
		t = now() - t;
		fmt_sink += sum;
		best = t < best ? t : best;
	}
	return best / NFMT * 1e9;
}

static void number_formatting(void)
{
	float *vert = malloc(NFMT * sizeof *vert), *bits = malloc(NFMT * sizeof *bits);
	uint64_t *idx = malloc(NFMT * sizeof *idx);
	uint32_t s = 1;
	for (size_t i = 0; i < NFMT; i++) {
		s ^= s << 13, s ^= s >> 17, s ^= s << 5;
		/* positions within +-100, unit normals and texcoords, as a mesh has them */
		vert[i] = i % 3 == 0 ? (float)((int32_t)s % 200000) * 0.001f
			: i % 3 == 1 ? (float)((int32_t)s % 1000) * 0.000999f : (float)(s % 4096) / 4096.0f;
		memcpy(&bits[i], &s, sizeof s);
		idx[i] = s % 100000;
	}
	static const struct { const char *name; int what; int random; } rows[] = {
		{ "shortest %.*g (text, ASCII CMOD)", FMT_SHORTEST, 0 },
		{ "shortest %.*g, random bits", FMT_SHORTEST, 1 },
		{ "%+.8e (CSV, OBJ)", FMT_SCI, 0 },
		{ "%+.8e, random bits", FMT_SCI, 1 },
		{ "%*llu (CSV indices)", FMT_UINT, 0 },
	};
	printf("\nNumber formatting, %d values (ns per value, best of 3; printf and strtof in the "
	       "same run)\n\n", NFMT);
	printf("| format | fmt_num ns | printf ns | x faster |\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const float *f = rows[i].random ? bits : vert;
		double ours = fmt_time(rows[i].what, 1, f, idx), theirs = fmt_time(rows[i].what, 0, f, idx);
		printf("| %s | %.1f | %.1f | %.1f |\n", rows[i].name, ours, theirs, theirs / ours);
	}
	free(vert);
	free(bits);
	free(idx);
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
	switch_textures(scratch);

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
	number_formatting();
	return 0;
}
