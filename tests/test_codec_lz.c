/* Tests for the archive compression codecs: Yaz0, Yay0, LZ10, LZ11 and LzS.
 *
 * Hand-built streams whose output was worked out by hand pin each format down apart
 * from our own encoder (a table: stream bytes, then the output as a pattern repeated to
 * a length, or the error and a word of its message). Then, for every codec from one
 * table: known encodings that show each token kind, round trips, every truncation,
 * every prefix (also from just nm_X_input_bound bytes of input), a header announcing
 * gigabytes, random streams, and the real files of ../shared/corpus. LzS is checked
 * against an independent decoder, Debian's python3-lzss (Okumura's LZSS), where it is
 * installed; for Yaz0, Yay0 and LZ10/LZ11 this machine has none (no Debian package,
 * no Python module), so the corpus Yaz0 file, made by Nintendo's encoder, stands in. */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "lib/bytes.h"
#include "tests/prng.h"

/* ---- the codecs, as one table -------------------------------------------------------- */

static nm_status enc_lz10(const uint8_t *s, size_t n, nm_out *o) { return nm_lz_cx_encode(NM_LZ10, s, n, o); }
static nm_status enc_lz11(const uint8_t *s, size_t n, nm_out *o) { return nm_lz_cx_encode(NM_LZ11, s, n, o); }

typedef struct lz_codec {
	const char *name;
	bool (*probe)(const uint8_t *, size_t);
	nm_status (*header)(const uint8_t *, size_t, const char *, uint64_t *, nm_error *);
	nm_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, const char *, nm_error *,
			    size_t *);
	uint64_t (*bound)(uint64_t);
	nm_status (*encode)(const uint8_t *, size_t, nm_out *);
	size_t header_len;
	size_t max_match;   /* the longest back-reference */
} lz_codec;

enum { YAZ0, YAY0, LZ10, LZ11, LZS, NCODECS };

static const lz_codec codecs[NCODECS] = {
	[YAZ0] = { "Yaz0", nm_yaz0_probe, nm_yaz0_header, nm_yaz0_decode, nm_yaz0_input_bound,
		   nm_yaz0_encode, 16, 0x111 },
	[YAY0] = { "Yay0", nm_yay0_probe, nm_yay0_header, nm_yay0_decode, nm_yay0_input_bound,
		   nm_yay0_encode, 16, 0x111 },
	[LZ10] = { "LZ10", nm_lz_cx_probe, nm_lz_cx_header, nm_lz_cx_decode, nm_lz_cx_input_bound,
		   enc_lz10, 4, 18 },
	[LZ11] = { "LZ11", nm_lz_cx_probe, nm_lz_cx_header, nm_lz_cx_decode, nm_lz_cx_input_bound,
		   enc_lz11, 4, 0x10110 },
	[LZS] = { "LzS", nm_lzs_probe, nm_lzs_header, nm_lzs_decode, nm_lzs_input_bound,
		  nm_lzs_encode, 16, 18 },
};

/* The most input decoding n bytes may read (Yay0: from its header). */
static uint64_t bound_of(int c, const uint8_t *stream, uint64_t n)
{
	return c == YAY0 ? nm_yay0_prefix_bound(stream, n) : codecs[c].bound(n);
}

static uint8_t *encode(int c, const uint8_t *data, size_t len, size_t *clen)
{
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(codecs[c].encode(data, len, &o), NM_OK);
	return nm_out_take(&o, clen);
}

/* How many output bytes the last dec() decoded (the decoders' done). */
static size_t dec_done;

/* Decode into an exact-size heap buffer, so that ASan sees any overrun. */
static nm_status dec(int c, const uint8_t *s, size_t slen, size_t n, uint8_t **dst, nm_error *err)
{
	*dst = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(*dst);
	return codecs[c].decode(s, slen, *dst, n, "t.bin", err, &dec_done);
}

/* The same from the first `cut` bytes of s alone, copied to a buffer of that size. */
static nm_status dec_cut(int c, const uint8_t *s, size_t cut, size_t n, uint8_t **dst,
			 nm_error *err)
{
	uint8_t *t = malloc(cut ? cut : 1);
	ck_assert_ptr_nonnull(t);
	memcpy(t, s, cut);
	nm_status st = dec(c, t, cut, n, dst, err);
	free(t);
	return st;
}

