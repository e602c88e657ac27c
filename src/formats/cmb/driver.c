/* The CMB driver: probe, parse every chunk's tables, build the tree.
 *
 *   /info.txt  /mesh.obj  /mesh.mtl
 *   /skl/      header.txt raw.bin bones/N.txt
 *   /qtrs/     header.txt raw.bin N.txt                       (v10+)
 *   /tex/      header.txt raw.bin NAME.{txt,bin,png} NAME.mipK.png NAME.faceF[.mipK].png
 *   /mats/     header.txt raw.bin N.txt combiners/N.txt
 *   /sklm/     header.txt raw.bin mshs/{header.txt,raw.bin,N.txt} shp/{header.txt,raw.bin}
 *   /sepd/N/   header.txt raw.bin positions.csv ... prms/M.txt
 *   /luts/     header.txt raw.bin N.txt N.csv
 *   /vatr/     header.txt raw.bin
 * See doc/cmb.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "formats/driver.h"

nm_node *cmb_text(nm_tree *t, nm_node *dir, const char *name, nm_out *o)
{
	nm_node *n = nm_text(t, dir, name, o);
	nm_out_free(o);
	return n;
}

nm_status cmb_record_errors(nm_tree *t, nm_node *dir, nm_out *lines)
{
	if (lines->len == 0 && nm_out_status(lines) == NM_OK)
		return NM_OK;
	/* The chunk's own error.txt, if it has one, gets the lines too: one file per
	 * directory, so that info.txt's errors: count stays one per failing place. */
	nm_node *e = nm_child(t, dir, "error.txt");
	if (e) {
		nm_status s = nm_text_append(t, e, lines);
		nm_out_free(lines);
		return s;
	}
	return cmb_text(t, dir, "error.txt", lines) ? NM_OK : NM_E_NOMEM;
}

void cmb_chunk_header(nm_out *o, const cmb_chunk *c)
{
	nm_kv(o, "magic", "%s", c->magic);
	nm_kv(o, "offset", "0x%llx", (unsigned long long)c->off);
	nm_kv(o, "size", "0x%x", c->size);
	if (c->present && c->len < c->size)
		nm_kv(o, "truncated", "the file ends 0x%llx bytes into the chunk",
		      (unsigned long long)c->len);
	if (c->failed)
		nm_kv_str(o, "error", c->err.msg);
}

/* The chunk's directory with raw.bin (and error.txt if it failed); NULL if the header
 * gives no such chunk (or memory ran out: the caller tells by c->present). */
nm_node *cmb_chunk_dir(nm_tree *t, nm_node *root, cmb_model *m, int kind)
{
	cmb_chunk *c = &m->chunk[kind];
	if (!c->present)
		return NULL;
	nm_node *dir = nm_dir(t, root, c->name);
	if (!dir)
		return NULL;
	uint64_t off = c->off < m->file_size ? c->off : m->file_size;
	uint64_t len = c->len;
	if (kind == CMB_MATS && m->mats_len > len)
		len = m->mats_len; /* the combiner table the size field leaves out */
	if (!nm_slice(t, dir, "raw.bin", m->r, off, len))
		return NULL;
	if (c->failed && !nm_error_file(t, dir, &c->err))
		return NULL;
	return dir;
}

static bool cmb_probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return len >= 4 && memcmp(head, CMB_MAGIC, 4) == 0;
}

static nm_status cmb_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_cmb = {
	.name = "cmb",
	.description = "Grezzo CMB (3DS: Ocarina of Time 3D, Majora's Mask 3D, Ever Oasis, "
		       "Luigi's Mansion 3D)",
	.probe = cmb_probe,
	.build = cmb_build,
};

