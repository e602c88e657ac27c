#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuse/overlay.h"

struct nm_overlay {
	char *dir;
	bool private_dir;  /* made here, removed at close */
	char **hidden;     /* the tree's paths the user removed */
	size_t nhidden, caphidden;
};

/* Remove path and everything under it (the private overlay at unmount). */
static void remove_all(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4200];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			remove_all(sub);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static int add_hidden(nm_overlay *o, const char *path)
{
	if (o->nhidden == o->caphidden) {
		size_t c = o->caphidden ? o->caphidden * 2 : 16;
		char **h = realloc(o->hidden, c * sizeof *h);
		if (!h)
			return ENOMEM;
		o->hidden = h;
		o->caphidden = c;
	}
	if (!(o->hidden[o->nhidden] = strdup(path)))
		return ENOMEM;
	o->nhidden++;
	return 0;
}

static void load_hidden(nm_overlay *o)
{
	char file[4200], line[4200];
	snprintf(file, sizeof file, "%s/" NM_OVERLAY_OWN "/hidden", o->dir);
	FILE *f = fopen(file, "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			add_hidden(o, line);
	}
	fclose(f);
}

/* The list written whole to a temporary file and renamed over the old one. */
static int save_hidden(const nm_overlay *o)
{
	char file[4200], tmp[4300];
	snprintf(file, sizeof file, "%s/" NM_OVERLAY_OWN "/hidden", o->dir);
	snprintf(tmp, sizeof tmp, "%s.new", file);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return errno;
	for (size_t i = 0; i < o->nhidden; i++)
		fprintf(f, "%s\n", o->hidden[i]);
	int rc = fflush(f) != 0 || fsync(fileno(f)) != 0 ? errno : 0;
	if (fclose(f) != 0 && !rc)
		rc = errno;
	if (!rc && rename(tmp, file) != 0)
		rc = errno;
	return rc;
}

nm_overlay *nm_overlay_open(const char *dir, nm_error *err)
{
	nm_overlay *o = calloc(1, sizeof *o);
	char path[4200];
	if (!o) {
		nm_fail(err, NM_E_NOMEM, dir, NULL, NM_NO_OFFSET, "out of memory");
		return NULL;
	}
	if (!dir) {
		const char *run = getenv("XDG_RUNTIME_DIR");
		snprintf(path, sizeof path, "%s/nmodel-overlay-XXXXXX",
			 run && *run ? run : "/dev/shm");
		if (!mkdtemp(path)) {
			nm_fail(err, NM_E_IO, path, NULL, NM_NO_OFFSET,
				"cannot make the overlay: %s", strerror(errno));
			free(o);
			return NULL;
		}
		o->private_dir = true;
		dir = path;
	} else if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		nm_fail(err, NM_E_IO, dir, NULL, NM_NO_OFFSET, "cannot make the overlay: %s",
			strerror(errno));
		free(o);
		return NULL;
	}
	o->dir = realpath(dir, NULL);
	char own[4300];
	snprintf(own, sizeof own, "%s/" NM_OVERLAY_OWN "/other", o->dir ? o->dir : "");
	if (!o->dir || nm_overlay_parents(o, own) != 0 ||
	    (mkdir(own, 0777) != 0 && errno != EEXIST)) {
		nm_fail(err, NM_E_IO, dir, NULL, NM_NO_OFFSET, "cannot use it as the overlay: %s",
			strerror(errno));
		nm_overlay_close(o);
		return NULL;
	}
	load_hidden(o);
	return o;
}

void nm_overlay_close(nm_overlay *o)
{
	if (!o)
		return;
	if (o->private_dir && o->dir)
		remove_all(o->dir);
	for (size_t i = 0; i < o->nhidden; i++)
		free(o->hidden[i]);
	free(o->hidden);
	free(o->dir);
	free(o);
}

void nm_overlay_where(const nm_overlay *o, const char *path, bool mapped, char *buf,
		      size_t size)
{
	snprintf(buf, size, "%s/%s%s", o->dir, mapped ? "" : NM_OVERLAY_OWN "/other/", path);
}

int nm_overlay_parents(const nm_overlay *o, const char *disk)
{
	char p[4200];
	snprintf(p, sizeof p, "%s", disk);
	size_t root = strlen(o->dir);
	for (char *s = p + root + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			return errno;
		*s = '/';
	}
	return 0;
}

bool nm_overlay_hidden(const nm_overlay *o, const char *path)
{
	for (size_t i = 0; i < o->nhidden; i++)
		if (strcmp(o->hidden[i], path) == 0)
			return true;
	return false;
}

int nm_overlay_hide(nm_overlay *o, const char *path, bool hide)
{
	if (hide == nm_overlay_hidden(o, path))
		return 0;
	if (hide) {
		int rc = add_hidden(o, path);
		if (rc)
			return rc;
	} else {
		for (size_t i = 0; i < o->nhidden; i++)
			if (strcmp(o->hidden[i], path) == 0) {
				free(o->hidden[i]);
				o->hidden[i] = o->hidden[--o->nhidden];
				break;
			}
	}
	return save_hidden(o);
}

static void each_under(const nm_overlay *o, const char *rel,
		       void (*fn)(const char *path, void *ctx), void *ctx)
{
	char path[4200];
	snprintf(path, sizeof path, "%s%s%s", o->dir, *rel ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (!*rel && !strcmp(e->d_name, NM_OVERLAY_OWN)))
			continue;
		char sub[4200], full[8400];
		struct stat st;
		snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", o->dir, sub);
		if (lstat(full, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			each_under(o, sub, fn, ctx);
		else if (S_ISREG(st.st_mode))
			fn(sub, ctx);
	}
	closedir(d);
}

void nm_overlay_each_edit(const nm_overlay *o, void (*fn)(const char *path, void *ctx),
			  void *ctx)
{
	each_under(o, "", fn, ctx);
}
