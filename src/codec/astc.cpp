/* ASTC through libastcenc (see astc.h). C++ only because astcenc.h is a C++ header;
 * built without exceptions or RTTI and using nothing of the C++ library, so the C
 * programs link it as they are. */

/* Debian's libastcenc is the shared build, whose API is extern "C"; the header only
 * says so when told. */
#define ASTCENC_DYNAMIC_LIBRARY 1
#include <astcenc.h>
#include <pthread.h>
#include <string.h>

extern "C" {
#include "codec/astc.h"
#include "lib/alloc.h"
#include "lib/bands.h"
}

namespace {

/* Decoding contexts, one per block size and profile in use: a model's textures mix
 * sizes (the corpus's TXTRs 8x5 and 5x4), and a context costs milliseconds to build
 * (its partition tables) and up to 33 MiB (astc.h). A decode only reads its context
 * (astcenc_get_block_info), so any number of decodes share one at once: the lock is
 * held to find or claim a slot, not while a context is built or used. At most SLOTS
 * are kept; the least recently used one not in use is rebuilt for another size. */
constexpr unsigned SLOTS = 3;
struct decoder_slot {
	astcenc_context *ctx;
	unsigned bw, bh;
	astcenc_profile profile;
	unsigned users;      /* decodes using it now */
	unsigned long used;  /* when it was last handed out */
	bool building;       /* its context is being built (ctx still NULL) */
};
struct decoder_slots {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* a slot's users fell to 0, or its building ended */
	decoder_slot slot[SLOTS];
	unsigned long clock;
	unsigned long made;     /* contexts built, for the tests */
};
decoder_slots decoders = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {}, 0, 0 };

const unsigned sizes[][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 }, { 6, 6 }, { 8, 5 },
			      { 8, 6 }, { 8, 8 }, { 10, 5 }, { 10, 6 }, { 10, 8 },
			      { 10, 10 }, { 12, 10 }, { 12, 12 } };

/* A decompress-only context for this block size and profile, made now. */
nm_status new_decoder(unsigned bw, unsigned bh, astcenc_profile profile, astcenc_context **out)
{
	astcenc_config cfg;
	if (astcenc_config_init(profile, bw, bh, 1, ASTCENC_PRE_FASTEST,
				ASTCENC_FLG_DECOMPRESS_ONLY, &cfg) != ASTCENC_SUCCESS)
		return NM_E_INVAL;
	astcenc_error e = astcenc_context_alloc(&cfg, 1, out);
	if (e != ASTCENC_SUCCESS) {
		*out = nullptr;
		return e == ASTCENC_ERR_OUT_OF_MEM ? NM_E_NOMEM : NM_E_UNSUPPORTED;
	}
	return NM_OK;
}

/* Under the lock: the slot kept (or being built) for this size and profile, or NULL. */
decoder_slot *slot_of(unsigned bw, unsigned bh, astcenc_profile profile)
{
	for (decoder_slot &s : decoders.slot)
		if ((s.ctx || s.building) && s.bw == bw && s.bh == bh && s.profile == profile)
			return &s;
	return nullptr;
}

/* Under the lock: a slot to build a context in (an empty one, else the least recently
 * used no decode holds, its context freed), marked building for this size; NULL when
 * every slot is in use or being built. */
decoder_slot *claim(unsigned bw, unsigned bh, astcenc_profile profile)
{
	decoder_slot *spare = nullptr;
	for (decoder_slot &s : decoders.slot)
		if (s.users == 0 && !s.building &&
		    (!spare || (spare->ctx && (!s.ctx || s.used < spare->used))))
			spare = &s;
	if (!spare)
		return nullptr;
	if (spare->ctx)
		astcenc_context_free(spare->ctx);
	*spare = decoder_slot{ nullptr, bw, bh, profile, 0, 0, true };
	return spare;
}

/* A claimed slot's building ends: with ctx, held by users (1: the decode that claimed
 * it, 0: nm_astc_prepare's thread), or with none (the slot is empty again); waiters
 * look again. */
