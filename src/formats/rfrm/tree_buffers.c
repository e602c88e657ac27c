/* vbuf/N/ (layout.txt and one CSV per component), ibuf/N/ (header.txt, indices.csv)
 * and gpu/ (vertex/N.bin, index/N.bin, layout.txt or error.txt).
 *
 * Sizes come from headers: a component CSV has VBUF's vertex count rows of fixed-width
 * numbers; indices.csv has the indices the meshes use (max first + count over the
 * meshes of that buffer); vertex/N.bin is the META's decompressed size, or vertex count
 * x stride for buffers the walk finds. No header gives the size of a whole index
 * buffer the walk finds (the meshes may leave indices at its end unused, and zlib
 * keeps no size), so its index/N.bin holds the indices the meshes use, and
 * gpu/buffers.csv, fixed-width, tells every buffer's real size once the walk ran. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/gpu_buffer.h"
#include "export/csv.h"
#include "export/text.h"
#include "lib/bytes.h"
#include "lib/edit.h"
#include "formats/rfrm/rfrm.h"

/* --- vertex components ---------------------------------------------------------- */

struct attr_ref {
	rfrm_model *m;
	size_t vb;
	const rfrm_comp *c;
	const rfrm_format_info *f;
};

/* The component's CSV: a column per component ("x", "u", "index0"...), integers as wide
 * as the format's largest value, else floats. */
static void attr_columns(const rfrm_comp *c, const rfrm_format_info *f, nm_csv *csv)
{
	bool is_int = rfrm_format_is_int(f);
	csv->ncols = 0;
	for (unsigned k = 0; k < f->comps; k++) {
		char name[NM_CSV_NAME_MAX];
		rfrm_semantic_column(c->semantic, k, name, sizeof name);
		nm_csv_col_add(csv, name, is_int ? NM_CSV_INT : NM_CSV_FLOAT,
			       is_int ? rfrm_format_int_width(f) : 0);
	}
}

static uint64_t attr_csv_size(const rfrm_vbuf *vb, const rfrm_comp *c, const rfrm_format_info *f)
{
	nm_csv csv;
	attr_columns(c, f, &csv);
	return nm_csv_size(&csv, vb->count);
}

/* Bytes of the buffer the component reads for count vertices. */
static uint64_t attr_extent(const rfrm_vbuf *vb, const rfrm_comp *c, const rfrm_format_info *f)
{
	return vb->count ? (uint64_t)(vb->count - 1) * c->stride + c->offset + f->bytes : 0;
}

/* A row of an attribute's CSV: ctx is a struct attr_rows. */
struct attr_rows {
	const struct attr_ref *ref;
	const nm_csv *csv;
	const uint8_t *data;
	bool is_int;
};

static void attr_row(nm_out *o, void *ctx, uint64_t v)
{
	const struct attr_rows *r = ctx;
	const rfrm_comp *c = r->ref->c;
	const rfrm_format_info *f = r->ref->f;
	bool little = r->ref->m->little;
	const uint8_t *p = r->data + (size_t)v * c->stride + c->offset;
	for (unsigned k = 0; k < f->comps; k++) {
		if (r->is_int)
			nm_csv_cell_int(o, r->csv, k, rfrm_component_int(f, p, k, little));
		else
			nm_csv_cell_float(o, r->csv, k, rfrm_component_float(f, p, k, little));
	}
}

