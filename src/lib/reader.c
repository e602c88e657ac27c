#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/reader.h"

enum reader_kind { READER_FILE, READER_PATH, READER_MEMORY, READER_WINDOW, READER_SOURCE };

struct nm_reader {
	enum reader_kind kind;
	char *name;
	uint64_t size;
	int fd;               /* READER_FILE; READER_PATH while open */
	struct stat opened;   /* READER_FILE, _PATH: identity at open, to notice a changed source */
	char *path;           /* READER_PATH */
	unsigned pins, users; /* READER_PATH: pins and reads in flight keep fd open */
	pthread_mutex_t lock; /* READER_PATH: fd, pins, users */
	_Atomic uint64_t checked_in; /* READER_FILE: the batch that last checked it */
	uint8_t *data;        /* READER_MEMORY */
	nm_reader *parent;    /* READER_WINDOW */
	uint64_t base;        /* READER_WINDOW */
	const nm_source_ops *ops; /* READER_SOURCE */
	void *ctx;            /* READER_SOURCE */
	const nm_options *opt; /* NULL: the parent's, or the defaults */
	unsigned depth;
	bool depth_set;
	void *place;
	nm_reader_origin origin; /* READER_SOURCE: set by nm_reader_set_origin */
	nm_repack_fn repack;  /* any kind: set by the archive driver that reads it */
	void *repack_ctx;
};

static nm_reader *reader_alloc(enum reader_kind kind, const char *name, uint64_t size)
{
	nm_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->name = strdup(name ? name : "(memory)");
	if (!r->name) {
		free(r);
		return NULL;
	}
	r->kind = kind;
	r->size = size;
	r->fd = -1;
	pthread_mutex_init(&r->lock, NULL);
	return r;
}

/* The reader is named by the file's base name: messages land in the tree (error.txt,
 * info.txt), whose bytes must not depend on how the path was spelled. Front ends put
 * the path as given back in front of the messages they print (nm_error_named). A
 * failure to open never reaches a tree: it names the path itself. */
nm_status nm_reader_open_file(const char *path, nm_reader **out, nm_error *err)
{
	const char *base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return nm_fail(err, errno == ENOENT ? NM_E_NOENT : NM_E_IO, path, NULL,
			       NM_NO_OFFSET, "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return nm_fail(err, S_ISDIR(st.st_mode) ? NM_E_ISDIR : NM_E_INVAL, path, NULL,
			       NM_NO_OFFSET, "not a regular file");
	}
	nm_reader *r = reader_alloc(READER_FILE, base, (uint64_t)st.st_size);
	if (!r) {
		close(fd);
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	}
	r->fd = fd;
	r->opened = st;
	*out = r;
	return NM_OK;
}

nm_status nm_reader_new_path(const char *path, const char *name, const struct stat *st,
			     nm_reader **out, nm_error *err)
{
	nm_reader *r = reader_alloc(READER_PATH, name, (uint64_t)st->st_size);
	if (r && !(r->path = strdup(path))) {
		nm_reader_close(r);
		r = NULL;
	}
	if (!r)
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	r->opened = *st;
	*out = r;
	return NM_OK;
}

nm_status nm_reader_new_source(const char *name, uint64_t size, const nm_source_ops *ops,
			       void *ctx, nm_reader **out, nm_error *err)
{
	nm_reader *r = reader_alloc(READER_SOURCE, name, size);
	if (!r)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	r->ops = ops;
	r->ctx = ctx;
	*out = r;
	return NM_OK;
}

nm_status nm_reader_new_memory(const char *name, void *data, size_t len, nm_reader **out,
			       nm_error *err)
{
	nm_reader *r = reader_alloc(READER_MEMORY, name, len);
	if (!r)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	r->data = data;
	*out = r;
	return NM_OK;
}

nm_status nm_reader_new_window(nm_reader *parent, const char *name, uint64_t off,
			       uint64_t len, nm_reader **out, nm_error *err)
{
	if (off > parent->size || len > parent->size - off)
		return nm_fail(err, NM_E_FORMAT, parent->name, name, off,
			       "member of 0x%llx bytes runs past the end of the file (0x%llx)",
			       (unsigned long long)len, (unsigned long long)parent->size);
	nm_reader *r = reader_alloc(READER_WINDOW, name, len);
	if (!r)
		return nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	r->parent = parent;
	r->base = off;
	*out = r;
	return NM_OK;
}

