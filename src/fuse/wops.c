/* The handlers of a writable mount (wops.h). Each request finds its path's place
 * (locate): the file the user is writing or was refused (the overlay's bytes), a file
 * of the tree shown (the model's file, or an edit encoded into it: the new model's
 * bytes), a file or folder only the overlay has, or /edits.txt. Names and attributes
 * are not cached by the kernel (a save changes them); pages are, until a save drops
 * them (swap.c). */
#include "fuse/writable.h" /* first: FUSE_USE_VERSION */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "fuse/ops.h"
#include "fuse/save.h"
#include "fuse/swap.h"
#include "fuse/wops.h"

#define PATH_LEN 4096

typedef enum at_kind { AT_NONE, AT_EDITS, AT_TREE, AT_DISK } at_kind;

typedef struct place {
	at_kind kind;
	bool mapped;            /* a file of the model's tree: writing it is an edit */
	bool dir;
	nm_node *node;          /* AT_TREE: in the view located in */
	char path[PATH_LEN];
	char disk[PATH_LEN + 256]; /* where the overlay keeps (or would keep) it */
} place;

typedef struct dent {
	char *name;
	fuse_ino_t ino;
	mode_t type;
} dent;

/* An open file or directory. */
typedef struct handle {
	int fd;                 /* the overlay's file, or -1 */
	nm_view *v;             /* else the view read, held until release ... */
	nm_node *node;          /* ... and the file in it */
	bool is_text;           /* or /edits.txt as it was when opened */
	uint8_t *text;
	size_t len;
	bool writable, copied_up, wrote;
	dent *ents;             /* a directory's listing, as it was when opened */
	size_t nents;
} handle;

static nm_fuse_fs *fs_of(fuse_req_t req) { return fuse_req_userdata(req); }
static nm_wfs *w_of(fuse_req_t req) { return fs_of(req)->writable; }
static handle *h_of(struct fuse_file_info *fi) { return (handle *)(uintptr_t)fi->fh; }

/* Under w->lock: where p->path is shown from, in the view v. */
static void locate(nm_wfs *w, nm_view *v, place *p)
{
	nm_node *n = NULL;
	nm_error err;
	struct stat st;
	p->kind = AT_NONE;
	p->node = NULL;
	p->dir = false;
	if (strcmp(p->path, "edits.txt") == 0) {
		p->kind = AT_EDITS;
		return;
	}
	p->mapped = nm_save_maps(w, p->path);
	nm_overlay_where(w->overlay, p->path, p->mapped, p->disk, sizeof p->disk);
	if ((*p->path && nm_overlay_hidden(w->overlay, p->path)) ||
	    nm_resolve(v->t, p->path, &n, &err) != NM_OK)
		n = NULL;
	bool on_disk = lstat(p->disk, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
	if (on_disk && S_ISREG(st.st_mode)) {
		nm_wedit *e = p->mapped ? nm_save_edit(w, p->path) : NULL;
		if (!(e && e->state == NM_EDIT_ENCODED && n)) {
			p->kind = AT_DISK;
			return;
		}
	}
	if (n) {
		p->kind = AT_TREE;
		p->node = n;
		p->dir = nm_node_type(n) == NM_NODE_DIR;
	} else if (on_disk && S_ISDIR(st.st_mode)) {
		p->kind = AT_DISK;
		p->dir = true;
	}
}

/* Under w->lock: p->path for ino (and name in it, if given). */
static bool path_of(nm_wfs *w, fuse_ino_t ino, const char *name, place *p)
{
	if (!nm_inodes_path(w->inodes, ino, p->path, sizeof p->path))
		return false;
	if (name) {
		size_t l = strlen(p->path);
		if (l + 1 + strlen(name) + 1 > sizeof p->path)
			return false;
		snprintf(p->path + l, sizeof p->path - l, "%s%s", l ? "/" : "", name);
	}
	return true;
}

/* Under w->lock: path located in the view shown; an errno when it is not there. */
static int find(nm_wfs *w, fuse_ino_t ino, const char *name, place *p)
{
	p->kind = AT_NONE;
	if (!path_of(w, ino, name, p))
		return ESTALE; /* unlinked meanwhile, or a path too long */
	locate(w, w->view, p);
	return p->kind == AT_NONE ? ENOENT : 0;
}

static void report(nm_wfs *w, nm_out *o)
{
	nm_out_init(o);
	nm_save_report(w, o);
}

/* Under w->lock. */
static int stat_of(nm_fuse_fs *fs, nm_wfs *w, const place *p, fuse_ino_t ino, struct stat *st)
{
	if (p->kind == AT_DISK) {
		if (lstat(p->disk, st) != 0)
			return errno;
		st->st_ino = ino;
		return 0;
	}
	nm_fuse_stat_source(fs, ino, st);
	/* The mount's user owns the tree: the files they write are theirs (the overlay's),
	 * and the kernel checks permissions (default_permissions) against the owner. */
	st->st_uid = getuid();
	st->st_gid = getgid();
	uint64_t size = 0;
	if (p->kind == AT_EDITS) {
		nm_out o;
		report(w, &o);
		size = o.len;
		nm_out_free(&o);
		st->st_mode = S_IFREG | 0444;
	} else if (p->dir) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	} else {
		nm_error err;
		if (nm_size(w->view->t, p->node, &size, &err) != NM_OK) {
			nm_fuse_say_error(fs, &err);
			return nm_status_errno(err.code);
		}
		st->st_mode = S_IFREG | 0644;
	}
	st->st_nlink = 1;
	st->st_size = (off_t)size;
	st->st_blocks = (blkcnt_t)((size + 511) / 512);
	return 0;
}

