/* RARC table of contents → the container layer's entry list. The node graph comes from
 * the file, so it may have cycles or share entries between nodes: each node is walked
 * once and each entry listed once, which also bounds the list by the entry table. */
#include <stdlib.h>
#include <string.h>
#include "formats/rarc/rarc.h"
#include "lib/alloc.h"

static const char *string_at(rarc *a, uint32_t off, size_t *len)
{
	return nm_table_string(&a->toc, a->strings_off, a->strings_size, off, len);
}

static nm_entry *add_error(rarc *a, int64_t folder, const char *name, size_t len,
			   const char *why)
{
	nm_entry *e = nm_entry_add(&a->list);
	if (e) {
		e->folder = folder;
		e->name = name;
		e->name_len = len;
		e->error = why;
	}
	return e;
}

/* The entries of node k into folder f; directories are queued (*queue, by node). */
static void walk_node(rarc *a, uint32_t k, int64_t f, int64_t *folder_of, uint8_t *used,
		      uint32_t *queue, size_t *tail)
{
	nm_view *v = &a->toc;
	size_t node = a->node_off + (size_t)k * RARC_NODE_LEN;
	uint32_t count = nm_u16(v, node + 0x0A), first = nm_u32(v, node + 0x0C);
	if (first > a->entries || count > a->entries - first) {
		add_error(a, f, "(bad entries)", 13, "its entries run past the entry table");
		return;
	}
	for (uint32_t i = first; i < first + count; i++) {
		size_t at = a->entry_off + (size_t)i * RARC_ENTRY_LEN, len;
		uint32_t word = nm_u32(v, at + 0x04), data = nm_u32(v, at + 0x08);
		uint8_t attr = (uint8_t)(word >> 24);
		const char *name = string_at(a, word & 0xFFFFFF, &len);
		if (!name) {
			add_error(a, f, "(bad name)", 10,
				  "its name offset is past the end of the string table");
			continue;
		}
		if ((len == 1 && name[0] == '.') || (len == 2 && memcmp(name, "..", 2) == 0))
			continue;
		if (used[i]) {
			add_error(a, f, name, len, "this entry is listed by another folder too");
			continue;
		}
		used[i] = 1;
		if (attr & RARC_ATTR_DIR) {
			if (data >= a->nodes) {
				add_error(a, f, name, len, "its node index is past the node table");
			} else if (folder_of[data] != -2) {
				add_error(a, f, name, len,
					  "its node is shown already (a cycle in the folders)");
			} else {
				int64_t d = nm_entry_folder(&a->list, f, name, len);
				folder_of[data] = d;
				queue[(*tail)++] = data;
			}
			continue;
		}
		nm_entry *e = nm_entry_add(&a->list);
		if (!e)
			return;
		e->folder = f;
		e->name = name;
		e->name_len = len;
		e->off = (uint64_t)RARC_HEADER_LEN + a->data_off + data;
		e->len = nm_u32(v, at + 0x0C);
		if (attr & RARC_ATTR_COMPRESSED)
			e->codec = attr & RARC_ATTR_YAZ0 ? NM_CODEC_YAZ0 : NM_CODEC_YAY0;
	}
}

nm_status rarc_parse(nm_reader *r, rarc *a, nm_error *err)
{
	const char *file = nm_reader_name(r);
	nm_view h;
	nm_status s = nm_view_load(r, 0, RARC_HEADER_LEN + RARC_INFO_LEN, "header", NM_BIG, &h,
				   err);
	if (s != NM_OK)
		return s;
	a->file_size = nm_u32(&h, 0x04);
	a->data_off = nm_u32(&h, 0x0C);
	a->data_size = nm_u32(&h, 0x10);
	a->nodes = nm_u32(&h, 0x20);
	a->node_off = nm_u32(&h, 0x24);
	a->entries = nm_u32(&h, 0x28);
	a->entry_off = nm_u32(&h, 0x2C);
	a->strings_size = nm_u32(&h, 0x30);
	a->strings_off = nm_u32(&h, 0x34);
	nm_view_free(&h);
	/* Everything the walk reads lies before the members' bytes. */
	if (a->data_off > nm_reader_size(r) - RARC_HEADER_LEN)
		return nm_fail(err, NM_E_FORMAT, file, "header", 0x0C,
			       "data offset 0x%x is past the end of the file", a->data_off);
	s = nm_view_load(r, RARC_HEADER_LEN, a->data_off, "info", NM_BIG, &a->toc, err);
	if (s != NM_OK)
		return s;
	if (a->nodes == 0)
		return nm_view_fail_at(&a->toc, err, NM_E_FORMAT, 0, "no root node");
	if (!nm_view_table(&a->toc, a->node_off, a->nodes, RARC_NODE_LEN, "nodes", err) ||
	    !nm_view_table(&a->toc, a->entry_off, a->entries, RARC_ENTRY_LEN, "entries", err) ||
	    !nm_view_table(&a->toc, a->strings_off, a->strings_size, 1, "string bytes", err))
		return err->code;

	/* Sized by tables that fit in the bytes loaded above. */
	const nm_options *opt = nm_reader_options(r);
	int64_t *folder_of = nm_alloc(opt, a->nodes, sizeof *folder_of, err, file, "nodes", 0);
	uint32_t *queue = folder_of ? nm_alloc(opt, a->nodes, sizeof *queue, err, file, "nodes", 0)
				    : NULL;
	uint8_t *used = queue ? nm_alloc(opt, a->entries, 1, err, file, "entries", 0) : NULL;
	if (!used) {
		free(folder_of);
		free(queue);
		return err->code;
	}
	for (uint32_t k = 0; k < a->nodes; k++)
		folder_of[k] = -2;
	/* The root node is a folder of its own name, as stored ("archive", "scene"...). */
	size_t len;
	const char *name = string_at(a, nm_u32(&a->toc, a->node_off + 0x04), &len);
	if (!name) {
		name = "root";
		len = 4;
	}
	folder_of[0] = nm_entry_folder(&a->list, -1, name, len);
	queue[0] = 0;
	size_t head = 0, tail = 1;
	while (head < tail && !a->list.failed) {
		uint32_t k = queue[head++];
		walk_node(a, k, folder_of[k], folder_of, used, queue, &tail);
	}
	free(folder_of);
	free(queue);
	free(used);
	if (a->list.failed)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

void rarc_free(rarc *a)
{
	nm_view_free(&a->toc);
	nm_entry_list_free(&a->list);
}
