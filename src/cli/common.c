#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "formats/driver.h"

void nm_cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	flockfile(stderr); /* one line, whole, when extract's threads report at once */
	fputs("nmodel: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
	va_end(ap);
}

/* The model this run opened: its messages name it as the user gave it. */
static const char *model_path;

/* A library message, naming the model by the path the user gave. */
static void say(const char *prefix, const nm_error *err)
{
	char msg[sizeof err->msg + 4096];
	nm_error_named(err, model_path, msg, sizeof msg);
	if (prefix)
		nm_cli_error("%s: %s", prefix, msg);
	else
		nm_cli_error("%s", msg);
}

nm_tree *nm_cli_open(const char *file, const nm_options *opt)
{
	nm_tree *t;
	nm_error err;
	model_path = file;
	if (nm_open_model(file, opt, &t, &err) != NM_OK) {
		say(NULL, &err);
		return NULL;
	}
	return t;
}

nm_node *nm_cli_open_path(const char *file, const char *path, const nm_options *opt,
			  nm_tree **t)
{
	nm_node *n;
	nm_error err;
	*t = nm_cli_open(file, opt);
	if (!*t)
		return NULL;
	nm_status s = nm_resolve(*t, path, &n, &err);
	if (s == NM_OK)
		return n;
	/* A missing path's message names the path only; a failed directory's names the
	 * model and the chunk already. */
	if (s == NM_E_NOENT || s == NM_E_NOTDIR)
		nm_cli_error("%s: %s", file, err.msg);
	else
		say(NULL, &err);
	nm_tree_free(*t);
	*t = NULL;
	return NULL;
}

int nm_cli_each_child(nm_tree *t, nm_node *dir, const char *path, nm_cli_child_fn fn,
		      void *ctx)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	int rc = NM_EXIT_OK;
	if (nm_children(t, dir, &kids, &n, &err) != NM_OK) {
		say(NULL, &err);
		rc = NM_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		char child[4096];
		const char *name = nm_node_name(kids[i]);
		int w = snprintf(child, sizeof child, "%s%s%s", path, strcmp(path, "/") ? "/" : "",
				 name);
		/* Never go on with a cut path: it would be another file's. */
		if (w < 0 || (size_t)w >= sizeof child) {
			nm_cli_error("%s/%s: path too long", path, name);
			rc = NM_EXIT_FAIL;
		} else if (fn(t, kids[i], child, ctx) != NM_EXIT_OK) {
			rc = NM_EXIT_FAIL;
		}
	}
	return rc;
}

/* Written from the tree's own bytes (nm_read_pin: a produced file's cache entry, a
 * text), in pieces of this size: a slice's are read into a buffer this large. Any thread
 * may copy (extract -j). */
#define COPY_PIECE (1u << 20)

int nm_cli_copy(nm_tree *t, nm_node *n, int fd, const char *shown)
{
	uint64_t off = 0;
	nm_error err;
	for (;;) {
		nm_read_hold h;
		if (nm_read_pin(t, n, off, COPY_PIECE, &h, &err) != NM_OK) {
			say(shown, &err);
			return NM_EXIT_FAIL;
		}
		if (h.len == 0)
			return NM_EXIT_OK;
		for (size_t done = 0; done < h.len;) {
			ssize_t w = write(fd, h.data + done, h.len - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				nm_cli_error("%s: write failed: %s", shown, strerror(errno));
				nm_read_release(t, &h);
				return NM_EXIT_FAIL;
			}
			done += (size_t)w;
		}
		off += h.len;
		nm_read_release(t, &h);
	}
}

int nm_cli_make_dir(const char *path)
{
	struct stat st;
	if (mkdir(path, 0755) == 0)
		return 0;
	if (errno == EEXIST && stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		errno = ENOTDIR;
	else if (errno == EEXIST)
		return 0;
	nm_cli_error("%s: cannot create directory: %s", path, strerror(errno));
	return -1;
}

int nm_cli_make_dirs(const char *path)
{
	char *p = strdup(path);
	int rc = 0;
	if (!p) {
		nm_cli_error("%s: out of memory", path);
		return -1;
	}
	/* Each parent in turn: cut the path at every slash after the first character. */
	for (char *s = *p ? strchr(p + 1, '/') : NULL; s && rc == 0; s = strchr(s + 1, '/')) {
		*s = '\0';
		rc = nm_cli_make_dir(p);
		*s = '/';
	}
	if (rc == 0)
		rc = nm_cli_make_dir(path);
	free(p);
	return rc;
}
