#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/cache.h"
#include "lib/tree_internal.h"

static size_t hash_name(const nm_node *parent, const char *name, size_t nbuckets)
{
	uint64_t h = 1469598103934665603ull ^ (uintptr_t)parent;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return (size_t)(h ^ h >> 29) & (nbuckets - 1);
}

/* Callers hold t->lock. */
nm_node *nm_tree_find_child(nm_tree *t, const nm_node *dir, const char *name)
{
	for (nm_node *n = t->buckets[hash_name(dir, name, t->nbuckets)]; n; n = n->hnext)
		if (n->parent == dir && strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

static void rehash_under(nm_node *dir, nm_node **b, size_t n)
{
	for (uint32_t i = 0; i < dir->nkids; i++) {
		nm_node *k = dir->kids[i];
		size_t j = hash_name(dir, k->name, n);
		k->hnext = b[j];
		b[j] = k;
		if (k->kind == NM_NODE_DIR)
			rehash_under(k, b, n);
	}
}

static void rehash(nm_tree *t)
{
	size_t n = t->nbuckets * 2;
	nm_node **b = calloc(n, sizeof *b);
	if (!b)
		return;
	rehash_under(t->root, b, n);
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

nm_node *nm_tree_add_node_locked(nm_tree *t, nm_node *parent, const char *name,
				 nm_node_kind kind)
{
	nm_content *c = nm_content_current(t);
	nm_residence *r = c->res;
	if (r->nnodes == r->capnodes) {
		nm_node **a = nm_tree_grow(r->nodes, &r->capnodes, sizeof *a, 8);
		if (!a)
			return NULL;
		r->nodes = a;
	}
	if (parent && (parent->kind != NM_NODE_DIR || !name[0] || strchr(name, '/') ||
		       nm_tree_find_child(t, parent, name) || parent->nkids == UINT32_MAX))
		return NULL;
	size_t len = strlen(name);
	nm_node *n = malloc(sizeof *n + len + 1);
	if (!n)
		return NULL;
	memset(n, 0, sizeof *n);
	memcpy(n->name, name, len + 1);
	if (parent && parent->nkids == parent->capkids) {
		nm_node **k = nm_tree_grow(parent->kids, &parent->capkids, sizeof *k, 4);
		if (!k) {
			free(n);
			return NULL;
		}
		parent->kids = k;
	}
	n->kind = (uint8_t)kind;
	n->parent = parent;
	r->nodes[r->nnodes++] = n;
	nm_content_charge(t, sizeof *n + len + 1 + sizeof *r->nodes);
	n->id = (uint64_t)c->serial << 32 | r->nnodes;
	atomic_init(&n->size, 0);
	t->nnodes++;
	if (parent) {
		parent->kids[parent->nkids++] = n;
		size_t b = hash_name(parent, name, t->nbuckets);
		n->hnext = t->buckets[b];
		t->buckets[b] = n;
		/* Two nodes a bucket on average: a PAK's 50,000 assets are nodes for good,
		 * and a chain of two costs a look-up nothing measurable. */
		if (t->nnodes > 2 * t->nbuckets)
			rehash(t);
	}
	return n;
}

/* Builders run at build time (one thread) and inside populate callbacks, several of
 * which may run at once for different directories. */
static nm_node *add_node(nm_tree *t, nm_node *parent, const char *name, nm_node_kind kind)
{
	pthread_mutex_lock(&t->lock);
	nm_node *n = nm_tree_add_node_locked(t, parent, name, kind);
	pthread_mutex_unlock(&t->lock);
	return n;
}

void nm_tree_unhash(nm_tree *t, nm_node *n)
{
	if (!n->parent)
		return;
	nm_node **p = &t->buckets[hash_name(n->parent, n->name, t->nbuckets)];
	while (*p && *p != n)
		p = &(*p)->hnext;
	if (*p)
		*p = n->hnext;
}

void nm_tree_free_node(nm_node *n)
{
	if (n->kind == NM_NODE_DIR) {
		for (uint32_t i = 0; i < n->nkids; i++)
			nm_tree_free_node(n->kids[i]);
		free(n->kids);
	} else if (n->kind == NM_NODE_TEXT) {
		free(n->text);
	}
	free(n);
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
	nm_content *build = t->buckets && t->cache ? nm_content_new(t) : NULL;
	if (build && (build->res = calloc(1, sizeof *build->res)) != NULL) {
		build->phase = CONTENT_DONE; /* the build's: never evicted */
		t->root = add_node(t, NULL, "/", NM_NODE_DIR);
	}
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
	if (t->root)
		nm_tree_free_node(t->root);
	/* Cleanups before the cache: a reader of decompressed data forgets its entries. */
	nm_content_free_all(t);
	nm_cache_free(t->cache);
	free(t->inverses);
	free(t->ranges);
	free(t->buckets);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->populated);
	free(t);
}

nm_node *nm_tree_root(nm_tree *t) { return t->root; }
nm_cache *nm_tree_cache(nm_tree *t) { return t->cache; }
const nm_options *nm_tree_options(const nm_tree *t) { return &t->opt; }
uint64_t nm_tree_productions(nm_tree *t) { return nm_cache_fills(t->cache); }

uint64_t nm_tree_populations(nm_tree *t)
{
	pthread_mutex_lock(&t->lock);
	uint64_t n = t->populations;
	pthread_mutex_unlock(&t->lock);
	return n;
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
	if (p && nm_content_on_free(t, free_ptr, p, size) != NM_OK)
		return NULL; /* on_free freed it */
	return p;
}

void *nm_tree_alloc_array(nm_tree *t, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return nm_tree_alloc(t, count * size);
}

char *nm_tree_strndup(nm_tree *t, const void *s, size_t len)
{
	char *p = len < SIZE_MAX ? nm_tree_alloc(t, len + 1) : NULL;
	if (p && len)
		memcpy(p, s, len);
	return p;
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
	pthread_mutex_lock(&t->lock);
	nm_content *c = nm_content_for_lazy_dir(t, fn, ctx);
	nm_node *n = c ? nm_tree_add_node_locked(t, parent, name, NM_NODE_DIR) : NULL;
	if (n) { /* under the lock: a lookup may see the node at once */
		c->arg = arg;
		c->dir = n;
		n->pop = c;
	}
	pthread_mutex_unlock(&t->lock);
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
		/* Built text keeps the slack of its growth otherwise: trim it. */
		uint8_t *trimmed = realloc(n->text, len + 1);
		if (trimmed)
			n->text = trimmed;
		atomic_store(&n->size, len);
		pthread_mutex_lock(&t->lock);
		nm_content_charge(t, len + 1);
		pthread_mutex_unlock(&t->lock);
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

nm_node *nm_lazy_formats(nm_node *file, const nm_reader *r)
{
	/* A reader's kind is fixed when it is made: so is this. */
	if (file && file->kind == NM_NODE_LAZY)
		file->formats_direct = nm_reader_direct(r);
	return file;
}

nm_node *nm_child(nm_tree *t, nm_node *dir, const char *name)
{
	pthread_mutex_lock(&t->lock);
	nm_node *n = dir->kind == NM_NODE_DIR ? nm_tree_find_child(t, dir, name) : NULL;
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
	if (more->len == 0)
		return NM_OK; /* nothing to add (and no buffer to copy from) */
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
	for (uint32_t i = 0; i < dir->nkids; i++) {
		const nm_node *k = dir->kids[i];
		if (k->kind != NM_NODE_DIR)
			n += strcmp(k->name, "error.txt") == 0;
		else if (!(k->pop && k->pop->phase != CONTENT_DONE) &&
			 !nm_tree_find_child(t, k, "info.txt"))
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

/* What ends a name cut at NM_SAFE_NAME_MAX: U+2026, three bytes. */
#define ELLIPSIS "\xE2\x80\xA6"

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
	size_t cut = 0; /* the last boundary of an escape or a character within the cut */
	for (size_t i = 0; i < len;) {
		if (o <= NM_SAFE_NAME_MAX - sizeof ELLIPSIS + 1)
			cut = o;
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
	if (o > NM_SAFE_NAME_MAX) {
		memcpy(s + cut, ELLIPSIS, sizeof ELLIPSIS - 1);
		o = cut + sizeof ELLIPSIS - 1;
	}
	if (o == 0)
		o += (size_t)sprintf(s, "%%00");
	s[o] = '\0';
	return s;
}

/* Whether a child of dir is named stem (i = 1) or stem~i, followed by one of exts; buf
 * has room for the longest such name. Under the lock. */
static bool stem_taken(nm_tree *t, nm_node *dir, const char *stem, unsigned i,
		       const char *const *exts, char *buf, size_t size)
{
	for (size_t k = 0; exts[k]; k++) {
		if (i == 1)
			snprintf(buf, size, "%s%s", stem, exts[k]);
		else
			snprintf(buf, size, "%s~%u%s", stem, i, exts[k]);
		if (nm_tree_find_child(t, dir, buf))
			return true;
	}
	return false;
}

/* The suffix is found by doubling, then halving between the last taken and the first
 * free: a hostile archive may list one name thousands of times, and trying ~2, ~3...
 * in turn for each would be quadratic. Where taken suffixes have gaps, the result is a
 * free one after a taken one, not always the smallest; it depends only on the names
 * already there, so a directory made again names its children the same. */
char *nm_unique_stem(nm_tree *t, nm_node *dir, const char *stem, const char *const *exts)
{
	static const char *const none[] = { "", NULL };
	if (!exts)
		exts = none;
	size_t longest = 0;
	for (size_t k = 0; exts[k]; k++)
		longest = strlen(exts[k]) > longest ? strlen(exts[k]) : longest;
	size_t size = strlen(stem) + sizeof "~4294967295" + longest;
	char *buf = malloc(size);
	if (!buf)
		return NULL;
	unsigned n = 1;
	pthread_mutex_lock(&t->lock);
	if (stem_taken(t, dir, stem, 1, exts, buf, size)) {
		unsigned lo = 1, hi = 2;
		while (hi < UINT_MAX && stem_taken(t, dir, stem, hi, exts, buf, size)) {
			lo = hi;
			hi = hi > UINT_MAX / 2 ? UINT_MAX : 2 * hi;
		}
		while (hi - lo > 1) {
			unsigned mid = lo + (hi - lo) / 2;
			if (stem_taken(t, dir, stem, mid, exts, buf, size))
				lo = mid;
			else
				hi = mid;
		}
		n = hi;
	}
	pthread_mutex_unlock(&t->lock);
	if (n == 1)
		snprintf(buf, size, "%s", stem);
	else
		snprintf(buf, size, "%s~%u", stem, n);
	return buf;
}

nm_node_kind nm_node_type(const nm_node *n) { return n->kind; }
const char *nm_node_name(const nm_node *n) { return n->name; }
nm_node *nm_node_parent(const nm_node *n) { return n->parent ? n->parent : (nm_node *)n; }
uint64_t nm_node_id(const nm_node *n) { return n->id; }

/* Called on every READ: a load first, so a marked node's line is not written again. */
bool nm_node_mark(nm_node *n, uint8_t bit)
{
	return !(atomic_load_explicit(&n->mark, memory_order_relaxed) & bit) &&
	       !(atomic_fetch_or(&n->mark, bit) & bit);
}

bool nm_node_at_hand(const nm_node *n)
{
	return n->kind == NM_NODE_TEXT || (n->kind == NM_NODE_SLICE && nm_reader_direct(n->reader)) ||
	       (n->kind == NM_NODE_LAZY && n->formats_direct);
}

bool nm_node_lazy_dir(const nm_node *n)
{
	return n->kind == NM_NODE_DIR && n->pop;
}

nm_status nm_lookup(nm_tree *t, nm_node *dir, const char *name, nm_node **out, nm_error *err)
{
	if (dir->kind != NM_NODE_DIR)
		return nm_fail(err, NM_E_NOTDIR, dir->name, NULL, NM_NO_OFFSET, "not a directory");
	pthread_mutex_lock(&t->lock);
	nm_status s = nm_content_populate(t, dir, err);
	nm_node *n = nm_tree_find_child(t, dir, name);
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
	nm_status s = nm_content_populate(t, dir, err);
	*out = dir->kids;
	*count = dir->nkids;
	pthread_mutex_unlock(&t->lock);
	return s; /* the children are valid even when the populate failed */
}

static nm_status produce(void *node, void *tree, nm_out *out, nm_error *err)
{
	nm_node *n = node;
	/* The size is exact: allocate it once, so the producer's writes never regrow and
	 * copy the buffer (nor leave it up to twice too large in the cache). */
	uint64_t size = atomic_load(&n->size);
	if (size != NM_SIZE_MEASURE && size <= SIZE_MAX)
		nm_out_expect(out, (size_t)size);
	out->threads = nm_tree_threads(tree);
	uint64_t outer = nm_reader_batch_begin();
	nm_status s = nm_tree_produce_split(tree, n, out, err);
	if (s == NM_E_UNSUPPORTED)
		s = n->produce(n->ctx, n->arg, out, err);
	nm_reader_batch_end(outer);
	return s;
}

/* Pinned produced bytes of a lazy file, checked against its declared size. A file
 * announced larger than max_file_size is refused before its producer runs. */
nm_status nm_tree_produced(nm_tree *t, nm_node *n, nm_cache_entry **e, nm_error *err)
{
	uint64_t announced = atomic_load(&n->size);
	if (announced != NM_SIZE_MEASURE && announced > t->opt.max_file_size)
		return nm_fail_limit(err, &t->opt, announced, n->name, NULL, NM_NO_OFFSET);
	nm_status s = nm_cache_get(t->cache, n, produce, n, t, e, err);
	if (s != NM_OK)
		return s;
	uint64_t want = atomic_load(&n->size), got = nm_cache_len(*e);
	if (want == NM_SIZE_MEASURE) {
		atomic_store(&n->size, got);
	} else if (want != got) {
		nm_cache_release(t->cache, *e);
		return nm_fail(err, NM_E_INTERNAL, n->name, NULL, NM_NO_OFFSET,
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
		nm_status s = nm_tree_produced(t, n, &e, err);
		if (s != NM_OK)
			return s;
		sz = nm_cache_len(e);
		nm_cache_release(t->cache, e);
	}
	*size = n->kind == NM_NODE_DIR ? 0 : sz;
	return NM_OK;
}

/* The bytes [off, off+*len) of a non-directory exist: clip len to the file's end. */
static nm_status clip(nm_tree *t, nm_node *n, uint64_t off, size_t *len, nm_error *err)
{
	if (n->kind == NM_NODE_DIR)
		return nm_fail(err, NM_E_ISDIR, n->name, NULL, NM_NO_OFFSET, "is a directory");
	uint64_t size;
	nm_status s = nm_size(t, n, &size, err);
	if (s != NM_OK)
		return s;
	*len = off >= size ? 0 : *len < size - off ? *len : (size_t)(size - off);
	return NM_OK;
}

static nm_status read_slice(nm_node *n, uint64_t off, void *buf, size_t len, nm_error *err)
{
	nm_status s = nm_reader_read(n->reader, n->off + off, buf, len, n->name, err);
	return s == NM_E_FORMAT ? NM_E_IO : s; /* the file shrank under us */
}

nm_status nm_read_pin(nm_tree *t, nm_node *n, uint64_t off, size_t len, nm_read_hold *h,
		      nm_error *err)
{
	*h = (nm_read_hold){ 0 };
	nm_status s = clip(t, n, off, &len, err);
	if (s != NM_OK || len == 0)
		return s;
	switch (n->kind) {
	case NM_NODE_TEXT:
		h->data = n->text + off;
		break;
	case NM_NODE_SLICE:
		/* Bounded by the request (the kernel's read size), not by the file. */
		h->owned = malloc(len);
		if (!h->owned)
			return nm_fail(err, NM_E_NOMEM, n->name, NULL, off, "out of memory");
		s = read_slice(n, off, h->owned, len, err);
		if (s != NM_OK) {
			free(h->owned);
			h->owned = NULL;
			return s;
		}
		h->data = h->owned;
		break;
	case NM_NODE_LAZY: {
		s = nm_tree_read_range(t, n, off, len, h, err);
		if (s != NM_E_UNSUPPORTED)
			return s;
		nm_cache_entry *e;
		s = nm_tree_produced(t, n, &e, err);
		if (s != NM_OK)
			return s;
		h->entry = e;
		h->data = nm_cache_data(e) + off;
		break;
	}
	case NM_NODE_DIR:
		return NM_E_INVAL;
	}
	h->len = len;
	return NM_OK;
}

bool nm_tree_peek(nm_tree *t, nm_node *n, nm_read_hold *h)
{
	*h = (nm_read_hold){ 0 };
	nm_cache_entry *e = n->kind == NM_NODE_LAZY ? nm_cache_peek(t->cache, n) : NULL;
	if (!e)
		return false;
	*h = (nm_read_hold){ nm_cache_data(e), nm_cache_len(e), e, NULL };
	return true;
}

void nm_tree_offer(nm_tree *t, nm_node *n, const uint8_t *data, size_t len)
{
	if (n->kind == NM_NODE_LAZY && atomic_load(&n->size) == len)
		nm_cache_offer(t->cache, n, data, len);
}

void nm_read_release(nm_tree *t, nm_read_hold *h)
{
	if (h->entry)
		nm_cache_release(t->cache, h->entry);
	free(h->owned);
	*h = (nm_read_hold){ 0 };
}

nm_status nm_read(nm_tree *t, nm_node *n, uint64_t off, void *buf, size_t len, size_t *got,
		  nm_error *err)
{
	*got = 0;
	nm_status s = clip(t, n, off, &len, err);
	if (s != NM_OK || len == 0)
		return s;
	if (n->kind == NM_NODE_SLICE) {
		s = read_slice(n, off, buf, len, err);
	} else {
		nm_read_hold h;
		s = nm_read_pin(t, n, off, len, &h, err);
		if (s == NM_OK)
			memcpy(buf, h.data, h.len);
		nm_read_release(t, &h);
	}
	if (s == NM_OK)
		*got = len;
	return s;
}

nm_status nm_read_made(nm_tree *t, nm_node *n, uint64_t off, void *buf, size_t len,
		       size_t *got, nm_error *err)
{
	nm_error ignored;
	if (n->kind == NM_NODE_LAZY)
		nm_produce(t, n, &ignored);   /* a failure is the read's to report */
	return nm_read(t, n, off, buf, len, got, err);
}
