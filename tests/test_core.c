/* Unit tests for the core library: reader, view, errors, text, tree, cache, OBJ (the PNG
 * writer has its own, test_png.c). */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "export/gltf.h"
#include "export/obj.h"
#include "export/png.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "lib/cache.h"
#include "lib/bands.h"
#include "lib/reader.h"
#include "lib/tree.h"
#include "lib/view.h"

static nm_reader *memory_reader(const char *bytes, size_t len)
{
	nm_reader *r;
	void *copy = malloc(len ? len : 1);
	memcpy(copy, bytes, len);
	ck_assert_int_eq(nm_reader_new_memory("mem.bin", copy, len, &r, NULL), NM_OK);
	return r;
}

START_TEST(reader_bounds)
{
	nm_reader *r = memory_reader("0123456789", 10), *w;
	char buf[16];
	nm_error err;
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 3, "x", &err), NM_OK);
	ck_assert_int_eq(memcmp(buf, "234", 3), 0);
	ck_assert_int_eq(nm_reader_read(r, 8, buf, 3, "skl", &err), NM_E_FORMAT);
	ck_assert_str_eq(err.msg, "mem.bin: skl at 0x8: 0x3 bytes run past the end of the data (0xa)");
	ck_assert_int_eq(nm_reader_read(r, UINT64_MAX - 1, buf, 4, NULL, &err), NM_E_FORMAT);
	ck_assert_int_eq(nm_reader_read(r, 10, buf, 0, NULL, &err), NM_OK);
	/* A window sees only its range; its own bounds are checked before the parent's. */
	ck_assert_int_eq(nm_reader_new_window(r, "member", 4, 4, &w, &err), NM_OK);
	ck_assert_uint_eq(nm_reader_size(w), 4);
	ck_assert_int_eq(nm_reader_read(w, 0, buf, 4, NULL, &err), NM_OK);
	ck_assert_int_eq(memcmp(buf, "4567", 4), 0);
	ck_assert_int_eq(nm_reader_read(w, 1, buf, 4, NULL, &err), NM_E_FORMAT);
	ck_assert_int_eq(nm_reader_new_window(r, "bad", 8, 3, &w, &err) == NM_OK ? 1 : 0, 0);
	nm_reader_close(w);
	nm_reader_close(r);
}
END_TEST

START_TEST(reader_file)
{
	char path[] = "/tmp/nm_test_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "abcdef", 6), 6);
	close(fd);
	nm_reader *r;
	nm_error err;
	char buf[4];
	ck_assert_int_eq(nm_reader_open_file(path, &r, &err), NM_OK);
	/* The reader (and so the tree) names the file by its base name; front ends put the
	 * path as given back in the messages they print. */
	ck_assert_str_eq(nm_reader_name(r), strrchr(path, '/') + 1);
	nm_error named;
	char shown[600];
	nm_fail(&named, NM_E_FORMAT, nm_reader_name(r), "HEAD", 0x10, "broken");
	ck_assert_str_eq(nm_error_named(&named, path, shown, sizeof shown) + strlen(path),
			 ": HEAD at 0x10: broken");
	ck_assert_int_eq(strncmp(shown, path, strlen(path)), 0);
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 4, NULL, &err), NM_OK);
	/* The file shrinks under the reader: a clean NM_E_IO, not a crash or stale bytes. */
	ck_assert_int_eq(truncate(path, 3), 0);
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 4, "tex", &err), NM_E_IO);
	nm_reader_close(r);
	unlink(path);
	ck_assert_int_eq(nm_reader_open_file(path, &r, &err), NM_E_NOENT);
	ck_assert_int_eq(nm_reader_open_file("/tmp", &r, &err), NM_E_ISDIR);
}
END_TEST

