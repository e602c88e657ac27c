/* Edits of a folder, one member file at a time (folder.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edit/folder.h"
#include "formats/container/container.h"

typedef struct member {
	char *rel;
	nm_apply *a;          /* this round's edits, or NULL */
	uint8_t *bytes;       /* the new bytes, or NULL: the file as it is */
	size_t len;
	bool fresh;           /* encoded since last written */
} member;

struct nm_folder_apply {
	nm_tree *t;
	char *folder;
	member *m;
	size_t n, cap;
	nm_apply *none;       /* edits of paths in no member: each a problem */
	bool nomem;
};

nm_folder_apply *nm_folder_apply_new(nm_tree *t, const char *folder)
{
	nm_folder_apply *f = calloc(1, sizeof *f);
	if (f && (!(f->folder = strdup(folder)) || !(f->none = nm_apply_new(t)))) {
		nm_folder_apply_free(f);
		return NULL;
	}
	if (f)
		f->t = t;
	return f;
}

void nm_folder_apply_free(nm_folder_apply *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->m[i].rel);
		nm_apply_free(f->m[i].a);
		free(f->m[i].bytes);
	}
	free(f->m);
	nm_apply_free(f->none);
	free(f->folder);
	free(f);
}

void nm_folder_member(const char *folder, const char *path, char *rel, size_t size)
{
	char disk[8400];
	struct stat st;
	size_t flen = (size_t)snprintf(disk, sizeof disk, "%s/", folder);
	for (const char *p = path; *p;) {
		const char *slash = strchr(p, '/');
		size_t upto = slash ? (size_t)(slash - path) : strlen(path);
		if (flen + upto >= sizeof disk || upto >= size)
			break;
		memcpy(disk + flen, path, upto);
		disk[flen + upto] = '\0';
		if (stat(disk, &st) != 0)
			break;
		if (S_ISREG(st.st_mode)) {
			memcpy(rel, path, upto);
			rel[upto] = '\0';
			return;
		}
		if (!S_ISDIR(st.st_mode) || !slash)
			break;
		p = slash + 1;
	}
	if (size)
		rel[0] = '\0';
}

static member *find(const nm_folder_apply *f, const char *rel)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->m[i].rel, rel) == 0)
			return &f->m[i];
	return NULL;
}

static member *find_or_add(nm_folder_apply *f, const char *rel)
{
	member *m = find(f, rel);
	if (m)
		return m;
	if (f->n == f->cap) {
		size_t c = f->cap ? f->cap * 2 : 8;
		member *more = realloc(f->m, c * sizeof *more);
		if (!more)
			return NULL;
		f->m = more;
		f->cap = c;
	}
	m = &f->m[f->n];
	*m = (member){ .rel = strdup(rel) };
	if (!m->rel)
		return NULL;
	f->n++;
	return m;
}

nm_status nm_folder_apply_file(nm_folder_apply *f, const char *path, const uint8_t *bytes,
			       size_t len, const char *shown, nm_error *err)
{
	char rel[4200];
	nm_folder_member(f->folder, path, rel, sizeof rel);
	if (!*rel)
		return nm_apply_file(f->none, path, bytes, len, shown, err);
	member *m = find_or_add(f, rel);
	if (m && !m->a && (m->a = nm_apply_new(f->t)) != NULL)
		nm_apply_set_scope(m->a, rel);
	if (!m || !m->a)
		return nm_fail(err, NM_E_NOMEM, shown, NULL, NM_NO_OFFSET, "out of memory");
	return nm_apply_file(m->a, path, bytes, len, shown, err);
}

void nm_folder_apply_forget(nm_folder_apply *f, const char *rel)
{
	member *m = find(f, rel);
	if (m) {
		nm_apply_free(m->a);
		m->a = NULL;
	}
}

size_t nm_folder_apply_edits(const nm_folder_apply *f)
{
	size_t n = nm_apply_edits(f->none);
	for (size_t i = 0; i < f->n; i++)
		n += f->m[i].a ? nm_apply_edits(f->m[i].a) : 0;
	return n;
}

