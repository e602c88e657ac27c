/* The tree's side of inverses (lib/edit.h): where a file keeps its inverse. A text file
 * keeps it in the room its node has anyway; a lazy file's comes from its producer,
 * paired once per tree; a slice needs none of its own (slice_inverse). */
#include <pthread.h>
#include <string.h>
#include "lib/tree_internal.h"

nm_node *nm_text_inverse(nm_node *file, nm_inverse_fn fn, void *arg)
{
	if (file && file->kind == NM_NODE_TEXT) {
		file->inverse = fn;
		file->inverse_arg = arg;
	}
	return file;
}

nm_status nm_tree_invert_producer(nm_tree *t, nm_produce_fn produce, nm_inverse_fn inverse)
{
	nm_status s = NM_OK;
	pthread_mutex_lock(&t->lock);
	uint32_t i = 0;
	while (i < t->ninverses && t->inverses[i].produce != produce)
		i++;
	if (i == t->ninverses) {
		struct nm_producer_inverse *a = t->ninverses < t->capinverses ? t->inverses
			: nm_tree_grow(t->inverses, &t->capinverses, sizeof *a, 4);
		if (a) {
			t->inverses = a;
			t->ninverses++;
		} else {
			s = NM_E_NOMEM;
		}
	}
	if (s == NM_OK)
		t->inverses[i] = (struct nm_producer_inverse){ produce, inverse };
	pthread_mutex_unlock(&t->lock);
	return s;
}

/* A slice shows bytes of its reader as they are: new bytes of the same length are
 * those bytes. Another length would move everything after them: a slice that is all
 * of its reader (a member's raw.bin, a plain member) is that member replaced, which
 * its archive may lay out again (src/edit); part of a reader (a chunk's raw.bin) is
 * refused here. */
static nm_status slice_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			       nm_edit *ed, nm_error *err)
{
	nm_node *n = arg;
	uint64_t size = atomic_load(&n->size);
	const char *chunk = n->parent && n->parent->parent ? n->parent->name : NULL;
	(void)ctx;
	(void)err;
	if (len != size && n->off == 0 && size == nm_reader_size(n->reader))
		nm_edit_replace(ed, n->reader, bytes, len, chunk, n->name);
	else if (len != size)
		nm_edit_refuse(ed, 0, NULL, "%zu bytes where the model has %llu: a change of "
			       "size changes the model's layout, which apply does not do", len,
			       (unsigned long long)size);
	else
		nm_edit_patch(ed, n->reader, n->off, bytes, len, chunk, 0, n->name);
	return NM_OK;
}

bool nm_node_inverse(nm_tree *t, nm_node *n, nm_inverse_fn *fn, void **ctx, void **arg)
{
	*ctx = NULL;
	switch (n->kind) {
	case NM_NODE_SLICE:
		*fn = slice_inverse;
		*arg = n;
		return true;
	case NM_NODE_TEXT:
		*fn = n->inverse;
		*arg = n->inverse_arg;
		return *fn != NULL;
	case NM_NODE_LAZY:
		*fn = NULL;
		pthread_mutex_lock(&t->lock);
		for (uint32_t i = 0; i < t->ninverses; i++)
			if (t->inverses[i].produce == n->produce)
				*fn = t->inverses[i].inverse;
		pthread_mutex_unlock(&t->lock);
		*ctx = n->ctx;
		*arg = n->arg;
		return *fn != NULL;
	default:
		return false;
	}
}
