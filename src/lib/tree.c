#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/cache.h"
#include "lib/tree.h"

struct nm_node {
	nm_node_kind kind;
	char *name;
	nm_node *parent;
	uint64_t id;
	nm_node *hnext;            /* (parent, name) hash chain */

	/* NM_NODE_DIR */
	nm_node **kids;
	size_t nkids, capkids;
	nm_populate_fn populate;   /* NULL once its populate started (or never lazy) */
	bool populating;           /* its populate runs now, in thread populator */
	pthread_t populator;
	nm_status pop_status;      /* how its populate ended */
	char *pop_msg;             /* and why, when it failed (NULL: out of memory) */

	/* NM_NODE_TEXT */
	uint8_t *text;

	/* NM_NODE_SLICE */
	nm_reader *reader;
	uint64_t off;

	/* NM_NODE_LAZY */
	nm_produce_fn produce;

	/* lazy files and lazy directories */
	void *ctx, *arg;
	_Atomic uint64_t size;     /* NM_SIZE_MEASURE until known */
};

struct cleanup {
	nm_free_fn fn;
	void *p;
};

struct nm_tree {
	/* Guards the structure: the name hash, every directory's children, the node and
	 * cleanup lists, and each lazy directory's populate state. It is held only for
	 * those short updates and look-ups, never while a populate callback runs, so a
	 * directory that takes long to populate (a PAK member's whole parse) holds up only
	 * the lookups of that directory: they wait on `populated` until it is done.
	 * The nodes a populate adds are reachable only through its directory, so nobody
	 * reads them (or their fields, set after add_node) before it ends. */
	pthread_mutex_t lock;
	pthread_cond_t populated;
	nm_node *root;
	uint64_t next_id;
	nm_node **buckets;
	size_t nbuckets, nnodes;
	nm_node **all;             /* every node, for freeing */
	struct cleanup *cleanups;
	size_t ncleanups, capcleanups;
	nm_options opt;            /* fixed at creation: threads read it without a lock */
	nm_cache *cache;
	uint64_t populations;      /* lazy directories populated (under lock) */
};

static size_t hash_name(const nm_node *parent, const char *name, size_t nbuckets)
{
	uint64_t h = 1469598103934665603ull ^ (uintptr_t)parent;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return (size_t)(h ^ h >> 29) & (nbuckets - 1);
}

