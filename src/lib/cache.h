/* An LRU cache of produced file contents, bounded in bytes, shared by all threads.
 * A miss runs the fill function once: other threads asking for the same key meanwhile
 * wait for it instead of producing again. Entries in use are pinned and never freed
 * under their reader; the entry being returned is always kept, even when it alone is
 * larger than the limit (so a big file is produced once per read pass, not per read). */
#ifndef NM_CACHE_H
#define NM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/options.h"
#include "lib/out.h"

typedef struct nm_cache nm_cache;
typedef struct nm_cache_entry nm_cache_entry;
typedef nm_status (*nm_fill_fn)(void *ctx, void *arg, nm_out *out, nm_error *err);

/* Bounded by opt->cache_size; fills write under opt (its max_file_size caps each entry).
 * opt must outlive the cache (the tree owns both). */
nm_cache *nm_cache_new(const nm_options *opt);
/* Bound it by limit bytes instead (less than cache_size when something else shares that
 * budget); entries past it go at the next insertion. */
void nm_cache_set_limit(nm_cache *c, size_t limit);
void nm_cache_free(nm_cache *c);

/* The pinned entry for key, filled by fill(ctx, arg) on a miss. fill always gets a
 * non-NULL err, even when err is NULL here. */
nm_status nm_cache_get(nm_cache *c, const void *key, nm_fill_fn fill, void *ctx, void *arg,
		       nm_cache_entry **entry, nm_error *err);
/* Drop key's entry (its key is about to be freed and may be reused); a pinned one goes
 * at its last release. */
void nm_cache_forget(nm_cache *c, const void *key);
/* The pinned entry for key if it is already filled, else NULL; never fills. (A reader
 * of decompressed data uses the whole content when it is at hand, a decoded prefix
 * otherwise.) */
nm_cache_entry *nm_cache_peek(nm_cache *c, const void *key);
/* Keep a copy of len bytes at data as key's entry, if key has none (filled or being
 * filled): bytes another fill made on its way (model.glb writes each PNG it embeds), so
 * that key's own fill does not make them again. Never waits, never fills; an entry
 * larger than the whole limit is not kept. */
void nm_cache_offer(nm_cache *c, const void *key, const uint8_t *data, size_t len);
/* Whether key's entry is filled or being filled (never waits, never fills). */
bool nm_cache_has(nm_cache *c, const void *key);
const uint8_t *nm_cache_data(const nm_cache_entry *e);
size_t nm_cache_len(const nm_cache_entry *e);
void nm_cache_release(nm_cache *c, nm_cache_entry *e);

/* Statistics, for tests and benchmarks. */
uint64_t nm_cache_fills(nm_cache *c);
size_t nm_cache_bytes(nm_cache *c);

#endif
