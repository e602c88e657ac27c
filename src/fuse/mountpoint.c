#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuse/log.h"
#include "fuse/mountpoint.h"

/* Something is mounted on dir when it sits on another device than its parent, or when it
 * is its own parent (/). */
static int is_mounted_on(const char *abs, const struct stat *st)
{
	struct stat parent;
	char *up = malloc(strlen(abs) + sizeof "/..");
	if (!up)
		return 0;
	sprintf(up, "%s/..", abs);
	int busy = stat(up, &parent) == 0 &&
		   (parent.st_dev != st->st_dev || parent.st_ino == st->st_ino);
	free(up);
	return busy;
}

char *nm_fuse_check_mountpoint(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		if (errno == ENOENT)
			nm_fuse_say("%s: mount point does not exist", dir);
		else
			nm_fuse_say("%s: mount point: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		nm_fuse_say("%s: mount point is not a directory", dir);
		return NULL;
	}
	char *abs = realpath(dir, NULL);
	if (!abs) {
		nm_fuse_say("%s: mount point: %s", dir, strerror(errno));
		return NULL;
	}
	if (is_mounted_on(abs, &st)) {
		nm_fuse_say("%s: mount point is busy (something is mounted there)", dir);
		free(abs);
		return NULL;
	}
	return abs;
}