size_t nm_folder_apply_problems(const nm_folder_apply *f)
{
	/* An edit the tree shows but no member holds (a name the tree made safe) cannot be
	 * written anywhere. */
	size_t n = nm_apply_problems(f->none) + nm_apply_edits(f->none) + f->nomem;
	for (size_t i = 0; i < f->n; i++)
		n += f->m[i].a ? nm_apply_problems(f->m[i].a) : 0;
	return n;
}

void nm_folder_apply_each_problem(const nm_folder_apply *f,
				  void (*fn)(const char *line, void *ctx), void *ctx)
{
	nm_apply_each_problem(f->none, fn, ctx);
	if (nm_apply_edits(f->none))
		fn("an edited file lies in no file of the folder on disk: a folder's edits are "
		   "written per file, under the file's own name", ctx);
	if (f->nomem)
		fn("out of memory", ctx);
	for (size_t i = 0; i < f->n; i++)
		if (f->m[i].a)
			nm_apply_each_problem(f->m[i].a, fn, ctx);
}

typedef struct prefixed {
	const char *rel;
	void (*fn)(const char *line, void *ctx);
	void *ctx;
} prefixed;

static void with_rel(const char *line, void *ctx)
{
	const prefixed *p = ctx;
	size_t n = strlen(p->rel);
	if (strncmp(line, p->rel, n) == 0 && line[n] == '/') {
		p->fn(line, p->ctx);
		return;
	}
	char buf[2400];
	snprintf(buf, sizeof buf, "%s: %s", p->rel, line);
	p->fn(buf, p->ctx);
}

void nm_folder_apply_each_change(const nm_folder_apply *f,
				 void (*fn)(const char *line, void *ctx), void *ctx)
{
	for (size_t i = 0; i < f->n; i++) {
		prefixed p = { f->m[i].rel, fn, ctx };
		if (f->m[i].a)
			nm_apply_each_change(f->m[i].a, with_rel, &p);
	}
}

static nm_status encode_one(nm_folder_apply *f, member *m, bool *changed, nm_error *err)
{
	nm_out out;
	nm_out_init(&out);
	bool ch = false;
	nm_status s = m->a ? nm_apply_encode(m->a, &out, &ch, err) : NM_OK;
	if (s == NM_OK && m->a && nm_apply_problems(m->a))
		s = NM_E_INVAL;
	if (s == NM_OK) {
		free(m->bytes);
		size_t len = 0;
		m->bytes = ch ? nm_out_take(&out, &len) : NULL;
		m->len = len;
		m->fresh = ch;
		if (ch && !m->bytes)
			s = nm_fail(err, NM_E_NOMEM, m->rel, NULL, NM_NO_OFFSET, "out of memory");
	}
	nm_out_free(&out);
	if (changed && ch)
		*changed = true;
	(void)f;
	return s;
}

nm_status nm_folder_apply_encode(nm_folder_apply *f, const char *rel, bool *changed,
				 nm_error *err)
{
	if (changed)
		*changed = false;
	if (nm_folder_apply_problems(f))
		return NM_E_INVAL;
	nm_status s = NM_OK;
	if (rel) {
		member *m = find(f, rel);
		return m ? encode_one(f, m, changed, err) : NM_OK;
	}
	for (size_t i = 0; i < f->n && (s == NM_OK || s == NM_E_INVAL); i++)
		if (f->m[i].a && nm_apply_edits(f->m[i].a)) {
			nm_status one = encode_one(f, &f->m[i], changed, err);
			if (one != NM_OK)
				s = one;
		}
	return s;
}

/* The members with new bytes, plus rel's given ones in place of its own. */
static nm_folder_file *shown_files(const nm_folder_apply *f, const char *rel,
				   const uint8_t *b, size_t len, size_t *n)
{
	nm_folder_file *files = calloc(f->n + 1, sizeof *files);
	*n = 0;
	for (size_t i = 0; files && i < f->n; i++)
		if (f->m[i].bytes && (!rel || strcmp(f->m[i].rel, rel) != 0))
			files[(*n)++] = (nm_folder_file){ f->m[i].rel, f->m[i].bytes, f->m[i].len };
	if (files && rel)
		files[(*n)++] = (nm_folder_file){ rel, b, len };
	return files;
}