/* Bytes [off, off+len) of an attribute's CSV (the whole file from produce_attr). */
static nm_status attr_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			    nm_error *err)
{
	const struct attr_ref *ref = arg;
	rfrm_model *m = ref->m;
	const rfrm_vbuf *vb = &m->vbufs[ref->vb];
	const rfrm_comp *c = ref->c;
	const rfrm_format_info *f = ref->f;
	(void)ctx;
	nm_csv csv;
	attr_columns(c, f, &csv);
	/* A range short of the last row needs only the bytes of the rows it reaches
	 * (rfrm_gpu_load_head: from gpu/vertex/N.bin when it is made, which the other
	 * components' CSVs share, else the stream's prefix alone). The whole file takes the
	 * whole buffer. */
	uint64_t head = nm_csv_size(&csv, 0), row = nm_csv_row_size(&csv);
	uint64_t reach = off + len > head ? (off + len - head + row - 1) / row : 0;
	uint8_t *data = NULL;
	size_t have = 0;
	nm_status s = NM_E_UNSUPPORTED;
	if (reach < vb->count) {
		have = reach ? (size_t)((reach - 1) * c->stride + c->offset + f->bytes) : 0;
		s = have ? rfrm_gpu_load_head(m, false, ref->vb, have, &data, err) : NM_OK;
	}
	if (s == NM_E_UNSUPPORTED) {
		s = rfrm_gpu_load(m, false, ref->vb, &data, &have, err);
		uint64_t need = attr_extent(vb, c, f);
		if (s == NM_OK && need > have) {
			free(data);
			return nm_fail(err, NM_E_FORMAT, m->name, "VBUF", NM_NO_OFFSET,
				       "vertex buffer %zu holds %zu bytes; its %u vertices of stride %u need %llu",
				       ref->vb, have, vb->count, c->stride, (unsigned long long)need);
		}
	}
	if (s != NM_OK)
		return s;
	struct attr_rows rows = { ref, &csv, data, rfrm_format_is_int(f) };
	s = nm_csv_write_range(o, &csv, vb->count, off, len, attr_row, &rows, m->name, err);
	free(data);
	return s;
}

static nm_status produce_attr(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct attr_ref *ref = arg;
	uint64_t size = attr_csv_size(&ref->m->vbufs[ref->vb], ref->c, ref->f);
	if (size > SIZE_MAX)
		return nm_fail(err, NM_E_LIMIT, ref->m->name, "VBUF", NM_NO_OFFSET, "too large");
	return attr_range(ctx, arg, 0, (size_t)size, o, err);
}

/* An edited attribute CSV (doc/apply.md): its rows read back against the CSV as it is
 * now, the changed values stored in the component's format (vertex_edit.c). */
static nm_status invert_attr(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			     nm_edit *ed, nm_error *err)
{
	const struct attr_ref *ref = arg;
	char stem[32], name[40];
	nm_out now;
	nm_out_init(&now);
	now.opt = nm_tree_options(ref->m->t);
	nm_status s = produce_attr(ctx, arg, &now, err);
	rfrm_semantic_stem(ref->c->semantic, stem, sizeof stem);
	snprintf(name, sizeof name, "%s.csv", stem);
	if (s == NM_OK)
		s = rfrm_vertex_invert(ref->m, ref->vb, ref->c, ref->f, name, now.data, now.len,
				       bytes, len, ed, err);
	nm_out_free(&now);
	return s;
}

static void layout_text(nm_out *o, const rfrm_model *m, const rfrm_vbuf *vb)
{
	nm_kv(o, "vertex_count", "%u", vb->count);
	nm_kv(o, "stride", "%u", vb->stride);
	nm_kv(o, "size", "%llu", (unsigned long long)vb->size);
	nm_kv(o, "byte_order", "%s", m->little ? "little-endian (Switch)" : "big-endian (Wii U)");
	nm_kv(o, "components", "%u", vb->ncomps);
}

static const char *const csv_exts[] = { ".csv", NULL };

/* dir/N: the directory of buffer N. */
static nm_node *numbered_dir(nm_tree *t, nm_node *dir, size_t i)
{
	char name[32];
	snprintf(name, sizeof name, "%zu", i);
	return nm_dir(t, dir, name);
}