void built(decoder_slot *s, astcenc_context *ctx, unsigned users)
{
	pthread_mutex_lock(&decoders.lock);
	if (ctx) {
		*s = decoder_slot{ ctx, s->bw, s->bh, s->profile, users, ++decoders.clock, false };
		decoders.made++;
	} else {
		*s = decoder_slot{};
	}
	pthread_cond_broadcast(&decoders.changed);
	pthread_mutex_unlock(&decoders.lock);
}

/* Builds a claimed slot's context, outside the lock. */
nm_status build(decoder_slot *s, unsigned users)
{
	astcenc_context *ctx;
	nm_status st = new_decoder(s->bw, s->bh, s->profile, &ctx);
	built(s, st == NM_OK ? ctx : nullptr, users);
	return st;
}

/* The slot holding a context for this size and profile, its users counted: found,
 * waited for while it is being built, or built in a free slot, waiting for one while
 * all are in use. */
nm_status decoder_acquire(unsigned bw, unsigned bh, astcenc_profile profile,
			  decoder_slot **out)
{
	decoder_slots &d = decoders;
	pthread_mutex_lock(&d.lock);
	for (;;) {
		decoder_slot *s = slot_of(bw, bh, profile);
		if (s && !s->building) {
			s->users++;
			s->used = ++d.clock;
			*out = s;
			pthread_mutex_unlock(&d.lock);
			return NM_OK;
		}
		if (!s && (s = claim(bw, bh, profile))) {
			pthread_mutex_unlock(&d.lock);
			*out = s;
			return build(s, 1);
		}
		pthread_cond_wait(&d.changed, &d.lock);
	}
}

void decoder_release(decoder_slot *s)
{
	pthread_mutex_lock(&decoders.lock);
	if (--s->users == 0)
		pthread_cond_broadcast(&decoders.changed);
	pthread_mutex_unlock(&decoders.lock);
}

void *build_ahead(void *slot)
{
	build(static_cast<decoder_slot *>(slot), 0);
	return nullptr;
}

inline uint8_t to_unorm8(uint32_t c16) { return (uint8_t)((c16 * 255u + 32768u) >> 16); }

/* libastcenc gives endpoints as FP16 values of e * 257 / 65536 (8-bit e, in both LDR
 * profiles): 11 significant bits are plenty to get e back. */
inline uint32_t endpoint8(float f)
{
	float v = f * 255.0f + 0.5f;
	return v <= 0.0f ? 0u : v >= 255.0f ? 255u : (uint32_t)v;
}

/* Weights are texel weights 0..64 over 16 (WEIGHTS_TEXEL_SUM): exact in a float. */
inline uint32_t weight64(float f)
{
	float v = f * 16.0f + 0.5f;
	return v <= 0.0f ? 0u : v >= 64.0f ? 64u : (uint32_t)v;
}

struct block_out {
	uint8_t *rgba;
	unsigned w, h, x0, y0, bw, bh;
};

void fill(const block_out &b, const uint8_t px[4])
{
	for (unsigned y = 0; y < b.bh && b.y0 + y < b.h; y++)
		for (unsigned x = 0; x < b.bw && b.x0 + x < b.w; x++)
			memcpy(b.rgba + ((size_t)(b.y0 + y) * b.w + b.x0 + x) * 4, px, 4);
}

void constant_block(const block_out &b, const uint8_t *blk, bool srgb)
{
	/* Bit 9: the colour is FP16 (HDR), which the LDR profiles do not decode. */
	if (blk[1] & 0x02) {
		static const uint8_t magenta[4] = { 255, 0, 255, 255 };
		fill(b, magenta);
		return;
	}
	uint8_t px[4];
	for (int c = 0; c < 4; c++) {
		uint32_t c16 = (uint32_t)blk[8 + 2 * c] | (uint32_t)blk[9 + 2 * c] << 8;
		px[c] = srgb ? (uint8_t)(c16 >> 8) : to_unorm8(c16);
	}
	fill(b, px);
}

