/* RFRM forms and chunks (FORMATS.md 6.1, 6.2), for every Tropical Freeze asset.
 *
 * A form descriptor is "RFRM", u64 data size, u64 unknown, FourCC type, two u32
 * versions (0x20 bytes). A chunk descriptor is FourCC, u64 size, u32 unknown, u64 skip
 * (0x18 bytes); its data starts skip bytes after the descriptor. Everything is
 * big-endian in both releases. A form's data is a sequence of chunks and forms; the
 * walker checks every size against the data of the form it is in. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"

void rfrm_fourcc_print(char out[5], const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		out[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	out[4] = '\0';
}

/* GUID = u32, u16, u16, u64, big-endian: the canonical string is the bytes in order. */
void rfrm_guid_str(char out[RFRM_GUID_STR], const uint8_t *g)
{
	snprintf(out, RFRM_GUID_STR,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
		 g[12], g[13], g[14], g[15]);
}

bool rfrm_guid_zero(const uint8_t *g)
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return false;
	return true;
}

nm_status rfrm_read_item(nm_reader *r, uint64_t off, uint64_t end, rfrm_item *it,
			 nm_error *err)
{
	uint8_t d[RFRM_FORM_LEN];
	const char *file = nm_reader_name(r);
	memset(it, 0, sizeof *it);
	it->off = off;
	if (off > end || end - off < RFRM_CHUNK_LEN)
		return nm_fail(err, NM_E_FORMAT, file, NULL, off,
			       "0x%llx bytes left in the form: too few for a chunk descriptor (0x18)",
			       (unsigned long long)(off > end ? 0 : end - off));
	nm_status s = nm_reader_read(r, off, d, RFRM_CHUNK_LEN, NULL, err);
	if (s != NM_OK)
		return s;
	char id[5];
	if (memcmp(d, "RFRM", 4) == 0) {
		if (end - off < RFRM_FORM_LEN)
			return nm_fail(err, NM_E_FORMAT, file, "RFRM", off,
				       "form descriptor (0x20 bytes) runs past the end of its parent");
		s = nm_reader_read(r, off, d, RFRM_FORM_LEN, NULL, err);
		if (s != NM_OK)
			return s;
		it->is_form = true;
		rfrm_fourcc_print(id, d + 0x14);
		memcpy(it->id, d + 0x14, 4);
		it->size = nm_be64(d + 4);
		it->form_unknown = nm_be64(d + 0x0c);
		it->version[0] = nm_be32(d + 0x18);
		it->version[1] = nm_be32(d + 0x1c);
		it->data_off = off + RFRM_FORM_LEN;
		if (it->size > end - it->data_off)
			return nm_fail(err, NM_E_FORMAT, file, id, off,
				       "form of 0x%llx bytes runs past the end of its parent (0x%llx bytes left)",
				       (unsigned long long)it->size,
				       (unsigned long long)(end - it->data_off));
		return NM_OK;
	}
	rfrm_fourcc_print(id, d);
	memcpy(it->id, d, 4);
	it->size = nm_be64(d + 4);
	it->unknown = nm_be32(d + 0x0c);
	it->skip = nm_be64(d + 0x10);
	uint64_t left = end - off - RFRM_CHUNK_LEN;
	if (it->skip > left)
		return nm_fail(err, NM_E_FORMAT, file, id, off,
			       "chunk skip of 0x%llx bytes runs past the end of its form",
			       (unsigned long long)it->skip);
	it->data_off = off + RFRM_CHUNK_LEN + it->skip;
	if (it->size > left - it->skip)
		return nm_fail(err, NM_E_FORMAT, file, id, off,
			       "chunk of 0x%llx bytes runs past the end of its form (0x%llx bytes left)",
			       (unsigned long long)it->size,
			       (unsigned long long)(left - it->skip));
	return NM_OK;
}

nm_status rfrm_read_form(nm_reader *r, uint64_t off, uint64_t end, rfrm_item *form,
			 nm_error *err)
{
	uint8_t magic[4];
	if (off > end || end - off < RFRM_FORM_LEN)
		return nm_fail(err, NM_E_FORMAT, nm_reader_name(r), NULL, off,
			       "0x%llx bytes: too few for an RFRM form descriptor (0x20)",
			       (unsigned long long)(off > end ? 0 : end - off));
	nm_status s = nm_reader_read(r, off, magic, 4, NULL, err);
	if (s != NM_OK)
		return s;
	if (memcmp(magic, "RFRM", 4) != 0) {
		char id[5];
		rfrm_fourcc_print(id, magic);
		return nm_fail(err, NM_E_FORMAT, nm_reader_name(r), NULL, off,
			       "expected an RFRM form, found \"%s\"", id);
	}
	return rfrm_read_item(r, off, end, form, err);
}

/* Walks the items of form, *n of them, keeping the first max in out (out may be NULL).
 * Every item takes at least 0x18 bytes: that bounds the walk by real bytes. */
static nm_status read_items(nm_reader *r, const rfrm_item *form, rfrm_item *out, size_t max,
			    size_t *n, nm_error *err)
{
	size_t cap = (size_t)(form->size / RFRM_CHUNK_LEN);
	uint64_t off = form->data_off, end = rfrm_item_end(form);
	rfrm_item it;
	*n = 0;
	while (off < end && *n < cap) {
		rfrm_item *p = out && *n < max ? &out[*n] : &it;
		nm_status s = rfrm_read_item(r, off, end, p, err);
		if (s != NM_OK)
			return s;
		off = rfrm_item_end(p);
		(*n)++;
	}
	if (off < end) {
		char fid[5];
		rfrm_fourcc_print(fid, (const uint8_t *)form->id);
		return nm_fail(err, NM_E_FORMAT, nm_reader_name(r), fid, off,
			       "0x%llx bytes after the last chunk of the form",
			       (unsigned long long)(end - off));
	}
	return NM_OK;
}