nm_status rfrm_add_vbufs(rfrm_model *m, nm_node *dir)
{
	nm_tree *t = m->t;
	bool decodable = m->source != RFRM_GPU_NONE;
	if (decodable && nm_tree_options(t)->editable &&
	    (!(m->vb_reader = nm_tree_alloc_array(t, m->nvbufs ? m->nvbufs : 1,
						  sizeof *m->vb_reader)) ||
	     nm_tree_invert_producer(t, produce_attr, invert_attr) != NM_OK))
		return NM_E_NOMEM;
	if (m->vb_reader)
		rfrm_model_editable(m);
	for (size_t i = 0; i < m->nvbufs; i++) {
		rfrm_vbuf *vb = &m->vbufs[i];
		char name[32];
		nm_node *d = numbered_dir(t, dir, i);
		if (!d)
			return NM_E_NOMEM;
		if (vb->bad)
			nm_error_file(t, d, &vb->err);
		nm_out o;
		nm_out_init(&o);
		layout_text(&o, m, vb);
		for (uint32_t k = 0; k < vb->ncomps; k++) {
			const rfrm_comp *c = &vb->comps[k];
			const rfrm_format_info *f = rfrm_format(c->format);
			char key[48], stem[32];
			snprintf(key, sizeof key, "component_%u_semantic", k);
			nm_kv_enum(&o, key, rfrm_semantic_name(c->semantic), c->semantic);
			snprintf(key, sizeof key, "component_%u_format", k);
			nm_kv_enum(&o, key, f ? f->name : NULL, c->format);
			snprintf(key, sizeof key, "component_%u_offset", k);
			nm_kv(&o, key, "%u", c->offset);
			snprintf(key, sizeof key, "component_%u_stride", k);
			nm_kv(&o, key, "%u", c->stride);
			snprintf(key, sizeof key, "component_%u_buffer", k);
			nm_kv(&o, key, "%u", c->buffer);
			snprintf(key, sizeof key, "component_%u_file", k);
			if (!f) {
				nm_kv(&o, key, "none (unknown format)");
				continue;
			}
			if ((uint64_t)c->offset + f->bytes > c->stride) {
				nm_kv(&o, key, "none (%u bytes at offset %u do not fit the stride)",
				      f->bytes, c->offset);
				continue;
			}
			if (vb->bad || !decodable) {
				nm_kv(&o, key, "none (%s)", vb->bad ? "see error.txt" : "no GPU buffer layout: see gpu/error.txt");
				continue;
			}
			rfrm_semantic_stem(c->semantic, stem, sizeof stem);
			char *u = nm_unique_stem(t, d, stem, csv_exts);
			struct attr_ref *ref = nm_tree_alloc(t, sizeof *ref);
			if (!u || !ref) {
				free(u);
				nm_out_free(&o);
				return NM_E_NOMEM;
			}
			*ref = (struct attr_ref){ m, i, c, f };
			snprintf(name, sizeof name, "%s.csv", u);
			free(u);
			nm_kv(&o, key, "%s", name);
			/* By ranges, not in pieces: each would decompress the whole buffer. */
			if (nm_tree_range_producer(t, produce_attr, attr_range) != NM_OK) {
				nm_out_free(&o);
				return NM_E_NOMEM;
			}
			nm_lazy(t, d, name, attr_csv_size(vb, c, f), produce_attr, NULL, ref);
		}
		nm_node *lt = nm_text(t, d, "layout.txt", &o);
		nm_out_free(&o);
		if (!lt)
			return NM_E_NOMEM;
	}
	return NM_OK;
}

/* --- index buffers -------------------------------------------------------------- */

struct index_ref {
	rfrm_model *m;
	size_t ib;
};

/* indices.csv: one column, as wide as the largest u16 or u32. */
static void index_columns(const rfrm_ibuf *ib, nm_csv *csv)
{
	csv->ncols = 0;
	nm_csv_col_add(csv, "index", NM_CSV_UINT, ib->isize == 2 ? 5 : 10);
}

