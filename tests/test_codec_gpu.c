/* Tests for the Switch GPU-buffer codecs: the arithmetic-coded byte stream, LZSS with
 * 3-byte references, and every codec tag through codec/gpu_buffer.h.
 *
 * Item streams are written by hand, so the LZSS layer is pinned down independently of
 * our compressor. For the arithmetic-coded tags the same hand-written items go through
 * our encoder; the coder itself is pinned by a hand-computed stream (the end symbol
 * alone) and, in test_rfrm's corpus case, by real Switch streams. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "codec/arith_retro.h"
#include "codec/gpu_buffer.h"
#include "codec/lzss_retro.h"
#include "tests/prng.h"

/* ---- the arithmetic coder ---------------------------------------------------------- */

START_TEST(arith_end_symbol_by_hand)
{
	/* The end symbol alone: rank 257 owns [0, 1) of 257, so high becomes 254 and eight
	 * zero bits go out until it passes 0x8000; the flush sends 0 then the owed 1, then
	 * 16 zero bits: 26 bits, bit 9 set. */
	static const uint8_t s[] = { 0x00, 0x02, 0x00, 0x00 };
	uint8_t *enc;
	size_t n;
	ck_assert_int_eq(nm_arith_encode(NULL, 0, &enc, &n), NM_OK);
	ck_assert_uint_eq(n, sizeof s);
	ck_assert_mem_eq(enc, s, sizeof s);
	free(enc);
	nm_arith_decoder d;
	nm_arith_decoder_init(&d, s, sizeof s);
	ck_assert_int_eq(nm_arith_next(&d), NM_ARITH_END);
	ck_assert_int_eq(nm_arith_next(&d), NM_ARITH_END);
	/* 16 read ahead + 8 shifts; + 2 flush bits, whole bytes. */
	ck_assert_uint_eq(d.bits, 24);
	ck_assert_uint_eq(nm_arith_stream_len(&d), 4);
	/* Cut short: the decoder would need bits that are not there. */
	nm_arith_decoder_init(&d, s, 2);
	ck_assert_int_eq(nm_arith_next(&d), NM_ARITH_ERROR);
	ck_assert_int_eq(d.status, NM_E_FORMAT);
}
END_TEST

/* Round trips over data that drives the model: uniform, skewed, one long run (the
 * total passes 0x3fff many times, so the halving is exercised). */
START_TEST(arith_round_trips)
{
	static const size_t sizes[] = { 1, 2, 255, 256, 4096, 70000 };
	uint32_t seed = 7;
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (int shape = 0; shape < 3; shape++) {
			size_t n = sizes[si];
			uint8_t *p = malloc(n);
			for (size_t i = 0; i < n; i++) {
				uint32_t r = xorshift(&seed);
				p[i] = shape == 0 ? (uint8_t)r : shape == 1 ? (uint8_t)(r % 7 ? 'a' : r >> 24)
					 : (uint8_t)(i < n / 2 ? 0 : 0xFF);
			}
			uint8_t *enc;
			size_t elen;
			ck_assert_int_eq(nm_arith_encode(p, n, &enc, &elen), NM_OK);
			/* Followed by unrelated bytes, as in a GPU chunk. */
			uint8_t *buf = malloc(elen + 8);
			memcpy(buf, enc, elen);
			memset(buf + elen, 0xA5, 8);
			nm_arith_decoder d;
			nm_arith_decoder_init(&d, buf, elen + 8);
			for (size_t i = 0; i < n; i++)
				ck_assert_int_eq(nm_arith_next(&d), p[i]);
			ck_assert_int_eq(nm_arith_next(&d), NM_ARITH_END);
			ck_assert_uint_eq(nm_arith_stream_len(&d), elen);
			/* Every cut that removes coded bits fails; never a wrong byte (a
			 * spread of cuts over the smaller streams). */
			for (size_t cut = 0; n <= 4096 && cut + 2 < elen; cut += 1 + elen / 40) {
				nm_arith_decoder_init(&d, buf, cut);
				size_t i = 0;
				int b;
				while ((b = nm_arith_next(&d)) >= 0) {
					ck_assert_uint_lt(i, n);
					ck_assert_int_eq(b, p[i]);
					i++;
				}
				ck_assert_int_eq(b, NM_ARITH_ERROR);
			}
			free(buf);
			free(enc);
			free(p);
		}
}
END_TEST

