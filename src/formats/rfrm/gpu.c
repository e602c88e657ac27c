/* The GPU chunk: where each vertex and index buffer lies, and its decompression.
 *
 * The chunk is the buffers back to back, vertex buffers in VBUF order then index
 * buffers in IBUF order, each a 4-byte codec tag and its stream (codec/gpu_buffer.h:
 * stored, four LZSS families, zlib; codecs mix within one chunk). The layout comes
 * from, in order:
 *  1. the PAK's META entry for the asset (FORMATS.md 6.4, "CMDL META blob");
 *  2. metadata appended after the RFRM form by an unpacker: one chunk descriptor
 *     "META" (0x18 bytes, big-endian, like any RFRM chunk) followed by that same blob
 *     (the layout of a PAK model's raw.bin);
 *  3. a walk over the buffers (the Switch files carry no META): each buffer ends where
 *     its stream says. zlib and arithmetic-coded streams end by themselves; a stored
 *     or plain LZSS stream ends after the size the headers give it: VBUF's count x
 *     stride for a vertex buffer, the indices the meshes use for an index buffer (the
 *     last buffer may instead use up the chunk). The walk must use up the chunk
 *     exactly, and every buffer must start with a known tag. It decodes, so it runs on
 *     the first access to any buffer, never at mount; its table is kept in the model
 *     (under the model's mutex: several FUSE threads may read at once).
 * META read-buffer offsets are taken relative to the asset file; if that does not put
 * a valid buffer header at every buffer, relative to the META's GPU offset (FORMATS.md
 * leaves this open for DKCTF [M-L]).
 *
 * Limits: a buffer may not decompress to more than rfrm_max_buffer, nor to more than
 * its codec could make of its compressed bytes; such a declaration is refused before
 * anything is allocated. The decoders never write past the declared size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "formats/rfrm/rfrm.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

#define MAX_META_BLOB (1u << 20)

static const char *codec_name(uint8_t tag)
{
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	return c ? c->name : "unknown";
}

const char *rfrm_gpu_source_name(rfrm_gpu_source s)
{
	switch (s) {
	case RFRM_GPU_NONE: return "none";
	case RFRM_GPU_PAK_META: return "PAK META entry";
	case RFRM_GPU_APPENDED_META: return "META appended after the form";
	case RFRM_GPU_WALK: return "buffers one after another, sized by VBUF and MESH (found on first read)";
	}
	return "unknown";
}

static bool valid_header(const uint8_t h[4])
{
	return nm_gpu_codec_of(h) != NULL;
}

size_t rfrm_meta_length(const uint8_t *p, size_t avail)
{
	static const uint64_t stride[3] = { 8, 16, 16 };
	uint64_t off = 8;
	for (int l = 0; l < 3; l++) {
		if (avail < off + 4)
			return 0;
		uint64_t n = nm_be32(p + off);
		off += 4;
		if (n * stride[l] > avail - off)
			return 0;
		off += n * stride[l];
	}
	return (size_t)off;
}

static nm_status meta_parse(rfrm_model *m, nm_error *err)
{
	const uint8_t *p = m->meta_blob;
	size_t len = rfrm_meta_length(p, m->meta_len);
	if (!len)
		return nm_fail(err, NM_E_FORMAT, m->name, "META", NM_NO_OFFSET,
			       "the %s (%zu bytes) is shorter than its lists say",
			       rfrm_gpu_source_name(m->source), m->meta_len);
	rfrm_meta *mt = &m->meta;
	mt->unknown = nm_be32(p);
	mt->gpu_offset = nm_be32(p + 4);
	size_t off = 8;
	mt->nread = nm_be32(p + off);
	/* rfrm_meta_length checked every count against the blob's bytes. */
	mt->read = nm_tree_alloc_array(m->t, mt->nread ? mt->nread : 1, sizeof *mt->read);
	for (uint32_t i = 0; mt->read && i < mt->nread; i++)
		for (int k = 0; k < 2; k++)
			mt->read[i][k] = nm_be32(p + off + 4 + 8 * (size_t)i + 4 * (size_t)k);
	off += 4 + (size_t)mt->nread * 8;
	uint32_t (**lists[2])[4] = { &mt->vb, &mt->ib };
	uint32_t *counts[2] = { &mt->nvb, &mt->nib };
	for (int l = 0; l < 2; l++) {
		uint32_t n = *counts[l] = nm_be32(p + off);
		uint32_t (*a)[4] = nm_tree_alloc_array(m->t, n ? n : 1, sizeof *a);
		*lists[l] = a;
		for (uint32_t i = 0; a && i < n; i++)
			for (int k = 0; k < 4; k++)
				a[i][k] = nm_be32(p + off + 4 + 16 * (size_t)i + 4 * (size_t)k);
		off += 4 + (size_t)n * 16;
	}
	if (!mt->read || !mt->vb || !mt->ib)
		return nm_fail(err, NM_E_NOMEM, m->name, "META", NM_NO_OFFSET, "out of memory");
	if (mt->nvb != m->nvbufs || mt->nib != m->nibufs)
		return nm_fail(err, NM_E_FORMAT, m->name, "META", NM_NO_OFFSET,
			       "the %s lists %u vertex and %u index buffers; VBUF and IBUF describe %zu and %zu",
			       rfrm_gpu_source_name(m->source), mt->nvb, mt->nib, m->nvbufs, m->nibufs);
	return NM_OK;
}

