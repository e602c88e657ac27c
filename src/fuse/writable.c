/* A writable mount made and ended (writable.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "edit/folder.h"
#include "fuse/save.h"
#include "fuse/swap.h"
#include "fuse/writable.h"

nm_wfs *nm_wfs_open(nm_tree *base, const nm_options *opt, const char *source,
		    const char *save, const char *overlay, nm_error *err)
{
	nm_wfs *w = calloc(1, sizeof *w);
	if (!w) {
		nm_fail(err, NM_E_NOMEM, source, NULL, NM_NO_OFFSET, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->save_lock, NULL);
	w->base = base;
	w->opt = *opt;
	w->source = source;
	w->save = save;
	w->view = calloc(1, sizeof *w->view);
	w->inodes = nm_inodes_new();
	if (!w->view || !w->inodes) {
		nm_fail(err, NM_E_NOMEM, source, NULL, NM_NO_OFFSET, "out of memory");
		nm_wfs_close(w);
		return NULL;
	}
	*w->view = (nm_view){ .t = base, .refs = 1 };
	struct stat st;
	/* A folder: each member file is saved on its own, to save=DIR/REL. */
	if (stat(source, &st) == 0 && S_ISDIR(st.st_mode) &&
	    !(w->folder = nm_folder_apply_new(base, source))) {
		nm_fail(err, NM_E_NOMEM, source, NULL, NM_NO_OFFSET, "out of memory");
		nm_wfs_close(w);
		return NULL;
	}
	if (!(w->overlay = nm_overlay_open(overlay, err))) {
		nm_wfs_close(w);
		return NULL;
	}
	nm_save_resume(w);
	return w;
}

void nm_wfs_close(nm_wfs *w)
{
	if (!w)
		return;
	nm_swap_stop(w);
	if (w->view)
		nm_view_drop(w, w->view);
	nm_overlay_close(w->overlay);
	nm_folder_apply_free(w->folder);
	nm_inodes_free(w->inodes);
	for (size_t i = 0; i < w->nedits; i++) {
		free(w->edits[i].path);
		free(w->edits[i].why);
	}
	free(w->edits);
	free(w);
}
