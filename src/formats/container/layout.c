/* An archive laid out again around members of new lengths (nm_layout_members): what
 * every archive driver's repack shares, so that each writes only its own tables. */
#include <stdlib.h>
#include <string.h>
#include "formats/container/container.h"
#include "lib/alloc.h"

/* A run of members listed over the same bytes (the same offset and length: a table
 * may list one file twice), in the file's order. */
typedef struct group {
	uint64_t off, len;
	const nm_member_change *repl;   /* its new bytes, when its length changes */
	uint64_t new_off;
} group;

static int by_place(const void *x, const void *y)
{
	const group *a = x, *b = y;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Where old offset x is in the new layout: through the group whose bytes or whose gap
 * after it hold x. g[0..n) sorted; size the old length; end the new. */
static uint64_t map(const group *g, size_t n, uint64_t size, uint64_t end, uint64_t x)
{
	if (n == 0 || x < g[0].off)
		return x;
	for (size_t i = 0; i < n; i++) {
		uint64_t gap_end = i + 1 < n ? g[i + 1].off : size;
		if (x < g[i].off || x > gap_end || (x == gap_end && i + 1 < n))
			continue;
		if (!g[i].repl)
			return g[i].new_off + (x - g[i].off);
		if (x == g[i].off)
			return g[i].new_off;
		/* Inside a member replaced, or its gap: counted back from what follows. */
		uint64_t next = i + 1 < n ? g[i + 1].new_off : end, back = gap_end - x;
		uint64_t member_end = g[i].new_off + g[i].repl->len;
		return next - back < member_end ? member_end : next - back;
	}
	return end;
}

nm_status nm_layout_alloc(nm_layout *l, nm_reader *r, size_t n, const char *chunk,
			  nm_error *err)
{
	const nm_options *opt = nm_reader_options(r);
	size_t room = n ? n : 1;
	*l = (nm_layout){ .slots = nm_alloc(opt, room, sizeof *l->slots, err,
					    nm_reader_name(r), chunk, NM_NO_OFFSET) };
	l->off = l->slots ? nm_alloc(opt, room, 2 * sizeof *l->off, err, nm_reader_name(r),
				     chunk, NM_NO_OFFSET)
			  : NULL;
	if (!l->off) {
		free(l->slots);
		l->slots = NULL;
		return err->code;
	}
	l->len = l->off + room;
	return NM_OK;
}

void nm_layout_free(nm_layout *l)
{
	free(l->slots);
	free(l->off);
}

nm_status nm_layout_members(nm_reader *r, const nm_layout_slot *slots, size_t n,
			    uint64_t align, const nm_member_change *c, size_t nc, nm_out *out,
			    uint64_t *new_off, uint64_t *new_len, nm_error *err)
{
	const char *name = nm_reader_name(r);
	uint64_t size = nm_reader_size(r);
	if (align == 0)
		align = 1;
	for (size_t i = 0; i < n; i++)
		if (slots[i].off > size || slots[i].len > size - slots[i].off)
			return nm_fail(err, NM_E_FORMAT, name, NULL, slots[i].off, "a member of "
				       "0x%llx bytes runs past the end of the archive: it cannot be "
				       "laid out again", (unsigned long long)slots[i].len);
	uint8_t *old;
	nm_status s = nm_reader_load(r, 0, (size_t)size, NULL, &old, err);
	if (s != NM_OK)
		return s;
	group *g = nm_alloc(nm_reader_options(r), n ? n : 1, sizeof *g, err, name, NULL,
			    NM_NO_OFFSET);
	if (!g) {
		free(old);
		return err->code;
	}
	size_t ng = 0;
	for (size_t i = 0; i < n; i++)
		if (slots[i].len)
			g[ng++] = (group){ slots[i].off, slots[i].len, NULL, 0 };
	qsort(g, ng, sizeof *g, by_place);
	size_t k = 0;
	for (size_t i = 0; i < ng; i++) {
		if (k && g[i].off == g[k - 1].off && g[i].len == g[k - 1].len)
			continue;
		if (k && g[i].off < g[k - 1].off + g[k - 1].len) {
			s = nm_fail(err, NM_E_FORMAT, name, NULL, g[i].off, "members at 0x%llx "
				    "and 0x%llx share bytes: the archive cannot be laid out again",
				    (unsigned long long)g[k - 1].off, (unsigned long long)g[i].off);
			goto done;
		}
		g[k++] = g[i];
	}
	ng = k;
	/* Changes of the same length land in the old bytes as they are; one of another
	 * length must be a whole member, whose new bytes it then is. */
	for (size_t j = 0; j < nc; j++) {
		if (c[j].len == c[j].old_len) {
			memcpy(old + c[j].off, c[j].bytes, c[j].len);
			continue;
		}
		group key = { c[j].off, c[j].old_len, NULL, 0 };
		group *m = ng ? bsearch(&key, g, ng, sizeof *g, by_place) : NULL;
		if (!m) {
			s = nm_fail(err, NM_E_FORMAT, name, NULL, c[j].off, "0x%llx bytes there "
				    "would become 0x%zx, but they are no member the archive's table "
				    "lists: it cannot be laid out again",
				    (unsigned long long)c[j].old_len, c[j].len);
			goto done;
		}
		m->repl = &c[j];
	}
	nm_out_write(out, old, (size_t)(ng ? g[0].off : size));
	for (size_t i = 0; i < ng; i++) {
		uint64_t gap = g[i].off + g[i].len, gap_end = i + 1 < ng ? g[i + 1].off : size;
		g[i].new_off = out->len;
		if (!g[i].repl) {
			nm_out_write(out, old + g[i].off, (size_t)(gap_end - g[i].off));
			continue;
		}
		nm_out_write(out, g[i].repl->bytes, g[i].repl->len);
		/* What lies between it and the next member: kept unless it is only padding
		 * (zeros, where there is an alignment to keep); then zeros up to where the
		 * next member keeps its offset's remainder. */
		if (align == 1 || !all_zero(old + gap, gap_end - gap))
			nm_out_write(out, old + gap, (size_t)(gap_end - gap));
		while (out->len % align != gap_end % align && !out->failed)
			nm_out_char(out, 0);
	}
	s = nm_out_status(out);
	for (size_t i = 0; s == NM_OK && i < n; i++) {
		group key = { slots[i].off, slots[i].len, NULL, 0 };
		const group *m = slots[i].len ? bsearch(&key, g, ng, sizeof *g, by_place) : NULL;
		new_off[i] = m ? m->new_off : map(g, ng, size, out->len, slots[i].off);
		new_len[i] = m && m->repl ? m->repl->len : slots[i].len;
	}
	if (s != NM_OK)
		s = nm_fail(err, s, name, NULL, NM_NO_OFFSET, "no room to lay the archive out "
			    "again");
done:
	free(g);
	free(old);
	return s;
}
