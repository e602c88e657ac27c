/* Tropical Freeze assets and PAKs laid out again when bytes inside change length
 * (nmodel apply; doc/rfrm.md): a GPU buffer compressed again to another size, an asset
 * of a PAK replaced by a longer one.
 *
 * An asset (rfrm_form_repack): its items walked as the driver walks them (forms into
 * their items; a form whose data is not a list of items, CHAR's record, is one item);
 * the container layer moves the innermost items' data (nm_layout_members, no alignment:
 * chunks are not aligned, FORMATS.md §9), then every descriptor's size is written
 * again: an item's its new length, a form's its own plus what grew inside it. The
 * descriptors, skips and anything after the form stay as they were.
 *
 * A PAK (rfrm_pak_repack): its assets moved keeping their offsets' remainder modulo
 * 32, then each ADIR entry's offset and size and the PACK form's size are written
 * again, and a moved model's META blob (meta_rewrite.c); STRG is untouched. */
#include <stdlib.h>
#include <string.h>
#include "formats/container/container.h"
#include "formats/rfrm/rfrm.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

#define PAK_ALIGN 32u

typedef struct item_list {
	rfrm_item *it;
	bool *leaf;
	size_t n, cap;
} item_list;

static bool add_item(item_list *l, const rfrm_item *it, bool leaf)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		rfrm_item *a = realloc(l->it, cap * sizeof *a);
		if (a)
			l->it = a;
		bool *b = a ? realloc(l->leaf, cap * sizeof *b) : NULL;
		if (!b)
			return false;
		l->leaf = b;
		l->cap = cap;
	}
	l->it[l->n] = *it;
	l->leaf[l->n++] = leaf;
	return true;
}

/* The items of [off, end) of r, forms walked into (a form whose data does not walk is
 * one leaf). Each item takes at least 0x18 bytes, which bounds the list by the bytes. */
static nm_status walk(nm_reader *r, uint64_t off, uint64_t end, item_list *l, unsigned depth,
		      nm_error *err)
{
	while (off < end) {
		rfrm_item it;
		nm_status s = rfrm_read_item(r, off, end, &it, err);
		if (s != NM_OK)
			return s;
		size_t at = l->n;
		if (!add_item(l, &it, true))
			return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
				       "out of memory");
		if (it.is_form && depth < 16) {
			nm_error inner;
			size_t before = l->n;
			if (walk(r, it.data_off, rfrm_item_end(&it), l, depth + 1, &inner) == NM_OK)
				l->leaf[at] = false;
			else if (inner.code == NM_E_NOMEM)
				return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL,
					       NM_NO_OFFSET, "out of memory");
			else
				l->n = before; /* a record, not items: one leaf */
		}
		off = rfrm_item_end(&it);
	}
	return NM_OK;
}

nm_status rfrm_form_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
			   nm_out *out, nm_error *err)
{
	(void)ctx;
	item_list l = { 0 };
	nm_layout lay = { 0 };
	nm_status s = walk(r, 0, nm_reader_size(r), &l, 0, err);
	if (s == NM_OK)
		s = nm_layout_alloc(&lay, r, l.n, NULL, err);
	nm_layout_slot *slots = lay.slots;
	uint64_t *off = lay.off, *len = lay.len;
	for (size_t i = 0; s == NM_OK && i < l.n; i++)
		slots[i] = l.leaf[i] ? (nm_layout_slot){ l.it[i].data_off, l.it[i].size }
				     : (nm_layout_slot){ l.it[i].data_off, 0 };
	if (s == NM_OK)
		s = nm_layout_members(r, slots, l.n, 1, c, nc, out, off, len, err);
	for (size_t i = 0; s == NM_OK && i < l.n; i++) {
		/* Everything between the leaves is kept, so a descriptor moves by what the
		 * leaves before it grew, and a form grows by what its leaves grew. */
		int64_t before = 0, inside = 0;
		uint64_t from = l.it[i].data_off, to = rfrm_item_end(&l.it[i]);
		for (size_t k = 0; k < l.n; k++) {
			if (!l.leaf[k])
				continue;
			int64_t grew = (int64_t)len[k] - (int64_t)l.it[k].size;
			if (rfrm_item_end(&l.it[k]) <= l.it[i].off)
				before += grew;
			else if (l.it[k].data_off >= from && rfrm_item_end(&l.it[k]) <= to)
				inside += grew;
		}
		uint8_t *d = out->data + (int64_t)l.it[i].off + before;
		uint64_t size = l.leaf[i] ? len[i] : (uint64_t)((int64_t)l.it[i].size + inside);
		nm_put_be32(d + 4, (uint32_t)(size >> 32));
		nm_put_be32(d + 8, (uint32_t)size);
	}
	free(l.it);
	free(l.leaf);
	nm_layout_free(&lay);
	return s;
}

