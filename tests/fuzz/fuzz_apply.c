/* Structure-aware libFuzzer target for nmodel apply's layer (src/edit, export/record.h,
 * export/tex_inverse.h, the CMB, J3D and TXTR inverses): the input is a recipe for one edited
 * file of a fixture, run through nm_apply_file and nm_apply_encode as `nmodel apply`
 * runs them. Checked beyond "no crash": the file's own bytes are no edit and no problem;
 * an edit with a problem gives no bytes; an encoded edit keeps the file's size (no
 * inverse moves bytes), and the new model is opened and checked (nm_apply_verify)
 * without a crash; a valid PNG of a level's size always encodes, and the new model
 * passes the check.
 *
 * Recipe: byte 0 the fixture, by bits 2-3: 0 apply's records CMB (fx_cmb_records) of
 * version 6, 10, 12, 15 (bits 0-1); 1 the J3D fixture writer's model (j3dw_build) of
 * variant BMD3, BDL4, BMD2, BMT3 (bits 0-1), through the J3D inverses; 2 a CMB with an
 * ETC1 and an RGBA4 texture of three levels; 3 a stored TXTR of format (bits 4-5) RGBA8,
 * BC1, BC4 or ASTC 8x5 with six levels. Byte 1 which file (below; a file the fixture
 * does not have is no run); byte 2 what to do:
 * 0 overwrite at the offset, 1 insert there, 2 delete as many bytes as the rest holds,
 * 3 nothing (the file's own bytes), 4 a valid PNG of the file's own size (when it is a
 * PNG) whose texels are the rest, repeated, with 1 to 4 channels (byte 3), 5 the same
 * one texel wider; bytes 3-4 the offset (little endian, modulo the file's length); the
 * rest the bytes written or inserted. */
#include <stdlib.h>
#include <string.h>
#include "edit/apply.h"
#include "export/png.h"
#include "lib/bytes.h"
#include "lib/edit.h"
#include "tests/fixtures/cmb_writer.h"
#include "tests/fixtures/j3d_writer.h"
#include "tests/fixtures/txtr_writer.h"
#include "tests/walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"/mats/0.txt", "/mats/combiners/0.txt", "/skl/bones/0.txt", "/skl/bones/1.txt",
	"/sepd/0/positions.csv", "/sepd/0/texcoords0.csv", "/mats/raw.bin",
	"/mats/header.txt", "/info.txt", "/mesh.obj",
};
static const char *const cmb_tex_files[] = {
	"/tex/a.png", "/tex/a.mip1.png", "/tex/a.mip2.png", "/tex/b.png", "/tex/b.mip2.png",
	"/tex/a.bin", "/model.glb",
};
static const char *const txtr_files[] = {
	"/tex/0.png", "/tex/1.png", "/tex/5.png", "/head/header.txt", "/gpu/surface.bin",
	"/gpu/raw.bin",
};

static const char *const j3d_files[] = {
	"/mat3/0.txt", "/mat3/1.txt", "/jnt1/joints/1.txt", "/jnt1/by_name/hand.txt",
	"/tex1/i4.txt", "/vtx1/positions.csv", "/vtx1/colors1.csv", "/vtx1/texcoords1.csv",
	"/evp1/envelopes.csv", "/evp1/inverse_bind/1.txt", "/drw1/entries.csv",
	"/inf1/header.txt", "/tex1/c8.png", "/tex1/mip.png", "/mat2/0.txt", "/mesh.obj",
};

static nm_tree *editable(const uint8_t *d, size_t len, const char *name)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	return walk_build_with(d, len, name, &opt, &t, &err) == NM_OK ? t : NULL;
}

/* A CMB of two 32x32 textures of three levels: a (ETC1) and b (RGBA4). */
static uint8_t *textures_cmb(size_t *len)
{
	static uint8_t etc1[(32 * 32 + 16 * 16 + 8 * 8) / 2], rgba4[(32 * 32 + 16 * 16 + 8 * 8) * 2];
	for (size_t i = 0; i < sizeof etc1; i++)
		etc1[i] = (uint8_t)(i * 37 >> 2);
	for (size_t i = 0; i < sizeof rgba4; i++)
		rgba4[i] = (uint8_t)(i * 11);
	fx_texture tex[2] = {
		{ .name = "a", .gl_format = 0x675A, .width = 32, .height = 32, .mips = 3,
		  .data = etc1, .data_len = sizeof etc1 },
		{ .name = "b", .gl_format = 0x80336752, .width = 32, .height = 32, .mips = 3,
		  .data = rgba4, .data_len = sizeof rgba4 },
	};
	fx_model m = { .version = 6, .name = "t", .tex = tex, .ntex = 2 };
	return fx_cmb_write(&m, len, NULL);
}