static nm_status produce_indices(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct index_ref *ref = arg;
	const rfrm_ibuf *ib = &ref->m->ibufs[ref->ib];
	uint32_t *idx;
	(void)ctx;
	nm_status s = rfrm_load_indices(ref->m, ref->ib, 0, ib->used, &idx, err);
	if (s != NM_OK)
		return s;
	nm_csv csv;
	index_columns(ib, &csv);
	nm_csv_begin(o, &csv);
	for (uint64_t k = 0; k < ib->used; k++)
		nm_csv_cell_uint(o, &csv, 0, idx[k]);
	free(idx);
	return NM_OK;
}

/* A row of indices.csv: ctx is a struct index_rows. */
struct index_rows {
	const nm_csv *csv;
	const uint8_t *data;
	const rfrm_ibuf *ib;
	bool little;
};

static void index_row(nm_out *o, void *ctx, uint64_t k)
{
	const struct index_rows *r = ctx;
	const uint8_t *p = r->data + k * r->ib->isize;
	uint32_t v = r->ib->isize == 2 ? (r->little ? nm_le16(p) : nm_be16(p))
				       : (r->little ? nm_le32(p) : nm_be32(p));
	nm_csv_cell_uint(o, r->csv, 0, v);
}

/* Bytes [off, off+len) of indices.csv: the index buffer decoded only through the last
 * row the range reaches (placing a buffer the walk finds still needs the walk). */
static nm_status indices_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	const struct index_ref *ref = arg;
	const rfrm_ibuf *ib = &ref->m->ibufs[ref->ib];
	(void)ctx;
	nm_csv csv;
	index_columns(ib, &csv);
	uint64_t head = nm_csv_size(&csv, 0), row = nm_csv_row_size(&csv);
	uint64_t rows = off + len > head ? (off + len - head + row - 1) / row : 0;
	if (rows > ib->used)
		rows = ib->used;
	uint8_t *data = NULL;
	nm_status s = rows ? rfrm_gpu_load_head(ref->m, true, ref->ib, (size_t)(rows * ib->isize),
						&data, err)
			   : NM_OK;
	if (s == NM_OK) {
		struct index_rows r = { &csv, data, ib, ref->m->little };
		s = nm_csv_write_range(o, &csv, ib->used, off, len, index_row, &r, ref->m->name,
				       err);
	}
	free(data);
	return s;
}

nm_status rfrm_add_ibufs(rfrm_model *m, nm_node *dir)
{
	nm_tree *t = m->t;
	for (size_t j = 0; j < m->nibufs; j++) {
		rfrm_ibuf *ib = &m->ibufs[j];
		nm_node *d = numbered_dir(t, dir, j);
		if (!d)
			return NM_E_NOMEM;
		nm_out o;
		nm_out_init(&o);
		nm_kv_enum(&o, "index_type", ib->isize == 2 ? "U16" : ib->isize == 4 ? "U32" : NULL,
			   ib->type);
		nm_kv(&o, "index_size", "%u", ib->isize);
		nm_kv(&o, "indices_used", "%llu", (unsigned long long)ib->used);
		nm_out_str(&o, "meshes:");
		for (size_t i = 0; i < m->nmeshes; i++)
			if (m->meshes[i].ibuf == j)
				nm_out_printf(&o, " %zu", i);
		nm_out_char(&o, '\n');
		nm_node *h = nm_text(t, d, "header.txt", &o);
		nm_out_free(&o);
		if (!h)
			return NM_E_NOMEM;
		if (ib->bad) {
			nm_error_file(t, d, &ib->err);
			continue;
		}
		if (m->source == RFRM_GPU_NONE)
			continue;
		struct index_ref *ref = nm_tree_alloc(t, sizeof *ref);
		if (!ref)
			return NM_E_NOMEM;
		*ref = (struct index_ref){ m, j };
		nm_csv csv;
		index_columns(ib, &csv);
		if (nm_tree_range_producer(t, produce_indices, indices_range) != NM_OK ||
		    !nm_lazy(t, d, "indices.csv", nm_csv_size(&csv, ib->used), produce_indices, NULL,
			     ref))
			return NM_E_NOMEM;
	}
	return NM_OK;
}

