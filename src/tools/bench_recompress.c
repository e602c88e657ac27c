/* bench_recompress FILE...: each compressed file (Yaz0, Yay0, LzS, LZ10/LZ11, an "LZ77"
 * tag allowed) decompressed, compressed again by our encoder and decoded back: a
 * markdown table of the original's size beside ours (what nmodel apply writes for an
 * unchanged stream; games size their buffers for their files, doc/apply.md) and the
 * encoder's speed. Exit status 1 when a round trip differs. Used by scripts/bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "lib/reader.h"

typedef struct codec {
	const char *name;
	bool (*probe)(const uint8_t *, size_t);
	nm_status (*header)(const uint8_t *, size_t, const char *, uint64_t *, nm_error *);
	nm_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, const char *, nm_error *,
			    size_t *);
} codec;

static const codec codecs[] = {
	{ "Yaz0", nm_yaz0_probe, nm_yaz0_header, nm_yaz0_decode },
	{ "Yay0", nm_yay0_probe, nm_yay0_header, nm_yay0_decode },
	{ "LzS", nm_lzs_probe, nm_lzs_header, nm_lzs_decode },
	{ "LZ10/LZ11", nm_lz_cx_probe, nm_lz_cx_header, nm_lz_cx_decode },
};

static nm_status encode(const codec *c, const uint8_t *orig, size_t olen, const uint8_t *plain,
			size_t n, nm_out *o)
{
	if (c->decode == nm_yaz0_decode)
		return nm_yaz0_encode(plain, n, o);
	if (c->decode == nm_yay0_decode)
		return nm_yay0_encode(plain, n, o);
	if (c->decode == nm_lzs_decode)
		return nm_lzs_encode(plain, n, o);
	size_t tag = nm_lz_cx_tag_len(orig, olen);
	nm_out_write(o, orig, tag);
	return nm_lz_cx_encode(nm_lz_cx_variant_of(orig, olen), plain, n, o);
}

/* The whole file, or NULL. */
static uint8_t *slurp(const char *path, size_t *len)
{
	nm_reader *r;
	nm_error err;
	uint8_t *b = NULL;
	if (nm_reader_open_file(path, &r, &err) != NM_OK)
		return NULL;
	*len = (size_t)nm_reader_size(r);
	if (nm_reader_load(r, 0, *len, NULL, &b, &err) != NM_OK)
		b = NULL;
	nm_reader_close(r);
	return b;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rc = 0;
	printf("| file | codec | plain | original | ours | ours vs original | encode MB/s |\n"
	       "|---|---|---:|---:|---:|---:|---:|\n");
	for (int a = 1; a < argc; a++) {
		const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
		size_t len;
		uint8_t *src = slurp(argv[a], &len);
		const codec *c = NULL;
		for (size_t k = 0; src && !c && k < sizeof codecs / sizeof *codecs; k++)
			if (codecs[k].probe(src, len))
				c = &codecs[k];
		uint64_t size;
		nm_error err;
		if (!c || c->header(src, len, base, &size, &err) != NM_OK) {
			printf("| %s | not compressed |\n", base);
			free(src);
			continue;
		}
		uint8_t *plain = malloc(size ? (size_t)size : 1), *back = malloc(size ? (size_t)size : 1);
		nm_out o;
		nm_out_init(&o);
		if (!plain || !back ||
		    c->decode(src, len, plain, (size_t)size, base, &err, NULL) != NM_OK) {
			printf("| %s | %s | does not decode |\n", base, c->name);
			rc = 1;
		} else {
			double t = now();
			nm_status st = encode(c, src, len, plain, (size_t)size, &o);
			t = now() - t;
			if (st != NM_OK ||
			    c->decode(o.data, o.len, back, (size_t)size, base, &err, NULL) !=
				    NM_OK ||
			    memcmp(back, plain, (size_t)size) != 0) {
				printf("| %s | %s | round trip differs |\n", base, c->name);
				rc = 1;
			} else {
				/* The original's stream: padding after it (archives pad to 32
				 * bytes) is part of the file, counted as it is. */
				printf("| %s | %s | %llu | %zu | %zu | %+.1f %% | %.1f |\n", base,
				       c->name, (unsigned long long)size, len, o.len,
				       100.0 * ((double)o.len - (double)len) / (double)len,
				       (double)size / t / 1e6);
			}
		}
		nm_out_free(&o);
		free(plain);
		free(back);
		free(src);
	}
	return rc;
}
