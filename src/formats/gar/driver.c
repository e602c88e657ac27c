/* The ZAR and GAR drivers: probe by magic, info.txt (version, codename, types), then the
 * container layer shows the members: ZAR and GAR v2 by their paths ("Model/x.cmb" in a
 * folder Model), GAR v5 as NAME.EXT at the top. See doc/gar.md. */
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/gar/gar.h"

static bool zar_probe(const uint8_t *head, size_t len, uint64_t size)
{
	return len >= 4 && memcmp(head, "ZAR\x01", 4) == 0 && size >= GAR_HEADER_LEN;
}

static bool gar_probe(const uint8_t *head, size_t len, uint64_t size)
{
	return len >= 4 && memcmp(head, "GAR", 3) == 0 && (head[3] == 2 || head[3] == 5) &&
	       size >= GAR_HEADER_LEN;
}

static nm_status gar_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_zar = {
	.name = "zar",
	.description = "ZAR archive (3DS)",
	.probe = zar_probe,
	.build = gar_build,
	.archive = true,
};

const nm_driver nm_driver_gar = {
	.name = "gar",
	.description = "GAR archive (3DS)",
	.probe = gar_probe,
	.build = gar_build,
	.archive = true,
};

static void free_gar(void *p)
{
	gar_free(p);
	free(p);
}

static nm_status gar_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	gar *g = calloc(1, sizeof *g);
	if (!g || nm_tree_on_free(t, free_gar, g) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	g->t = t;
	nm_status s = gar_parse(r, g, err);
	if (s != NM_OK)
		return s;
	nm_reader_set_repack(r, gar_repack, g);
	nm_out o;
	nm_out_init(&o);
	nm_info_begin(&o, g->version == 1 ? &nm_driver_zar : &nm_driver_gar, r);
	nm_kv(&o, "version", "%u", g->version);
	nm_kv_str(&o, "codename", g->codename);
	nm_info_size_field(&o, "size_field", g->size, r);
	nm_kv(&o, "files", "%u", g->files);
	nm_out_str(&o, "types:");
	for (uint32_t i = 0; i < g->types; i++)
		nm_out_printf(&o, " %s=%u", g->type_names[i] ? g->type_names[i] : "?",
			      g->type_counts[i]);
	nm_out_char(&o, '\n');
	if (g->version == 5)
		nm_kv(&o, "files_in_no_type", "%u", g->unlisted);
	return nm_archive_tree(t, root, r, &o, g->list.e, g->list.n, err);
}