static uint8_t *random_bytes(size_t n, uint32_t seed)
{
	uint8_t *p = prng_bytes(n, seed);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Data with every kind of match: text, runs shorter and longer than every length
 * limit, a pattern repeated 4096 bytes later, and random stretches. */
static uint8_t *structured(size_t n, uint32_t seed)
{
	uint8_t *p = random_bytes(n, seed);
	for (size_t i = 0; i < n; i++) {
		size_t blk = (i / 1500) % 6;
		if (blk == 0)
			p[i] = (uint8_t)"the quick brown fox jumps "[i % 26];
		else if (blk == 1)
			p[i] = (uint8_t)(i / 300); /* runs of 300 */
		else if (blk == 2)
			p[i] = (uint8_t)((i % 40) < 3 ? 0x55 : (i / 7)); /* short runs */
		else if (blk == 3 && i >= 4096)
			p[i] = p[i - 4096]; /* the farthest a reference reaches */
		else if (blk == 4)
			p[i] = (uint8_t)((i % 12) < 6 ? i / 48 : (i % 12) * 3); /* vertex-like */
	}
	return p;
}

/* ---- hand-built streams -------------------------------------------------------------- */

#define BE32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), (uint8_t)((v) >> 8), (uint8_t)(v)
#define LE32(v) (uint8_t)(v), (uint8_t)((v) >> 8), (uint8_t)((v) >> 16), (uint8_t)((v) >> 24)
#define YAZ0_HDR(n) 'Y', 'a', 'z', '0', BE32(n), 0, 0, 0, 0, 0, 0, 0, 0
#define YAY0_HDR(n, link, chunk) 'Y', 'a', 'y', '0', BE32(n), BE32(link), BE32(chunk)
#define LZ10_HDR(n) 0x10, (uint8_t)(n), (uint8_t)((n) >> 8), (uint8_t)((n) >> 16)
#define LZ11_HDR(n) 0x11, (uint8_t)(n), (uint8_t)((n) >> 8), (uint8_t)((n) >> 16)
#define LZS_HDR(n, c) 'L', 'z', 'S', 1, 0, 0, 0, 0, LE32(n), LE32(c)

typedef struct hand_stream {
	const char *what;
	int codec;
	uint8_t s[64];
	size_t slen;
	/* The whole output: pat (pat_len bytes) repeated to len bytes. */
	const char *pat;
	size_t pat_len, len;
	/* Or an error, its input offset and a word of its message. */
	nm_status fail;
	uint64_t off;
	const char *msg;
} hand_stream;

#define S(...) .s = { __VA_ARGS__ }, .slen = sizeof((uint8_t[]){ __VA_ARGS__ })
#define OUT(p, n) .pat = (p), .pat_len = sizeof(p) - 1, .len = (n)
#define FAILS(code, at, m) .fail = (code), .off = (at), .msg = (m)

static const hand_stream hand[] = {
	/* Yaz0: flags from the top bit, 1 = literal. */
	{ "Yaz0 literals, then distance 3 length 5+2 overlapping itself", YAZ0,
	  S(YAZ0_HDR(10), 0xE0, 'a', 'b', 'c', 0x50, 0x02), OUT("abc", 10) },
	{ "Yaz0 2-byte reference of the longest 2-byte length, 15+2", YAZ0,
	  S(YAZ0_HDR(18), 0x80, 'a', 0xF0, 0x00), OUT("a", 18) },
	{ "Yaz0 3-byte reference, length 0x20+0x12, distance 1", YAZ0,
	  S(YAZ0_HDR(51), 0x80, 'z', 0x00, 0x00, 0x20), OUT("z", 51) },
	{ "Yaz0 3-byte reference, longest length 0xff+0x12", YAZ0,
	  S(YAZ0_HDR(0x112), 0x80, 'q', 0x00, 0x00, 0xFF), OUT("q", 0x112) },
	{ "Yaz0 a second flag byte after 8 tokens", YAZ0,
	  S(YAZ0_HDR(14), 0xFE, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 0x40, 0x06, 0x80, 'x'),
	  OUT("abcdefgabcdefx", 0) },
	{ "Yaz0 reference before the start", YAZ0, S(YAZ0_HDR(3), 0x00, 0x10, 0x00),
	  FAILS(NM_E_FORMAT, 0x11, "before the start") },
	{ "Yaz0 distance 2 after one byte", YAZ0, S(YAZ0_HDR(4), 0x80, 'a', 0x10, 0x01),
	  FAILS(NM_E_FORMAT, 0x12, "2 bytes back") },
	{ "Yaz0 3-byte reference cut after 2", YAZ0, S(YAZ0_HDR(40), 0x80, 'a', 0x00, 0x00),
	  FAILS(NM_E_FORMAT, 0x12, "for a back-reference") },
	{ "Yaz0 no flag byte", YAZ0, S(YAZ0_HDR(1)), FAILS(NM_E_FORMAT, 0x10, "a flag byte") },
	{ "Yaz0 header of 15 bytes", YAZ0, S('Y', 'a', 'z', '0', 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0),
	  FAILS(NM_E_FORMAT, 0, "too short") },
	{ "Yaz0 wrong magic", YAZ0, S(YAY0_HDR(1, 0, 0)), FAILS(NM_E_FORMAT, 0, "not a Yaz0") },

	/* Yay0: flags at 0x10 (u32 words), links at 0x14, chunks at 0x18. */
	{ "Yay0 literals from the chunk stream, a link of length 5+2", YAY0,
	  S(YAY0_HDR(10, 0x14, 0x18), 0xE0, 0, 0, 0, 0x50, 0x02, 0, 0, 'a', 'b', 'c'),
	  OUT("abc", 10) },
	{ "Yay0 long link: its length byte comes from the chunk stream", YAY0,
	  S(YAY0_HDR(51, 0x14, 0x18), 0x80, 0, 0, 0, 0x00, 0x00, 0, 0, 'z', 0x20), OUT("z", 51) },
	{ "Yay0 streams in another order (chunks before links)", YAY0,
	  S(YAY0_HDR(10, 0x18, 0x14), 0xE0, 0, 0, 0, 'a', 'b', 'c', 0, 0x50, 0x02),
	  OUT("abc", 10) },
	{ "Yay0 link before the start", YAY0, S(YAY0_HDR(3, 0x14, 0x18), 0, 0, 0, 0, 0x10, 0x00),
	  FAILS(NM_E_FORMAT, 0x14, "before the start") },
	{ "Yay0 link stream past the end", YAY0,
	  S(YAY0_HDR(9, 0x1000, 0x14), 0x80, 0, 0, 0, 'a'), FAILS(NM_E_FORMAT, 0x1000, "link stream") },
	{ "Yay0 long link without its length byte", YAY0,
	  S(YAY0_HDR(40, 0x14, 0x16), 0x80, 0, 0, 0, 0x00, 0x00, 'a'),
	  FAILS(NM_E_FORMAT, 0x17, "long link") },
	{ "Yay0 chunk offset near 4 GiB", YAY0, S(YAY0_HDR(1, 0x14, 0xFFFFFFFF), 0x80),
	  FAILS(NM_E_FORMAT, 0xFFFFFFFF, "chunk stream") },

	/* LZ10: flags from the top bit, 1 = reference. */
	{ "LZ10 literals, then distance 3 length 4+3", LZ10,
	  S(LZ10_HDR(10), 0x10, 'a', 'b', 'c', 0x40, 0x02), OUT("abc", 10) },
	{ "LZ10 longest reference, 15+3", LZ10, S(LZ10_HDR(19), 0x40, 'z', 0xF0, 0x00),
	  OUT("z", 19) },
	{ "LZ10 size 0 and a 32-bit size", LZ10,
	  S(0x10, 0, 0, 0, LE32(5), 0x00, 'h', 'e', 'l', 'l', 'o'), OUT("hello", 5) },
	{ "LZ10 reference first", LZ10, S(LZ10_HDR(3), 0x80, 0x00, 0x00),
	  FAILS(NM_E_FORMAT, 5, "before the start") },
	{ "LZ10 4-byte header with size 0", LZ10, S(0x10, 0, 0, 0), FAILS(NM_E_FORMAT, 0, "too short") },
	{ "LZ10 type 0x12", LZ10, S(0x12, 1, 0, 0, 0, 'a'), FAILS(NM_E_FORMAT, 0, "not a LZ10/LZ11") },
	/* Behind an "LZ77" tag (DS and Wii games): skipped; offsets stay the file's. */
	{ "LZ10 behind an LZ77 tag", LZ10,
	  S('L', 'Z', '7', '7', LZ10_HDR(10), 0x10, 'a', 'b', 'c', 0x40, 0x02), OUT("abc", 10) },
	{ "LZ11 behind an LZ77 tag, 32-bit size", LZ11,
	  S('L', 'Z', '7', '7', 0x11, 0, 0, 0, LE32(5), 0x00, 'h', 'e', 'l', 'l', 'o'),
	  OUT("hello", 5) },
	{ "LZ10 behind an LZ77 tag, reference first", LZ10,
	  S('L', 'Z', '7', '7', LZ10_HDR(3), 0x80, 0x00, 0x00),
	  FAILS(NM_E_FORMAT, 9, "before the start") },
	{ "an LZ77 tag and no header", LZ10, S('L', 'Z', '7', '7', 0x10, 1), FAILS(NM_E_FORMAT, 0, "too short") },

	/* LZ11: the top nibble of a reference picks its size. */
	{ "LZ11 2-byte reference, nibble 6: length 7", LZ11,
	  S(LZ11_HDR(10), 0x10, 'a', 'b', 'c', 0x60, 0x02), OUT("abc", 10) },
	{ "LZ11 3-byte reference, length 0x20+0x11, distance 1", LZ11,
	  S(LZ11_HDR(50), 0x40, 'z', 0x02, 0x00, 0x00), OUT("z", 50) },
	{ "LZ11 4-byte reference, length 0x1234+0x111, distance 2", LZ11,
	  S(LZ11_HDR(0x1347), 0x20, 'a', 'b', 0x11, 0x23, 0x40, 0x01), OUT("ab", 0x1347) },
	{ "LZ11 4-byte reference, longest length 0xffff+0x111", LZ11,
	  S(LZ11_HDR(0x10111), 0x40, 'q', 0x1F, 0xFF, 0xF0, 0x00), OUT("q", 0x10111) },
	{ "LZ11 2-byte reference, distance 0x1000 is too far after 1 byte", LZ11,
	  S(LZ11_HDR(4), 0x40, 'a', 0x2F, 0xFF), FAILS(NM_E_FORMAT, 6, "4096 bytes back") },
	{ "LZ11 size 0 and a 32-bit size", LZ11,
	  S(0x11, 0, 0, 0, LE32(3), 0x00, 'x', 'y', 'z'), OUT("xyz", 3) },
	{ "LZ11 4-byte reference cut after 3", LZ11, S(LZ11_HDR(400), 0x40, 'a', 0x10, 0x00, 0x00),
	  FAILS(NM_E_FORMAT, 6, "for a back-reference") },
	{ "LZ11 3-byte reference cut after 2", LZ11, S(LZ11_HDR(40), 0x40, 'a', 0x00, 0x00),
	  FAILS(NM_E_FORMAT, 6, "for a back-reference") },

	/* LzS: flags from the lowest bit, 1 = literal; references name ring positions. */
	{ "LzS literals, then ring 0xfee (output byte 0) for 4+3", LZS,
	  S(LZS_HDR(10, 6), 0x07, 'a', 'b', 'c', 0xEE, 0xF4), OUT("abc", 10) },
	{ "LzS ring 0x000, not written yet: the ring's zeros", LZS,
	  S(LZS_HDR(6, 4), 0x02, 0x00, 0x02, 'x'), OUT("\0\0\0\0\0x", 6) },
	{ "LzS ring 0xfeb: 3 zeros from just before the start, as the corpus GAR has", LZS,
	  S(LZS_HDR(5, 5), 0x05, 0x20, 0xEB, 0xF0, 0x01), OUT("\x20\0\0\0\x01", 5) },
	{ "LzS a reference across the ring's end (0xffe to 0x001)", LZS,
	  S(LZS_HDR(24, 25), 0xFF, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 0xFF, 'I', 'J', 'K',
	    'L', 'M', 'N', 'O', 'P', 0x0F, 'Q', 'R', 'S', 'T', 0xFE, 0xF1),
	  OUT("ABCDEFGHIJKLMNOPQRSTQRST", 24) },
	{ "LzS a copy that starts in the ring's zeros and runs on into its own output", LZS,
	  S(LZS_HDR(8, 5), 0x03, 'a', 'b', 0xED, 0xF3), OUT("ab\0", 8) },
	{ "LzS compressed size 4 of a 6-byte stream", LZS,
	  S(LZS_HDR(10, 4), 0x07, 'a', 'b', 'c', 0xEE, 0xF4),
	  FAILS(NM_E_FORMAT, 0x14, "compressed size") },
	{ "LzS reference cut after 1 byte", LZS, S(LZS_HDR(10, 5), 0x07, 'a', 'b', 'c', 0xEE),
	  FAILS(NM_E_FORMAT, 0x14, "for a back-reference") },
	{ "LzS version 2", LZS, S('L', 'z', 'S', 2, 0, 0, 0, 0, LE32(1), LE32(2), 1, 'a'),
	  FAILS(NM_E_FORMAT, 0, "not a LzS") },
};

START_TEST(hand_built)
{
	const hand_stream *h = &hand[_i];
	size_t n = h->len ? h->len : h->pat_len;
	uint64_t announced = 0;
	nm_error err;
	uint8_t *d;
	if (h->fail) {
		/* Decode as much as the header announces, or 1 byte if there is none. */
		if (codecs[h->codec].header(h->s, h->slen, "t.bin", &announced, &err) != NM_OK)
			announced = 1;
		nm_status st = dec(h->codec, h->s, h->slen, (size_t)announced, &d, &err);
		ck_assert_msg(st == h->fail, "%s: %s", h->what, err.msg);
		char at[32];
		snprintf(at, sizeof at, "at 0x%llx:", (unsigned long long)h->off);
		ck_assert_msg(strstr(err.msg, at) && strstr(err.msg, h->msg) &&
			      strncmp(err.msg, "t.bin: ", 7) == 0, "%s: %s", h->what, err.msg);
		free(d);
		return;
	}
	ck_assert_int_eq(codecs[h->codec].header(h->s, h->slen, "t.bin", &announced, &err), NM_OK);
	ck_assert_uint_eq(announced, n);
	ck_assert_msg(codecs[h->codec].probe(h->s, h->slen), "%s: probe", h->what);
	ck_assert_msg(dec(h->codec, h->s, h->slen, n, &d, &err) == NM_OK, "%s: %s", h->what, err.msg);
	for (size_t i = 0; i < n; i++)
		if (d[i] != (uint8_t)h->pat[i % h->pat_len])
			ck_abort_msg("%s: byte %zu is 0x%02x", h->what, i, d[i]);
	free(d);
	/* Every prefix of the output alone, and nothing written past it. */
	uint8_t *buf = malloc(n + 8);
	for (size_t k = 0; k <= n; k += k < 64 ? 1 : 97) {
		memset(buf, 0xEE, n + 8);
		ck_assert_int_eq(codecs[h->codec].decode(h->s, h->slen, buf, k, "t.bin", &err, NULL),
				 NM_OK);
		for (size_t i = 0; i < k; i++)
			if (buf[i] != (uint8_t)h->pat[i % h->pat_len])
				ck_abort_msg("%s: prefix %zu byte %zu", h->what, k, i);
		for (size_t i = k; i < n + 8; i++)
			if (buf[i] != 0xEE)
				ck_abort_msg("%s: prefix %zu wrote byte %zu", h->what, k, i);
	}
	/* One byte more than announced is the caller's mistake. */
	ck_assert_int_eq(codecs[h->codec].decode(h->s, h->slen, buf, n + 1, "t.bin", &err, NULL),
			 NM_E_INVAL);
	free(buf);
}
END_TEST

/* ---- the farthest reference, built by hand --------------------------------------------- */

/* 4096 random literals, then a 3-byte reference 4096 back, in each codec's own bytes. */
START_TEST(distance_4096)
{
	int c = _i;
	size_t nlit = 4096, n = nlit + 3;
	uint8_t *lit = random_bytes(nlit, 11), *s = calloc(1, 16 + 4 * nlit + 64), *d;
	size_t p = 0;
	uint8_t flagbit_lit = c == LZ10 || c == LZ11 ? 0 : 1;
	if (c == YAY0) {
		/* flags: 4096 ones and a zero (u32 words); one link; the literals. */
		size_t fl = (nlit + 1 + 31) / 32 * 4, link = 16 + fl, chunk = link + 4;
		uint8_t h[16] = { YAY0_HDR(n, link, chunk) };
		memcpy(s, h, 16);
		memset(s + 16, 0xFF, nlit / 8);
		s[link] = 0x1F;
		s[link + 1] = 0xFF;
		memcpy(s + chunk, lit, nlit);
		p = chunk + nlit;
	} else {
		uint8_t h[16] = { 0 };
		size_t hl = codecs[c].header_len;
		if (c == YAZ0) memcpy(h, (uint8_t[]){ YAZ0_HDR(n) }, 16);
		if (c == LZ10) memcpy(h, (uint8_t[]){ LZ10_HDR(n) }, 4);
		if (c == LZ11) memcpy(h, (uint8_t[]){ LZ11_HDR(n) }, 4);
		if (c == LZS) memcpy(h, (uint8_t[]){ LZS_HDR(n, 0xFFFFFF) }, 16);
		memcpy(s, h, hl);
		p = hl;
		for (size_t i = 0; i < nlit; i++) {
			if (i % 8 == 0)
				s[p++] = flagbit_lit ? 0xFF : 0x00;
			s[p++] = lit[i];
		}
		s[p++] = flagbit_lit ? 0x00 : 0x80; /* the reference, first of its group */
		/* length 3, distance 4096 (LzS: ring position 0xfee + 4096, itself) */
		static const uint8_t ref[NCODECS][2] = { [YAZ0] = { 0x1F, 0xFF },
			[LZ10] = { 0x0F, 0xFF }, [LZ11] = { 0x2F, 0xFF }, [LZS] = { 0xEE, 0xF0 } };
		s[p++] = ref[c][0];
		s[p++] = ref[c][1];
	}
	nm_error err;
	ck_assert_msg(dec(c, s, p, n, &d, &err) == NM_OK, "%s: %s", codecs[c].name, err.msg);
	ck_assert_mem_eq(d, lit, nlit);
	ck_assert_mem_eq(d + nlit, lit, 3);
	free(d);
	free(s);
	free(lit);
}
END_TEST

/* ---- the encoders ------------------------------------------------------------------------ */

typedef struct known_encoding {
	int codec;
	const char *in;
	size_t in_len;
	uint8_t want[48];
	size_t want_len;
} known_encoding;

#define IN(s) .in = (s), .in_len = sizeof(s) - 1
#define WANT(...) .want = { __VA_ARGS__ }, .want_len = sizeof((uint8_t[]){ __VA_ARGS__ })
#define A20 "aaaaaaaaaaaaaaaaaaaa"
#define Z20 "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

/* The cheapest parse gives exactly these (ties to the longer token), each token kind at
 * least once. */
static const known_encoding known[] = {
	{ YAZ0, IN("abcabcabca"), WANT(YAZ0_HDR(10), 0xE0, 'a', 'b', 'c', 0x50, 0x02) },
	{ YAZ0, IN(A20), WANT(YAZ0_HDR(20), 0x80, 'a', 0x00, 0x00, 0x01) },
	/* Not greedy: at the second "abc", a literal 'a' and "bcdefghij" (9 bytes, 11
	 * back) cost less than "abc" (14 back) and "defghij". */
	{ YAZ0, IN("abcXbcdefghijYabcdefghij"), WANT(YAZ0_HDR(24), 0xFF, 'a', 'b', 'c', 'X', 'b',
						      'c', 'd', 'e', 0xFE, 'f', 'g', 'h', 'i', 'j',
						      'Y', 'a', 0x70, 0x0A) },
	{ YAY0, IN(A20), WANT(YAY0_HDR(20, 0x14, 0x18), 0x80, 0, 0, 0, 0x00, 0x00, 0, 0, 'a', 0x01) },
	{ YAY0, IN("abcabcabca"), WANT(YAY0_HDR(10, 0x14, 0x18), 0xE0, 0, 0, 0, 0x50, 0x02, 0, 0,
				      'a', 'b', 'c') },
	{ LZ10, IN(A20), WANT(LZ10_HDR(20), 0x40, 'a', 0xF0, 0x00, 'a') },
	{ LZ10, IN(""), WANT(0x10, 0, 0, 0, 0, 0, 0, 0) },
	{ LZ11, IN("abcabcabca"), WANT(LZ11_HDR(10), 0x10, 'a', 'b', 'c', 0x60, 0x02) },
	{ LZ11, IN(A20), WANT(LZ11_HDR(20), 0x40, 'a', 0x00, 0x20, 0x00) },
	{ LZS, IN("abcabcabca"), WANT(LZS_HDR(10, 6), 0x07, 'a', 'b', 'c', 0xEE, 0xF4) },
	/* 17 zeros from the ring's own, then 3 one byte back. */
	{ LZS, IN(Z20), WANT(LZS_HDR(20, 5), 0x00, 0xEE, 0xFE, 0xFE, 0xF0) },
};

START_TEST(known_encodings)
{
	const known_encoding *k = &known[_i];
	size_t clen;
	uint8_t *c = encode(k->codec, (const uint8_t *)k->in, k->in_len, &clen);
	ck_assert_msg(clen == k->want_len && memcmp(c, k->want, clen) == 0,
		      "%s encoding %zu differs (%zu bytes)", codecs[k->codec].name, (size_t)_i, clen);
	free(c);
}
END_TEST

/* LZ11's 4-byte form: 300 equal bytes are a literal and one reference of 299. */
START_TEST(lz11_encodes_4_byte_form)
{
	uint8_t in[300];
	memset(in, 'a', sizeof in);
	size_t clen;
	uint8_t *c = encode(LZ11, in, sizeof in, &clen);
	static const uint8_t want[] = { LZ11_HDR(300), 0x40, 'a', 0x10, 0x01, 0xA0, 0x00 };
	ck_assert_uint_eq(clen, sizeof want);
	ck_assert_mem_eq(c, want, sizeof want);
	free(c);
	/* And past 24 bits of size, the 8-byte header. */
	size_t big = 0x1000001;
	uint8_t *z = calloc(1, big);
	c = encode(LZ11, z, big, &clen);
	static const uint8_t head[] = { 0x11, 0, 0, 0, 0x01, 0, 0, 0x01 };
	ck_assert_mem_eq(c, head, sizeof head);
	uint64_t size;
	ck_assert_int_eq(nm_lz_cx_header(c, clen, "t", &size, NULL), NM_OK);
	ck_assert_uint_eq(size, big);
	uint8_t *d;
	ck_assert_int_eq(dec(LZ11, c, clen, big, &d, NULL), NM_OK);
	ck_assert_mem_eq(d, z, big);
	free(d);
	free(c);
	free(z);
}
END_TEST

static void round_trip(int c, const uint8_t *data, size_t len)
{
	size_t clen;
	uint8_t *s = encode(c, data, len, &clen), *d;
	uint64_t size;
	nm_error err;
	ck_assert_int_eq(codecs[c].header(s, clen, "t", &size, &err), NM_OK);
	ck_assert_uint_eq(size, len);
	ck_assert_msg(dec(c, s, clen, len, &d, &err) == NM_OK, "%s %zu: %s", codecs[c].name, len,
		      err.msg);
	if (len && memcmp(d, data, len) != 0)
		ck_abort_msg("%s: round trip of %zu bytes differs", codecs[c].name, len);
	free(d);
	free(s);
}

START_TEST(round_trips)
{
	int c = _i;
	static const size_t sizes[] = { 0, 1, 2, 3, 4, 17, 18, 19, 273, 274, 4095, 4096, 4097,
					9001, 70001 };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		uint8_t *r = random_bytes(n, (uint32_t)n * 7 + 1);
		round_trip(c, r, n);
		free(r);
		r = structured(n, (uint32_t)n + 3);
		round_trip(c, r, n);
		memset(r, 0, n);
		round_trip(c, r, n);
		free(r);
	}
	/* The encoder finds matches: 64 KiB of structure compresses well. */
	size_t n = 65536, clen;
	uint8_t *r = structured(n, 5), *s = encode(c, r, n, &clen);
	ck_assert_uint_lt(clen, n / 2);
	free(s);
	free(r);
}
END_TEST