void full_block(const block_out &b, const astcenc_block_info &bi, bool srgb)
{
	uint32_t ep[4][2][4];
	for (unsigned p = 0; p < bi.partition_count && p < 4; p++)
		for (int e = 0; e < 2; e++)
			for (int c = 0; c < 4; c++)
				ep[p][e][c] = endpoint8(bi.color_endpoints[p][e][c]);
	int plane2 = bi.is_dual_plane_block ? (int)bi.dual_plane_component : -1;
	for (unsigned y = 0; y < b.bh && b.y0 + y < b.h; y++)
		for (unsigned x = 0; x < b.bw && b.x0 + x < b.w; x++) {
			unsigned t = y * b.bw + x;
			unsigned p = bi.partition_count > 1 ? bi.partition_assignment[t] : 0;
			if (p > 3)
				p = 0;
			uint32_t w1 = weight64(bi.weight_values_plane1[t]);
			uint32_t w2 = plane2 >= 0 ? weight64(bi.weight_values_plane2[t]) : w1;
			uint8_t *px = b.rgba + ((size_t)(b.y0 + y) * b.w + b.x0 + x) * 4;
			for (int c = 0; c < 4; c++) {
				uint32_t w = c == plane2 ? w2 : w1;
				uint32_t e0 = ep[p][0][c], e1 = ep[p][1][c];
				if (srgb)
					px[c] = (uint8_t)((e0 * (64 - w) + e1 * w + 32) >> 6);
				else
					px[c] = to_unorm8((e0 * 257 * (64 - w) + e1 * 257 * w + 32) >> 6);
			}
		}
}

bool dims_ok(unsigned bw, unsigned bh, unsigned w, unsigned h)
{
	return nm_astc_block_size_ok(bw, bh) && w && h;
}

size_t blocks_bytes(unsigned bw, unsigned bh, unsigned w, unsigned h)
{
	return (size_t)((w + bw - 1) / bw) * ((h + bh - 1) / bh) * NM_ASTC_BLOCK_BYTES;
}

} // namespace

bool nm_astc_block_size_ok(unsigned bw, unsigned bh)
{
	for (const auto &s : sizes)
		if (s[0] == bw && s[1] == bh)
			return true;
	return false;
}

namespace {

/* One decode's rows of blocks, for the bands. */
struct decode_job {
	astcenc_context *ctx;
	const uint8_t *src;
	uint8_t *rgba;
	unsigned w, h, bw, bh, bx_count;
	bool srgb;
};

nm_status decode_rows(void *arg, unsigned band, unsigned by0, unsigned by1)
{
	const decode_job &j = *(const decode_job *)arg;
	(void)band;
	for (unsigned by = by0; by < by1; by++)
		for (unsigned bx = 0; bx < j.bx_count; bx++) {
			const uint8_t *blk = j.src + ((size_t)by * j.bx_count + bx) * NM_ASTC_BLOCK_BYTES;
			block_out b = { j.rgba, j.w, j.h, bx * j.bw, by * j.bh, j.bw, j.bh };
			astcenc_block_info bi;
			/* Reads the context only (its block size tables): bands share it. */
			if (astcenc_get_block_info(j.ctx, blk, &bi) != ASTCENC_SUCCESS)
				return NM_E_UNSUPPORTED;   /* a build of libastcenc without it */
			if (bi.is_error_block) {
				static const uint8_t magenta[4] = { 255, 0, 255, 255 };
				fill(b, magenta);
			} else if (bi.is_constant_block) {
				constant_block(b, blk, j.srgb);
			} else {
				full_block(b, bi, j.srgb);
			}
		}
	return NM_OK;
}

/* Rows of blocks per band at least: about 16,000 blocks of 4x4 (a 512x512 texture) or
 * more, a few milliseconds of decoding, against a thread's start of tens of µs. */
unsigned min_band_rows(unsigned bx_count)
{
	unsigned rows = 16384u / bx_count;
	return rows ? rows : 1;
}

} // namespace

nm_status nm_astc_decode(const nm_options *opt, unsigned bw, unsigned bh, bool srgb,
			 const uint8_t *src, size_t src_len, unsigned w, unsigned h,
			 uint8_t *rgba)
{
	return nm_astc_decode_threads(opt, 1, bw, bh, srgb, src, src_len, w, h, rgba);
}