/* Callers hold t->lock. */
static nm_node *find_child(nm_tree *t, const nm_node *dir, const char *name)
{
	for (nm_node *n = t->buckets[hash_name(dir, name, t->nbuckets)]; n; n = n->hnext)
		if (n->parent == dir && strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

static void rehash(nm_tree *t)
{
	size_t n = t->nbuckets * 2;
	nm_node **b = calloc(n, sizeof *b);
	if (!b)
		return;
	for (size_t i = 0; i < t->nnodes; i++) {
		nm_node *node = t->all[i];
		if (!node->parent)
			continue;
		size_t j = hash_name(node->parent, node->name, n);
		node->hnext = b[j];
		b[j] = node;
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

static nm_node *add_node_locked(nm_tree *t, nm_node *parent, const char *name,
				nm_node_kind kind)
{
	if (parent && (parent->kind != NM_NODE_DIR || !name[0] || strchr(name, '/') ||
		       find_child(t, parent, name)))
		return NULL;
	nm_node *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->name = strdup(name);
	if (!n->name) {
		free(n);
		return NULL;
	}
	/* all[] grows in powers of two. */
	if ((t->nnodes & (t->nnodes - 1)) == 0) {
		size_t cap = t->nnodes ? t->nnodes * 2 : 64;
		nm_node **all = realloc(t->all, cap * sizeof *all);
		if (!all)
			goto fail;
		t->all = all;
	}
	if (parent && parent->nkids == parent->capkids) {
		size_t cap = parent->capkids ? parent->capkids * 2 : 8;
		nm_node **k = realloc(parent->kids, cap * sizeof *k);
		if (!k)
			goto fail;
		parent->kids = k;
		parent->capkids = cap;
	}
	n->kind = kind;
	n->parent = parent;
	n->id = ++t->next_id;
	atomic_init(&n->size, 0);
	t->all[t->nnodes++] = n;
	if (parent) {
		parent->kids[parent->nkids++] = n;
		size_t b = hash_name(parent, name, t->nbuckets);
		n->hnext = t->buckets[b];
		t->buckets[b] = n;
		if (t->nnodes > t->nbuckets)
			rehash(t);
	}
	return n;
fail:
	free(n->name);
	free(n);
	return NULL;
}

/* Builders run at build time (one thread) and inside populate callbacks, several of
 * which may run at once for different directories. */
static nm_node *add_node(nm_tree *t, nm_node *parent, const char *name, nm_node_kind kind)
{
	pthread_mutex_lock(&t->lock);
	nm_node *n = add_node_locked(t, parent, name, kind);
	pthread_mutex_unlock(&t->lock);
	return n;
}

nm_tree *nm_tree_new(const nm_options *opt)
{
	nm_tree *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->opt = opt ? *opt : *nm_options_defaults();
	pthread_cond_init(&t->populated, NULL);
	t->nbuckets = 64;
	t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
	t->cache = nm_cache_new(&t->opt);
	if (t->buckets && t->cache)
		t->root = add_node(t, NULL, "/", NM_NODE_DIR);
	if (!t->root) {
		nm_tree_free(t);
		return NULL;
	}
	return t;
}

void nm_tree_free(nm_tree *t)
{
	if (!t)
		return;
	nm_cache_free(t->cache);
	for (size_t i = 0; i < t->nnodes; i++) {
		nm_node *n = t->all[i];
		free(n->kids);
		free(n->text);
		free(n->name);
		free(n->pop_msg);
		free(n);
	}
	for (size_t i = t->ncleanups; i-- > 0;)
		t->cleanups[i].fn(t->cleanups[i].p);
	free(t->cleanups);
	free(t->all);
	free(t->buckets);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->populated);
	free(t);
}

nm_node *nm_tree_root(nm_tree *t) { return t->root; }
const nm_options *nm_tree_options(const nm_tree *t) { return &t->opt; }
uint64_t nm_tree_productions(nm_tree *t) { return nm_cache_fills(t->cache); }

uint64_t nm_tree_populations(nm_tree *t)
{
	pthread_mutex_lock(&t->lock);
	uint64_t n = t->populations;
	pthread_mutex_unlock(&t->lock);
	return n;
}

nm_status nm_tree_on_free(nm_tree *t, nm_free_fn fn, void *p)
{
	pthread_mutex_lock(&t->lock);
	/* Grows by doubling: a driver's records all come from nm_tree_alloc. */
	struct cleanup *c = t->cleanups;
	if (t->ncleanups == t->capcleanups) {
		size_t cap = t->capcleanups ? 2 * t->capcleanups : 16;
		if ((c = realloc(t->cleanups, cap * sizeof *c))) {
			t->cleanups = c;
			t->capcleanups = cap;
		}
	}
	if (c) {
		c[t->ncleanups].fn = fn;
		c[t->ncleanups].p = p;
		t->ncleanups++;
	}
	pthread_mutex_unlock(&t->lock);
	if (!c) {
		fn(p);
		return NM_E_NOMEM;
	}
	return NM_OK;
}

static void close_reader(void *r) { nm_reader_close(r); }

nm_status nm_tree_adopt_reader(nm_tree *t, nm_reader *r)
{
	nm_status s = nm_tree_on_free(t, close_reader, r);
	if (s == NM_OK)
		nm_reader_set_options(r, &t->opt);
	return s;
}

static void free_ptr(void *p) { free(p); }

void *nm_tree_alloc(nm_tree *t, size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (p && nm_tree_on_free(t, free_ptr, p) != NM_OK)
		return NULL; /* on_free freed it */
	return p;
}

void *nm_tree_alloc_array(nm_tree *t, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return nm_tree_alloc(t, count * size);
}

char *nm_tree_printf(nm_tree *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n < 0 ? NULL : nm_tree_alloc(t, (size_t)n + 1);
	if (s) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return s;
}

nm_node *nm_dir(nm_tree *t, nm_node *parent, const char *name)
{
	return add_node(t, parent, name, NM_NODE_DIR);
}

nm_node *nm_lazy_dir(nm_tree *t, nm_node *parent, const char *name, nm_populate_fn fn,
		     void *ctx, void *arg)
{
	nm_node *n = add_node(t, parent, name, NM_NODE_DIR);
	if (n) {
		n->populate = fn;
		n->ctx = ctx;
		n->arg = arg;
	}
	return n;
}

nm_node *nm_text(nm_tree *t, nm_node *parent, const char *name, nm_out *out)
{
	if (nm_out_status(out) != NM_OK)
		return NULL;
	nm_node *n = add_node(t, parent, name, NM_NODE_TEXT);
	if (n) {
		size_t len;
		n->text = nm_out_take(out, &len);
		atomic_store(&n->size, len);
	}
	return n;
}

nm_node *nm_text_str(nm_tree *t, nm_node *parent, const char *name, const char *s)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_str(&o, s);
	nm_node *n = nm_text(t, parent, name, &o);
	nm_out_free(&o);
	return n;
}

nm_node *nm_slice(nm_tree *t, nm_node *parent, const char *name, nm_reader *r,
		  uint64_t off, uint64_t len)
{
	if (off > nm_reader_size(r) || len > nm_reader_size(r) - off)
		return NULL;
	nm_node *n = add_node(t, parent, name, NM_NODE_SLICE);
	if (n) {
		n->reader = r;
		n->off = off;
		atomic_store(&n->size, len);
	}
	return n;
}

nm_node *nm_lazy(nm_tree *t, nm_node *parent, const char *name, uint64_t size,
		 nm_produce_fn fn, void *ctx, void *arg)
{
	nm_node *n = add_node(t, parent, name, NM_NODE_LAZY);
	if (n) {
		n->produce = fn;
		n->ctx = ctx;
		n->arg = arg;
		atomic_store(&n->size, size);
	}
	return n;
}

nm_node *nm_child(nm_tree *t, nm_node *dir, const char *name)
{
	pthread_mutex_lock(&t->lock);
	nm_node *n = dir->kind == NM_NODE_DIR ? find_child(t, dir, name) : NULL;
	pthread_mutex_unlock(&t->lock);
	return n;
}

nm_status nm_text_append(nm_tree *t, nm_node *file, nm_out *more)
{
	(void)t; /* the file is still being built: nobody else reads it */
	if (file->kind != NM_NODE_TEXT)
		return NM_E_INVAL;
	if (nm_out_status(more) != NM_OK)
		return nm_out_status(more);
	size_t len = atomic_load(&file->size);
	uint8_t *text = realloc(file->text, len + more->len + 1);
	if (!text)
		return NM_E_NOMEM;
	memcpy(text + len, more->data, more->len);
	file->text = text;
	atomic_store(&file->size, len + more->len);
	nm_out_free(more);
	return NM_OK;
}

/* Callers hold t->lock. */
static size_t count_error_files(nm_tree *t, const nm_node *dir)
{
	size_t n = 0;
	for (size_t i = 0; i < dir->nkids; i++) {
		const nm_node *k = dir->kids[i];
		if (k->kind != NM_NODE_DIR)
			n += strcmp(k->name, "error.txt") == 0;
		else if (!k->populate && !k->populating && !find_child(t, k, "info.txt"))
			n += count_error_files(t, k);
	}
	return n;
}

size_t nm_error_files(nm_tree *t, nm_node *dir)
{
	pthread_mutex_lock(&t->lock);
	size_t n = count_error_files(t, dir);
	pthread_mutex_unlock(&t->lock);
	return n;
}

nm_node *nm_error_file(nm_tree *t, nm_node *dir, const nm_error *e)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_printf(&o, "%s\n", e->msg);
	nm_node *n = nm_text(t, dir, "error.txt", &o);
	nm_out_free(&o);
	return n;
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned min;
	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xE0) == 0xC0) { len = 2; min = 0x80; }
	else if ((p[0] & 0xF0) == 0xE0) { len = 3; min = 0x800; }
	else if ((p[0] & 0xF8) == 0xF0) { len = 4; min = 0x10000; }
	else return 0;
	if (len > n)
		return 0;
	unsigned cp = p[0] & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

