/* Archives, compression wrappers and the container layer: RARC, ZAR, GAR v2/v5 and the
 * Yaz0/Yay0/LzS/LZ10/LZ11 wrappers from tests/fixtures/archive_writer.c with known
 * members, hostile tables, nesting and max_depth, laziness (mounting reads the table of
 * contents only; a wrapped archive decodes only its start), the bounded cache, sibling
 * lookup; and every corpus archive against an extraction independent of the drivers. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codec/lzs.h"
#include "codec/yaz0.h"
#include "formats/container/container.h"
#include "formats/driver.h"
#include "lib/cache.h"
#include "tests/check_expect.h"
#include "tests/check_main.h"
#include "tests/fixtures/archive_writer.h"
#include "tests/fixtures/cmod_writer.h"
#include "tests/walk.h"

/* A tree over a copy of bytes under opt (NULL: defaults); NULL and err when it fails. */
static nm_tree *build_opt(const uint8_t *bytes, size_t len, const char *name,
			  const nm_options *opt, nm_error *err)
{
	nm_reader *r;
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, bytes, len);
	ck_assert_int_eq(nm_reader_new_memory(name, copy, len, &r, err), NM_OK);
	nm_tree *t = nm_tree_new(opt);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	if (nm_build_any(r, t, nm_tree_root(t), err) != NM_OK) {
		nm_tree_free(t);
		return NULL;
	}
	return t;
}

static nm_tree *build(const nm_out *o, const char *name)
{
	nm_error err;
	nm_tree *t = build_opt(o->data, o->len, name, NULL, &err);
	ck_assert_msg(t != NULL, "%s: %s", name, err.msg);
	return t;
}

/* The file at path reads back as exactly want[0..len). */
static void expect_bytes(nm_tree *t, const char *path, const uint8_t *want, size_t len)
{
	size_t got;
	char *s = walk_read(t, path, &got);
	ck_assert_msg(s != NULL, "%s missing or unreadable", path);
	ck_assert_msg(got == len && memcmp(s, want, len) == 0, "%s: %zu bytes, want %zu", path,
		      got, len);
	free(s);
}

static bool is_dir(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	return nm_resolve(t, path, &n, &err) == NM_OK && nm_node_type(n) == NM_NODE_DIR;
}

static bool exists(nm_tree *t, const char *path)
{
	nm_node *n;
	nm_error err;
	return nm_resolve(t, path, &n, &err) == NM_OK;
}

static size_t count_faces(const char *obj)
{
	size_t n = 0;
	for (const char *p = obj; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += p[0] == 'f' && p[1] == ' ';
	return n;
}

/* The mesh.obj a loose copy of bytes shows. */
static char *loose_obj(const uint8_t *bytes, size_t len)
{
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build(bytes, len, "loose", &t, &err), NM_OK);
	char *obj = walk_read(t, "/mesh.obj", NULL);
	nm_tree_free(t);
	return obj;
}

static uint8_t pattern[300000];

static void fill_pattern(void)
{
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof pattern; i++) {
		x = x * 1103515245 + 12345;
		/* Runs and noise, so every codec has matches and literals to write. */
		pattern[i] = (i / 64) % 3 == 0 ? (uint8_t)(i / 200) : (uint8_t)(x >> 24);
	}
}

START_TEST(rarc_plain)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	static const uint8_t hello[] = "hello, archive\n";
	arcw_file files[] = {
		{ "bdl/model one.cmod", model, mlen, ARCW_STORED },
		{ "txt/read me.txt", hello, sizeof hello - 1, ARCW_STORED },
		{ "top.bin", pattern, 300, ARCW_STORED },
	};
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 3, "archive", &o, NULL), 0);
	nm_tree *t = build(&o, "x.arc");
	/* Mounting read the table of contents only: no folder listed, nothing produced. */
	ck_assert_uint_eq(nm_tree_populations(t), 0);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect(t, "/info.txt", "format: RARC archive (GameCube/Wii)\n");
	expect(t, "/info.txt", "members: 3\nfolders: 3\ncompressed_members: 0\n");
	expect(t, "/info.txt", "errors: 0\n");
	nm_node *n, **kids;
	size_t count;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "/archive", &n, &err), NM_OK);
	ck_assert_int_eq(nm_children(t, n, &kids, &count, &err), NM_OK);
	ck_assert_uint_eq(count, 3); /* bdl, txt, top.bin: "." and ".." hidden */
	ck_assert_uint_eq(nm_tree_populations(t), 1); /* listing a folder probes, parses nothing */
	expect_bytes(t, "/archive/top.bin", pattern, 300);
	expect_bytes(t, "/archive/txt/read me.txt", hello, sizeof hello - 1);
	ck_assert(is_dir(t, "/archive/bdl/model one.cmod"));
	expect_bytes(t, "/archive/bdl/model one.cmod/raw.bin", model, mlen);
	expect(t, "/archive/bdl/model one.cmod/info.txt", "format: Celestia binary CMOD\n");
	char *obj = walk_read(t, "/archive/bdl/model one.cmod/mesh.obj", NULL), *want = loose_obj(model, mlen);
	ck_assert_ptr_nonnull(obj);
	ck_assert_str_eq(obj, want);
	ck_assert_uint_gt(count_faces(obj), 0);
	free(obj);
	free(want);
	expect_clean_walk(t);
	nm_tree_free(t);
	nm_out_free(&o);
	free(model);
}
END_TEST

START_TEST(rarc_compressed_members)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	arcw_file files[] = {
		{ "a/model.cmod", model, mlen, ARCW_YAZ0 },
		{ "a/data.bin", pattern, 100000, ARCW_YAZ0 },
		{ "b/other.bin", pattern + 7, 5000, ARCW_YAY0 },
	};
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 3, "root", &o, NULL), 0);
	nm_tree *t = build(&o, "c.arc");
	expect(t, "/info.txt", "compressed_members: 3\n");
	expect_bytes(t, "/root/a/data.bin", pattern, 100000);
	expect_bytes(t, "/root/b/other.bin", pattern + 7, 5000);
	expect_bytes(t, "/root/a/model.cmod/raw.bin", model, mlen);
	/* The independent extraction agrees. */
	size_t len;
	uint8_t *x = arcw_member(o.data, o.len, "b/other.bin", &len);
	ck_assert_ptr_nonnull(x);
	expect_bytes(t, "/root/b/other.bin", x, len);
	free(x);
	expect(t, "/root/a/model.cmod/info.txt", "format: Celestia binary CMOD\n");
	expect_clean_walk(t);
	nm_tree_free(t);
	nm_out_free(&o);
	free(model);
}
END_TEST