/* Place every buffer the META lists, its read-buffer offsets taken from base. */
static nm_status meta_place(rfrm_model *m, uint64_t base, nm_error *err)
{
	rfrm_meta *mt = &m->meta;
	uint64_t fsize = nm_reader_size(m->r);
	for (int l = 0; l < 2; l++) {
		uint32_t n = l ? mt->nib : mt->nvb;
		uint32_t (*list)[4] = l ? mt->ib : mt->vb;
		rfrm_gpubuf *bufs = l ? m->ib : m->vb;
		const char *kind = l ? "index" : "vertex";
		for (uint32_t i = 0; i < n; i++) {
			const uint32_t *e = list[i];
			if (e[0] >= mt->nread)
				return nm_fail(err, NM_E_FORMAT, m->name, "META", NM_NO_OFFSET,
					       "%s buffer %u is in read buffer %u of %u", kind, i,
					       e[0], mt->nread);
			uint64_t rsize = mt->read[e[0]][0], roff = mt->read[e[0]][1];
			if ((uint64_t)e[1] + e[2] > rsize)
				return nm_fail(err, NM_E_FORMAT, m->name, "META", NM_NO_OFFSET,
					       "%s buffer %u (0x%x bytes at 0x%x) runs past its read buffer (0x%llx bytes)",
					       kind, i, e[2], e[1], (unsigned long long)rsize);
			uint64_t off = base + roff + e[1];
			if (e[2] < 4 || off > fsize || e[2] > fsize - off)
				return nm_fail(err, NM_E_FORMAT, m->name, "META", NM_NO_OFFSET,
					       "%s buffer %u: 0x%x bytes at 0x%llx are not all in the file (0x%llx bytes)",
					       kind, i, e[2], (unsigned long long)off,
					       (unsigned long long)fsize);
			uint8_t h[4];
			nm_status s = nm_reader_read(m->r, off, h, 4, "GPU", err);
			if (s != NM_OK)
				return s;
			if (!valid_header(h))
				return nm_fail(err, NM_E_FORMAT, m->name, "GPU", off,
					       "%s buffer %u: no buffer header here (found %02x %02x %02x %02x)",
					       kind, i, h[0], h[1], h[2], h[3]);
			rfrm_gpubuf *b = &bufs[i];
			b->off = off;
			b->comp = e[2];
			b->size = e[3];
			b->codec = h[0];
		}
	}
	return NM_OK;
}

/* A declared size no compressed stream of comp bytes could give is refused. */
static void check_limit(rfrm_model *m, rfrm_gpubuf *b, const char *kind, size_t i)
{
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(b->codec);
	uint64_t payload = b->comp - 4;
	uint64_t max = c->tag == NM_GPU_TAG_STORED ? payload : payload * c->max_ratio + 64;
	if (b->size > rfrm_max_buffer(m) || b->size > max) {
		b->bad = true;
		nm_fail(&b->err, NM_E_LIMIT, m->name, "GPU", b->off,
			"%s buffer %zu declares %llu bytes decompressed from %llu (%s): refused",
			kind, i, (unsigned long long)b->size, (unsigned long long)b->comp,
			codec_name(b->codec));
	}
}

