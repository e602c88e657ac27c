/* PAK archives (FORMATS.md 6.3 and 9, kinnay's dkctf/pak.md): RFRM(PACK) whose data
 * starts with RFRM(TOCC), which holds
 *  ADIR: List<{FourCC type, GUID, u64 offset (from the start of the PAK), u64 size}>;
 *  META (optional): List<{GUID, u32 offset}>, the offset of that asset's metadata blob,
 *        taken relative to the META chunk's data (FORMATS.md [M]; checked);
 *  STRG (optional): List<{FourCC type, GUID, name}>.
 * Two layouts are in use. The Wii U wiki's: NUL-terminated names and bare META blobs
 * (a model's blob measured by its own lists). The one real Switch PAKs have
 * (waxedhyphen/pakpydkctf, which reads them): a u32 name length before each name (the
 * NUL inside it) and a u32 size before each META blob. Each chunk is read in the
 * sized layout when that layout accounts for its bytes exactly (names end at the
 * chunk's end; the blobs follow the table back to back up to the chunk's end), else
 * in the wiki's: no game or platform is guessed.
 * Only the table of contents is read here: the assets are read when their directory is
 * first looked at. A broken META or STRG is reported and ignored; a broken ADIR fails. */
#include <stdlib.h>
#include <string.h>
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"
#include "lib/view.h"

#define ADIR_ENTRY 0x24
#define META_ENTRY 0x14

/* GUIDs with their entry index, sorted, to make the order below. */
struct gkey {
	uint8_t guid[16];
	size_t index;
};

static int cmp_gkey(const void *a, const void *b)
{
	const struct gkey *x = a, *y = b;
	int c = memcmp(x->guid, y->guid, 16);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The entries' indices in GUID order (ties in ADIR order), kept for the META and STRG
 * lookups and the models' texture lookups: 4 bytes per asset, the sort's keys freed. */
static uint32_t *guid_order(nm_tree *t, const rfrm_pak *p)
{
	struct gkey *k = malloc((p->count ? p->count : 1) * sizeof *k);
	uint32_t *o = nm_tree_alloc_array(t, p->count ? p->count : 1, sizeof *o);
	if (!k || !o) {
		free(k);
		return NULL;
	}
	for (size_t i = 0; i < p->count; i++) {
		memcpy(k[i].guid, p->entries[i].guid, 16);
		k[i].index = i;
	}
	qsort(k, p->count, sizeof *k, cmp_gkey);
	for (size_t i = 0; i < p->count; i++)
		o[i] = (uint32_t)k[i].index;
	free(k);
	return o;
}

/* The first entry (in ADIR order) with this GUID. */
static rfrm_pak_entry *find_guid(rfrm_pak *p, const uint32_t *order, const uint8_t *guid)
{
	size_t lo = 0, hi = p->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(p->entries[order[mid]].guid, guid, 16) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->count && memcmp(p->entries[order[lo]].guid, guid, 16) == 0
		       ? &p->entries[order[lo]] : NULL;
}

static nm_status parse_adir(nm_tree *t, rfrm_pak *p, nm_error *err)
{
	nm_view v;
	nm_status s = rfrm_table_load(p->r, &p->adir, "ADIR", &v, err);
	if (s != NM_OK)
		return s;
	uint32_t n = nm_u32(&v, 0);
	if (!nm_view_table(&v, 4, n, ADIR_ENTRY, "assets", err)) {
		nm_view_free(&v);
		return NM_E_FORMAT;
	}
	p->entries = nm_tree_alloc_array(t, n ? n : 1, sizeof *p->entries);
	if (!p->entries) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, v.file, "ADIR", NM_NO_OFFSET, "out of memory");
	}
	p->count = n;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = v.data + 4 + (size_t)i * ADIR_ENTRY;
		rfrm_pak_entry *pe = &p->entries[i];
		memcpy(pe->type, e, 4);
		pe->type[4] = '\0';
		memcpy(pe->guid, e + 4, 16);
		pe->off = nm_be64(e + 20);
		pe->size = nm_be64(e + 28);
	}
	nm_view_free(&v);
	return NM_OK;
}

/* Does every META entry point at a u32 size, the blobs following the table back to
 * back, the last ending with the chunk? */