static void reply_entry(fuse_req_t req, fuse_ino_t ino, int rc, const struct stat *st)
{
	if (rc) {
		fuse_reply_err(req, rc);
		return;
	}
	struct fuse_entry_param e = { .ino = ino, .attr = *st };
	fuse_reply_entry(req, &e);
}

/* Under w->lock: the view's bytes of p written to its overlay file (none when empty),
 * which is made. 0 or an errno. */
static int copy_up(nm_fuse_fs *fs, nm_wfs *w, const place *p, const char *disk, bool empty)
{
	int rc = nm_overlay_parents(w->overlay, disk);
	int fd = rc ? -1 : open(disk, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return rc ? rc : errno;
	uint8_t buf[65536];
	uint64_t off = 0;
	size_t got = 1;
	nm_error err;
	while (!empty && !rc && got) {
		if (nm_read(w->view->t, p->node, off, buf, sizeof buf, &got, &err) != NM_OK) {
			nm_fuse_say_error(fs, &err);
			rc = nm_status_errno(err.code);
		} else if (got && pwrite(fd, buf, got, (off_t)off) != (ssize_t)got) {
			rc = errno ? errno : EIO;
		}
		off += got;
	}
	close(fd);
	if (rc)
		unlink(disk);
	return rc;
}

static void w_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	/* Every write reaches the overlay at once (a save reads it from there). O_TRUNC
	 * comes with the OPEN, so that a SETATTR of a size without an open file is a
	 * truncate(2) alone, saved at once (setattr below). */
	conn->want &= ~(unsigned)(FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_AUTO_INVAL_DATA |
				  FUSE_CAP_READDIRPLUS);
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	if (conn->max_write < NM_FUSE_MAX_REQUEST)
		conn->max_write = NM_FUSE_MAX_REQUEST;
}

static void w_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	nm_wfs *w = w_of(req);
	place p;
	struct stat st;
	fuse_ino_t ino = 0;
	pthread_mutex_lock(&w->lock);
	int rc = find(w, parent, name, &p);
	if (!rc && !(ino = nm_inodes_child(w->inodes, parent, name)))
		rc = ENOMEM;
	if (!rc)
		rc = stat_of(fs_of(req), w, &p, ino, &st);
	pthread_mutex_unlock(&w->lock);
	reply_entry(req, ino, rc, &st);
}

static void w_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_wfs *w = w_of(req);
	place p;
	struct stat st;
	handle *h = fi ? h_of(fi) : NULL;
	if (h && h->fd >= 0) { /* an open file, unlinked or not */
		int rc = fstat(h->fd, &st) != 0 ? errno : 0;
		st.st_ino = ino;
		if (rc)
			fuse_reply_err(req, rc);
		else
			fuse_reply_attr(req, &st, 0);
		return;
	}
	pthread_mutex_lock(&w->lock);
	int rc = find(w, ino, NULL, &p);
	if (!rc)
		rc = stat_of(fs_of(req), w, &p, ino, &st);
	pthread_mutex_unlock(&w->lock);
	if (rc)
		fuse_reply_err(req, rc);
	else
		fuse_reply_attr(req, &st, 0);
}

