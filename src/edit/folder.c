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
	uint8_t *bytes;       /* the new bytes written, or NULL: the file as it is */
	size_t len;
	bool fresh;           /* encoded since last written: next is to be written */
	uint8_t *next;        /* what the encode made (NULL: the file as it is) */
	size_t next_len;
	bool written;         /* written to an outdir before */
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
	/* Absolute: a daemon works from / once it is in the background. */
	if (f && (!(f->folder = realpath(folder, NULL)) || !(f->none = nm_apply_new(t)))) {
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
		free(f->m[i].next);
	}
	free(f->m);
	nm_apply_free(f->none);
	free(f->folder);
	free(f);
}

void nm_folder_member(const nm_folder_apply *f, const char *path, char *rel, size_t size)
{
	char disk[8400];
	struct stat st;
	size_t flen = (size_t)snprintf(disk, sizeof disk, "%s/", f->folder);
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
	nm_folder_member(f, path, rel, sizeof rel);
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
	for (size_t i = 0; i < f->n; i++)
		if (!rel || strcmp(f->m[i].rel, rel) == 0) {
			nm_apply_free(f->m[i].a);
			f->m[i].a = NULL;
		}
	if (!rel) {
		nm_apply *none = nm_apply_new(f->t);
		if (none) {
			nm_apply_free(f->none);
			f->none = none;
		} else {
			f->nomem = true;
		}
	}
}

const char *nm_folder_apply_shown(const nm_folder_apply *f, size_t i)
{
	for (size_t k = 0; k < f->n; k++)
		if (f->m[k].bytes && i-- == 0)
			return f->m[k].rel;
	return NULL;
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

static nm_status encode_one(member *m, bool *changed, nm_error *err)
{
	nm_out out;
	nm_out_init(&out);
	bool ch = false;
	nm_status s = m->a ? nm_apply_encode(m->a, &out, &ch, err) : NM_OK;
	if (s == NM_OK && m->a && nm_apply_problems(m->a))
		s = NM_E_INVAL;
	if (s == NM_OK) {
		free(m->next);
		size_t len = 0;
		m->next = ch ? nm_out_take(&out, &len) : NULL;
		if (ch && !m->next && !len)
			m->next = malloc(1); /* a file made empty: new bytes all the same */
		m->next_len = len;
		m->fresh = true;
		if (ch && !m->next)
			s = nm_fail(err, NM_E_NOMEM, m->rel, NULL, NM_NO_OFFSET, "out of memory");
	}
	nm_out_free(&out);
	if (changed && ch)
		*changed = true;
	return s;
}

nm_status nm_folder_apply_encode(nm_folder_apply *f, const char *rel, bool *changed,
				 nm_error *err)
{
	if (changed)
		*changed = false;
	nm_status s = NM_OK;
	if (rel) {
		member *m = find(f, rel);
		if (nm_apply_problems(f->none) || nm_apply_edits(f->none) || f->nomem ||
		    (m && m->a && nm_apply_problems(m->a)))
			return NM_E_INVAL;
		return m ? encode_one(m, changed, err) : NM_OK;
	}
	if (nm_folder_apply_problems(f))
		return NM_E_INVAL;
	for (size_t i = 0; i < f->n && (s == NM_OK || s == NM_E_INVAL); i++)
		if (f->m[i].a && nm_apply_edits(f->m[i].a)) {
			nm_status one = encode_one(&f->m[i], changed, err);
			if (one != NM_OK)
				s = one;
		}
	return s;
}

/* The members with new bytes (those just encoded: what they will be), plus rel's given
 * ones in place of its own. */
static nm_folder_file *shown_files(const nm_folder_apply *f, const char *rel,
				   const uint8_t *b, size_t len, size_t *n)
{
	nm_folder_file *files = calloc(f->n + 1, sizeof *files);
	*n = 0;
	for (size_t i = 0; files && i < f->n; i++) {
		const member *m = &f->m[i];
		const uint8_t *now = m->fresh ? m->next : m->bytes;
		if (now && (!rel || strcmp(m->rel, rel) != 0))
			files[(*n)++] = (nm_folder_file){ m->rel, now,
							  m->fresh ? m->next_len : m->len };
	}
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

/* Member m's encode settled: what it made is now its bytes (ok), or dropped. */
static void settle(member *m, bool ok)
{
	if (ok) {
		free(m->bytes);
		m->bytes = m->next;
		m->len = m->next_len;
	} else {
		free(m->next);
	}
	m->next = NULL;
	m->fresh = false;
}

nm_status nm_folder_apply_write(nm_folder_apply *f, const char *rel, const char *outdir,
				const nm_options *opt, nm_error *err)
{
	nm_apply_staged *st = calloc(f->n ? f->n : 1, sizeof *st);
	char (*outs)[8400] = calloc(f->n ? f->n : 1, sizeof *outs);
	nm_status s = st && outs ? NM_OK
				 : nm_fail(err, NM_E_NOMEM, f->folder, NULL, NM_NO_OFFSET,
					   "out of memory");
	for (size_t i = 0; i < f->n && st; i++)
		st[i].fd = -1;
	for (size_t i = 0; s == NM_OK && i < f->n; i++) {
		member *m = &f->m[i];
		if (!m->fresh || !m->next || (rel && strcmp(m->rel, rel) != 0))
			continue;
		if (outdir) {
			struct stat there;
			snprintf(outs[i], sizeof outs[i], "%s/%s", outdir, m->rel);
			/* Found now, before any file is renamed: a rename over it would fail
			 * half-way (OUTDIR the tree apply read, say). */
			if (stat(outs[i], &there) == 0 && S_ISDIR(there.st_mode)) {
				s = nm_fail(err, NM_E_IO, outs[i], NULL, NM_NO_OFFSET, "a folder is "
					    "there, where the new %s would go", m->rel);
				break;
			}
			int e = make_parents(outdir, m->rel);
			if (e) {
				s = nm_fail(err, NM_E_IO, outs[i], NULL, NM_NO_OFFSET, "%s",
					    strerror(e));
				break;
			}
		}
		check_ctx c = { f, m->rel };
		s = nm_apply_stage(m->a, outdir ? outs[i] : NULL, m->next, m->next_len, opt,
				   open_checked, &c, NULL, &st[i], err);
	}
	/* Every member checked: now renamed in turn (a rename that fails leaves the members
	 * after it unwritten, each file still whole). A member whose edits came to nothing
	 * is its own file again: its earlier OUTDIR file goes. */
	for (size_t i = 0; st && outs && i < f->n; i++) {
		member *m = &f->m[i];
		if (!m->fresh || (rel && strcmp(m->rel, rel) != 0))
			continue;
		if (s == NM_OK && m->next) {
			s = nm_apply_commit(&st[i], err);
			m->written |= s == NM_OK && outdir;
			settle(m, s == NM_OK);
		} else if (s == NM_OK) {
			char gone[8400];
			snprintf(gone, sizeof gone, "%s/%s", outdir ? outdir : "", m->rel);
			if (outdir && m->written && unlink(gone) != 0 && errno != ENOENT)
				s = nm_fail(err, NM_E_IO, gone, NULL, NM_NO_OFFSET, "%s",
					    strerror(errno));
			settle(m, s == NM_OK);
		} else {
			nm_apply_discard(&st[i]);
			settle(m, false);
		}
	}
	free(st);
	free(outs);
	return s;
}