/* A Yaz0 RARC: its info.txt says so, mounting decodes only the start (a prefix in the
 * cache, no member), and reading a member decodes the whole once. */
START_TEST(yaz0_rarc_lazy)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	arcw_file files[] = {
		{ "big.bin", pattern, sizeof pattern, ARCW_STORED },
		{ "m/model.cmod", model, mlen, ARCW_STORED },
	};
	nm_out arc, o;
	nm_out_init(&arc);
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 2, "scene", &arc, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, arc.data, arc.len, &o), 0);
	nm_tree *t = build(&o, "x.szs");
	ck_assert_uint_le(nm_cache_bytes(nm_tree_cache(t)), NM_UNPACK_PREFIX);
	expect(t, "/info.txt", "format: RARC archive (GameCube/Wii)\n");
	expect(t, "/info.txt", "compression: Yaz0\n");
	expect_bytes(t, "/decompressed.bin", arc.data, arc.len);
	ck_assert_uint_ge(nm_cache_bytes(nm_tree_cache(t)), arc.len);
	uint64_t fills = nm_cache_fills(nm_tree_cache(t));
	expect_bytes(t, "/scene/big.bin", pattern, sizeof pattern);
	expect_bytes(t, "/scene/m/model.cmod/raw.bin", model, mlen);
	/* Both read through the one decoded archive: decoded once. */
	ck_assert_uint_eq(nm_cache_fills(nm_tree_cache(t)), fills);
	expect_clean_walk(t);
	nm_tree_free(t);
	nm_out_free(&arc);
	nm_out_free(&o);
	free(model);
}
END_TEST

/* Under a small cache, decompressed members are evicted and decoded again: the bytes
 * stay right and the cache stays bounded (the entry being read aside). */
START_TEST(cache_evicts_members)
{
	static uint8_t big[700000];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = pattern[i % sizeof pattern] ^ (uint8_t)(i >> 16);
	arcw_file files[] = {
		{ "one.bin", big, sizeof big, ARCW_YAZ0 },
		{ "two.bin", big + 1, sizeof big - 1, ARCW_YAZ0 },
	};
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 2, "r", &o, NULL), 0);
	nm_options opt;
	nm_options_init(&opt);
	opt.cache_size = 1u << 20;
	nm_error err;
	nm_tree *t = build_opt(o.data, o.len, "e.arc", &opt, &err);
	ck_assert_ptr_nonnull(t);
	expect_bytes(t, "/r/one.bin", big, sizeof big);
	expect_bytes(t, "/r/two.bin", big + 1, sizeof big - 1);
	uint64_t fills = nm_cache_fills(nm_tree_cache(t));
	ck_assert_uint_le(nm_cache_bytes(nm_tree_cache(t)), opt.cache_size);
	expect_bytes(t, "/r/one.bin", big, sizeof big);
	ck_assert_uint_gt(nm_cache_fills(nm_tree_cache(t)), fills); /* decoded again */
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* A source that counts the bytes read from it: how often a stream is decoded. */
typedef struct counted {
	const uint8_t *data;
	uint64_t read;
} counted;

static nm_status counted_read(void *ctx, uint64_t off, void *buf, size_t len,
			      const char *chunk, nm_error *err)
{
	counted *c = ctx;
	(void)chunk, (void)err;
	memcpy(buf, c->data + off, len);
	c->read += len;
	return NM_OK;
}

/* A Yaz0 RARC cut short 100 bytes before its end: it mounts, the member before the cut
 * reads whole, and the one the cut falls in reads up to it; past it a read says where
 * the stream ends, and says it again without decoding the stream again (each member
 * read of a damaged archive decoded it whole, only to fail). */
START_TEST(damaged_stream_read_to_the_damage)
{
	arcw_file files[] = {
		{ "a.bin", pattern, 150000, ARCW_STORED },
		{ "b.bin", pattern + 1, 150000, ARCW_STORED },
	};
	nm_out arc, o;
	nm_out_init(&arc);
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 2, "r", &arc, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, arc.data, arc.len, &o), 0);
	static const nm_source_ops ops = { .read = counted_read };
	counted c = { o.data, 0 };
	nm_reader *r;
	nm_error err;
	ck_assert_int_eq(nm_reader_new_source("cut.szs", o.len - 100, &ops, &c, &r, &err),
			 NM_OK);
	nm_tree *t = nm_tree_new(NULL);
	ck_assert_int_eq(nm_tree_adopt_reader(t, r), NM_OK);
	ck_assert_msg(nm_build_any(r, t, nm_tree_root(t), &err) == NM_OK, "%s", err.msg);
	expect_bytes(t, "/r/a.bin", pattern, 150000);
	nm_node *n;
	char buf[4096];
	size_t got;
	ck_assert_int_eq(nm_resolve(t, "/r/b.bin", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 100000, buf, sizeof buf, &got, &err), NM_OK);
	ck_assert_uint_eq(got, sizeof buf);
	ck_assert_mem_eq(buf, pattern + 1 + 100000, sizeof buf);
	for (int i = 0; i < 2; i++) {
		uint64_t before = c.read;
		ck_assert_int_ne(nm_read(t, n, 150000 - 16, buf, 16, &got, &err), NM_OK);
		ck_assert_msg(strstr(err.msg, "cut.szs: Yaz0 at 0x") &&
				      strstr(err.msg, "the stream ends too early"), "%s", err.msg);
		if (i == 1)
			ck_assert_uint_eq(c.read, before);
	}
	nm_tree_free(t);
	nm_out_free(&arc);
	nm_out_free(&o);
}
END_TEST

