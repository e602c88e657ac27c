/* Tests for the Tropical Freeze driver: vertex component formats, models whose GPU
 * buffers use every Retro LZSS mode and zlib (through a PAK's META, through appended
 * metadata, and recovered from zlib streams), PAK archives, laziness, broken input
 * (truncations and byte flips of fixtures, generated PAKs and the corpus) and the
 * corpus models of ../shared/corpus/cmdl. Expected CSVs are built from the fixture's
 * known values, never from decoder output. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "codec/gpu_buffer.h"
#include "edit/apply.h"
#include "lib/edit.h"
#include "export/text.h"
#include "fixtures/rfrm_writer.h"
#include "fixtures/bench_pak.h"
#include "formats/driver.h"
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"
#include "tests/prng.h"
#include "tests/walk.h"

/* ---- helpers ---------------------------------------------------------------------- */

/* A tree of a copy of bytes under opt (NULL: the defaults); NULL (and err) if the build
 * fails. */
static nm_tree *build_mem_with(const uint8_t *data, size_t len, const char *name,
			       const nm_options *opt, nm_error *err)
{
	nm_tree *t;
	return walk_build_with(data, len, name, opt, &t, err) == NM_OK ? t : NULL;
}

static nm_tree *build_mem(const uint8_t *data, size_t len, const char *name, nm_error *err)
{
	return build_mem_with(data, len, name, NULL, err);
}

static nm_tree *build_ok(const rfx_buf *b, const char *name)
{
	nm_error err;
	nm_tree *t = build_mem(b->data, b->len, name, &err);
	ck_assert_msg(t != NULL, "build failed: %s", err.msg);
	return t;
}

/* The whole file at path (NUL-terminated copy); asserts it reads and its size holds. */
static char *slurp(nm_tree *t, const char *path, size_t *len)
{
	nm_node *n;
	nm_error err;
	ck_assert_msg(nm_resolve(t, path, &n, &err) == NM_OK, "%s: %s", path, err.msg);
	uint64_t size;
	ck_assert_msg(nm_size(t, n, &size, &err) == NM_OK, "%s: %s", path, err.msg);
	char *buf = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(buf);
	size_t got = 0;
	ck_assert_msg(nm_read(t, n, 0, buf, (size_t)size, &got, &err) == NM_OK, "%s: %s", path,
		      err.msg);
	ck_assert_uint_eq(got, size);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

static void expect_file(nm_tree *t, const char *path, const void *want, size_t want_len)
{
	size_t len;
	char *got = slurp(t, path, &len);
	ck_assert_msg(len == want_len, "%s: %zu bytes, want %zu", path, len, want_len);
	ck_assert_msg(memcmp(got, want, len) == 0, "%s differs from the known data", path);
	free(got);
}

static void expect_contains(nm_tree *t, const char *path, const char *needle)
{
	char *got = slurp(t, path, NULL);
	ck_assert_msg(strstr(got, needle) != NULL, "%s lacks \"%s\":\n%s", path, needle, got);
	free(got);
}

/* The whole tree as a mount would walk it (tests/walk.c): sizes always; with produce,
 * every file read whole. Failures are counted, not fatal (broken input may fail), but
 * every file that reads gives exactly its announced size. */
static walk_stats walk_all(nm_tree *t, bool produce)
{
	walk_opts o = { .sizes_only = !produce };
	walk_stats st;
	walk_tree_opts(t, &o, &st);
	ck_assert_uint_eq(st.size_mismatches, 0);
	ck_assert_uint_lt(st.depth, 64);
	return st;
}

/* ---- expected text from the sample's known values ------------------------------- */

static void csv_floats(nm_out *o, const float *f, int n)
{
	for (int k = 0; k < n; k++) {
		nm_csv_float(o, f[k]);
		nm_out_char(o, k + 1 == n ? '\n' : ',');
	}
}

/* The sample of seed seed written as a model of form type form (and its META blob into
 * meta, unless NULL). */
static rfx_buf sample_model(rfx_sample *s, uint32_t seed, const char *form, int codec,
			    bool meta_gpu_relative, rfx_buf *meta)
{
	rfx_buf b = { 0 };
	rfx_sample_init(s, seed);
	ck_assert_int_eq(rfx_sample_write(s, form, codec, meta_gpu_relative, &b, meta), 0);
	return b;
}

/* The sample's float attributes as its CSVs list them, and each known value. */
static const struct { const char *file, *header; int comps; } sample_floats[] = {
	{ "vbuf/0/positions.csv", "x,y,z\n", 3 },
	{ "vbuf/0/normals.csv", "x,y,z,w\n", 4 },
	{ "vbuf/0/texcoords0.csv", "u,v\n", 2 },
	{ "vbuf/0/colors.csv", "r,g,b,a\n", 4 },
	{ "vbuf/0/bone_weights.csv", "weight0,weight1,weight2,weight3\n", 4 },
};

static float sample_float(const rfx_sample *s, size_t attr, int v, int k)
{
	switch (attr) {
	case 0: return s->pos[v][k];
	case 1: return s->nrm[v][k];
	case 2: return s->uv[v][k];
	case 3: return (float)(s->color[v][k] / 255.0);
	default: return (float)(s->weights[v][k] / 65535.0);
	}
}

/* dir/file holds exactly the bytes of o, which is emptied for the next file. */
static void expect_out(nm_tree *t, const char *dir, const char *file, nm_out *o)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	expect_file(t, path, o->data, o->len);
	o->len = 0;
}

static void expect_sample_csvs(nm_tree *t, const char *dir, const rfx_sample *s, bool little)
{
	char path[256];
	nm_out o;
	nm_out_init(&o);

	for (size_t a = 0; a < sizeof sample_floats / sizeof sample_floats[0]; a++) {
		nm_out_str(&o, sample_floats[a].header);
		for (int v = 0; v < RFX_SAMPLE_VERTS; v++) {
			float f[4];
			for (int k = 0; k < sample_floats[a].comps; k++)
				f[k] = sample_float(s, a, v, k);
			csv_floats(&o, f, sample_floats[a].comps);
		}
		expect_out(t, dir, sample_floats[a].file, &o);
	}

	nm_out_str(&o, "index0,index1,index2,index3\n");
	for (int v = 0; v < RFX_SAMPLE_VERTS; v++)
		for (int k = 0; k < 4; k++) {
			nm_csv_int(&o, s->bones[v][k], 3);
			nm_out_char(&o, k == 3 ? '\n' : ',');
		}
	expect_out(t, dir, "vbuf/0/bone_indices.csv", &o);

	int nidx = RFX_SAMPLE_TRI_INDICES + RFX_SAMPLE_STRIP_INDICES;
	nm_out_str(&o, "index\n");
	for (int i = 0; i < nidx; i++) {
		nm_csv_uint(&o, s->idx[i], 5);
		nm_out_char(&o, '\n');
	}
	expect_out(t, dir, "ibuf/0/indices.csv", &o);
	nm_out_free(&o);

	uint8_t verts[RFX_SAMPLE_VERTS * RFX_SAMPLE_STRIDE], idx[2 * 38];
	rfx_sample_vertices(s, little, verts);
	rfx_sample_indices(s, little, idx);
	snprintf(path, sizeof path, "%s/gpu/vertex/0.bin", dir);
	expect_file(t, path, verts, sizeof verts);
	snprintf(path, sizeof path, "%s/gpu/index/0.bin", dir);
	expect_file(t, path, idx, sizeof idx);

	/* mesh.obj: 10 triangles, and a strip of 8 indices = 6 triangles, the zero-area
	 * ones of its join (a repeated index) included: one rule for every count
	 * (export/triangulate.h), so as many faces as info.txt's triangles. */
	int faces = RFX_SAMPLE_TRI_INDICES / 3 + RFX_SAMPLE_STRIP_INDICES - 2, joins = 0;
	const uint16_t *st = s->idx + RFX_SAMPLE_TRI_INDICES;
	for (int k = 0; k + 2 < RFX_SAMPLE_STRIP_INDICES; k++)
		joins += st[k] == st[k + 1] || st[k + 1] == st[k + 2] || st[k] == st[k + 2];
	ck_assert_int_gt(joins, 0); /* the fixture's strip has a join to keep */
	snprintf(path, sizeof path, "%s/info.txt", dir);
	char *info = slurp(t, path, NULL);
	char want[64];
	snprintf(want, sizeof want, "\ntriangles: %d\n", faces);
	ck_assert_msg(strstr(info, want), "%s lacks%s", path, want);
	free(info);
	snprintf(path, sizeof path, "%s/mesh.obj", dir);
	char *obj = slurp(t, path, NULL);
	int f = 0, hashes = 0, vt = 0;
	for (char *line = obj; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		f += strncmp(line, "f ", 2) == 0;
		hashes += line[0] == '#';
		vt += strncmp(line, "vt ", 3) == 0;
	}
	ck_assert_int_eq(f, faces);
	ck_assert_int_eq(hashes, 1); /* the header comment: no face is left out */
	ck_assert_int_eq(vt, RFX_SAMPLE_VERTS);
	/* The first texcoord, v flipped. */
	nm_out_init(&o);
	nm_out_str(&o, "vt ");
	nm_csv_float(&o, s->uv[0][0]);
	nm_out_char(&o, ' ');
	nm_csv_float(&o, 1.0f - s->uv[0][1]);
	nm_out_char(&o, '\n');
	nm_out_char(&o, '\0');
	ck_assert_msg(strstr(obj, (char *)o.data) != NULL, "no flipped vt line %s", o.data);
	nm_out_free(&o);
	free(obj);
}

