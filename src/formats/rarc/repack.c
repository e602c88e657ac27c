/* A RARC laid out again when members change length (nmodel apply; doc/rarc.md): the
 * container layer moves the members (nm_layout_members: 32-byte alignment, as every
 * RARC we have keeps its members and sizes), then each file entry's data offset and
 * size, the header's file and data sizes, and the MRAM/ARAM preload sizes of the
 * members loaded there are written again. Nodes, names, ids and every other byte
 * stay as they were. */
#include <stdlib.h>
#include "formats/rarc/rarc.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

#define RARC_ALIGN 32u
#define RARC_ATTR_MRAM 0x10
#define RARC_ATTR_ARAM 0x20

static uint64_t padded(uint64_t n) { return (n + RARC_ALIGN - 1) / RARC_ALIGN * RARC_ALIGN; }

/* The entry table's word at +at of entry i, from the tables parsed at build. */
static uint32_t entry_word(rarc *a, uint32_t i, size_t at)
{
	return nm_u32(&a->toc, a->entry_off + (size_t)i * RARC_ENTRY_LEN + at);
}

nm_status rarc_repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t nc,
		      nm_out *out, nm_error *err)
{
	rarc *a = ctx;
	const char *file = nm_reader_name(r);
	uint64_t data = (uint64_t)RARC_HEADER_LEN + a->data_off, size = nm_reader_size(r);
	nm_layout lay;
	if (nm_layout_alloc(&lay, r, a->entries, "entries", err) != NM_OK)
		return err->code;
	nm_layout_slot *slots = lay.slots;
	uint64_t *off = lay.off, *len = lay.len;
	/* Directories (and "." "..") hold a node index, not bytes: slots of none. */
	for (uint32_t i = 0; i < a->entries; i++) {
		bool is_file = !((entry_word(a, i, 0x04) >> 24) & RARC_ATTR_DIR);
		slots[i] = is_file ? (nm_layout_slot){ data + entry_word(a, i, 0x08),
						       entry_word(a, i, 0x0C) }
				   : (nm_layout_slot){ data, 0 };
	}
	nm_status s = nm_layout_members(r, slots, a->entries, RARC_ALIGN, c, nc, out, off, len,
					err);
	int64_t mram = 0, aram = 0, delta = (int64_t)out->len - (int64_t)size;
	for (uint32_t i = 0; s == NM_OK && i < a->entries; i++) {
		uint32_t attr = entry_word(a, i, 0x04) >> 24;
		if (attr & RARC_ATTR_DIR)
			continue;
		if (off[i] - data > UINT32_MAX || len[i] > UINT32_MAX) {
			s = nm_fail(err, NM_E_LIMIT, file, "entries", NM_NO_OFFSET, "a member "
				    "laid out again lies past 4 GiB of data, more than RARC's "
				    "offsets hold");
			break;
		}
		/* The tables lie before every member, so where they were. */
		uint8_t *e = out->data + RARC_HEADER_LEN + a->entry_off +
			     (size_t)i * RARC_ENTRY_LEN;
		nm_put_be32(e + 0x08, (uint32_t)(off[i] - data));
		nm_put_be32(e + 0x0C, (uint32_t)len[i]);
		int64_t grew = (int64_t)padded(len[i]) - (int64_t)padded(slots[i].len);
		mram += attr & RARC_ATTR_MRAM ? grew : 0;
		aram += attr & RARC_ATTR_ARAM ? grew : 0;
	}
	if (s == NM_OK) {
		/* The sizes move by what the file grew (a header that disagreed with its file
		 * keeps disagreeing by as much: its bytes are the file's, not ours). */
		uint8_t *h = out->data;
		nm_put_be32(h + 0x04, (uint32_t)((int64_t)nm_be32(h + 0x04) + delta));
		nm_put_be32(h + 0x10, (uint32_t)((int64_t)nm_be32(h + 0x10) + delta));
		nm_put_be32(h + 0x14, (uint32_t)((int64_t)nm_be32(h + 0x14) + mram));
		nm_put_be32(h + 0x18, (uint32_t)((int64_t)nm_be32(h + 0x18) + aram));
	}
	nm_layout_free(&lay);
	return s;
}
