/* ZAR/GAR tables → the container layer's entry list. The tables sit before the data;
 * every offset is checked against the loaded table bytes, every name must end (NUL)
 * inside them, and a member past the end of the archive becomes an error entry when
 * the layer opens it. */
#include <stdlib.h>
#include <string.h>
#include "formats/gar/gar.h"
#include "lib/alloc.h"

/* Names may lie anywhere in the tables. */
static const char *string_at(gar *g, uint32_t off, size_t *len)
{
	return nm_table_string(&g->toc, 0, g->toc.size, off, len);
}

/* The end of the tables: where the first member's bytes start (for ZAR and GAR v2 the
 * smallest data offset, but at least the data table's end), or the file's end. */
static uint64_t tables_end(gar *g, nm_reader *r, nm_error *err)
{
	uint64_t size = nm_reader_size(r);
	if (g->version == 5)
		return g->data_off < size ? g->data_off : size;
	nm_view d;
	if (nm_view_load(r, g->data_off, 4u * (size_t)g->files, "data table", NM_LITTLE, &d,
			 err) != NM_OK)
		return UINT64_MAX;
	uint64_t end = size;
	for (uint32_t i = 0; i < g->files; i++)
		if (nm_u32(&d, 4u * i) < end)
			end = nm_u32(&d, 4u * i);
	nm_view_free(&d);
	uint64_t data_end = (uint64_t)g->data_off + 4u * g->files;
	return end > data_end ? end : data_end;
}

static void add_member(gar *g, const char *path, size_t len, uint32_t off, uint32_t size,
		       bool by_path)
{
	const char *base = path;
	size_t blen = len;
	int64_t folder = by_path ? nm_entry_path(&g->list, path, len, &base, &blen) : -1;
	nm_entry *e = folder >= -1 ? nm_entry_add(&g->list) : NULL;
	if (!e)
		return;
	e->folder = folder;
	e->name = base;
	e->name_len = blen;
	e->off = off;
	e->len = size;
	if (!blen) {
		e->name = "(no name)";
		e->name_len = 9;
	}
}

static nm_entry *add_error(gar *g, const char *why)
{
	nm_entry *e = nm_entry_add(&g->list);
	if (e) {
		e->name = "(bad entry)";
		e->name_len = 11;
		e->error = why;
	}
	return e;
}

/* ZAR v1 and GAR v2: a file table (size, [name,] path) and a data table of offsets. */
static void files_by_path(gar *g)
{
	nm_view *v = &g->toc;
	size_t stride = g->version == 1 ? 8 : 12, path_at = g->version == 1 ? 4 : 8;
	for (uint32_t i = 0; i < g->files; i++) {
		size_t at = g->file_off + (size_t)i * stride, len;
		const char *path = string_at(g, nm_u32(v, at + path_at), &len);
		if (!path)
			add_error(g, "its path offset is past the tables");
		else
			add_member(g, path, len, nm_u32(v, g->data_off + 4u * i), nm_u32(v, at),
				   true);
	}
}

/* GAR v5: each type lists a run of the file table (size, offset, name, ?); a file is
 * NAME.EXT with its type's extension. Files no type lists are counted, not shown. */
static void files_by_type(gar *g, uint8_t *listed)
{
	nm_view *v = &g->toc;
	for (uint32_t t = 0; t < g->types; t++) {
		size_t at = g->type_off + (size_t)t * 0x20, elen = 0;
		uint32_t count = nm_u32(v, at), first = nm_u32(v, at + 0x08);
		const char *ext = string_at(g, nm_u32(v, at + 0x0C), &elen);
		if (count == 0 || first == UINT32_MAX)
			continue;
		if (first > g->files || count > g->files - first) {
			add_error(g, "a type's files run past the file table");
			continue;
		}
		for (uint32_t i = first; i < first + count; i++) {
			size_t f = g->file_off + (size_t)i * 0x10, nlen;
			const char *name = string_at(g, nm_u32(v, f + 0x08), &nlen);
			if (listed[i]) {
				add_error(g, "a file is listed by two types");
				continue;
			}
			listed[i] = 1;
			if (!name) {
				add_error(g, "its name offset is past the tables");
				continue;
			}
			size_t flen = nlen + (ext ? elen + 1 : 0);
			char *full = nm_tree_alloc(g->t, flen + 1);
			if (!full) {
				g->list.failed = true;
				return;
			}
			memcpy(full, name, nlen);
			if (ext) {
				full[nlen] = '.';
				memcpy(full + nlen + 1, ext, elen);
			}
			add_member(g, full, flen, nm_u32(v, f + 0x04), nm_u32(v, f), false);
		}
	}
	for (uint32_t i = 0; i < g->files; i++)
		g->unlisted += !listed[i];
}