static bool meta_is_sized(const uint8_t *d, size_t len, uint32_t n)
{
	size_t table_end = 4 + (size_t)n * META_ENTRY, covered = 0;
	if (n == 0)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = nm_be32(d + 4 + (size_t)i * META_ENTRY + 16);
		if (off < table_end || off > len || len - off < 4 || nm_be32(d + off) > len - off - 4)
			return false;
		covered += 4 + (size_t)nm_be32(d + off);
	}
	/* Listed once each, the blobs fill what follows the table exactly. */
	return covered == len - table_end;
}

/* The META chunk stays loaded (p->meta_view, freed with the PAK): the models read their
 * blobs from it when their directories are built. */
static nm_status parse_meta(rfrm_pak *p, const uint32_t *order, nm_error *err)
{
	nm_view *v = &p->meta_view;
	nm_status s = rfrm_table_load(p->r, &p->meta, "META", v, err);
	if (s != NM_OK)
		return s;
	p->meta_data = v->data;
	p->meta_size = v->size;
	if (p->meta_size > UINT32_MAX - 4) /* entries keep u32 offsets and lengths */
		return nm_view_fail_at(v, err, NM_E_LIMIT, 0, "a META chunk of 4 GiB or more");
	uint32_t n = nm_u32(v, 0);
	if (!nm_view_table(v, 4, n, META_ENTRY, "metadata entries", err))
		return NM_E_FORMAT;
	p->meta_sized = meta_is_sized(p->meta_data, p->meta_size, n);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = p->meta_data + 4 + (size_t)i * META_ENTRY;
		uint32_t off = nm_be32(e + 16);
		rfrm_pak_entry *pe = find_guid(p, order, e);
		if (!pe || pe->has_meta)
			continue; /* no such asset, or listed twice: the first counts */
		if (off >= p->meta_size)
			return nm_view_fail_at(v, err, NM_E_FORMAT, 4 + (size_t)i * META_ENTRY,
					       "metadata entry %u points at 0x%x, past the META chunk (0x%zx bytes)",
					       i, off, p->meta_size);
		if (p->meta_sized) {
			pe->meta = off + 4;
			pe->meta_len = nm_be32(p->meta_data + off);
		} else {
			pe->meta = off;
			if (rfrm_is_model_type(pe->type))
				pe->meta_len = (uint32_t)rfrm_meta_length(p->meta_data + off,
								p->meta_size - off);
		}
		pe->has_meta = true;
		p->with_meta++;
	}
	return NM_OK;
}

/* Do n entries of {type, GUID, u32 length, name} use up the chunk exactly? */
static bool strg_is_sized(const uint8_t *d, size_t len, uint32_t n)
{
	size_t off = 4;
	for (uint32_t i = 0; i < n; i++) {
		if (len - off < 24 || nm_be32(d + off + 20) > len - off - 24)
			return false;
		off += 24 + (size_t)nm_be32(d + off + 20);
	}
	return off == len;
}

static nm_status parse_strg(nm_tree *t, rfrm_pak *p, const uint32_t *order,
			    nm_error *err)
{
	nm_view v;
	nm_status s = rfrm_table_load(p->r, &p->strg, "STRG", &v, err);
	if (s != NM_OK)
		return s;
	const uint8_t *d = v.data;
	size_t len = v.size;
	uint32_t n = nm_u32(&v, 0);
	/* Each entry takes at least 21 bytes (type, GUID, NUL). */
	if (v.bad || !nm_view_array(&v, 4, n, 21)) {
		s = nm_view_fail(&v, err, "name list of %u entries", n);
		nm_view_free(&v);
		return s;
	}
	p->strg_sized = strg_is_sized(d, len, n);
	/* Names are kept NUL-terminated: a sized name may lack its NUL, so the sized
	 * layout is copied with one byte more per name. Only until the tree is built
	 * (rfrm_build_pak frees them). */
	char *names = p->strg_names = malloc(len + (p->strg_sized ? n : 0) + 1);
	if (!names) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, v.file, "STRG", NM_NO_OFFSET, "out of memory");
	}
	size_t off = 4, out = 0;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *guid = d + off + 4;
		const char *name;
		size_t nlen;
		if (p->strg_sized) {
			nlen = nm_be32(d + off + 20);
			const char *raw = (const char *)d + off + 24;
			const char *nul = memchr(raw, '\0', nlen);
			name = names + out;
			memcpy(names + out, raw, nul ? (size_t)(nul - raw) : nlen);
			nlen = nul ? (size_t)(nul - raw) : nlen;
			names[out + nlen] = '\0';
			out += nlen + 1;
			off += 24 + (size_t)nm_be32(d + off + 20);
		} else {
			if (len - off < 21) {
				nm_view_free(&v);
				return nm_view_fail_at(&v, err, NM_E_FORMAT, off,
						       "name %u runs past the chunk", i);
			}
			const char *raw = (const char *)d + off + 20;
			const char *nul = memchr(raw, '\0', len - off - 20);
			if (!nul) {
				nm_view_free(&v);
				return nm_view_fail_at(&v, err, NM_E_FORMAT, off + 20,
						       "name %u has no terminating NUL before the end of the chunk",
						       i);
			}
			nlen = (size_t)(nul - raw);
			name = names + out;
			memcpy(names + out, raw, nlen + 1);
			out += nlen + 1;
			off += 20 + nlen + 1;
		}
		rfrm_pak_entry *pe = find_guid(p, order, guid);
		if (pe && !pe->name && nlen) {
			pe->name = name;
			p->named++;
		}
	}
	nm_view_free(&v);
	return NM_OK;
}