/* Every codec tag: Wii U's 0..3, then the Switch's 4..13. */
static const int codecs[RFX_CODEC_COUNT] = {
	RFX_STORED, RFX_LZSS8, RFX_LZSS16, RFX_LZSS32, RFX_LZSS8_ARITH, RFX_LZSS16_ARITH,
	RFX_LZSS32_ARITH, RFX_LZSS8_LONG, RFX_LZSS16_LONG, RFX_LZSS32_LONG,
	RFX_LZSS8_LONG_ARITH, RFX_LZSS16_LONG_ARITH, RFX_LZSS32_LONG_ARITH, RFX_ZLIB,
};

/* ---- vertex formats ------------------------------------------------------------ */

START_TEST(half_floats)
{
	ck_assert(rfrm_half(0x3c00) == 1.0f);
	ck_assert(rfrm_half(0xc000) == -2.0f);
	ck_assert(rfrm_half(0x3555) == 0.333251953125f);
	ck_assert(rfrm_half(0x7bff) == 65504.0f);
	ck_assert(rfrm_half(0x0001) == ldexpf(1.0f, -24));
	ck_assert(rfrm_half(0x03ff) == ldexpf(1023.0f, -24));
	ck_assert(rfrm_half(0x0400) == ldexpf(1.0f, -14));
	ck_assert(rfrm_half(0x8000) == 0.0f && signbit(rfrm_half(0x8000)));
	ck_assert(isinf(rfrm_half(0x7c00)) && rfrm_half(0x7c00) > 0);
	ck_assert(isinf(rfrm_half(0xfc00)) && rfrm_half(0xfc00) < 0);
	ck_assert(isnan(rfrm_half(0x7e00)));
}
END_TEST

/* Every format: components from known raw integers, in both byte orders. */
START_TEST(every_component_format)
{
	int seen = 0;
	for (uint32_t fmt = 0; fmt < RFRM_FORMAT_COUNT; fmt++) {
		const rfrm_format_info *f = rfrm_format(fmt);
		ck_assert_ptr_nonnull(f);
		seen++;
		for (int little = 0; little < 2; little++) {
			uint8_t p[16];
			uint32_t raws[4] = { 0 };
			if (f->kind == RFRM_K_UNORM_1010102 || f->kind == RFRM_K_UINT_1010102) {
				raws[0] = 1023;
				raws[1] = 5;
				raws[2] = 512;
				raws[3] = 2;
				uint32_t w = raws[0] | raws[1] << 10 | raws[2] << 20 | raws[3] << 30;
				rfx_store32(p, w, little);
			} else {
				unsigned n = f->bytes / f->comps;
				for (unsigned c = 0; c < f->comps; c++) {
					/* Includes the most negative value and a sign bit for s*. */
					uint32_t v = c == 0 ? 1u << (8 * n - 1) : (uint32_t)(0x5a3c1e7fu >> (8 * (4 - n)) ^ c);
					if (n < 4)
						v &= (1u << (8 * n)) - 1;
					if (f->kind == RFRM_K_HALF)
						v = c == 0 ? 0xc000 : 0x3555;
					if (f->kind == RFRM_K_FLOAT) {
						float x = c == 0 ? -2.5f : 1.0f / 3.0f;
						memcpy(&v, &x, 4);
					}
					raws[c] = v;
					if (n == 1)
						p[c] = (uint8_t)v;
					else if (n == 2)
						rfx_store16(p + 2 * c, (uint16_t)v, little);
					else
						rfx_store32(p + 4 * c, v, little);
				}
			}
			for (unsigned c = 0; c < f->comps; c++) {
				unsigned bits = 8 * (f->bytes / f->comps);
				uint32_t v = raws[c];
				double sv = bits == 32 ? (double)(int32_t)v
					  : (double)((int64_t)v - ((v >> (bits - 1)) ? (1ll << bits) : 0));
				float got = rfrm_component_float(f, p, c, little);
				switch (f->kind) {
				case RFRM_K_UNORM:
					ck_assert(got == (float)(v / (double)((1ull << bits) - 1)));
					break;
				case RFRM_K_SNORM: {
					double x = sv / (double)((1ull << (bits - 1)) - 1);
					ck_assert(got == (float)(x < -1 ? -1 : x));
					if (c == 0)
						ck_assert(got == -1.0f);
					break;
				}
				case RFRM_K_UINT:
					ck_assert_int_eq(rfrm_component_int(f, p, c, little), (int64_t)v);
					break;
				case RFRM_K_SINT:
					ck_assert_int_eq(rfrm_component_int(f, p, c, little), (int64_t)sv);
					break;
				case RFRM_K_HALF:
					ck_assert(got == (c == 0 ? -2.0f : 0.333251953125f));
					break;
				case RFRM_K_FLOAT:
					ck_assert(got == (c == 0 ? -2.5f : 1.0f / 3.0f));
					break;
				case RFRM_K_UNORM_1010102:
					ck_assert(got == (float)(raws[c] / (c < 3 ? 1023.0 : 3.0)));
					break;
				case RFRM_K_UINT_1010102:
					ck_assert_int_eq(rfrm_component_int(f, p, c, little), raws[c]);
					break;
				}
			}
		}
	}
	ck_assert_int_eq(seen, 41);
	ck_assert_ptr_null(rfrm_format(41));
	ck_assert_str_eq(rfrm_format(25)->name, "RGB10A2_UNORM");
	ck_assert_str_eq(rfrm_format(34)->name, "RGBA16_FLOAT");
	ck_assert_uint_eq(rfrm_format(37)->bytes, 12);
}
END_TEST

/* ---- models: every codec, three ways to find the buffers ----------------------- */

/* Through a PAK with the model's META entry; then its raw.bin, mounted alone. */
START_TEST(pak_every_codec)
{
	int codec = codecs[_i];
	rfx_sample s;
	rfx_buf meta = { 0 }, other = { 0 }, pak = { 0 };
	rfx_buf asset = sample_model(&s, 100 + (uint32_t)_i, "CMDL", codec, false, &meta);
	ck_assert_int_eq(rfx_generic_write("TXTR", 5, 100, &other), 0);
	rfx_asset a[2] = {
		{ "CMDL", { 0 }, "models/sample", asset.data, asset.len, meta.data, meta.len },
		{ "TXTR", { 0 }, NULL, other.data, other.len, NULL, 0 },
	};
	rfx_guid(a[0].guid, 1);
	rfx_guid(a[1].guid, 2);
	/* Each platform's PAK layout with its own codecs. */
	bool little = rfx_codec_is_switch(codec);
	ck_assert_int_eq(rfx_pak_write_as(a, 2, little, &pak), 0);
	nm_tree *t = build_ok(&pak, "test.pak");
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_contains(t, "/info.txt", little ? "strg_layout: u32 name lengths (Switch)"
					       : "strg_layout: NUL-terminated names");
	expect_contains(t, "/info.txt", little ? "meta_layout: u32 size before each blob (Switch)"
					       : "meta_layout: bare blobs");
	expect_sample_csvs(t, "/models%2Fsample.cmdl", &s, little);
	expect_contains(t, "/models%2Fsample.cmdl/gpu/layout.txt", "source: PAK META entry");
	expect_contains(t, "/models%2Fsample.cmdl/info.txt", little ? "little-endian" : "big-endian");

	/* raw.bin is the asset bytes, then "META" + size + 1 + 0 + the blob. */
	size_t len;
	char *exp = slurp(t, "/models%2Fsample.cmdl/raw.bin", &len);
	ck_assert_uint_eq(len, asset.len + 0x18 + meta.len);
	ck_assert(memcmp(exp, asset.data, asset.len) == 0);
	ck_assert(memcmp(exp + asset.len, "META", 4) == 0);
	ck_assert_uint_eq(nm_be64((uint8_t *)exp + asset.len + 4), meta.len);
	ck_assert(memcmp(exp + asset.len + 0x18, meta.data, meta.len) == 0);
	nm_error err;
	nm_tree *t2 = build_mem((uint8_t *)exp, len, "exported.cmdl", &err);
	ck_assert_msg(t2 != NULL, "%s", err.msg);
	expect_sample_csvs(t2, "", &s, little);
	expect_contains(t2, "/gpu/layout.txt", "source: META appended after the form");
	nm_tree_free(t2);
	free(exp);

	/* The other asset: its chunk tree, and its bytes as raw.bin. */
	char g[RFRM_GUID_STR], path[128];
	rfrm_guid_str(g, a[1].guid);
	snprintf(path, sizeof path, "/%s.txtr/data/raw.bin", g);
	expect_file(t, path, other.data + other.len - 100, 100);
	snprintf(path, sizeof path, "/%s.txtr/raw.bin", g);
	expect_file(t, path, other.data, other.len);
	char *toc = slurp(t, "/toc.txt", NULL);
	ck_assert_ptr_nonnull(strstr(toc, "CMDL "));
	ck_assert_ptr_nonnull(strstr(toc, " yes models%2Fsample.cmdl\n"));
	ck_assert_ptr_nonnull(strstr(toc, " no "));
	free(toc);
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
	rfx_buf_free(&other);
	rfx_buf_free(&pak);
}
END_TEST