/* Sizes (truncation: also how the kernel asks for O_TRUNC), modes and times. The
 * model's own files take a size only: their modes and times are the mount's, and
 * chmod or touch of one succeeds and changes nothing. */
static void w_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		      struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_wfs *w = fs->writable;
	place p;
	struct stat st;
	pthread_mutex_lock(&w->lock);
	int rc = find(w, ino, NULL, &p);
	if (!rc && p.kind == AT_EDITS)
		rc = EPERM;
	if (!rc && (to_set & FUSE_SET_ATTR_SIZE)) {
		if (p.dir)
			rc = EISDIR;
		else if (p.kind == AT_TREE)
			rc = copy_up(fs, w, &p, p.disk, attr->st_size == 0);
		if (!rc && truncate(p.disk, attr->st_size) != 0)
			rc = errno;
		if (!rc && p.mapped)
			nm_save_writing(w, p.path);
		if (!rc)
			locate(w, w->view, &p);
	}
	if (!rc && p.kind == AT_DISK && (to_set & FUSE_SET_ATTR_MODE) &&
	    chmod(p.disk, attr->st_mode & 07777) != 0)
		rc = errno;
	if (!rc && p.kind == AT_DISK &&
	    (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME))) {
		struct timespec t[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT } };
		if (to_set & FUSE_SET_ATTR_ATIME)
			t[0] = to_set & FUSE_SET_ATTR_ATIME_NOW ? (struct timespec){ .tv_nsec = UTIME_NOW }
								: attr->st_atim;
		if (to_set & FUSE_SET_ATTR_MTIME)
			t[1] = to_set & FUSE_SET_ATTR_MTIME_NOW ? (struct timespec){ .tv_nsec = UTIME_NOW }
								: attr->st_mtim;
		if (utimensat(AT_FDCWD, p.disk, t, AT_SYMLINK_NOFOLLOW) != 0)
			rc = errno;
	}
	if (!rc)
		rc = stat_of(fs, w, &p, ino, &st);
	pthread_mutex_unlock(&w->lock);
	/* truncate(2) of a model's file, not through an open file (whose close saves it),
	 * is saved now. */
	if (!rc && !fi && (to_set & FUSE_SET_ATTR_SIZE) && p.mapped && (rc = nm_save(w, p.path)) == 0) {
		pthread_mutex_lock(&w->lock);
		if (!(rc = find(w, ino, NULL, &p)))
			rc = stat_of(fs, w, &p, ino, &st);
		pthread_mutex_unlock(&w->lock);
	}
	if (rc)
		fuse_reply_err(req, rc);
	else
		fuse_reply_attr(req, &st, 0);
}

static handle *new_handle(void)
{
	handle *h = calloc(1, sizeof *h);
	if (h)
		h->fd = -1;
	return h;
}

static void free_handle(nm_wfs *w, handle *h)
{
	if (!h)
		return;
	if (h->fd >= 0)
		close(h->fd);
	nm_view_drop(w, h->v);
	free(h->text);
	for (size_t i = 0; i < h->nents; i++)
		free(h->ents[i].name);
	free(h->ents);
	free(h);
}

static void w_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_wfs *w = fs->writable;
	place p;
	handle *h = new_handle();
	bool writable = (fi->flags & O_ACCMODE) != O_RDONLY;
	pthread_mutex_lock(&w->lock);
	int rc = !h ? ENOMEM : find(w, ino, NULL, &p);
	if (!rc && p.dir)
		rc = EISDIR;
	if (!rc && p.kind == AT_EDITS) {
		nm_out o;
		report(w, &o);
		h->text = nm_out_take(&o, &h->len); /* NULL when empty */
		h->is_text = true;
		rc = writable ? EACCES : 0;
		fi->direct_io = 1;
	} else if (!rc && p.kind == AT_TREE && !writable) {
		/* Read through this handle's view only, never through pages the kernel
		 * cached from another (a save may swap the tree between two opens): so a
		 * reader gets the old bytes or the new ones, never a mix. A private mmap
		 * still works; a shared one is refused (ENODEV) by the kernel. */
		h->v = w->view;
		h->v->refs++;
		h->node = p.node;
		fi->direct_io = 1;
	} else if (!rc) {
		if (p.kind == AT_TREE) {
			rc = copy_up(fs, w, &p, p.disk, (fi->flags & O_TRUNC) != 0);
			h->copied_up = true;
		}
		int flags = (fi->flags & (O_ACCMODE | O_APPEND | O_TRUNC)) | O_CLOEXEC;
		if (!rc && (h->fd = open(p.disk, flags)) < 0)
			rc = errno;
		if (!rc && writable && (fi->flags & O_TRUNC) && p.mapped)
			nm_save_writing(w, p.path);
	}
	pthread_mutex_unlock(&w->lock);
	if (rc) {
		free_handle(w, h);
		fuse_reply_err(req, rc);
		return;
	}
	h->writable = writable;
	fi->fh = (uintptr_t)h;
	fi->keep_cache = 0;
	if (fuse_reply_open(req, fi) != 0)
		free_handle(w, h);
}

