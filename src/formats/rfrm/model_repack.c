/* A model whose GPU buffers were found by the walk, written again when an edited vertex
 * buffer compresses to another length (doc/apply.md): the buffers follow one another
 * and nothing points into the GPU chunk, so the model is its bytes with the new streams
 * in place and two sizes changed by the difference: the GPU chunk's descriptor and the
 * form's (big-endian u64 at +4 of each). A model placed by META (offsets into the chunk)
 * or a change outside the GPU chunk is refused. */
#include <string.h>
#include "formats/rfrm/rfrm.h"
#include "lib/bytes.h"

/* The u64 size at off of out (a descriptor's) moved by delta. */
static nm_status move_size(nm_out *out, uint64_t off, int64_t delta, const char *what,
			   const rfrm_model *m, nm_error *err)
{
	if (off + 12 > out->len)
		return nm_fail(err, NM_E_FORMAT, m->name, what, off, "descriptor past the end");
	uint8_t *p = out->data + off + 4;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	v += (uint64_t)delta;
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
	return NM_OK;
}

static nm_status repack(void *ctx, nm_reader *r, const nm_member_change *c, size_t n,
			nm_out *out, nm_error *err)
{
	rfrm_model *m = ctx;
	const rfrm_item *g = &m->chunk[RC_GPU].item;
	uint64_t size = nm_reader_size(r), at = 0;
	int64_t delta = 0;
	for (size_t i = 0; i < n; i++)
		if (c[i].off < g->data_off || c[i].off + c[i].old_len > g->data_off + g->size)
			return nm_fail(err, NM_E_UNSUPPORTED, m->name, "GPU", c[i].off,
				       "a change of length at 0x%llx, outside the GPU chunk's data: "
				       "apply changes the length of GPU buffers only",
				       (unsigned long long)c[i].off);
	if (m->source != RFRM_GPU_WALK)
		return nm_fail(err, NM_E_UNSUPPORTED, m->name, "GPU", g->off, "a GPU buffer of "
			       "another length: its META offsets would need rewriting, which apply "
			       "does not do yet");
	for (size_t i = 0; i <= n; i++) {
		uint64_t to = i < n ? c[i].off : size;
		uint8_t *d = nm_out_reserve(out, (size_t)(to - at));
		if (!d)
			return nm_fail(err, NM_E_NOMEM, m->name, NULL, NM_NO_OFFSET, "out of memory");
		nm_status s = nm_reader_read(r, at, d, (size_t)(to - at), NULL, err);
		if (s != NM_OK)
			return s;
		out->len += (size_t)(to - at);
		if (i == n)
			break;
		nm_out_write(out, c[i].bytes, c[i].len);
		delta += (int64_t)c[i].len - (int64_t)c[i].old_len;
		at = c[i].off + c[i].old_len;
	}
	nm_status s = nm_out_status(out);
	if (s == NM_OK)
		s = move_size(out, g->off, delta, "GPU", m, err);
	if (s == NM_OK)
		s = move_size(out, m->form.off, delta, "RFRM", m, err);
	return s;
}

void rfrm_model_editable(rfrm_model *m)
{
	if (m->source == RFRM_GPU_WALK && m->chunk[RC_GPU].c.present && m->form.off == 0)
		nm_reader_set_repack(m->r, repack, m);
}