static nm_status from_meta(rfrm_model *m, nm_error *err)
{
	nm_status s = meta_parse(m, err);
	if (s != NM_OK)
		return s;
	nm_error first;
	if (meta_place(m, 0, &first) != NM_OK) {
		/* Read-buffer offsets relative to the GPU offset instead (FORMATS.md 6.4). */
		if (meta_place(m, m->meta.gpu_offset, err) != NM_OK) {
			*err = first;
			return first.code;
		}
		m->meta_gpu_relative = true;
	}
	for (size_t i = 0; i < m->nvbufs; i++)
		check_limit(m, &m->vb[i], "vertex", i);
	for (size_t i = 0; i < m->nibufs; i++)
		check_limit(m, &m->ib[i], "index", i);
	/* What VBUF and MESH want must be in the buffers: else nothing can be decoded,
	 * and no array is sized by the larger count. */
	for (size_t i = 0; i < m->nvbufs; i++) {
		rfrm_vbuf *vb = &m->vbufs[i];
		if (!vb->bad && !m->vb[i].bad && vb->size > m->vb[i].size) {
			vb->bad = true;
			nm_fail(&vb->err, NM_E_FORMAT, m->name, "VBUF", NM_NO_OFFSET,
				"vertex buffer %zu: %u vertices x %u bytes = %llu, but its GPU buffer holds %llu",
				i, vb->count, vb->stride, (unsigned long long)vb->size,
				(unsigned long long)m->vb[i].size);
		}
	}
	for (size_t j = 0; j < m->nibufs; j++) {
		rfrm_ibuf *ib = &m->ibufs[j];
		if (!ib->bad && !m->ib[j].bad && ib->used * ib->isize > m->ib[j].size) {
			ib->bad = true;
			nm_fail(&ib->err, NM_E_FORMAT, m->name, "MESH", NM_NO_OFFSET,
				"index buffer %zu: the meshes use %llu indices, but its GPU buffer holds %llu bytes",
				j, (unsigned long long)ib->used, (unsigned long long)m->ib[j].size);
		}
	}
	rfrm_link_meshes(m);
	rfrm_gpubuf *b0 = m->nvbufs ? &m->vb[0] : m->nibufs ? &m->ib[0] : NULL;
	m->codec = b0 ? b0->codec : 0;
	for (size_t i = 0; i < m->nvbufs + m->nibufs; i++) {
		const rfrm_gpubuf *b = i < m->nvbufs ? &m->vb[i] : &m->ib[i - m->nvbufs];
		if (b->codec > 3)
			m->switch_codec = true;
	}
	return NM_OK;
}

/* Metadata appended after the form: a "META" chunk descriptor and the blob. */
static bool find_appended(rfrm_model *m)
{
	uint64_t end = rfrm_item_end(&m->form), fsize = nm_reader_size(m->r);
	rfrm_item it;
	nm_error err;
	if (end > fsize || fsize - end < RFRM_CHUNK_LEN ||
	    rfrm_read_item(m->r, end, fsize, &it, &err) != NM_OK ||
	    it.is_form || memcmp(it.id, "META", 4) != 0)
		return false;
	if (it.size > MAX_META_BLOB) {
		m->meta_bad = true;
		nm_fail(&m->meta_err, NM_E_LIMIT, m->name, "META", it.off,
			"appended META of %llu bytes: too large for a buffer table",
			(unsigned long long)it.size);
		return false;
	}
	uint8_t *blob;
	if (nm_reader_load(m->r, it.data_off, (size_t)it.size, "META", &blob, &err) != NM_OK)
		return false;
	m->meta_blob = (uint8_t *)nm_tree_strndup(m->t, blob, (size_t)it.size);
	free(blob);
	m->meta_len = m->meta_blob ? (size_t)it.size : 0;
	return m->meta_blob != NULL;
}

/* Forget a META that did not fit (its tables stay in the arena until the tree goes). */
static void reset_meta(rfrm_model *m)
{
	memset(&m->meta, 0, sizeof m->meta);
	m->meta_blob = NULL;
	m->meta_len = 0;
	memset(m->vb, 0, m->nvbufs * sizeof *m->vb);
	memset(m->ib, 0, m->nibufs * sizeof *m->ib);
}