static void w_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		     struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_wfs *w = fs->writable;
	place p;
	struct stat st;
	fuse_ino_t ino = 0;
	handle *h = new_handle();
	pthread_mutex_lock(&w->lock);
	int rc = !h ? ENOMEM : find(w, parent, name, &p);
	if (rc == ENOENT && p.kind == AT_NONE)
		rc = nm_overlay_parents(w->overlay, p.disk);
	else if (!rc)
		rc = EEXIST; /* the kernel looked it up first: someone made it meanwhile */
	if (!rc && (h->fd = open(p.disk, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, mode)) < 0)
		rc = errno;
	if (!rc)
		rc = nm_overlay_hide(w->overlay, p.path, false);
	if (!rc && p.mapped)
		nm_save_writing(w, p.path);
	if (!rc && !(ino = nm_inodes_child(w->inodes, parent, name)))
		rc = ENOMEM;
	if (!rc) {
		locate(w, w->view, &p);
		rc = stat_of(fs, w, &p, ino, &st);
	}
	pthread_mutex_unlock(&w->lock);
	if (rc) {
		free_handle(w, h);
		fuse_reply_err(req, rc);
		return;
	}
	h->writable = true;
	h->wrote = true;
	fi->fh = (uintptr_t)h;
	struct fuse_entry_param e = { .ino = ino, .attr = st };
	if (fuse_reply_create(req, &e, fi) != 0)
		free_handle(w, h);
}

static void w_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	handle *h = h_of(fi);
	(void)ino;
	if (h->is_text) {
		size_t at = (uint64_t)off < h->len ? (size_t)off : h->len;
		fuse_reply_buf(req, h->text ? (const char *)h->text + at : "",
			       size < h->len - at ? size : h->len - at);
	} else if (h->fd >= 0) {
		char *buf = malloc(size ? size : 1);
		ssize_t n = buf ? pread(h->fd, buf, size, off) : -1;
		if (n < 0)
			fuse_reply_err(req, buf ? errno : ENOMEM);
		else
			fuse_reply_buf(req, buf, (size_t)n);
		free(buf);
	} else {
		/* Once replied to, the kernel may release the file in another thread: the
		 * view is held here until the pinned bytes are let go. */
		nm_wfs *w = fs->writable;
		nm_view *v = h->v;
		nm_read_hold rh;
		nm_error err;
		pthread_mutex_lock(&w->lock);
		v->refs++;
		pthread_mutex_unlock(&w->lock);
		nm_status s = nm_read_pin(v->t, h->node, (uint64_t)off, size, &rh, &err);
		if (s != NM_OK) {
			nm_fuse_say_error(fs, &err);
			fuse_reply_err(req, nm_status_errno(s));
		} else {
			fuse_reply_buf(req, (const char *)rh.data, rh.len);
			nm_read_release(v->t, &rh);
		}
		nm_view_drop(w, v);
	}
}

/* Under w->lock: whether the file ino now names has been written since it was last
 * saved and maps to the model (then its path is in p). */
static bool due(nm_wfs *w, fuse_ino_t ino, place *p)
{
	if (!path_of(w, ino, NULL, p))
		return false;
	nm_wedit *e = nm_save_edit(w, p->path);
	return e && e->state == NM_EDIT_WRITING;
}