nm_status nm_astc_decode_threads(const nm_options *opt, unsigned threads, unsigned bw,
				 unsigned bh, bool srgb, const uint8_t *src, size_t src_len,
				 unsigned w, unsigned h, uint8_t *rgba)
{
	if (!dims_ok(bw, bh, w, h) || !src || !rgba)
		return NM_E_INVAL;
	if (src_len < blocks_bytes(bw, bh, w, h))
		return NM_E_FORMAT;
	size_t ctx_bytes;
	if (nm_alloc_check(opt, 1, NM_ASTC_CONTEXT_BYTES, &ctx_bytes) != NM_OK)
		return NM_E_LIMIT;
	decode_job j = { nullptr, src, rgba, w, h, bw, bh, (w + bw - 1) / bw, srgb };
	unsigned by_count = (h + bh - 1) / bh;
	decoder_slot *slot;
	nm_status s = decoder_acquire(bw, bh, srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR,
				      &slot);
	if (s != NM_OK)
		return s;
	/* Held by this decode: no other rebuilds the context under the bands. */
	j.ctx = slot->ctx;
	s = nm_bands_run(nm_bands_count(threads, by_count, min_band_rows(j.bx_count)), by_count,
			 decode_rows, &j);
	decoder_release(slot);
	return s;
}

void nm_astc_prepare(const nm_options *opt, unsigned bw, unsigned bh, bool srgb)
{
	size_t ctx_bytes;
	if (!nm_astc_block_size_ok(bw, bh) ||
	    nm_alloc_check(opt, 1, NM_ASTC_CONTEXT_BYTES, &ctx_bytes) != NM_OK)
		return;
	astcenc_profile profile = srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR;
	pthread_mutex_lock(&decoders.lock);
	decoder_slot *s = slot_of(bw, bh, profile) ? nullptr : claim(bw, bh, profile);
	pthread_mutex_unlock(&decoders.lock);
	if (!s)
		return;
	pthread_attr_t attr;
	pthread_t thread;
	bool started = pthread_attr_init(&attr) == 0;
	if (started) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&thread, &attr, build_ahead, s) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started)
		built(s, nullptr, 0);
}

nm_status nm_astc_decode_reference(unsigned bw, unsigned bh, const uint8_t *src,
				   size_t src_len, unsigned w, unsigned h, uint8_t *rgba)
{
	if (!dims_ok(bw, bh, w, h) || !src || !rgba)
		return NM_E_INVAL;
	if (src_len < blocks_bytes(bw, bh, w, h))
		return NM_E_FORMAT;
	/* libastcenc's decompression keeps its progress in the context: one at a time
	 * (the decodes beside it only read the block tables). */
	static pthread_mutex_t one_at_a_time = PTHREAD_MUTEX_INITIALIZER;
	decoder_slot *slot;
	nm_status s = decoder_acquire(bw, bh, ASTCENC_PRF_LDR, &slot);
	if (s == NM_OK) {
		astcenc_context *ctx = slot->ctx;
		pthread_mutex_lock(&one_at_a_time);
		void *slice = rgba;
		astcenc_image img = { w, h, 1, ASTCENC_TYPE_U8, &slice };
		const astcenc_swizzle swz = { ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B,
					      ASTCENC_SWZ_A };
		if (astcenc_decompress_image(ctx, src, src_len, &img, &swz, 0) != ASTCENC_SUCCESS)
			s = NM_E_FORMAT;
		astcenc_decompress_reset(ctx);
		pthread_mutex_unlock(&one_at_a_time);
		decoder_release(slot);
	}
	return s;
}