/* ---- truncations, prefixes, bounds -------------------------------------------------------- */

START_TEST(every_truncation)
{
	int c = _i;
	size_t n = 9000, clen;
	uint8_t *data = structured(n, 77), *s = encode(c, data, n, &clen), *d;
	nm_error err;
	size_t before = 0;
	for (size_t cut = 0; cut < clen; cut++) {
		nm_status st = dec_cut(c, s, cut, n, &d, &err);
		if (cut >= codecs[c].header_len && cut < clen) {
			if (st != NM_E_FORMAT || !strstr(err.msg, "too early"))
				ck_abort_msg("%s cut at %zu of %zu: %s", codecs[c].name, cut, clen,
					     err.msg);
			/* What decoded before the cut is the data's start, and grows with the
			 * input: a damaged archive's members before the damage read from it. */
			if (dec_done > n || memcmp(d, data, dec_done) || dec_done < before)
				ck_abort_msg("%s cut at %zu: %zu bytes decoded, %zu before",
					     codecs[c].name, cut, dec_done, before);
			before = dec_done;
		} else if (st != NM_E_FORMAT || !strstr(err.msg, "header")) {
			ck_abort_msg("%s header cut at %zu: %s", codecs[c].name, cut, err.msg);
		}
		free(d);
	}
	/* The last cut lacks at most the last token's bytes. */
	ck_assert_uint_ge(before + codecs[c].max_match, n);
	free(s);
	free(data);
}
END_TEST

