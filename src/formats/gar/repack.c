/* A ZAR or GAR laid out again when members change length (nmodel apply; doc/gar.md):
 * the container layer moves the members (nm_layout_members), then each file's size and
 * data offset and the header's size field are written again; types, names, codename
 * and every other byte stay. Alignment: the corpus's archives keep every member at the
 * same remainder modulo 16 (GAR v2 at 0, the ZAR at 4: their members' sizes are
 * multiples of 16), which the layout keeps. */
#include <stdlib.h>
#include "formats/gar/gar.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

#define GAR_ALIGN 16u

/* Where file i's size and data offset are in the tables (both before every member). */
static void fields(const gar *g, uint32_t i, size_t *size_at, size_t *off_at)
{
	if (g->version == 5) {
		*size_at = g->file_off + (size_t)i * 0x10;
		*off_at = *size_at + 0x04;
	} else {
		*size_at = g->file_off + (size_t)i * (g->version == 1 ? 8 : 12);
		*off_at = g->data_off + 4u * (size_t)i;
	}
}

nm_status gar_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
		     nm_out *out, nm_error *err)
{
	gar *g = ctx;
	const char *file = nm_reader_name(r);
	nm_layout lay;
	if (nm_layout_alloc(&lay, r, g->files, "files", err) != NM_OK)
		return err->code;
	nm_layout_slot *slots = lay.slots;
	uint64_t *off = lay.off, *len = lay.len;
	nm_status s = NM_OK;
	for (uint32_t i = 0; i < g->files; i++) {
		size_t size_at, off_at;
		fields(g, i, &size_at, &off_at);
		slots[i] = (nm_layout_slot){ nm_u32(&g->toc, off_at), nm_u32(&g->toc, size_at) };
		/* The tables are rewritten where they are: no member may lie among them. */
		if (slots[i].len && slots[i].off < g->toc.size)
			s = nm_fail(err, NM_E_FORMAT, file, "files", off_at, "file %u lies inside "
				    "the tables (at 0x%llx): the archive cannot be laid out again", i,
				    (unsigned long long)slots[i].off);
	}
	if (s == NM_OK)
		s = nm_layout_members(r, slots, g->files, GAR_ALIGN, c, nc, out, off, len, err);
	for (uint32_t i = 0; s == NM_OK && i < g->files; i++) {
		if (off[i] > UINT32_MAX || len[i] > UINT32_MAX) {
			s = nm_fail(err, NM_E_LIMIT, file, "files", NM_NO_OFFSET, "a member laid "
				    "out again lies past 4 GiB, more than the tables' offsets hold");
			break;
		}
		size_t size_at, off_at;
		fields(g, i, &size_at, &off_at);
		nm_put_le32(out->data + size_at, (uint32_t)len[i]);
		nm_put_le32(out->data + off_at, (uint32_t)off[i]);
	}
	if (s == NM_OK) /* moved by what the file grew: the ZAR's field is 4 bytes short */
		nm_put_le32(out->data + 4, (uint32_t)((int64_t)g->size + (int64_t)out->len -
						      (int64_t)nm_reader_size(r)));
	nm_layout_free(&lay);
	return s;
}
