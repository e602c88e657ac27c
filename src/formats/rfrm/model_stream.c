/* A model's GPU buffers as one stream to write back into (rfrm.h:
 * rfrm_model_gpu_stream): what a vertex or index inverse patches. Its parts are the
 * model's buffer table (from META or the walk), in the order of their offsets, which
 * must be the GPU chunk's data back to back: each buffer is then compressed again in
 * its own tag, and a chunk of another length is laid out by the form (and a PAK's
 * META blob written again, rfrm_pak_repack). One stream per model, made on first use
 * under the model's lock, adopted by the model's tree. */
#include <stdlib.h>
#include "formats/rfrm/rfrm.h"

typedef struct buf_ref {
	const rfrm_gpubuf *b;
	bool index;
	size_t i;
} buf_ref;

static int by_off(const void *x, const void *y)
{
	const buf_ref *a = x, *b = y;
	return a->b->off < b->b->off ? -1 : a->b->off > b->b->off;
}

nm_status rfrm_model_gpu_stream(rfrm_model *m, bool index, size_t i, nm_reader **out,
				uint64_t *at, nm_error *err)
{
	nm_status ready = rfrm_gpu_ready(m, err);
	if (ready != NM_OK)
		return ready;
	size_t n = m->nvbufs + m->nibufs;
	buf_ref *refs = malloc((n ? n : 1) * sizeof *refs);
	rfrm_gpu_part *parts = malloc((n ? n : 1) * sizeof *parts);
	if (!refs || !parts) {
		free(refs);
		free(parts);
		return nm_fail(err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
	}
	for (size_t k = 0; k < n; k++)
		refs[k] = k < m->nvbufs ? (buf_ref){ &m->vb[k], false, k }
					: (buf_ref){ &m->ib[k - m->nvbufs], true, k - m->nvbufs };
	qsort(refs, n, sizeof *refs, by_off);
	const rfrm_item *gpu = &m->chunk[RC_GPU].item;
	uint64_t pos = gpu->data_off, plain = 0;
	nm_status s = NM_OK;
	*at = UINT64_MAX;
	for (size_t k = 0; k < n && s == NM_OK; k++) {
		const rfrm_gpubuf *b = refs[k].b;
		if (b->bad || b->off != pos)
			s = nm_fail(err, NM_E_UNSUPPORTED, m->name, "GPU", b->off, "%s buffer %zu "
				    "%s: the buffers cannot be written back", refs[k].index ?
				    "index" : "vertex", refs[k].i, b->bad ? "does not decode" :
				    "does not follow the one before it in the GPU chunk");
		parts[k] = (rfrm_gpu_part){ .tag = { b->codec, 0, 0, 0 }, .comp = b->comp,
					    .size = b->size };
		if (refs[k].index == index && refs[k].i == i)
			*at = plain;
		pos += b->comp;
		plain += b->size;
	}
	if (s == NM_OK && *at == UINT64_MAX)
		s = nm_fail(err, NM_E_INVAL, m->name, "GPU", NM_NO_OFFSET, "no %s buffer %zu",
			    index ? "index" : "vertex", i);
	if (s == NM_OK && pos != rfrm_item_end(gpu))
		s = nm_fail(err, NM_E_UNSUPPORTED, m->name, "GPU", pos, "the buffers do not "
			    "fill the GPU chunk: they cannot be written back");
	/* The tag's three other bytes as the file has them. */
	for (size_t k = 0; k < n && s == NM_OK; k++)
		s = nm_reader_read(m->r, refs[k].b->off, parts[k].tag, 4, "GPU", err);
	pthread_mutex_lock(&m->lock);
	if (s == NM_OK && !m->stream)
		s = rfrm_gpu_stream_open(m->t, m->r, gpu->data_off, parts, n, m->name, &m->stream,
					 err);
	*out = m->stream;
	pthread_mutex_unlock(&m->lock);
	free(refs);
	free(parts);
	return s;
}