START_TEST(view_sticky_errors)
{
	static const uint8_t b[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	nm_view v = nm_view_of(b, sizeof b, 0x100, "m.cmb", "skl", NM_LITTLE);
	nm_error err;
	ck_assert_uint_eq(nm_u32(&v, 0), 0x04030201);
	ck_assert_uint_eq(nm_u16(&v, 6), 0x0807);
	ck_assert(!v.bad);
	ck_assert_uint_eq(nm_u32(&v, 6), 0);
	ck_assert(v.bad);
	ck_assert_uint_eq(v.bad_off, 6);
	ck_assert_uint_eq(nm_u8(&v, 100), 0);
	ck_assert_uint_eq(v.bad_off, 6); /* the first failure is kept */
	nm_view_fail(&v, &err, "bone table");
	ck_assert_str_eq(err.msg, "m.cmb: skl at 0x106: bone table runs past the end of the chunk (0x8 bytes)");

	nm_view be = nm_view_of(b, sizeof b, 0, "f", NULL, NM_BIG);
	ck_assert_uint_eq(nm_u32(&be, 0), 0x01020304);
	ck_assert_uint_eq(nm_u64(&be, 0), 0x0102030405060708ull);
	ck_assert(nm_view_array(&be, 0, 2, 4));
	ck_assert(!nm_view_array(&be, 0, 3, 4));
	/* count * stride overflowing size_t is refused, not wrapped. */
	nm_view be2 = nm_view_of(b, sizeof b, 0, "f", NULL, NM_BIG);
	ck_assert(!nm_view_array(&be2, 0, UINT64_MAX / 2, 4));
	nm_view sub = nm_view_sub(&be2, 2, 4, "inner");
	ck_assert_uint_eq(sub.base, 2);
	ck_assert_uint_eq(nm_u16(&sub, 0), 0x0304);
	nm_view oob = nm_view_sub(&sub, 3, 4, NULL);
	ck_assert(oob.bad);
	ck_assert_uint_eq(oob.size, 0);
}
END_TEST

START_TEST(text_floats_round_trip)
{
	char buf[NM_FLOAT_BUF];
	ck_assert_str_eq(nm_fmt_float(buf, 0.1f), "0.1");
	ck_assert_str_eq(nm_fmt_float(buf, 1.0f), "1");
	ck_assert_str_eq(nm_fmt_float(buf, -2.5f), "-2.5");
	ck_assert_str_eq(nm_fmt_float(buf, INFINITY), "inf");
	ck_assert_str_eq(nm_fmt_float(buf, NAN), "nan");
	srand(7);
	for (int i = 0; i < 100000; i++) {
		uint32_t u = (uint32_t)rand() << 16 ^ (uint32_t)rand();
		float f;
		memcpy(&f, &u, 4);
		if (!isfinite(f))
			continue;
		nm_fmt_float(buf, f);
		ck_assert_msg(strtof(buf, NULL) == f, "%s does not round-trip", buf);
		ck_assert_uint_le(strlen(buf), 15);
		/* CSV numbers: always 15 bytes, exact too. */
		nm_out o;
		nm_out_init(&o);
		nm_csv_float(&o, f);
		ck_assert_uint_eq(o.len, NM_CSV_FLOAT_WIDTH);
		nm_out_char(&o, '\0');
		ck_assert(strtof((char *)o.data, NULL) == f);
		nm_out_free(&o);
	}
	nm_out o;
	nm_out_init(&o);
	nm_csv_float(&o, -INFINITY);
	nm_csv_float(&o, NAN);
	nm_csv_uint(&o, 7, 3);
	nm_csv_int(&o, -7, 4);
	nm_out_char(&o, '\0');
	ck_assert_str_eq((char *)o.data, "           -inf            nan  7  -7");
	nm_out_free(&o);
	ck_assert_uint_eq(nm_digits(0), 1);
	ck_assert_uint_eq(nm_digits(9), 1);
	ck_assert_uint_eq(nm_digits(10), 2);
	ck_assert_uint_eq(nm_digits(UINT64_MAX), 20);
}
END_TEST

/* A NaN keeps its sign and payload in text and in CSV; strtof reads every quiet one back
 * bit for bit (a signalling one comes back quiet, its bits still in the text). */
START_TEST(text_nan_keeps_its_bits)
{
	static const struct { uint32_t bits; const char *text; } cases[] = {
		{ 0x7fc00000, "nan" },
		{ 0xffc00000, "-nan" },
		{ 0x7fc00001, "nan(0x400001)" },
		{ 0xffc12345, "-nan(0x412345)" },
		{ 0x7fffffff, "nan(0x7fffff)" },
		{ 0x7f800001, "nan(0x000001)" },  /* signalling */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[NM_FLOAT_BUF];
		float f;
		memcpy(&f, &cases[i].bits, 4);
		ck_assert_str_eq(nm_fmt_float(buf, f), cases[i].text);
		float back = strtof(buf, NULL);
		uint32_t got;
		memcpy(&got, &back, 4);
		ck_assert_uint_eq(got, cases[i].bits | 0x400000); /* strtof quiets */
		nm_out o;
		nm_out_init(&o);
		nm_csv_float(&o, f);
		ck_assert_uint_eq(o.len, NM_CSV_FLOAT_WIDTH);
		nm_out_char(&o, '\0');
		ck_assert_str_eq((char *)o.data + NM_CSV_FLOAT_WIDTH - strlen(cases[i].text),
				 cases[i].text);
		nm_out_free(&o);
	}
}
END_TEST

START_TEST(output_limit)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.max_file_size = 100;
	nm_out o;
	nm_out_init(&o);
	o.opt = &opt;
	nm_out_write(&o, "0123456789", 10);
	ck_assert_int_eq(nm_out_status(&o), NM_OK);
	ck_assert_ptr_nonnull(nm_out_reserve(&o, 90)); /* up to the limit exactly */
	ck_assert_ptr_null(nm_out_reserve(&o, 91));
	ck_assert_int_eq(nm_out_status(&o), NM_E_LIMIT);
	ck_assert_uint_le(o.cap, 100);                 /* growth never passes the limit */
	nm_out_free(&o);
}
END_TEST

/* Writing nothing into a buffer that holds nothing yet (an empty record's text): no
 * arithmetic on its NULL data (issue 15), a usable pointer, still empty. */
START_TEST(output_empty_write)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_write(&o, NULL, 0);
	ck_assert_int_eq(nm_out_status(&o), NM_OK);
	ck_assert_uint_eq(o.len, 0);
	ck_assert_ptr_nonnull(nm_out_reserve(&o, 0));
	ck_assert_uint_eq(o.len, 0);
	nm_out_free(&o);
}
END_TEST

START_TEST(text_key_values)
{
	nm_out o;
	float v[3] = { 1, 0.5f, -3 };
	nm_out_init(&o);
	nm_kv(&o, "count", "%d", 3);
	nm_kv_enum(&o, "wrap_s", "REPEAT", 0x2901);
	nm_kv_enum(&o, "mode", NULL, 7);
	nm_kv_floats(&o, "scale", v, 3);
	nm_kv_str(&o, "name", "a\nb\\");
	nm_out_char(&o, '\0');
	ck_assert_str_eq((char *)o.data,
			 "count: 3\nwrap_s: REPEAT (0x2901)\nmode: unknown (0x7)\n"
			 "scale: 1 0.5 -3\nname: a\\x0ab\\\\\n");
	nm_out_free(&o);
}
END_TEST

