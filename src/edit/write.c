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

nm_status nm_apply_write(nm_apply *a, const char *out, const uint8_t *b, size_t len,
			 const nm_options *opt, nm_tree **tree, nm_error *err)
{
	char dir[4096], tmp[4200];
	const char *name = out ? out : "the new model";
	temp_dir(out, dir, sizeof dir);
	snprintf(tmp, sizeof tmp, "%s/.nmodel-apply-XXXXXX", dir);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return nm_fail(err, NM_E_IO, tmp, NULL, NM_NO_OFFSET, "%s", strerror(errno));
	nm_status s = NM_E_IO;
	nm_tree *t = NULL;
	if (write_all(fd, b, len) != 0 || fsync(fd) != 0) {
		nm_fail(err, NM_E_IO, tmp, NULL, NM_NO_OFFSET, "%s", strerror(errno));
		goto out;
	}
	if (!tree && nm_apply_edits(a) == 0) {
		/* No edit: the bytes are the model's own, which opened already. Reading them
		 * back is the whole check, and a second parse would only repeat the first. */
		s = same_bytes(fd, b, len) ? NM_OK : NM_E_IO;
		if (s != NM_OK) {
			nm_fail(err, s, tmp, NULL, NM_NO_OFFSET, "reads back other bytes than were "
				"written");
			goto out;
		}
	} else if ((s = nm_open_model(tmp, opt, &t, err)) != NM_OK) {
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
	s = NM_E_IO;
	if (out) {
		/* mkstemp made it 0600: OUT gets the mode of any new file. */
		mode_t mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) != 0 || rename(tmp, out) != 0) {
			nm_fail(err, NM_E_IO, out, NULL, NM_NO_OFFSET, "%s", strerror(errno));
			goto out;
		}
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	s = NM_OK;
out:
	close(fd);
	if (!out || s != NM_OK)
		unlink(tmp); /* the tree keeps reading it through its own descriptor */
	if (s == NM_OK && tree)
		*tree = t;
	else
		nm_tree_free(t);
	return s;
}
