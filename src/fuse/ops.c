#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse/log.h"
#include "fuse/loop.h"
#include "fuse/ops.h"
#include "fuse/ahead.h"
#include "fuse/prefill.h"

void nm_fuse_say_error(const nm_fuse_fs *fs, const nm_error *err)
{
	char msg[sizeof err->msg + 4096];
	nm_fuse_say("%s", nm_error_named(err, fs->path, msg, sizeof msg));
}

/* The content never changes while mounted: let the kernel cache names and attributes. */
#define FOREVER 86400.0

static nm_fuse_fs *fs_of(fuse_req_t req) { return fuse_req_userdata(req); }

/* Inode numbers are node ids (the root's is 1, FUSE_ROOT_ID): they stay valid when the
 * tree evicts an archive member's nodes. A request holds its node from here until
 * done (put), so that nothing it uses is evicted under it; on failure the request has
 * been answered. */
static nm_node *hold(fuse_req_t req, nm_fuse_fs *fs, fuse_ino_t ino)
{
	nm_node *n;
	nm_error err;
	nm_status s = nm_node_get(fs->tree, ino, &n, &err);
	if (s != NM_OK) {
		fuse_reply_err(req, nm_status_errno(s));
		return NULL;
	}
	return n;
}

static void put(nm_fuse_fs *fs, nm_node *n) { nm_node_put(fs->tree, n); }

void nm_fuse_stat_source(const nm_fuse_fs *fs, uint64_t ino, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_ino = ino;
	st->st_uid = fs->source.st_uid;
	st->st_gid = fs->source.st_gid;
	st->st_atim = fs->source.st_atim;
	st->st_mtim = fs->source.st_mtim;
	st->st_ctim = fs->source.st_ctim;
	st->st_blksize = 4096;
}

static int fill_stat(nm_fuse_fs *fs, nm_node *n, struct stat *st)
{
	nm_error err;
	uint64_t size;
	if (nm_size(fs->tree, n, &size, &err) != NM_OK) {
		nm_fuse_say_error(fs, &err);
		return nm_status_errno(err.code);
	}
	nm_fuse_stat_source(fs, nm_node_id(n), st);
	if (nm_node_type(n) == NM_NODE_DIR) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = (off_t)size;
		st->st_blocks = (blkcnt_t)((size + 511) / 512);
	}
	return 0;
}

/* Round trips are most of what a mount costs once the decoders are fast, so the kernel
 * is asked to keep everything it can: the source cannot change without every read
 * failing with EIO (the reader checks), so nothing needs revalidating. */
static int entry_of(nm_fuse_fs *fs, nm_node *n, struct fuse_entry_param *e)
{
	*e = (struct fuse_entry_param){ .ino = nm_node_id(n), .attr_timeout = FOREVER,
					.entry_timeout = FOREVER };
	return fill_stat(fs, n, &e->attr);
}

static void fs_init(void *data, struct fuse_conn_info *conn)
{
	nm_fuse_fs *fs = data;
	/* No writeback, no locks: a read-only tree that the page cache can keep. */
	conn->want &= ~(unsigned)(FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_AUTO_INVAL_DATA);
	/* A listing brings every entry's attributes (sizes are known at mount), so `ls -l`
	 * or a file manager needs no LOOKUP per entry; always, not only when the kernel
	 * guesses that the attributes will be wanted. */
	if (conn->capable & FUSE_CAP_READDIRPLUS) {
		conn->want |= FUSE_CAP_READDIRPLUS;
		conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
	}
	/* Opening a file or directory needs nothing from us: answering the first OPEN and
	 * OPENDIR with ENOSYS makes the kernel open the others itself, keeping the page
	 * cache and the cached listing (fs_open, fs_opendir). Not under -o idle_timeout,
	 * which counts what is open (fuse/idle.h). */
	fs->no_open = !fs->idle && (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT) != 0;
	fs->no_opendir = !fs->idle && (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT) != 0;
	/* Fewer, larger reads of big files (textures, mesh.obj): the kernel's request size
	 * follows max_write. */
	if (conn->max_write < NM_FUSE_MAX_REQUEST)
		conn->max_write = NM_FUSE_MAX_REQUEST;
	if (conn->max_readahead < NM_FUSE_MAX_REQUEST)
		conn->max_readahead = NM_FUSE_MAX_REQUEST;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_error err;
	nm_node *dir = hold(req, fs, parent), *n;
	if (!dir)
		return;
	/* The child belongs to the directory's listing, held with it. */
	nm_status s = nm_lookup(fs->tree, dir, name, &n, &err);
	nm_fuse_loop_replying(); /* the parse a lookup may run is over */
	struct fuse_entry_param e;
	int rc = s != NM_OK ? nm_status_errno(s) : entry_of(fs, n, &e);
	if (rc == ENOENT) {
		/* A name that is not there never will be (the tree never changes while
		 * mounted): an entry with no inode is a negative entry, which the kernel
		 * keeps like the others, so a probe asked again (GIO's .hidden per
		 * directory, an interpreter's search path) sends nothing. */
		e = (struct fuse_entry_param){ .ino = 0, .entry_timeout = FOREVER };
		fuse_reply_entry(req, &e);
	} else if (rc) {
		fuse_reply_err(req, rc);
	} else {
		fuse_reply_entry(req, &e);
	}
	put(fs, dir);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	struct stat st;
	(void)fi;
	nm_node *n = hold(req, fs, ino);
	if (!n)
		return;
	int rc = fill_stat(fs, n, &st);
	if (rc)
		fuse_reply_err(req, rc);
	else
		fuse_reply_attr(req, &st, FOREVER);
	put(fs, n);
}