nm_status rfrm_pak_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
			  nm_out *out, nm_error *err)
{
	const rfrm_pak *p = ctx;
	nm_layout lay;
	if (nm_layout_alloc(&lay, r, p->count, "ADIR", err) != NM_OK)
		return err->code;
	nm_layout_slot *slots = lay.slots;
	uint64_t *off = lay.off, *len = lay.len;
	nm_status s = NM_OK;
	for (size_t i = 0; i < p->count; i++) {
		slots[i] = (nm_layout_slot){ p->entries[i].off, p->entries[i].size };
		/* The table of contents is rewritten where it is: no asset may lie in it. */
		if (slots[i].len && slots[i].off < rfrm_item_end(&p->tocc))
			s = nm_fail(err, NM_E_FORMAT, nm_reader_name(r), "ADIR", NM_NO_OFFSET,
				    "asset %zu lies inside the table of contents (at 0x%llx): the "
				    "PAK cannot be laid out again", i,
				    (unsigned long long)slots[i].off);
	}
	if (s == NM_OK)
		s = nm_layout_members(r, slots, p->count, PAK_ALIGN, c, nc, out, off, len, err);
	if (s == NM_OK) {
		/* The table of contents comes before every asset: where it was. */
		for (size_t i = 0; i < p->count; i++) {
			uint8_t *e = out->data + p->adir.data_off + 4 + i * 0x24;
			nm_put_be32(e + 20, (uint32_t)(off[i] >> 32));
			nm_put_be32(e + 24, (uint32_t)off[i]);
			nm_put_be32(e + 28, (uint32_t)(len[i] >> 32));
			nm_put_be32(e + 32, (uint32_t)len[i]);
		}
		/* A model's META blob says where its buffers lie: written again (the META
		 * chunk is in the table of contents, where it was); any other asset's
		 * blob is not known well enough to. */
		for (size_t i = 0; s == NM_OK && i < p->count; i++) {
			const rfrm_pak_entry *e = &p->entries[i];
			if (len[i] == slots[i].len || !e->has_meta)
				continue;
			if (!rfrm_is_model_type(e->type) || !e->meta_len) {
				s = nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(r), "META",
					    NM_NO_OFFSET, "asset %zu (%s) would change length, and "
					    "apply does not rewrite its META blob", i, e->type);
				break;
			}
			uint8_t *blob = malloc(e->meta_len);
			s = blob ? rfrm_meta_rewrite(p, e, out->data + off[i], len[i], blob, err)
				 : nm_fail(err, NM_E_NOMEM, nm_reader_name(r), "META",
					   NM_NO_OFFSET, "out of memory");
			if (s == NM_OK)
				memcpy(out->data + p->meta.data_off + e->meta, blob, e->meta_len);
			free(blob);
		}
		uint64_t size = p->pack.size + (out->len - nm_reader_size(r));
		uint8_t *h = out->data + p->pack.off;
		nm_put_be32(h + 4, (uint32_t)(size >> 32));
		nm_put_be32(h + 8, (uint32_t)size);
	}
	nm_layout_free(&lay);
	return s;
}