/* --- gpu/ ----------------------------------------------------------------------- */

struct buf_ref {
	rfrm_model *m;
	bool index;
	size_t i;
};

static nm_status produce_buffer(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct buf_ref *ref = arg;
	(void)ctx;
	return rfrm_gpu_decompress(ref->m, ref->index, ref->i, o, err);
}

/* A range of a buffer: its stream decoded only through the range (the head of
 * vertex/0.bin needs no walk; an index buffer the walk places waits for it). */
static nm_status buffer_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			      nm_error *err)
{
	const struct buf_ref *ref = arg;
	uint8_t *data;
	(void)ctx;
	nm_status s = rfrm_gpu_load_head(ref->m, ref->index, ref->i, (size_t)(off + len), &data,
					 err);
	if (s == NM_OK) {
		nm_out_write(o, data + off, len);
		free(data);
	}
	return s;
}

static const char *codec_label(uint8_t tag)
{
	const nm_gpu_codec *c = nm_gpu_codec_by_tag(tag);
	return c ? c->label : NULL;
}

/* gpu/buffers.csv (the walk): one fixed-width row per buffer. */
#define BUFFERS_HEADER "kind,number,offset,tag,stored_bytes,bytes,ok\n"
#define BUFFERS_ROW_LEN (1 + 1 + 5 + 1 + 12 + 1 + 4 + 1 + 10 + 1 + 10 + 1 + 1 + 1)

static nm_status produce_buffers_csv(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	rfrm_model *m = arg;
	(void)ctx;
	/* A buffer the walk could not place is a row with ok 0 (its file says why). */
	nm_status s = rfrm_gpu_walk(m, err);
	if (s != NM_OK)
		return s;
	size_t n = m->nvbufs + m->nibufs;
	nm_out_str(o, BUFFERS_HEADER);
	for (size_t k = 0; k < n; k++) {
		bool index = k >= m->nvbufs;
		const rfrm_gpubuf *b = index ? &m->ib[k - m->nvbufs] : &m->vb[k];
		nm_out_printf(o, "%c,%05zu,0x%010llx,0x%02x,%010llu,%010llu,%d\n",
			      index ? 'i' : 'v', index ? k - m->nvbufs : k,
			      (unsigned long long)b->off & 0xFFFFFFFFFFull, b->codec,
			      (unsigned long long)b->comp % 10000000000ull,
			      (unsigned long long)b->size % 10000000000ull, !b->bad);
	}
	return NM_OK;
}

static void meta_layout(nm_out *o, const rfrm_model *m)
{
	const rfrm_meta *mt = &m->meta;
	nm_kv(o, "source", "%s", rfrm_gpu_source_name(m->source));
	nm_kv(o, "meta_unknown", "%u", mt->unknown);
	nm_kv(o, "meta_gpu_offset", "0x%x", mt->gpu_offset);
	nm_kv(o, "read_buffer_offsets", "%s",
	      m->meta_gpu_relative ? "relative to meta_gpu_offset" : "relative to the asset file");
	nm_kv(o, "read_buffers", "%u", mt->nread);
	for (uint32_t i = 0; i < mt->nread; i++) {
		char key[48];
		snprintf(key, sizeof key, "read_buffer_%u", i);
		nm_kv(o, key, "size %u offset 0x%x", mt->read[i][0], mt->read[i][1]);
	}
	for (int l = 0; l < 2; l++) {
		size_t n = l ? m->nibufs : m->nvbufs;
		const rfrm_gpubuf *bufs = l ? m->ib : m->vb;
		uint32_t (*list)[4] = l ? mt->ib : mt->vb;
		for (size_t i = 0; i < n; i++) {
			char key[64];
			const char *kind = l ? "index_buffer" : "vertex_buffer";
			const rfrm_gpubuf *b = &bufs[i];
			snprintf(key, sizeof key, "%s_%zu", kind, i);
			nm_kv(o, key, "read_buffer %u offset 0x%x compressed %u decompressed %u",
			      list[i][0], list[i][1], list[i][2], list[i][3]);
			snprintf(key, sizeof key, "%s_%zu_file_offset", kind, i);
			nm_kv(o, key, "0x%llx", (unsigned long long)b->off);
			snprintf(key, sizeof key, "%s_%zu_codec", kind, i);
			nm_kv_enum(o, key, codec_label(b->codec), b->codec);
			if (b->bad) {
				snprintf(key, sizeof key, "%s_%zu_error", kind, i);
				nm_kv_str(o, key, b->err.msg);
			}
		}
	}
}

