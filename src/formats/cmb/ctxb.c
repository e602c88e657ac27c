/* CTXB, Grezzo's texture file (Ocarina of Time 3D, Majora's Mask 3D, Luigi's Mansion 3D):
 * one texture in a CMB-style `tex ` chunk, its data at the offset the header gives. Two
 * uses:
 *  - a driver: NAME.ctxb shows as info.txt and tex/ (the CMB texture files: NAME.txt,
 *    NAME.bin, NAME.png, NAME.mipK.png);
 *  - the data of a room's external textures (cmb_borrow_textures): a CMB whose header's
 *    texture data offset is 0 reads each texture from NAME.ctxb beside it in a folder or
 *    an archive, when that holds a texture of the same name, size and format.
 * Header (little-endian): 0x00 "ctxb", 0x04 u32 file size, 0x08 u32 chunk count (1),
 * 0x0C u32 0, 0x10 u32 offset of the tex chunk, 0x14 u32 offset of the texture data; the
 * chunk's entries are the CMB's (FORMATS.md 4.5), data offsets relative to 0x14's. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "formats/driver.h"
#include "lib/bytes.h"

#define CTXB_MAGIC "ctxb"
#define CTXB_HEADER 0x18
#define TEX_ENTRY 0x24

typedef struct ctxb_header {
	uint32_t size_field, nchunks, unknown_0c, chunk_off, data_off;
} ctxb_header;

static nm_status read_header(nm_reader *r, ctxb_header *h, nm_error *err)
{
	uint8_t b[CTXB_HEADER];
	const char *file = nm_reader_name(r);
	if (nm_reader_size(r) < CTXB_HEADER)
		return nm_fail(err, NM_E_FORMAT, file, "ctxb header", 0, "the file ends inside "
			       "the 0x%x-byte header (it has %llu bytes)", CTXB_HEADER,
			       (unsigned long long)nm_reader_size(r));
	nm_status s = nm_reader_read(r, 0, b, sizeof b, "ctxb header", err);
	if (s != NM_OK)
		return s;
	if (memcmp(b, CTXB_MAGIC, 4) != 0)
		return nm_fail(err, NM_E_FORMAT, file, "ctxb header", 0, "not a CTXB file");
	*h = (ctxb_header){ nm_le32(b + 4), nm_le32(b + 8), nm_le32(b + 0x0C), nm_le32(b + 0x10),
			    nm_le32(b + 0x14) };
	return NM_OK;
}

/* --- the driver ----------------------------------------------------------------- */

static bool ctxb_probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return len >= 4 && memcmp(head, CTXB_MAGIC, 4) == 0;
}

static nm_status ctxb_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_ctxb = {
	.name = "ctxb",
	.description = "Grezzo CTXB texture (3DS: Ocarina of Time 3D, Majora's Mask 3D, "
		       "Luigi's Mansion 3D)",
	.probe = ctxb_probe,
	.build = ctxb_build,
};

static nm_status ctxb_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	ctxb_header h;
	nm_status s = read_header(r, &h, err);
	if (s != NM_OK)
		return s;
	/* The texture code works on a CMB model: this one has only its tex chunk. */
	cmb_model *m = nm_tree_alloc(t, sizeof *m);
	if (!m || nm_tree_on_free(t, cmb_model_free, m) != NM_OK)
		goto nomem;
	m->t = t;
	m->r = r;
	m->file = nm_reader_name(r);
	m->file_size = nm_reader_size(r);
	m->texdata_off = h.data_off;
	cmb_name_chunks(m);
	cmb_load_chunk(m, CMB_TEX, h.chunk_off);
	if (cmb_parse_tex(m) != NM_OK)
		goto nomem;
	nm_out o;
	nm_out_init(&o);
	nm_info_begin(&o, &nm_driver_ctxb, r);
	nm_info_size_field(&o, "size_field", h.size_field, r);
	nm_kv(&o, "chunk_count", "%u", h.nchunks);
	nm_kv(&o, "unknown_0c", "0x%x", h.unknown_0c);
	nm_kv(&o, "tex_chunk", "0x%x", h.chunk_off);
	nm_kv(&o, "texture_data", "0x%x", h.data_off);
	nm_kv(&o, "textures", "%u", m->ntex);
	if (!cmb_text(t, root, "info.txt", &o) || cmb_tree_tex(t, root, m) != NM_OK)
		goto nomem;
	nm_view_free(&m->chunk[CMB_TEX].v);
	return NM_OK;
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}