/* Walk: sizes no GPU chunk of this size could decompress to are refused at mount. */
static void refuse_impossible_sizes(rfrm_model *m, uint64_t chunk)
{
	uint64_t most = chunk * nm_gpu_codec_by_tag(0x0c)->max_ratio + 64;
	if (most > rfrm_max_buffer(m))
		most = rfrm_max_buffer(m);
	for (size_t i = 0; i < m->nvbufs; i++) {
		rfrm_vbuf *vb = &m->vbufs[i];
		if (!vb->bad && vb->size > most) {
			vb->bad = true;
			nm_fail(&vb->err, NM_E_LIMIT, m->name, "VBUF", NM_NO_OFFSET,
				"vertex buffer %zu: %llu bytes of vertices cannot come from a GPU chunk of %llu bytes (limit %llu)",
				i, (unsigned long long)vb->size, (unsigned long long)chunk,
				(unsigned long long)most);
		}
	}
	for (size_t j = 0; j < m->nibufs; j++) {
		rfrm_ibuf *ib = &m->ibufs[j];
		if (!ib->bad && ib->used * ib->isize > most) {
			ib->bad = true;
			nm_fail(&ib->err, NM_E_LIMIT, m->name, "MESH", NM_NO_OFFSET,
				"index buffer %zu: %llu indices cannot come from a GPU chunk of %llu bytes (limit %llu)",
				j, (unsigned long long)ib->used, (unsigned long long)chunk,
				(unsigned long long)most);
		}
	}
}

