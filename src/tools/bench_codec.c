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
#include "config.h"
#include "codec/astc.h"
#include "codec/bcn.h"
#include "codec/gx.h"
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/tegra_swizzle.h"
#include "codec/inflate.h"
#include "codec/gpu_buffer.h"
#include "codec/pica.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "export/fmt_num.h"
#include "tests/fmt_printf.h"
#include "codec/etc1.h"
#ifdef HAVE_LIBETC1
#include <android/ETC1/etc1.h>
#endif

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

static double best_of_n(nm_status (*fn)(void *), void *arg, int runs)
{
	double best = 1e9;
	for (int r = 0; r < runs; r++) {
		double t = now();
		fn(arg);
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

static double best_of(nm_status (*fn)(void *), void *arg)
{
	return best_of_n(fn, arg, 5);
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

/* The image the encoders start from: RGBA8, a gradient with noise and flat areas. */
static void bench_image(uint8_t *img)
{
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			uint8_t *p = img + ((size_t)y * W + x) * 4;
			bool flat = (x / 128 + y / 128) % 3 == 0;
			p[0] = flat ? 40 : (uint8_t)(x / 4);
			p[1] = flat ? 90 : (uint8_t)(y / 4);
			p[2] = flat ? 200 : (uint8_t)((x * y) >> 8 ^ (unsigned)rand() % 16);
			p[3] = (uint8_t)(255 - (x + y) % 64);
		}
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
	bench_image(img);
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

/* The archive codecs (Yaz0, Yay0, LZ10, LZ11, LzS) on the same data as the GPU table,
 * with zlib's inflate of the same bytes (compressed at level 6) as the peer. */
static nm_status lz10_encode(const uint8_t *s, size_t n, nm_out *o) { return nm_lz_cx_encode(NM_LZ10, s, n, o); }
static nm_status lz11_encode(const uint8_t *s, size_t n, nm_out *o) { return nm_lz_cx_encode(NM_LZ11, s, n, o); }

static void archive_codecs(const uint8_t *plain, uint8_t *back, size_t n, double mc)
{
	static const struct {
		const char *name;
		nm_status (*encode)(const uint8_t *, size_t, nm_out *);
		nm_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, const char *, nm_error *,
				    size_t *);
	} lz[] = {
		{ "Yaz0", nm_yaz0_encode, nm_yaz0_decode }, { "Yay0", nm_yay0_encode, nm_yay0_decode },
		{ "LZ10", lz10_encode, nm_lz_cx_decode }, { "LZ11", lz11_encode, nm_lz_cx_decode },
		{ "LzS", nm_lzs_encode, nm_lzs_decode },
	};
	printf("\nArchive decompression, the same %zu MiB (MB/s of output, best of 7: the table "
	       "is short and a shared machine noisy; our encoders' streams; zlib's inflate of the "
	       "same data, level 6, as the peer)\n\n", n >> 20);
	printf("| codec | compressed/plain | MB/s | x memcpy time |\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i <= sizeof lz / sizeof lz[0]; i++) {
		bool zlib = i == sizeof lz / sizeof lz[0];
		nm_out o;
		nm_out_init(&o);
		nm_status st = NM_OK;
		uLongf zlen = compressBound(n);
		if (zlib) {
			uint8_t *z = nm_out_reserve(&o, zlen);
			st = z && compress2(z, &zlen, plain, n, 6) == Z_OK ? NM_OK : NM_E_NOMEM;
			o.len = zlen;
		} else {
			st = lz[i].encode(plain, n, &o);
		}
		if (st != NM_OK) {
			printf("| %s | encode failed |\n", zlib ? "zlib" : lz[i].name);
			nm_out_free(&o);
			continue;
		}
		double best = 1e9;
		for (int r = 0; r < 7; r++) {
			size_t got, used;
			nm_error err;
			double t = now();
			st = zlib ? nm_inflate_stream(o.data, o.len, back, n, &got, &used)
				  : lz[i].decode(o.data, o.len, back, n, "bench", &err, NULL);
			t = now() - t;
			best = t < best ? t : best;
		}
		if (st != NM_OK || memcmp(back, plain, n) != 0)
			printf("| %s | decode failed |\n", zlib ? "zlib" : lz[i].name);
		else
			printf("| %s | %.3f | %.0f | %.1f |\n", zlib ? "zlib (peer)" : lz[i].name,
			       (double)o.len / (double)n, (double)n / best / 1e6, best / mc);
		nm_out_free(&o);
	}
}

/* ETC1 against Android's libETC1 (the peer, when configure found it) on the same blocks.
 * The sides do different jobs, said in the table: nm_pica_decode reads PICA's layout
 * (8x8 tiles of four blocks in Z order, little-endian words) and writes RGBA8 rows;
 * libETC1 reads blocks row by row, big-endian words, and writes RGB888 rows. Each of
 * our kernels alone also decodes libETC1's very input (to RGBA8). The peer's input is
 * ours reordered and byte-swapped, so every row decodes the same image; the RGB of
 * every output is compared with libETC1's (without it, with nm_pica_decode's). */
#ifdef HAVE_LIBETC1
struct etc1_peer_job { const uint8_t *src; uint8_t *out; };
static nm_status etc1_peer_run(void *p)
{
	struct etc1_peer_job *j = p;
	return etc1_decode_image(j->src, j->out, W, H, 3, W * 3) ? NM_E_FORMAT : NM_OK;
}
#endif

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One kernel over row-major blocks of big-endian words, as libETC1 reads them. */
struct etc1_kernel_job { nm_etc1_decode_fn *fn; const uint8_t *src; uint8_t *out; };
static nm_status etc1_kernel_run(void *p)
{
	struct etc1_kernel_job *j = p;
	const uint8_t *b = j->src;
	for (unsigned by = 0; by < H; by += 4)
		for (unsigned bx = 0; bx < W; bx += 4, b += 8)
			j->fn(nm_etc1_word_be(b), NM_ETC1_OPAQUE, j->out + ((size_t)by * W + bx) * 4,
			      (size_t)W * 4);
	return NM_OK;
}

/* Blocks between PICA's order (tiles row-major, Z order inside a tile, LE words) and
 * libETC1's (row-major, BE words); to_pica picks the direction. */
static void etc1_reorder(const uint8_t *from, uint8_t *to, bool to_pica)
{
	for (size_t n = 0; n < (size_t)W * H / 16; n++) {
		size_t tile = n / 4, z = n % 4;
		size_t bx = tile % (W / 8) * 2 + (z & 1), by = tile / (W / 8) * 2 + (z >> 1);
		size_t lin = (by * (W / 4) + bx) * 8;
		for (size_t i = 0; i < 8; i++) {
			if (to_pica)
				to[n * 8 + i] = from[lin + 7 - i];
			else
				to[lin + i] = from[n * 8 + 7 - i];
		}
	}
}

/* Pixels whose RGB differ between an RGBA8 image and an RGB888 or RGBA8 one. */
static size_t etc1_rgb_diff(const uint8_t *rgba, const uint8_t *ref, size_t ref_px)
{
	size_t diff = 0;
	for (size_t i = 0; i < (size_t)W * H; i++)
		diff += memcmp(rgba + i * 4, ref + i * ref_px, 3) != 0;
	return diff;
}

static void etc1_input(const char *what, const uint8_t *pica, uint8_t *out, uint8_t *scratch)
{
	size_t blocks = (size_t)W / 4 * (H / 4);
	uint8_t *lin = malloc(blocks * 8), *peer = malloc((size_t)W * H * 4);
	etc1_reorder(pica, lin, false);
	/* ETC1A4 from the same colour blocks, each after 8 bytes of random alpha. */
	uint8_t *a4 = malloc(blocks * 16);
	for (size_t n = 0; n < blocks; n++) {
		for (int i = 0; i < 8; i++)
			a4[n * 16 + (size_t)i] = (uint8_t)rand();
		memcpy(a4 + n * 16 + 8, pica + n * 8, 8);
	}
	const char *best = NULL;
	nm_etc1_decoder(&best);
	struct pica_job e = { NM_PICA_ETC1, pica, blocks * 8, out };
	struct pica_job ea = { NM_PICA_ETC1A4, a4, blocks * 16, out };
	static const char *const kernels[] = { "AVX2", "SSE2", "portable" };
	struct etc1_kernel_job kj[3];
	struct { char what[120]; nm_status (*fn)(void *); void *arg; double t; } rows[6];
	int nrows = 0, peer_row = -1;
#define ETC1_ROW(fn_, arg_, ...) do { \
		snprintf(rows[nrows].what, sizeof rows[nrows].what, __VA_ARGS__); \
		rows[nrows].fn = fn_; rows[nrows].arg = arg_; rows[nrows++].t = 1e9; \
	} while (0)
	ETC1_ROW(pica_job_run, &e, "nm_pica_decode ETC1 (%s): PICA tiles, LE words -> RGBA8", best);
	ETC1_ROW(pica_job_run, &ea, "nm_pica_decode ETC1A4 (%s): the same + a 4-bit alpha per "
		 "pixel -> RGBA8", best);
	for (int k = 0; k < 3; k++) {
		kj[k] = (struct etc1_kernel_job){ nm_etc1_decoder_named(kernels[k]), lin, out };
		if (kj[k].fn)
			ETC1_ROW(etc1_kernel_run, &kj[k], "%s kernel alone: libETC1's input (row-major "
				 "blocks, BE words) -> RGBA8", kernels[k]);
	}
#ifdef HAVE_LIBETC1
	struct etc1_peer_job pj = { lin, peer };
	peer_row = nrows;
	ETC1_ROW(etc1_peer_run, &pj, "libETC1 etc1_decode_image: row-major blocks, BE words -> "
		 "RGB888");
#endif
#undef ETC1_ROW
	/* Turns, best of each, in thread CPU time: a busy machine slows every row alike,
	 * and a row that runs longer (libETC1) is not preempted more often for it. The
	 * memcpy is the other tables' (back to back, its buffers hot: the fastest it
	 * gets), once per turn. */
	double mc = 1e9;
	for (int r = 0; r < 20; r++) {
		for (int i = 0; i < nrows; i++) {
			double t = cpu_now();
			rows[i].fn(rows[i].arg);
			t = cpu_now() - t;
			rows[i].t = t < rows[i].t ? t : rows[i].t;
		}
		double t = memcpy_time(out, (size_t)W * H * 4, scratch);
		mc = t < mc ? t : mc;
	}
	/* Every row's RGB against the peer's (or, without it, nm_pica_decode ETC1's). */
	size_t ref_px = 3;
	if (peer_row < 0) {
		pica_job_run(&e);
		memcpy(peer, out, (size_t)W * H * 4);
		ref_px = 4;
	}
	char differ[200] = "";
	for (int i = 0; i < nrows; i++)
		if (i != peer_row && (rows[i].fn(rows[i].arg), etc1_rgb_diff(out, peer, ref_px)))
			snprintf(differ + strlen(differ), sizeof differ - strlen(differ), " row %d", i + 1);

	double px = (double)W * H / 1e6;
	for (int i = 0; i < nrows; i++) {
		char ratio[32] = "-";
		if (peer_row >= 0)
			snprintf(ratio, sizeof ratio, "%.2f", rows[peer_row].t / rows[i].t);
		printf("| %s | %s | %.1f | %s | %.1f %% |\n", what, rows[i].what, px / rows[i].t,
		       ratio, 100 * mc / rows[i].t);
	}
	if (peer_row < 0)
		printf("| %s | libETC1: not installed (Debian android-libetc1-dev), not measured "
		       "| - | - | - |\n", what);
	printf("| %s | memcpy of the RGBA8 output (%d bytes) | %.1f | | 100 %% |\n", what, W * H * 4,
	       px / mc);
	printf("| %s | RGB of every row against %s | %s%s | | |\n", what,
	       peer_row >= 0 ? "libETC1's" : "nm_pica_decode ETC1's (no peer)",
	       *differ ? "DIFFERENT:" : "identical", differ);
	free(lin);
	free(peer);
	free(a4);
}

static void etc1_table(const uint8_t *random, uint8_t *out, uint8_t *scratch)
{
	printf("\nETC1, %dx%d, best of 20 turns of every row (thread CPU time); speed also as a "
	       "share of a memcpy of the RGBA8 output (hot: best of 20 back to back, every turn)"
	       "\n\n", W, H);
	printf("| blocks | decoder | Mpixel/s | x libETC1 | of memcpy |\n|---|---|---:|---:|---:|\n");
	etc1_input("random", random, out, scratch);
#ifdef HAVE_LIBETC1
	/* Blocks as an encoder writes them (mostly differential, few clamps): libETC1's
	 * encoder on a smooth image with flat areas, stored in PICA's order. */
	uint8_t *img = malloc((size_t)W * H * 4), *lin = malloc((size_t)W * H / 2),
		*pica = malloc((size_t)W * H / 2);
	bench_image(img);
	for (size_t i = 0; i < (size_t)W * H; i++)   /* RGBA8 -> RGB888 in place */
		memmove(img + i * 3, img + i * 4, 3);
	etc1_encode_image(img, W, H, 3, W * 3, lin);
	etc1_reorder(lin, pica, true);
	etc1_input("encoded", pica, out, scratch);
	free(img);
	free(lin);
	free(pica);
#endif
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
	etc1_table(src, out, scratch);
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
	archive_codecs(plain, back, n, mc);
	free(plain);
	free(back);
	free(src);
	free(out);
	free(scratch);
	number_formatting();
	return 0;
}