static const struct wrapper {
	arcw_codec codec;
	const char *name;
} wrappers[] = {
	{ ARCW_YAZ0, "Yaz0" }, { ARCW_YAY0, "Yay0" }, { ARCW_LZS, "LzS" },
	{ ARCW_LZ10, "LZ10" }, { ARCW_LZ11, "LZ11" },
};

/* Each wrapper around a model shows the model's tree, info.txt saying the compression. */
START_TEST(wrapped_model)
{
	const struct wrapper *w = &wrappers[_i];
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_pack(w->codec, model, mlen, &o), 0);
	nm_tree *t = build(&o, "m.bin");
	char line[64];
	snprintf(line, sizeof line, "compression: %s\ncompressed_size: %zu\n", w->name, o.len);
	expect(t, "/info.txt", "format: Celestia binary CMOD\n");
	expect(t, "/info.txt", line);
	expect_bytes(t, "/decompressed.bin", model, mlen);
	char *obj = walk_read(t, "/mesh.obj", NULL), *want = loose_obj(model, mlen);
	ck_assert_ptr_nonnull(obj);
	ck_assert_str_eq(obj, want);
	free(obj);
	free(want);
	expect_clean_walk(t);
	nm_tree_free(t);
	/* Content no driver reads: info.txt and the decompressed bytes. */
	nm_out_free(&o);
	ck_assert_int_eq(arcw_pack(w->codec, pattern, 5000, &o), 0);
	t = build(&o, "d.bin");
	expect(t, "/info.txt", "content: not a format this tool reads\n");
	expect(t, "/info.txt", "decompressed_size: 5000\n");
	expect_bytes(t, "/decompressed.bin", pattern, 5000);
	nm_tree_free(t);
	nm_out_free(&o);
	free(model);
}
END_TEST

/* LZ10 is known by one byte: a file starting with 0x10 whose announced size its bytes
 * cannot hold is not taken for it; the best packed real stream still is. */
START_TEST(lz10_probe_ratio)
{
	uint8_t fake[100] = { 0x10, 0x40, 0x42, 0x0F };   /* announces 1,000,000 bytes */
	for (size_t i = 5; i < sizeof fake; i++)
		fake[i] = (uint8_t)i;                     /* flag 0: literals, which decode */
	nm_error err;
	ck_assert_ptr_null(build_opt(fake, sizeof fake, "fake.bin", NULL, &err));
	ck_assert_int_eq(err.code, NM_E_UNSUPPORTED);
	static uint8_t zeros[200000];
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_pack(ARCW_LZ10, zeros, sizeof zeros, &o), 0);
	ck_assert_uint_gt(sizeof zeros, o.len * 8);       /* close to the format's limit */
	nm_tree *t = build(&o, "zeros.lz");
	expect(t, "/info.txt", "compression: LZ10\n");
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* A file whose first byte is 0x11 and whose first eight bytes after it read as
 * literals (a count byte, then zeros: Luigi's Mansion 3D's .bas sound tables) is not
 * taken for LZ11 when a back-reference a few bytes on reaches before the start: the
 * probe decodes what the head holds, not only 8 bytes. Real streams of every shape still
 * are (the fixtures above; lz_cx_wrap's fuzz seeds). */
START_TEST(lz11_probe_decodes_the_head)
{
	uint8_t fake[200] = { 0x11, 0x00, 0x4D, 0x00, /* announces 0x4D00 bytes */
			      0x00, 0, 0, 0, 0x32, 0x03, 0x00, 0x01, 0xD0, /* 8 literals */
			      0xBB, 0xFA, 0x43 };  /* a reference 0xA44 bytes back, at byte 8 */
	nm_error err;
	ck_assert_ptr_null(build_opt(fake, sizeof fake, "syutugen.bas", NULL, &err));
	ck_assert_int_eq(err.code, NM_E_UNSUPPORTED);
	/* The same bytes with that reference 8 bytes back are a stream. */
	fake[14] = 0x30; /* 4 bytes */
	fake[15] = 0x07; /* 8 back */
	nm_tree *t = build_opt(fake, sizeof fake, "real.lz", NULL, &err);
	ck_assert_ptr_nonnull(t);
	expect(t, "/info.txt", "compression: LZ11\n");
	nm_tree_free(t);
}
END_TEST

/* LZ10/LZ11 behind an "LZ77" tag, as DS and Wii games store them: the same tree, and
 * info.txt says the tag. */
START_TEST(lz77_tagged)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	nm_out o, tagged;
	nm_out_init(&o);
	nm_out_init(&tagged);
	ck_assert_int_eq(arcw_pack(_i ? ARCW_LZ11 : ARCW_LZ10, model, mlen, &o), 0);
	nm_out_write(&tagged, "LZ77", 4);
	nm_out_write(&tagged, o.data, o.len);
	ck_assert(!tagged.failed);
	nm_tree *t = build(&tagged, "m.lz");
	char line[64];
	snprintf(line, sizeof line, "compression: %s (LZ77 tag)\ncompressed_size: %zu\n",
		 _i ? "LZ11" : "LZ10", tagged.len);
	expect(t, "/info.txt", "format: Celestia binary CMOD\n");
	expect(t, "/info.txt", line);
	expect_bytes(t, "/decompressed.bin", model, mlen);
	expect_clean_walk(t);
	nm_tree_free(t);
	nm_out_free(&tagged);
	nm_out_free(&o);
	free(model);
}
END_TEST

typedef int (*writer_fn)(const arcw_file *, size_t, nm_out *, arcw_layout *);

static const struct gar_case {
	writer_fn write;
	const char *format, *version;
	bool paths;
} gar_cases[] = {
	{ arcw_zar, "format: ZAR archive (3DS)\n", "version: 1\n", true },
	{ arcw_gar2, "format: GAR archive (3DS)\n", "version: 2\n", true },
	{ arcw_gar5, "format: GAR archive (3DS)\n", "version: 5\n", false },
};

