/* A new model file written whole or not at all, and checked (apply.h: nm_apply_write).
 * Shared by nmodel apply and the writable mount, which both promise that OUT is the
 * previous file or the new complete one, never a part. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edit/apply.h"
#include "formats/driver.h"

static int write_all(int fd, const uint8_t *b, size_t len)
{
	while (len) {
		ssize_t n = write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* fd, from its start, holds exactly b[0..len). */
static bool same_bytes(int fd, const uint8_t *b, size_t len)
{
	uint8_t buf[65536];
	size_t at = 0;
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof buf, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (size_t)n > len - at || memcmp(buf, b + at, (size_t)n) != 0)
			return false;
		if (n == 0)
			return at == len;
		at += (size_t)n;
	}
}

/* The directory a temporary file for out goes in: out's own (a rename never crosses
 * filesystems), or $TMPDIR when there is no out. */
static void temp_dir(const char *out, char *dir, size_t size)
{
	if (!out) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, size, "%s", t && *t ? t : "/tmp");
		return;
	}
	char *copy = strdup(out);
	snprintf(dir, size, "%s", copy ? dirname(copy) : ".");
	free(copy);
}

nm_status nm_apply_stage(nm_apply *a, const char *out, const uint8_t *b, size_t len,
			 const nm_options *opt, nm_apply_open_fn open, void *ctx,
			 nm_tree **tree, nm_apply_staged *st, nm_error *err)
{
	const char *name = out ? out : "the new model";
	*st = (nm_apply_staged){ .fd = -1, .out = out };
	temp_dir(out, st->dir, sizeof st->dir);
	snprintf(st->tmp, sizeof st->tmp, "%s/.nmodel-apply-XXXXXX", st->dir);
	int fd = mkstemp(st->tmp);
	if (fd < 0)
		return nm_fail(err, NM_E_IO, st->tmp, NULL, NM_NO_OFFSET, "%s", strerror(errno));
	nm_status s = NM_E_IO;
	nm_tree *t = NULL;
	if (write_all(fd, b, len) != 0 || fsync(fd) != 0) {
		nm_fail(err, NM_E_IO, st->tmp, NULL, NM_NO_OFFSET, "%s", strerror(errno));
		goto out;
	}
	if (!tree && nm_apply_edits(a) == 0) {
		/* No edit: the bytes are the model's own, which opened already. Reading them
		 * back is the whole check, and a second parse would only repeat the first. */
		s = same_bytes(fd, b, len) ? NM_OK : NM_E_IO;
		if (s != NM_OK) {
			nm_fail(err, s, st->tmp, NULL, NM_NO_OFFSET, "reads back other bytes than "
				"were written");
			goto out;
		}
	} else if ((s = open ? open(ctx, st->tmp, b, len, opt, &t, err)
			     : nm_open_model(st->tmp, opt, &t, err)) != NM_OK) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		nm_fail(err, s, name, NULL, NM_NO_OFFSET, "the new model does not open: %s", why);
		goto out;
	}
	if (t && nm_apply_verify(a, t, err)) {
		s = nm_fail(err, NM_E_INVAL, name, NULL, NM_NO_OFFSET,
			    "the new model does not read back as encoded");
		goto out;
	}
	s = NM_OK;
out:
	st->fd = fd;
	if (s != NM_OK)
		nm_apply_discard(st);
	if (s == NM_OK && tree)
		*tree = t;
	else
		nm_tree_free(t);
	return s;
}

void nm_apply_discard(nm_apply_staged *st)
{
	if (st->fd < 0)
		return;
	close(st->fd);
	unlink(st->tmp); /* a tree keeps reading it through its own descriptor */
	st->fd = -1;
}

nm_status nm_apply_commit(nm_apply_staged *st, nm_error *err)
{
	if (!st->out) {
		nm_apply_discard(st);
		return NM_OK;
	}
	/* mkstemp made it 0600: OUT gets the mode of any new file. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(st->fd, 0666 & ~mask) != 0 || rename(st->tmp, st->out) != 0) {
		nm_status s = nm_fail(err, NM_E_IO, st->out, NULL, NM_NO_OFFSET, "%s",
				      strerror(errno));
		nm_apply_discard(st);
		return s;
	}
	int dfd = open(st->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	close(st->fd);
	st->fd = -1;
	return NM_OK;
}

nm_status nm_apply_write(nm_apply *a, const char *out, const uint8_t *b, size_t len,
			 const nm_options *opt, nm_tree **tree, nm_error *err)
{
	nm_apply_staged st;
	nm_status s = nm_apply_stage(a, out, b, len, opt, NULL, NULL, tree, &st, err);
	if (s == NM_OK && (s = nm_apply_commit(&st, err)) != NM_OK && tree) {
		nm_tree_free(*tree);
		*tree = NULL;
	}
	return s;
}