/* ---- LZSS with 3-byte references ----------------------------------------------------- */

struct lz_case {
	const char *what;
	nm_lzss_kind kind;
	uint8_t items[24];
	size_t nitems;
	const char *want;  /* NULL: must fail */
	size_t want_len;
	nm_status fail;
};

static const struct lz_case lz_cases[] = {
	{ "unit 1: a b c, ref(count 2+1, dist 3)", { 1, true },
	  { 0x10, 'a', 'b', 'c', 0x02, 0x00, 0x03 }, 7, "abcabc", 6, NM_OK },
	{ "unit 1: overlapping run, count 0+1 = 1 byte", { 1, true },
	  { 0x60, 'x', 0x04, 0x00, 0x01, 0x00, 0x00, 0x01 }, 8, "xxxxxxx", 7, NM_OK },
	{ "unit 2: ab cd, ref(count 1+1 units, dist 2 units)", { 2, true },
	  { 0x20, 'a', 'b', 'c', 'd', 0x01, 0x00, 0x02 }, 8, "abcdabcd", 8, NM_OK },
	{ "unit 4: one word, ref(count 0+1, dist 1 unit)", { 4, true },
	  { 0x40, 'w', 'x', 'y', 'z', 0x00, 0x00, 0x01 }, 8, "wxyzwxyz", 8, NM_OK },
	{ "distance 0", { 1, true }, { 0x40, 'a', 0x00, 0x00, 0x00 }, 5, NULL, 2, NM_E_FORMAT },
	{ "reference before the start", { 2, true },
	  { 0x40, 'a', 'b', 0x00, 0x00, 0x02 }, 6, NULL, 4, NM_E_FORMAT },
	{ "first item a reference", { 1, true }, { 0x80, 0x00, 0x00, 0x01 }, 4, NULL, 1,
	  NM_E_FORMAT },
	{ "reference cut inside", { 1, true }, { 0x40, 'a', 0x00, 0x00 }, 4, NULL, 2,
	  NM_E_FORMAT },
	{ "literal cut inside (unit 4)", { 4, true }, { 0x00, 1, 2, 3 }, 4, NULL, 4,
	  NM_E_FORMAT },
	{ "short refs (unit 1): ref(count 0+3, dist 2)", { 1, false },
	  { 0x20, 'a', 'b', 0x00, 0x02 }, 5, "ababa", 5, NM_OK },
	/* The output is full inside the reference: it is cut at dst_len. */
	{ "overrun cut at dst_len", { 1, true },
	  { 0x40, 'q', 0x09, 0x00, 0x01 }, 5, "qqqq", 4, NM_OK },
};

START_TEST(lzss_long_refs_table)
{
	const struct lz_case *c = &lz_cases[_i];
	uint8_t *dst = malloc(c->want_len ? c->want_len : 1);
	nm_lzss_src s = { c->items, c->nitems, 0, NULL };
	size_t got;
	nm_status st = nm_lzss_run(c->kind, &s, dst, c->want_len, false, &got);
	ck_assert_msg(st == c->fail, "%s: status %d", c->what, st);
	if (c->want)
		ck_assert_mem_eq(dst, c->want, c->want_len);
	free(dst);
}
END_TEST