nm_status rfrm_list_items(nm_reader *r, nm_tree *t, const rfrm_item *form, rfrm_item **items,
			  size_t *count, bool *broken, nm_error *err)
{
	/* Counted first, so that the array holds the items rather than their bound; the
	 * second walk keeps them and stops where the first did, for the same reason. */
	size_t n, again;
	read_items(r, form, NULL, 0, &n, err);
	*items = nm_tree_alloc_array(t, n ? n : 1, sizeof **items);
	*count = 0;
	*broken = false;
	if (!*items) {
		char fid[5];
		rfrm_fourcc_print(fid, (const uint8_t *)form->id);
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), fid, form->off,
			       "out of memory");
	}
	nm_status s = read_items(r, form, *items, n, &again, err);
	*count = again < n ? again : n;
	*broken = s != NM_OK;
	return s;
}

nm_status rfrm_table_load(nm_reader *r, const rfrm_item *it, const char *name, nm_view *v,
			  nm_error *err)
{
	if (it->size > RFRM_MAX_TABLE)
		return nm_fail(err, NM_E_LIMIT, nm_reader_name(r), name, it->off,
			       "chunk of %llu bytes: larger than the %u MiB we load for a table",
			       (unsigned long long)it->size, RFRM_MAX_TABLE >> 20);
	return nm_view_load(r, it->data_off, (size_t)it->size, name, NM_BIG, v, err);
}

void rfrm_item_record(nm_rec *r, const rfrm_item *it)
{
	char id[5];
	rfrm_fourcc_print(id, (const uint8_t *)it->id);
	nm_rec_derived(r, "kind", "%s", it->is_form ? "form" : "chunk");
	nm_rec_derived_str(r, it->is_form ? "form_type" : "id", id);
	nm_rec_derived(r, "offset", "0x%llx", (unsigned long long)it->off);
	nm_rec_derived(r, "data_offset", "0x%llx", (unsigned long long)it->data_off);
	nm_rec_derived(r, "size", "%llu", (unsigned long long)it->size);
	if (it->is_form) {
		nm_rec_derived(r, "version", "%u", it->version[0]);
		nm_rec_derived(r, "writer_version", "%u", it->version[1]);
		nm_rec_derived(r, "unknown", "0x%llx", (unsigned long long)it->form_unknown);
	} else {
		nm_rec_derived(r, "unknown", "%u", it->unknown);
		nm_rec_derived(r, "skip", "%llu", (unsigned long long)it->skip);
	}
}

void rfrm_rec_replay(nm_rec *r, const char *text, size_t len)
{
	for (size_t at = 0; at < len;) {
		const char *line = text + at;
		const char *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		const char *colon = memchr(line, ':', n);
		at += n + 1;
		if (!colon)
			continue;
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(colon - line), line);
		const char *val = colon + 1 < line + n ? colon + 2 : colon + 1;
		nm_rec_derived(r, key, "%.*s", (int)(line + n - val), val);
	}
}

void rfrm_item_text(nm_out *o, const rfrm_item *it)
{
	nm_rec r;
	nm_rec_write(&r, o, NULL);
	rfrm_item_record(&r, it);
}

nm_node *rfrm_item_dir(nm_tree *t, nm_node *parent, nm_reader *r, const rfrm_item *it,
		       const char *extra, size_t extra_len)
{
	char low[5];
	size_t n = 4;
	for (int i = 0; i < 4; i++)
		low[i] = (char)tolower((unsigned char)it->id[i]);
	while (n > 0 && (low[n - 1] == ' ' || low[n - 1] == '\0'))
		n--;
	size_t start = 0;
	while (start < n && low[start] == ' ')
		start++;
	char *safe = nm_safe_name(low + start, n - start);
	char *name = safe ? nm_unique_stem(t, parent, safe, NULL) : NULL;
	free(safe);
	if (!name)
		return NULL;
	nm_node *d = nm_dir(t, parent, name);
	free(name);
	if (!d)
		return NULL;
	nm_out o;
	nm_out_init(&o);
	rfrm_item_text(&o, it);
	if (extra)
		nm_out_write(&o, extra, extra_len);
	nm_text(t, d, "header.txt", &o);
	nm_out_free(&o);
	nm_slice(t, d, "raw.bin", r, it->data_off, it->size);
	return d;
}

void rfrm_add_items(nm_tree *t, nm_node *dir, nm_reader *r, const rfrm_item *form,
		    int depth)
{
	nm_error err;
	char fid[5];
	rfrm_fourcc_print(fid, (const uint8_t *)form->id);
	uint64_t max_depth = nm_tree_options(t)->max_depth;
	if ((uint64_t)depth >= max_depth) {
		nm_fail(&err, NM_E_LIMIT, nm_reader_name(r), fid, form->off,
			"forms nested more than %llu deep: not shown (max_depth)",
			(unsigned long long)max_depth);
		nm_error_file(t, dir, &err);
		return;
	}
	uint64_t off = form->data_off, end = rfrm_item_end(form);
	while (off < end) {
		rfrm_item it;
		if (rfrm_read_item(r, off, end, &it, &err) != NM_OK) {
			/* The bytes the walk could not read stay reachable: a damaged list, or
			 * a record body of a type not known to be one (record_form in
			 * tree_model.c), is then still there to read. */
			nm_error_file(t, dir, &err);
			nm_slice(t, dir, "unparsed.bin", r, off, end - off);
			return;
		}
		nm_node *d = rfrm_item_dir(t, dir, r, &it, NULL, 0);
		if (d && it.is_form)
			rfrm_add_items(t, d, r, &it, depth + 1);
		off = rfrm_item_end(&it);
	}
}