char *nm_safe_name(const char *raw, size_t len)
{
	const unsigned char *p = (const unsigned char *)raw;
	char *s = malloc(len * 3 + 4);
	size_t o = 0;
	if (!s)
		return NULL;
	if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.')) {
		for (size_t i = 0; i < len; i++)
			o += (size_t)sprintf(s + o, "%%2E");
		s[o] = '\0';
		return s;
	}
	for (size_t i = 0; i < len;) {
		size_t u = utf8_len(p + i, len - i);
		if (u == 1 && (p[i] < 0x20 || p[i] == 0x7F || p[i] == '/' || p[i] == '%'))
			u = 0;
		if (u == 0) {
			o += (size_t)sprintf(s + o, "%%%02X", p[i]);
			i++;
		} else {
			memcpy(s + o, p + i, u);
			o += u;
			i += u;
		}
	}
	if (o == 0)
		o += (size_t)sprintf(s, "%%00");
	s[o] = '\0';
	return s;
}

static bool stem_taken(nm_tree *t, nm_node *dir, const char *stem, const char *const *exts)
{
	char buf[1024];
	for (size_t i = 0; exts[i]; i++) {
		snprintf(buf, sizeof buf, "%s%s", stem, exts[i]);
		if (find_child(t, dir, buf))
			return true;
	}
	return false;
}

