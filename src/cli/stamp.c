/* The extract stamp: `nmodel extract FILE DIR` leaves DIR/.nmodel-extract, naming FILE
 * by its identity (device, inode, size, mtime). `nmodel apply FILE DIR` then knows a
 * file of DIR is as extract wrote it, without producing the tree's bytes to compare,
 * when its status change time (ctime) falls between the extract's start and the stamp's
 * own modification time, at its end.
 *
 * Why ctime: every write, truncate, rename into place, link or chmod sets it to the
 * current time, and no tool can set it back (touch -r, cp -p and tar set mtime only).
 * Why the stamp's mtime and not a clock reading: file times come from the kernel's
 * coarse clock, one tick behind a fine one; comparing two file times keeps both on
 * the same clock. A file written in the stamp's own tick is compared in full, as is
 * every file when the stamp names another model or DIR was copied (new ctimes). The
 * start bound keeps a file system that does not keep ctimes (all zero) from vouching
 * for every file. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/stamp.h"

static int64_t ns(struct timespec ts)
{
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void identity(const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "%ju %ju %jd %" PRId64, (uintmax_t)st->st_dev, (uintmax_t)st->st_ino,
		 (intmax_t)st->st_size, ns(st->st_mtim));
}

/* The stamp's path, with no stamp there: an old one vouches for nothing new. */
static void stamp_path(const char *dir, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, NM_STAMP_NAME);
	unlink(path);
}

int64_t nm_stamp_begin(const char *dir)
{
	char path[4200];
	stamp_path(dir, path, sizeof path);
	struct stat st;
	FILE *f = fopen(path, "w");
	int64_t begun = f && fclose(f) == 0 && stat(path, &st) == 0 ? ns(st.st_mtim) : -1;
	unlink(path);
	return begun;
}

void nm_stamp_write(const char *file, const char *dir, int64_t begun_ns)
{
	struct stat st;
	char path[4200], id[128];
	stamp_path(dir, path, sizeof path);
	if (begun_ns < 0 || stat(file, &st) != 0)
		return;
	identity(&st, id, sizeof id);
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	/* A stamp is only an optimisation: one that cannot be written costs apply time,
	 * never correctness, so a failure here is silent and leaves no stamp. */
	fprintf(f, "# nmodel extract of %s: files older than this one are as extracted\n"
		   "source: %s\nbegun: %" PRId64 "\n", file, id, begun_ns);
	if (fclose(f) != 0)
		unlink(path);
}

bool nm_stamp_read(const char *file, const char *dir, nm_stamp *s)
{
	s->valid = false;
	char path[4200], id[128], line[512], want[600];
	snprintf(path, sizeof path, "%s/%s", dir, NM_STAMP_NAME);
	struct stat st, fs;
	if (stat(file, &fs) != 0 || stat(path, &st) != 0)
		return false;
	identity(&fs, id, sizeof id);
	snprintf(want, sizeof want, "source: %s\n", id);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool source = false, begun = false;
	while (fgets(line, sizeof line, f)) {
		source |= strcmp(line, want) == 0;
		begun |= sscanf(line, "begun: %" SCNd64, &s->begun_ns) == 1;
	}
	fclose(f);
	s->mtime_ns = ns(st.st_mtim);
	s->valid = source && begun && s->begun_ns > 0 && s->begun_ns <= s->mtime_ns;
	return s->valid;
}

bool nm_stamp_unchanged(const nm_stamp *s, const struct stat *st)
{
	int64_t c = ns(st->st_ctim);
	return s->valid && c >= s->begun_ns && c < s->mtime_ns;
}
