/* mkanimglb OUTDIR: the animated model.glb fixtures (fixtures/anim_glb.h) for
 * tests/gltf_anim.sh. Per rule N (0 basic, 1 Softimage, 2 Maya): ruleN.glb (with the
 * two animations), ruleN_static.glb (the model's own model.glb) and ruleN.expect, what
 * the game shows, for tests/gltf_anim_check.js:
 *   rest J m00 .. m23              joint J's world at rest (3x4, row-major)
 *   world swing F J m00 .. m23     joint J's world at frame F of "swing"
 *   value blink F WHAT v...        "blink"'s color, offset, rotation, scale or visible */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures/anim_glb.h"

static int save(nm_tree *t, const char *path, const char *out)
{
	nm_node *n;
	nm_error err;
	uint64_t size;
	if (nm_resolve(t, path, &n, &err) != NM_OK || nm_size(t, n, &size, &err) != NM_OK) {
		fprintf(stderr, "mkanimglb: %s: %s\n", path, err.msg);
		return 1;
	}
	char *buf = malloc(size ? size : 1);
	size_t got = 0, k;
	while (buf && got < size && nm_read(t, n, got, buf + got, size - got, &k, &err) == NM_OK &&
	       k > 0)
		got += k;
	FILE *f = buf && got == size ? fopen(out, "wb") : NULL;
	int bad = !f || fwrite(buf, 1, size, f) != size;
	if (f)
		bad |= fclose(f) != 0;
	free(buf);
	if (bad)
		fprintf(stderr, "mkanimglb: %s: cannot write %s\n", path, out);
	return bad;
}

static void matrix(FILE *f, const double m[12])
{
	for (int k = 0; k < 12; k++)
		fprintf(f, " %.17g", m[k]);
	fputc('\n', f);
}

static int expect(int rule, const char *out)
{
	FILE *f = fopen(out, "w");
	if (!f)
		return 1;
	float srt[ANIM_GLB_JOINTS][9];
	double world[ANIM_GLB_JOINTS][12];
	anim_glb_srt(rule, -1, srt);
	anim_glb_game_worlds(rule, srt, world);
	for (int j = 0; j < ANIM_GLB_JOINTS; j++) {
		fprintf(f, "rest %d", j);
		matrix(f, world[j]);
	}
	static const int frames[] = { 0, 1, 7, 13, ANIM_GLB_SWING_FRAMES - 1 };
	for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
		anim_glb_srt(rule, frames[i], srt);
		anim_glb_game_worlds(rule, srt, world);
		for (int j = 0; j < ANIM_GLB_JOINTS; j++) {
			fprintf(f, "world swing %d %d", frames[i], j);
			matrix(f, world[j]);
		}
	}
	for (int fr = 0; fr < ANIM_GLB_BLINK_FRAMES; fr += 3) {
		float c[4], o[2], r, s[2];
		bool v;
		anim_glb_blink(fr, c, o, &r, s, &v);
		fprintf(f, "value blink %d color %.9g %.9g %.9g %.9g\n", fr, c[0], c[1], c[2], c[3]);
		fprintf(f, "value blink %d offset %.9g %.9g\n", fr, o[0], o[1]);
		fprintf(f, "value blink %d rotation %.9g\n", fr, r);
		fprintf(f, "value blink %d scale %.9g %.9g\n", fr, s[0], s[1]);
		fprintf(f, "value blink %d visible %d\n", fr, v);
	}
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkanimglb OUTDIR\n");
		return 2;
	}
	int bad = 0;
	for (int rule = 0; rule < 3; rule++) {
		nm_error err;
		nm_tree *t = anim_glb_tree(rule, &err);
		if (!t) {
			fprintf(stderr, "mkanimglb: rule %d: %s\n", rule, err.msg);
			return 1;
		}
		char out[4096];
		snprintf(out, sizeof out, "%s/rule%d.glb", argv[1], rule);
		bad |= save(t, "anim/model.glb", out);
		snprintf(out, sizeof out, "%s/rule%d_static.glb", argv[1], rule);
		bad |= save(t, "model.glb", out);
		snprintf(out, sizeof out, "%s/rule%d.expect", argv[1], rule);
		bad |= expect(rule, out);
		nm_tree_free(t);
	}
	return bad;
}
