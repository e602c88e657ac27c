/* RARC, the GameCube/Wii archive (FORMATS.md §3.9): a header, an info block, a table of
 * directory nodes, a table of entries (files and directories, "." and ".." included)
 * and a string table, all big-endian; then the members' bytes. */
#ifndef NM_RARC_H
#define NM_RARC_H

#include "formats/container/container.h"
#include "lib/view.h"

#define RARC_HEADER_LEN 0x20
#define RARC_INFO_LEN 0x20
#define RARC_NODE_LEN 0x10
#define RARC_ENTRY_LEN 0x14

/* Entry attributes (the top byte of the name-offset word). */
#define RARC_ATTR_FILE 0x01
#define RARC_ATTR_DIR 0x02
#define RARC_ATTR_COMPRESSED 0x04
#define RARC_ATTR_YAZ0 0x80   /* compressed with Yaz0; compressed without it: Yay0 */

typedef struct rarc {
	nm_view toc;              /* [0x20, data start): info, nodes, entries, strings */
	uint32_t file_size, data_off, data_size;
	uint32_t nodes, node_off, entries, entry_off, strings_size, strings_off;
	nm_entry_list list;       /* the tree in breadth-first order; names point into toc */
} rarc;

/* The header, the info block and the whole table of contents, walked from the root node:
 * every node shown once (a directory entry naming a node already shown, or an entry
 * listed by two nodes, becomes an entry with an error). */
nm_status rarc_parse(nm_reader *r, rarc *a, nm_error *err);
void rarc_free(rarc *a);
/* The archive r (whose tables a holds) laid out again: an nm_repack_fn (repack.c). */
nm_status rarc_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
		      nm_out *out, nm_error *err);

#endif
