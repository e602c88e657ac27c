/* GPU buffers as one reader of their decompressed bytes, written back in their own
 * codec tags (rfrm.h: rfrm_gpu_stream_open). What an inverse inside a TXTR surface or a
 * model's buffer patches: src/edit decompresses it whole, patches, and calls encode,
 * which compresses each buffer again with its tag (codec/gpu_buffer.c), keeping each
 * buffer's decompressed size; the chunk's new length is laid out by the asset's form
 * (rfrm_form_repack). The decompressed bytes are made on the first read and kept until
 * the reader is closed: apply reads them once. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "formats/rfrm/rfrm.h"
#include "lib/alloc.h"

typedef struct gpu_stream {
	nm_reader *parent;
	uint64_t off, len;
	rfrm_gpu_part *parts;
	size_t n;
	uint64_t size;
	uint8_t *plain;            /* made on the first read */
	pthread_mutex_t lock;
	char *name;
} gpu_stream;

static nm_status stream_fill(gpu_stream *g, nm_error *err)
{
	const nm_options *opt = nm_reader_options(g->parent);
	uint8_t *plain = nm_alloc(opt, g->size ? g->size : 1, 1, err, g->name, "GPU", g->off);
	if (!plain)
		return err->code;
	uint8_t *src;
	nm_status s = nm_reader_load(g->parent, g->off, (size_t)g->len, "GPU", &src, err);
	uint64_t in = 0, at = 0;
	for (size_t i = 0; s == NM_OK && i < g->n; i++) {
		size_t used;
		if (nm_gpu_decode(src + in, (size_t)g->parts[i].comp, plain + at,
				  (size_t)g->parts[i].size, &used) != NM_OK)
			s = nm_fail(err, NM_E_FORMAT, g->name, "GPU", g->off + in, "buffer %zu does "
				    "not decode to its %llu bytes", i,
				    (unsigned long long)g->parts[i].size);
		in += g->parts[i].comp;
		at += g->parts[i].size;
	}
	if (s == NM_OK)
		g->plain = plain;
	else
		free(plain);
	free(src);
	return s;
}

static nm_status stream_read(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			     nm_error *err)
{
	gpu_stream *g = ctx;
	(void)chunk;
	pthread_mutex_lock(&g->lock);
	nm_status s = g->plain ? NM_OK : stream_fill(g, err);
	if (s == NM_OK)
		memcpy(buf, g->plain + off, len);
	pthread_mutex_unlock(&g->lock);
	return s;
}

static void stream_close(void *ctx)
{
	gpu_stream *g = ctx;
	pthread_mutex_destroy(&g->lock);
	free(g->plain);
	free(g->parts);
	free(g->name);
	free(g);
}

/* Each buffer compressed again in its tag (the original's four tag bytes kept). */
static nm_status stream_encode(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			       nm_error *err)
{
	gpu_stream *g = ctx;
	if (len != g->size)
		return nm_fail(err, NM_E_UNSUPPORTED, g->name, "GPU", g->off, "%zu bytes where "
			       "the buffers hold %llu: their sizes come from the asset's tables",
			       len, (unsigned long long)g->size);
	uint64_t at = 0;
	for (size_t i = 0; i < g->n; i++) {
		uint8_t *enc;
		size_t elen;
		nm_status s = nm_gpu_encode(g->parts[i].tag[0], plain + at, (size_t)g->parts[i].size,
					    &enc, &elen);
		if (s != NM_OK)
			return nm_fail(err, s, g->name, "GPU", g->off, "buffer %zu cannot be "
				       "compressed again", i);
		memcpy(enc, g->parts[i].tag, NM_GPU_TAG_LEN);
		nm_out_write(out, enc, elen);
		free(enc);
		at += g->parts[i].size;
	}
	return nm_out_status(out);
}

static const nm_source_ops stream_ops = { .read = stream_read, .close = stream_close };

nm_status rfrm_gpu_parts(nm_reader *r, uint64_t off, uint64_t len, rfrm_gpu_part **parts,
			 size_t *n, nm_error *err)
{
	const char *name = nm_reader_name(r);
	uint8_t *src;
	nm_status s = nm_reader_load(r, off, (size_t)len, "GPU", &src, err);
	if (s != NM_OK)
		return s;
	size_t cap = 4, k = 0;
	rfrm_gpu_part *p = malloc(cap * sizeof *p);
	uint64_t at = 0, max = nm_reader_options(r)->max_file_size;
	while (s == NM_OK && p && at < len) {
		size_t plain, used;
		if (!nm_gpu_codec_of(src + at) || len - at < NM_GPU_TAG_LEN) {
			s = nm_fail(err, NM_E_FORMAT, name, "GPU", off + at, "no known codec tag "
				    "(%02x %02x %02x %02x) where a buffer starts", src[at],
				    len - at > 1 ? src[at + 1] : 0, len - at > 2 ? src[at + 2] : 0,
				    len - at > 3 ? src[at + 3] : 0);
			break;
		}
		if (nm_gpu_measure(src + at, (size_t)(len - at), (size_t)max, &plain, &used) != NM_OK ||
		    used == 0) {
			s = nm_fail(err, NM_E_FORMAT, name, "GPU", off + at, "a buffer that does "
				    "not decode");
			break;
		}
		if (k == cap) {
			rfrm_gpu_part *q = realloc(p, (cap *= 2) * sizeof *p);
			if (!q)
				break;
			p = q;
		}
		p[k] = (rfrm_gpu_part){ .comp = used, .size = plain };
		memcpy(p[k++].tag, src + at, NM_GPU_TAG_LEN);
		at += used;
	}
	free(src);
	if (s == NM_OK && (!p || at < len)) {
		free(p);
		return nm_fail(err, NM_E_NOMEM, name, "GPU", off, "out of memory");
	}
	if (s != NM_OK) {
		free(p);
		return s;
	}
	*parts = p;
	*n = k;
	return NM_OK;
}

nm_status rfrm_gpu_stream_open(nm_tree *t, nm_reader *parent, uint64_t off,
			       const rfrm_gpu_part *parts, size_t n, const char *name,
			       nm_reader **out, nm_error *err)
{
	gpu_stream *g = calloc(1, sizeof *g);
	if (g) {
		g->parts = malloc((n ? n : 1) * sizeof *g->parts);
		g->name = strdup(name);
	}
	if (!g || !g->parts || !g->name) {
		if (g) {
			free(g->parts);
			free(g->name);
		}
		free(g);
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	}
	memcpy(g->parts, parts, n * sizeof *parts);
	g->n = n;
	g->parent = parent;
	g->off = off;
	for (size_t i = 0; i < n; i++) {
		g->len += parts[i].comp;
		g->size += parts[i].size;
	}
	pthread_mutex_init(&g->lock, NULL);
	nm_reader *r;
	nm_status s = nm_reader_new_source(name, g->size, &stream_ops, g, &r, err);
	if (s != NM_OK) {
		stream_close(g);
		return s;
	}
	if (off > nm_reader_size(parent) || g->len > nm_reader_size(parent) - off) {
		nm_reader_close(r);
		return nm_fail(err, NM_E_FORMAT, name, "GPU", off, "buffers of 0x%llx bytes run "
			       "past the end of %s", (unsigned long long)g->len,
			       nm_reader_name(parent));
	}
	nm_reader_set_depth(r, nm_reader_depth(parent));
	nm_reader_set_origin(r, &(nm_reader_origin){ .parent = parent, .off = off, .len = g->len,
						     .encode = stream_encode, .ctx = g });
	if (nm_tree_adopt_reader(t, r) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	*out = r;
	return NM_OK;
}