void nm_reader_close(nm_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (r->kind == READER_SOURCE && r->ops->close)
		r->ops->close(r->ctx);
	pthread_mutex_destroy(&r->lock);
	free(r->path);
	free(r->data);
	free(r->name);
	free(r);
}

uint64_t nm_reader_size(const nm_reader *r) { return r->size; }

bool nm_reader_direct(const nm_reader *r)
{
	while (r->kind == READER_WINDOW)
		r = r->parent;
	return r->kind == READER_FILE || r->kind == READER_MEMORY;
}
nm_origin_kind nm_reader_origin_of(const nm_reader *r, nm_reader_origin *o)
{
	switch (r->kind) {
	case READER_FILE:
	case READER_MEMORY:
		return NM_ORIGIN_ROOT;
	case READER_WINDOW:
		*o = (nm_reader_origin){ .parent = r->parent, .off = r->base, .len = r->size };
		return NM_ORIGIN_PARENT;
	case READER_SOURCE:
		if (!r->origin.encode)
			return NM_ORIGIN_NONE;
		*o = r->origin;
		return NM_ORIGIN_PARENT;
	default:
		return NM_ORIGIN_NONE;
	}
}

void nm_reader_set_origin(nm_reader *r, const nm_reader_origin *o)
{
	if (r->kind == READER_SOURCE)
		r->origin = *o;
}

void nm_reader_set_repack(nm_reader *r, nm_repack_fn fn, void *ctx)
{
	r->repack = fn;
	r->repack_ctx = ctx;
}

bool nm_reader_repack_of(const nm_reader *r, nm_repack_fn *fn, void **ctx)
{
	*fn = r->repack;
	*ctx = r->repack_ctx;
	return r->repack != NULL;
}

void *nm_reader_place(const nm_reader *r) { return r->place; }
void nm_reader_set_place(nm_reader *r, void *place) { r->place = place; }

unsigned nm_reader_depth(const nm_reader *r)
{
	while (!r->depth_set && r->parent)
		r = r->parent;
	return r->depth;
}

void nm_reader_set_depth(nm_reader *r, unsigned depth)
{
	r->depth = depth;
	r->depth_set = true;
}
const char *nm_reader_name(const nm_reader *r) { return r->name; }
void nm_reader_set_options(nm_reader *r, const nm_options *opt) { r->opt = opt; }

const nm_options *nm_reader_options(const nm_reader *r)
{
	while (!r->opt && r->parent)
		r = r->parent;
	return r->opt ? r->opt : nm_options_defaults();
}

/* The tree was built from the bytes as they were at open: if the file was truncated,
 * rewritten or replaced in place since, reading it now would mix two versions. */
static bool changed_since_open(const nm_reader *r)
{
	struct stat st;
	if (fstat(r->fd, &st) != 0)
		return true;
	return st.st_size != r->opened.st_size || st.st_ino != r->opened.st_ino ||
	       st.st_mtim.tv_sec != r->opened.st_mtim.tv_sec ||
	       st.st_mtim.tv_nsec != r->opened.st_mtim.tv_nsec;
}

/* Batches (nm_reader_batch_begin): numbered across threads, 0 for "not in one". */
static _Atomic uint64_t batches = 1;
static _Thread_local uint64_t current_batch;

uint64_t nm_reader_batch_begin(void)
{
	uint64_t outer = current_batch;
	current_batch = atomic_fetch_add(&batches, 1);
	return outer;
}

void nm_reader_batch_end(uint64_t outer) { current_batch = outer; }