/* A single file with the META appended: every codec. */
START_TEST(appended_meta_every_codec)
{
	int codec = codecs[_i];
	rfx_sample s;
	rfx_buf meta = { 0 };
	rfx_buf asset = sample_model(&s, 200 + (uint32_t)_i, "SMDL", codec, false, &meta);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	nm_tree *t = build_ok(&asset, "appended.smdl");
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_sample_csvs(t, "", &s, rfx_codec_is_switch(codec));
	expect_contains(t, "/skhd/header.txt", "unknown_u32: 7");
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* META read-buffer offsets relative to the GPU chunk: found by the fallback. */
START_TEST(meta_gpu_relative)
{
	rfx_sample s;
	rfx_buf meta = { 0 };
	rfx_buf asset = sample_model(&s, 300 + (uint32_t)_i, "WMDL", codecs[_i], true, &meta);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	nm_tree *t = build_ok(&asset, "relative.wmdl");
	expect_contains(t, "/gpu/layout.txt", "read_buffer_offsets: relative to meta_gpu_offset");
	expect_sample_csvs(t, "", &s, rfx_codec_is_switch(codecs[_i]));
	expect_contains(t, "/wdhd/header.txt", "octree_type: AROT");
	expect_contains(t, "/wdhd/octree.txt", "bitmap_words: 0x3 0x1");
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* Buffers without any metadata (every codec): found by the walk, on first read only;
 * every size is known at mount. */
START_TEST(walk_is_lazy)
{
	int codec = codecs[_i];
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 400 + (uint32_t)_i, "CMDL", codec, false, NULL);
	nm_tree *t = build_ok(&asset, "nometa.cmdl");
	/* ls: names only. */
	nm_node **kids;
	size_t n;
	nm_error err;
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &n, &err), NM_OK);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	/* ls -l: every size is known without decoding. */
	walk_stats st = walk_all(t, false);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_contains(t, "/gpu/header.txt", "buffers one after another");
	ck_assert(!walk_exists(t, "/gpu/layout.txt"));
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_sample_csvs(t, "", &s, rfx_codec_is_switch(codec));
	/* buffers.csv: each buffer's tag, where it lies, its sizes. */
	char *csv = slurp(t, "/gpu/buffers.csv", NULL);
	unsigned long long off;
	unsigned tag, vsize, ok;
	ck_assert_int_eq(sscanf(csv, "kind,number,offset,tag,stored_bytes,bytes,ok\n"
				"v,00000,0x%llx,0x%x,%*u,%u,%u", &off, &tag, &vsize, &ok), 4);
	ck_assert_uint_eq(tag, (unsigned)codec);
	ck_assert_uint_eq(vsize, RFX_SAMPLE_VERTS * RFX_SAMPLE_STRIDE);
	ck_assert_uint_eq(ok, 1);
	ck_assert_ptr_nonnull(strstr(csv, ",1\ni,00000,0x"));
	free(csv);
	st = walk_all(t, true);
	ck_assert_uint_eq(st.failed, 0);
	nm_tree_free(t);
	rfx_buf_free(&asset);
}
END_TEST

/* The walk decodes every vertex buffer to find where the next begins: those bytes are
 * kept as gpu/vertex/N.bin (offered to the cache), so reading an index buffer, which
 * runs the walk, leaves vertex buffer 0 made, the bytes its own production makes. */
START_TEST(walk_offers_vertex_buffers)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 420 + (uint32_t)_i, "CMDL", codecs[_i], false, NULL);
	nm_tree *t = build_ok(&asset, "nometa.cmdl"), *alone = build_ok(&asset, "nometa.cmdl");
	nm_node *v0;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "/gpu/vertex/0.bin", &v0, &err), NM_OK);
	ck_assert(!nm_node_produced(t, v0));
	free(slurp(t, "/gpu/index/0.bin", NULL));
	ck_assert(nm_node_produced(t, v0));
	ck_assert_uint_eq(nm_tree_productions(t), 1);   /* the index buffer alone */
	size_t len, alone_len;
	char *offered = slurp(t, "/gpu/vertex/0.bin", &len);
	char *made = slurp(alone, "/gpu/vertex/0.bin", &alone_len);
	ck_assert_uint_eq(len, RFX_SAMPLE_VERTS * RFX_SAMPLE_STRIDE);
	ck_assert_uint_eq(len, alone_len);
	ck_assert(memcmp(offered, made, len) == 0);
	free(offered);
	free(made);
	nm_tree_free(t);
	nm_tree_free(alone);
	rfx_buf_free(&asset);
}
END_TEST

/* mesh.obj's first lines, read by range, decode only the first vertices of their buffer,
 * the first buffer without the walk (rfrm_gpu_load_head): with vertex buffer 0's zlib
 * trailer damaged, the walk refuses the buffer and the whole file fails, while the head
 * still reads, the same bytes as the intact model's. */
START_TEST(obj_head_decodes_only_the_head)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 460, "CMDL", RFX_ZLIB, false, NULL);
	nm_tree *t = build_ok(&asset, "head.cmdl");
	size_t whole_len;
	char *whole = slurp(t, "/mesh.obj", &whole_len);
	char *csv = slurp(t, "/gpu/buffers.csv", NULL);
	unsigned long long off;
	unsigned stored;
	ck_assert_int_eq(sscanf(csv, "kind,number,offset,tag,stored_bytes,bytes,ok\n"
				"v,00000,0x%llx,0x%*x,%u", &off, &stored), 2);
	free(csv);
	nm_tree_free(t);
	asset.data[off + stored - 1] ^= 0x5A;   /* the adler32's last byte */

	t = build_ok(&asset, "head.cmdl");
	nm_tree_allow_ranges(t);
	nm_node *n;
	nm_error err;
	ck_assert_int_eq(nm_resolve(t, "/mesh.obj", &n, &err), NM_OK);
	char head[160];
	size_t got = 0;
	ck_assert_uint_gt(whole_len, sizeof head);
	ck_assert_msg(nm_read(t, n, 0, head, sizeof head, &got, &err) == NM_OK, "%s", err.msg);
	ck_assert_uint_eq(got, sizeof head);
	ck_assert_mem_eq(head, whole, sizeof head);
	ck_assert_uint_eq(nm_tree_range_reads(t), 1);
	char *all = malloc(whole_len);
	ck_assert_int_ne(nm_read(t, n, 0, all, whole_len, &got, &err), NM_OK);
	ck_assert_ptr_nonnull(strstr(err.msg, "vertex buffer 0"));
	free(all);
	free(whole);
	nm_tree_free(t);
	rfx_buf_free(&asset);
}
END_TEST

/* An index past its vertex buffer (a stored index buffer patched): mesh.obj and
 * model.glb fail naming the model, IBUF, the mesh, the index and the vertex count. */
START_TEST(index_past_the_vertices)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 470, "CMDL", RFX_STORED, false, NULL);
	nm_tree *t = build_ok(&asset, "index.cmdl");
	char *csv = slurp(t, "/gpu/buffers.csv", NULL);
	char *row = strstr(csv, "\ni,00000,0x");
	unsigned long long off;
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(sscanf(row, "\ni,00000,0x%llx", &off), 1);
	free(csv);
	nm_tree_free(t);
	asset.data[off + 4] = 0xFF;   /* past the 4-byte tag: the first index, little-endian */
	asset.data[off + 5] = 0xFF;
	t = build_ok(&asset, "index.cmdl");
	static const char *const files[] = { "/mesh.obj", "/model.glb" };
	for (int i = 0; i < 2; i++) {
		nm_node *n;
		nm_error err;
		char buf[64];
		size_t got;
		ck_assert_int_eq(nm_resolve(t, files[i], &n, &err), NM_OK);
		ck_assert_int_eq(nm_read(t, n, 0, buf, sizeof buf, &got, &err), NM_E_FORMAT);
		ck_assert_msg(strstr(err.msg, "index.cmdl") && strstr(err.msg, "IBUF") &&
			      strstr(err.msg, "mesh 0: its index 0") &&
			      strstr(err.msg, "vertex buffer 0 has"), "%s", err.msg);
	}
	nm_tree_free(t);
	rfx_buf_free(&asset);
}
END_TEST

struct thread_arg {
	nm_tree *t;
	const char *path;
	char *want;
	size_t want_len;
	int ok;
};

static void *reader_thread(void *p)
{
	struct thread_arg *a = p;
	nm_node *n;
	nm_error err;
	char *buf = malloc(a->want_len + 1);
	size_t got = 0;
	a->ok = buf && nm_resolve(a->t, a->path, &n, &err) == NM_OK &&
		nm_read(a->t, n, 0, buf, a->want_len + 1, &got, &err) == NM_OK &&
		got == a->want_len && memcmp(buf, a->want, got) == 0;
	free(buf);
	return NULL;
}

/* Several threads reading at once trigger the walk once and agree. */
START_TEST(walk_threads)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 401, "CMDL", RFX_LZSS16_ARITH, false, NULL);
	static const char *const paths[] = { "/vbuf/0/positions.csv", "/vbuf/0/normals.csv",
					     "/ibuf/0/indices.csv", "/mesh.obj",
					     "/gpu/index/0.bin", "/vbuf/0/colors.csv" };
	enum { N = sizeof paths / sizeof paths[0] };
	/* What a single-threaded reader gets. */
	struct thread_arg args[N];
	nm_tree *ref = build_ok(&asset, "switch.cmdl");
	for (int i = 0; i < N; i++) {
		args[i].path = paths[i];
		args[i].want = slurp(ref, paths[i], &args[i].want_len);
	}
	nm_tree_free(ref);
	for (int round = 0; round < 4; round++) {
		nm_tree *t = build_ok(&asset, "switch.cmdl");
		pthread_t th[N];
		for (int i = 0; i < N; i++) {
			args[i].t = t;
			args[i].ok = 0;
			ck_assert_int_eq(pthread_create(&th[i], NULL, reader_thread, &args[i]), 0);
		}
		for (int i = 0; i < N; i++) {
			pthread_join(th[i], NULL);
			ck_assert_msg(args[i].ok, "%s read wrong in a thread", paths[i]);
		}
		nm_tree_free(t);
	}
	for (int i = 0; i < N; i++)
		free(args[i].want);
	rfx_buf_free(&asset);
}
END_TEST