char *nm_unique_stem(nm_tree *t, nm_node *dir, const char *stem, const char *const *exts)
{
	static const char *const none[] = { "", NULL };
	char buf[1024];
	if (!exts)
		exts = none;
	snprintf(buf, sizeof buf, "%s", stem);
	pthread_mutex_lock(&t->lock);
	for (unsigned i = 2; stem_taken(t, dir, buf, exts); i++)
		snprintf(buf, sizeof buf, "%s~%u", stem, i);
	pthread_mutex_unlock(&t->lock);
	return strdup(buf);
}

nm_node_kind nm_node_type(const nm_node *n) { return n->kind; }
const char *nm_node_name(const nm_node *n) { return n->name; }
nm_node *nm_node_parent(const nm_node *n) { return n->parent ? n->parent : (nm_node *)n; }
uint64_t nm_node_id(const nm_node *n) { return n->id; }

/* The outcome of dir's populate, as the one that ran it saw it. Callers hold t->lock. */
static nm_status populate_result(const nm_node *dir, nm_error *err)
{
	if (dir->pop_status == NM_OK)
		return NM_OK;
	if (!dir->pop_msg)
		return nm_fail(err, dir->pop_status, dir->name, NULL, NM_NO_OFFSET, "%s",
			       nm_status_str(dir->pop_status));
	if (err) {
		err->code = dir->pop_status;
		snprintf(err->msg, sizeof err->msg, "%s", dir->pop_msg);
	}
	return dir->pop_status;
}

/* Run dir's populate callback, unlocked (see struct nm_tree). A failure keeps what was
 * added and says why in the directory itself (error.txt, unless the callback made
 * one) and in pop_status, so every caller, not only this one, hears of it. */
