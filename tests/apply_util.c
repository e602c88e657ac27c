/* What the apply tests share (apply_util.h). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edit/apply.h"
#include "formats/driver.h"
#include "lib/edit.h"
#include "tests/apply_util.h"
#include "tests/walk.h"

nm_tree *apply_editable_tree(const uint8_t *d, size_t len, const char *name)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	ck_assert_int_eq(walk_build_with(d, len, name, &opt, &t, &err), NM_OK);
	return t;
}

/* Every record file and vertex CSV, given its own bytes: no patch, no refusal. */
struct own_bytes {
	size_t checked, failed;
	const char *file;
};

static void own_bytes(void *ctx, nm_tree *t, const char *path, const uint8_t *data, size_t len)
{
	struct own_bytes *ob = ctx;
	nm_node *n;
	nm_inverse_fn fn;
	void *fctx, *arg;
	nm_error err;
	/* Slices are left out: their inverse is a patch of the bytes as they are. So are
	 * textures: a PNG with the tree's own bytes is no edit before any inverse runs
	 * (nm_apply_file compares first), and re-encoding a lossy format's decoded pixels
	 * need not give the stored bytes back. */
	size_t pl = strlen(path);
	if ((pl > 4 && strcmp(path + pl - 4, ".png") == 0) ||
	    nm_resolve(t, path, &n, &err) != NM_OK || nm_node_type(n) == NM_NODE_SLICE ||
	    !nm_node_inverse(t, n, &fn, &fctx, &arg))
		return;
	nm_edit ed;
	nm_edit_init(&ed);
	nm_status s = fn(fctx, arg, data, len, &ed, &err);
	ob->checked++;
	if (s != NM_OK || ed.npatches || ed.nrefusals) {
		ob->failed++;
		printf("%s %s: %s%s\n", ob->file, path, s != NM_OK ? err.msg : "",
		       ed.nrefusals ? ed.refusals[0].why : ed.npatches ? "patched" : "");
	}
	nm_edit_free(&ed);
}

size_t check_own_bytes(nm_tree *t, const char *file, size_t want_at_least)
{
	struct own_bytes ob = { .file = file };
	walk_opts o = { .on_file = own_bytes, .ctx = &ob };
	walk_stats st;
	walk_tree_opts(t, &o, &st);
	ck_assert_uint_eq(ob.failed, 0);
	ck_assert_uint_ge(ob.checked, want_at_least);
	return ob.checked;
}

/* path's text with the line starting key replaced by "key: value". */
size_t check_file_own_bytes(const char *path, const char *name, size_t want_at_least)
{
	nm_options opt;
	nm_options_init(&opt);
	opt.editable = true;
	nm_tree *t;
	nm_error err;
	ck_assert_msg(nm_open_model(path, &opt, &t, &err) == NM_OK, "%s", err.msg);
	size_t n = check_own_bytes(t, name, want_at_least);
	nm_tree_free(t);
	return n;
}

size_t check_corpus_own_bytes(const char *corpus, const char *const *exts, size_t want_at_least)
{
	char *dir = walk_corpus_dir(corpus);
	if (!dir)
		return 0;
	DIR *dd = opendir(dir);
	ck_assert_ptr_nonnull(dd);
	struct dirent *e;
	size_t files = 0;
	while ((e = readdir(dd)) != NULL) {
		size_t n = strlen(e->d_name);
		for (const char *const *x = exts; *x; x++) {
			size_t k = strlen(*x);
			if (n <= k || strcmp(e->d_name + n - k, *x) != 0)
				continue;
			char path[4200];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			check_file_own_bytes(path, e->d_name, want_at_least);
			files++;
			break;
		}
	}
	closedir(dd);
	free(dir);
	ck_assert_uint_gt(files, 0);
	return files;
}

char *with_line(nm_tree *t, const char *path, const char *key, const char *value,
		size_t *len)
{
	size_t n;
	char *text = walk_read(t, path, &n);
	ck_assert_ptr_nonnull(text);
	char *out = malloc(n + 256);
	ck_assert_ptr_nonnull(out);
	size_t o = 0;
	bool found = false;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (strncmp(line, key, strlen(key)) == 0 && line[strlen(key)] == ':') {
			o += (size_t)sprintf(out + o, "%s: %s\n", key, value);
			found = true;
		} else {
			memcpy(out + o, line, l);
			o += l;
		}
		line += l;
	}
	ck_assert(found);
	free(text);
	*len = o;
	return out;
}

uint8_t *apply_bytes(nm_tree *t, const char *path, const uint8_t *bytes, size_t len,
		     size_t *out_len, size_t *problems)
{
	nm_apply *a = nm_apply_new(t);
	nm_error err;
	ck_assert_int_eq(nm_apply_file(a, path, bytes, len, path, &err), NM_OK);
	nm_out out;
	nm_out_init(&out);
	bool changed = false;
	nm_status s = nm_apply_encode(a, &out, &changed, &err);
	*problems = nm_apply_problems(a);
	nm_apply_free(a);
	if (s != NM_OK) {
		nm_out_free(&out);
		return NULL;
	}
	ck_assert(changed);
	return nm_out_take(&out, out_len);
}

uint8_t *apply_one(nm_tree *t, const char *path, const char *key, const char *value,
		   size_t *out_len, size_t *problems)
{
	size_t len;
	char *text = with_line(t, path, key, value, &len);
	uint8_t *out = apply_bytes(t, path, (uint8_t *)text, len, out_len, problems);
	free(text);
	return out;
}

struct first_problem {
	char *buf;
	size_t len;
};

static void keep_first(const char *line, void *ctx)
{
	struct first_problem *f = ctx;
	if (!f->buf[0])
		snprintf(f->buf, f->len, "%s", line);
}

void apply_first_problem(const nm_apply *a, char *buf, size_t len)
{
	struct first_problem f = { buf, len };
	buf[0] = 0;
	nm_apply_each_problem(a, keep_first, &f);
}