nm_status rfrm_pak_parse(nm_reader *r, nm_tree *t, rfrm_pak *p, nm_error *err)
{
	const char *file = nm_reader_name(r);
	p->r = r;
	nm_status s = rfrm_read_form(r, 0, nm_reader_size(r), &p->pack, err);
	if (s != NM_OK)
		return s;
	if (memcmp(p->pack.id, "PACK", 4) != 0)
		return nm_fail(err, NM_E_FORMAT, file, NULL, 0x14, "form type is not PACK");
	s = rfrm_read_item(r, p->pack.data_off, rfrm_item_end(&p->pack), &p->tocc, err);
	if (s != NM_OK)
		return s;
	if (!p->tocc.is_form || memcmp(p->tocc.id, "TOCC", 4) != 0)
		return nm_fail(err, NM_E_FORMAT, file, NULL, p->tocc.off,
			       "the PACK form does not start with a TOCC form");
	bool have[3] = { false, false, false };
	rfrm_item *slots[3] = { &p->adir, &p->meta, &p->strg };
	static const char ids[3][5] = { "ADIR", "META", "STRG" };
	uint64_t off = p->tocc.data_off, end = rfrm_item_end(&p->tocc);
	while (off < end) {
		rfrm_item it;
		s = rfrm_read_item(r, off, end, &it, err);
		if (s != NM_OK)
			break; /* keep what was found before it */
		for (int k = 0; k < 3; k++)
			if (!have[k] && !it.is_form && memcmp(it.id, ids[k], 4) == 0) {
				have[k] = true;
				*slots[k] = it;
			}
		off = rfrm_item_end(&it);
	}
	if (!have[0])
		return s != NM_OK ? s : nm_fail(err, NM_E_FORMAT, file, "TOCC", p->tocc.off,
						"the table of contents has no ADIR chunk");
	s = parse_adir(t, p, err);
	if (s != NM_OK)
		return s;
	uint32_t *order = guid_order(t, p);
	if (!order)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	p->has_meta = have[1];
	p->has_strg = have[2];
	if (have[1] && parse_meta(p, order, &p->meta_err) != NM_OK)
		p->meta_bad = true;
	if (have[2] && parse_strg(t, p, order, &p->strg_err) != NM_OK)
		p->strg_bad = true;
	/* Kept for the models, whose materials look their textures up by GUID. */
	p->order = order;
	/* p->png is made when a model first asks (model_textures.c): not in the arena, as
	 * rfrm_pak_free, registered before it, frees what it points to. */
	pthread_mutex_init(&p->png_lock, NULL);
	p->png_lock_made = true;
	return NM_OK;
}

void rfrm_pak_free(void *pak)
{
	rfrm_pak *p = pak;
	if (p->png_lock_made)
		pthread_mutex_destroy(&p->png_lock);
	for (size_t i = 0; p->png && i < p->count; i++) {
		free(p->png[i].png);
		free(p->png[i].why);
	}
	free(p->png);
	free(p->strg_names);
	nm_view_free(&p->meta_view);
}

const rfrm_pak_entry *rfrm_pak_find(const rfrm_pak *p, const uint8_t *guid)
{
	return p->order ? find_guid((rfrm_pak *)p, p->order, guid) : NULL;
}