nm_status nm_folder_apply_open(const nm_folder_apply *f, const nm_options *opt,
			       nm_tree **t, nm_error *err)
{
	size_t n;
	nm_folder_file *files = shown_files(f, NULL, NULL, 0, &n);
	nm_status s = files ? nm_folder_open_with(f->folder, opt, files, n, t, err)
			    : nm_fail(err, NM_E_NOMEM, f->folder, NULL, NM_NO_OFFSET,
				      "out of memory");
	free(files);
	return s;
}

/* nm_apply_stage's check of one member: the folder with every new file shown. */
typedef struct check_ctx {
	const nm_folder_apply *f;
	const char *rel;
} check_ctx;

static nm_status open_checked(void *ctx, const char *tmp, const uint8_t *b, size_t len,
			      const nm_options *opt, nm_tree **t, nm_error *err)
{
	const check_ctx *c = ctx;
	size_t n;
	(void)tmp;
	nm_folder_file *files = shown_files(c->f, c->rel, b, len, &n);
	nm_status s = files ? nm_folder_open_with(c->f->folder, opt, files, n, t, err)
			    : nm_fail(err, NM_E_NOMEM, c->rel, NULL, NM_NO_OFFSET,
				      "out of memory");
	free(files);
	return s;
}

/* The folders above outdir/rel made; 0 or an errno. */
static int make_parents(const char *outdir, const char *rel)
{
	char p[8400];
	size_t root = (size_t)snprintf(p, sizeof p, "%s/", outdir);
	snprintf(p + root, sizeof p - root, "%s", rel);
	if (mkdir(outdir, 0777) != 0 && errno != EEXIST)
		return errno;
	for (char *s = p + root; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			return errno;
		*s = '/';
	}
	return 0;
}

nm_status nm_folder_apply_write(nm_folder_apply *f, const char *rel, const char *outdir,
				const nm_options *opt, nm_error *err)
{
	nm_apply_staged *st = calloc(f->n ? f->n : 1, sizeof *st);
	char (*outs)[8400] = calloc(f->n ? f->n : 1, sizeof *outs);
	nm_status s = st && outs ? NM_OK
				 : nm_fail(err, NM_E_NOMEM, f->folder, NULL, NM_NO_OFFSET,
					   "out of memory");
	size_t staged = 0;
	for (size_t i = 0; s == NM_OK && i < f->n; i++) {
		member *m = &f->m[i];
		if (!m->fresh || (rel && strcmp(m->rel, rel) != 0))
			continue;
		if (outdir) {
			snprintf(outs[i], sizeof outs[i], "%s/%s", outdir, m->rel);
			int e = make_parents(outdir, m->rel);
			if (e) {
				s = nm_fail(err, NM_E_IO, outs[i], NULL, NM_NO_OFFSET, "%s",
					    strerror(e));
				break;
			}
		}
		check_ctx c = { f, m->rel };
		s = nm_apply_stage(m->a, outdir ? outs[i] : NULL, m->bytes, m->len, opt,
				   open_checked, &c, NULL, &st[i], err);
		if (s == NM_OK)
			staged++;
	}
	/* Every member checked: now renamed in turn (a rename that fails leaves the members
	 * after it unwritten, each file still whole). */
	for (size_t i = 0; st && i < f->n; i++) {
		if (!f->m[i].fresh || (rel && strcmp(f->m[i].rel, rel) != 0) || !staged)
			continue;
		if (s == NM_OK) {
			s = nm_apply_commit(&st[i], err);
			if (s == NM_OK)
				f->m[i].fresh = false;
		} else if (st[i].fd > 0) {
			nm_apply_discard(&st[i]);
		}
	}
	free(st);
	free(outs);
	return s;
}