/* --- a room's external textures ------------------------------------------------- */

/* Why the CTXB named for tx cannot lend it its data, or "" when it can: then its texture
 * data starts at *base and tx's at *rel from there. The entry of the same name is looked
 * for among the chunk's entries (one in every file seen). */
static void match_entry(nm_reader *r, const cmb_texture *tx, uint64_t *base, uint32_t *rel,
			char *why, size_t n)
{
	ctxb_header h;
	uint8_t c[12], e[TEX_ENTRY];
	uint64_t size = nm_reader_size(r);
	*why = '\0';
	if (read_header(r, &h, NULL) != NM_OK) {
		snprintf(why, n, "it is not a CTXB file");
		return;
	}
	if (h.chunk_off > size || size - h.chunk_off < sizeof c ||
	    nm_reader_read(r, h.chunk_off, c, sizeof c, "tex", NULL) != NM_OK ||
	    memcmp(c, "tex ", 4) != 0) {
		snprintf(why, n, "it has no tex chunk at 0x%x", h.chunk_off);
		return;
	}
	/* Entries as far as the chunk's declared size and the file go. */
	uint64_t end = (uint64_t)h.chunk_off + nm_le32(c + 4);
	uint32_t count = nm_le32(c + 8);
	for (uint32_t i = 0; i < count; i++) {
		uint64_t at = h.chunk_off + sizeof c + (uint64_t)i * TEX_ENTRY;
		if (at + sizeof e > end || at > size || size - at < sizeof e ||
		    nm_reader_read(r, at, e, sizeof e, "tex", NULL) != NM_OK)
			break;
		if (strncasecmp((const char *)e + 0x14, tx->raw_name, CMB_NAME_LEN) != 0)
			continue;
		uint32_t len = nm_le32(e), fmt = nm_le32(e + 0x0C);
		uint16_t w = nm_le16(e + 8), hgt = nm_le16(e + 0x0A);
		if (w != tx->width || hgt != tx->height || fmt != tx->gl_format || e[7] != 0) {
			snprintf(why, n, "it holds a %ux%u texture of format 0x%08x%s, the model's "
				 "entry says %ux%u, 0x%08x", w, hgt, fmt, e[7] ? " (a cube map)" : "",
				 tx->width, tx->height, tx->gl_format);
			return;
		}
		if (len < tx->chain_size) {
			snprintf(why, n, "it holds %u bytes of data, the model's %u levels take "
				 "%llu", len, tx->mips ? tx->mips : 1,
				 (unsigned long long)tx->chain_size);
			return;
		}
		*base = h.data_off;
		*rel = nm_le32(e + 0x10);
		uint64_t start = *base + *rel;
		if (start > size || tx->chain_size > size - start)
			snprintf(why, n, "its data (0x%llx bytes at 0x%llx) runs past its end "
				 "(0x%llx bytes)", (unsigned long long)tx->chain_size,
				 (unsigned long long)start, (unsigned long long)size);
		return;
	}
	snprintf(why, n, "it holds no texture named \"%s\"", tx->raw_name);
}

nm_status cmb_borrow_textures(cmb_model *m)
{
	for (uint32_t i = 0; i < m->ntex; i++) {
		cmb_texture *tx = &m->tex[i];
		nm_reader *r;
		const char *dir;
		char name[CMB_NAME_LEN + 8], why[160];
		uint64_t base = 0;
		uint32_t rel = 0;
		if (!tx->external || tx->fmt == NM_PICA_UNKNOWN || tx->is_cube ||
		    !tx->raw_name[0])
			continue;
		snprintf(name, sizeof name, "%s.ctxb", tx->raw_name);
		if (!nm_member_sibling(m->r, name, &r, &dir))
			continue;
		match_entry(r, tx, &base, &rel, why, sizeof why);
		if (why[0]) {
			tx->nlevels = 0;
			snprintf(tx->problem, sizeof tx->problem, "the texture data is external, and "
				 "%s beside the model cannot give it: %s", dir, why);
			continue;
		}
		cmb_place_texture(tx, base, rel, nm_reader_size(r));
		tx->src = r;
		if (!(tx->src_file = nm_tree_strndup(m->t, dir, strlen(dir))))
			return NM_E_NOMEM;
	}
	return NM_OK;
}
