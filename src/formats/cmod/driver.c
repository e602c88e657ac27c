/* The CMOD driver: probe by magic, build the tree (info.txt, materials/, meshes/,
 * model.ascii.cmod, mesh.obj); the mesh directories are tree_mesh.c's, the ASCII
 * rendering tree_ascii.c's, mesh.obj obj.c's. See doc/cmod.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/cmod/cmod.h"
#include "formats/driver.h"

static bool cmod_probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return len >= CMOD_MAGIC_LEN && (memcmp(head, CMOD_MAGIC, CMOD_MAGIC_LEN) == 0 ||
					 memcmp(head, CMOD_ASCII_MAGIC, CMOD_MAGIC_LEN) == 0);
}

static void free_model(void *p)
{
	cmod_model_free(p);
	free(p);
}

static nm_status cmod_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_cmod = {
	.name = "cmod",
	.description = "Celestia binary CMOD",
	.probe = cmod_probe,
	.build = cmod_build,
};

/* The binary an ASCII file is mounted through: bytes in memory whose origin is the
 * file, written back as ASCII (so an edit of an ASCII file gives an ASCII file). */
static nm_status memory_read(void *ctx, uint64_t off, void *buf, size_t len,
			     const char *chunk, nm_error *err)
{
	(void)chunk;
	(void)err;
	memcpy(buf, (const uint8_t *)ctx + off, len); /* the reader checked the range */
	return NM_OK;
}

static const nm_source_ops memory_ops = { .read = memory_read, .close = free };

static nm_status encode_ascii(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			      nm_error *err)
{
	return cmod_binary_to_ascii(ctx, plain, len, out, err);
}

/* An ASCII file (#celmodel__ascii): read whole (under max_file_size), written as
 * binary, and that binary parsed as any binary file is, so both show one tree. */
static nm_status ascii_source(nm_reader *r, nm_tree *t, nm_reader **bin, cmod_notes *notes,
			      nm_error *err)
{
	uint64_t size = nm_reader_size(r);
	uint8_t *text;
	nm_status s = nm_reader_load(r, 0, (size_t)size, "ASCII model", &text, err);
	if (s != NM_OK)
		return s;
	nm_out o;
	nm_out_init(&o);
	o.opt = nm_tree_options(t);
	cmod_ascii_fault fault;
	s = cmod_ascii_to_binary(nm_reader_name(r), text, (size_t)size, &o, notes, &fault, err);
	free(text);
	size_t len;
	uint8_t *data = s == NM_OK ? nm_out_take(&o, &len) : NULL;
	nm_out_free(&o);
	if (s != NM_OK)
		return s;
	if (!data || nm_reader_new_source(nm_reader_name(r), len, &memory_ops, data, bin,
					  err) != NM_OK) {
		free(data);
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	}
	nm_reader_set_origin(*bin, &(nm_reader_origin){ .parent = r, .off = 0, .len = size,
							.encode = encode_ascii,
							.ctx = (void *)nm_reader_name(r) });
	if (nm_tree_adopt_reader(t, *bin) != NM_OK) {
		nm_reader_close(*bin);
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	}
	return NM_OK;
}

static bool is_ascii(nm_reader *r)
{
	char head[CMOD_MAGIC_LEN];
	return nm_reader_read(r, 0, head, sizeof head, NULL, NULL) == NM_OK &&
	       memcmp(head, CMOD_ASCII_MAGIC, CMOD_MAGIC_LEN) == 0;
}

static const nm_driver ascii_info = { .name = "cmod", .description = "Celestia ASCII CMOD" };

static nm_status cmod_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	cmod_notes ascii_notes = { 0 };
	nm_reader *src = r;
	bool ascii = is_ascii(r);
	if (ascii) {
		nm_status s = ascii_source(r, t, &src, &ascii_notes, err);
		if (s != NM_OK) {
			cmod_notes_free(&ascii_notes);
			return s;
		}
	}
	cmod_model *m = calloc(1, sizeof *m);
	if (!m) {
		cmod_notes_free(&ascii_notes);
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	}
	nm_status s = cmod_parse(src, m, err);
	/* What the ASCII reader let pass, as Celestia does, among the oddities. */
	for (size_t i = 0; i < ascii_notes.n; i++)
		if (cmod_note(&m->notes, "%s", ascii_notes.v[i]) != NM_OK)
			break;
	cmod_notes_free(&ascii_notes);
	if (s != NM_OK && m->nmaterials == 0 && m->nmeshes == 0) {
		free_model(m);
		return s; /* nothing to show: the header or the first record is broken */
	}
	if (nm_tree_on_free(t, free_model, m) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");

	nm_out o;
	nm_out_init(&o);
	nm_info_begin(&o, ascii ? &ascii_info : &nm_driver_cmod, r);
	if (ascii)
		nm_kv(&o, "binary_size", "%llu", (unsigned long long)nm_reader_size(src));
	nm_kv(&o, "materials", "%zu", m->nmaterials);
	nm_kv(&o, "meshes", "%zu", m->nmeshes);
	nm_kv(&o, "vertices", "%llu", (unsigned long long)m->vertices);
	nm_kv(&o, "indices", "%llu", (unsigned long long)m->indices);
	nm_kv(&o, "triangles", "%llu", (unsigned long long)cmod_triangles(m));
	cmod_oddities_text(&o, m);
	if (m->truncated)
		nm_kv_str(&o, "error", m->parse_error.msg);
	nm_text(t, root, "info.txt", &o);
	if (m->truncated)
		nm_error_file(t, root, &m->parse_error);

	nm_node *mats = nm_dir(t, root, "materials");
	if (m->nmaterials) {
		uint64_t first = m->materials[0].offset, last = m->materials[m->nmaterials - 1].end;
		nm_kv(&o, "count", "%zu", m->nmaterials);
		nm_kv(&o, "offset", "0x%llx", (unsigned long long)first);
		nm_text(t, mats, "header.txt", &o);
		nm_slice(t, mats, "raw.bin", src, first, last - first);
	}
	for (size_t i = 0; i < m->nmaterials; i++) {
		char name[32];
		cmod_material_text(&o, m, i);
		snprintf(name, sizeof name, "%zu.txt", i);
		nm_text(t, mats, name, &o);
	}
	nm_node *meshes = nm_dir(t, root, "meshes");
	for (size_t i = 0; meshes && i < m->nmeshes; i++) {
		char name[32];
		snprintf(name, sizeof name, "%zu", i);
		nm_node *d = nm_dir(t, meshes, name);
		if (!d || cmod_add_mesh_files(t, d, m, &m->meshes[i]) != NM_OK)
			goto nomem;
	}
	nm_out_free(&o);
	if (cmod_add_ascii(t, root, m) != NM_OK || cmod_add_obj(t, root, m) != NM_OK ||
	    cmod_add_gltf(t, root, m) != NM_OK)
		goto nomem;
	return NM_OK;
nomem:
	nm_out_free(&o);
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}