void rfrm_gpu_locate(rfrm_model *m)
{
	rfrm_chunk *g = &m->chunk[RC_GPU];
	rfrm_gpu_source want = m->source;
	m->source = RFRM_GPU_NONE;
	m->vb = nm_tree_alloc_array(m->t, m->nvbufs ? m->nvbufs : 1, sizeof *m->vb);
	m->ib = nm_tree_alloc_array(m->t, m->nibufs ? m->nibufs : 1, sizeof *m->ib);
	m->vb_node = nm_tree_alloc_array(m->t, m->nvbufs ? m->nvbufs : 1, sizeof *m->vb_node);
	m->ib_node = nm_tree_alloc_array(m->t, m->nibufs ? m->nibufs : 1, sizeof *m->ib_node);
	if (!m->vb || !m->ib || !m->vb_node || !m->ib_node) {
		nm_fail(&m->gpu_err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
		return;
	}
	if (!g->c.present) {
		nm_fail(&m->gpu_err, NM_E_FORMAT, m->name, NULL, NM_NO_OFFSET,
			"the model has no GPU chunk: there are no vertex or index buffers");
		return;
	}
	if (!m->chunk[RC_VBUF].c.present || !m->chunk[RC_IBUF].c.present ||
	    m->chunk[RC_VBUF].c.failed || m->chunk[RC_IBUF].c.failed) {
		nm_fail(&m->gpu_err, NM_E_FORMAT, m->name, "GPU", g->item.off,
			"VBUF or IBUF is missing or broken: the buffers cannot be told apart");
		return;
	}

	/* 1 and 2: a META blob, from the PAK or appended. */
	bool have = want == RFRM_GPU_PAK_META;
	if (!have && find_appended(m)) {
		have = true;
		want = RFRM_GPU_APPENDED_META;
	}
	if (have) {
		m->source = want;
		nm_error err;
		if (from_meta(m, &err) == NM_OK)
			return;
		m->meta_bad = true;
		m->meta_err = err;
		m->source = RFRM_GPU_NONE;
		reset_meta(m);
	}

	/* 3: the walk. Only the first header is read now. */
	uint8_t h[4];
	nm_error err;
	const nm_gpu_codec *c = NULL;
	if (g->item.size < 4) {
		nm_fail(&m->gpu_err, NM_E_FORMAT, m->name, "GPU", g->item.off,
			"the GPU chunk holds %llu bytes: no buffer header",
			(unsigned long long)g->item.size);
	} else if (nm_reader_read(m->r, g->item.data_off, h, 4, "GPU", &err) != NM_OK) {
		m->gpu_err = err;
	} else if (!(c = nm_gpu_codec_of(h))) {
		nm_fail(&m->gpu_err, NM_E_UNSUPPORTED, m->name, "GPU", g->item.data_off,
			"the first GPU buffer has the codec tag %02x %02x %02x %02x: not one of the known tags 0x00-0x0d%s%s",
			h[0], h[1], h[2], h[3], m->meta_bad ? "; the META found: " : "",
			m->meta_bad ? m->meta_err.msg : "");
	} else {
		m->source = RFRM_GPU_WALK;
		m->codec = c->tag;
		m->switch_codec = c->tag > 3;
		refuse_impossible_sizes(m, g->item.size);
		rfrm_link_meshes(m);
	}
}

/* --- the walk (first access) ---------------------------------------------------- */

static void mark_bad_from(rfrm_model *m, size_t k, const nm_error *e)
{
	for (size_t j = k; j < m->nvbufs + m->nibufs; j++) {
		rfrm_gpubuf *b = j < m->nvbufs ? &m->vb[j] : &m->ib[j - m->nvbufs];
		b->bad = true;
		b->err = *e;
	}
}

/* Where buffer k (vertex buffers first) of the chunk data at p ends, and its size.
 * keep: where its bytes go when the headers give its size (the decode that finds its
 * end makes them anyway), or NULL. */
static nm_status walk_one(rfrm_model *m, size_t k, const uint8_t *p, size_t len, bool last,
			  uint64_t at, rfrm_gpubuf *b, uint8_t *keep, nm_error *e)
{
	bool index = k >= m->nvbufs;
	size_t i = index ? k - m->nvbufs : k;
	const char *kind = index ? "index" : "vertex";
	if (len < 4)
		return nm_fail(e, NM_E_FORMAT, m->name, "GPU", at,
			       "%s buffer %zu (buffer %zu of %zu) is missing: the GPU chunk ends here",
			       kind, i, k + 1, m->nvbufs + m->nibufs);
	const nm_gpu_codec *c = nm_gpu_codec_of(p);
	if (!c)
		return nm_fail(e, NM_E_UNSUPPORTED, m->name, "GPU", at,
			       "%s buffer %zu has the codec tag %02x %02x %02x %02x: not one of the known tags 0x00-0x0d",
			       kind, i, p[0], p[1], p[2], p[3]);
	/* The size the headers give, if they do. */
	const rfrm_vbuf *vb = index ? NULL : &m->vbufs[i];
	const rfrm_ibuf *ib = index ? &m->ibufs[i] : NULL;
	bool known = vb ? !vb->bad : !(c->ends_itself || last);
	uint64_t want = vb ? vb->size : ib->used * ib->isize;
	size_t out = 0, used = 0;
	nm_status s;
	if (known) {
		out = (size_t)want;
		s = nm_gpu_decode(p, len, keep, out, &used);
	} else if (c->ends_itself || last) {
		s = nm_gpu_measure(p, len, (size_t)rfrm_max_buffer(m), &out, &used);
	} else {
		return nm_fail(e, NM_E_FORMAT, m->name, "GPU", at,
			       "%s buffer %zu (%s) does not end by itself and VBUF gives no size for it: the buffers after it cannot be found",
			       kind, i, c->name);
	}
	if (s != NM_OK) {
		if (known)
			return nm_fail(e, s, m->name, "GPU", at,
				       "%s buffer %zu (tag 0x%02x, %s): the stream is broken, or does not decode to the %llu bytes %s gives (%s)",
				       kind, i, c->tag, c->name, (unsigned long long)want,
				       vb ? "VBUF (count x stride)" : "MESH (indices used)",
				       nm_status_str(s));
		return nm_fail(e, s, m->name, "GPU", at,
			       "%s buffer %zu (tag 0x%02x, %s): the stream is broken or larger than %llu bytes (%s)",
			       kind, i, c->tag, c->name, (unsigned long long)rfrm_max_buffer(m),
			       nm_status_str(s));
	}
	if (ib && out < want)
		return nm_fail(e, NM_E_FORMAT, m->name, "GPU", at,
			       "index buffer %zu (tag 0x%02x, %s) holds %zu bytes; the meshes use %llu",
			       i, c->tag, c->name, out, (unsigned long long)want);
	b->off = at;
	b->comp = used;
	b->size = out;
	b->codec = (uint8_t)c->tag;
	return NM_OK;
}

/* A buffer for vertex buffer k's bytes, which the walk's decode makes anyway, to offer
 * as gpu/vertex/k.bin (then a CSV, mesh.obj or model.glb reading it finds them instead
 * of decoding the stream again); NULL where there is no such file or the size is past
 * the limits (the decode then only measures). */
static uint8_t *spare_for(const rfrm_model *m, size_t k)
{
	size_t bytes;
	if (k >= m->nvbufs || m->vbufs[k].bad || !m->vb_node || !m->vb_node[k] ||
	    nm_alloc_check(nm_tree_options(m->t), m->vbufs[k].size + 1, 1, &bytes) != NM_OK)
		return NULL;
	return malloc(bytes);
}

/* Every buffer, one after another; buffers before a broken one stay usable, from it
 * on they carry its error. Vertex buffer keep_vb's bytes go to keep (*kept then true);
 * the others' are offered to the cache. */
static nm_status walk(rfrm_model *m, size_t keep_vb, uint8_t *keep, bool *kept, nm_error *err)
{
	const rfrm_item *g = &m->chunk[RC_GPU].item;
	uint8_t *data;
	nm_status s = nm_reader_load(m->r, g->data_off, (size_t)g->size, "GPU", &data, err);
	if (s != NM_OK)
		return s;
	size_t len = (size_t)g->size, p = 0, n = m->nvbufs + m->nibufs;
	nm_error e;
	for (size_t k = 0; k < n; k++) {
		rfrm_gpubuf *b = k < m->nvbufs ? &m->vb[k] : &m->ib[k - m->nvbufs];
		bool keeping = keep && k == keep_vb && !m->vbufs[k].bad;
		uint8_t *spare = keeping ? NULL : spare_for(m, k);
		if (walk_one(m, k, data + p, len - p, k + 1 == n, g->data_off + p, b,
			     keeping ? keep : spare, &e) != NM_OK) {
			free(spare);
			mark_bad_from(m, k, &e);
			break;
		}
		if (spare)
			nm_tree_offer(m->t, m->vb_node[k], spare, (size_t)b->size);
		free(spare);
		*kept |= keeping;
		p += (size_t)b->comp;
		if (k + 1 == n && p != len) {
			/* The buffers must use up the chunk: else the layout is not what we think. */
			nm_fail(&e, NM_E_FORMAT, m->name, "GPU", g->data_off + p,
				"0x%zx bytes follow the last of the %zu buffers VBUF and IBUF account for: the buffer layout is not known",
				len - p, n);
			mark_bad_from(m, 0, &e);
		}
	}
	free(data);
	return NM_OK;
}

/* The walk, once; when this call runs it, vertex buffer keep_vb's bytes go to keep. */
static nm_status walk_keeping(rfrm_model *m, size_t keep_vb, uint8_t *keep, bool *kept,
			      nm_error *err)
{
	*kept = false;
	pthread_mutex_lock(&m->lock);
	if (!m->walked) {
		nm_error e;
		nm_error_clear(&e);
		m->walk_status = walk(m, keep_vb, keep, kept, &e);
		m->walk_err = e;
		/* Out of memory or a read error may pass: try again next time. */
		m->walked = m->walk_status == NM_OK;
	}
	nm_status s = m->walk_status;
	if (s != NM_OK)
		*err = m->walk_err;
	pthread_mutex_unlock(&m->lock);
	return s;
}

nm_status rfrm_gpu_walk(rfrm_model *m, nm_error *err)
{
	bool kept;
	return walk_keeping(m, 0, NULL, &kept, err);
}

/* --- decompression -------------------------------------------------------------- */

uint64_t rfrm_gpu_file_size(const rfrm_model *m, bool index, size_t i)
{
	if (m->source != RFRM_GPU_WALK)
		return index ? m->ib[i].size : m->vb[i].size;
	/* Known before the walk: the walk checks a vertex buffer gives exactly this, and
	 * an index buffer at least this. */
	return index ? m->ibufs[i].used * m->ibufs[i].isize : m->vbufs[i].size;
}

nm_status rfrm_gpu_ready(rfrm_model *m, nm_error *err)
{
	if (m->source == RFRM_GPU_NONE) {
		*err = m->gpu_err;
		return m->gpu_err.code ? m->gpu_err.code : NM_E_FORMAT;
	}
	return m->source == RFRM_GPU_WALK ? rfrm_gpu_walk(m, err) : NM_OK;
}

nm_status rfrm_gpu_decompress(rfrm_model *m, bool index, size_t i, nm_out *o, nm_error *err)
{
	const char *kind = index ? "index" : "vertex";
	/* A vertex buffer whose read runs the walk: its bytes come from the walk's decode,
	 * which finds where the buffer ends (then the next starts) by making them. */
	uint8_t *kept = NULL;
	bool walked_here = false;
	if (m->source == RFRM_GPU_WALK && !index && !m->vbufs[i].bad) {
		kept = nm_out_reserve(o, (size_t)m->vbufs[i].size + 1);
		if (!kept)
			return nm_fail(err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
	}
	nm_status ready = kept ? walk_keeping(m, i, kept, &walked_here, err)
			       : rfrm_gpu_ready(m, err);
	if (ready != NM_OK)
		return ready;
	const rfrm_gpubuf *b = index ? &m->ib[i] : &m->vb[i];
	if (b->bad) {
		*err = b->err;
		return b->err.code ? b->err.code : NM_E_FORMAT;
	}
	if (walked_here) {
		o->len += (size_t)rfrm_gpu_file_size(m, index, i);
		return NM_OK;
	}
	uint8_t *src;
	nm_status s = nm_reader_load(m->r, b->off, (size_t)b->comp, "GPU", &src, err);
	if (s != NM_OK)
		return s;
	uint8_t *dst = nm_out_reserve(o, (size_t)b->size + 1);
	if (!dst) {
		free(src);
		return nm_fail(err, NM_E_NOMEM, m->name, "GPU", b->off, "out of memory");
	}
	size_t used;
	s = nm_gpu_decode(src, (size_t)b->comp, dst, (size_t)b->size, &used);
	if (s != NM_OK)
		nm_fail(err, s == NM_E_LIMIT ? NM_E_FORMAT : s, m->name, "GPU", b->off,
			"%s buffer %zu (tag 0x%02x, %s): the stream is broken or does not decode to its %llu bytes",
			kind, i, src[0], codec_name(src[0]), (unsigned long long)b->size);
	free(src);
	if (s == NM_OK)
		o->len += (size_t)rfrm_gpu_file_size(m, index, i);
	return s == NM_E_LIMIT ? NM_E_FORMAT : s;
}

/* The prefix decode of want bytes from the buffer at [at, at + avail) of the file. */
static nm_status decode_head(rfrm_model *m, bool index, size_t i, uint64_t at, uint64_t avail,
			     size_t want, uint8_t *dst, nm_error *err)
{
	/* Most streams hold their first bytes in about as many (LZSS's flags add one byte
	 * in eight): read that much first, and the rest only if the decode runs out. */
	uint64_t first = (uint64_t)want * 2 + 65536;
	uint64_t len = first < avail ? first : avail;
	for (;;) {
		uint8_t *src;
		nm_status s = nm_reader_load(m->r, at, (size_t)len, "GPU", &src, err);
		if (s != NM_OK)
			return s;
		s = nm_gpu_decode_prefix(src, (size_t)len, dst, want);
		uint8_t tag = len ? src[0] : 0;
		free(src);
		if (s == NM_E_FORMAT && len < avail) {
			len = avail;
			continue;
		}
		if (s != NM_OK)
			return nm_fail(err, s == NM_E_LIMIT ? NM_E_FORMAT : s, m->name, "GPU", at,
				       "%s buffer %zu (tag 0x%02x, %s): the stream is broken in its first %zu bytes",
				       index ? "index" : "vertex", i, tag, codec_name(tag), want);
		return NM_OK;
	}
}

nm_status rfrm_gpu_load_head(rfrm_model *m, bool index, size_t i, size_t want,
			     uint8_t **data, nm_error *err)
{
	const rfrm_item *g = &m->chunk[RC_GPU].item;
	uint64_t at, avail;
	if ((index ? m->ibufs[i].bad : m->vbufs[i].bad) || want > rfrm_gpu_file_size(m, index, i))
		return NM_E_UNSUPPORTED;
	nm_node *made = index ? m->ib_node[i] : m->vb_node[i];
	if (made && nm_node_produced(m->t, made)) {
		/* Its file is in the cache (the walk offers the vertex buffers): no decode. */
		uint8_t *dst = nm_alloc(nm_tree_options(m->t), want ? want : 1, 1, err, m->name,
					"GPU", NM_NO_OFFSET);
		size_t got = 0;
		nm_status s = dst ? nm_read(m->t, made, 0, dst, want, &got, err) : err->code;
		if (s == NM_OK && got != want)
			s = nm_fail(err, NM_E_IO, m->name, "GPU", NM_NO_OFFSET,
				    "%s buffer %zu gave %zu of %zu bytes", index ? "index" : "vertex",
				    i, got, want);
		if (s != NM_OK) {
			free(dst);
			return s;
		}
		*data = dst;
		return NM_OK;
	}
	if (m->source == RFRM_GPU_WALK && !index && i == 0) {
		/* The first buffer starts the chunk: its head needs no walk (which decodes
		 * every buffer to find where the next starts). */
		at = g->data_off;
		avail = g->size;
	} else {
		nm_status s = rfrm_gpu_ready(m, err);
		if (s != NM_OK)
			return s;
		const rfrm_gpubuf *b = index ? &m->ib[i] : &m->vb[i];
		if (b->bad) {
			*err = b->err;
			return b->err.code ? b->err.code : NM_E_FORMAT;
		}
		at = b->off;
		avail = b->comp;
	}
	uint8_t *dst = nm_alloc(nm_tree_options(m->t), want ? want : 1, 1, err, m->name, "GPU", at);
	if (!dst)
		return err->code;
	nm_status s = decode_head(m, index, i, at, avail, want, dst, err);
	if (s != NM_OK) {
		free(dst);
		return s;
	}
	*data = dst;
	return NM_OK;
}

nm_status rfrm_gpu_load(rfrm_model *m, bool index, size_t i, uint8_t **data, size_t *len,
			nm_error *err)
{
	nm_node *n = index ? m->ib_node[i] : m->vb_node[i];
	if (!n) {
		nm_out o;
		nm_out_init(&o);
		nm_status s = rfrm_gpu_decompress(m, index, i, &o, err);
		if (s != NM_OK) {
			nm_out_free(&o);
			return s;
		}
		*data = nm_out_take(&o, len);
		if (!*data)
			*data = malloc(1);
		return *data ? NM_OK : nm_fail(err, NM_E_NOMEM, m->name, NULL, NM_NO_OFFSET,
						"out of memory");
	}
	uint64_t size;
	nm_status s = nm_size(m->t, n, &size, err);
	if (s != NM_OK)
		return s;
	uint8_t *buf = nm_alloc(nm_tree_options(m->t), size + 1, 1, err, m->name, "GPU",
				NM_NO_OFFSET);
	if (!buf)
		return err->code;
	size_t got = 0;
	s = nm_read(m->t, n, 0, buf, (size_t)size, &got, err);
	if (s == NM_OK && got != size)
		s = nm_fail(err, NM_E_IO, m->name, "GPU", NM_NO_OFFSET,
			    "%s buffer %zu: read %zu of %llu bytes", index ? "index" : "vertex", i,
			    got, (unsigned long long)size);
	if (s != NM_OK) {
		free(buf);
		return s;
	}
	*data = buf;
	*len = got;
	return NM_OK;
}

nm_status rfrm_load_indices(rfrm_model *m, size_t j, uint64_t first, uint64_t count,
			    uint32_t **out, nm_error *err)
{
	const rfrm_ibuf *ib = &m->ibufs[j];
	if (ib->bad) {
		*err = ib->err;
		return ib->err.code ? ib->err.code : NM_E_FORMAT;
	}
	uint8_t *data;
	size_t len;
	nm_status s = rfrm_gpu_load(m, true, j, &data, &len, err);
	if (s != NM_OK)
		return s;
	uint64_t have = len / ib->isize;
	if (first > have || count > have - first) {
		free(data);
		return nm_fail(err, NM_E_FORMAT, m->name, "GPU", NM_NO_OFFSET,
			       "index buffer %zu holds %llu indices; indices %llu..%llu are wanted",
			       j, (unsigned long long)have, (unsigned long long)first,
			       (unsigned long long)(first + count));
	}
	uint32_t *idx = nm_alloc(nm_tree_options(m->t), count + 1, 4, err, m->name, "IBUF",
				 NM_NO_OFFSET);
	if (!idx) {
		free(data);
		return err->code;
	}
	const uint8_t *p = data + first * ib->isize;
	for (uint64_t k = 0; k < count; k++, p += ib->isize)
		idx[k] = ib->isize == 2 ? (m->little ? nm_le16(p) : nm_be16(p))
					: (m->little ? nm_le32(p) : nm_be32(p));
	free(data);
	*out = idx;
	return NM_OK;
}
