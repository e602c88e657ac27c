/* The extract stamp: `nmodel extract FILE DIR` marks DIR with an extended attribute
 * (user.nmodel.extract) naming FILE by its identity (device, inode, size, mtime) and
 * the times the extract began and ended. `nmodel apply FILE DIR` then knows a file of
 * DIR is as extract wrote it, without producing the tree's bytes to compare, when its
 * status change time (ctime) lies between the two.
 *
 * Why ctime: every write, truncate, rename into place, link or chmod sets it to the
 * current time, and no tool can set it back (touch -r, cp -p and tar set mtime only).
 * Why times read off DIR's inode and not a clock: file times come from the kernel's
 * coarse clock, one tick behind a fine one; comparing file times keeps them on one
 * clock. Every file is compared in full when the stamp names another model or DIR was
 * copied (new ctimes). The start bound
 * keeps a file system that keeps no ctimes (all zero) from vouching for every file.
 * An attribute, not a file: `diff -r` of DIR and a mount shows nothing more, and a
 * file system without user attributes only costs apply the full comparison. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include "cli/stamp.h"

#define STAMP_ATTR "user.nmodel.extract"

static int64_t ns(struct timespec ts)
{
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void identity(const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "source: %ju %ju %jd %" PRId64 "\n", (uintmax_t)st->st_dev,
		 (uintmax_t)st->st_ino, (intmax_t)st->st_size, ns(st->st_mtim));
}

/* Set dir's stamp to value, and read the time that took on dir's ctime: -1 when the
 * file system keeps no such attribute. */
static int64_t set_stamp(const char *dir, const char *value)
{
	struct stat st;
	if (setxattr(dir, STAMP_ATTR, value, strlen(value), 0) != 0 || stat(dir, &st) != 0)
		return -1;
	return ns(st.st_ctim);
}

int64_t nm_stamp_begin(const char *dir)
{
	/* An old stamp must not vouch for what this extract writes; a value it cannot
	 * already hold, so that setting it sets the time. */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	char value[64];
	snprintf(value, sizeof value, "extracting since %" PRId64 "\n", ns(now));
	return set_stamp(dir, value);
}

void nm_stamp_write(const char *file, const char *dir, int64_t begun_ns)
{
	struct stat st;
	char value[256];
	if (begun_ns < 0 || stat(file, &st) != 0)
		return;
	/* The end is the first tick after the last file written, so that every file of
	 * the extract lies before it (the coarse clock ticks every few milliseconds). */
	int64_t last = set_stamp(dir, "extracting 0\n"), ended = last;
	for (int i = 1; i < 200 && ended >= 0 && ended <= last; i++) {
		/* A value the attribute did not hold: setting the same one sets no time. */
		char tick[32];
		snprintf(tick, sizeof tick, "extracting %d\n", i);
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		ended = set_stamp(dir, tick);
	}
	if (ended <= last)
		return;
	identity(&st, value, sizeof value);
	size_t n = strlen(value);
	snprintf(value + n, sizeof value - n, "begun: %" PRId64 "\nended: %" PRId64 "\n",
		 begun_ns, ended);
	/* A stamp is only a shortcut: one that cannot be set costs apply time, never
	 * correctness, so a failure here is silent. */
	set_stamp(dir, value);
}

bool nm_stamp_read(const char *file, const char *dir, nm_stamp *s)
{
	s->valid = false;
	char value[256], want[128];
	struct stat fs;
	ssize_t n = getxattr(dir, STAMP_ATTR, value, sizeof value - 1);
	if (n <= 0 || stat(file, &fs) != 0)
		return false;
	value[n] = '\0';
	identity(&fs, want, sizeof want);
	const char *times = strncmp(value, want, strlen(want)) == 0 ? value + strlen(want) : NULL;
	s->valid = times &&
		   sscanf(times, "begun: %" SCNd64 "\nended: %" SCNd64, &s->begun_ns,
			  &s->ended_ns) == 2 &&
		   s->begun_ns > 0 && s->begun_ns <= s->ended_ns;
	return s->valid;
}

bool nm_stamp_unchanged(const nm_stamp *s, const struct stat *st)
{
	int64_t c = ns(st->st_ctim);
	return s->valid && c >= s->begun_ns && c < s->ended_ns;
}