START_TEST(lzss_long_count_and_distance_limits)
{
	/* Count byte 255 = 256 units; a distance above 4095 units that the short form
	 * cannot reach. */
	enum { N = 5000 };
	uint8_t items[N + N / 8 + 16], want[N + 256];
	size_t k = 0;
	for (size_t i = 0; i < N; i += 8) {
		size_t grp = N - i < 8 ? N - i : 8;
		items[k++] = 0;
		for (size_t j = 0; j < grp; j++)
			items[k++] = want[i + j] = (uint8_t)((i + j) * 13);
	}
	items[k++] = 0x80;
	items[k++] = 0xFF;
	items[k++] = (uint8_t)(N >> 8);
	items[k++] = (uint8_t)N;
	memcpy(want + N, want, 256);
	uint8_t *dst = malloc(N + 256);
	nm_lzss_src s = { items, k, 0, NULL };
	size_t got;
	ck_assert_int_eq(nm_lzss_run((nm_lzss_kind){ 1, true }, &s, dst, N + 256, false, &got),
			 NM_OK);
	ck_assert_uint_eq(got, N + 256);
	ck_assert_mem_eq(dst, want, N + 256);
	/* until_end: the same stream ends where its last item does... */
	s.pos = 0;
	ck_assert_int_eq(nm_lzss_run((nm_lzss_kind){ 1, true }, &s, NULL, N + 1000, true, &got),
			 NM_OK);
	ck_assert_uint_eq(got, N + 256);
	ck_assert_uint_eq(s.pos, k);
	/* ...and more than the cap is a limit, not a write past it. */
	s.pos = 0;
	ck_assert_int_eq(nm_lzss_run((nm_lzss_kind){ 1, true }, &s, dst, N + 255, true, &got),
			 NM_E_LIMIT);
	free(dst);
}
END_TEST

/* ---- every tag ------------------------------------------------------------------------ */

/* Hand-written items giving "abcabcabcX" for each LZSS family (unit 1 so the bytes stay
 * readable; units 2 and 4 are covered above and by the round trips). */
static const uint8_t items_short[] = { 0x10, 'a', 'b', 'c', 0x30, 0x03, 'X' };
static const uint8_t items_long[] = { 0x10, 'a', 'b', 'c', 0x05, 0x00, 0x03, 'X' };
static const char plain[] = "abcabcabcX";

/* A buffer with this tag holding plain, written by hand (arithmetic tags: the hand
 * items through our encoder). */
static uint8_t *hand_buffer(uint32_t tag, size_t *len)
{
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	uint8_t *out;
	if (tag == NM_GPU_TAG_STORED || tag == NM_GPU_TAG_ZLIB || c->unit != 1) {
		ck_assert_int_eq(nm_gpu_encode(tag, (const uint8_t *)plain, 10, &out, len), NM_OK);
		return out;
	}
	const uint8_t *items = c->long_refs ? items_long : items_short;
	size_t n = c->long_refs ? sizeof items_long : sizeof items_short;
	uint8_t *coded = NULL;
	if (c->arith)
		ck_assert_int_eq(nm_arith_encode(items, n, &coded, &n), NM_OK);
	out = malloc(4 + n);
	out[0] = (uint8_t)tag;
	out[1] = out[2] = out[3] = 0;
	memcpy(out + 4, coded ? coded : items, n);
	free(coded);
	*len = 4 + n;
	return out;
}

