/* Whole-file compression wrappers as drivers: Yaz0, Yay0, LzS and Nintendo LZ10/LZ11.
 * The wrapped content shows as its own format's tree (a Yaz0 RARC shows the RARC tree),
 * its info.txt saying the compression, plus decompressed.bin; content no driver knows
 * shows as info.txt and decompressed.bin alone. Mounting decodes only what the inner
 * driver reads (an archive's table of contents: a prefix; nm_unpack_open). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/lz_cx.h"
#include "codec/lzs.h"
#include "codec/yay0.h"
#include "codec/yaz0.h"
#include "export/text.h"
#include "formats/container/container.h"

/* The last lines of info.txt: how the file was compressed. */
static nm_status add_compression(nm_tree *t, nm_node *root, nm_reader *r, const char *codec)
{
	nm_node *info = nm_child(t, root, "info.txt");
	if (!info)
		return NM_OK;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "compression", "%s", codec);
	nm_kv(&o, "compressed_size", "%llu", (unsigned long long)nm_reader_size(r));
	nm_status s = nm_text_append(t, info, &o);
	nm_out_free(&o);
	return s;
}

static nm_status build(nm_codec_id id, const nm_driver *self, nm_reader *r, nm_tree *t,
		       nm_node *root, nm_error *err)
{
	const char *file = nm_reader_name(r);
	uint8_t head[8]; /* what nm_codec_name reads: LZ10/LZ11's type byte after a tag */
	size_t hlen = nm_reader_size(r) < sizeof head ? (size_t)nm_reader_size(r) : sizeof head;
	nm_reader *u;
	nm_status s = nm_reader_read(r, 0, head, hlen, NULL, err);
	if (s == NM_OK)
		s = nm_unpack_open(t, r, 0, nm_reader_size(r), id, file, &u, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_place(u, nm_reader_place(r));  /* its neighbours are the file's */
	const nm_options *opt = nm_tree_options(t);
	if (nm_reader_depth(u) > opt->max_depth)
		return nm_fail(err, NM_E_LIMIT, file, NULL, NM_NO_OFFSET,
			       "nested %u containers deep, more than max_depth (%llu)",
			       nm_reader_depth(u), (unsigned long long)opt->max_depth);
	const char *codec = nm_codec_name(id, head, hlen);
	const nm_driver *d;
	nm_error why;
	s = nm_driver_find(u, &d, &why);
	if (s == NM_OK) {
		s = d->build(u, t, root, err);
		if (s == NM_OK)
			s = add_compression(t, root, r, codec);
	} else if (s == NM_E_UNSUPPORTED) {
		nm_out o;
		nm_out_init(&o);
		nm_info_begin(&o, self, r);
		nm_kv(&o, "compression", "%s", codec);
		nm_kv(&o, "decompressed_size", "%llu", (unsigned long long)nm_reader_size(u));
		nm_kv_str(&o, "content", "not a format this tool reads");
		s = nm_text(t, root, "info.txt", &o) ? NM_OK : NM_E_NOMEM;
		nm_out_free(&o);
	} else {
		*err = why;   /* the first bytes do not decode */
		return s;
	}
	if (s != NM_OK)
		return s == NM_E_NOMEM ? nm_fail(err, s, file, NULL, NM_NO_OFFSET, "out of memory")
				       : s;
	static const char *const bin[] = { ".bin", NULL };
	char *stem = nm_unique_stem(t, root, "decompressed", bin);
	char *name = stem ? nm_tree_printf(t, "%s.bin", stem) : NULL;
	free(stem);
	if (!name || !nm_slice(t, root, name, u, 0, nm_reader_size(u)))
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

/* LZ10 packs at most 8 tokens of 18 bytes into 17 bytes (a flag byte, 8 two-byte
 * references): it cannot announce more than 144/17 of its size. */
#define LZ10_MAX_RATIO(size) ((size) / 17 * 144 + 144)

/* LZ10/LZ11 are known by one byte: also ask that the announced size is not zero, that
 * LZ10's is one its bytes can hold, and that the first bytes decode (a back-reference
 * before the start fails). A file that merely starts with 0x10 is then rarely taken.
 * As many bytes are decoded as the head surely holds the tokens of (43 of a 64-byte
 * head), not only the first 8: Luigi's Mansion 3D's .bas files start with a count
 * byte of 0x11 and zeros, which read as an LZ11 header and eight literals, and their
 * first back-reference comes at byte 8. */
static bool lz_cx_plausible(const uint8_t *head, size_t len, uint64_t size)
{
	uint64_t out;
	if (!nm_lz_cx_probe(head, len) || nm_lz_cx_header(head, len, "probe", &out, NULL) != NM_OK ||
	    out == 0 || (nm_lz_cx_variant_of(head, len) == NM_LZ10 && out > LZ10_MAX_RATIO(size)))
		return false;
	uint8_t dst[NM_PROBE_BYTES];
	size_t n = out < sizeof dst ? (size_t)out : sizeof dst;
	if (len < size)
		while (n > 0 && nm_lz_cx_input_bound(n) > len)
			n--;
	if (n == 0)
		return true; /* the head cannot hold one token: the header alone decides */
	return nm_lz_cx_decode(head, len, dst, n, "probe", NULL, NULL) == NM_OK;
}

#define WRAPPER(NAME, ID, PROBE, DESC)                                                    \
	static nm_status NAME##_build(nm_reader *r, nm_tree *t, nm_node *root,            \
				      nm_error *err);                                      \
	static bool NAME##_probe(const uint8_t *head, size_t len, uint64_t size)          \
	{                                                                                  \
		return PROBE;                                                              \
	}                                                                                  \
	const nm_driver nm_driver_##NAME = {                                               \
		.name = #NAME, .description = DESC, .probe = NAME##_probe,                 \
		.build = NAME##_build, .archive = true,                                    \
	};                                                                                 \
	static nm_status NAME##_build(nm_reader *r, nm_tree *t, nm_node *root,            \
				      nm_error *err)                                       \
	{                                                                                  \
		return build(ID, &nm_driver_##NAME, r, t, root, err);                      \
	}

WRAPPER(yaz0_wrap, NM_CODEC_YAZ0, nm_yaz0_probe(head, len), "Yaz0 compressed")
WRAPPER(yay0_wrap, NM_CODEC_YAY0, nm_yay0_probe(head, len), "Yay0 compressed")
WRAPPER(lzs_wrap, NM_CODEC_LZS, nm_lzs_probe(head, len), "LzS compressed")
WRAPPER(lz_cx_wrap, NM_CODEC_LZCX, lz_cx_plausible(head, len, size), "LZ10/LZ11 compressed")