/* Codecs mixed in one chunk: each buffer is walked by its own tag. */
START_TEST(walk_mixed_codecs)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 500 + (uint32_t)_i, "CMDL", RFX_LZSS32_LONG_ARITH, false, NULL);
	/* The index buffer (the GPU chunk's last) again in another codec. */
	uint8_t idx[2 * (RFX_SAMPLE_TRI_INDICES + RFX_SAMPLE_STRIP_INDICES)];
	rfx_sample_indices(&s, true, idx);
	uint8_t *gpu = memmem(asset.data, asset.len, "GPU ", 4);
	ck_assert_ptr_nonnull(gpu);
	size_t data = (size_t)(gpu - asset.data) + 0x18;
	uint8_t *enc;
	size_t vlen, ilen, used, elen;
	uint8_t vert[RFX_SAMPLE_VERTS * RFX_SAMPLE_STRIDE];
	ck_assert_int_eq(nm_gpu_decode(asset.data + data, asset.len - data, vert, sizeof vert,
				       &vlen), NM_OK);
	ck_assert_int_eq(nm_gpu_decode(asset.data + data + vlen, asset.len - data - vlen, idx,
				       sizeof idx, &ilen), NM_OK);
	ck_assert_uint_eq(data + vlen + ilen, asset.len);
	ck_assert_int_eq(nm_gpu_encode((uint32_t)codecs[_i], idx, sizeof idx, &enc, &elen), NM_OK);
	rfx_buf b = { 0 };
	rfx_put(&b, asset.data, data + vlen);
	rfx_put(&b, enc, elen);
	free(enc);
	/* The chunk's and the forms' sizes follow. */
	rfx_store32(b.data + (gpu - asset.data) + 8, (uint32_t)(vlen + elen), false);
	rfx_store32(b.data + 8, (uint32_t)(b.len - 0x20), false);
	(void)used;
	nm_tree *t = build_ok(&b, "mixed.cmdl");
	expect_sample_csvs(t, "", &s, true);
	char *csv = slurp(t, "/gpu/buffers.csv", NULL);
	char want[32];
	snprintf(want, sizeof want, "i,00000,0x%010zx,0x%02x,", data + vlen, codecs[_i]);
	ck_assert_msg(strstr(csv, want), "%s lacks %s", csv, want);
	free(csv);
	nm_tree_free(t);
	rfx_buf_free(&b);
	rfx_buf_free(&asset);
}
END_TEST

/* A META declaring sizes no stream could give is refused without allocating them. */
START_TEST(meta_limits)
{
	rfx_sample s;
	rfx_sample_init(&s, 600);
	static const rfx_comp comps[] = { { 0, 37, 0 } };
	uint8_t verts[12 * 3] = { 0 };
	uint8_t idx[6] = { 0, 0, 0, 1, 0, 2 };
	rfx_vbuf vb = { 3, 12, 1, comps, verts };
	rfx_ibuf ib = { 1, idx, sizeof idx };
	rfx_mesh me = { 3, 0, 0, 0, 0, 3 };
	rfx_model m = { .form = "CMDL", .version = { 53, 54 }, .codec = codecs[_i],
			.vbufs = &vb, .nvbufs = 1, .ibufs = &ib, .nibufs = 1, .meshes = &me,
			.nmeshes = 1, .meta_size_bias = 0x7ff00000 };
	rfx_buf asset = { 0 }, meta = { 0 };
	ck_assert_int_eq(rfx_model_write(&m, &asset, &meta), 0);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	nm_tree *t = build_ok(&asset, "bomb.cmdl");
	expect_contains(t, "/gpu/layout.txt", "refused");
	ck_assert(!walk_exists(t, "/gpu/vertex/0.bin"));
	nm_node *n;
	nm_error err;
	char buf[64];
	size_t got;
	ck_assert_int_eq(nm_resolve(t, "/vbuf/0/positions.csv", &n, &err), NM_OK);
	ck_assert_int_ne(nm_read(t, n, 0, buf, sizeof buf, &got, &err), NM_OK);
	ck_assert_ptr_nonnull(strstr(err.msg, "refused"));
	walk_all(t, true);
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* A VBUF vertex count far beyond what the GPU chunk could hold is refused at mount. */
START_TEST(absurd_vertex_count)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 700, "CMDL", RFX_ZLIB, false, NULL);
	nm_error err;
	/* VBUF data: u32 list count, then the vertex count. */
	uint8_t *v = memmem(asset.data, asset.len, "VBUF", 4);
	ck_assert_ptr_nonnull(v);
	for (uint32_t count = 0x00100000; count; count = count == 0x00100000 ? 0xffffffff : 0) {
		uint8_t *p = v + 0x18 + 4;
		p[0] = (uint8_t)(count >> 24);
		p[1] = (uint8_t)(count >> 16);
		p[2] = (uint8_t)(count >> 8);
		p[3] = (uint8_t)count;
		nm_tree *t = build_ok(&asset, "huge.cmdl");
		if (count == 0xffffffff) {
			/* More than any chunk could give: refused at mount. */
			ck_assert(walk_exists(t, "/vbuf/0/error.txt"));
			ck_assert(!walk_exists(t, "/vbuf/0/positions.csv"));
		} else {
			/* Possible for some codec: the walk finds it is not so, on read. */
			nm_node *n;
			char buf[64];
			size_t got;
			ck_assert_int_eq(nm_resolve(t, "/vbuf/0/positions.csv", &n, &err), NM_OK);
			ck_assert_int_ne(nm_read(t, n, 0, buf, sizeof buf, &got, &err), NM_OK);
			ck_assert_msg(strstr(err.msg, "does not decode to the 46137344 bytes VBUF"),
				      "%s", err.msg);
		}
		walk_all(t, true);
		nm_tree_free(t);
	}
	/* An index count (mesh 0, at 4 + 12) above the output limit: the index buffer is
	 * refused, the mesh left out of mesh.obj. */
	uint8_t *me = memmem(asset.data, asset.len, "MESH", 4);
	memcpy(me + 0x18 + 4 + 12, "\x40\x00\x00\x00", 4);
	nm_tree *t = build_ok(&asset, "huge.cmdl");
	expect_contains(t, "/ibuf/0/error.txt", "limit");
	expect_contains(t, "/mesh/0.txt", "error: ");
	walk_all(t, true);
	nm_tree_free(t);
	/* And a MESH list count that no chunk could hold. */
	memset(me + 0x18, 0xff, 4);
	t = build_ok(&asset, "huge.cmdl");
	ck_assert(walk_exists(t, "/mesh/error.txt"));
	walk_all(t, true);
	nm_tree_free(t);
	rfx_buf_free(&asset);

	/* With META: counts beyond the buffers META declares. */
	rfx_buf meta = { 0 };
	ck_assert_int_eq(rfx_sample_write(&s, "CMDL", RFX_LZSS32, false, &asset, &meta), 0);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	v = memmem(asset.data, asset.len, "VBUF", 4);
	memcpy(v + 0x18 + 4, "\x00\x00\x03\xe8", 4); /* 1000 vertices */
	t = build_ok(&asset, "meta.cmdl");
	expect_contains(t, "/vbuf/0/error.txt", "but its GPU buffer holds 1056");
	ck_assert(!walk_exists(t, "/vbuf/0/positions.csv"));
	expect_file(t, "/mesh.obj", "# Tropical Freeze model via nmodelfs\nmtllib mesh.mtl\n", 53);
	walk_all(t, true);
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* Materials in the Wii U layout (u32 kinds). */
START_TEST(wiiu_materials)
{
	static const rfx_comp comps[] = { { 0, 37, 0 } };
	uint8_t verts[12 * 3] = { 0 };
	uint8_t idx[6] = { 0, 0, 0, 1, 0, 2 };
	rfx_vbuf vb = { 3, 12, 1, comps, verts };
	rfx_ibuf ib = { 1, idx, sizeof idx };
	rfx_mesh me = { 3, 0, 0, 0, 0, 3 };
	rfx_param p[3];
	memset(p, 0, sizeof p);
	strcpy(p[0].id, "SPCP");
	p[0].kind = RFX_SCALAR;
	p[0].f[0] = 8.5f;
	strcpy(p[1].id, "AUVI");
	p[1].kind = RFX_INT4;
	for (int i = 0; i < 4; i++)
		p[1].i[i] = -i;
	strcpy(p[2].id, "DIFT");
	p[2].kind = RFX_TEXTURE;
	rfx_guid(p[2].guid[0], 9);
	rfx_material mat = { "wiiu", { 0 }, "SURF", 3, p, 3 };
	rfx_model m = { .form = "CMDL", .version = { 40, 40 }, .codec = RFX_LZSS16,
			.wiiu_materials = true, .vbufs = &vb, .nvbufs = 1, .ibufs = &ib,
			.nibufs = 1, .meshes = &me, .nmeshes = 1, .mats = &mat, .nmats = 1 };
	rfx_buf asset = { 0 }, meta = { 0 };
	ck_assert_int_eq(rfx_model_write(&m, &asset, &meta), 0);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	nm_tree *t = build_ok(&asset, "wiiu.cmdl");
	expect_contains(t, "/mtrl/0.txt", "layout: wii_u");
	expect_contains(t, "/mtrl/0.txt", "type: SURF");
	expect_contains(t, "/mtrl/0.txt", "spcp_scalar: 8.5");
	expect_contains(t, "/mtrl/0.txt", "auvi_int4: 0 -1 -2 -3");
	char g[RFRM_GUID_STR], line[64];
	rfrm_guid_str(g, p[2].guid[0]);
	snprintf(line, sizeof line, "map_Kd %s.png", g);
	expect_contains(t, "/mesh.mtl", line);
	ck_assert(!walk_exists(t, "/mtrl/error.txt"));
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* The sample's material: every parameter kind, Switch layout. */
START_TEST(switch_materials)
{
	rfx_sample s;
	rfx_buf asset = sample_model(&s, 800, "CMDL", RFX_ZLIB, false, NULL);
	nm_tree *t = build_ok(&asset, "m.cmdl");
	char g[RFRM_GUID_STR], line[64];
	rfrm_guid_str(g, s.diffuse);
	snprintf(line, sizeof line, "dift_texture: %s\n", g);
	expect_contains(t, "/mtrl/0.txt", line);
	expect_contains(t, "/mtrl/0.txt", "layout: switch");
	expect_contains(t, "/mtrl/0.txt", "dift_filter: 2\ndift_wrap: 1 1 -1\n");
	expect_contains(t, "/mtrl/0.txt", "difc_color: 0.5 0.25 1 1\n");
	expect_contains(t, "/mtrl/0.txt", "chc0_int: -5\n");
	expect_contains(t, "/mtrl/0.txt", "auvi_int4: 1 2 3 4\n");
	expect_contains(t, "/mtrl/0.txt", "difl_layered_unknown: 3\n");
	expect_contains(t, "/mtrl/0.txt", "difl_layer1_texture: none\n");
	expect_contains(t, "/mtrl/0.txt", "difl_layered_colors: 0 0.125 0.25");
	expect_contains(t, "/head/header.txt", "data_source_0: ANIM_UV (0x0)\n");
	expect_contains(t, "/head/header.txt", "data_source_0_vectors: 1 -2 3 -4\n");
	expect_contains(t, "/mesh.mtl", "Kd 0.5 0.25 1\n");
	ck_assert(!walk_exists(t, "/mtrl/error.txt"));
	nm_tree_free(t);
	rfx_buf_free(&asset);
}
END_TEST

/* A material whose name runs past the MTRL chunk: its text stays empty, and an empty
 * record file is made of it without arithmetic on a null buffer (issue 15), in a model
 * mounted alone and in a PAK member (built when the member is first listed). */
START_TEST(material_without_text)
{
	rfx_sample s;
	rfx_buf pak = { 0 };
	rfx_buf asset = sample_model(&s, 850, "CMDL", RFX_ZLIB, false, NULL);
	/* MTRL data: u32 material count, then material 0's u32 name length. */
	uint8_t *mt = memmem(asset.data, asset.len, "MTRL", 4);
	ck_assert_ptr_nonnull(mt);
	memcpy(mt + 0x18 + 4, "\xff\xff\xff\x00", 4);
	nm_tree *t = build_ok(&asset, "noname.cmdl");
	expect_contains(t, "/mtrl/error.txt", "name of material 0");
	expect_file(t, "/mtrl/0.txt", "", 0);
	walk_all(t, true);
	nm_tree_free(t);

	rfx_asset a = { "CMDL", { 0 }, "noname", asset.data, asset.len, NULL, 0 };
	rfx_guid(a.guid, 3);
	ck_assert_int_eq(rfx_pak_write(&a, 1, &pak), 0);
	t = build_ok(&pak, "noname.pak");
	expect_file(t, "/noname.cmdl/mtrl/0.txt", "", 0);
	walk_all(t, true);
	nm_tree_free(t);
	rfx_buf_free(&asset);
	rfx_buf_free(&pak);
}
END_TEST

/* Any RFRM asset: its chunk tree, nested forms and skips included. */
START_TEST(generic_asset)
{
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_generic_write("TXTR", 42, 33, &b), 0);
	/* An unknown chunk after the form is only counted. */
	nm_tree *t = build_ok(&b, "x.txtr");
	expect_contains(t, "/info.txt", "form: TXTR\n");
	expect_file(t, "/innr/one/raw.bin", "\x01\x02\x03\x04", 4);
	expect_file(t, "/innr/skip/raw.bin", "\x55\x66", 2);
	expect_contains(t, "/innr/skip/header.txt", "skip: 4\n");
	expect_contains(t, "/innr/header.txt", "kind: form\nform_type: INNR\n");
	expect_file(t, "/data/raw.bin", b.data + b.len - 33, 33);
	ck_assert(!walk_exists(t, "/error.txt"));
	nm_tree_free(t);
	rfx_buf_free(&b);
}
END_TEST