nm_status gar_parse(nm_reader *r, gar *g, nm_error *err)
{
	const char *file = nm_reader_name(r);
	nm_view h;
	nm_status s = nm_view_load(r, 0, GAR_HEADER_LEN, "header", NM_LITTLE, &h, err);
	if (s != NM_OK)
		return s;
	g->version = h.data[0] == 'Z' ? 1 : h.data[3];
	g->size = nm_u32(&h, 0x04);
	g->types = nm_u16(&h, 0x08);
	g->files = nm_u16(&h, 0x0A);
	g->type_off = nm_u32(&h, 0x0C);
	g->file_off = nm_u32(&h, 0x10);
	g->data_off = nm_u32(&h, 0x14);
	memcpy(g->codename, h.data + 0x18, 8);
	g->codename[8] = '\0';
	nm_view_free(&h);
	if (g->version != 1 && g->version != 2 && g->version != 5)
		return nm_fail(err, NM_E_UNSUPPORTED, file, "header", 3,
			       "GAR version %u (this tool reads ZAR 1, GAR 2 and 5)", g->version);
	uint64_t end = tables_end(g, r, err);
	if (end == UINT64_MAX)
		return err->code;
	s = nm_view_load(r, 0, (size_t)end, "tables", NM_LITTLE, &g->toc, err);
	if (s != NM_OK)
		return s;
	size_t file_stride = g->version == 1 ? 8 : g->version == 2 ? 12 : 0x10;
	if (!nm_view_table(&g->toc, g->type_off, g->types, g->version == 5 ? 0x20 : 0x10,
			   "types", err) ||
	    !nm_view_table(&g->toc, g->file_off, g->files, file_stride, "files", err) ||
	    (g->version != 5 &&
	     !nm_view_table(&g->toc, g->data_off, g->files, 4, "data offsets", err)))
		return err->code;
	/* The types, for info.txt: name and file count. */
	g->type_names = nm_tree_alloc_array(g->t, g->types, sizeof *g->type_names);
	g->type_counts = nm_tree_alloc_array(g->t, g->types, sizeof *g->type_counts);
	if (!g->type_names || !g->type_counts)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	size_t stride = g->version == 5 ? 0x20 : 0x10, name_at = g->version == 5 ? 0x0C : 0x08;
	for (uint32_t t = 0; t < g->types; t++) {
		size_t len;
		const char *name = string_at(g, nm_u32(&g->toc, g->type_off + t * stride + name_at),
					     &len);
		g->type_names[t] = name ? nm_safe_name(name, len) : NULL;
		if (g->type_names[t] && nm_tree_on_free(g->t, free, g->type_names[t]) != NM_OK)
			g->type_names[t] = NULL;
		g->type_counts[t] = nm_u32(&g->toc, g->type_off + t * stride);
	}
	if (g->version == 5) {
		uint8_t *listed = nm_alloc(nm_reader_options(r), g->files, 1, err, file, "files", 0);
		if (!listed)
			return err->code;
		files_by_type(g, listed);
		free(listed);
	} else {
		files_by_path(g);
	}
	if (g->list.failed)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

void gar_free(gar *g)
{
	nm_view_free(&g->toc);
	nm_entry_list_free(&g->list);
}
