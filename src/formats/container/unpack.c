/* Readers of compressed bytes (a Yaz0 file, a compressed RARC member, an LzS-wrapped
 * GAR). The decompressed bytes live in the tree's cache, never in a buffer of our own:
 * counted in cache_size, decoded again when evicted, pinned while a member's parse uses
 * them. Reads near the start decode only a prefix, so mounting a wrapped archive, which
 * reads its header and table of contents, does not decompress the members. A damaged
 * stream (cut short, a back-reference before its start) is kept as far as it decodes:
 * the members before the damage read as they are, a read reaching past it fails with
 * the decoder's message (where in the stream, and at which output byte). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "formats/container/container.h"
#include "lib/alloc.h"
#include "lib/cache.h"

typedef struct codec_ops {
	const char *name;
	bool (*probe)(const uint8_t *head, size_t len);
	nm_status (*header)(const uint8_t *src, size_t len, const char *name, uint64_t *size,
			    nm_error *err);
	nm_status (*decode)(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
			    const char *name, nm_error *err, size_t *done);
	uint64_t (*input_bound)(uint64_t n);
} codec_ops;

static const codec_ops codecs[NM_CODEC_COUNT] = {
	[NM_CODEC_YAZ0] = { "Yaz0", nm_yaz0_probe, nm_yaz0_header, nm_yaz0_decode,
			    nm_yaz0_input_bound },
	[NM_CODEC_YAY0] = { "Yay0", nm_yay0_probe, nm_yay0_header, nm_yay0_decode,
			    nm_yay0_input_bound },
	[NM_CODEC_LZS] = { "LzS", nm_lzs_probe, nm_lzs_header, nm_lzs_decode,
			   nm_lzs_input_bound },
	[NM_CODEC_LZCX] = { "LZ10/LZ11", nm_lz_cx_probe, nm_lz_cx_header, nm_lz_cx_decode,
			    nm_lz_cx_input_bound },
};

/* Enough for every header above (LZ11 may carry a 32-bit size after its first four). */
#define HEADER_MAX 16

const char *nm_codec_name(nm_codec_id id, const uint8_t *head, size_t len)
{
	if (id == NM_CODEC_LZCX && len > 0) {
		bool lz11 = nm_lz_cx_variant_of(head, len) == NM_LZ11;
		if (nm_lz_cx_tag_len(head, len))
			return lz11 ? "LZ11 (LZ77 tag)" : "LZ10 (LZ77 tag)";
		return lz11 ? "LZ11" : "LZ10";
	}
	return id > NM_CODEC_NONE && id < NM_CODEC_COUNT ? codecs[id].name : NULL;
}

nm_codec_id nm_codec_probe(const uint8_t *head, size_t len)
{
	for (int id = NM_CODEC_NONE + 1; id < NM_CODEC_COUNT; id++)
		if (codecs[id].probe(head, len))
			return (nm_codec_id)id;
	return NM_CODEC_NONE;
}

typedef struct unpack {
	nm_cache *cache;
	nm_reader *parent;
	uint64_t off, len;          /* the compressed stream in parent */
	const codec_ops *c;
	char *name;
	uint64_t size;              /* decompressed, as the header says */
	uint64_t prefix;            /* the cached prefix's length; 0: none (small stream) */
	char full_key, prefix_key;  /* their addresses are the cache keys */
	pthread_mutex_t lock;       /* pins, held */
	unsigned pins;
	nm_cache_entry *held;
	/* A damaged stream: its first `good` output bytes decode, the next fails with
	 * `damage`. Its bytes never change, so that is found once: the cache keeps the good
	 * bytes, and a read past them gets the message without decoding again (each member
	 * read of a damaged archive decoded the stream whole, only to fail: 57 times for one
	 * 13 KiB fuzzed Yaz0 RARC). */
	pthread_mutex_t damage_lock; /* not lock: unpack_pin decodes holding that */
	uint64_t good;               /* UINT64_MAX: not seen damaged */
	nm_error damage;
} unpack;

/* The damage's message into err; its status. */
static nm_status damaged(unpack *u, nm_error *err)
{
	pthread_mutex_lock(&u->damage_lock);
	nm_error e = u->damage;
	pthread_mutex_unlock(&u->damage_lock);
	if (err)
		*err = e;
	return e.code;
}