/* A chunk list that breaks: error.txt names the chunk and offset, and the bytes from
 * there to the form's end are unparsed.bin. */
START_TEST(generic_asset_broken)
{
	rfx_buf b = { 0 };
	ck_assert_int_eq(rfx_generic_write("GENP", 42, 33, &b), 0);
	size_t at = b.len - 33 - 0x18; /* the last chunk's descriptor: its skip, too long */
	memcpy(b.data + at + 0x10, "\0\0\0\0\0\0\x10\0", 8);
	nm_tree *t = build_ok(&b, "x.genp");
	char want[96];
	snprintf(want, sizeof want, "DATA at 0x%zx: chunk skip of 0x1000 bytes", at);
	expect_contains(t, "/error.txt", want);
	expect_contains(t, "/info.txt", "errors: 1\n");
	expect_file(t, "/unparsed.bin", b.data + at, 0x18 + 33);
	expect_file(t, "/innr/one/raw.bin", "\x01\x02\x03\x04", 4);
	nm_tree_free(t);
	rfx_buf_free(&b);
}
END_TEST

/* CHAR: the body is one record (its first bytes as Switch files have them), not a chunk
 * list: shown whole as body.bin, with no error. The same bytes under another form type
 * are walked as chunks and fail, as a broken chunk list should. */
START_TEST(char_record_body)
{
	static const uint8_t body[] = { 0x59, 0xbe, 0x00, 0x06, 0x03, 0x00, 0x01, 0x00, 0, 0,
					0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xf8, 0, 0, 0, 0x04,
					'n', 'a', 'm', 'e' };
	for (int as_char = 0; as_char < 2; as_char++) {
		rfx_buf b = { 0 };
		size_t form = rfx_form_begin(&b, as_char ? "CHAR" : "GENP", 6, 6);
		rfx_put(&b, body, sizeof body);
		rfx_form_end(&b, form);
		ck_assert(!b.failed);
		nm_tree *t = build_ok(&b, "x.char");
		if (as_char) {
			expect_contains(t, "/info.txt", "form: CHAR\n");
			expect_contains(t, "/info.txt", "body: one record, not a chunk list (CHAR");
			expect_contains(t, "/info.txt", "errors: 0\n");
			expect_file(t, "/body.bin", body, sizeof body);
			ck_assert(!walk_exists(t, "/error.txt"));
			ck_assert(!walk_exists(t, "/unparsed.bin"));
		} else {
			expect_contains(t, "/info.txt", "errors: 1\n");
			expect_file(t, "/unparsed.bin", body, sizeof body);
			ck_assert(!walk_exists(t, "/body.bin"));
		}
		nm_tree_free(t);
		rfx_buf_free(&b);
	}
}
END_TEST

/* PAK: names from STRG (made safe and unique), GUIDs otherwise; lazy members. */
START_TEST(pak_names_and_laziness)
{
	rfx_buf bodies[4] = { { 0 } };
	rfx_asset a[4];
	memset(a, 0, sizeof a);
	const char *names[4] = { "dup", "dup", NULL, "bad" };
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(rfx_generic_write("GENP", (uint32_t)i, 10, &bodies[i]), 0);
		memcpy(a[i].type, "GENP", 5);
		rfx_guid(a[i].guid, 50 + (uint32_t)i);
		a[i].name = names[i];
		a[i].data = bodies[i].data;
		a[i].len = bodies[i].len;
	}
	/* Asset 3 is not an RFRM form: found only when its directory is opened. */
	bodies[3].data[0] = 'X';
	rfx_buf pak = { 0 };
	/* Both layouts give the same tree but for the layout lines of info.txt. */
	ck_assert_int_eq(rfx_pak_write_as(a, 4, _i, &pak), 0);
	nm_tree *t = build_ok(&pak, "n.pak");
	nm_node **kids;
	size_t n;
	nm_error err;
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &n, &err), NM_OK);
	ck_assert_uint_eq(n, 4 + 3);
	ck_assert(walk_exists(t, "/dup.genp/info.txt"));
	ck_assert(walk_exists(t, "/dup~2.genp/info.txt"));
	char g[RFRM_GUID_STR], path[128];
	rfrm_guid_str(g, a[2].guid);
	snprintf(path, sizeof path, "/%s.genp/head/raw.bin", g);
	ck_assert(walk_exists(t, path));
	ck_assert(walk_exists(t, "/bad.genp/raw.bin"));
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	expect_contains(t, "/bad.genp/error.txt", "RFRM");
	expect_file(t, "/bad.genp/raw.bin", bodies[3].data, bodies[3].len);
	expect_contains(t, "/info.txt", "assets: 4\nnamed_assets: 3\n");
	expect_contains(t, "/tocc/adir/header.txt", "id: ADIR");
	nm_tree_free(t);
	for (int i = 0; i < 4; i++)
		rfx_buf_free(&bodies[i]);
	rfx_buf_free(&pak);
}
END_TEST

/* Mount time follows the table of contents: nothing of the members is read. */
START_TEST(bench_pak_walk)
{
	rfx_buf pak = { 0 };
	ck_assert_int_eq(rfx_bench_pak(60, &pak), 0);
	nm_tree *t = build_ok(&pak, "bench.pak");
	nm_node **kids;
	size_t n;
	nm_error err;
	ck_assert_int_eq(nm_children(t, nm_tree_root(t), &kids, &n, &err), NM_OK);
	ck_assert_uint_eq(n, 60 + 3);
	ck_assert_uint_eq(nm_tree_productions(t), 0);
	walk_stats st = walk_all(t, true);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_gt(st.files, 60 * 4);
	nm_tree_free(t);
	rfx_buf_free(&pak);
}
END_TEST

/* ---- broken input ---------------------------------------------------------------- */

/* true if the mutated bytes still built a tree (which was then walked whole) */
static bool mutate_and_walk(const uint8_t *data, size_t len, const char *name, size_t cut,
			    size_t flip_at, uint8_t flip)
{
	uint8_t *m = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(m);
	memcpy(m, data, len);
	size_t n = cut < len ? cut : len;
	if (flip && flip_at < n)
		m[flip_at] ^= flip;
	nm_error err;
	nm_options small_cache;
	nm_options_init(&small_cache);
	small_cache.cache_size = 1 << 20;
	nm_tree *t = build_mem_with(m, n, name, &small_cache, &err);
	free(m);
	if (!t) {
		ck_assert_msg(err.msg[0] != '\0', "a failed build must say why");
		return false;
	}
	walk_all(t, true);
	nm_tree_free(t);
	return true;
}