nm_status rfrm_add_gpu(rfrm_model *m, nm_node *d)
{
	nm_tree *t = m->t;
	if (m->meta_bad) {
		nm_out o;
		nm_out_init(&o);
		nm_out_printf(&o, "%s\n", m->meta_err.msg);
		nm_text(t, d, "meta_error.txt", &o);
		nm_out_free(&o);
	}
	if (m->source == RFRM_GPU_NONE) {
		nm_error_file(t, d, &m->gpu_err);
		return NM_OK;
	}
	if (m->source == RFRM_GPU_WALK) {
		uint64_t n = m->nvbufs + m->nibufs;
		if (!nm_lazy(t, d, "buffers.csv", sizeof BUFFERS_HEADER - 1 + n * BUFFERS_ROW_LEN,
			     produce_buffers_csv, NULL, m))
			return NM_E_NOMEM;
	} else {
		nm_out o;
		nm_out_init(&o);
		meta_layout(&o, m);
		nm_text(t, d, "layout.txt", &o);
		nm_out_write(&o, m->meta_blob, m->meta_len);
		nm_text(t, d, "meta.bin", &o);
		nm_out_free(&o);
	}
	if (nm_tree_range_producer(t, produce_buffer, buffer_range) != NM_OK)
		return NM_E_NOMEM;
	for (int l = 0; l < 2; l++) {
		size_t n = l ? m->nibufs : m->nvbufs;
		nm_node *sub = nm_dir(t, d, l ? "index" : "vertex");
		if (!sub)
			return NM_E_NOMEM;
		for (size_t i = 0; i < n; i++) {
			const rfrm_gpubuf *b = l ? &m->ib[i] : &m->vb[i];
			if (m->source != RFRM_GPU_WALK && b->bad)
				continue; /* layout.txt says why */
			if (m->source == RFRM_GPU_WALK && !l && m->vbufs[i].bad)
				continue; /* no size: vbuf/N/error.txt says why */
			uint64_t size = rfrm_gpu_file_size(m, l != 0, i);
			struct buf_ref *ref = nm_tree_alloc(t, sizeof *ref);
			if (!ref)
				return NM_E_NOMEM;
			*ref = (struct buf_ref){ m, l != 0, i };
			char name[32];
			snprintf(name, sizeof name, "%zu.bin", i);
			nm_node *n2 = nm_lazy(t, sub, name, size, produce_buffer, NULL, ref);
			if (!n2)
				return NM_E_NOMEM;
			if (l)
				m->ib_node[i] = n2;
			else
				m->vb_node[i] = n2;
		}
	}
	return NM_OK;
}

/* The gpu/ directory's header.txt additions. */
void rfrm_gpu_header(nm_out *o, const rfrm_model *m)
{
	nm_kv(o, "layout_source", "%s", rfrm_gpu_source_name(m->source));
	if (m->source != RFRM_GPU_NONE) {
		nm_kv_enum(o, "first_buffer_codec", codec_label(m->codec), m->codec);
		nm_kv(o, "byte_order", "%s", m->little ? "little-endian (Switch)" : "big-endian (Wii U)");
	}
	nm_kv(o, "vertex_buffers", "%zu", m->nvbufs);
	nm_kv(o, "index_buffers", "%zu", m->nibufs);
}
