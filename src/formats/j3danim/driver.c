/* The J3D animation driver: J3D1 files of the nine kinds FORMATS.md 10 describes
 * (BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA), known by content. The parse is
 * parse_*.c (also what a model's glb would call); the tree is tree_*.c. */
#include "formats/driver.h"
#include "formats/j3danim/j3danim.h"

static bool probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return j3danim_probe(head, len);
}

static void free_anim(void *p) { j3danim_free(p); }

/* A file whose header or block header cannot be read fails; a block whose tables do not
 * fit still shows info.txt and the block's raw.bin, header.txt and error.txt. */
static nm_status build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	j3danim *a;
	nm_error block_err;
	nm_status s = j3danim_parse(r, &a, &block_err);
	if (a && nm_tree_on_free(t, free_anim, a) != NM_OK)
		return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "out of memory");
	if (s == NM_E_NOMEM || s == NM_E_IO || s == NM_E_LIMIT || !a || a->nfields == 0) {
		*err = block_err;
		return s;
	}
	bool failed = s != NM_OK;
	s = j3danim_tree_info(r, t, root, a, failed ? &block_err : NULL);
	if (s == NM_OK && !failed)
		s = j3danim_tree_targets(r, t, root, a);
	if (s != NM_OK)
		return nm_fail(err, s, nm_reader_name(r), a->block_magic, a->block_off,
			       "%s while building the tree", nm_status_str(s));
	return NM_OK;
}

const nm_driver nm_driver_j3danim = {
	.name = "j3danim",
	.description = "J3D animation (BCK/BCA/BTK/BRK/BPK/BTP/BVA/BLK/BLA)",
	.probe = probe,
	.build = build,
};