static void w_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	nm_wfs *w = w_of(req);
	handle *h = h_of(fi);
	place p;
	ssize_t n = h->fd >= 0 ? pwrite(h->fd, buf, size, off) : -1;
	if (n < 0) {
		fuse_reply_err(req, h->fd >= 0 ? errno : EBADF);
		return;
	}
	h->wrote = true;
	pthread_mutex_lock(&w->lock);
	if (path_of(w, ino, NULL, &p) && nm_save_maps(w, p.path))
		nm_save_writing(w, p.path);
	pthread_mutex_unlock(&w->lock);
	fuse_reply_write(req, (size_t)n);
}

/* A close (flush: what close(2) returns) or an fsync of a file written since its last
 * save saves it: EINVAL when the edit cannot be encoded. */
static int save_if_due(nm_wfs *w, fuse_ino_t ino, handle *h)
{
	place p;
	if (!h->writable)
		return 0;
	pthread_mutex_lock(&w->lock);
	bool now = due(w, ino, &p);
	pthread_mutex_unlock(&w->lock);
	return now ? nm_save(w, p.path) : 0;
}

static void w_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fuse_reply_err(req, save_if_due(w_of(req), ino, h_of(fi)));
}

static void w_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	handle *h = h_of(fi);
	if (h->fd >= 0 && (datasync ? fdatasync(h->fd) : fsync(h->fd)) != 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_err(req, save_if_due(w_of(req), ino, h));
}

/* A file copied into the overlay to be written, and never written, goes again: the
 * tree's file is the same (an editor that opens read-write and only reads). */
static void w_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_wfs *w = w_of(req);
	handle *h = h_of(fi);
	place p;
	if (h->copied_up && !h->wrote) {
		pthread_mutex_lock(&w->lock);
		if (path_of(w, ino, NULL, &p) && !nm_save_edit(w, p.path)) {
			p.mapped = nm_save_maps(w, p.path);
			nm_overlay_where(w->overlay, p.path, p.mapped, p.disk, sizeof p.disk);
			unlink(p.disk);
		}
		pthread_mutex_unlock(&w->lock);
	}
	free_handle(w, h);
	fuse_reply_err(req, 0);
}

static int add_dent(handle *h, size_t *cap, const char *name, fuse_ino_t ino, mode_t type)
{
	for (size_t i = 0; i < h->nents; i++)
		if (strcmp(h->ents[i].name, name) == 0)
			return 0;
	if (h->nents == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		dent *e = realloc(h->ents, c * sizeof *e);
		if (!e)
			return ENOMEM;
		h->ents = e;
		*cap = c;
	}
	char *copy = strdup(name);
	if (!copy || !ino) {
		free(copy);
		return ENOMEM;
	}
	h->ents[h->nents++] = (dent){ copy, ino, type };
	return 0;
}

/* Under w->lock: the listing of the directory p (ino): the tree's files the user did
 * not remove, then what the overlay alone holds. */
static int list(nm_wfs *w, fuse_ino_t ino, place *p, handle *h)
{
	size_t cap = 0;
	int rc = add_dent(h, &cap, ".", ino, S_IFDIR);
	if (!rc)
		rc = add_dent(h, &cap, "..", ino, S_IFDIR); /* the kernel knows the parent */
	if (!rc && !*p->path)
		rc = add_dent(h, &cap, "edits.txt", nm_inodes_child(w->inodes, ino, "edits.txt"),
			      S_IFREG);
	if (!rc && p->kind == AT_TREE) {
		nm_node **kids;
		size_t count;
		nm_error err;
		nm_children(w->view->t, p->node, &kids, &count, &err);
		for (size_t i = 0; !rc && i < count; i++) {
			const char *name = nm_node_name(kids[i]);
			char kp[2 * PATH_LEN];
			snprintf(kp, sizeof kp, "%s%s%s", p->path, *p->path ? "/" : "", name);
			if (nm_overlay_hidden(w->overlay, kp))
				continue;
			rc = add_dent(h, &cap, name, nm_inodes_child(w->inodes, ino, name),
				      nm_node_type(kids[i]) == NM_NODE_DIR ? S_IFDIR : S_IFREG);
		}
	}
	char other[PATH_LEN + 256];
	nm_overlay_where(w->overlay, p->path, false, other, sizeof other);
	DIR *d = rc ? NULL : opendir(other);
	struct dirent *e;
	while (d && !rc && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = add_dent(h, &cap, e->d_name, nm_inodes_child(w->inodes, ino, e->d_name),
				      e->d_type == DT_DIR ? S_IFDIR : S_IFREG);
	if (d)
		closedir(d);
	return rc;
}

static void w_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_wfs *w = w_of(req);
	place p;
	handle *h = new_handle();
	pthread_mutex_lock(&w->lock);
	int rc = !h ? ENOMEM : find(w, ino, NULL, &p);
	if (!rc && !p.dir)
		rc = ENOTDIR;
	if (!rc)
		rc = list(w, ino, &p, h);
	pthread_mutex_unlock(&w->lock);
	if (rc) {
		free_handle(w, h);
		fuse_reply_err(req, rc);
		return;
	}
	fi->fh = (uintptr_t)h;
	if (fuse_reply_open(req, fi) != 0)
		free_handle(w, h);
}

