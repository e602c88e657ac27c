/* nmodel apply FILE DIR OUT: DIR holds FILE's tree as nmodel extract writes it, whole or
 * only the files changed; every file whose bytes differ from the tree's is an edit, and
 * OUT is FILE with every edit encoded (src/edit, doc/apply.md). A file missing from DIR
 * is no edit. Any edit that cannot be encoded: one line per problem, exit 1, no OUT.
 * OUT is written to a temporary file beside it, read back and checked, fsynced and
 * renamed; FILE is only ever opened for reading, and an OUT that is FILE is refused.
 * nmodel apply --dry-run FILE DIR lists the changes instead.
 * nmodel apply FOLDER DIR OUTDIR: each file of FOLDER with edits is applied on its own
 * and written to OUTDIR at its path below FOLDER (edit/folder.h); all are checked
 * before any is written, and files without edits are not written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/stamp.h"
#include "edit/apply.h"
#include "edit/folder.h"
#include "formats/driver.h"
#include "lib/alloc.h"
#include "lib/path.h"

static void print_line(const char *line, void *ctx)
{
	(void)ctx;
	nm_cli_error("%s", line);
}

static void print_change(const char *line, void *ctx)
{
	(void)ctx;
	printf("%s\n", line);
}

/* The whole of a regular file, name under dirfd (shown as shown), under opt's
 * max_file_size. */
static int slurp_at(int dirfd, const char *name, const char *shown, const nm_options *opt,
		    uint8_t **out, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		nm_cli_error("%s: %s", shown, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	nm_error err;
	uint8_t *b = nm_alloc(opt, st.st_size ? (size_t)st.st_size : 1, 1, &err, shown, NULL,
			      NM_NO_OFFSET);
	size_t got = 0;
	while (b && got < (size_t)st.st_size) {
		ssize_t n = read(fd, b + got, (size_t)st.st_size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!b || got != (size_t)st.st_size) {
		nm_cli_error("%s: %s", shown, b ? "changed while read" : err.msg);
		free(b);
		return -1;
	}
	*out = b;
	*len = got;
	return 0;
}

/* Where the edits go: one model's apply, or a folder's (one apply per member). */
typedef struct sink {
	nm_apply *a;
	nm_folder_apply *f;
} sink;

/* One regular file of DIR (name under dirfd, rel in the tree) as an edit. */
static int apply_one(const sink *a, int dirfd, const char *name, const char *rel,
		     const char *shown, const nm_options *opt)
{
	uint8_t *b;
	size_t len;
	nm_error err;
	if (slurp_at(dirfd, name, shown, opt, &b, &len) != 0)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_OK;
	nm_status s = a->f ? nm_folder_apply_file(a->f, rel, b, len, shown, &err)
			   : nm_apply_file(a->a, rel, b, len, shown, &err);
	if (s != NM_OK) {
		nm_cli_error("%s: %s", shown, err.msg);
		rc = NM_EXIT_FAIL;
	}
	free(b);
	return rc;
}

/* Every regular file under the directory dirfd (rel in the tree, shown as shown) as an
 * edit of the tree's file; those the extract stamp vouches for are as extracted, no
 * edit, and are not read. Paths relative to each directory's descriptor: a tree has
 * thousands of files, and a walk by whole paths spends its time looking names up. */
static int walk(const sink *a, int dirfd, const char *rel, const char *shown,
		const nm_options *opt, const nm_stamp *stamp)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		nm_cli_error("%s: %s", shown, strerror(errno));
		close(dirfd);
		return NM_EXIT_FAIL;
	}
	int rc = NM_EXIT_OK;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		/* A writable mount's own files in its overlay (fuse/overlay.h) are no edits. */
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (!rel[0] && !strcmp(e->d_name, ".nmodel-overlay")))
			continue;
		char sub[4200], full[8400];
		snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", shown, e->d_name);
		/* A link to a file is that file (an edit made by linking a new texture in);
		 * a link to a directory is not followed: it could lead back up. */
		struct stat st, lst;
		if (fstatat(dirfd, e->d_name, &lst, AT_SYMLINK_NOFOLLOW) != 0 ||
		    (S_ISLNK(lst.st_mode) ? fstatat(dirfd, e->d_name, &st, 0) != 0
					  : (st = lst, false))) {
			nm_cli_error("%s: %s", full, strerror(errno));
			rc = NM_EXIT_FAIL;
		} else if (S_ISLNK(lst.st_mode) && S_ISDIR(st.st_mode)) {
			nm_cli_error("%s: a link to a directory: not followed", full);
			rc = NM_EXIT_FAIL;
		} else if (S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				nm_cli_error("%s: %s", full, strerror(errno));
				rc = NM_EXIT_FAIL;
			} else if (walk(a, fd, sub, full, opt, stamp) != NM_EXIT_OK) {
				rc = NM_EXIT_FAIL;
			}
		} else if (S_ISREG(st.st_mode) &&
			   (S_ISLNK(lst.st_mode) || !nm_stamp_unchanged(stamp, &lst))) {
			if (apply_one(a, dirfd, e->d_name, sub, full, opt) != NM_EXIT_OK)
				rc = NM_EXIT_FAIL;
		}
	}
	closedir(d);
	return rc;
}

/* DIR walked into to (FILE's extract stamp vouching for the files it names). */
static int walk_dir(const sink *to, const char *file, const char *dir, const nm_options *opt)
{
	if (!to->a && !to->f)
		return NM_EXIT_FAIL;
	nm_stamp stamp;
	nm_stamp_read(file, dir, &stamp);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		nm_cli_error("%s: %s", dir, strerror(errno));
		return NM_EXIT_FAIL;
	}
	return walk(to, dfd, "", dir, opt, &stamp);
}

