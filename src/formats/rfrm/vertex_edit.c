/* The inverse of a vbuf/N/NAME.csv (nmodel apply, doc/apply.md): the same rows, each
 * changed value stored in the component's format exactly as vertex_formats.c reads it
 * back (f32 bits, a half float, an unorm/snorm integer, a 10:10:10:2 field, an integer
 * in range), or refused with the nearest value the format holds. The patch goes to the
 * decompressed vertex buffer's reader, whose origin is the buffer's stream in the GPU
 * chunk: src/edit compresses it again in its own codec (rfrm_vertex_reencode). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "export/csv.h"
#include "export/csv_edit.h"
#include "export/text.h"
#include "formats/rfrm/rfrm.h"

/* --- the decompressed vertex buffer as a reader ----------------------------------- */

struct vertex_reader {
	rfrm_model *m;
	size_t i;
};

static nm_status buffer_read(void *ctx, uint64_t off, void *buf, size_t len, const char *chunk,
			     nm_error *err)
{
	const struct vertex_reader *x = ctx;
	size_t got = 0;
	nm_status s = nm_read(x->m->t, x->m->vb_node[x->i], off, buf, len, &got, err);
	if (s == NM_OK && got != len)
		s = nm_fail(err, NM_E_IO, x->m->name, chunk ? chunk : "GPU", off,
			    "vertex buffer %zu gave %zu of %zu bytes", x->i, got, len);
	return s;
}

/* The buffer's new bytes compressed again with its own tag (its 4 header bytes kept).
 * Placed by META, a shorter stream is followed by zeros (src/edit pads it; decoders stop
 * at the size META gives); a longer one would move the buffers after it: refused. Found
 * by the walk, the buffers follow one another: a stream of another length lays the
 * model out again (model_repack.c). */
static nm_status reencode(void *ctx, const uint8_t *plain, size_t len, nm_out *out,
			  nm_error *err)
{
	const struct vertex_reader *x = ctx;
	const rfrm_model *m = x->m;
	const rfrm_gpubuf *b = &m->vb[x->i];
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(b->codec);
	uint8_t head[NM_GPU_TAG_LEN], *enc = NULL;
	size_t elen = 0;
	const char *label = c ? c->label : "unknown codec";
	nm_status s = nm_reader_read(m->r, b->off, head, sizeof head, "GPU", err);
	if (s != NM_OK)
		return s;
	s = nm_gpu_encode(b->codec, plain, len, &enc, &elen);
	if (s != NM_OK)
		return nm_fail(err, s, m->name, "GPU", b->off, "vertex buffer %zu (tag 0x%02x, %s) "
			       "cannot be compressed again: %s", x->i, b->codec, label,
			       nm_status_str(s));
	memcpy(enc, head, sizeof head);
	if (elen > b->comp && m->source != RFRM_GPU_WALK) {
		s = nm_fail(err, NM_E_UNSUPPORTED, m->name, "GPU", b->off, "vertex buffer %zu "
			    "compressed again (%s) takes %zu bytes where it had %llu: a longer "
			    "buffer needs the META offsets and the GPU chunk's size rewritten, "
			    "which apply does not do yet", x->i, label, elen,
			    (unsigned long long)b->comp);
	} else {
		nm_out_write(out, enc, elen);
		s = nm_out_status(out);
	}
	free(enc);
	return s;
}

static void close_reader(void *r) { nm_reader_close(r); }

