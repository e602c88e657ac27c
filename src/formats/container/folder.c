/* A folder mount: `mount.nmodel DIR MNT` shows DIR recursively. Each folder is a lazy
 * directory: its first lookup lists it (readdir, sorted so that two mounts agree) and
 * probes each regular file's first bytes through a reader that opens the file only
 * while it is read, so 10,000 files cost 10,000 short open/read/close calls when their
 * folder is listed and hold no descriptor afterwards. Nothing is parsed until looked up.
 *
 * Symlinks are followed only to a target inside DIR; a folder reached again below
 * itself (a link to an ancestor) is left out, so a walk of the mount ends. Devices,
 * FIFOs and sockets are left out too: opening a FIFO would wait for a writer.
 *
 * A folder can be shown with some of its files' bytes replaced (nm_folder_build_with):
 * the new bytes of the members an edit changed (src/edit/folder.c), copied into the
 * tree once and read from there, so the folder on disk is never written. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "formats/container/container.h"

/* The replaced files of a tree, copied (freed with the tree). */
typedef struct replaced {
	nm_folder_file *files;
	size_t n;
} replaced;

typedef struct folder {
	const replaced *with;     /* files shown with other bytes, or NULL */
	char *path;               /* real path (no symlinks) */
	const char *rel;          /* path below the top, "" for the top: names in messages */
	const char *top;          /* real path of DIR */
	dev_t dev;
	ino_t ino;
	const struct folder *up;  /* NULL for DIR */
} folder;

static void free_ptr(void *p) { free(p); }

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of path but "." and "..", sorted; malloc'd array of malloc'd names. */
static nm_status list(const char *path, const char *rel, char ***out, size_t *count,
		      nm_error *err)
{
	DIR *d = opendir(path);
	if (!d)
		return nm_fail(err, NM_E_IO, rel[0] ? rel : ".", NULL, NM_NO_OFFSET,
			       "cannot list the folder: %s", strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	nm_status s = NM_OK;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **grown = realloc(names, cap * sizeof *grown);
			if (!grown) {
				s = NM_E_NOMEM;
				break;
			}
			names = grown;
		}
		if (!(names[n] = strdup(de->d_name))) {
			s = NM_E_NOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (s != NM_OK) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return nm_fail(err, s, rel, NULL, NM_NO_OFFSET, "out of memory");
	}
	qsort(names, n, sizeof *names, by_name);
	*out = names;
	*count = n;
	return NM_OK;
}

/* Whether real path p is DIR or inside it. */
static bool inside(const char *top, const char *p)
{
	size_t n = strlen(top);
	return strncmp(top, p, n) == 0 && (p[n] == '\0' || p[n] == '/' || strcmp(top, "/") == 0);
}

static bool is_ancestor(const folder *f, const struct stat *st)
{
	for (; f; f = f->up)
		if (f->dev == st->st_dev && f->ino == st->st_ino)
			return true;
	return false;
}

static nm_status populate_folder(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				 nm_error *err);

/* A sub-folder: a lazy directory of its own. */
static nm_node *add_folder(nm_tree *t, nm_node *dir, const char *name, const folder *up,
			   const char *real, const char *rel, const struct stat *st)
{
	folder *f = nm_tree_alloc(t, sizeof *f);
	char *path = strdup(real);
	if (!f || !path || nm_tree_on_free(t, free_ptr, path) != NM_OK)
		return NULL;
	f->path = path;
	f->rel = nm_tree_printf(t, "%s", rel);
	f->top = up->top;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->up = up;
	f->with = up->with;
	return f->rel ? nm_lazy_dir(t, dir, name, populate_folder, NULL, f) : NULL;
}

static nm_status read_replaced(void *ctx, uint64_t off, void *buf, size_t len,
			       const char *chunk, nm_error *err)
{
	const nm_folder_file *f = ctx;
	(void)chunk;
	(void)err; /* the reader checks the range against the size */
	memcpy(buf, f->bytes + off, len);
	return NM_OK;
}

static const nm_source_ops replaced_ops = { .read = read_replaced };

static const nm_folder_file *replacement(const replaced *with, const char *rel)
{
	for (size_t i = 0; with && i < with->n; i++)
		if (strcmp(with->files[i].rel, rel) == 0)
			return &with->files[i];
	return NULL;
}

/* A regular file: a member of the folder, probed now through a reader that opens the
 * file only while it reads (or reads its replaced bytes). */