static void w_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	handle *h = h_of(fi);
	char *buf = malloc(size);
	size_t used = 0;
	(void)ino;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (size_t i = (size_t)off; i < h->nents; i++) {
		struct stat st = { .st_ino = h->ents[i].ino, .st_mode = h->ents[i].type };
		size_t need = fuse_add_direntry(req, buf + used, size - used, h->ents[i].name, &st,
						(off_t)i + 1);
		if (need > size - used)
			break;
		used += need;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void w_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	free_handle(w_of(req), h_of(fi));
	fuse_reply_err(req, 0);
}

static void w_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_wfs *w = fs->writable;
	place p;
	struct stat st;
	fuse_ino_t ino = 0;
	pthread_mutex_lock(&w->lock);
	int rc = find(w, parent, name, &p);
	rc = rc == ENOENT && p.kind == AT_NONE ? 0 : rc ? rc : EEXIST;
	if (!rc) {
		nm_overlay_where(w->overlay, p.path, false, p.disk, sizeof p.disk);
		rc = nm_overlay_parents(w->overlay, p.disk);
	}
	if (!rc && mkdir(p.disk, mode) != 0)
		rc = errno;
	if (!rc && !(ino = nm_inodes_child(w->inodes, parent, name)))
		rc = ENOMEM;
	if (!rc) {
		locate(w, w->view, &p);
		rc = stat_of(fs, w, &p, ino, &st);
	}
	pthread_mutex_unlock(&w->lock);
	reply_entry(req, ino, rc, &st);
}

/* The model's directories stay: they hold the model's files. */
static void w_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	nm_wfs *w = w_of(req);
	place p;
	pthread_mutex_lock(&w->lock);
	int rc = find(w, parent, name, &p);
	if (!rc && !p.dir)
		rc = ENOTDIR;
	else if (!rc && p.kind == AT_TREE)
		rc = ENOTEMPTY;
	else if (!rc && rmdir(p.disk) != 0)
		rc = errno;
	if (!rc)
		nm_inodes_detach(w->inodes, parent, name);
	pthread_mutex_unlock(&w->lock);
	fuse_reply_err(req, rc);
}

/* A file of the model removed is hidden (and its edit, if any, undone: the model gets
 * its file back as it was, though the mount no longer shows it); another file goes
 * from the overlay. */
static void w_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	nm_wfs *w = w_of(req);
	place p;
	struct stat st;
	bool undo = false;
	pthread_mutex_lock(&w->lock);
	int rc = find(w, parent, name, &p);
	if (!rc && p.kind == AT_EDITS)
		rc = EPERM;
	else if (!rc && p.dir)
		rc = EISDIR;
	if (!rc && lstat(p.disk, &st) == 0 && unlink(p.disk) != 0)
		rc = errno;
	if (!rc && p.mapped) {
		rc = nm_overlay_hide(w->overlay, p.path, true);
		undo = nm_save_move(w, p.path, NULL);
	}
	if (!rc)
		nm_inodes_detach(w->inodes, parent, name);
	pthread_mutex_unlock(&w->lock);
	if (undo)
		nm_save(w, NULL);
	fuse_reply_err(req, rc);
}

/* Under w->lock: move the file at from (located) to to's place in the overlay. */
static int move_file(nm_fuse_fs *fs, nm_wfs *w, const place *from, place *to)
{
	char disk[PATH_LEN + 256];
	struct stat st;
	nm_overlay_where(w->overlay, to->path, to->mapped, disk, sizeof disk);
	int rc = nm_overlay_parents(w->overlay, disk);
	if (rc)
		return rc;
	if (lstat(from->disk, &st) == 0 && S_ISREG(st.st_mode))
		return rename(from->disk, disk) != 0 ? errno : 0;
	return copy_up(fs, w, from, disk, false); /* a model's file nobody wrote yet */
}

