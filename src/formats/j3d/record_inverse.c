/* A J3D record file described once (export/record.h): the writer formats mat3/N.txt,
 * jnt1/joints/N.txt or a texture header at mount from a view of the record's bytes, and
 * its inverse runs the same writer over those bytes read again (the build's views are
 * gone by the time an edit comes), turning the edited text into patches. */
#include "export/record.h"
#include "formats/j3d/j3d.h"

static nm_status record_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
				nm_edit *ed, nm_error *err)
{
	const j3d_record_ref *ref = arg;
	nm_view v;
	(void)ctx;
	nm_status s = nm_view_load(ref->m->r, ref->off, (size_t)ref->len, ref->chunk, NM_BIG, &v,
				   err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, ref->m->r, ref->chunk, (const char *)bytes, len, ed);
	size_t first = ed->npatches;
	ref->write(&r, ref->m, ref->index);
	if (ref->after && ed->npatches > first && !ed->nomem)
		ref->after(&r, ref->m, ref->index, first);
	nm_rec_end(&r);
	nm_view_free(&v);
	return NM_OK;
}

nm_node *j3d_record_file(nm_tree *t, nm_node *dir, const char *name, nm_view *v,
			 const j3d_record_ref *how)
{
	nm_out o;
	nm_out_init(&o);
	nm_rec r;
	nm_rec_write(&r, &o, v);
	how->write(&r, how->m, how->index);
	nm_node *n = nm_text(t, dir, name, &o);
	nm_out_free(&o);
	if (!n || !nm_tree_options(t)->editable)
		return n;
	j3d_record_ref *ref = nm_tree_alloc_array(t, 1, sizeof *ref);
	if (!ref)
		return NULL;
	*ref = *how;
	nm_text_inverse(n, record_inverse, ref);
	return n;
}
