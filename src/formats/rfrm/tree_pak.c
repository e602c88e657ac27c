/* The PAK tree and the "pak" driver: info.txt, toc.txt, tocc/ (the table of contents'
 * chunks), and one directory per asset named NAME.type (STRG name, else GUID).
 *
 * Mounting reads the table of contents only. The assets are members of the container
 * layer whose kind is known (pak_asset.c): nothing is read from them until the first
 * lookup inside one, which shows its own tree and raw.bin. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/container/container.h"
#include "formats/rfrm/rfrm.h"

/* "NAME.type": the STRG name made safe, else the GUID; the type lower-case. */
static char *entry_name(nm_tree *t, nm_node *root, const rfrm_pak_entry *e)
{
	char ext[8], guid[RFRM_GUID_STR];
	size_t n = 0;
	ext[n++] = '.';
	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)e->type[i];
		if (c != ' ' && c != '\0')
			ext[n++] = isalnum(c) ? (char)tolower(c) : '_';
	}
	ext[n] = '\0';
	rfrm_guid_str(guid, e->guid);
	char *stem = e->name ? nm_safe_name(e->name, strlen(e->name)) : strdup(guid);
	if (!stem)
		return NULL;
	const char *exts[] = { ext, NULL };
	char *u = nm_unique_stem(t, root, stem, exts);
	free(stem);
	if (!u)
		return NULL;
	char *name = malloc(strlen(u) + n + 1);
	if (name)
		sprintf(name, "%s%s", u, ext);
	free(u);
	return name;
}

static void pak_info(nm_out *o, const rfrm_pak *p)
{
	nm_info_begin(o, &nm_driver_rfrm_pak, p->r);
	nm_kv(o, "version", "%u", p->pack.version[0]);
	nm_kv(o, "writer_version", "%u", p->pack.version[1]);
	nm_kv(o, "assets", "%zu", p->count);
	nm_kv(o, "named_assets", "%zu", p->named);
	nm_kv(o, "assets_with_meta", "%zu", p->with_meta);
	if (p->has_strg)
		nm_kv(o, "strg_layout", "%s", p->strg_sized ? "u32 name lengths (Switch)"
							     : "NUL-terminated names (Wii U wiki)");
	if (p->has_meta)
		nm_kv(o, "meta_layout", "%s", p->meta_sized ? "u32 size before each blob (Switch)"
							     : "bare blobs (Wii U wiki)");
	/* Counts by type, in order of first appearance (a short list in practice; cap it). */
	char types[32][5];
	size_t counts[32], ntypes = 0, other = 0;
	for (size_t i = 0; i < p->count; i++) {
		size_t k = 0;
		while (k < ntypes && memcmp(types[k], p->entries[i].type, 4) != 0)
			k++;
		if (k == ntypes) {
			if (ntypes == 32) {
				other++;
				continue;
			}
			memcpy(types[ntypes], p->entries[i].type, 5);
			counts[ntypes++] = 0;
		}
		counts[k]++;
	}
	nm_out_str(o, "types:");
	for (size_t k = 0; k < ntypes; k++) {
		char id[5];
		rfrm_fourcc_print(id, (const uint8_t *)types[k]);
		nm_out_printf(o, " %s=%zu", id, counts[k]);
	}
	if (other)
		nm_out_printf(o, " other=%zu", other);
	nm_out_char(o, '\n');
	if (p->meta_bad)
		nm_kv_str(o, "meta_error", p->meta_err.msg);
	if (p->strg_bad)
		nm_kv_str(o, "strg_error", p->strg_err.msg);
}

/* toc.txt: a line per asset. Made on read, its size summed at mount: for a PAK of
 * 50,000 assets the text is megabytes the daemon would otherwise hold for good. */
#define TOC_HEAD "type guid offset size meta entry\n"
#define TOC_FIELDS_MAX (4 + 1 + RFRM_GUID_STR + 24 + 24 + 8)

/* The line's fields before the entry's name (which follows, then a newline). */
static size_t toc_fields(char *buf, const rfrm_pak_entry *e)
{
	char id[5], guid[RFRM_GUID_STR];
	rfrm_fourcc_print(id, (const uint8_t *)e->type);
	rfrm_guid_str(guid, e->guid);
	int n = snprintf(buf, TOC_FIELDS_MAX, "%s %s 0x%08llx %llu %s ", id, guid,
			 (unsigned long long)e->off, (unsigned long long)e->size,
			 e->has_meta ? "yes" : "no");
	return n > 0 && n < TOC_FIELDS_MAX ? (size_t)n : 0;
}

static nm_status produce_toc(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const rfrm_pak *p = ctx;
	(void)arg; (void)err;
	nm_out_str(o, TOC_HEAD);
	for (size_t i = 0; i < p->count; i++) {
		char fields[TOC_FIELDS_MAX];
		nm_out_write(o, fields, toc_fields(fields, &p->entries[i]));
		nm_out_str(o, p->entries[i].dir);
		nm_out_char(o, '\n');
	}
	return NM_OK;
}

nm_status rfrm_build_pak(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	rfrm_pak *p = nm_tree_alloc(t, sizeof *p);
	if (!p || nm_tree_on_free(t, rfrm_pak_free, p) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
	nm_status s = rfrm_pak_parse(r, t, p, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_repack(r, rfrm_pak_repack, p);

	nm_out o;
	nm_out_init(&o);
	pak_info(&o, p);
	if (!nm_text(t, root, "info.txt", &o))
		goto nomem;
	nm_node *tocc = rfrm_item_dir(t, root, r, &p->tocc, NULL, 0);
	if (!tocc)
		goto nomem;
	rfrm_add_items(t, tocc, r, &p->tocc, 1);
	if (p->meta_bad)
		nm_error_file(t, root, &p->meta_err);
	else if (p->strg_bad)
		nm_error_file(t, root, &p->strg_err);

	nm_member_kind *kind = rfrm_pak_asset_kind(t, p);
	if (!kind)
		goto nomem;
	uint64_t toc_size = sizeof TOC_HEAD - 1;
	for (size_t i = 0; i < p->count; i++) {
		rfrm_pak_entry *e = &p->entries[i];
		char *name = entry_name(t, root, e);
		nm_node *n = name ? nm_member_known(t, root, name, kind, e) : NULL;
		free(name);
		if (!n)
			goto nomem;
		/* A model's materials find their textures' directories by it: the node's own
		 * name (the PAK's directories are made at mount and never evicted). It
		 * takes the place of the STRG name, which is not needed again. */
		e->dir = nm_node_name(n);
		char fields[TOC_FIELDS_MAX];
		toc_size += toc_fields(fields, e) + strlen(e->dir) + 1;
	}
	free(p->strg_names);
	p->strg_names = NULL;
	static const char *const txt[] = { ".txt", NULL };
	char *toc = nm_unique_stem(t, root, "toc", txt);
	char tocname[64];
	snprintf(tocname, sizeof tocname, "%s.txt", toc ? toc : "toc");
	free(toc);
	if (!nm_lazy(t, root, tocname, toc_size, produce_toc, p, NULL))
		goto nomem;
	nm_out_free(&o);
	return NM_OK;
nomem:
	nm_out_free(&o);
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}