static void w_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		     fuse_ino_t newparent, const char *newname, unsigned flags)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_wfs *w = fs->writable;
	place from, to;
	bool save_to = false, undo = false;
	if (flags & RENAME_EXCHANGE) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&w->lock);
	int rc = find(w, parent, name, &from);
	int there = rc ? rc : find(w, newparent, newname, &to);
	if (!rc && there != ENOENT && there != 0)
		rc = there;
	if (!rc && (from.kind == AT_EDITS || to.kind == AT_EDITS))
		rc = EPERM;
	else if (!rc && there == 0 && (flags & RENAME_NOREPLACE))
		rc = EEXIST;
	else if (!rc && from.dir) {
		/* A folder only the overlay has moves within it; the model's stay. */
		if (from.kind == AT_TREE || (there == 0 && to.kind == AT_TREE))
			rc = EXDEV;
		else {
			nm_overlay_where(w->overlay, to.path, false, to.disk, sizeof to.disk);
			rc = nm_overlay_parents(w->overlay, to.disk);
			if (!rc && rename(from.disk, to.disk) != 0)
				rc = errno;
		}
	} else if (!rc && there == 0 && to.dir) {
		rc = EISDIR;
	} else if (!rc) {
		rc = move_file(fs, w, &from, &to);
		if (!rc && from.mapped) {
			rc = nm_overlay_hide(w->overlay, from.path, true);
			undo = nm_save_move(w, from.path, NULL);
		}
		if (!rc && to.mapped) {
			rc = nm_overlay_hide(w->overlay, to.path, false);
			nm_save_move(w, to.path, NULL);
			nm_save_writing(w, to.path);
			save_to = true;
		}
	}
	if (!rc && !nm_inodes_rename(w->inodes, parent, name, newparent, newname))
		rc = ENOMEM;
	pthread_mutex_unlock(&w->lock);
	/* A file renamed over the model's (sed -i, GIO's replace, vim) is saved now: no
	 * close follows. The rename itself stands; a refusal is in /edits.txt. A model's
	 * save has every edit, the undone one's absence too; a folder's has those of the
	 * file to is in only: from's file is saved again on its own. */
	if (save_to)
		nm_save(w, to.path);
	if (undo && (!save_to || w->folder))
		nm_save(w, NULL);
	fuse_reply_err(req, rc);
}

static void w_statfs(fuse_req_t req, fuse_ino_t ino)
{
	(void)ino;
	struct statvfs sv = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = 255 };
	nm_wfs *w = w_of(req);
	char disk[PATH_LEN + 256];
	pthread_mutex_lock(&w->lock);
	nm_overlay_where(w->overlay, "", true, disk, sizeof disk);
	pthread_mutex_unlock(&w->lock);
	statvfs(disk, &sv); /* the room the overlay has */
	sv.f_flag &= ~(unsigned long)ST_RDONLY;
	fuse_reply_statfs(req, &sv);
}

/* Links, special files and extended attributes are no files of a model. */
static void w_mknod(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m, dev_t d)
{ (void)p; (void)n; (void)m; (void)d; fuse_reply_err(req, EPERM); }
static void w_symlink(fuse_req_t req, const char *l, fuse_ino_t p, const char *n)
{ (void)l; (void)p; (void)n; fuse_reply_err(req, EPERM); }
static void w_link(fuse_req_t req, fuse_ino_t i, fuse_ino_t np, const char *nn)
{ (void)i; (void)np; (void)nn; fuse_reply_err(req, EPERM); }

const struct fuse_lowlevel_ops nm_fuse_wops = {
	.init = w_init,
	.lookup = w_lookup,
	.getattr = w_getattr,
	.setattr = w_setattr,
	.open = w_open,
	.create = w_create,
	.read = w_read,
	.write = w_write,
	.flush = w_flush,
	.fsync = w_fsync,
	.release = w_release,
	.opendir = w_opendir,
	.readdir = w_readdir,
	.releasedir = w_releasedir,
	.mkdir = w_mkdir,
	.rmdir = w_rmdir,
	.unlink = w_unlink,
	.rename = w_rename,
	.statfs = w_statfs,
	.mknod = w_mknod,
	.symlink = w_symlink,
	.link = w_link,
};