/* The first want bytes of the output into o, or as many of them as come before the
 * stream's damage (NM_OK all the same: u->good says where it is). The output is
 * reserved first (the larger buffer, refused under max_file_size before anything is
 * read), then only as much input as want can take. */
static nm_status decode_into(unpack *u, uint64_t want, nm_out *o, nm_error *err)
{
	pthread_mutex_lock(&u->damage_lock);
	if (want > u->good)
		want = u->good;   /* known to decode: the decoder will not fail */
	pthread_mutex_unlock(&u->damage_lock);
	uint64_t in = u->c->input_bound(want);
	if (in > u->len)
		in = u->len;
	uint8_t *dst = nm_out_reserve(o, want > SIZE_MAX ? SIZE_MAX : (size_t)want);
	if (!dst)
		return nm_out_status(o) == NM_E_LIMIT
			       ? nm_fail_limit(err, o->opt, want, u->name, NULL, NM_NO_OFFSET)
			       : nm_fail(err, NM_E_NOMEM, u->name, NULL, NM_NO_OFFSET,
					 "out of memory");
	uint8_t *src;
	nm_status s = nm_reader_load(u->parent, u->off, (size_t)in, u->c->name, &src, err);
	if (s != NM_OK)
		return s;
	nm_error e;
	size_t done = 0;
	s = u->c->decode(src, (size_t)in, dst, (size_t)want, u->name, &e, &done);
	free(src);
	if (s == NM_E_FORMAT) {
		/* Decoding is sequential: every longer output fails at the same byte. */
		pthread_mutex_lock(&u->damage_lock);
		if (done < u->good) {
			u->good = done;
			u->damage = e;
		}
		pthread_mutex_unlock(&u->damage_lock);
		s = NM_OK;
	} else if (s != NM_OK && err) {
		*err = e;
	}
	if (s == NM_OK)
		o->len += done;
	return s;
}

static nm_status fill_full(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	unpack *u = ctx;
	(void)arg;
	return decode_into(u, u->size, o, err);
}

static nm_status fill_prefix(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	unpack *u = ctx;
	(void)arg;
	return decode_into(u, u->prefix, o, err);
}

static nm_status unpack_read(void *ctx, uint64_t off, void *buf, size_t len,
			     const char *chunk, nm_error *err)
{
	unpack *u = ctx;
	uint64_t end = off + len;   /* within size: the reader checked */
	nm_cache_entry *e = nm_cache_peek(u->cache, &u->full_key);
	nm_status s = NM_OK;
	(void)chunk;
	if (!e && end <= NM_PROBE_BYTES && end < u->size) {
		/* A probe: decode just these bytes, cache nothing. */
		nm_out o;
		nm_out_init(&o);
		s = decode_into(u, end, &o, err);
		if (s == NM_OK && o.len < end)
			s = damaged(u, err);
		if (s == NM_OK)
			memcpy(buf, o.data + off, len);
		nm_out_free(&o);
		return s;
	}
	if (!e) {
		bool prefix = end <= u->prefix;
		s = nm_cache_get(u->cache, prefix ? &u->prefix_key : &u->full_key,
				 prefix ? fill_prefix : fill_full, u, NULL, &e, err);
		if (s != NM_OK)
			return s;
	}
	if (end <= nm_cache_len(e))
		memcpy(buf, nm_cache_data(e) + off, len);
	else
		s = damaged(u, err);   /* the entry holds the bytes before the damage */
	nm_cache_release(u->cache, e);
	return s;
}

static nm_status unpack_pin(void *ctx, nm_error *err)
{
	unpack *u = ctx;
	nm_status s = NM_OK;
	pthread_mutex_lock(&u->lock);
	if (u->pins == 0)
		s = nm_cache_get(u->cache, &u->full_key, fill_full, u, NULL, &u->held, err);
	if (s == NM_OK)
		u->pins++;
	pthread_mutex_unlock(&u->lock);
	return s;
}

static void unpack_unpin(void *ctx)
{
	unpack *u = ctx;
	pthread_mutex_lock(&u->lock);
	if (--u->pins == 0) {
		nm_cache_release(u->cache, u->held);
		u->held = NULL;
	}
	pthread_mutex_unlock(&u->lock);
}

static void unpack_close(void *ctx)
{
	unpack *u = ctx;
	/* The keys are u's addresses: once u is freed (the folder that listed it evicted,
	 * under the FUSE daemon) another reader may be given them. */
	nm_cache_forget(u->cache, &u->full_key);
	nm_cache_forget(u->cache, &u->prefix_key);
	pthread_mutex_destroy(&u->lock);
	pthread_mutex_destroy(&u->damage_lock);
	free(u->name);
	free(u);
}