/* Vertex buffer i's reader, made on first use (after the walk placed the buffer). */
static nm_status vertex_reader(rfrm_model *m, size_t i, nm_reader **out, nm_error *err)
{
	static const nm_source_ops ops = { .read = buffer_read };
	nm_status s = m->source == RFRM_GPU_WALK ? rfrm_gpu_walk(m, err) : NM_OK;
	if (s != NM_OK)
		return s;
	if (m->vb[i].bad || !m->vb_node[i]) {
		*err = m->vb[i].err;
		return m->vb[i].err.code ? m->vb[i].err.code : NM_E_FORMAT;
	}
	pthread_mutex_lock(&m->lock);
	if (!m->vb_reader[i]) {
		struct vertex_reader *x = nm_tree_alloc(m->t, sizeof *x);
		nm_reader *r = NULL;
		char name[48];
		snprintf(name, sizeof name, "gpu/vertex/%zu.bin", i);
		s = x ? nm_reader_new_source(name, rfrm_gpu_file_size(m, false, i), &ops, x, &r,
					     err)
		      : nm_fail(err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
		if (s == NM_OK && nm_tree_on_free(m->t, close_reader, r) != NM_OK) {
			nm_reader_close(r);
			s = nm_fail(err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
		}
		if (s == NM_OK) {
			*x = (struct vertex_reader){ m, i };
			nm_reader_set_options(r, nm_reader_options(m->r));
			nm_reader_set_origin(r, &(nm_reader_origin){ .parent = m->r,
				.off = m->vb[i].off, .len = m->vb[i].comp, .encode = reencode,
				.ctx = x, .unpadded = m->source == RFRM_GPU_WALK });
			m->vb_reader[i] = r;
		}
	}
	*out = m->vb_reader[i];
	pthread_mutex_unlock(&m->lock);
	return s;
}

/* --- values into the component's format ------------------------------------------- */

static unsigned comp_bits(const rfrm_format_info *f, unsigned c)
{
	if (f->kind == RFRM_K_UNORM_1010102 || f->kind == RFRM_K_UINT_1010102)
		return c < 3 ? 10 : 2;
	return f->bytes / f->comps * 8;
}

static void put(uint8_t *p, unsigned n, uint32_t v, bool little)
{
	for (unsigned k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> 8 * (little ? k : n - 1 - k));
}

static uint32_t get(const uint8_t *p, unsigned n, bool little)
{
	uint32_t v = 0;
	for (unsigned k = 0; k < n; k++)
		v |= (uint32_t)p[k] << 8 * (little ? k : n - 1 - k);
	return v;
}

/* Component c of the element at e set to the raw bits q (the inverse of its reading). */
static void store_raw(const rfrm_format_info *f, uint8_t *e, unsigned c, uint32_t q,
		      bool little)
{
	if (f->kind == RFRM_K_UNORM_1010102 || f->kind == RFRM_K_UINT_1010102) {
		unsigned shift = 10 * c, bits = comp_bits(f, c);
		uint32_t mask = ((1u << bits) - 1) << shift, w = get(e, 4, little);
		put(e, 4, (w & ~mask) | (q << shift & mask), little);
		return;
	}
	unsigned n = f->bytes / f->comps;
	put(e + (size_t)c * n, n, q, little);
}

/* The raw bits of component c that read back as exactly v (true), or false with the
 * nearest value it can read back as. Integer formats take v as an integer. */
static bool quantize(const rfrm_format_info *f, unsigned c, double v, uint8_t *e, bool little,
		     double *near)
{
	unsigned bits = comp_bits(f, c);
	bool is_signed = f->kind == RFRM_K_SNORM || f->kind == RFRM_K_SINT;
	int64_t lo = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
	int64_t hi = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : (int64_t)((1ull << bits) - 1);
	*near = v;
	if (f->kind == RFRM_K_FLOAT) {
		float x = (float)v;
		uint32_t u;
		memcpy(&u, &x, 4);
		store_raw(f, e, c, u, little);
		return true;
	}
	if (f->kind == RFRM_K_HALF) {
		/* 65,536 candidates: the exact one, else the nearest finite. */
		double best = INFINITY;
		for (uint32_t h = 0; h < 0x10000; h++) {
			double d = rfrm_half((uint16_t)h);
			if (d == v && (v != 0 || signbit(d) == signbit(v))) {
				store_raw(f, e, c, h, little);
				return true;
			}
			if (isfinite(d) && fabs(d - v) < best) {
				best = fabs(d - v);
				*near = d;
			}
		}
		return false;
	}
	/* An integer per step: the value times the scale the reader divides by. */
	double scale = 1;
	if (f->kind == RFRM_K_UNORM || f->kind == RFRM_K_UNORM_1010102)
		scale = (double)hi;
	else if (f->kind == RFRM_K_SNORM)
		scale = (double)hi;
	double q = v * scale;
	if (!isfinite(q)) {
		*near = NAN;
		return false;
	}
	int64_t q0 = q < (double)lo ? lo : q > (double)hi ? hi : llround(q);
	double best = INFINITY;
	for (int64_t k = q0 - 1; k <= q0 + 1; k++) {
		if (k < lo || k > hi)
			continue;
		uint8_t t[16];
		memcpy(t, e, f->bytes);
		store_raw(f, t, c, (uint32_t)k, little);
		double d = rfrm_format_is_int(f) ? (double)rfrm_component_int(f, t, c, little)
						 : (double)rfrm_component_float(f, t, c, little);
		if (d == v) {
			memcpy(e, t, f->bytes);
			return true;
		}
		if (fabs(d - v) < best) {
			best = fabs(d - v);
			*near = d;
		}
	}
	return false;
}

/* --- the CSV read back -------------------------------------------------------------- */

struct vertex_edit {
	rfrm_model *m;
	const rfrm_comp *c;
	const rfrm_format_info *f;
	const char *name;
	uint8_t *data, *was;
	nm_reader *r;
};

static void edit_cell(void *ctx, uint64_t row, unsigned col, const char *text, unsigned line,
		      nm_edit *ed)
{
	struct vertex_edit *x = ctx;
	const rfrm_format_info *f = x->f;
	char field[NM_CSV_NAME_MAX];
	rfrm_semantic_column(x->c->semantic, col, field, sizeof field);
	char *end;
	errno = 0;
	double v = rfrm_format_is_int(f) ? (double)strtoll(text, &end, 10) : strtod(text, &end);
	if (!text[0] || *end || errno == ERANGE) {
		nm_edit_refuse(ed, line, field, "%s is not %s", text,
			       rfrm_format_is_int(f) ? "an integer" : "a number");
		return;
	}
	/* The CSV spells floats to 9 digits: a value is its float's. */
	if (!rfrm_format_is_int(f))
		v = (float)v;
	uint8_t *e = x->data + (size_t)row * x->c->stride + x->c->offset;
	double near;
	if (!quantize(f, col, v, e, x->m->little, &near)) {
		char nb[NM_FLOAT_BUF];
		nm_edit_refuse(ed, line, field, "%s is not a value this component holds (%s): the "
			       "nearest is %s", text, f->name,
			       rfrm_format_is_int(f) ? (snprintf(nb, sizeof nb, "%.0f", near), nb)
						     : nm_fmt_float(nb, (float)near));
	}
}

static void row_done(void *ctx, uint64_t row, unsigned line, nm_edit *ed)
{
	struct vertex_edit *x = ctx;
	size_t at = (size_t)row * x->c->stride + x->c->offset;
	if (memcmp(x->data + at, x->was + at, x->f->bytes) != 0)
		nm_edit_patch(ed, x->r, at, x->data + at, x->f->bytes, "GPU", line, x->name);
}

nm_status rfrm_vertex_invert(rfrm_model *m, size_t vb, const rfrm_comp *c,
			     const rfrm_format_info *f, const char *name, const uint8_t *now,
			     size_t now_len, const uint8_t *bytes, size_t len, nm_edit *ed,
			     nm_error *err)
{
	struct vertex_edit x = { .m = m, .c = c, .f = f, .name = name };
	size_t have = 0;
	nm_status s = vertex_reader(m, vb, &x.r, err);
	if (s == NM_OK)
		s = rfrm_gpu_load(m, false, vb, &x.data, &have, err);
	if (s == NM_OK && !(x.was = malloc(have ? have : 1)))
		s = nm_fail(err, NM_E_NOMEM, m->name, "GPU", NM_NO_OFFSET, "out of memory");
	if (s == NM_OK) {
		memcpy(x.was, x.data, have);
		nm_csv_edit e = { .cell = edit_cell, .row_done = row_done, .ctx = &x,
				  .rows = m->vbufs[vb].count, .ncols = f->comps,
				  .what = "the vertex buffer has" };
		nm_csv_read_back(&e, (const char *)now, now_len, (const char *)bytes, len, ed);
	}
	free(x.data);
	free(x.was);
	return s;
}