START_TEST(every_tag_decodes_and_ends)
{
	uint32_t tag = (uint32_t)_i;
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	ck_assert_ptr_nonnull(c);
	size_t len;
	uint8_t *b = hand_buffer(tag, &len);
	/* The next buffer follows: where this one ends must be found exactly. */
	uint8_t *chunk = malloc(len + 6);
	memcpy(chunk, b, len);
	memcpy(chunk + len, "\x0d\x00\x00\x00\x78\xda", 6);
	uint8_t dst[10];
	size_t used;
	ck_assert_int_eq(nm_gpu_decode(chunk, len + 6, dst, 10, &used), NM_OK);
	ck_assert_mem_eq(dst, plain, 10);
	ck_assert_uint_eq(used, len);
	ck_assert_int_eq(nm_gpu_decode(chunk, len + 6, NULL, 10, &used), NM_OK);
	ck_assert_uint_eq(used, len);
	/* Streams that end by themselves are measured; the others use up what they get.
	 * Measured, a padded last unit counts whole. */
	size_t out, whole = c->unit ? (10 + c->unit - 1) / c->unit * c->unit : 10;
	nm_status st = nm_gpu_measure(chunk, c->ends_itself ? len + 6 : len, 1000, &out, &used);
	ck_assert_int_eq(st, NM_OK);
	ck_assert_uint_eq(out, whole);
	ck_assert_uint_eq(used, len);
	/* A cap below the size is a limit. */
	ck_assert_int_eq(nm_gpu_measure(chunk, c->ends_itself ? len + 6 : len, whole - 1, &out,
					&used), NM_E_LIMIT);
	/* A shorter output: a prefix, except for streams whose end must follow. */
	uint8_t small[4];
	st = nm_gpu_decode(chunk, len + 6, small, 4, &used);
	if (c->ends_itself) {
		ck_assert_int_eq(st, NM_E_FORMAT);
	} else {
		ck_assert_int_eq(st, NM_OK);
		ck_assert_mem_eq(small, plain, 4);
	}
	/* A longer one than its padded units: the stream runs out (never a write past). */
	uint8_t *big = malloc(whole + 1);
	ck_assert_int_eq(nm_gpu_decode(b, len, big, whole + 1, &used), NM_E_FORMAT);
	free(big);
	/* Every truncation fails (but a plain stream's padding of its last unit may go:
	 * a cut literal needs only the bytes that fit). */
	size_t need = c->ends_itself ? len : len - (whole - 10);
	for (size_t cut = 0; cut < need; cut++) {
		uint8_t *p = malloc(cut ? cut : 1);
		memcpy(p, b, cut);
		ck_assert_msg(nm_gpu_decode(p, cut, dst, 10, &used) != NM_OK,
			      "tag %u cut at %zu decoded", tag, cut);
		free(p);
	}
	free(chunk);
	free(b);
}
END_TEST

START_TEST(unknown_tags)
{
	static const uint8_t bad[][4] = {
		{ 0x0e, 0, 0, 0 }, { 0xff, 0, 0, 0 }, { 0x0c, 0, 0, 1 }, { 0x00, 0x0d, 0, 0 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint8_t buf[8] = { 0 };
		memcpy(buf, bad[i], 4);
		size_t out, used;
		ck_assert_ptr_null(nm_gpu_codec_of(buf));
		ck_assert_int_eq(nm_gpu_decode(buf, sizeof buf, buf, 1, &used), NM_E_UNSUPPORTED);
		ck_assert_int_eq(nm_gpu_measure(buf, sizeof buf, 8, &out, &used), NM_E_UNSUPPORTED);
	}
	size_t used;
	ck_assert_int_eq(nm_gpu_decode((const uint8_t *)"\x0c\0", 2, NULL, 0, &used), NM_E_FORMAT);
}
END_TEST

/* An arithmetic stream holding items past the declared size is refused: its end is
 * what tells where the next buffer begins. */
START_TEST(arith_longer_than_declared)
{
	size_t len, used;
	uint8_t *b = hand_buffer(0x0a, &len);
	uint8_t dst[9];
	ck_assert_int_eq(nm_gpu_decode(b, len, dst, 9, &used), NM_E_FORMAT);
	ck_assert_int_eq(nm_gpu_decode(b, len, dst, 5, &used), NM_E_FORMAT);
	free(b);
}
END_TEST

/* Our encoders against our decoders, every tag, sizes that are and are not multiples
 * of the unit, data with and without repeats. */
START_TEST(every_tag_round_trips)
{
	uint32_t tag = (uint32_t)_i;
	static const size_t sizes[] = { 0, 1, 3, 4, 7, 100, 5000, 70001 };
	uint32_t seed = 99 + tag;
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		size_t n = sizes[si];
		uint8_t *p = malloc(n ? n : 1);
		for (size_t i = 0; i < n; i++)
			p[i] = (i / 64) % 2 ? (uint8_t)(i % 12) : (uint8_t)xorshift(&seed);
		uint8_t *enc, *dst = malloc(n ? n : 1);
		size_t elen, used, out;
		ck_assert_int_eq(nm_gpu_encode(tag, p, n, &enc, &elen), NM_OK);
		ck_assert_int_eq(nm_gpu_decode(enc, elen, dst, n, &used), NM_OK);
		ck_assert_uint_eq(used, elen);
		if (n)
			ck_assert_mem_eq(dst, p, n);
		const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
		/* A partial last unit is padded: measuring by the stream gives whole units. */
		size_t whole = c->unit ? (n + c->unit - 1) / c->unit * c->unit : n;
		ck_assert_int_eq(nm_gpu_measure(enc, elen, 1u << 20, &out, &used), NM_OK);
		ck_assert_uint_eq(out, whole);
		ck_assert_uint_eq(used, elen);
		free(enc);
		free(dst);
		free(p);
	}
}
END_TEST