namespace {

/* The compressing context, kept like the decoding one (the cached one is
 * decompress-only): building one costs more than encoding a texture's levels with it,
 * and a texture's levels all use the same. One thread, reset before each image:
 * libastcenc's output then depends only on the image and the config. */
struct cached_compressor {
	pthread_mutex_t lock;
	astcenc_context *ctx;
	unsigned bw, bh;
	astcenc_profile profile;
	float preset;
};
cached_compressor compressor = { PTHREAD_MUTEX_INITIALIZER, nullptr, 0, 0, ASTCENC_PRF_LDR, 0 };

/* Called with compressor.lock held: the context, ready for an image (a config libastcenc
 * refuses is NM_E_INVAL, a context it cannot make NM_E_NOMEM, as before it was kept). */
nm_status compressor_for(astcenc_profile profile, float preset, unsigned bw, unsigned bh,
			 astcenc_context **out)
{
	cached_compressor &c = compressor;
	if (c.ctx && c.bw == bw && c.bh == bh && c.profile == profile && c.preset == preset) {
		*out = c.ctx;
		return astcenc_compress_reset(c.ctx) == ASTCENC_SUCCESS ? NM_OK : NM_E_NOMEM;
	}
	if (c.ctx) {
		astcenc_context_free(c.ctx);
		c.ctx = nullptr;
	}
	astcenc_config cfg;
	if (astcenc_config_init(profile, bw, bh, 1, preset, 0, &cfg) != ASTCENC_SUCCESS)
		return NM_E_INVAL;
	if (astcenc_context_alloc(&cfg, 1, &c.ctx) != ASTCENC_SUCCESS) {
		c.ctx = nullptr;
		return NM_E_NOMEM;
	}
	c.bw = bw;
	c.bh = bh;
	c.profile = profile;
	c.preset = preset;
	*out = c.ctx;
	return NM_OK;
}

nm_status compress(astcenc_profile profile, float preset, unsigned bw, unsigned bh,
		   const uint8_t *rgba, unsigned w, unsigned h, uint8_t *dst, size_t dst_len)
{
	if (!dims_ok(bw, bh, w, h) || !rgba || !dst)
		return NM_E_INVAL;
	if (dst_len < blocks_bytes(bw, bh, w, h))
		return NM_E_FORMAT;
	pthread_mutex_lock(&compressor.lock);
	astcenc_context *ctx;
	nm_status s = compressor_for(profile, preset, bw, bh, &ctx);
	if (s == NM_OK) {
		void *slice = const_cast<uint8_t *>(rgba);
		astcenc_image img = { w, h, 1, ASTCENC_TYPE_U8, &slice };
		const astcenc_swizzle swz = { ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B,
					      ASTCENC_SWZ_A };
		astcenc_error e = astcenc_compress_image(ctx, &img, &swz, dst, dst_len, 0);
		s = e == ASTCENC_SUCCESS ? NM_OK : e == ASTCENC_ERR_OUT_OF_MEM ? NM_E_NOMEM :
		    NM_E_FORMAT;
	}
	pthread_mutex_unlock(&compressor.lock);
	return s;
}

} // namespace

nm_status nm_astc_encode(unsigned bw, unsigned bh, const uint8_t *rgba, unsigned w,
			 unsigned h, uint8_t *dst, size_t dst_len)
{
	return compress(ASTCENC_PRF_LDR, ASTCENC_PRE_FAST, bw, bh, rgba, w, h, dst, dst_len);
}

nm_status nm_astc_encode_level(const nm_options *opt, unsigned bw, unsigned bh, bool srgb,
			       const uint8_t *rgba, unsigned w, unsigned h, uint8_t *dst,
			       size_t dst_len)
{
	/* A short dst is the caller's mistake here, as for the other encoders. */
	if (!dims_ok(bw, bh, w, h) || dst_len < blocks_bytes(bw, bh, w, h))
		return NM_E_INVAL;
	size_t bytes;
	if (nm_alloc_check(opt, 1, NM_ASTC_CONTEXT_BYTES, &bytes) != NM_OK)
		return NM_E_LIMIT;
	return compress(srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR, ASTCENC_PRE_MEDIUM, bw, bh,
			rgba, w, h, dst, dst_len);
}

unsigned long nm_astc_contexts_made(void)
{
	pthread_mutex_lock(&decoders.lock);
	unsigned long made = decoders.made;
	pthread_mutex_unlock(&decoders.lock);
	return made;
}

void nm_astc_release(void)
{
	pthread_mutex_lock(&decoders.lock);
	for (decoder_slot &s : decoders.slot)
		if (s.ctx && s.users == 0) {
			astcenc_context_free(s.ctx);
			s = decoder_slot{};
		}
	pthread_mutex_unlock(&decoders.lock);
	pthread_mutex_lock(&compressor.lock);
	if (compressor.ctx)
		astcenc_context_free(compressor.ctx);
	compressor.ctx = nullptr;
	pthread_mutex_unlock(&compressor.lock);
}
