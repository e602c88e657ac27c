/* mat3/ (or mat2/): header.txt and N.txt per material, formatted at mount from the
 * loaded tables; in a tree opened for editing, each N.txt reads back into them. */
#include <stdio.h>
#include "formats/j3d/j3d.h"

nm_status j3d_tree_mat3(nm_tree *t, j3d_model *m, const j3d_chunk *c)
{
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	j3d_mat3_header(&o, m->mat3);
	nm_node *n = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	for (uint16_t i = 0; i < m->mat3->count; i++) {
		char name[16];
		snprintf(name, sizeof name, "%u.txt", i);
		j3d_record_ref how = { .m = m, .off = c->off, .len = m->mat3->v.size,
				       .chunk = c->magic, .index = i,
				       .write = j3d_material_record, .after = j3d_material_notes };
		if (!j3d_record_file(t, c->dir, name, &m->mat3->v, &how))
			return NM_E_NOMEM;
	}
	return NM_OK;
}