/* nm_gpu_decode_prefix: every prefix of a stream of every tag is the start of its whole
 * decode, the stream's end unchecked (a prefix of a stream cut after it decodes too);
 * one byte more than the stream holds, or a stream cut inside the prefix, does not. */
START_TEST(every_tag_decodes_a_prefix)
{
	uint32_t tag = (uint32_t)_i;
	size_t n = 70001;
	uint32_t seed = 7 + tag;
	/* dst holds whole + 1 (a last unit of 4 padded, one byte more) for the last check. */
	uint8_t *p = malloc(n), *dst = malloc(n + 8);
	for (size_t i = 0; i < n; i++)
		p[i] = (i / 64) % 2 ? (uint8_t)(i % 12) : (uint8_t)xorshift(&seed);
	uint8_t *enc;
	size_t elen;
	ck_assert_int_eq(nm_gpu_encode(tag, p, n, &enc, &elen), NM_OK);
	static const size_t prefixes[] = { 0, 1, 3, 4, 17, 4096, 65537, 70000, 70001 };
	for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
		size_t want = prefixes[k];
		memset(dst, 0xEE, n + 1);
		ck_assert_int_eq(nm_gpu_decode_prefix(enc, elen, dst, want), NM_OK);
		if (want)
			ck_assert_mem_eq(dst, p, want);
		ck_assert_uint_eq(dst[want], 0xEE);   /* nothing past it written */
	}
	ck_assert_int_eq(nm_gpu_decode_prefix(enc, elen / 2 + 4, dst, 1000), NM_OK);
	ck_assert_mem_eq(dst, p, 1000);
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	size_t whole = c->unit ? (n + c->unit - 1) / c->unit * c->unit : n;
	ck_assert_int_ne(nm_gpu_decode_prefix(enc, elen, dst, whole + 1), NM_OK);
	ck_assert_int_ne(nm_gpu_decode_prefix(enc, 40, dst, n), NM_OK);
	free(enc);
	free(dst);
	free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("codec_gpu");
	TCase *a = tcase_create("arith");
	tcase_add_test(a, arith_end_symbol_by_hand);
	tcase_add_test(a, arith_round_trips);
	tcase_set_timeout(a, 60);
	suite_add_tcase(s, a);
	TCase *l = tcase_create("lzss_long");
	tcase_add_loop_test(l, lzss_long_refs_table, 0, sizeof lz_cases / sizeof lz_cases[0]);
	tcase_add_test(l, lzss_long_count_and_distance_limits);
	suite_add_tcase(s, l);
	TCase *g = tcase_create("tags");
	tcase_add_loop_test(g, every_tag_decodes_and_ends, 0, NM_GPU_TAG_COUNT);
	tcase_add_test(g, unknown_tags);
	tcase_add_test(g, arith_longer_than_declared);
	tcase_add_loop_test(g, every_tag_round_trips, 0, NM_GPU_TAG_COUNT);
	tcase_add_loop_test(g, every_tag_decodes_a_prefix, 0, NM_GPU_TAG_COUNT);
	tcase_set_timeout(g, 60);
	suite_add_tcase(s, g);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(suite)