/* Every member listed, each with its bytes, models with their trees; LzS-wrapped too. */
START_TEST(gar_members)
{
	const struct gar_case *c = &gar_cases[_i];
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	arcw_file files[] = {
		{ c->paths ? "Model/title.cmod" : "title.cmod", model, mlen, ARCW_STORED },
		{ c->paths ? "Misc/a.cmab" : "a.cmab", pattern, 1000, ARCW_STORED },
		{ c->paths ? "Misc/b.cmab" : "b.cmab", pattern + 1000, 3, ARCW_STORED },
	};
	nm_out o, z;
	nm_out_init(&o);
	nm_out_init(&z);
	ck_assert_int_eq(c->write(files, 3, &o, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_LZS, o.data, o.len, &z), 0);
	for (int wrapped = 0; wrapped < 2; wrapped++) {
		nm_tree *t = build(wrapped ? &z : &o, "g.gar");
		expect(t, "/info.txt", c->format);
		expect(t, "/info.txt", c->version);
		expect(t, "/info.txt", "members: 3\n");
		if (wrapped)
			expect(t, "/info.txt", "compression: LzS\n");
		size_t count;
		char *names = arcw_list(o.data, o.len, &count);
		ck_assert_uint_eq(count, 3);
		for (const char *p = names; *p; p += strlen(p) + 1) {
			char path[256];
			size_t len;
			uint8_t *want = arcw_member(o.data, o.len, p, &len);
			ck_assert_ptr_nonnull(want);
			snprintf(path, sizeof path, "/%s%s", p, strstr(p, ".cmod") ? "/raw.bin" : "");
			expect_bytes(t, path, want, len);
			free(want);
		}
		free(names);
		expect(t, c->paths ? "/Model/title.cmod/info.txt" : "/title.cmod/info.txt",
		       "format: Celestia binary CMOD\n");
		expect_clean_walk(t);
		nm_tree_free(t);
	}
	nm_out_free(&o);
	nm_out_free(&z);
	free(model);
}
END_TEST

/* A model in a RARC in Yaz0 in a RARC in Yaz0: found to any depth the option allows;
 * past max_depth the member says why instead. */
START_TEST(nesting_and_max_depth)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	arcw_file inner[] = { { "m.cmod", model, mlen, ARCW_STORED } };
	nm_out a, b, c, d;
	nm_out_init(&a);
	nm_out_init(&b);
	nm_out_init(&c);
	nm_out_init(&d);
	ck_assert_int_eq(arcw_rarc(inner, 1, "in", &a, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, a.data, a.len, &b), 0);
	arcw_file outer[] = { { "inner.szs", b.data, b.len, ARCW_STORED } };
	ck_assert_int_eq(arcw_rarc(outer, 1, "out", &c, NULL), 0);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, c.data, c.len, &d), 0);
	nm_tree *t = build(&d, "n.szs");
	/* The file (0) → its Yaz0 content (1) → inner.szs (2) → its Yaz0 content (3) →
	 * m.cmod (4). */
	expect(t, "/out/inner.szs/in/m.cmod/info.txt", "format: Celestia binary CMOD\n");
	expect(t, "/out/inner.szs/info.txt", "compression: Yaz0\n");
	expect_bytes(t, "/out/inner.szs/raw.bin", b.data, b.len);
	nm_tree_free(t);
	nm_options opt;
	nm_options_init(&opt);
	opt.max_depth = 3;
	nm_error err;
	t = build_opt(d.data, d.len, "n.szs", &opt, &err);
	ck_assert_ptr_nonnull(t);
	expect(t, "/out/inner.szs/in/m.cmod/error.txt", "more than max_depth (3)");
	expect_bytes(t, "/out/inner.szs/in/m.cmod/raw.bin", model, mlen);
	nm_tree_free(t);
	opt.max_depth = 2;
	t = build_opt(d.data, d.len, "n.szs", &opt, &err);
	ck_assert_ptr_nonnull(t);
	expect(t, "/out/inner.szs/error.txt", "more than max_depth (2)");
	nm_tree_free(t);
	nm_out_free(&a);
	nm_out_free(&b);
	nm_out_free(&c);
	nm_out_free(&d);
	free(model);
}
END_TEST

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A RARC of two folders and a file, broken one way per case; each is a clear error in
 * the tree (or of the build), and a whole walk ends without a crash or a size mismatch. */