static void run_populate(nm_tree *t, nm_node *dir)
{
	nm_populate_fn fn = dir->populate;
	nm_error e;
	dir->populate = NULL;
	t->populations++;
	dir->populating = true;
	dir->populator = pthread_self();
	pthread_mutex_unlock(&t->lock);

	nm_error_clear(&e);
	nm_status s = fn(t, dir, dir->ctx, dir->arg, &e);
	char *msg = NULL;
	if (s != NM_OK) {
		if (!e.msg[0])
			nm_fail(&e, s, dir->name, NULL, NM_NO_OFFSET, "%s", nm_status_str(s));
		pthread_mutex_lock(&t->lock);
		bool has_error_file = find_child(t, dir, "error.txt") != NULL;
		pthread_mutex_unlock(&t->lock);
		if (!has_error_file)
			nm_error_file(t, dir, &e);
		msg = strdup(e.msg);
	}

	pthread_mutex_lock(&t->lock);
	dir->pop_status = s;
	dir->pop_msg = msg;
	dir->populating = false;
	pthread_cond_broadcast(&t->populated);
}

/* Populate a lazy directory once: the first caller runs it, later ones wait for that
 * directory only. Callers hold t->lock (released while the callback runs). */
static nm_status populate(nm_tree *t, nm_node *dir, nm_error *err)
{
	if (dir->populate) {
		run_populate(t, dir);
	} else if (dir->populating) {
		/* A callback that looks up its own directory would wait for itself. */
		if (pthread_equal(dir->populator, pthread_self()))
			return nm_fail(err, NM_E_INVAL, dir->name, NULL, NM_NO_OFFSET,
				       "looked up while it is being populated");
		while (dir->populating)
			pthread_cond_wait(&t->populated, &t->lock);
	}
	return populate_result(dir, err);
}

nm_status nm_lookup(nm_tree *t, nm_node *dir, const char *name, nm_node **out, nm_error *err)
{
	if (dir->kind != NM_NODE_DIR)
		return nm_fail(err, NM_E_NOTDIR, dir->name, NULL, NM_NO_OFFSET, "not a directory");
	pthread_mutex_lock(&t->lock);
	nm_status s = populate(t, dir, err);
	nm_node *n = find_child(t, dir, name);
	pthread_mutex_unlock(&t->lock);
	if (n) {
		*out = n; /* what a failed populate added (and its error.txt) stays reachable */
		return NM_OK;
	}
	if (s != NM_OK)
		return s; /* the name may be missing only because the populate failed */
	return nm_fail(err, NM_E_NOENT, name, NULL, NM_NO_OFFSET, "no such file");
}

nm_status nm_resolve(nm_tree *t, const char *path, nm_node **out, nm_error *err)
{
	nm_node *n = t->root;
	char part[1024];
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, "/");
		if (len >= sizeof part)
			return nm_fail(err, NM_E_NOENT, path, NULL, NM_NO_OFFSET, "name too long");
		memcpy(part, p, len);
		part[len] = '\0';
		p += len;
		nm_status s = nm_lookup(t, n, part, &n, err);
		if (s == NM_E_NOENT || s == NM_E_NOTDIR)
			return nm_fail(err, s, path, NULL, NM_NO_OFFSET, "%s", nm_status_str(s));
		if (s != NM_OK)
			return s; /* a failed populate's own message names the file and chunk */
	}
	*out = n;
	return NM_OK;
}

nm_status nm_children(nm_tree *t, nm_node *dir, nm_node ***out, size_t *count, nm_error *err)
{
	if (dir->kind != NM_NODE_DIR)
		return nm_fail(err, NM_E_NOTDIR, dir->name, NULL, NM_NO_OFFSET, "not a directory");
	pthread_mutex_lock(&t->lock);
	nm_status s = populate(t, dir, err);
	*out = dir->kids;
	*count = dir->nkids;
	pthread_mutex_unlock(&t->lock);
	return s; /* the children are valid even when the populate failed */
}