/* errors: N comes last, counted by nm_build_any from the error.txt files made. */
static void info_text(nm_out *o, nm_reader *r, const cmb_model *m)
{
	uint64_t verts = 0, tris = 0;
	for (uint32_t i = 0; i < m->nsepds; i++) {
		const cmb_sepd *s = &m->sepds[i];
		verts += s->nverts;
		for (uint16_t j = 0; s->ok && j < s->nprms; j++)
			tris += s->prms[j].ntris;
	}
	nm_info_begin(o, &nm_driver_cmb, r);
	nm_kv(o, "version", "%u (%s)", m->version, m->L.game);
	nm_kv_str(o, "name", m->name);
	nm_info_size_field(o, "size_field", m->size_field, r);
	nm_kv(o, "unknown_0c", "0x%x", m->unknown_0c);
	if (m->L.qtrs)
		nm_kv(o, "unknown_48", "0x%x", m->unknown_48);
	nm_kv(o, "index_buffer", "%u indices at 0x%x", m->nindices, m->index_off);
	nm_kv(o, "texture_data", "0x%x%s", m->texdata_off, m->texdata_off ? "" : " (external)");
	nm_kv(o, "bones", "%u", m->nbones);
	nm_kv(o, "materials", "%u", m->nmats);
	nm_kv(o, "textures", "%u", m->ntex);
	nm_kv(o, "meshes", "%u", m->nmeshes);
	nm_kv(o, "shapes", "%u", m->nsepds);
	nm_kv(o, "vertices", "%llu", (unsigned long long)verts);
	nm_kv(o, "triangles", "%llu", (unsigned long long)tris);
	nm_kv(o, "luts", "%u", m->nluts);
	nm_pairs_info(o, &m->anims);
	if (m->skipped[0])
		nm_kv_str(o, "skipped", m->skipped);
}

typedef nm_status (*parse_fn)(cmb_model *m);
typedef nm_status (*tree_fn)(nm_tree *t, nm_node *root, cmb_model *m);

static nm_status cmb_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	cmb_model *m = nm_tree_alloc(t, sizeof *m);
	/* The chunk views live in the model: registered right after it, so this runs last
	 * but one (nm_tree_on_free runs in reverse order). */
	if (!m || nm_tree_on_free(t, cmb_model_free, m) != NM_OK)
		goto nomem;
	m->t = t;
	m->r = r;
	m->file = nm_reader_name(r);
	m->file_size = nm_reader_size(r);
	nm_status s = cmb_parse_header(m, err);
	if (s != NM_OK)
		return s;
	/* vatr before sklm: vertex counts come from the VATR slices. */
	static const parse_fn parsers[] = { cmb_parse_skl, cmb_parse_qtrs, cmb_parse_mats,
					    cmb_parse_tex, cmb_parse_vatr, cmb_parse_sklm,
					    cmb_parse_luts };
	for (size_t i = 0; i < sizeof parsers / sizeof parsers[0]; i++)
		if (parsers[i](m) != NM_OK)
			goto nomem;
	if (cmb_borrow_textures(m) != NM_OK)
		goto nomem;
	if (m->L.known && cmb_pair_animations(m, err) != NM_OK)
		return err->code;
	if (!m->L.known)
		snprintf(m->skipped, sizeof m->skipped,
			 "version %u is not one of 6, 10, 12, 15: only the header, the chunks' raw "
			 "bytes and the textures are shown; bones, materials, meshes, shapes, "
			 "vertex data, LUTs and mesh.obj are left out", m->version);

	nm_out o;
	nm_out_init(&o);
	info_text(&o, r, m);
	if (!cmb_text(t, root, "info.txt", &o))
		goto nomem;
	/* tex before mats and mesh.mtl: they name textures by their file stems. */
	static const tree_fn trees[] = { cmb_tree_skl, cmb_tree_qtrs, cmb_tree_tex, cmb_tree_mats,
					 cmb_tree_sklm, cmb_tree_sepd, cmb_tree_luts,
					 cmb_tree_vatr };
	for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++)
		if (trees[i](t, root, m) != NM_OK)
			goto nomem;
	if (m->L.known && (cmb_add_obj(t, root, m) != NM_OK || cmb_add_gltf(t, root, m) != NM_OK))
		goto nomem;
	/* Producers read the file again; the chunk copies are no longer needed. */
	for (int k = 0; k < CMB_NCHUNKS; k++)
		nm_view_free(&m->chunk[k].v);
	return NM_OK;
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}
