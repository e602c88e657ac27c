/* Structure-aware libFuzzer target for nmodel apply's layer (src/edit, export/record.h,
 * the CMB inverses): the input is a recipe for one edited file of the fixture CMB that
 * apply's tests use (fx_cmb_records), run through nm_apply_file and nm_apply_encode as
 * `nmodel apply` runs them. Checked beyond "no crash": the file's own bytes are no edit
 * and no problem; an edit with a problem gives no bytes; an encoded edit keeps the
 * file's size (nothing a CMB inverse does moves bytes), and the new model is opened and
 * checked (nm_apply_verify) without a crash.
 *
 * The same for the J3D fixture writer's models (j3dw_build), through the J3D inverses.
 *
 * Recipe: byte 0 the fixture: bits 0-1 the CMB version (6, 10, 12, 15) or, with bit 2
 * set, the J3D variant (BMD3, BDL4, BMD2, BMT3); byte 1 which file (below; a file the
 * variant does not have is no run);
 * byte 2 what to do: 0 overwrite at the offset, 1 insert there, 2 delete as many bytes
 * as the rest holds, 3 nothing (the file's own bytes); bytes 3-4 the offset (little
 * endian, modulo the file's length); the rest the bytes written or inserted. */
#include <stdlib.h>
#include <string.h>
#include "edit/apply.h"
#include "lib/edit.h"
#include "tests/fixtures/cmb_writer.h"
#include "tests/fixtures/j3d_writer.h"
#include "tests/walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"/mats/0.txt", "/mats/combiners/0.txt", "/skl/bones/0.txt", "/skl/bones/1.txt",
	"/sepd/0/positions.csv", "/sepd/0/texcoords0.csv", "/mats/raw.bin",
	"/mats/header.txt", "/info.txt", "/mesh.obj",
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	static const uint32_t versions[] = { 6, 10, 12, 15 };
	static const char *const j3d_names[] = { "f.bmd", "f.bdl", "f.bmd", "f.bmt" };
	bool j3d = data[0] & 4;
	size_t len;
	const char *name = j3d ? j3d_names[data[0] & 3] : "f.cmb";
	uint8_t *cmb = j3d ? j3dw_build(&(j3dw_opts){ .variant = data[0] & 3 }, &len)
			   : fx_cmb_records(versions[data[0] & 3], &len);
	nm_tree *t = cmb ? editable(cmb, len, name) : NULL;
	if (!t)
		abort(); /* the fixture always builds */
	const char *path = j3d ? j3d_files[data[1] % (sizeof j3d_files / sizeof j3d_files[0])]
			       : files[data[1] % (sizeof files / sizeof files[0])];
	size_t was_len;
	uint8_t *was = (uint8_t *)walk_read(t, path, &was_len);
	if (!was && !j3d)
		abort();
	if (!was) {
		nm_tree_free(t);
		free(cmb);
		return 0;
	}
	const uint8_t *rest = data + 5;
	size_t nrest = size - 5, off = was_len ? (data[3] | (size_t)data[4] << 8) % was_len : 0;
	uint8_t *now = malloc(was_len + nrest + 1);
	size_t now_len = was_len;
	memcpy(now, was, was_len);
	switch (data[2] & 3) {
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
	if (s == NM_OK && changed) {
		if (out.len != len)
			abort();
		nm_tree *t2 = editable(out.data, out.len, name);
		if (t2) {
			nm_apply_verify(a, t2, &err);
			nm_tree_free(t2);
		}
	}
	nm_out_free(&out);
	nm_apply_free(a);
	free(now);
	free(was);
	nm_tree_free(t);
	free(cmb);
	return 0;
}