START_TEST(rarc_hostile)
{
	arcw_file files[] = {
		{ "sub/a.bin", pattern, 100, ARCW_STORED },
		{ "b.bin", pattern, 50, ARCW_STORED },
	};
	nm_out o;
	nm_out_init(&o);
	arcw_layout lay;
	ck_assert_int_eq(arcw_rarc(files, 2, "root", &o, &lay), 0);
	/* Root's entries: sub (dir), b.bin, ".", ".."; then sub's: a.bin, ".", "..". */
	uint8_t *e_sub = o.data + lay.entry_table, *e_b = e_sub + 0x14, *e_a = e_sub + 4 * 0x14;
	static const struct hostile {
		const char *what, *path, *text;
	} cases[] = {
		{ "cycle", "/root/sub/error.txt", "a cycle" },
		{ "past end", "/root/b.bin/error.txt", "runs past the end" },
		{ "name", "/root/(bad name)/error.txt", "past the end of the string table" },
		{ "node index", "/root/sub/error.txt", "past the node table" },
		{ "gigabyte member", "/root/b.bin/error.txt", "runs past the end" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		uint8_t *b = malloc(o.len);
		memcpy(b, o.data, o.len);
		uint8_t *sub = b + (e_sub - o.data), *eb = b + (e_b - o.data);
		(void)e_a;
		switch (k) {
		case 0: put_be32(sub + 8, 0); break;                 /* sub is the root node */
		case 1: put_be32(eb + 8, 0x10000); break;            /* b.bin's data past the end */
		case 2: put_be32(eb + 4, 0x11000000u | 0xFFFFFF); break;
		case 3: put_be32(sub + 8, 0x7FFFFFFF); break;
		case 4: put_be32(eb + 12, 0xC0000000u); break;
		}
		nm_error err;
		nm_tree *t = build_opt(b, o.len, "h.arc", NULL, &err);
		ck_assert_msg(t != NULL, "%s: %s", cases[k].what, err.msg);
		expect(t, cases[k].path, cases[k].text);
		walk_stats st;
		walk_tree(t, &st);
		ck_assert_uint_eq(st.size_mismatches, 0);
		nm_tree_free(t);
		free(b);
	}
	/* A node count past the table: the build fails, saying so. */
	uint8_t *b = malloc(o.len);
	memcpy(b, o.data, o.len);
	put_be32(b + 0x20, 0x10000000);
	nm_error err;
	ck_assert_ptr_null(build_opt(b, o.len, "h.arc", NULL, &err));
	ck_assert_int_eq(err.code, NM_E_FORMAT);
	ck_assert_msg(strstr(err.msg, "nodes"), "%s", err.msg);
	free(b);
	nm_out_free(&o);
}
END_TEST

/* Compressed streams that lie: a back-reference before the start of the output, and a
 * header announcing more than max_file_size (decoding it is refused before anything
 * that large is allocated). */
START_TEST(hostile_streams)
{
	/* "Yaz0", 32 bytes, a code byte whose first token is a back-reference. */
	static const uint8_t backref[] = { 'Y', 'a', 'z', '0', 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0,
					   0x7F, 0x10, 0x05, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };
	nm_error err;
	ck_assert_ptr_null(build_opt(backref, sizeof backref, "b.szs", NULL, &err));
	ck_assert_int_eq(err.code, NM_E_FORMAT);
	ck_assert_msg(strstr(err.msg, "b.szs"), "%s", err.msg);
	/* The same stream as a member: the member says why, the archive works. */
	arcw_file files[] = {
		{ "bad.bin", backref, sizeof backref, ARCW_STORED },
		{ "ok.bin", pattern, 10, ARCW_STORED },
	};
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_rarc(files, 2, "r", &o, NULL), 0);
	nm_tree *t = build(&o, "m.arc");
	ck_assert(is_dir(t, "/r/bad.bin"));
	expect(t, "/r/bad.bin/error.txt", "m.arc:r/bad.bin");
	expect_bytes(t, "/r/ok.bin", pattern, 10);
	nm_tree_free(t);
	nm_out_free(&o);
	/* 2 MiB of zeros under a 1 MiB limit: mounts (the probe decodes 64 bytes), reading
	 * the decompressed bytes is refused. */
	uint8_t *zeros = calloc(1, 2u << 20);
	ck_assert_int_eq(arcw_pack(ARCW_YAZ0, zeros, 2u << 20, &o), 0);
	free(zeros);
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 1u << 20;
	t = build_opt(o.data, o.len, "z.szs", &opt, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	/* The first bytes decode alone (a probe); any read past the cached prefix needs the
	 * whole, which is refused. */
	nm_node *n;
	char buf[16];
	size_t got;
	ck_assert_int_eq(nm_resolve(t, "/decompressed.bin", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 1u << 20, buf, sizeof buf, &got, &err), NM_E_LIMIT);
	ck_assert_msg(strstr(err.msg, "max_file_size"), "%s", err.msg);
	nm_tree_free(t);
	/* A header claiming 3 GiB over 64 bytes: mounts (its start decodes), reading it
	 * whole is refused under the default 1 GiB before anything is allocated. */
	o.data[4] = 0xC0;
	t = build_opt(o.data, 64, "g.szs", NULL, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	ck_assert_int_eq(nm_resolve(t, "/decompressed.bin", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 1u << 30, buf, sizeof buf, &got, &err), NM_E_LIMIT);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* ZAR/GAR tables that lie: a path offset past the tables, a data offset past the end. */
START_TEST(gar_hostile)
{
	arcw_file files[] = {
		{ "x/a.bin", pattern, 100, ARCW_STORED },
		{ "x/b.bin", pattern, 50, ARCW_STORED },
	};
	nm_out o;
	nm_out_init(&o);
	arcw_layout lay;
	ck_assert_int_eq(arcw_gar2(files, 2, &o, &lay), 0);
	uint8_t *b = malloc(o.len);
	memcpy(b, o.data, o.len);
	b[lay.file_table + 8] = 0xFF;  /* a's path offset */
	b[lay.file_table + 11] = 0x7F;
	b[lay.data_table + 4 + 3] = 0x7F; /* b's data offset */
	nm_error err;
	nm_tree *t = build_opt(b, o.len, "h.gar", NULL, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	expect(t, "/(bad entry)/error.txt", "past the tables");
	expect(t, "/x/b.bin/error.txt", "runs past the end");
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	nm_tree_free(t);
	/* A file count far past the tables: refused. */
	memcpy(b, o.data, o.len);
	b[0x0A] = 0xFF;
	b[0x0B] = 0xFF;
	ck_assert_ptr_null(build_opt(b, o.len, "h.gar", NULL, &err));
	free(b);
	nm_out_free(&o);
}
END_TEST

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A ZAR of files[0..n) whose other members are then made to list the bytes of the
 * first (their sizes and data offsets), into out. */
static void zar_all_on_first(const arcw_file *files, size_t n, nm_out *out)
{
	arcw_layout lay;
	nm_out_init(out);
	ck_assert_int_eq(arcw_zar(files, n, out, &lay), 0);
	uint8_t *b = out->data;
	for (size_t i = 1; i < n; i++) {
		memcpy(b + lay.file_table + 8 * i, b + lay.file_table, 4);
		memcpy(b + lay.data_table + 4 * i, b + lay.data_table, 4);
	}
}

/* The archive bomb: a ZAR whose four members all list the bytes of the first, an inner
 * ZAR of the same kind, and so on `levels` deep around a model. Opening every archive
 * listed would be 4^levels models; only the first of each is opened, the three others
 * show why, with their bytes. A model (or any other file) listed twice is shown twice,
 * and an archive partly overlapping another member is not opened either. */
START_TEST(overlapping_members)
{
	enum { LEVELS = 6 };
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	nm_out level[LEVELS + 1];
	nm_out_init(&level[0]);
	nm_out_write(&level[0], model, mlen);
	for (unsigned k = 1; k <= LEVELS; k++) {
		arcw_file f[] = {
			{ "a.zar", level[k - 1].data, level[k - 1].len, ARCW_STORED },
			{ "b.zar", NULL, 0, ARCW_STORED },
			{ "c.zar", NULL, 0, ARCW_STORED },
			{ "d.zar", NULL, 0, ARCW_STORED },
		};
		if (k == 1)
			f[0].path = "m.cmod";
		zar_all_on_first(f, 4, &level[k]);
	}
	nm_tree *t = build(&level[LEVELS], "bomb.zar");
	ck_assert(is_dir(t, "/a.zar/a.zar"));
	expect(t, "/b.zar/error.txt", "overlap those of a.zar");
	expect(t, "/d.zar/error.txt", "is not opened");
	expect_bytes(t, "/c.zar/raw.bin", level[LEVELS - 1].data, level[LEVELS - 1].len);
	expect(t, "/a.zar/a.zar/a.zar/a.zar/a.zar/m.cmod/info.txt", "format: Celestia binary CMOD");
	expect(t, "/a.zar/a.zar/a.zar/a.zar/a.zar/b.zar/info.txt", "format: Celestia binary CMOD");
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	/* 4^6 = 4096 models if every listing were opened; here each level has a.zar and
	 * three directories of error.txt and raw.bin, and the last four models. */
	ck_assert_msg(st.dirs < 64, "%zu directories", st.dirs);
	nm_tree_free(t);

	/* a.bin's entry grown over the inner archive that follows it. */
	arcw_file f[] = {
		{ "a.bin", pattern, 100, ARCW_STORED },
		{ "in.zar", level[1].data, level[1].len, ARCW_STORED },
	};
	nm_out o;
	arcw_layout lay;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_zar(f, 2, &o, &lay), 0);
	uint32_t in_end = get_le32(o.data + lay.data_table + 4) + (uint32_t)level[1].len;
	put_le32(o.data + lay.file_table, in_end - get_le32(o.data + lay.data_table));
	t = build(&o, "grown.zar");
	expect(t, "/in.zar/error.txt", "overlap those of a.bin");
	expect_bytes(t, "/in.zar/raw.bin", level[1].data, level[1].len);
	nm_tree_free(t);
	nm_out_free(&o);
	for (unsigned k = 0; k <= LEVELS; k++)
		nm_out_free(&level[k]);
	free(model);
}
END_TEST

/* A name longer than NAME_MAX, listed twice, is two members with names a filesystem
 * takes (this looped forever when a 1024-byte buffer cut both to the same text). */
START_TEST(long_names_twice)
{
	static char name[1500 + sizeof ".bin"];
	memset(name, 'n', 1500);
	memcpy(name + 1500, ".bin", sizeof ".bin");
	name[150] = '\x01'; /* escaped as %01 */
	arcw_file f[] = {
		{ name, pattern, 10, ARCW_STORED },
		{ name, pattern + 10, 20, ARCW_STORED },
	};
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(arcw_zar(f, 2, &o, NULL), 0);
	nm_tree *t = build(&o, "long.zar");
	/* 150 n, %01, then n up to 197 bytes, the ellipsis: 200 bytes */
	char cut[256];
	snprintf(cut, sizeof cut, "/%.150s%%01%.44s\xE2\x80\xA6", name, name);
	ck_assert_uint_eq(strlen(cut), 1 + NM_SAFE_NAME_MAX);
	expect_bytes(t, cut, pattern, 10);
	strcat(cut, "~2");
	expect_bytes(t, cut, pattern + 10, 20);
	nm_tree_free(t);
	nm_out_free(&o);
}
END_TEST

/* nm_member_sibling finds a recognised member of the same folder, without case. */
START_TEST(member_sibling)
{
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	nm_tree *t = nm_tree_new(NULL);
	nm_member_group *g = nm_member_group_new(t);
	const char *names[] = { "a.cmod", "B.CMOD", "c.txt" };
	nm_reader *r[3];
	for (int i = 0; i < 3; i++) {
		uint8_t *copy = malloc(mlen);
		memcpy(copy, i == 2 ? pattern : model, mlen);
		ck_assert_int_eq(nm_reader_new_memory(names[i], copy, mlen, &r[i], NULL), NM_OK);
		ck_assert_int_eq(nm_tree_adopt_reader(t, r[i]), NM_OK);
		nm_reader_set_depth(r[i], 1);
		ck_assert_ptr_nonnull(nm_member_node(t, nm_tree_root(t), names[i], r[i], g, NULL));
	}
	nm_reader *sib;
	const char *dir;
	ck_assert(nm_member_sibling(r[0], "b.cmod", &sib, &dir));
	ck_assert_ptr_eq(sib, r[1]);
	ck_assert_str_eq(dir, "B.CMOD");
	ck_assert(!nm_member_sibling(r[0], "c.txt", &sib, &dir)); /* not recognised */
	ck_assert(!nm_member_sibling(r[0], "d.cmod", &sib, &dir));
	ck_assert(is_dir(t, "/a.cmod") && !is_dir(t, "/c.txt"));
	nm_tree_free(t);
	free(model);
}
END_TEST

/* --- the corpus ------------------------------------------------------------------- */

/* The archive inside a corpus file, decompressed by the codecs themselves (not the
 * wrapper drivers) when it is wrapped. */
static uint8_t *unwrap(uint8_t *bytes, size_t *len)
{
	static const struct {
		bool (*probe)(const uint8_t *, size_t);
		nm_status (*header)(const uint8_t *, size_t, const char *, uint64_t *, nm_error *);
		nm_status (*decode)(const uint8_t *, size_t, uint8_t *, size_t, const char *,
				    nm_error *, size_t *);
	} codecs[] = {
		{ nm_yaz0_probe, nm_yaz0_header, nm_yaz0_decode },
		{ nm_lzs_probe, nm_lzs_header, nm_lzs_decode },
	};
	for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++) {
		uint64_t size;
		if (!codecs[i].probe(bytes, *len) ||
		    codecs[i].header(bytes, *len, "corpus", &size, NULL) != NM_OK)
			continue;
		uint8_t *out = malloc(size);
		ck_assert_int_eq(codecs[i].decode(bytes, *len, out, size, "corpus", NULL, NULL),
				 NM_OK);
		free(bytes);
		*len = size;
		return out;
	}
	return bytes;
}

/* Every member of a corpus archive is listed; a plain member reads as the independent
 * extraction's bytes; a model member's raw.bin too, and its mesh.obj has as many faces
 * as the same bytes show mounted loose; the whole tree reads at its announced sizes. */
static void corpus_archive(const char *path, size_t *models)
{
	size_t len, count;
	uint8_t *bytes = walk_load_file(path, &len);
	ck_assert_ptr_nonnull(bytes);
	bytes = unwrap(bytes, &len);
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(path, NULL, &t, &err) == NM_OK, "%s: %s", path, err.msg);
	/* A RARC's members sit below its root node's folder. */
	char prefix[256] = "";
	if (memcmp(bytes, "RARC", 4) == 0) {
		nm_node **kids;
		size_t n;
		ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &n, &err), NM_OK);
		for (size_t i = 0; i < n; i++)
			if (nm_node_type(kids[i]) == NM_NODE_DIR)
				snprintf(prefix, sizeof prefix, "/%s", nm_node_name(kids[i]));
	}
	char *names = arcw_list(bytes, len, &count), line[64];
	ck_assert_uint_gt(count, 0);
	snprintf(line, sizeof line, "members: %zu\n", count);
	expect(t, "/info.txt", line);
	for (const char *p = names; *p; p += strlen(p) + 1) {
		char tp[1024], sub[1100];
		size_t mlen;
		uint8_t *member = arcw_member(bytes, len, p, &mlen);
		ck_assert_ptr_nonnull(member);
		snprintf(tp, sizeof tp, "%s/%s", prefix, p);
		if (is_dir(t, tp)) {
			snprintf(sub, sizeof sub, "%s/raw.bin", tp);
			expect_bytes(t, sub, member, mlen);
			snprintf(sub, sizeof sub, "%s/mesh.obj", tp);
			if (exists(t, sub)) {
				char *obj = walk_read(t, sub, NULL), *want = loose_obj(member, mlen);
				ck_assert_msg(obj && want, "%s", sub);
				ck_assert_uint_gt(count_faces(want), 0);
				ck_assert_uint_eq(count_faces(obj), count_faces(want));
				free(obj);
				free(want);
				(*models)++;
			}
		} else {
			expect_bytes(t, tp, member, mlen);
		}
		free(member);
	}
	free(names);
	expect_clean_walk(t);
	nm_tree_free(t);
	free(bytes);
}