/* Every truncation of a small model with appended META, of each codec. */
START_TEST(truncate_every_offset)
{
	rfx_sample s;
	rfx_buf meta = { 0 };
	rfx_buf asset = sample_model(&s, 900, "WMDL", codecs[_i], false, &meta);
	ck_assert_int_eq(rfx_append_meta(&asset, &meta), 0);
	for (size_t cut = 0; cut < asset.len; cut += _i == 4 ? 1 : 3)
		mutate_and_walk(asset.data, asset.len, "cut.wmdl", cut, 0, 0);
	rfx_buf_free(&asset);
	rfx_buf_free(&meta);
}
END_TEST

/* A few hundred truncations and byte flips of a generated PAK (fixed seed). */
START_TEST(pak_mutations)
{
	rfx_buf pak = { 0 };
	ck_assert_int_eq(rfx_bench_pak(15, &pak), 0);
	uint32_t seed = 12345;
	size_t built = 0;
	for (int i = 0; i < 400; i++) {
		size_t cut = i < 100 ? (size_t)xorshift(&seed) % pak.len : pak.len;
		size_t at = (size_t)xorshift(&seed) % pak.len;
		/* Half the flips hit the table of contents, where they matter most. */
		if (i % 2 && at > 0x400)
			at %= 0x400;
		uint8_t flip = i < 100 ? 0 : (uint8_t)(xorshift(&seed) | 1);
		built += mutate_and_walk(pak.data, pak.len, "m.pak", cut, at, flip);
	}
	ck_assert_uint_gt(built, 200); /* most mutants still mount and were walked */
	rfx_buf_free(&pak);
}
END_TEST

/* ---- GPU buffers written back (gpu_stream.c, repack.c) ---------------------------- */

static void note_line(const char *line, void *ctx)
{
	size_t at = strlen(ctx);
	snprintf((char *)ctx + at, 4096 - at, "%s\n", line);
}

/* ../shared/corpus/rel, loaded; NULL without the corpus (saying so). */
static uint8_t *corpus_asset(const char *rel, size_t *len)
{
	char *dir = walk_corpus_dir(".");
	if (!dir)
		return NULL;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	free(dir);
	uint8_t *f = walk_load_file(path, len);
	ck_assert_msg(f != NULL, "%s", path);
	return f;
}

/* A tree over a copy of bytes, editable, and the reader it reads (the tree's). */
static nm_tree *tree_and_reader(const uint8_t *data, size_t len, const char *name,
				nm_reader **r)
{
	uint8_t *copy = malloc(len);
	memcpy(copy, data, len);
	nm_error err;
	ck_assert_int_eq(nm_reader_new_memory(name, copy, len, r, &err), NM_OK);
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t = nm_tree_new(&opt);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(nm_tree_adopt_reader(t, *r), NM_OK);
	ck_assert_msg(nm_build_any(*r, t, nm_tree_root(t), &err) == NM_OK, "%s", err.msg);
	return t;
}

static int by_meta_offset(const void *x, const void *y)
{
	uint32_t a = nm_be32((const uint8_t *)x + 4), b = nm_be32((const uint8_t *)y + 4);
	return a < b ? -1 : a > b;
}

/* The buffers a §6.4 META blob lists, back to back from the GPU chunk's data at off of
 * r, in the order of their offsets: what a model's inverse takes from its buffer table
 * (the stored and plain LZSS buffers do not end by themselves). */
static rfrm_gpu_part *meta_parts(nm_reader *r, uint64_t off, const uint8_t *blob, size_t *n)
{
	uint32_t nvb = nm_be32(blob + 20), nib = nm_be32(blob + 24 + 16 * (size_t)nvb);
	uint8_t (*e)[16] = malloc(((size_t)nvb + nib) * 16);
	memcpy(e, blob + 24, 16 * (size_t)nvb);
	memcpy(e + nvb, blob + 28 + 16 * (size_t)nvb, 16 * (size_t)nib);
	*n = (size_t)nvb + nib;
	qsort(e, *n, 16, by_meta_offset);
	rfrm_gpu_part *parts = malloc(*n * sizeof *parts);
	nm_error err;
	for (size_t i = 0, at = 0; i < *n; i++) {
		parts[i].comp = nm_be32(e[i] + 8);
		parts[i].size = nm_be32(e[i] + 12);
		ck_assert_int_eq(nm_reader_read(r, off + at, parts[i].tag, 4, NULL, &err), NM_OK);
		at += (size_t)parts[i].comp;
	}
	free(e);
	return parts;
}

/* The decompressed GPU chunk of the asset r reads as one stream (NULL: no GPU chunk);
 * its buffers measured, or as the META blob (not NULL) lists them. */
static nm_reader *gpu_stream_meta(nm_tree *t, nm_reader *r, const uint8_t *blob)
{
	rfrm_item form, *items;
	size_t n;
	bool broken;
	nm_error err;
	ck_assert_int_eq(rfrm_read_form(r, 0, nm_reader_size(r), &form, &err), NM_OK);
	ck_assert_int_eq(rfrm_list_items(r, t, &form, &items, &n, &broken, &err), NM_OK);
	for (size_t i = 0; i < n; i++) {
		if (memcmp(items[i].id, "GPU ", 4) != 0)
			continue;
		rfrm_gpu_part *parts;
		size_t np;
		if (blob)
			parts = meta_parts(r, items[i].data_off, blob, &np);
		else
			ck_assert_msg(rfrm_gpu_parts(r, items[i].data_off, items[i].size, &parts,
						     &np, &err) == NM_OK, "%s", err.msg);
		nm_reader *g;
		ck_assert_int_eq(rfrm_gpu_stream_open(t, r, items[i].data_off, parts, np, "gpu",
						      &g, &err), NM_OK);
		free(parts);
		return g;
	}
	return NULL;
}

static nm_reader *gpu_stream(nm_tree *t, nm_reader *r)
{
	return gpu_stream_meta(t, r, NULL);
}

/* A file whose content is bytes at `at` of the GPU stream, with an inverse patching
 * them there: what a texture or vertex inverse does, without its format. */
typedef struct gpu_probe {
	nm_reader *g;
	uint64_t at;
} gpu_probe;

static nm_status probe_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			       nm_edit *ed, nm_error *err)
{
	const gpu_probe *p = arg;
	(void)ctx;
	(void)err;
	nm_edit_patch(ed, p->g, p->at, bytes, len, "GPU", 0, "probe");
	return NM_OK;
}

/* The GPU stream of the asset that is all of r. */
static nm_reader *whole_asset(nm_tree *t, nm_reader *r, const void *arg)
{
	(void)arg;
	return gpu_stream(t, r);
}

/* Write bytes at `at` of the GPU stream open(t, root, arg) gives of the file f back
 * into a new file (returned, *len). */
static uint8_t *gpu_edit_in(const uint8_t *f, size_t flen,
			    nm_reader *(*open)(nm_tree *, nm_reader *, const void *),
			    const void *arg, uint64_t at, const uint8_t *bytes, size_t n,
			    size_t *len, char *notes)
{
	nm_reader *r;
	nm_tree *t = tree_and_reader(f, flen, "a", &r);
	gpu_probe *p = nm_tree_alloc(t, sizeof *p);
	p->g = open(t, r, arg);
	p->at = at;
	ck_assert_ptr_nonnull(p->g);
	uint8_t *was = malloc(n);
	nm_error err;
	ck_assert_int_eq(nm_reader_read(p->g, at, was, n, NULL, &err), NM_OK);
	nm_out o;
	nm_out_init(&o);
	nm_out_write(&o, was, n);
	nm_node *probe = nm_text_inverse(nm_text(t, nm_tree_root(t), "probe.bin", &o), probe_inverse, p);
	ck_assert_ptr_nonnull(probe);
	nm_out_free(&o);
	free(was);
	nm_apply *a = nm_apply_new(t);
	ck_assert_int_eq(nm_apply_file(a, "/probe.bin", bytes, n, "probe.bin", &err), NM_OK);
	nm_out out;
	bool changed;
	ck_assert_int_eq(nm_apply_encode(a, &out, &changed, &err), NM_OK);
	notes[0] = '\0';
	nm_apply_each_change(a, note_line, notes);
	nm_apply_free(a);
	nm_tree_free(t);
	if (!changed)
		return NULL;
	*len = out.len;
	return out.data;
}

static uint8_t *gpu_edit(const uint8_t *f, size_t flen, uint64_t at, const uint8_t *bytes,
			 size_t n, size_t *len, char *notes)
{
	return gpu_edit_in(f, flen, whole_asset, NULL, at, bytes, n, len, notes);
}

/* A PAK's model asset: where ADIR puts it, and its META blob. */
typedef struct pak_place {
	uint64_t off, size;
	const uint8_t *blob;
} pak_place;

/* The GPU stream of a PAK's model asset (a window of the PAK where ADIR says, as its
 * tree reads it, laid out by its form), its buffers as its META blob lists them. */
static nm_reader *pak_model(nm_tree *t, nm_reader *r, const void *arg)
{
	const pak_place *e = arg;
	nm_reader *w;
	nm_error err;
	ck_assert_int_eq(nm_reader_new_window(r, "model", e->off, e->size, &w, &err), NM_OK);
	ck_assert_int_eq(nm_tree_adopt_reader(t, w), NM_OK);
	nm_reader_set_repack(w, rfrm_form_repack, NULL);
	return gpu_stream_meta(t, w, e->blob);
}