static nm_node *add_file(nm_tree *t, nm_node *dir, const char *name, const char *real,
			 const char *rel, const struct stat *st, nm_member_group *g,
			 const nm_folder_file *now)
{
	nm_reader *r;
	nm_error e;
	nm_status s = now ? nm_reader_new_source(now->rel, now->len, &replaced_ops,
						 (void *)now, &r, &e)
			  : nm_reader_new_path(real, rel, st, &r, &e);
	if (s != NM_OK || nm_tree_adopt_reader(t, r) != NM_OK)
		return NULL;
	nm_reader_set_depth(r, 1);
	return nm_member_node(t, dir, name, r, g, NULL);
}

static nm_status populate_folder(nm_tree *t, nm_node *dir, void *ctx, void *arg,
				 nm_error *err)
{
	const folder *f = arg;
	(void)ctx;
	char **names = NULL;
	size_t n = 0;
	nm_status s = list(f->path, f->rel, &names, &n, err);
	if (s != NM_OK)
		return s;
	nm_member_group *g = nm_member_group_new(t);
	if (!g)
		s = nm_fail(err, NM_E_NOMEM, f->rel, NULL, NM_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < n && s == NM_OK; i++) {
		char full[PATH_MAX], rel[PATH_MAX], real[PATH_MAX];
		struct stat st;
		snprintf(full, sizeof full, "%s/%s", f->path, names[i]);
		snprintf(rel, sizeof rel, "%s%s%s", f->rel, f->rel[0] ? "/" : "", names[i]);
		if (lstat(full, &st) != 0)
			continue; /* gone since the listing */
		if (S_ISLNK(st.st_mode)) {
			if (!realpath(full, real) || !inside(f->top, real) || stat(real, &st) != 0)
				continue;
		} else {
			snprintf(real, sizeof real, "%s", full);
		}
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			continue;
		if (S_ISDIR(st.st_mode) && is_ancestor(f, &st))
			continue;
		char *name = nm_safe_name(names[i], strlen(names[i]));
		nm_node *node = NULL;
		if (name)
			node = S_ISDIR(st.st_mode) ? add_folder(t, dir, name, f, real, rel, &st)
						   : add_file(t, dir, name, real, rel, &st, g,
							     replacement(f->with, rel));
		free(name);
		if (!node)
			s = nm_fail(err, NM_E_NOMEM, rel, NULL, NM_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return s;
}

static void free_replaced(void *p)
{
	replaced *w = p;
	for (size_t i = 0; i < w->n; i++) {
		free((char *)w->files[i].rel);
		free((uint8_t *)w->files[i].bytes);
	}
	free(w->files);
	free(w);
}

/* files copied, for the tree to keep. */
static replaced *copy_replaced(nm_tree *t, const nm_folder_file *files, size_t n)
{
	replaced *w = calloc(1, sizeof *w);
	if (!w || nm_tree_on_free(t, free_replaced, w) != NM_OK) {
		free(w);
		return NULL;
	}
	if (!(w->files = calloc(n ? n : 1, sizeof *w->files)))
		return NULL;
	for (; w->n < n; w->n++) {
		nm_folder_file *c = &w->files[w->n];
		c->rel = strdup(files[w->n].rel);
		c->bytes = malloc(files[w->n].len ? files[w->n].len : 1);
		c->len = files[w->n].len;
		if (!c->rel || !c->bytes) {
			w->n++; /* freed with the rest */
			return NULL;
		}
		memcpy((uint8_t *)c->bytes, files[w->n].bytes, c->len);
	}
	return w;
}

nm_status nm_folder_build(const char *path, nm_tree *t, nm_error *err)
{
	return nm_folder_build_with(path, NULL, 0, t, err);
}

nm_status nm_folder_build_with(const char *path, const nm_folder_file *files, size_t n,
			       nm_tree *t, nm_error *err)
{
	folder *f = nm_tree_alloc(t, sizeof *f);
	char *real = realpath(path, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0) {
		free(real);
		return nm_fail(err, NM_E_IO, path, NULL, NM_NO_OFFSET, "cannot open: %s",
			       strerror(errno));
	}
	if (!f || nm_tree_on_free(t, free_ptr, real) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	f->with = n ? copy_replaced(t, files, n) : NULL;
	if (n && !f->with)
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	f->path = real;
	f->rel = "";
	f->top = real;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	/* The top level is listed now: a folder that cannot be listed fails the mount. */
	return populate_folder(t, nm_tree_root(t), NULL, f, err);
}

nm_status nm_folder_open_with(const char *path, const nm_options *opt,
			      const nm_folder_file *files, size_t n, nm_tree **out,
			      nm_error *err)
{
	nm_tree *t = nm_tree_new(opt);
	if (!t)
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	nm_status s = nm_folder_build_with(path, files, n, t, err);
	if (s != NM_OK) {
		nm_tree_free(t);
		return s;
	}
	*out = t;
	return NM_OK;
}
