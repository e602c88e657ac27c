#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edit/apply.h"
#include "edit/folder.h"
#include "fuse/log.h"
#include "fuse/loop.h"
#include "fuse/save.h"
#include "fuse/swap.h"
#include "lib/alloc.h"

bool nm_save_maps(nm_wfs *w, const char *path)
{
	nm_node *n;
	nm_error err;
	return *path && nm_resolve(w->base, path, &n, &err) == NM_OK &&
	       nm_node_type(n) != NM_NODE_DIR;
}

nm_wedit *nm_save_edit(nm_wfs *w, const char *path)
{
	for (size_t i = 0; i < w->nedits; i++)
		if (strcmp(w->edits[i].path, path) == 0)
			return &w->edits[i];
	return NULL;
}

static void set_state(nm_wedit *e, nm_edit_state state, char *why)
{
	free(e->why);
	e->state = state;
	e->why = why;
}

void nm_save_writing(nm_wfs *w, const char *path)
{
	nm_wedit *e = nm_save_edit(w, path);
	if (!e) {
		if (w->nedits == w->capedits) {
			size_t c = w->capedits ? w->capedits * 2 : 16;
			nm_wedit *more = realloc(w->edits, c * sizeof *more);
			if (!more)
				return;
			w->edits = more;
			w->capedits = c;
		}
		char *copy = strdup(path);
		if (!copy)
			return;
		e = &w->edits[w->nedits++];
		*e = (nm_wedit){ .path = copy };
	}
	set_state(e, NM_EDIT_WRITING, NULL);
}

bool nm_save_move(nm_wfs *w, const char *path, const char *to)
{
	nm_wedit *e = nm_save_edit(w, path);
	if (!e)
		return false;
	bool encoded = e->state == NM_EDIT_ENCODED;
	free(e->path);
	free(e->why);
	*e = w->edits[--w->nedits];
	if (to)
		nm_save_writing(w, to);
	return encoded;
}

