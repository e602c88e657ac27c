/* The RARC driver: probe by magic, info.txt, then the container layer shows the folders
 * as stored (the root node's name included, "." and ".." left out) and each member:
 * a model or archive as a directory with its tree, anything else as a file, compressed
 * members (Yaz0/Yay0 flags) decompressed on first read. See doc/rarc.md. */
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/rarc/rarc.h"

static bool rarc_probe(const uint8_t *head, size_t len, uint64_t size)
{
	return len >= 4 && memcmp(head, "RARC", 4) == 0 &&
	       size >= RARC_HEADER_LEN + RARC_INFO_LEN;
}

static nm_status rarc_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_rarc = {
	.name = "rarc",
	.description = "RARC archive (GameCube/Wii)",
	.probe = rarc_probe,
	.build = rarc_build,
	.archive = true,
};

static void free_rarc(void *p)
{
	rarc_free(p);
	free(p);
}

static nm_status rarc_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	rarc *a = calloc(1, sizeof *a);
	if (!a || nm_tree_on_free(t, free_rarc, a) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	nm_status s = rarc_parse(r, a, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_repack(r, rarc_repack, a);
	nm_out o;
	nm_out_init(&o);
	nm_info_begin(&o, &nm_driver_rarc, r);
	nm_kv(&o, "nodes", "%u", a->nodes);
	nm_kv(&o, "entries", "%u", a->entries);
	nm_kv(&o, "data_offset", "0x%llx", (unsigned long long)RARC_HEADER_LEN + a->data_off);
	nm_kv(&o, "data_size", "%u", a->data_size);
	nm_info_size_field(&o, "file_size", a->file_size, r);
	return nm_archive_tree(t, root, r, &o, a->list.e, a->list.n, err);
}
