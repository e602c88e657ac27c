/* The parse context both Grezzo animation parsers share (parse_keys.h). */
#include <stdio.h>
#include <string.h>
#include "formats/grezzo_anim/parse_keys.h"
#include "lib/alloc.h"

nm_status ga_parser_open(ga_parser *p, nm_reader *r, nm_tree *t, ga_anim *a, ga_kind kind,
			 const char *block, nm_error *err)
{
	*p = (ga_parser){ .t = t, .a = a, .opt = nm_reader_options(r) };
	*a = (ga_anim){ .kind = kind, .file = nm_reader_name(r), .file_size = nm_reader_size(r) };
	if (a->file_size > SIZE_MAX)
		return nm_fail_limit(err, p->opt, a->file_size, a->file, block, 0);
	/* Animations are small (the largest real CMAB, 131 KB, is mostly texture data):
	 * one read of the whole file, under the same limit as any other load. */
	return nm_view_load(r, 0, (size_t)a->file_size, block, NM_LITTLE, &p->v, err);
}

void ga_parser_close(ga_parser *p)
{
	nm_view_free(&p->v);
}

bool ga_has(const ga_parser *p, uint64_t off, uint64_t len)
{
	return off <= p->v.size && len <= p->v.size - off;
}

nm_status ga_target_fail(ga_parser *p, ga_target *g, const char *block, uint64_t off,
			 const char *fmt, ...)
{
	if (g->error)
		return NM_E_FORMAT;
	nm_error e;
	va_list ap;
	va_start(ap, fmt);
	nm_failv(&e, NM_E_FORMAT, p->a->file, block, off, fmt, ap);
	va_end(ap);
	return ga_target_error(p, g, &e);
}

nm_status ga_record_head(ga_parser *p, ga_target *g, const char *block, uint64_t at,
			 uint64_t len, const char *fourcc, const char *what)
{
	if (!ga_has(p, at, len))
		return ga_target_fail(p, g, block, at, "%s runs past the end of the file (0x%zx "
				      "bytes)", what, p->v.size);
	const uint8_t *magic = nm_bytes(&p->v, at, 4);
	if (memcmp(magic, fourcc, 4) != 0)
		return ga_target_fail(p, g, block, at, "expected the magic \"%s\", found %02x %02x "
				      "%02x %02x", fourcc, magic[0], magic[1], magic[2], magic[3]);
	return NM_OK;
}

nm_status ga_target_error(ga_parser *p, ga_target *g, const nm_error *e)
{
	g->ok = false;
	if (g->error)
		return NM_E_FORMAT;
	g->error = nm_tree_printf(p->t, "%s", e->msg);
	return g->error ? NM_E_FORMAT : NM_E_NOMEM;
}

ga_track *ga_track_new(ga_parser *p, ga_target *g, const char *block, uint64_t at,
		       uint64_t key_off, uint64_t count, uint64_t stride, nm_status *s)
{
	uint64_t bytes = count * stride; /* count < 2^32, stride <= 16: no overflow */
	if (!ga_has(p, key_off, bytes)) {
		*s = ga_target_fail(p, g, block, at, "%llu keys of %llu bytes from 0x%llx run past "
				    "the end of the file (0x%llx bytes)", (unsigned long long)count,
				    (unsigned long long)stride, (unsigned long long)key_off,
				    (unsigned long long)p->v.size);
		return NULL;
	}
	if (p->key_bytes + bytes > p->v.size) {
		*s = ga_target_fail(p, g, block, at, "the tracks read so far hold %llu bytes of keys, "
				    "more than the file's 0x%llx: tracks overlap (each track is read "
				    "once per use)", (unsigned long long)(p->key_bytes + bytes),
				    (unsigned long long)p->v.size);
		return NULL;
	}
	size_t need;
	uint64_t want = p->key_alloc + count * sizeof(nm_key);
	if (nm_alloc_check(p->opt, want, 1, &need) != NM_OK) {
		nm_error e;
		nm_fail_limit(&e, p->opt, want, p->a->file, block, at);
		*s = ga_target_error(p, g, &e);
		return NULL;
	}
	ga_track *tr = nm_tree_alloc(p->t, sizeof *tr);
	nm_key *keys = count ? nm_tree_alloc_array(p->t, (size_t)count, sizeof *keys) : NULL;
	if (!tr || (count && !keys)) {
		*s = NM_E_NOMEM;
		return NULL;
	}
	p->key_bytes += bytes;
	p->key_alloc += count * sizeof(nm_key);
	tr->at = at;
	tr->end = key_off + bytes;
	tr->count = (uint32_t)count;
	tr->keys = keys;
	*s = NM_OK;
	return tr;
}
