/* What parse_cmab.c and parse_csab.c share: the loaded file, the arena, the bound on
 * key memory, and how a target records why it failed. Private to the driver. */
#ifndef NM_GREZZO_ANIM_PARSE_KEYS_H
#define NM_GREZZO_ANIM_PARSE_KEYS_H

#include <stdarg.h>
#include "formats/grezzo_anim/grezzo_anim.h"
#include "lib/view.h"

typedef struct ga_parser {
	nm_tree *t;
	ga_anim *a;
	nm_view v;            /* the whole file; offsets in it are absolute */
	const nm_options *opt;
	/* Stored key bytes read so far. Tracks that do not overlap cannot add up to more
	 * than the file; a hostile file whose targets all point at one long track could
	 * otherwise make the parse allocate (count x targets) keys. */
	uint64_t key_bytes;
	uint64_t key_alloc;   /* bytes of nm_key arrays allocated */
} ga_parser;

/* Load r whole into p->v (the options' max_file_size applies) and start *a. */
nm_status ga_parser_open(ga_parser *p, nm_reader *r, nm_tree *t, ga_anim *a, ga_kind kind,
			 const char *block, nm_error *err);
void ga_parser_close(ga_parser *p);

/* Whether len bytes from the absolute offset off lie in the file (overflow-checked). */
bool ga_has(const ga_parser *p, uint64_t off, uint64_t len);

/* The target fails: "FILE: BLOCK at 0xOFF: message", kept in g->error (the first reason
 * stays). Returns NM_E_FORMAT, or NM_E_NOMEM when the message could not be kept. */
nm_status ga_target_fail(ga_parser *p, ga_target *g, const char *block, uint64_t off,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A record that starts with its FourCC: len bytes at at lie in the file and begin with
 * fourcc, or g fails naming what ran past the end ("the entry's header") or the magic
 * found instead. */
nm_status ga_record_head(ga_parser *p, ga_target *g, const char *block, uint64_t at,
			 uint64_t len, const char *fourcc, const char *what);

/* The same with a message already made. */
nm_status ga_target_error(ga_parser *p, ga_target *g, const nm_error *e);

/* A new track of count keys stored in count * stride bytes from key_off, for g: checks
 * that they lie in the file and fit the bounds above, then allocates the track and its
 * keys (zeroed). NULL with g failed (NM_E_FORMAT in *s), or *s = NM_E_NOMEM. */
ga_track *ga_track_new(ga_parser *p, ga_target *g, const char *block, uint64_t at,
		       uint64_t key_off, uint64_t count, uint64_t stride, nm_status *s);

#endif