/* LZ10 and LZ11 behind an "LZ77" tag: round trips, every truncation fails cleanly (the
 * tag and header cuts as header errors), and no prefix reads past the input bound. */
START_TEST(tagged_streams)
{
	int c = _i ? LZ11 : LZ10;
	size_t n = 9000, clen;
	uint8_t *data = structured(n, 91), *plain = encode(c, data, n, &clen), *d;
	uint8_t *s = malloc(clen + 4);
	memcpy(s, "LZ77", 4);
	memcpy(s + 4, plain, clen);
	clen += 4;
	uint64_t size;
	nm_error err;
	ck_assert(codecs[c].probe(s, clen));
	ck_assert_int_eq(codecs[c].header(s, clen, "t.bin", &size, &err), NM_OK);
	ck_assert_uint_eq(size, n);
	ck_assert_int_eq(dec(c, s, clen, n, &d, &err), NM_OK);
	ck_assert_mem_eq(d, data, n);
	free(d);
	for (size_t cut = 0; cut < clen; cut++) {
		nm_status st = dec_cut(c, s, cut, n, &d, &err);
		const char *want = cut >= 8 ? "too early" : "header";
		if (st != NM_E_FORMAT || !strstr(err.msg, want))
			ck_abort_msg("cut at %zu of %zu: %s", cut, clen, err.msg);
		free(d);
	}
	for (size_t k = 1; k <= n; k += 331) {
		uint64_t bound = codecs[c].bound(k);
		size_t cut = bound < clen ? (size_t)bound : clen;
		ck_assert_int_eq(dec_cut(c, s, cut, k, &d, &err), NM_OK);
		ck_assert_mem_eq(d, data, k);
		free(d);
	}
	free(s);
	free(plain);
	free(data);
}
END_TEST

