#include "fuse/prefill.h" /* before fuse_lowlevel.h: its FUSE_USE_VERSION */
#include <fuse_lowlevel.h>
#include <stdatomic.h>

/* Page cache is counted in pages: a 100-byte file takes 4 KiB of it. */
#define PAGE 4096u

/* Take cost from the mount's budget; false (and nothing taken) when it cannot pay. */
static bool spend(nm_fuse_fs *fs, uint64_t cost)
{
	uint64_t left = atomic_load(&fs->prefill_left);
	while (left >= cost)
		if (atomic_compare_exchange_weak(&fs->prefill_left, &left, left - cost))
			return true;
	return false;
}

void nm_fuse_prefill_texts(nm_fuse_fs *fs, nm_node *const *kids, size_t count)
{
	if (!fs->se || atomic_load(&fs->prefill_left) == 0)
		return;
	for (size_t i = 0; i < count; i++) {
		nm_node *k = kids[i];
		uint64_t size;
		nm_error err;
		nm_read_hold h;
		if (nm_node_type(k) != NM_NODE_TEXT || nm_size(fs->tree, k, &size, &err) != NM_OK ||
		    size == 0 || size > NM_FUSE_PREFILL_MAX)
			continue;
		if (!spend(fs, (size + PAGE - 1) / PAGE * PAGE))
			return;
		/* A text file's hold points into the tree: nothing is copied or produced. */
		if (nm_read_pin(fs->tree, k, 0, (size_t)size, &h, &err) != NM_OK)
			continue;
		struct fuse_bufvec buf = FUSE_BUFVEC_INIT(h.len);
		buf.buf[0].mem = (void *)h.data;
		fuse_lowlevel_notify_store(fs->se, nm_node_id(k), 0, &buf, 0);
		nm_read_release(fs->tree, &h);
	}
}
