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
	return len >= CMOD_MAGIC_LEN && memcmp(head, CMOD_MAGIC, CMOD_MAGIC_LEN) == 0;
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

static nm_status cmod_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	cmod_model *m = calloc(1, sizeof *m);
	if (!m)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	nm_status s = cmod_parse(r, m, err);
	if (s != NM_OK && m->nmaterials == 0 && m->nmeshes == 0) {
		free_model(m);
		return s; /* nothing to show: the header or the first record is broken */
	}
	if (nm_tree_on_free(t, free_model, m) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");

	nm_out o;
	nm_out_init(&o);
	nm_info_begin(&o, &nm_driver_cmod, r);
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
		nm_slice(t, mats, "raw.bin", r, first, last - first);
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