/* Every prefix of the output decodes from no more input than nm_X_input_bound says. */
START_TEST(prefixes_within_bound)
{
	int c = _i;
	size_t n = 5000, clen;
	for (int kind = 0; kind < 2; kind++) {
		uint8_t *data = kind ? structured(n, 9) : random_bytes(n, 9);
		uint8_t *s = encode(c, data, n, &clen), *d;
		nm_error err;
		for (size_t k = 0; k <= n; k += k < 300 ? 1 : 61) {
			uint64_t b = bound_of(c, s, k);
			size_t use = b < clen ? (size_t)b : clen;
			if (dec_cut(c, s, use, k, &d, &err) != NM_OK || (k && memcmp(d, data, k)))
				ck_abort_msg("%s: prefix %zu from %zu bytes: %s", codecs[c].name, k,
					     use, err.msg);
			free(d);
		}
		/* All literals: the bound is nearly reached, and never passed. */
		if (!kind && c != YAY0)
			ck_assert_uint_le(clen, codecs[c].bound(n));
		free(s);
		free(data);
	}
}
END_TEST

/* A header announcing 4 GiB - 1 (Yaz0...) or 2^32 - 1 (LZ's 8-byte header): a prefix
 * still decodes into a small buffer, and the decoder allocates nothing. */