/* The whole overlay file at disk (under max_file_size), or NULL with err set. */
static uint8_t *slurp(const char *disk, const nm_options *opt, size_t *len, nm_error *err)
{
	int fd = open(disk, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		nm_fail(err, NM_E_IO, disk, NULL, NM_NO_OFFSET, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	uint8_t *b = nm_alloc(opt, st.st_size ? (size_t)st.st_size : 1, 1, err, disk, NULL,
			      NM_NO_OFFSET);
	size_t got = 0;
	while (b && got < (size_t)st.st_size) {
		ssize_t n = pread(fd, b + got, (size_t)st.st_size - got, (off_t)got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (b && got != (size_t)st.st_size) {
		nm_fail(err, NM_E_IO, disk, NULL, NM_NO_OFFSET, "changed while read");
		free(b);
		return NULL;
	}
	*len = got;
	return b;
}

/* The problems of a (or of the folder's members), one a line, as /edits.txt keeps them
 * (malloc'd). */
static void add_line(const char *line, void *ctx)
{
	nm_out *o = ctx;
	nm_out_str(o, line);
	nm_out_char(o, '\n');
}

static char *problems_of(nm_apply *a, nm_folder_apply *f, const char *extra)
{
	nm_out o;
	nm_out_init(&o);
	if (a)
		nm_apply_each_problem(a, add_line, &o);
	if (f)
		nm_folder_apply_each_problem(f, add_line, &o);
	if (extra)
		add_line(extra, &o);
	nm_out_char(&o, '\0');
	size_t len;
	return (char *)nm_out_take(&o, &len);
}

/* The paths of the edits to encode: those encoded, and path. Under w->lock. */
static char **edits_to_encode(nm_wfs *w, const char *path, size_t *count)
{
	char **list = calloc(w->nedits + 1, sizeof *list);
	size_t n = 0;
	for (size_t i = 0; list && i < w->nedits; i++)
		if (w->edits[i].state == NM_EDIT_ENCODED &&
		    (!path || strcmp(w->edits[i].path, path) != 0))
			list[n++] = strdup(w->edits[i].path);
	if (list && path)
		list[n++] = strdup(path);
	*count = n;
	return list;
}

/* The bytes the user wrote to path (its overlay file), or NULL with err set. */
static uint8_t *edited_bytes(nm_wfs *w, const char *path, size_t *len, nm_error *err)
{
	char disk[4200];
	if (!path) {
		nm_fail(err, NM_E_NOMEM, w->source, NULL, NM_NO_OFFSET, "out of memory");
		return NULL;
	}
	pthread_mutex_lock(&w->lock);
	nm_overlay_where(w->overlay, path, true, disk, sizeof disk);
	pthread_mutex_unlock(&w->lock);
	return slurp(disk, &w->opt, len, err);
}

/* The bytes of the new model with every edit in list, into a; the model file's own
 * bytes when nothing changes. NM_E_INVAL: a problem (in a). */
static nm_status encode(nm_wfs *w, nm_apply *a, char **list, size_t n, nm_out *bytes,
			bool *changed, nm_error *err)
{
	for (size_t i = 0; i < n; i++) {
		size_t len;
		uint8_t *b = edited_bytes(w, list[i], &len, err);
		if (!b)
			return err->code;
		nm_status s = nm_apply_file(a, list[i], b, len, list[i], err);
		free(b);
		if (s != NM_OK)
			return s;
	}
	if (nm_apply_problems(a))
		return NM_E_INVAL;
	nm_status s = nm_apply_encode(a, bytes, changed, err);
	if (s != NM_OK || nm_apply_problems(a))
		return s != NM_OK ? s : NM_E_INVAL;
	if (!*changed && w->save) {
		/* No edit (all undone): OUT is the model file's bytes, as nmodel apply
		 * writes it. */
		size_t len;
		uint8_t *b = slurp(w->source, &w->opt, &len, err);
		if (!b)
			return err->code;
		nm_out_write(bytes, b, len);
		free(b);
	}
	return NM_OK;
}

/* A model file's save: every edit in list encoded, OUT written, *t the new tree (NULL:
 * nothing changes, the base tree). */
static nm_status save_file(nm_wfs *w, nm_apply *a, char **list, size_t n, nm_tree **t,
			   nm_error *err)
{
	nm_out bytes;
	nm_out_init(&bytes);
	bool changed = false;
	nm_status s = encode(w, a, list, n, &bytes, &changed, err);
	if (s == NM_OK && (changed || w->save))
		s = nm_apply_write(a, w->save, bytes.data, bytes.len, &w->opt,
				   changed ? t : NULL, err);
	nm_out_free(&bytes);
	return s;
}

/* One member of a folder saved: the edits of list that lie in it, applied afresh,
 * encoded and written to save=/REL (edit/folder.h). */
static nm_status save_member(nm_wfs *w, const char *rel, char **list, size_t n,
			     nm_error *err)
{
	nm_folder_apply *f = w->folder;
	char in[4200];
	nm_folder_apply_forget(f, NULL);
	for (size_t i = 0; i < n; i++) {
		if (!list[i])
			return nm_fail(err, NM_E_NOMEM, w->source, NULL, NM_NO_OFFSET,
				       "out of memory");
		nm_folder_member(f, list[i], in, sizeof in);
		if (strcmp(in, rel) != 0)
			continue;
		size_t len;
		uint8_t *b = edited_bytes(w, list[i], &len, err);
		if (!b)
			return err->code;
		nm_status s = nm_folder_apply_file(f, list[i], b, len, list[i], err);
		free(b);
		if (s != NM_OK)
			return s;
	}
	nm_status s = nm_folder_apply_encode(f, rel, NULL, err);
	return s == NM_OK ? nm_folder_apply_write(f, rel, w->save, &w->opt, err) : s;
}

/* A folder's save: the member path lies in, or (path NULL: an edit undone) every member
 * shown with new bytes, saved on its own (a member whose encoded edits change nothing
 * has no new bytes, and undoing one changes nothing either); *t the folder showing
 * every member's new bytes (NULL: none, the base tree). */
static nm_status save_folder(nm_wfs *w, char **list, size_t n, const char *path,
			     nm_tree **t, nm_error *err)
{
	nm_folder_apply *f = w->folder;
	char rel[4200];
	nm_status s = NM_OK;
	size_t shown = 0;
	if (path) {
		nm_folder_member(f, path, rel, sizeof rel);
		s = save_member(w, rel, list, n, err);
	}
	while (!path && nm_folder_apply_shown(f, shown))
		shown++;
	/* From the last: a member that becomes its own file again leaves the list. */
	for (size_t i = shown; s == NM_OK && i-- > 0;) {
		snprintf(rel, sizeof rel, "%s", nm_folder_apply_shown(f, i));
		s = save_member(w, rel, list, n, err);
	}
	if (s == NM_OK && nm_folder_apply_shown(f, 0))
		s = nm_folder_apply_open(f, &w->opt, t, err);
	return s;
}

int nm_save(nm_wfs *w, const char *path)
{
	/* An encode is long work: another thread takes the kernel's next requests. */
	nm_fuse_loop_step_aside();
	pthread_mutex_lock(&w->save_lock);
	pthread_mutex_lock(&w->lock);
	size_t n;
	char **list = edits_to_encode(w, path, &n);
	pthread_mutex_unlock(&w->lock);
	nm_apply *a = list && !w->folder ? nm_apply_new(w->base) : NULL;
	nm_error err = { 0 };
	nm_tree *t = NULL;
	nm_status s = !list || (!a && !w->folder)
			      ? nm_fail(&err, NM_E_NOMEM, w->source, NULL, NM_NO_OFFSET,
					"out of memory")
		      : w->folder ? save_folder(w, list, n, path, &t, &err)
				  : save_file(w, a, list, n, &t, &err);
	size_t problems = a ? nm_apply_problems(a) : w->folder ? nm_folder_apply_problems(w->folder) : 0;
	if (s == NM_OK) {
		nm_view_swap(w, t); /* no change: the base tree again */
		pthread_mutex_lock(&w->lock);
		nm_wedit *e = path ? nm_save_edit(w, path) : NULL;
		if (e)
			set_state(e, NM_EDIT_ENCODED, NULL);
		pthread_mutex_unlock(&w->lock);
	} else {
		bool listed = s == NM_E_INVAL && problems;
		char *why = s == NM_E_INVAL ? problems_of(a, w->folder, listed ? NULL : err.msg)
					    : problems_of(NULL, NULL, err.msg);
		const char *said = why ? why : err.msg;
		size_t len = strlen(said);
		nm_fuse_say("%s: not saved: %.*s", path ? path : w->source,
			    (int)(len && said[len - 1] == '\n' ? len - 1 : len), said);
		pthread_mutex_lock(&w->lock);
		nm_wedit *e = path ? nm_save_edit(w, path) : NULL;
		if (e)
			set_state(e, NM_EDIT_REFUSED, why);
		else
			free(why);
		pthread_mutex_unlock(&w->lock);
	}
	if (w->folder)
		nm_folder_apply_forget(w->folder, NULL);
	nm_apply_free(a);
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
	pthread_mutex_unlock(&w->save_lock);
	return s == NM_OK ? 0 : s == NM_E_INVAL ? EINVAL : EIO;
}

static void resume_one(const char *path, void *ctx)
{
	nm_wfs *w = ctx;
	if (nm_save_maps(w, path))
		nm_save_writing(w, path);
}

void nm_save_resume(nm_wfs *w)
{
	nm_overlay_each_edit(w->overlay, resume_one, w);
	for (size_t i = 0; i < w->nedits; i++) {
		char *path = strdup(w->edits[i].path);
		if (path)
			nm_save(w, path);
		free(path);
	}
}

void nm_save_report(nm_wfs *w, nm_out *o)
{
	for (size_t i = 0; i < w->nedits; i++) {
		const nm_wedit *e = &w->edits[i];
		if (e->state != NM_EDIT_REFUSED) {
			nm_out_printf(o, "%s: %s\n", e->path,
				      e->state == NM_EDIT_ENCODED ? "encoded" : "being written");
			continue;
		}
		for (const char *l = e->why; l && *l;) {
			const char *nl = strchr(l, '\n');
			size_t len = nl ? (size_t)(nl - l) : strlen(l);
			nm_out_printf(o, "%s: refused: %.*s\n", e->path, (int)len, l);
			l += len + (nl != NULL);
		}
	}
}