static nm_status produce(void *node, void *unused, nm_out *out, nm_error *err)
{
	nm_node *n = node;
	(void)unused;
	/* The size is exact: allocate it once, so the producer's writes never regrow and
	 * copy the buffer (nor leave it up to twice too large in the cache). */
	uint64_t size = atomic_load(&n->size);
	if (size != NM_SIZE_MEASURE && size <= SIZE_MAX)
		nm_out_expect(out, (size_t)size);
	return n->produce(n->ctx, n->arg, out, err);
}

/* Pinned produced bytes of a lazy file, checked against its declared size. A file
 * announced larger than max_file_size is refused before its producer runs. */
static nm_status produced(nm_tree *t, nm_node *n, nm_cache_entry **e, nm_error *err)
{
	uint64_t announced = atomic_load(&n->size);
	if (announced != NM_SIZE_MEASURE && announced > t->opt.max_file_size)
		return nm_fail_limit(err, &t->opt, announced, n->name, NULL, NM_NO_OFFSET);
	nm_status s = nm_cache_get(t->cache, n, produce, n, NULL, e, err);
	if (s != NM_OK)
		return s;
	uint64_t want = atomic_load(&n->size), got = nm_cache_len(*e);
	if (want == NM_SIZE_MEASURE) {
		atomic_store(&n->size, got);
	} else if (want != got) {
		nm_cache_release(t->cache, *e);
		return nm_fail(err, NM_E_IO, n->name, NULL, NM_NO_OFFSET,
			       "internal error: produced %llu bytes, announced %llu",
			       (unsigned long long)got, (unsigned long long)want);
	}
	return NM_OK;
}

nm_status nm_size(nm_tree *t, nm_node *n, uint64_t *size, nm_error *err)
{
	uint64_t sz = atomic_load(&n->size);
	if (n->kind == NM_NODE_LAZY && sz == NM_SIZE_MEASURE) {
		nm_cache_entry *e;
		nm_status s = produced(t, n, &e, err);
		if (s != NM_OK)
			return s;
		sz = nm_cache_len(e);
		nm_cache_release(t->cache, e);
	}
	*size = n->kind == NM_NODE_DIR ? 0 : sz;
	return NM_OK;
}

nm_status nm_read(nm_tree *t, nm_node *n, uint64_t off, void *buf, size_t len, size_t *got,
		  nm_error *err)
{
	*got = 0;
	if (n->kind == NM_NODE_DIR)
		return nm_fail(err, NM_E_ISDIR, n->name, NULL, NM_NO_OFFSET, "is a directory");
	uint64_t size = atomic_load(&n->size);
	if (n->kind != NM_NODE_LAZY || size != NM_SIZE_MEASURE) {
		if (off >= size)
			return NM_OK;
		if (len > size - off)
			len = (size_t)(size - off);
	}
	switch (n->kind) {
	case NM_NODE_TEXT:
		memcpy(buf, n->text + off, len);
		*got = len;
		return NM_OK;
	case NM_NODE_SLICE: {
		nm_status s = nm_reader_read(n->reader, n->off + off, buf, len, n->name, err);
		if (s == NM_OK)
			*got = len;
		return s == NM_E_FORMAT ? NM_E_IO : s; /* the file shrank under us */
	}
	case NM_NODE_LAZY: {
		nm_cache_entry *e;
		nm_status s = produced(t, n, &e, err);
		if (s != NM_OK)
			return s;
		size_t have = nm_cache_len(e);
		if (off < have) {
			*got = len < have - off ? len : (size_t)(have - off);
			memcpy(buf, nm_cache_data(e) + off, *got);
		}
		nm_cache_release(t->cache, e);
		return NM_OK;
	}
	case NM_NODE_DIR:
		break;
	}
	return NM_E_INVAL;
}