START_TEST(gigabyte_header)
{
	int c = _i;
	size_t clen;
	uint8_t *s = encode(c, (const uint8_t *)"abcabcabcabcabcabc", 18, &clen), *d;
	if (c == YAZ0 || c == YAY0)
		memcpy(s + 4, (uint8_t[]){ BE32(0xFFFFFFFFu) }, 4);
	else if (c == LZS)
		memcpy(s + 8, (uint8_t[]){ LE32(0xFFFFFFFFu) }, 4);
	else {
		/* Move to the 8-byte header. */
		uint8_t *t = malloc(clen + 4);
		memcpy(t, (uint8_t[]){ s[0], 0, 0, 0, LE32(0xFFFFFFFFu) }, 8);
		memcpy(t + 8, s + 4, clen - 4);
		free(s);
		s = t;
		clen += 4;
	}
	uint64_t size;
	nm_error err;
	ck_assert_int_eq(codecs[c].header(s, clen, "t", &size, &err), NM_OK);
	ck_assert_uint_eq(size, 0xFFFFFFFFu);
	d = malloc(18);
	/* (No Check assertion in between: they allocate themselves.) */
	struct mallinfo2 before = mallinfo2();
	nm_status st = codecs[c].decode(s, clen, d, 18, "t", &err, NULL);
	struct mallinfo2 after = mallinfo2();
	ck_assert_int_eq(st, NM_OK);
	ck_assert_uint_eq(before.uordblks, after.uordblks);
	ck_assert_mem_eq(d, "abcabcabcabcabcabc", 18);
	/* More than the stream holds fails where it runs out, however much was promised. */
	uint8_t *big = malloc(1000);
	ck_assert_int_eq(codecs[c].decode(s, clen, big, 1000, "t", &err, NULL), NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "too early"));
	free(big);
	free(d);
	free(s);
}
END_TEST

/* Random bytes behind a valid header: OK or NM_E_FORMAT, never a crash or a hang. */
START_TEST(random_streams)
{
	int c = _i;
	uint32_t seed = 1234 + (uint32_t)c;
	uint8_t *d = malloc(4096);
	for (int round = 0; round < 3000; round++) {
		size_t len = 16 + xorshift(&seed) % 300;
		uint8_t *s = random_bytes(len, xorshift(&seed));
		uint32_t want = xorshift(&seed) % 4096;
		if (c == YAZ0 || c == YAY0) {
			memcpy(s, c == YAZ0 ? "Yaz0" : "Yay0", 4);
			memcpy(s + 4, (uint8_t[]){ BE32(want) }, 4);
			if (c == YAY0) {
				/* Offsets mostly inside the stream. */
				memcpy(s + 8, (uint8_t[]){ BE32(16 + xorshift(&seed) % len) }, 4);
				memcpy(s + 12, (uint8_t[]){ BE32(16 + xorshift(&seed) % len) }, 4);
			}
		} else if (c == LZS) {
			memcpy(s, "LzS\x01", 4);
			memcpy(s + 8, (uint8_t[]){ LE32(want) }, 4);
		} else {
			s[0] = c == LZ10 ? 0x10 : 0x11;
			s[1] = (uint8_t)want;
			s[2] = (uint8_t)(want >> 8);
			s[3] = 0;
			if (!want)
				memset(s + 4, 0, 4);
		}
		uint64_t size;
		nm_error err;
		ck_assert_int_eq(codecs[c].header(s, len, "t", &size, &err), NM_OK);
		nm_status st = codecs[c].decode(s, len, d, (size_t)size, "t", &err, NULL);
		ck_assert_msg(st == NM_OK || st == NM_E_FORMAT, "%s: %s", codecs[c].name, err.msg);
		free(s);
	}
	free(d);
}
END_TEST