/* A generated PAK's models (every codec, each with its META blob): half of each one's
 * GPU stream made incompressible. The PAK is laid out again, the model's META blob
 * written again: the new PAK reads whole without a failure, the model through its
 * META, and the stream reads back. */
START_TEST(pak_models_written_back)
{
	rfx_buf pak = { 0 };
	ck_assert_int_eq(rfx_bench_pak(30, &pak), 0);
	nm_reader *r;
	nm_tree *t = tree_and_reader(pak.data, pak.len, "p.pak", &r);
	rfrm_pak pp = { 0 };
	nm_error err;
	ck_assert_int_eq(rfrm_pak_parse(r, t, &pp, &err), NM_OK);
	size_t models = 0, grown = 0;
	for (size_t i = 0; i < pp.count; i++) {
		const rfrm_pak_entry *e = &pp.entries[i];
		if (!rfrm_is_model_type(e->type) || !e->has_meta)
			continue;
		models++;
		pak_place at = { e->off, e->size, pp.meta_data + e->meta };
		nm_reader *g = pak_model(t, r, &at);
		size_t glen = (size_t)nm_reader_size(g), half = glen / 2, olen;
		uint8_t *want = malloc(glen);
		ck_assert_int_eq(nm_reader_read(g, 0, want, glen, NULL, &err), NM_OK);
		uint32_t x = (uint32_t)i;
		for (size_t k = 0; k < half; k++) {
			x = x * 1664525u + 1013904223u;
			want[k] = (uint8_t)(x >> 24);
		}
		char notes[4096];
		uint8_t *o = gpu_edit_in(pak.data, pak.len, pak_model, &at, 0, want, half, &olen,
					 notes);
		ck_assert_ptr_nonnull(o);
		grown += strstr(notes, "laid out again") != NULL;
		nm_reader *r2;
		nm_tree *t2 = tree_and_reader(o, olen, "p2.pak", &r2);
		walk_stats st = walk_all(t2, true);
		ck_assert_msg(st.failed == 0, "%s: %zu failures after %s", e->type, st.failed, notes);
		rfrm_pak p2 = { 0 };
		ck_assert_int_eq(rfrm_pak_parse(r2, t2, &p2, &err), NM_OK);
		pak_place at2 = { p2.entries[i].off, p2.entries[i].size,
				  p2.meta_data + p2.entries[i].meta };
		nm_reader *g2 = pak_model(t2, r2, &at2);
		ck_assert_uint_eq(nm_reader_size(g2), glen);
		uint8_t *back = malloc(glen);
		ck_assert_int_eq(nm_reader_read(g2, 0, back, glen, NULL, &err), NM_OK);
		ck_assert_mem_eq(back, want, glen);
		free(back);
		rfrm_pak_free(&p2);
		nm_tree_free(t2);
		free(o);
		free(want);
	}
	ck_assert_uint_ge(models, 5);
	ck_assert_uint_ge(grown, 4); /* all but the stored buffers' */
	rfrm_pak_free(&pp);
	nm_tree_free(t);
	rfx_buf_free(&pak);
}
END_TEST

/* Every corpus TXTR and model with a GPU chunk: its decompressed buffers as one reader
 * (the TXTR's the same bytes as gpu/surface.bin); an edit of a few bytes inside written
 * back in the buffers' own codec tags reads back with nothing else changed; the same
 * bytes change nothing; half the stream made incompressible grows the chunk, and the
 * form's sizes follow (the new file parses without an error, the stream reads back). */
