/* The cmb header: version, name, and the absolute offsets of the chunks, the index
 * buffer and the texture data (FORMATS.md 4.1, 4.2). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmb/cmb.h"

static const struct { const char *name, *magic; } chunk_ids[CMB_NCHUNKS] = {
	[CMB_SKL] = { "skl", "skl " }, [CMB_QTRS] = { "qtrs", "qtrs" },
	[CMB_MATS] = { "mats", "mats" }, [CMB_TEX] = { "tex", "tex " },
	[CMB_SKLM] = { "sklm", "sklm" }, [CMB_LUTS] = { "luts", "luts" },
	[CMB_VATR] = { "vatr", "vatr" },
};

/* Per-version layouts; noclip and FORMATS.md 4.1-4.7. Ever Oasis (12) has no corpus file:
 * its entries follow the sources (mesh entries of 0x10, no SEPD bounding box). */
static bool layout_for(uint32_t version, cmb_layout *L)
{
	cmb_layout l = { .known = true, .qtrs = true, .header_size = 0x4C, .bone_stride = 0x2C,
			 .mat_size = 0x16C, .sepd_attrs = 0x24, .tangents = true,
			 .luts_short = true };
	switch (version) {
	case 6:
		l = (cmb_layout){ .known = true, .game = "Ocarina of Time 3D", .header_size = 0x44,
				  .bone_stride = 0x28, .mat_size = 0x15C, .mesh_stride = 4,
				  .sepd_attrs = 0x24 };
		break;
	case 10:
		l.game = "Majora's Mask 3D";
		l.mesh_stride = 0x0C;
		break;
	case 12:
		l.game = "Ever Oasis";
		l.mat_short_counts = true;
		l.mesh_stride = 0x10;
		break;
	case 15:
		l.game = "Luigi's Mansion 3D";
		l.mat_short_counts = true;
		l.mesh_stride = 0x58;
		l.sepd_attrs = 0x3C;
		l.sepd_bbox = true;
		break;
	default:
		return false;
	}
	*L = l;
	return true;
}

void cmb_chunk_fail(cmb_model *m, int kind, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_chunk_failv(&m->chunk[kind], m->file, off, fmt, ap);
	va_end(ap);
}

void cmb_load_chunk(cmb_model *m, int kind, uint32_t offset)
{
	cmb_chunk *c = &m->chunk[kind];
	uint8_t head[8];
	c->off = offset;
	c->present = offset != 0;
	if (!c->present)
		return;
	if (offset > m->file_size || m->file_size - offset < 8) {
		cmb_chunk_fail(m, kind, 0, "the header points past the end of the file (size 0x%llx)",
			       (unsigned long long)m->file_size);
		return;
	}
	if (nm_reader_read(m->r, offset, head, 8, c->name, &c->err) != NM_OK) {
		c->failed = true;
		return;
	}
	if (memcmp(head, c->magic, 4) != 0) {
		cmb_chunk_fail(m, kind, 0, "expected the magic \"%s\", found %02x %02x %02x %02x",
			       c->magic, head[0], head[1], head[2], head[3]);
		return;
	}
	c->size = (uint32_t)head[4] | (uint32_t)head[5] << 8 | (uint32_t)head[6] << 16 |
		  (uint32_t)head[7] << 24;
	if (c->size < 8) {
		cmb_chunk_fail(m, kind, 4, "chunk size %u is smaller than its own header", c->size);
		return;
	}
	/* A size past the end is shown clipped; records that need the missing bytes fail. */
	c->len = c->size;
	if (c->len > m->file_size - offset)
		c->len = m->file_size - offset;
	nm_chunk_load(c, m->r, NM_LITTLE);
}

void cmb_name_chunks(cmb_model *m)
{
	for (int k = 0; k < CMB_NCHUNKS; k++) {
		m->chunk[k].name = chunk_ids[k].name;
		memcpy(m->chunk[k].magic, chunk_ids[k].magic, 4);
	}
}

nm_status cmb_parse_header(cmb_model *m, nm_error *err)
{
	nm_view v;
	size_t len = m->file_size < 0x50 ? (size_t)m->file_size : 0x50;
	nm_status s = nm_view_load(m->r, 0, len, "cmb header", NM_LITTLE, &v, err);
	if (s != NM_OK)
		return s;
	cmb_name_chunks(m);
	m->size_field = nm_u32(&v, 0x04);
	m->version = nm_u32(&v, 0x08);
	m->unknown_0c = nm_u32(&v, 0x0C);
	const uint8_t *name = nm_bytes(&v, 0x10, CMB_NAME_LEN);
	if (name) {
		memcpy(m->name, name, CMB_NAME_LEN);
		m->name[CMB_NAME_LEN] = '\0';
	}
	m->nindices = nm_u32(&v, 0x20);
	if (!layout_for(m->version, &m->L)) {
		/* An unknown version: the chunk table is the one part we can still read. Its
		 * shape shows in the second slot, which is qtrs from v10 on. */
		uint32_t second = nm_u32(&v, 0x28);
		uint8_t magic[4];
		m->L = (cmb_layout){ .known = false, .game = "unknown", .header_size = 0x44 };
		if (second >= 0x44 && second < m->file_size && m->file_size - second >= 4 &&
		    nm_reader_read(m->r, second, magic, 4, "cmb header", NULL) == NM_OK &&
		    memcmp(magic, "qtrs", 4) == 0) {
			m->L.qtrs = true;
			m->L.header_size = 0x4C;
		}
	}
	if (v.bad || v.size < m->L.header_size) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_FORMAT, m->file, "cmb header", 0,
			       "the file ends inside the 0x%x-byte header of a version %u file",
			       m->L.header_size, m->version);
	}
	static const int order[] = { CMB_SKL, CMB_QTRS, CMB_MATS, CMB_TEX, CMB_SKLM, CMB_LUTS,
				     CMB_VATR };
	size_t slot = 0x24;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (order[i] == CMB_QTRS && !m->L.qtrs)
			continue;
		cmb_load_chunk(m, order[i], nm_u32(&v, slot));
		slot += 4;
	}
	m->index_off = nm_u32(&v, slot);
	m->texdata_off = nm_u32(&v, slot + 4);
	if (m->L.qtrs)
		m->unknown_48 = nm_u32(&v, slot + 8);
	uint64_t want = (uint64_t)m->nindices * 2;
	m->index_len = m->index_off >= m->file_size ? 0
		     : want < m->file_size - m->index_off ? want : m->file_size - m->index_off;
	nm_view_free(&v);
	return NM_OK;
}

void cmb_keep_error(cmb_model *m, char **dst, const nm_error *e)
{
	*dst = nm_tree_printf(m->t, "%s", e->msg[0] ? e->msg : "unknown error");
}

void cmb_model_free(void *model)
{
	cmb_model *m = model;
	if (!m)
		return;
	for (int k = 0; k < CMB_NCHUNKS; k++)
		nm_view_free(&m->chunk[k].v);
}