START_TEST(probes_and_arguments)
{
	nm_error err;
	uint8_t d[4];
	uint64_t size;
	/* The magic alone decides, but for LZ10/LZ11 whose magic is one byte. */
	ck_assert(nm_yaz0_probe((const uint8_t *)"Yaz0", 4));
	ck_assert(!nm_yaz0_probe((const uint8_t *)"Yaz", 3));
	ck_assert(!nm_yaz0_probe((const uint8_t *)"Yay0", 4));
	ck_assert(nm_yay0_probe((const uint8_t *)"Yay0", 4));
	ck_assert(nm_lzs_probe((const uint8_t *)"LzS\x01", 4));
	ck_assert(!nm_lzs_probe((const uint8_t *)"LzS\x02", 4));
	ck_assert(nm_lz_cx_probe((uint8_t[]){ 0x10, 5, 0, 0, 0x00, 'a' }, 6));
	ck_assert(nm_lz_cx_probe((uint8_t[]){ 0x11, 0, 0, 0, 5, 0, 0, 0, 0x7F }, 9));
	ck_assert(!nm_lz_cx_probe((uint8_t[]){ 0x11, 5, 0, 0, 0x80, 0, 0 }, 7)); /* ref first */
	ck_assert(!nm_lz_cx_probe((uint8_t[]){ 0x10, 0, 0, 0, 0, 0, 0, 0 }, 8)); /* empty */
	ck_assert(!nm_lz_cx_probe((uint8_t[]){ 0x10, 0, 0, 0 }, 4));
	ck_assert(!nm_lz_cx_probe((uint8_t[]){ 0x13, 5, 0, 0 }, 4));
	ck_assert(!nm_lz_cx_probe(NULL, 0));
	/* NULL buffers and over-long requests are the caller's mistakes. */
	for (int c = 0; c < NCODECS; c++) {
		size_t clen;
		uint8_t *s = encode(c, (const uint8_t *)"abcd", 4, &clen);
		ck_assert_int_eq(codecs[c].decode(s, clen, NULL, 4, "t", &err, NULL), NM_E_INVAL);
		ck_assert_int_eq(codecs[c].decode(s, clen, d, 5, "t", &err, NULL), NM_E_INVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "announces 4"));
		ck_assert_int_eq(codecs[c].decode(s, clen, NULL, 0, "t", &err, NULL), NM_OK);
		ck_assert_int_eq(codecs[c].decode(NULL, 0, d, 0, "t", &err, NULL), NM_E_FORMAT);
		ck_assert_int_eq(codecs[c].header(s, 3, "t", &size, &err), NM_E_FORMAT);
		ck_assert_ptr_nonnull(strstr(err.msg, "t: at 0x0: "));
		ck_assert_int_eq(codecs[c].encode(NULL, 1, &(nm_out){ 0 }), NM_E_INVAL);
		free(s);
	}
	ck_assert_int_eq(nm_lz_cx_encode((nm_lz_cx_variant)0x12, d, 1, &(nm_out){ 0 }), NM_E_INVAL);
	/* An encoder's output under a small limit: refused, not cut. */
	nm_options small;
	nm_options_init(&small);
	small.max_file_size = 64;
	uint8_t *r = random_bytes(1000, 3);
	for (int c = 0; c < NCODECS; c++) {
		nm_out o;
		nm_out_init(&o);
		o.opt = &small;
		ck_assert_int_eq(codecs[c].encode(r, 1000, &o), NM_E_LIMIT);
		nm_out_free(&o);
	}
	free(r);
}
END_TEST

/* ---- LzS against python3-lzss ------------------------------------------------------------ */

/* Decode body (the bytes after the LzS header) with python3-lzss, Okumura's LZSS with a
 * ring of spaces; NULL when it is not installed. */
static uint8_t *okumura_decode(const uint8_t *body, size_t len, size_t *out_len)
{
	static const char *const pythons[] = { "/usr/bin/python3", "python3" };
	char in[] = "/tmp/nm_lzs_XXXXXX";
	int fd = mkstemp(in);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, body, len), (ssize_t)len);
	close(fd);
	uint8_t *out = NULL;
	for (size_t p = 0; p < 2 && !out; p++) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "%s -c 'import lzss, sys; sys.stdout.buffer.write("
			 "lzss.decompress(open(sys.argv[1], \"rb\").read()))' %s 2>/dev/null",
			 pythons[p], in);
		FILE *f = popen(cmd, "r");
		if (!f)
			continue;
		size_t cap = 1 << 16, n = 0, got;
		out = malloc(cap);
		while ((got = fread(out + n, 1, cap - n, f)) > 0) {
			n += got;
			if (n == cap)
				out = realloc(out, cap *= 2);
		}
		if (pclose(f) != 0) {
			free(out);
			out = NULL;
		}
		*out_len = n;
	}
	unlink(in);
	return out;
}

START_TEST(lzs_agrees_with_okumura)
{
	size_t n = 20000, clen, plen;
	/* Our encoder refers to the ring's first contents only for zeros near the start,
	 * so data without them decodes the same with either ring. */
	uint8_t *data = structured(n, 21);
	for (size_t i = 0; i < 4200; i++)
		data[i] |= 1;
	uint8_t *s = encode(LZS, data, n, &clen);
	uint8_t *p = okumura_decode(s + 16, clen - 16, &plen);
	if (!p) {
		printf("test_codec_lz: python3-lzss (Debian) not installed: LzS not checked "
		       "against an independent decoder\n");
		free(s);
		free(data);
		return;
	}
	ck_assert_uint_eq(plen, n);
	ck_assert_mem_eq(p, data, n);
	free(p);
	free(s);
	free(data);
}
END_TEST

/* ---- the corpus ------------------------------------------------------------------------------ */