static uint8_t *stored_txtr(unsigned which, size_t *len)
{
	static const uint32_t formats[4] = { 12, 20, 26, 58 };
	rfx_txtr x = { .type = 1, .format = formats[which & 3], .width = 32, .height = 32,
		       .depth = 1, .levels = 6, .codec = RFX_STORED, .seed = 3 };
	rfx_buf b = { 0 };
	if (rfx_txtr_write(&x, &b) != 0) {
		rfx_buf_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.data;
}

/* A valid PNG of w x h (plus wide) from the recipe's bytes, or NULL when was is no PNG. */
static uint8_t *png_from(const uint8_t *was, size_t was_len, const uint8_t *rest, size_t nrest,
			 unsigned channels, unsigned wide, size_t *len)
{
	if (was_len < 24 || memcmp(was + 1, "PNG", 3) != 0)
		return NULL;
	uint32_t w = nm_be32(was + 16) + wide, h = nm_be32(was + 20);
	if (w > 256 || h > 256)
		return NULL;
	uint8_t *rgba = malloc((size_t)w * h * 4);
	for (size_t i = 0; i < (size_t)w * h * 4; i++)
		rgba[i] = nrest ? rest[i % nrest] : (uint8_t)i;
	nm_out o;
	nm_out_init(&o);
	nm_status s = nm_png_write(&o, rgba, w, h, channels % 4 + 1);
	free(rgba);
	if (s != NM_OK) {
		nm_out_free(&o);
		return NULL;
	}
	return nm_out_take(&o, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	static const uint32_t versions[] = { 6, 10, 12, 15 };
	size_t len = 0;
	const char *name = "f.cmb";
	const char *const *list = files;
	size_t nlist = sizeof files / sizeof files[0];
	static const char *const j3d_names[] = { "f.bmd", "f.bdl", "f.bmd", "f.bmt" };
	/* Each of the 16 fixtures is written and opened once, then edited by every
	 * execution that picks it, as a writable mount edits the tree it keeps: the writers
	 * are the tests' code (the TXTR one encodes ASTC with another preset than apply's
	 * inverse, which made the encoder's context be built again twice an execution), and
	 * the fixture's tree was a fifth of an execution, the same every time. nm_apply
	 * reads the tree and never changes it; what the tree caches is the same bytes. */
	static struct { uint8_t *data; size_t len; nm_tree *tree; } written[16];
	unsigned kind = data[0] >> 2 & 3, which = kind == 3 ? data[0] >> 4 & 3 : data[0] & 3;
	uint8_t *cmb = written[kind * 4 + which].data;
	len = written[kind * 4 + which].len;
	nm_tree *t = written[kind * 4 + which].tree;
	switch (kind) {
	case 0:
		if (!cmb)
			cmb = fx_cmb_records(versions[which], &len);
		break;
	case 1:
		if (!cmb)
			cmb = j3dw_build(&(j3dw_opts){ .variant = which }, &len);
		name = j3d_names[which];
		list = j3d_files;
		nlist = sizeof j3d_files / sizeof j3d_files[0];
		break;
	case 2:
		if (!cmb)
			cmb = textures_cmb(&len);
		list = cmb_tex_files;
		nlist = sizeof cmb_tex_files / sizeof cmb_tex_files[0];
		break;
	default:
		if (!cmb)
			cmb = stored_txtr(which, &len);
		name = "f.txtr";
		list = txtr_files;
		nlist = sizeof txtr_files / sizeof txtr_files[0];
		break;
	}
	if (!t)
		t = cmb ? editable(cmb, len, name) : NULL;
	if (!t)
		abort(); /* the fixture always builds */
	written[kind * 4 + which].data = cmb;
	written[kind * 4 + which].len = len;
	written[kind * 4 + which].tree = t;
	const char *path = list[data[1] % nlist];
	size_t was_len;
	uint8_t *was = (uint8_t *)walk_read(t, path, &was_len);
	if (!was && list != j3d_files)
		abort();
	if (!was) /* a file this J3D variant does not have */
		return 0;
	const uint8_t *rest = data + 5;
	size_t nrest = size - 5, off = was_len ? (data[3] | (size_t)data[4] << 8) % was_len : 0;
	uint8_t *now = malloc(was_len + nrest + 1);
	size_t now_len = was_len;
	memcpy(now, was, was_len);
	unsigned op = data[2] % 6;
	bool made_png = false;
	if (op >= 4) {   /* a valid PNG in place of the file */
		size_t plen;
		uint8_t *png = png_from(was, was_len, rest, nrest, data[3], op == 5, &plen);
		if (png) {
			free(now);
			now = png;
			now_len = plen;
			made_png = true;
		}
	}
	switch (op) {
	case 0: /* overwrite, growing the file if the bytes run past its end */
		memcpy(now + off, rest, nrest);
		if (off + nrest > now_len)
			now_len = off + nrest;
		break;
	case 1:
		memmove(now + off + nrest, now + off, was_len - off);
		memcpy(now + off, rest, nrest);
		now_len += nrest;
		break;
	case 2:
		nrest = nrest < was_len - off ? nrest : was_len - off;
		memmove(now + off, now + off + nrest, was_len - off - nrest);
		now_len -= nrest;
		break;
	default:
		break;
	}
	nm_apply *a = nm_apply_new(t);
	nm_error err;
	nm_status s = nm_apply_file(a, path, now, now_len, path, &err);
	bool same = now_len == was_len && memcmp(now, was, was_len) == 0;
	nm_out out;
	nm_out_init(&out);
	bool changed = false;
	if (s == NM_OK)
		s = nm_apply_encode(a, &out, &changed, &err);
	if (same && (s != NM_OK || changed || nm_apply_problems(a)))
		abort(); /* the file's own bytes are no edit */
	if (nm_apply_problems(a) && (s == NM_OK || out.len))
		abort(); /* a problem gives no bytes */
	bool valid_png = made_png && op == 4;
	if (valid_png && s == NM_OK && nm_apply_problems(a))
		abort(); /* a PNG of the level's size always encodes */
	if (made_png && op == 5 && s == NM_OK && !nm_apply_problems(a))
		abort(); /* one of another size never does */
	if (s == NM_OK && changed) {
		if (out.len != len)
			abort();
		nm_tree *t2 = editable(out.data, out.len, name);
		if (t2) {
			if (nm_apply_verify(a, t2, &err) && valid_png)
				abort(); /* and reads back as encoded */
			nm_tree_free(t2);
		}
	}
	nm_out_free(&out);
	nm_apply_free(a);
	free(now);
	free(was);
	return 0;
}