static nm_status read_fd(nm_reader *r, int fd, uint64_t off, uint8_t *buf, size_t len,
			 const char *chunk, nm_error *err)
{
	while (len > 0) {
		ssize_t n = pread(fd, buf, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nm_fail(err, NM_E_IO, r->name, chunk, off, "read failed: %s",
				       strerror(errno));
		if (n == 0)
			return nm_fail(err, NM_E_IO, r->name, chunk, off,
				       "file ended early: it changed after it was mounted");
		buf += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return NM_OK;
}

static nm_status read_file(nm_reader *r, uint64_t off, uint8_t *buf, size_t len,
			   const char *chunk, nm_error *err)
{
	uint64_t batch = current_batch;
	if (batch == 0 || atomic_load(&r->checked_in) != batch) {
		if (changed_since_open(r))
			return nm_fail(err, NM_E_IO, r->name, chunk, off,
				       "the file changed after it was mounted");
		atomic_store(&r->checked_in, batch);
	}
	return read_fd(r, r->fd, off, buf, len, chunk, err);
}

/* A folder's file: open it unless a pin or another read holds it open. Callers hold
 * r->lock. The identity is checked at each open, as a file reader checks at each read. */
static nm_status path_open(nm_reader *r, nm_error *err)
{
	if (r->fd >= 0)
		return NM_OK;
	int fd = open(r->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return nm_fail(err, NM_E_IO, r->name, NULL, NM_NO_OFFSET, "cannot open: %s",
			       strerror(errno));
	r->fd = fd;
	if (changed_since_open(r)) {
		close(fd);
		r->fd = -1;
		return nm_fail(err, NM_E_IO, r->name, NULL, NM_NO_OFFSET,
			       "the file changed after it was listed");
	}
	return NM_OK;
}

/* Callers hold r->lock. */
static void path_close_unused(nm_reader *r)
{
	if (r->pins == 0 && r->users == 0 && r->fd >= 0) {
		close(r->fd);
		r->fd = -1;
	}
}

static nm_status read_path(nm_reader *r, uint64_t off, uint8_t *buf, size_t len,
			   const char *chunk, nm_error *err)
{
	pthread_mutex_lock(&r->lock);
	nm_status s = path_open(r, err);
	int fd = r->fd;
	if (s == NM_OK)
		r->users++;
	pthread_mutex_unlock(&r->lock);
	if (s != NM_OK)
		return s;
	s = read_fd(r, fd, off, buf, len, chunk, err);
	pthread_mutex_lock(&r->lock);
	r->users--;
	path_close_unused(r);
	pthread_mutex_unlock(&r->lock);
	return s;
}

nm_status nm_reader_pin(nm_reader *r, nm_error *err)
{
	while (r->kind == READER_WINDOW)
		r = r->parent;
	if (r->kind == READER_SOURCE)
		return r->ops->pin ? r->ops->pin(r->ctx, err) : NM_OK;
	if (r->kind != READER_PATH)
		return NM_OK;
	pthread_mutex_lock(&r->lock);
	nm_status s = path_open(r, err);
	if (s == NM_OK)
		r->pins++;
	pthread_mutex_unlock(&r->lock);
	return s;
}

void nm_reader_unpin(nm_reader *r)
{
	while (r->kind == READER_WINDOW)
		r = r->parent;
	if (r->kind == READER_SOURCE) {
		if (r->ops->unpin)
			r->ops->unpin(r->ctx);
		return;
	}
	if (r->kind != READER_PATH)
		return;
	pthread_mutex_lock(&r->lock);
	r->pins--;
	path_close_unused(r);
	pthread_mutex_unlock(&r->lock);
}

nm_status nm_reader_read(nm_reader *r, uint64_t off, void *buf, size_t len,
			 const char *chunk, nm_error *err)
{
	if (off > r->size || len > r->size - off)
		return nm_fail(err, NM_E_FORMAT, r->name, chunk, off,
			       "0x%zx bytes run past the end of the data (0x%llx)", len,
			       (unsigned long long)r->size);
	switch (r->kind) {
	case READER_FILE:
		return read_file(r, off, buf, len, chunk, err);
	case READER_PATH:
		return read_path(r, off, buf, len, chunk, err);
	case READER_SOURCE:
		return r->ops->read(r->ctx, off, buf, len, chunk, err);
	case READER_MEMORY:
		if (len)
			memcpy(buf, r->data + off, len);
		return NM_OK;
	case READER_WINDOW:
		return nm_reader_read(r->parent, r->base + off, buf, len, chunk, err);
	}
	return NM_E_INVAL;
}

nm_status nm_reader_load(nm_reader *r, uint64_t off, size_t len, const char *chunk,
			 uint8_t **out, nm_error *err)
{
	/* Check the range first so that a hostile length never sizes an allocation. */
	if (off > r->size || len > r->size - off)
		return nm_fail(err, NM_E_FORMAT, r->name, chunk, off,
			       "0x%zx bytes run past the end of the data (0x%llx)", len,
			       (unsigned long long)r->size);
	nm_error unused, *e = err ? err : &unused;
	uint8_t *buf = nm_alloc(nm_reader_options(r), len, 1, e, r->name, chunk, off);
	if (!buf)
		return e->code;
	nm_status s = nm_reader_read(r, off, buf, len, chunk, err);
	if (s != NM_OK) {
		free(buf);
		return s;
	}
	*out = buf;
	return NM_OK;
}