/* nm_layout_members, the layout every archive's repack shares: members in the file's
 * order, a changed one's padding made again so the next keeps its offset's remainder,
 * what is not padding kept, members listed twice moved together; refusals for members
 * sharing bytes and for a change of length that is no member. */
START_TEST(layout_members)
{
	/* head "HEAD" (4), A at 4 (6 bytes, then 6 zeros), B at 16 (5, then "xy" and a
	 * zero), C at 24 (8), tail "TT". Alignment 4: A, B, C sit at 0, 0, 0 mod 4. */
	static const uint8_t file[] = "HEADaaaaaa\0\0\0\0\0\0bbbbbxy\0ccccccccTT";
	nm_reader *r;
	uint8_t *copy = malloc(sizeof file - 1);
	memcpy(copy, file, sizeof file - 1);
	ck_assert_int_eq(nm_reader_new_memory("l.bin", copy, sizeof file - 1, &r, NULL), NM_OK);
	const nm_layout_slot slots[] = { { 4, 6 }, { 16, 5 }, { 24, 8 }, { 16, 5 }, { 30, 0 } };
	uint64_t off[5], len[5];
	nm_error err;
	nm_out o;
	/* No change: the same bytes. */
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, slots, 5, 4, NULL, 0, &o, off, len, &err), NM_OK);
	ck_assert_uint_eq(o.len, sizeof file - 1);
	ck_assert_mem_eq(o.data, file, o.len);
	nm_out_free(&o);
	/* A grows to 9 bytes, a byte of C changes in place. */
	const nm_member_change c[] = { { 4, 6, (const uint8_t *)"AAAAAAAAA", 9 },
				       { 25, 1, (const uint8_t *)"C", 1 } };
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, slots, 5, 4, c, 2, &o, off, len, &err), NM_OK);
	static const char want[] = "HEADAAAAAAAAA\0\0\0bbbbbxy\0cCccccccTT";
	ck_assert_uint_eq(o.len, sizeof want - 1);
	ck_assert_mem_eq(o.data, want, o.len);
	ck_assert_uint_eq(off[0], 4);
	ck_assert_uint_eq(len[0], 9);
	ck_assert_uint_eq(off[1], 16);
	ck_assert_uint_eq(off[3], 16);   /* listed twice: moves with the first */
	ck_assert_uint_eq(off[2], 24);
	ck_assert_uint_eq(off[4], 30);   /* no bytes: where its offset fell (in C) */
	nm_out_free(&o);
	/* B shrinks to 2: what followed it ("xy") is kept, padding to C's remainder. */
	const nm_member_change shrink[] = { { 16, 5, (const uint8_t *)"BB", 2 } };
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, slots, 5, 4, shrink, 1, &o, off, len, &err), NM_OK);
	static const char want2[] = "HEADaaaaaa\0\0\0\0\0\0BBxy\0\0\0\0ccccccccTT";
	ck_assert_uint_eq(o.len, sizeof want2 - 1);
	ck_assert_mem_eq(o.data, want2, o.len);
	ck_assert_uint_eq(off[2] % 4, 24 % 4);
	nm_out_free(&o);
	/* The last member grows: the tail ("TT", not padding) stays after it. */
	const nm_member_change last[] = { { 24, 8, (const uint8_t *)"0123456789", 10 } };
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, slots, 3, 4, last, 1, &o, off, len, &err), NM_OK);
	ck_assert_uint_eq(o.len, 24 + 10 + 2 + 2);
	ck_assert_mem_eq(o.data + 24, "0123456789TT\0\0", 14);
	nm_out_free(&o);
	/* A change of length over bytes no member is: refused, naming the archive. */
	const nm_member_change stray[] = { { 5, 2, (const uint8_t *)"zzz", 3 } };
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, slots, 5, 4, stray, 1, &o, off, len, &err),
			 NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "l.bin"));
	ck_assert_ptr_nonnull(strstr(err.msg, "no member"));
	nm_out_free(&o);
	/* Members sharing some bytes: refused. */
	const nm_layout_slot overlap[] = { { 4, 6 }, { 8, 6 } };
	nm_out_init(&o);
	ck_assert_int_eq(nm_layout_members(r, overlap, 2, 4, c, 1, &o, off, len, &err),
			 NM_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "share bytes"));
	nm_out_free(&o);
	nm_reader_close(r);
}
END_TEST