/* nm_kv's formats written without printf (and nm_out_int/uint/hex) write what printf
 * wrote, at the edges of every type. */
START_TEST(text_plain_formats_like_printf)
{
	static const unsigned long long vals[] = { 0, 1, 9, 10, 15, 16, 255, 0x7fffffff,
						   0x80000000u, 0xffffffffu, 0x100000000ull,
						   0x7fffffffffffffffull, 0xffffffffffffffffull };
	char want[1200], big[700];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		unsigned long long v = vals[i];
		nm_out o;
		nm_out_init(&o);
		nm_kv(&o, "a", "%u", (unsigned)v);
		nm_kv(&o, "b", "0x%x", (unsigned)v);
		nm_kv(&o, "c", "%zu", (size_t)v);
		nm_kv(&o, "d", "%llu", v);
		nm_kv(&o, "e", "0x%llx", v);
		nm_kv(&o, "f", "%d", (int)(unsigned)v);
		nm_kv(&o, "g", "%s", i ? "text" : big); /* cut at 511 bytes, as always */
		nm_kv(&o, "h", "%u (%s)", (unsigned)v, "other formats");
		nm_out_int(&o, (long long)v);
		nm_out_char(&o, ' ');
		nm_out_uint(&o, v);
		nm_out_char(&o, ' ');
		nm_out_hex(&o, v, 8);
		nm_out_char(&o, '\0');
		snprintf(want, sizeof want,
			 "a: %u\nb: 0x%x\nc: %zu\nd: %llu\ne: 0x%llx\nf: %d\ng: %.511s\n"
			 "h: %u (other formats)\n%lld %llu %08llx",
			 (unsigned)v, (unsigned)v, (size_t)v, v, v, (int)(unsigned)v,
			 i ? "text" : big, (unsigned)v, (long long)v, v, v);
		ck_assert_str_eq((char *)o.data, want);
		nm_out_free(&o);
	}
}
END_TEST

START_TEST(tree_names)
{
	char *s = nm_safe_name("a/b\x01%", 5);
	ck_assert_str_eq(s, "a%2Fb%01%25");
	free(s);
	s = nm_safe_name("..", 2);
	ck_assert_str_eq(s, "%2E%2E");
	free(s);
	s = nm_safe_name("\xc3\xa9\xff", 3); /* valid é, invalid 0xff */
	ck_assert_str_eq(s, "\xc3\xa9%FF");
	free(s);
	s = nm_safe_name("", 0);
	ck_assert_str_eq(s, "%00");
	free(s);

	nm_tree *t = nm_tree_new(NULL);
	nm_node *d = nm_dir(t, nm_tree_root(t), "tex");
	static const char *const exts[] = { ".png", ".txt", NULL };
	nm_text_str(t, d, "wood.png", "x");
	ck_assert_ptr_null(nm_text_str(t, d, "wood.png", "y")); /* taken */
	char *stem = nm_unique_stem(t, d, "wood", exts);
	ck_assert_str_eq(stem, "wood~2");
	free(stem);
	stem = nm_unique_stem(t, d, "stone", exts);
	ck_assert_str_eq(stem, "stone");
	free(stem);
	nm_tree_free(t);
}
END_TEST

static int produced_count;
static nm_status produce_hello(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)ctx; (void)arg; (void)err;
	__atomic_add_fetch(&produced_count, 1, __ATOMIC_SEQ_CST);
	nm_out_str(o, "hello world");
	return NM_OK;
}

static nm_status produce_fail(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)ctx; (void)arg; (void)o;
	return nm_fail(err, NM_E_FORMAT, "m.bin", "tex", 0x40, "bad texture");
}

static int populate_calls;
static nm_status populate_member(nm_tree *t, nm_node *dir, void *ctx, void *arg, nm_error *err)
{
	(void)ctx; (void)arg; (void)err;
	populate_calls++;
	nm_text_str(t, dir, "inner.txt", "inside\n");
	return NM_OK;
}

/* Inside a batch (one production) the source is checked once, before its first read;
 * outside one, before every read. */
START_TEST(reader_file_batches)
{
	char path[] = "/tmp/nm_test_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "abcdef", 6), 6);
	nm_reader *r;
	nm_error err;
	char buf[2];
	ck_assert_int_eq(nm_reader_open_file(path, &r, &err), NM_OK);
	uint64_t outer = nm_reader_batch_begin();
	ck_assert_int_eq(nm_reader_read(r, 0, buf, 2, NULL, &err), NM_OK);
	ck_assert_int_eq(write(fd, "g", 1), 1); /* it grows: changed, but not checked again */
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 2, NULL, &err), NM_OK);
	nm_reader_batch_end(outer);
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 2, NULL, &err), NM_E_IO);
	outer = nm_reader_batch_begin(); /* a new batch checks again */
	ck_assert_int_eq(nm_reader_read(r, 2, buf, 2, NULL, &err), NM_E_IO);
	nm_reader_batch_end(outer);
	close(fd);
	nm_reader_close(r);
	unlink(path);
}
END_TEST

/* A pinned read points at the bytes a plain read copies, clipped the same way. */
static void expect_pinned(nm_tree *t, const char *path, uint64_t off, size_t len,
			  const char *want)
{
	nm_node *n;
	nm_error err;
	nm_read_hold h;
	char buf[64];
	size_t got;
	ck_assert_int_eq(nm_resolve(t, path, &n, &err), NM_OK);
	ck_assert_int_eq(nm_read_pin(t, n, off, len, &h, &err), NM_OK);
	ck_assert_uint_eq(h.len, strlen(want));
	/* Nothing to read points at nothing (memcmp must not be given NULL). */
	ck_assert(h.len ? memcmp(h.data, want, h.len) == 0 : h.data == NULL);
	nm_read_release(t, &h);
	ck_assert_ptr_null(h.data);
	ck_assert_int_eq(nm_read(t, n, off, buf, len, &got, &err), NM_OK);
	ck_assert_uint_eq(got, strlen(want));
	ck_assert_int_eq(memcmp(buf, want, got), 0);
}