/* The stored bytes of new decompressed bytes (apply, src/edit): a stream in the codec
 * and header the original has. What a decoder ignores is kept as it was: Yaz0's eight
 * bytes after the size (Wii files put an alignment there), LzS's unknown word, an LZ77
 * tag and the LZ10/LZ11 variant. The encoders parse at the cheapest (nm_lz_parse)
 * (doc/apply.md says how their size compares). */
static nm_status reencode(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			  nm_error *err)
{
	unpack *u = ctx;
	uint8_t head[HEADER_MAX];
	size_t hlen = u->len < sizeof head ? (size_t)u->len : sizeof head;
	nm_status s = nm_reader_read(u->parent, u->off, head, hlen, u->c->name, err);
	if (s != NM_OK)
		return s;
	size_t start = out->len;
	if (u->c == &codecs[NM_CODEC_YAZ0]) {
		s = nm_yaz0_encode(plain, len, out);
		if (s == NM_OK && hlen >= 16)
			memcpy(out->data + start + 8, head + 8, 8);
	} else if (u->c == &codecs[NM_CODEC_YAY0]) {
		s = nm_yay0_encode(plain, len, out);
	} else if (u->c == &codecs[NM_CODEC_LZS]) {
		s = nm_lzs_encode(plain, len, out);
		if (s == NM_OK && hlen >= 8)
			memcpy(out->data + start + 4, head + 4, 4);
	} else {
		size_t tag = nm_lz_cx_tag_len(head, hlen);
		nm_out_write(out, head, tag);
		s = nm_lz_cx_encode(nm_lz_cx_variant_of(head, hlen), plain, len, out);
	}
	if (s != NM_OK)
		return nm_fail(err, s, u->name, u->c->name, NM_NO_OFFSET,
			       "cannot compress %zu bytes again", len);
	return NM_OK;
}

static const nm_source_ops unpack_ops = {
	.read = unpack_read, .pin = unpack_pin, .unpin = unpack_unpin, .close = unpack_close,
};

nm_status nm_unpack_open(nm_tree *t, nm_reader *parent, uint64_t off, uint64_t len,
			 nm_codec_id codec, const char *name, nm_reader **out, nm_error *err)
{
	if (codec <= NM_CODEC_NONE || codec >= NM_CODEC_COUNT)
		return nm_fail(err, NM_E_INVAL, name, NULL, NM_NO_OFFSET, "unknown codec %d",
			       (int)codec);
	const codec_ops *c = &codecs[codec];
	uint64_t psize = nm_reader_size(parent);
	if (off > psize || len > psize - off)
		return nm_fail(err, NM_E_FORMAT, nm_reader_name(parent), name, off,
			       "member of 0x%llx bytes runs past the end of the file (0x%llx)",
			       (unsigned long long)len, (unsigned long long)psize);
	uint8_t head[HEADER_MAX];
	size_t hlen = len < sizeof head ? (size_t)len : sizeof head;
	uint64_t size;
	nm_status s = nm_reader_read(parent, off, head, hlen, c->name, err);
	if (s == NM_OK)
		s = c->header(head, hlen, name, &size, err);
	if (s != NM_OK)
		return s;
	unpack *u = calloc(1, sizeof *u);
	if (!u || !(u->name = strdup(name))) {
		free(u);
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	}
	u->cache = nm_tree_cache(t);
	u->parent = parent;
	u->off = off;
	u->len = len;
	u->c = c;
	u->size = size;
	u->prefix = size > NM_UNPACK_PREFIX ? NM_UNPACK_PREFIX : 0;
	u->good = UINT64_MAX;
	pthread_mutex_init(&u->lock, NULL);
	pthread_mutex_init(&u->damage_lock, NULL);
	nm_reader *r;
	s = nm_reader_new_source(name, size, &unpack_ops, u, &r, err);
	if (s != NM_OK) {
		unpack_close(u);
		return s;
	}
	nm_reader_set_depth(r, nm_reader_depth(parent) + 1);
	nm_reader_set_origin(r, &(nm_reader_origin){ .parent = parent, .off = off, .len = len,
						     .encode = reencode, .ctx = u });
	if (nm_tree_adopt_reader(t, r) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	*out = r;
	return NM_OK;
}