START_TEST(corpus_archives)
{
	static const char *const dirs[] = { "rarc", "gar", "zar" };
	size_t archives = 0, models = 0;
	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char *dir = walk_corpus_dir(dirs[d]);
		if (!dir)
			continue;
		DIR *dh = opendir(dir);
		struct dirent *de;
		while (dh && (de = readdir(dh)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			corpus_archive(path, &models);
			archives++;
		}
		if (dh)
			closedir(dh);
		free(dir);
	}
	printf("corpus: %zu archives, %zu model members checked\n", archives, models);
	if (archives)
		ck_assert_uint_gt(models, 0);
}
END_TEST

/* --- folders ----------------------------------------------------------------------- */

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static size_t open_fds(void)
{
	size_t n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A folder: models (loose and in an archive) are directories with their trees, other
 * files pass through, subfolders are listed on their first lookup; links outside the
 * folder, links to an ancestor and FIFOs are left out; no descriptor stays open. */
START_TEST(folder_mount)
{
	char top[] = "/tmp/nm_folder_XXXXXX", p[4200];
	ck_assert_ptr_nonnull(mkdtemp(top));
	size_t mlen;
	uint8_t *model = cmodw_sample(&mlen);
	nm_out arc;
	nm_out_init(&arc);
	arcw_file files[] = { { "m.cmod", model, mlen, ARCW_STORED } };
	ck_assert_int_eq(arcw_rarc(files, 1, "r", &arc, NULL), 0);
	snprintf(p, sizeof p, "%s/model.cmod", top);
	write_file(p, model, mlen);
	snprintf(p, sizeof p, "%s/notes.txt", top);
	write_file(p, "notes\n", 6);
	snprintf(p, sizeof p, "%s/sub", top);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/sub/pack.arc", top);
	write_file(p, arc.data, arc.len);
	for (int i = 0; i < 200; i++) {
		snprintf(p, sizeof p, "%s/sub/f%03d.bin", top, i);
		write_file(p, pattern + i, 10);
	}
	snprintf(p, sizeof p, "%s/outside", top);
	ck_assert_int_eq(symlink("/etc", p), 0);
	snprintf(p, sizeof p, "%s/sub/up", top);
	ck_assert_int_eq(symlink("..", p), 0);
	snprintf(p, sizeof p, "%s/inside", top);
	ck_assert_int_eq(symlink("notes.txt", p), 0);
	snprintf(p, sizeof p, "%s/fifo", top);
	ck_assert_int_eq(mkfifo(p, 0644), 0);

	size_t fds = open_fds();
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(top, NULL, &t, &err) == NM_OK, "%s", err.msg);
	ck_assert_uint_eq(nm_tree_populations(t), 0); /* sub not listed yet */
	ck_assert(is_dir(t, "/model.cmod"));
	expect(t, "/model.cmod/info.txt", "format: Celestia binary CMOD\n");
	expect_bytes(t, "/model.cmod/raw.bin", model, mlen);
	expect_bytes(t, "/notes.txt", (const uint8_t *)"notes\n", 6);
	expect_bytes(t, "/inside", (const uint8_t *)"notes\n", 6);
	ck_assert(!exists(t, "/outside"));
	ck_assert(!exists(t, "/fifo"));
	ck_assert(!exists(t, "/sub/up"));
	expect(t, "/sub/pack.arc/r/m.cmod/info.txt", "format: Celestia binary CMOD\n");
	expect_bytes(t, "/sub/f123.bin", pattern + 123, 10);
	walk_stats st;
	walk_tree(t, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(open_fds(), fds); /* nothing held open between reads */
	nm_tree_free(t);
	nm_out_free(&arc);
	free(model);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", top);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *suite(void)
{
	fill_pattern();
	Suite *s = suite_create("archive");
	TCase *tc = tcase_create("fixtures");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rarc_plain);
	tcase_add_test(tc, rarc_compressed_members);
	tcase_add_test(tc, yaz0_rarc_lazy);
	tcase_add_test(tc, cache_evicts_members);
	tcase_add_test(tc, damaged_stream_read_to_the_damage);
	tcase_add_loop_test(tc, wrapped_model, 0, sizeof wrappers / sizeof wrappers[0]);
	tcase_add_test(tc, lz10_probe_ratio);
	tcase_add_test(tc, lz11_probe_decodes_the_head);
	tcase_add_loop_test(tc, lz77_tagged, 0, 2);
	tcase_add_loop_test(tc, gar_members, 0, sizeof gar_cases / sizeof gar_cases[0]);
	tcase_add_test(tc, nesting_and_max_depth);
	tcase_add_test(tc, rarc_hostile);
	tcase_add_test(tc, hostile_streams);
	tcase_add_test(tc, gar_hostile);
	tcase_add_test(tc, overlapping_members);
	tcase_add_test(tc, long_names_twice);
	tcase_add_test(tc, member_sibling);
	tcase_add_test(tc, folder_mount);
	tcase_add_test(tc, layout_members);
	suite_add_tcase(s, tc);
	TCase *corpus = tcase_create("corpus");
	tcase_set_timeout(corpus, 300);
	tcase_add_test(corpus, corpus_archives);
	suite_add_tcase(s, corpus);
	return s;
}

NM_CHECK_MAIN(suite)