/* One listing for READDIR and READDIRPLUS. Offsets: 0 ".", 1 "..", 2+i child i. The
 * plus form carries each child's attributes, which never decode anything (every size
 * is known when its node is made) and count as a lookup of it (nodes are never
 * forgotten, so nothing needs counting here); "." and ".." carry none. */
static void list_dir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, bool plus)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_node *dir = hold(req, fs, ino), **kids;
	size_t count;
	nm_error err;
	if (!dir)
		return;
	/* A lazy directory whose populate failed is still listed: its error.txt says why. */
	nm_status s = nm_children(fs->tree, dir, &kids, &count, &err);
	nm_fuse_loop_replying(); /* the populate a listing may run is over */
	char *buf = s != NM_OK && nm_node_type(dir) != NM_NODE_DIR ? NULL : malloc(size);
	if (!buf) {
		fuse_reply_err(req, s != NM_OK && nm_node_type(dir) != NM_NODE_DIR
					    ? nm_status_errno(s) : ENOMEM);
		put(fs, dir);
		return;
	}
	size_t used = 0;
	for (off_t i = off; i < (off_t)count + 2; i++) {
		struct fuse_entry_param e = { 0 };
		const char *name;
		if (i < 2) {
			name = i == 0 ? "." : "..";
			e.attr.st_mode = S_IFDIR;
			e.attr.st_ino = nm_node_id(i == 0 ? dir : nm_node_parent(dir));
		} else {
			nm_node *k = kids[i - 2];
			name = nm_node_name(k);
			if (!plus) {
				e.attr.st_mode = nm_node_type(k) == NM_NODE_DIR ? S_IFDIR : S_IFREG;
				e.attr.st_ino = nm_node_id(k);
			} else if (entry_of(fs, k, &e) != 0) {
				break; /* said in the log; the listing ends before it */
			}
		}
		size_t room = size - used;
		size_t need = plus ? fuse_add_direntry_plus(req, buf + used, room, name, &e, i + 1)
				   : fuse_add_direntry(req, buf + used, room, name, &e.attr, i + 1);
		if (need > room)
			break;
		used += need;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
	put(fs, dir);
}

static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	list_dir(req, ino, size, off, false);
}

static void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	(void)fi;
	list_dir(req, ino, size, off, true);
}

/* The kind of ino's node (false: the request has been answered). */
static bool kind_of(fuse_req_t req, nm_fuse_fs *fs, fuse_ino_t ino, nm_node_kind *kind)
{
	nm_node *n = hold(req, fs, ino);
	if (!n)
		return false;
	*kind = nm_node_type(n);
	put(fs, n);
	return true;
}

/* An open file or directory is a use of the mount until its release (-o idle_timeout);
 * one whose reply did not reach the kernel (the opener was interrupted) gets none. */
static void reply_open(fuse_req_t req, nm_fuse_fs *fs, struct fuse_file_info *fi)
{
	nm_fuse_idle_use(fs->idle);
	if (fuse_reply_open(req, fi) != 0)
		nm_fuse_idle_unuse(fs->idle);
}

static void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_node_kind kind;
	if (!kind_of(req, fs, ino, &kind))
		return;
	if (kind != NM_NODE_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (fs->no_opendir) {
		fuse_reply_err(req, ENOSYS); /* see fs_init: the kernel opens the rest */
		return;
	}
	fi->cache_readdir = 1;
	fi->keep_cache = 1;
	reply_open(req, fs, fi);
}

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC)) {
		fuse_reply_err(req, EROFS);
		return;
	}
	nm_node_kind kind;
	if (!kind_of(req, fs, ino, &kind))
		return;
	if (kind == NM_NODE_DIR) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (fs->no_open) {
		fuse_reply_err(req, ENOSYS); /* see fs_init: the kernel opens the rest */
		return;
	}
	fi->keep_cache = 1;
	reply_open(req, fs, fi);
}

/* The kernel sends these only for what reply_open opened. */
static void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	nm_fuse_idle_unuse(fs_of(req)->idle);
	fuse_reply_err(req, 0);
}

/* Replied from the produced bytes where they lie (pinned in the cache), not copied
 * into a buffer of ours first. */