START_TEST(tree_pinned_reads)
{
	nm_tree *t = nm_tree_new(NULL);
	nm_node *root = nm_tree_root(t);
	nm_reader *r = memory_reader("0123456789", 10);
	nm_error err;
	nm_read_hold h;
	nm_text_str(t, root, "a.txt", "abc\n");
	nm_slice(t, root, "raw.bin", r, 3, 4);
	nm_lazy(t, root, "hello.txt", 11, produce_hello, NULL, NULL);
	expect_pinned(t, "a.txt", 1, 10, "bc\n");
	expect_pinned(t, "raw.bin", 1, 10, "456");
	expect_pinned(t, "raw.bin", 4, 10, "");
	expect_pinned(t, "hello.txt", 6, 3, "wor");
	expect_pinned(t, "hello.txt", 20, 3, "");
	ck_assert_int_eq(nm_read_pin(t, root, 0, 1, &h, &err), NM_E_ISDIR);
	nm_tree_free(t);
	nm_reader_close(r);
}
END_TEST

START_TEST(tree_files)
{
	nm_tree *t = nm_tree_new(NULL);
	nm_node *root = nm_tree_root(t), *n, **kids;
	nm_reader *r = memory_reader("0123456789", 10);
	nm_error err;
	char buf[64];
	size_t got, count;
	uint64_t size;
	produced_count = 0;
	nm_text_str(t, root, "a.txt", "abc\n");
	nm_slice(t, root, "raw.bin", r, 3, 4);
	nm_lazy(t, root, "hello.txt", 11, produce_hello, NULL, NULL);
	nm_lazy(t, root, "measured.txt", NM_SIZE_MEASURE, produce_hello, NULL, NULL);
	nm_lazy(t, root, "wrong.txt", 5, produce_hello, NULL, NULL);
	nm_lazy(t, root, "broken.png", 10, produce_fail, NULL, NULL);
	nm_lazy_dir(t, root, "member", populate_member, NULL, NULL);
	ck_assert_ptr_null(nm_slice(t, root, "past.bin", r, 8, 4));

	ck_assert_int_eq(nm_children(t, root, &kids, &count, &err), NM_OK);
	ck_assert_uint_eq(count, 7);
	ck_assert_str_eq(nm_node_name(kids[0]), "a.txt"); /* insertion order */
	ck_assert_int_eq(produced_count, 0);              /* listing produces nothing */

	ck_assert_int_eq(nm_resolve(t, "/raw.bin", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 1, buf, 10, &got, &err), NM_OK);
	ck_assert_uint_eq(got, 3);
	ck_assert_int_eq(memcmp(buf, "456", 3), 0);

	ck_assert_int_eq(nm_resolve(t, "hello.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	ck_assert_uint_eq(size, 11);
	ck_assert_int_eq(produced_count, 0);              /* a known size needs no production */
	ck_assert_int_eq(nm_read(t, n, 6, buf, 64, &got, &err), NM_OK);
	ck_assert_uint_eq(got, 5);
	ck_assert_int_eq(nm_read(t, n, 0, buf, 5, &got, &err), NM_OK);
	ck_assert_int_eq(produced_count, 1);              /* cached after the first read */
	ck_assert_int_eq(nm_read(t, n, 11, buf, 5, &got, &err), NM_OK);
	ck_assert_uint_eq(got, 0);

	ck_assert_int_eq(nm_resolve(t, "measured.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_size(t, n, &size, &err), NM_OK);
	ck_assert_uint_eq(size, 11);

	ck_assert_int_eq(nm_resolve(t, "wrong.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 0, buf, 5, &got, &err), NM_E_INTERNAL);

	ck_assert_int_eq(nm_resolve(t, "broken.png", &n, &err), NM_OK);
	ck_assert_int_eq(nm_read(t, n, 0, buf, 5, &got, &err), NM_E_FORMAT);
	ck_assert_str_eq(err.msg, "m.bin: tex at 0x40: bad texture");

	ck_assert_int_eq(populate_calls, 0);
	ck_assert_int_eq(nm_resolve(t, "/member/inner.txt", &n, &err), NM_OK);
	ck_assert_int_eq(nm_resolve(t, "/member/inner.txt", &n, &err), NM_OK);
	ck_assert_int_eq(populate_calls, 1);
	ck_assert_int_eq(nm_resolve(t, "/member/none", &n, &err), NM_E_NOENT);
	ck_assert_int_eq(nm_resolve(t, "/a.txt/x", &n, &err), NM_E_NOTDIR);
	nm_tree_free(t);
	nm_reader_close(r);
}
END_TEST

static nm_status read_zeros(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			    nm_error *err)
{
	(void)ctx; (void)off; (void)chunk; (void)err;
	memset(buf, 0, len);
	return NM_OK;
}

/* What a front end may read ahead (the FUSE prefill): text, slices and formatters of a
 * direct reader; never a plain producer (a decoder) or anything over a reader whose
 * bytes come from elsewhere (a decompressed member). */
START_TEST(tree_at_hand)
{
	static const nm_source_ops zeros = { .read = read_zeros };
	nm_tree *t = nm_tree_new(NULL);
	nm_node *root = nm_tree_root(t);
	nm_reader *direct = memory_reader("0123456789", 10), *inflated, *window;
	ck_assert_int_eq(nm_reader_new_source("member", 10, &zeros, NULL, &inflated, NULL), NM_OK);
	ck_assert_int_eq(nm_reader_new_window(direct, "w", 2, 4, &window, NULL), NM_OK);
	ck_assert(nm_node_at_hand(nm_text_str(t, root, "a.txt", "abc\n")));
	ck_assert(nm_node_at_hand(nm_slice(t, root, "raw.bin", window, 0, 4)));
	ck_assert(!nm_node_at_hand(nm_slice(t, root, "member.bin", inflated, 0, 4)));
	ck_assert(!nm_node_at_hand(nm_lazy(t, root, "tex.png", 11, produce_hello, NULL, NULL)));
	ck_assert(nm_node_at_hand(nm_lazy_formats(
		nm_lazy(t, root, "list.csv", 11, produce_hello, NULL, NULL), window)));
	ck_assert(!nm_node_at_hand(nm_lazy_formats(
		nm_lazy(t, root, "inflated.csv", 11, produce_hello, NULL, NULL), inflated)));
	ck_assert_ptr_null(nm_lazy_formats(NULL, direct));
	ck_assert(!nm_node_lazy_dir(nm_dir(t, root, "plain")));
	ck_assert(nm_node_lazy_dir(nm_lazy_dir(t, root, "member", populate_member, NULL, NULL)));
	ck_assert(!nm_node_lazy_dir(nm_child(t, root, "a.txt")));
	nm_tree_free(t);
	nm_reader_close(window);
	nm_reader_close(inflated);
	nm_reader_close(direct);
}
END_TEST

/* --- cache --------------------------------------------------------------------- */

static nm_status produce_slow(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)err;
	__atomic_add_fetch((int *)ctx, 1, __ATOMIC_SEQ_CST);
	usleep(50000); /* long enough for every thread to arrive while it runs */
	nm_out_printf(o, "%p", arg);
	return NM_OK;
}

struct reader_arg {
	nm_cache *c;
	int *fills;
	char got[32];
};

static void *cache_reader(void *p)
{
	struct reader_arg *a = p;
	nm_cache_entry *e;
	if (nm_cache_get(a->c, (void *)0x1234, produce_slow, a->fills, (void *)0x1234, &e,
			 NULL) == NM_OK) {
		memcpy(a->got, nm_cache_data(e), nm_cache_len(e));
		nm_cache_release(a->c, e);
	}
	return NULL;
}

START_TEST(cache_concurrent_single_fill)
{
	nm_options opt;
	nm_options_init(&opt);
	nm_cache *c = nm_cache_new(&opt);
	int fills = 0;
	pthread_t th[8];
	struct reader_arg a[8];
	for (int i = 0; i < 8; i++) {
		a[i] = (struct reader_arg){ .c = c, .fills = &fills };
		pthread_create(&th[i], NULL, cache_reader, &a[i]);
	}
	for (int i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	ck_assert_int_eq(fills, 1);
	for (int i = 1; i < 8; i++)
		ck_assert_mem_eq(a[i].got, a[0].got, sizeof a[0].got);
	nm_cache_free(c);
}
END_TEST

static nm_status produce_kib(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)err;
	(*(int *)ctx)++;
	size_t n = (size_t)(uintptr_t)arg;
	uint8_t *p = nm_out_reserve(o, n);
	memset(p, 'x', n);
	o->len += n;
	return NM_OK;
}

/* A cache of 3000 bytes under opt (which must outlive it). */
static nm_cache *cache_of_3000(nm_options *opt)
{
	nm_options_init(opt);
	opt->cache_size = 3000;
	return nm_cache_new(opt);
}

START_TEST(cache_lru_bound)
{
	nm_options opt;
	nm_cache *c = cache_of_3000(&opt);
	nm_cache_entry *e;
	int fills = 0;
	/* Keys 1..5 of 1000 bytes: only three fit. */
	for (uintptr_t k = 1; k <= 5; k++) {
		ck_assert_int_eq(nm_cache_get(c, (void *)k, produce_kib, &fills, (void *)1000, &e, NULL), NM_OK);
		nm_cache_release(c, e);
		ck_assert_uint_le(nm_cache_bytes(c), 3000);
	}
	ck_assert_int_eq(fills, 5);
	nm_cache_get(c, (void *)5, produce_kib, &fills, (void *)1000, &e, NULL); /* hit */
	nm_cache_release(c, e);
	ck_assert_int_eq(fills, 5);
	nm_cache_get(c, (void *)1, produce_kib, &fills, (void *)1000, &e, NULL); /* evicted */
	nm_cache_release(c, e);
	ck_assert_int_eq(fills, 6);
	/* An entry larger than the whole cache stays until something else is used... */
	nm_cache_get(c, (void *)9, produce_kib, &fills, (void *)10000, &e, NULL);
	nm_cache_release(c, e);
	nm_cache_get(c, (void *)9, produce_kib, &fills, (void *)10000, &e, NULL);
	ck_assert_int_eq(fills, 7);
	/* ...and a pinned entry survives eviction by others. */
	nm_cache_entry *e2;
	nm_cache_get(c, (void *)10, produce_kib, &fills, (void *)1000, &e2, NULL);
	ck_assert_uint_eq(nm_cache_len(e), 10000);
	ck_assert_int_eq(nm_cache_data(e)[9999], 'x');
	nm_cache_release(c, e);
	nm_cache_release(c, e2);
	ck_assert_uint_le(nm_cache_bytes(c), 3000);
	nm_cache_free(c);
}
END_TEST

/* --- OBJ and triangulation ------------------------------------------------------ */

/* Bytes offered for a key without an entry are what a get then finds, with no fill; an
 * offer never replaces an entry, and one larger than the limit is not kept. */
START_TEST(cache_offer_keeps_what_is_missing)
{
	nm_options opt;
	nm_cache *c = cache_of_3000(&opt);
	nm_cache_entry *e;
	int fills = 0;
	ck_assert_ptr_null(nm_cache_peek(c, (void *)1));
	nm_cache_offer(c, (void *)1, (const uint8_t *)"offered", 7);
	ck_assert_int_eq(nm_cache_get(c, (void *)1, produce_kib, &fills, (void *)1000, &e, NULL), NM_OK);
	ck_assert_int_eq(fills, 0);
	ck_assert_uint_eq(nm_cache_len(e), 7);
	ck_assert_mem_eq(nm_cache_data(e), "offered", 7);
	nm_cache_release(c, e);
	/* key 2 is made, then offered other bytes: the made ones stay */
	ck_assert_int_eq(nm_cache_get(c, (void *)2, produce_kib, &fills, (void *)100, &e, NULL), NM_OK);
	nm_cache_release(c, e);
	nm_cache_offer(c, (void *)2, (const uint8_t *)"other", 5);
	e = nm_cache_peek(c, (void *)2);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(nm_cache_len(e), 100);
	ck_assert_int_eq(nm_cache_data(e)[0], 'x');
	nm_cache_release(c, e);
	static uint8_t big[4000];
	nm_cache_offer(c, (void *)3, big, sizeof big);
	ck_assert(!nm_cache_has(c, (void *)3));
	ck_assert_uint_le(nm_cache_bytes(c), 3000);
	nm_cache_free(c);
}
END_TEST

START_TEST(triangulate_kinds)
{
	uint32_t idx[] = { 0, 1, 2, 3, 3, 4 }, t[18];
	ck_assert_uint_eq(nm_triangle_count(NM_PRIM_STRIP, 6), 4);
	nm_triangulate(NM_PRIM_STRIP, idx, 6, t);
	/* The strip join (3, 3) makes two zero-area triangles: kept, as the file has them
	 * (one rule for every count and file: export/triangulate.h). */
	uint32_t want[] = { 0, 1, 2, 2, 1, 3, 2, 3, 3, 3, 3, 4 };
	ck_assert_mem_eq(t, want, sizeof want);
	ck_assert_uint_eq(nm_triangle_count(NM_PRIM_FAN, 5), 3);
	nm_triangulate(NM_PRIM_FAN, (uint32_t[]){ 9, 1, 2, 3, 4 }, 5, t);
	ck_assert_mem_eq(t, ((uint32_t[]){ 9, 1, 2, 9, 2, 3, 9, 3, 4 }), 9 * 4);
	ck_assert_uint_eq(nm_triangle_count(NM_PRIM_QUADS, 9), 4);
	nm_triangulate(NM_PRIM_QUADS, (uint32_t[]){ 0, 1, 2, 3 }, 4, t);
	ck_assert_mem_eq(t, ((uint32_t[]){ 0, 1, 2, 0, 2, 3 }), 6 * 4);
	ck_assert_uint_eq(nm_triangle_count(NM_PRIM_TRIANGLES, 7), 2);
	ck_assert_uint_eq(nm_triangle_count(NM_PRIM_STRIP, 2), 0);
}
END_TEST

static nm_status load_test_group(void *ctx, size_t g, nm_obj_data *d, nm_error *err)
{
	const nm_obj_group *groups = ctx;
	(void)err;
	for (uint64_t v = 0; d->positions && v < groups[g].nverts; v++) {
		for (int c = 0; c < 3; c++)
			d->positions[v * 3 + c] = (float)(v * 3 + (uint64_t)c) * 0.25f - 100.0f;
		if (d->normals)
			for (int c = 0; c < 3; c++)
				d->normals[v * 3 + c] = c == 1 ? 1.0f : 0.0f;
		if (d->texcoords[0])
			d->texcoords[0][v * 2] = d->texcoords[0][v * 2 + 1] = 0.5f;
		if (d->texcoords[1])
			d->texcoords[1][v * 2] = d->texcoords[1][v * 2 + 1] = 0.75f;
		if (d->colors)
			for (int c = 0; c < 4; c++)
				d->colors[v * 4 + c] = 0.25f;
		if (d->joints) {
			/* A joint twice, a negative weight, a joint past the skeleton: mended. */
			static const uint16_t j[4] = { 1, 1, 5, 0 };
			static const float w[4] = { 0.5f, 0.5f, -1.0f, 0.0f };
			memcpy(d->joints + 4 * v, j, sizeof j);
			memcpy(d->weights + 4 * v, w, sizeof w);
		}
	}
	for (uint64_t k = 0; k < groups[g].ntris * 3; k++)
		d->tris[k] = k % 7 == 6 ? NM_OBJ_DROPPED : (uint32_t)(k % groups[g].nverts);
	return NM_OK;
}

START_TEST(obj_size_matches)
{
	nm_obj_group groups[] = {
		{ .name = "a", .material = "m0", .nverts = 12, .has_normals = true,
		  .nuvs = 1, .ntris = 9, .object = "obj_a", .has_colors = true },
		{ .name = "a_more", .material = NULL, .nverts = 12, .has_normals = true,
		  .nuvs = 1, .ntris = 5, .reuse_vertices = true, .has_colors = true },
		{ .name = "b", .material = "m1", .nverts = 1234, .has_normals = false,
		  .nuvs = 2, .obj_uv = 1, .ntris = 300 },
		{ .name = "c", .material = "m1", .nverts = 3, .ntris = 1 },
	};
	nm_obj_model m = { .mtllib = "mesh.mtl", .comment = "test", .groups = groups,
			   .ngroups = 4, .load = load_test_group, .ctx = groups };
	nm_out o;
	nm_error err;
	nm_out_init(&o);
	ck_assert_int_eq(nm_obj_write(&m, &o, &err), NM_OK);
	ck_assert_uint_eq(o.len, nm_obj_size(&m));
	/* Faces and vertices counted independently of the writer. */
	unsigned v = 0, f = 0, drop = 0, vt = 0, vn = 0, objects = 0, vt_set1 = 0;
	size_t face_len = 0;
	char *text = strndup((char *)o.data, o.len);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		v += line[0] == 'v' && line[1] == ' ';
		vt += strncmp(line, "vt ", 3) == 0;
		/* Group b writes its UV set 1 (its material's): 0.75. */
		vt_set1 += strcmp(line, "vt +7.50000000e-01 +7.50000000e-01") == 0;
		vn += strncmp(line, "vn ", 3) == 0;
		objects += strncmp(line, "o ", 2) == 0;
		f += line[0] == 'f';
		drop += line[0] == '#' && line[1] == ' ' && line[2] == ' ';
		if (line[0] == 'v' && line[1] == ' ') {
			/* Colours on every position: x y z r g b, white where a group has none. */
			float x[6];
			ck_assert_int_eq(sscanf(line + 2, "%f %f %f %f %f %f", &x[0], &x[1], &x[2],
						&x[3], &x[4], &x[5]), 6);
			ck_assert(x[3] == 0.25f || x[3] == 1.0f);
		}
		if (line[0] == 'f') {
			/* One face form in the whole file: v/vt/vn, the same width. */
			unsigned n = 0;
			for (char *c = line; *c; c++)
				n += *c == '/';
			ck_assert_uint_eq(n, 6);
			if (!face_len)
				face_len = strlen(line);
			ck_assert_uint_eq(strlen(line), face_len);
		}
	}
	ck_assert_uint_eq(v, 12 + 1234 + 3);
	/* One placeholder each for the groups without texcoords (c) or normals (b, c). */
	ck_assert_uint_eq(vt, 12 + 1234 + 1);
	ck_assert_uint_eq(vt_set1, 1234);
	ck_assert_uint_eq(vn, 12 + 1);
	ck_assert_uint_eq(objects, 1);
	ck_assert_uint_eq(f + drop, 9 + 5 + 300 + 1);
	ck_assert_uint_gt(drop, 0);
	free(text);
	nm_out_free(&o);
}
END_TEST

static nm_status tiny_png(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	static const uint8_t rgba[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 9 };
	(void)ctx;
	(void)arg;
	(void)err;
	return nm_png_write(o, rgba, 2, 2, 4);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

START_TEST(gltf_size_matches)
{
	nm_obj_group groups[] = {
		{ .name = "a", .object = "obj_a", .nverts = 12, .has_normals = true, .nuvs = 1,
		  .ntris = 9, .has_colors = true, .has_skin = true },
		{ .name = "a_more", .nverts = 12, .has_normals = true, .nuvs = 1, .ntris = 5,
		  .reuse_vertices = true, .has_colors = true, .has_skin = true },
		{ .name = "b\"q\\\x81", .nverts = 1234, .nuvs = 1, .ntris = 300 },
		{ .name = "empty", .nverts = 0, .ntris = 0 },
		{ .name = "c", .nverts = 3, .ntris = 1 },
	};
	nm_obj_model mesh = { .groups = groups, .ngroups = 5, .load = load_test_group,
			      .ctx = groups };
	nm_png_source img = { nm_png_size(2, 2, 4), tiny_png, NULL, NULL, NULL, NULL };
	/* Material 0 reads UV set 1, which group a lacks: the writer adds it (zeros). */
	nm_gltf_material mats[2] = {
		{ .name = "m0", .color = { 1, 0.5f, 0, 1 }, .image = 0, .uv = 1,
		  .wrap_s = NM_GLTF_REPEAT, .wrap_t = NM_GLTF_CLAMP, .alpha = NM_GLTF_MASK,
		  .alpha_cutoff = 0.5f, .double_sided = true },
		{ .name = "m1", .color = { 2, -1, NAN, 1 }, .image = -1 },
	};
	int32_t group_mat[5] = { 0, 1, 1, -1, 7 };
	/* Joints 1 and 2 are each other's parent: both become roots. */
	nm_gltf_joint joints[3] = {
		{ .name = "root", .parent = -1, .r = { 0, 0, 0, 1 }, .s = { 1, 1, 1 } },
		{ .name = "j1", .parent = 2, .t = { 1, 2, 3 }, .r = { 0, 0, 0, 1 }, .s = { 1, 1, 1 } },
		{ .name = "j2", .parent = 1, .r = { 0, 0, 0, 1 }, .s = { 1, 1, 1 } },
	};
	for (int j = 0; j < 3; j++)
		nm_gltf_inverse_bind((const float[12]){ 1, 0, 0, joints[j].t[0], 0, 1, 0,
							joints[j].t[1], 0, 0, 1, joints[j].t[2] },
				     joints[j].inverse_bind);
	ck_assert(fabsf(joints[1].inverse_bind[12] + 1) < 1e-6f);
	ck_assert(fabsf(joints[1].inverse_bind[14] + 3) < 1e-6f);
	nm_gltf_model m = { .mesh = &mesh, .group_material = group_mat, .materials = mats,
			    .nmaterials = 2, .images = &img, .nimages = 1, .joints = joints,
			    .njoints = 3 };
	uint64_t size = nm_gltf_size(&m);
	nm_out o, again;
	nm_error err;
	nm_out_init(&o);
	nm_out_init(&again);
	ck_assert_int_eq(nm_gltf_write(&m, &o, &err), NM_OK);
	ck_assert_int_eq(nm_gltf_write(&m, &again, &err), NM_OK);
	ck_assert_uint_eq(o.len, size);
	ck_assert_mem_eq(o.data, again.data, o.len);
	/* Header: magic, version 2, length; a JSON chunk padded to 4; a BIN chunk after it. */
	ck_assert_mem_eq(o.data, "glTF", 4);
	ck_assert_uint_eq(le32(o.data + 4), 2);
	ck_assert_uint_eq(le32(o.data + 8), o.len);
	uint32_t jlen = le32(o.data + 12);
	ck_assert_uint_eq(jlen % 4, 0);
	ck_assert_mem_eq(o.data + 16, "JSON", 4);
	ck_assert_mem_eq(o.data + 20 + jlen + 4, "BIN", 4);
	ck_assert_uint_eq(20 + jlen + 8 + le32(o.data + 20 + jlen), o.len);
	char *json = strndup((char *)o.data + 20, jlen);
	ck_assert_ptr_nonnull(strstr(json, "\"skins\":[{\"joints\":[0,1,2]"));
	ck_assert_ptr_nonnull(strstr(json, "\"TEXCOORD_1\""));
	ck_assert_ptr_nonnull(strstr(json, "\"name\":\"b\\\"q\\\\_\""));
	ck_assert_ptr_nonnull(strstr(json, "\"baseColorFactor\":[1,0,0,1]"));
	ck_assert_ptr_nonnull(strstr(json, "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.5"));
	/* The loop of parents is broken: three root joints, held by one more node (glTF
	 * wants a skin's joints under one root), then three meshes ("empty" has nothing to
	 * draw). */
	ck_assert_ptr_nonnull(strstr(json, "{\"name\":\"skeleton\",\"children\":[0,1,2]}"));
	ck_assert_ptr_nonnull(strstr(json, "\"scenes\":[{\"nodes\":[3,4,5,6]}]"));
	ck_assert_ptr_null(strstr(json, "nan"));
	/* POSITION bounds: fixed-width numbers, no '+' (not JSON). */
	const char *mn = strstr(json, "\"min\":[");
	ck_assert_ptr_nonnull(mn);
	ck_assert_int_eq(mn[7 + 23], ',');
	ck_assert_ptr_null(strstr(json, "[+"));
	ck_assert_ptr_null(strstr(json, ",+"));
	free(json);
	nm_out_free(&o);
	nm_out_free(&again);
}
END_TEST

/* nm_bands_run: every item made once, by the band nm_bands_count says, whatever the
 * threads; a band's failure is the run's. */
struct bands_job {
	unsigned char hits[1000];
	unsigned fail_band;
};

static nm_status mark_items(void *arg, unsigned band, unsigned begin, unsigned end)
{
	struct bands_job *j = arg;
	for (unsigned i = begin; i < end; i++)
		j->hits[i]++;
	return band == j->fail_band ? NM_E_FORMAT : NM_OK;
}

START_TEST(bands_cover_every_item_once)
{
	ck_assert_uint_eq(nm_bands_count(1, 1000, 10), 1);
	ck_assert_uint_eq(nm_bands_count(4, 1000, 10), 4);
	ck_assert_uint_eq(nm_bands_count(4, 1000, 300), 3);
	ck_assert_uint_eq(nm_bands_count(4, 10, 300), 1);
	ck_assert_uint_eq(nm_bands_count(64, 1000, 1), NM_BANDS_MAX);
	ck_assert_uint_eq(nm_bands_count(0, 1000, 0), 1);
	for (unsigned k = 1; k <= NM_BANDS_MAX; k++) {
		struct bands_job j = { .fail_band = NM_BANDS_MAX };
		ck_assert_int_eq(nm_bands_run(k, 1000, mark_items, &j), NM_OK);
		for (unsigned i = 0; i < 1000; i++)
			ck_assert_uint_eq(j.hits[i], 1);
		j = (struct bands_job){ .fail_band = k - 1 };
		ck_assert_int_eq(nm_bands_run(k, 1000, mark_items, &j), NM_E_FORMAT);
	}
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, reader_bounds);
	tcase_add_test(tc, reader_file);
	tcase_add_test(tc, view_sticky_errors);
	tcase_add_test(tc, text_floats_round_trip);
	tcase_add_test(tc, text_nan_keeps_its_bits);
	tcase_add_test(tc, text_key_values);
	tcase_add_test(tc, text_plain_formats_like_printf);
	tcase_add_test(tc, output_limit);
	tcase_add_test(tc, output_empty_write);
	tcase_add_test(tc, tree_names);
	tcase_add_test(tc, tree_files);
	tcase_add_test(tc, reader_file_batches);
	tcase_add_test(tc, tree_pinned_reads);
	tcase_add_test(tc, tree_at_hand);
	tcase_add_test(tc, cache_concurrent_single_fill);
	tcase_add_test(tc, cache_lru_bound);
	tcase_add_test(tc, cache_offer_keeps_what_is_missing);
	tcase_add_test(tc, triangulate_kinds);
	tcase_add_test(tc, obj_size_matches);
	tcase_add_test(tc, gltf_size_matches);
	tcase_add_test(tc, bands_cover_every_item_once);
	suite_add_tcase(s, tc);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(core_suite)