/* OUT written whole and checked (nm_apply_write); a failed check lists its problems. */
static int write_out(nm_apply *a, const char *out, const uint8_t *b, size_t len,
		     const nm_options *opt)
{
	nm_error err;
	nm_status s = nm_apply_write(a, out, b, len, opt, NULL, &err);
	if (s == NM_OK)
		return NM_EXIT_OK;
	if (s == NM_E_INVAL)
		nm_apply_each_problem(a, print_line, NULL);
	else
		nm_cli_error("%s", err.msg);
	return NM_EXIT_FAIL;
}

/* nmodel apply FOLDER DIR OUTDIR (out NULL: --dry-run). */
static int apply_folder(const char *folder, const char *dir, const char *out,
			const nm_options *given)
{
	if (out && nm_path_inside(out, folder)) {
		nm_cli_error("%s: inside %s: apply never writes into the folder it reads", out,
			     folder);
		return NM_EXIT_FAIL;
	}
	struct stat os;
	if (out && stat(out, &os) == 0 && !S_ISDIR(os.st_mode)) {
		nm_cli_error("%s: not a folder: a folder's edits are written to a folder, each "
			     "file at its path", out);
		return NM_EXIT_FAIL;
	}
	nm_options opt = *given;
	opt.editable = true;
	nm_tree *t = nm_cli_open(folder, &opt);
	if (!t)
		return NM_EXIT_FAIL;
	nm_folder_apply *f = nm_folder_apply_new(t, folder);
	sink to = { NULL, f };
	int rc = walk_dir(&to, folder, dir, &opt);
	nm_error err;
	bool changed = false;
	nm_status s = NM_OK;
	if (rc == NM_EXIT_OK)
		s = nm_folder_apply_encode(f, NULL, &changed, &err);
	if (rc == NM_EXIT_OK && s == NM_OK && changed && out)
		s = nm_folder_apply_write(f, NULL, out, &opt, &err);
	if (rc == NM_EXIT_OK && s != NM_OK) {
		if (s != NM_E_INVAL || !nm_folder_apply_problems(f))
			nm_cli_error("%s", err.msg);
		rc = NM_EXIT_FAIL;
	}
	if (f && nm_folder_apply_problems(f)) {
		nm_folder_apply_each_problem(f, print_line, NULL);
		rc = NM_EXIT_FAIL;
	}
	if (rc == NM_EXIT_OK && !out) {
		nm_folder_apply_each_change(f, print_change, NULL);
		if (!changed)
			printf("no edits: OUTDIR would get no file\n");
	} else if (rc == NM_EXIT_OK && !changed && mkdir(out, 0777) != 0 && errno != EEXIST) {
		nm_cli_error("%s: %s", out, strerror(errno));
		rc = NM_EXIT_FAIL;
	}
	nm_folder_apply_free(f);
	nm_tree_free(t);
	return rc;
}

int nm_cmd_apply(int argc, char **argv, const nm_options *given)
{
	bool dry = argc > 1 && strcmp(argv[1], "--dry-run") == 0;
	if (dry) {
		argv++;
		argc--;
	}
	if (argc != (dry ? 3 : 4))
		return nm_cli_usage_error("apply", "wrong number of arguments");
	const char *file = argv[1], *dir = argv[2], *out = dry ? NULL : argv[3];
	struct stat fs, os, ds;
	if (stat(file, &fs) != 0) {
		nm_cli_error("%s: %s", file, strerror(errno));
		return NM_EXIT_FAIL;
	}
	errno = 0;
	if (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) {
		nm_cli_error("%s: %s", dir, errno ? strerror(errno) : "not a directory");
		return NM_EXIT_FAIL;
	}
	if (S_ISDIR(fs.st_mode))
		return apply_folder(file, dir, out, given);
	if (out && stat(out, &os) == 0 && os.st_dev == fs.st_dev && os.st_ino == fs.st_ino) {
		nm_cli_error("%s: is %s itself: apply never writes the model it reads", out, file);
		return NM_EXIT_FAIL;
	}
	nm_options opt = *given;
	opt.editable = true;
	nm_tree *t = nm_cli_open(file, &opt);
	if (!t)
		return NM_EXIT_FAIL;
	nm_apply *a = nm_apply_new(t);
	sink to = { a, NULL };
	int rc = walk_dir(&to, file, dir, &opt);
	nm_out bytes;
	nm_out_init(&bytes);
	bool changed = false;
	nm_error err;
	if (rc == NM_EXIT_OK && !nm_apply_problems(a)) {
		nm_status s = nm_apply_encode(a, &bytes, &changed, &err);
		if (s != NM_OK && s != NM_E_INVAL) {
			nm_cli_error("%s", err.msg);
			rc = NM_EXIT_FAIL;
		}
	}
	if (a && nm_apply_problems(a)) {
		nm_apply_each_problem(a, print_line, NULL);
		rc = NM_EXIT_FAIL;
	}
	if (rc == NM_EXIT_OK && dry) {
		nm_apply_each_change(a, print_change, NULL);
		if (!changed)
			printf("no edits: OUT would be %s as it is\n", file);
	} else if (rc == NM_EXIT_OK && !changed) {
		/* No edit: OUT is FILE's bytes. */
		uint8_t *b = NULL;
		size_t len = 0;
		rc = slurp_at(AT_FDCWD, file, file, &opt, &b, &len) == 0
			     ? write_out(a, out, b, len, &opt)
						      : NM_EXIT_FAIL;
		free(b);
	} else if (rc == NM_EXIT_OK) {
		rc = write_out(a, out, bytes.data, bytes.len, &opt);
	}
	nm_out_free(&bytes);
	nm_apply_free(a);
	nm_tree_free(t);
	return rc;
}