static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	nm_fuse_fs *fs = fs_of(req);
	nm_error err;
	nm_read_hold h;
	(void)fi;
	nm_node *n = hold(req, fs, ino);
	if (!n)
		return;
	/* Reading has begun here: the files beside it will be wanted too. Asked first, so
	 * the thread wakes while this READ is answered and its pushes start sooner (the
	 * reader's next file may still come first: it is READ as usual). */
	nm_fuse_prefill_ask(fs, n);
	/* A reader that starts a file with a READ past its head (cat, cp: the kernel asks
	 * 128 KiB) wants all of it: made whole here once (in pieces on the CPUs), not a
	 * range now and the whole again beside it, which on a busy machine costs the
	 * reader the range's work twice over. head -c and sniffing stay within the head. */
	if (off == 0 && size > NM_FUSE_AHEAD_HEAD && nm_node_ranged(fs->tree, n) &&
	    !nm_node_produced(fs->tree, n))
		nm_produce(fs->tree, n, &err);   /* a failure is read_pin's to report */
	nm_status s = nm_read_pin(fs->tree, n, (uint64_t)off, size, &h, &err);
	nm_fuse_loop_replying(); /* the producer a read may run is over */
	if (s != NM_OK) {
		nm_fuse_say_error(fs, &err);
		fuse_reply_err(req, nm_status_errno(s));
	} else {
		fuse_reply_buf(req, (const char *)h.data, h.len);
		nm_read_release(fs->tree, &h);
	}
	nm_fuse_ahead_ask(fs, n, (uint64_t)off, size); /* after: a range read saw it unmade */
	put(fs, n);
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = 255,
			      .f_flag = ST_RDONLY };
	(void)ino;
	fuse_reply_statfs(req, &sv);
}

/* Every way of changing the tree is refused the same way: EROFS. */
static void fs_setattr(fuse_req_t req, fuse_ino_t i, struct stat *a, int s, struct fuse_file_info *f)
{ (void)i; (void)a; (void)s; (void)f; fuse_reply_err(req, EROFS); }
static void fs_mknod(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m, dev_t d)
{ (void)p; (void)n; (void)m; (void)d; fuse_reply_err(req, EROFS); }
static void fs_mkdir(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m)
{ (void)p; (void)n; (void)m; fuse_reply_err(req, EROFS); }
static void fs_unlink(fuse_req_t req, fuse_ino_t p, const char *n)
{ (void)p; (void)n; fuse_reply_err(req, EROFS); }
static void fs_symlink(fuse_req_t req, const char *l, fuse_ino_t p, const char *n)
{ (void)l; (void)p; (void)n; fuse_reply_err(req, EROFS); }
static void fs_rename(fuse_req_t req, fuse_ino_t p, const char *n, fuse_ino_t np, const char *nn, unsigned f)
{ (void)p; (void)n; (void)np; (void)nn; (void)f; fuse_reply_err(req, EROFS); }
static void fs_link(fuse_req_t req, fuse_ino_t i, fuse_ino_t np, const char *nn)
{ (void)i; (void)np; (void)nn; fuse_reply_err(req, EROFS); }
static void fs_write(fuse_req_t req, fuse_ino_t i, const char *b, size_t s, off_t o, struct fuse_file_info *f)
{ (void)i; (void)b; (void)s; (void)o; (void)f; fuse_reply_err(req, EROFS); }
static void fs_create(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m, struct fuse_file_info *f)
{ (void)p; (void)n; (void)m; (void)f; fuse_reply_err(req, EROFS); }
static void fs_setxattr(fuse_req_t req, fuse_ino_t i, const char *n, const char *v, size_t s, int f)
{ (void)i; (void)n; (void)v; (void)s; (void)f; fuse_reply_err(req, EROFS); }
static void fs_removexattr(fuse_req_t req, fuse_ino_t i, const char *n)
{ (void)i; (void)n; fuse_reply_err(req, EROFS); }
static void fs_fallocate(fuse_req_t req, fuse_ino_t i, int m, off_t o, off_t l, struct fuse_file_info *f)
{ (void)i; (void)m; (void)o; (void)l; (void)f; fuse_reply_err(req, EROFS); }

const struct fuse_lowlevel_ops nm_fuse_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.getattr = fs_getattr,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.readdirplus = fs_readdirplus,
	.open = fs_open,
	.release = fs_release,
	.releasedir = fs_release,
	.read = fs_read,
	.statfs = fs_statfs,
	.setattr = fs_setattr,
	.mknod = fs_mknod,
	.mkdir = fs_mkdir,
	.unlink = fs_unlink,
	.rmdir = fs_unlink,
	.symlink = fs_symlink,
	.rename = fs_rename,
	.link = fs_link,
	.write = fs_write,
	.create = fs_create,
	.setxattr = fs_setxattr,
	.removexattr = fs_removexattr,
	.fallocate = fs_fallocate,
};
