/* Grezzo's 3DS archives (FORMATS.md §4.9): ZAR v1 (Ocarina of Time 3D), GAR v2 (Majora's
 * Mask 3D) and GAR v5 (Luigi's Mansion 3D, Ever Oasis), little-endian. One header:
 * magic, size, u16 type count, u16 file count, the offsets of the type table, the file
 * table and the data table (v5: the data's start), an 8-byte codename. ZAR and GAR v2
 * name each file by its path; GAR v5 by a name without extension, the extension being
 * its type's (doc/gar.md says where the v5 layout comes from). */
#ifndef NM_GAR_H
#define NM_GAR_H

#include "formats/container/container.h"
#include "lib/view.h"

#define GAR_HEADER_LEN 0x20

typedef struct gar {
	nm_tree *t;                /* its arena holds GAR v5's NAME.EXT names */
	unsigned version;          /* 1 (ZAR), 2 or 5 (GAR) */
	uint32_t size;             /* the header's size field */
	uint16_t types, files;
	uint32_t type_off, file_off, data_off;
	char codename[9];
	nm_view toc;               /* [0, end of the tables): names point into it */
	nm_entry_list list;
	char **type_names;         /* per type: its name (NULL: unreadable), for info.txt */
	uint32_t *type_counts;
	uint32_t unlisted;         /* GAR v5: files no type lists (not shown) */
} gar;

nm_status gar_parse(nm_reader *r, gar *g, nm_error *err);
void gar_free(gar *g);
/* The archive r (whose tables g holds) laid out again: an nm_repack_fn (repack.c). */
nm_status gar_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
		     nm_out *out, nm_error *err);

#endif