static uint8_t *corpus_file(const char *rel, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	snprintf(path, sizeof path, "%s/../shared/corpus/%s", top ? top : ".", rel);
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("test_codec_lz: %s not found: that corpus case is skipped\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)n);
	ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Decode a corpus file fully and by prefixes from nm_X_input_bound bytes. */
static uint8_t *decode_corpus(int c, const uint8_t *s, size_t len, size_t *out)
{
	uint64_t size;
	nm_error err;
	ck_assert_int_eq(codecs[c].header(s, len, "f", &size, &err), NM_OK);
	uint8_t *d;
	ck_assert_msg(dec(c, s, len, (size_t)size, &d, &err) == NM_OK, "%s", err.msg);
	for (size_t k = 0; k < size; k = k * 2 + 1) {
		uint8_t *p;
		uint64_t b = codecs[c].bound(k);
		ck_assert_msg(dec_cut(c, s, b < len ? (size_t)b : len, k, &p, &err) == NM_OK, "%s",
			      err.msg);
		ck_assert_mem_eq(p, d, k);
		free(p);
	}
	*out = (size_t)size;
	return d;
}

START_TEST(corpus_yaz0_rarc)
{
	size_t len, n;
	uint8_t *s = corpus_file("rarc/fin_pikmin2_pikis.yaz0", &len);
	if (!s)
		return;
	ck_assert(nm_yaz0_probe(s, len));
	uint8_t *d = decode_corpus(YAZ0, s, len, &n);
	/* A RARC: magic, its own size = the decompressed size, header size 0x20, and the
	 * file data inside the file. */
	ck_assert_mem_eq(d, "RARC", 4);
	ck_assert_uint_eq(nm_be32(d + 4), n);
	ck_assert_uint_eq(nm_be32(d + 8), 0x20);
	ck_assert_uint_le(0x20 + (uint64_t)nm_be32(d + 12) + nm_be32(d + 16), n);
	/* Its info block: node table at 0x20 from 0x20, string table inside the file. */
	ck_assert_uint_eq(nm_be32(d + 0x24), 0x20);
	ck_assert_uint_le(0x20 + (uint64_t)nm_be32(d + 0x34) + nm_be32(d + 0x30), n);
	ck_assert_mem_eq(d + 0x40, "ROOT", 4);
	free(d);
	free(s);
}
END_TEST

START_TEST(corpus_lzs_gar)
{
	size_t len, n;
	uint8_t *s = corpus_file("gar/mm3dr_zelda2_mag.gar.lzs", &len);
	if (!s)
		return;
	ck_assert(nm_lzs_probe(s, len));
	ck_assert_uint_eq(nm_le32(s + 12), len - 16); /* the compressed size is the rest */
	uint8_t *d = decode_corpus(LZS, s, len, &n);
	/* A GAR v2: magic, its size, 0x20-byte header, tables inside the file. */
	ck_assert_mem_eq(d, "GAR\x02", 4);
	ck_assert_uint_eq(nm_le32(d + 4), n);
	ck_assert_uint_eq(nm_le32(d + 0x0C), 0x20);
	uint32_t types = nm_le16(d + 8), files = nm_le16(d + 0x0A);
	ck_assert_uint_le(nm_le32(d + 0x0C) + (uint64_t)types * 16, n);
	ck_assert_uint_le(nm_le32(d + 0x10) + (uint64_t)files * 12, n);
	ck_assert_uint_le(nm_le32(d + 0x14) + (uint64_t)files * 4, n);
	for (uint32_t i = 0; i < files; i++) {
		uint32_t off = nm_le32(d + nm_le32(d + 0x14) + 4 * i);
		uint32_t size = nm_le32(d + nm_le32(d + 0x10) + 12 * i);
		ck_assert_uint_le((uint64_t)off + size, n);
	}
	/* Okumura's decoder (spaces in the ring) differs only where the file copies the
	 * ring's first bytes: zeros here, spaces there. */
	size_t plen;
	uint8_t *p = okumura_decode(s + 16, len - 16, &plen);
	if (p) {
		ck_assert_uint_ge(plen, n);
		size_t diff = 0;
		for (size_t i = 0; i < n; i++)
			if (p[i] != d[i]) {
				ck_assert_msg(p[i] == ' ' && d[i] == 0, "byte %zu", i);
				diff++;
			}
		ck_assert_uint_gt(diff, 0);
		free(p);
	} else {
		printf("test_codec_lz: python3-lzss (Debian) not installed: GAR not compared\n");
	}
	free(d);
	free(s);
}
END_TEST

/* Every corpus stream decoded, compressed again by our encoder and decoded back: the
 * same bytes, in at most 5 % more room than the original's (games size their buffers for
 * their files; doc/apply.md), and in the same codec's header. */
START_TEST(corpus_compressed_again)
{
	typedef struct { const char *file; int codec; } corpus_stream;
	static const corpus_stream files[] = {
		{ "rarc/fin_pikmin2_pikis.yaz0", YAZ0 },
		{ "rarc/smg2mod_MogucchiShooter.arc", YAZ0 },
		{ "rarc/smg2mod_WaddleDoo.arc", YAZ0 },
		{ "rarc/smg2mod_WaterBazooka.arc", YAZ0 },
		{ "gar/mm3dr_zelda2_mag.gar.lzs", LZS },
	};
	const corpus_stream *f = &files[_i];
	size_t len, n, clen;
	uint8_t *s = corpus_file(f->file, &len);
	if (!s)
		return;
	uint8_t *d = decode_corpus(f->codec, s, len, &n);
	uint8_t *again = encode(f->codec, d, n, &clen), *back;
	nm_error err;
	ck_assert_msg(dec(f->codec, again, clen, n, &back, &err) == NM_OK, "%s", err.msg);
	ck_assert_mem_eq(back, d, n);
	ck_assert_msg(clen * 100 <= len * 105, "%s: %zu bytes again, was %zu", f->file, clen, len);
	/* And in every other codec, the same bytes back. */
	for (int c = 0; c < NCODECS; c++) {
		uint8_t *o = encode(c, d, n, &clen), *b;
		ck_assert_msg(dec(c, o, clen, n, &b, &err) == NM_OK, "%s", err.msg);
		ck_assert_mem_eq(b, d, n);
		free(b);
		free(o);
	}
	free(back);
	free(again);
	free(d);
	free(s);
}
END_TEST

/* ---- runner ---------------------------------------------------------------------------------- */

static Suite *lz_suite(void)
{
	Suite *s = suite_create("codec_lz");
	TCase *h = tcase_create("hand_built");
	tcase_add_loop_test(h, hand_built, 0, (int)(sizeof hand / sizeof *hand));
	tcase_add_loop_test(h, distance_4096, 0, NCODECS);
	tcase_add_loop_test(h, known_encodings, 0, (int)(sizeof known / sizeof *known));
	tcase_add_test(h, probes_and_arguments);
	suite_add_tcase(s, h);

	TCase *r = tcase_create("generated");
	tcase_set_timeout(r, 120);
	tcase_add_test(r, lz11_encodes_4_byte_form);
	tcase_add_loop_test(r, round_trips, 0, NCODECS);
	tcase_add_loop_test(r, every_truncation, 0, NCODECS);
	tcase_add_loop_test(r, tagged_streams, 0, 2);
	tcase_add_loop_test(r, prefixes_within_bound, 0, NCODECS);
	tcase_add_loop_test(r, gigabyte_header, 0, NCODECS);
	tcase_add_loop_test(r, random_streams, 0, NCODECS);
	tcase_add_test(r, lzs_agrees_with_okumura);
	suite_add_tcase(s, r);

	TCase *c = tcase_create("corpus");
	tcase_set_timeout(c, 120);
	tcase_add_test(c, corpus_yaz0_rarc);
	tcase_add_test(c, corpus_lzs_gar);
	tcase_add_loop_test(c, corpus_compressed_again, 0, 5);
	suite_add_tcase(s, c);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(lz_suite)