START_TEST(corpus_gpu_written_back)
{
	static const char *const files[] = {
		"txtr/phong1__difttxtr__7b35970a4d1d4989ad0dcb0c8f368941.txtr",
		"txtr/phong1__icantxtr__e2d5d9ac03824b49b757b697965bd9ba.txtr",
		"cmdl/dkctf_146f7fe8-457a-42c3-b112-f52ac8ec5ce0.cmdl",
		"cmdl/dkctf_26dd7b1c-860a-41dd-aa8b-d93dbe8cfeb2.cmdl",
		"cmdl/dkctf_02c83e45-0f61-4f02-bad4-bb332a88c587.wmdl",
		"cmdl/dkctf_271aeb42-de72-4bb6-a823-ddc6ad993a7e.smdl",
	};
	size_t flen;
	uint8_t *f = corpus_asset(files[_i], &flen);
	if (!f)
		return;
	nm_reader *r;
	nm_tree *t = tree_and_reader(f, flen, "a", &r);
	nm_reader *g = gpu_stream(t, r);
	ck_assert_ptr_nonnull(g);
	size_t glen = (size_t)nm_reader_size(g);
	uint8_t *plain = malloc(glen);
	nm_error err;
	ck_assert_int_eq(nm_reader_read(g, 0, plain, glen, NULL, &err), NM_OK);
	uint8_t *orig = malloc(glen);
	memcpy(orig, plain, glen);
	if (strstr(files[_i], ".txtr")) {
		size_t slen;
		char *surface = walk_read(t, "/gpu/surface.bin", &slen);
		ck_assert_uint_ge(slen, glen);
		ck_assert_mem_eq(surface, plain, glen);
		free(surface);
	}
	nm_tree_free(t);
	char notes[4096];
	size_t olen;
	/* The same bytes: no change at all. */
	ck_assert_ptr_null(gpu_edit(f, flen, glen / 2, plain + glen / 2, 8, &olen, notes));
	/* Eight bytes changed. */
	uint8_t eight[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t *o = gpu_edit(f, flen, glen / 2, eight, 8, &olen, notes);
	ck_assert_ptr_nonnull(o);
	ck_assert_msg(strstr(notes, "encoded again"), "%s", notes);
	memcpy(plain + glen / 2, eight, 8);
	for (int round = 0; round < 2; round++) {
		t = tree_and_reader(o, olen, "b", &r);
		char *info = walk_read(t, "/info.txt", NULL);
		ck_assert_msg(strstr(info, "\nerrors: 0\n"), "%s", info);
		free(info);
		g = gpu_stream(t, r);
		ck_assert_uint_eq(nm_reader_size(g), glen);
		uint8_t *back = malloc(glen);
		ck_assert_int_eq(nm_reader_read(g, 0, back, glen, NULL, &err), NM_OK);
		ck_assert_mem_eq(back, plain, glen);
		free(back);
		/* The form's size is the file's, as in the original. */
		ck_assert_uint_eq(nm_be64(o + 4) - nm_be64(f + 4), olen - flen);
		nm_tree_free(t);
		if (round)
			break;
		/* Half the stream incompressible: the chunk grows, the form follows. */
		size_t half = glen / 2;
		uint8_t *noise = malloc(half);
		uint32_t x = 99;
		for (size_t k = 0; k < half; k++) {
			x = x * 1664525u + 1013904223u;
			noise[k] = (uint8_t)(x >> 24);
		}
		free(o);
		o = gpu_edit(f, flen, 0, noise, half, &olen, notes);
		ck_assert_ptr_nonnull(o);
		ck_assert_msg(strstr(notes, "laid out again"), "%s", notes);
		ck_assert_uint_gt(olen, flen);
		/* Expected now: the noise, then the original's bytes (the first edit's eight
		 * bytes are not in this one). */
		memcpy(plain, noise, half);
		memcpy(plain + glen / 2, orig + glen / 2, 8);
		free(noise);
	}
	free(orig);
	free(o);
	free(plain);
	free(f);
}
END_TEST


/* The model's vertex buffer 0 through rfrm_model_gpu_stream: the stream at *at holds
 * what rfrm_gpu_decompress gives; a vertex byte changed there is written back, and the
 * new model's buffer 0 has it, its other bytes as they were. */
static rfrm_model *model_of(nm_tree *t, nm_reader *r)
{
	rfrm_item form;
	nm_error err;
	ck_assert_int_eq(rfrm_read_form(r, 0, nm_reader_size(r), &form, &err), NM_OK);
	rfrm_model *m = nm_tree_alloc(t, sizeof *m);
	ck_assert_msg(rfrm_model_parse(r, t, &form, NULL, 0, m, &err) == NM_OK, "%s", err.msg);
	ck_assert_int_eq(nm_tree_on_free(t, rfrm_model_free, m), NM_OK);
	return m;
}

static uint8_t *vertex_buffer(rfrm_model *m, size_t *len)
{
	nm_out o;
	nm_out_init(&o);
	nm_error err;
	ck_assert_msg(rfrm_gpu_decompress(m, false, 0, &o, &err) == NM_OK, "%s", err.msg);
	*len = o.len;
	return o.data;
}

static nm_reader *model_stream(nm_tree *t, nm_reader *r, const void *arg)
{
	uint64_t *at = (uint64_t *)arg;
	nm_reader *g;
	nm_error err;
	ck_assert_msg(rfrm_model_gpu_stream(model_of(t, r), false, 0, &g, at, &err) == NM_OK,
		      "%s", err.msg);
	return g;
}

START_TEST(corpus_vertex_buffer_written_back)
{
	static const char *const files[] = {
		"cmdl/dkctf_146f7fe8-457a-42c3-b112-f52ac8ec5ce0.cmdl",
		"cmdl/dkctf_271aeb42-de72-4bb6-a823-ddc6ad993a7e.smdl",
	};
	size_t flen, vlen, olen;
	uint8_t *f = corpus_asset(files[_i], &flen);
	if (!f)
		return;
	nm_reader *r;
	nm_tree *t = tree_and_reader(f, flen, "a", &r);
	uint64_t at;
	nm_reader *g = model_stream(t, r, &at);
	uint8_t *vb = vertex_buffer(model_of(t, r), &vlen), *in = malloc(vlen);
	nm_error err;
	ck_assert_int_eq(nm_reader_read(g, at, in, vlen, NULL, &err), NM_OK);
	ck_assert_mem_eq(in, vb, vlen);
	nm_tree_free(t);
	vb[vlen / 2] ^= 0x40;
	char notes[4096];
	uint8_t *o = gpu_edit_in(f, flen, model_stream, &at, at + vlen / 2, vb + vlen / 2, 1,
				 &olen, notes);
	ck_assert_ptr_nonnull(o);
	t = tree_and_reader(o, olen, "b", &r);
	size_t blen;
	uint8_t *back = vertex_buffer(model_of(t, r), &blen);
	ck_assert_uint_eq(blen, vlen);
	ck_assert_mem_eq(back, vb, vlen);
	char *info = walk_read(t, "/info.txt", NULL);
	ck_assert_msg(strstr(info, "\nerrors: 0\n"), "%s", info);
	free(info);
	nm_tree_free(t);
	free(back);
	free(o);
	free(in);
	free(vb);
	free(f);
}
END_TEST

/* ---- corpus ---------------------------------------------------------------------- */

/* The corpus models' paths into names (at most max); 0 without the corpus, saying so
 * (tests/walk.c). */
static size_t corpus_files(char names[][3600], size_t max)
{
	char *dir = walk_corpus_dir("cmdl");
	DIR *d = dir ? opendir(dir) : NULL;
	size_t n = 0;
	for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
		const char *dot = strrchr(e->d_name, '.');
		if (dot && (!strcmp(dot, ".cmdl") || !strcmp(dot, ".smdl") || !strcmp(dot, ".wmdl")))
			snprintf(names[n++], 3600, "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	ck_assert_msg(!dir || n > 0, "no model in %s", dir);
	free(dir);
	return n;
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);
	for (const char *line = s; *line;) {
		n += strncmp(line, prefix, pl) == 0;
		const char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	return n;
}

START_TEST(corpus_models)
{
	static char names[64][3600];
	size_t nfiles = corpus_files(names, 64);
	for (size_t f = 0; f < nfiles; f++) {
		nm_tree *t;
		nm_error err;
		ck_assert_msg(nm_open_model(names[f], NULL, &t, &err) == NM_OK, "%s: %s", names[f], err.msg);
		ck_assert_uint_eq(nm_tree_productions(t), 0);
		walk_stats st = walk_all(t, true);
		ck_assert_msg(st.failed == 0, "%s: %zu files failed", names[f], st.failed);

		/* VBUF and MESH read here from raw.bin, independently of the driver. */
		size_t vlen, mlen;
		uint8_t *vb = (uint8_t *)slurp(t, "/vbuf/raw.bin", &vlen);
		uint8_t *me = (uint8_t *)slurp(t, "/mesh/raw.bin", &mlen);
		uint32_t nvb = nm_be32(vb);
		size_t p = 4;
		for (uint32_t i = 0; i < nvb; i++) {
			ck_assert_uint_le(p + 8, vlen);
			uint32_t count = nm_be32(vb + p), ncomps = nm_be32(vb + p + 4);
			p += 8 + 20 * (size_t)ncomps;
			char path[64];
			snprintf(path, sizeof path, "/vbuf/%u/positions.csv", i);
			char *csv = slurp(t, path, NULL);
			ck_assert_str_eq(strtok(csv, "\n"), "x,y,z");
			size_t rows = 0;
			for (char *row; (row = strtok(NULL, "\n")); rows++) {
				char *q = row;
				for (int k = 0; k < 3; k++) {
					char *end;
					float x = strtof(q, &end);
					ck_assert_msg(end != q && isfinite(x), "%s row %zu", names[f], rows);
					q = end + (k < 2);
				}
			}
			ck_assert_uint_eq(rows, count);
			free(csv);
		}
		uint32_t nmesh = nm_be32(me);
		uint64_t faces = 0;
		for (uint32_t i = 0; i < nmesh; i++) {
			const uint8_t *r = me + 4 + 0x15 * (size_t)i;
			uint32_t prim = nm_be32(r), count = nm_be32(r + 12);
			faces += prim == 3 ? count / 3 : prim == 4 && count >= 3 ? count - 2 : 0;
		}
		char *obj = slurp(t, "/mesh.obj", NULL);
		/* Dropped strip triangles are comment lines of the same length. */
		size_t f_lines = count_lines(obj, "f "), dropped = count_lines(obj, "#") - 1;
		ck_assert_uint_eq(f_lines + dropped, faces);
		ck_assert_uint_gt(f_lines, 0);
		free(obj);
		free(vb);
		free(me);
		nm_tree_free(t);
	}
}
END_TEST

/* GUIDs are shown as their 16 bytes in file order, 8-4-4-4-12. pakpydkctf, the
 * Tropical Freeze modders' PAK tool, reads the same bytes for the same texture: its
 * export of another WMDL of the game (scheiss/wmdls/3474a92d..._wmdl_repack) names the
 * water-curtain diffuse texture "...__difttxtr__662add8b630f43ff87be44abb9f80952", the
 * GUID of that TXTR in the PAK's table of contents, which this corpus WMDL's first
 * material references. Any other byte order (Microsoft's mixed-endian GUID text, or
 * the two halves swapped) gives another string. */
START_TEST(corpus_guid_order)
{
	char *dir = walk_corpus_dir("cmdl");
	if (!dir)
		return; /* no corpus: walk_corpus_dir said so */
	char path[4096];
	snprintf(path, sizeof path, "%s/dkctf_02c83e45-0f61-4f02-bad4-bb332a88c587.wmdl", dir);
	free(dir);
	nm_tree *t;
	nm_error err;
	if (access(path, R_OK) != 0) {
		printf("corpus_guid_order: %s is not there; the GUID check did not run\n", path);
		return;
	}
	ck_assert_msg(nm_open_model(path, NULL, &t, &err) == NM_OK, "%s: %s", path, err.msg);
	expect_contains(t, "/mtrl/0.txt", "dift_texture: 662add8b-630f-43ff-87be-44abb9f80952\n"
			"dift_flags:");
	nm_tree_free(t);
}
END_TEST

START_TEST(corpus_mutations)
{
	static char names[64][3600];
	size_t nfiles = corpus_files(names, 64);
	if (!nfiles)
		return; /* no corpus: corpus_files said so */
	uint32_t seed = 777;
	size_t built = 0;
	for (size_t f = 0; f < nfiles; f++) {
		size_t len;
		uint8_t *b = walk_load_file(names[f], &len);
		ck_assert_ptr_nonnull(b);
		for (int i = 0; i < 150; i++) {
			/* Truncations, flips in the tables (first 0x400 bytes), flips anywhere. */
			size_t cut = i < 40 ? (size_t)xorshift(&seed) % len : len;
			size_t at = (size_t)xorshift(&seed) % (i < 100 ? (len < 0x400 ? len : 0x400) : len);
			uint8_t flip = i < 40 ? 0 : (uint8_t)(1u << (xorshift(&seed) % 8));
			built += mutate_and_walk(b, len, "corpus", cut, at, flip);
		}
		free(b);
	}
	ck_assert_uint_gt(built, nfiles * 75);
}
END_TEST

static Suite *rfrm_suite(void)
{
	Suite *s = suite_create("rfrm");
	TCase *fmt = tcase_create("formats");
	tcase_add_test(fmt, half_floats);
	tcase_add_test(fmt, every_component_format);
	suite_add_tcase(s, fmt);

	TCase *mod = tcase_create("models");
	tcase_set_timeout(mod, 60);
	tcase_add_loop_test(mod, pak_every_codec, 0, RFX_CODEC_COUNT);
	tcase_add_loop_test(mod, appended_meta_every_codec, 0, RFX_CODEC_COUNT);
	tcase_add_loop_test(mod, meta_gpu_relative, 0, RFX_CODEC_COUNT);
	tcase_add_loop_test(mod, walk_is_lazy, 0, RFX_CODEC_COUNT);
	tcase_add_loop_test(mod, walk_offers_vertex_buffers, 0, RFX_CODEC_COUNT);
	tcase_add_test(mod, index_past_the_vertices);
	tcase_add_test(mod, obj_head_decodes_only_the_head);
	tcase_add_test(mod, walk_threads);
	tcase_add_loop_test(mod, walk_mixed_codecs, 0, RFX_CODEC_COUNT);
	tcase_add_loop_test(mod, meta_limits, 0, RFX_CODEC_COUNT);
	tcase_add_test(mod, absurd_vertex_count);
	tcase_add_test(mod, wiiu_materials);
	tcase_add_test(mod, switch_materials);
	tcase_add_test(mod, material_without_text);
	tcase_add_test(mod, generic_asset);
	tcase_add_test(mod, generic_asset_broken);
	tcase_add_test(mod, char_record_body);
	suite_add_tcase(s, mod);

	TCase *pak = tcase_create("pak");
	tcase_set_timeout(pak, 60);
	tcase_add_loop_test(pak, pak_names_and_laziness, 0, 2);
	tcase_add_test(pak, bench_pak_walk);
	tcase_add_test(pak, pak_models_written_back);
	suite_add_tcase(s, pak);

	TCase *bad = tcase_create("broken");
	tcase_set_timeout(bad, 120);
	tcase_add_loop_test(bad, truncate_every_offset, 0, RFX_CODEC_COUNT);
	tcase_add_test(bad, pak_mutations);
	suite_add_tcase(s, bad);

	TCase *corp = tcase_create("corpus");
	tcase_set_timeout(corp, 300); /* ~45 s of CPU; the machine may be shared */
	tcase_add_test(corp, corpus_models);
	tcase_add_test(corp, corpus_guid_order);
	tcase_add_test(corp, corpus_mutations);
	tcase_add_loop_test(corp, corpus_gpu_written_back, 0, 6);
	tcase_add_loop_test(corp, corpus_vertex_buffer_written_back, 0, 2);
	suite_add_tcase(s, corp);
	return s;
}

#include "tests/check_main.h"
NM_CHECK_MAIN(rfrm_suite)
