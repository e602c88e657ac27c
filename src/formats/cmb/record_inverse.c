/* The inverse of a CMB record file (mats/N.txt, mats/combiners/N.txt, skl/bones/N.txt):
 * the description that wrote it, run over the chunk's bytes read again (the build's
 * views are gone by the time an edit comes), turns the edited text into patches of
 * those bytes (export/record.h). */
#include "export/record.h"
#include "formats/cmb/cmb.h"

static nm_status record_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
				nm_edit *ed, nm_error *err)
{
	const cmb_record_ref *ref = arg;
	cmb_model *m = ref->m;
	const cmb_chunk *c = &m->chunk[ref->chunk];
	/* mats: with the combiner table its size field leaves out, as the tree shows it. */
	uint64_t shown = ref->chunk == CMB_MATS ? m->mats_len : c->len;
	nm_view v;
	(void)ctx;
	nm_status s = nm_view_load(m->r, c->off, (size_t)shown, c->name, NM_LITTLE, &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, m->r, c->name, (const char *)bytes, len, ed);
	ref->write(&r, m, ref->index);
	nm_rec_end(&r);
	nm_view_free(&v);
	return NM_OK;
}

nm_node *cmb_record_file(nm_tree *t, nm_node *dir, const char *name, nm_out *o,
			 cmb_record_ref *ref, cmb_model *m, int chunk, uint32_t i,
			 cmb_record_fn write)
{
	nm_node *n = cmb_text(t, dir, name, o);
	if (n && ref) {
		*ref = (cmb_record_ref){ .m = m, .chunk = chunk, .index = i, .write = write };
		nm_text_inverse(n, record_inverse, ref);
	}
	return n;
}
