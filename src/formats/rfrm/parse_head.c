/* HEAD, SKHD and WDHD: the model header, the skinned-model header (SMDL) and the world-
 * model header (WMDL). FORMATS.md 6.4 and kinnay's NModelFormat::S*ModelHeader.
 *
 * HEAD: 5 u32 mesh counts, AABB (6 f32), List<data source {u32 type, object}>. Only the
 * anim-UV source (type 0) has a known layout; the listing stops at any other type.
 * WDHD: u8, render octree {FourCC type ("AROT"), u32 unknown, 3 u32, AABB, List<u32>
 * (bitmap words), List<u32> (node offsets), List<u8> (node data), List<AABB>}, then
 * List<AABB> and List<f32>. In the corpus WMDL the three u32 are 7, 5, 7: seven bitmaps
 * of five bits (five meshes) and seven nodes, so we name them bitmap_count, bitmap_bits
 * and node_count [M]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
#include "export/record.h"
#include "export/text.h"
#include "formats/rfrm/rfrm.h"
#include "lib/names.h"
#include "lib/view.h"

/* The text of o kept in the model's arena (NULL if o or the copy failed); o is emptied. */
static char *keep(rfrm_model *m, nm_out *o, size_t *len)
{
	char *text = nm_out_status(o) == NM_OK ? nm_tree_strndup(m->t, o->data, o->len) : NULL;
	*len = text ? o->len : 0;
	nm_out_free(o);
	return text;
}

static void add_file(rfrm_model *m, rfrm_chunk *c, const char *name, nm_out *o)
{
	rfrm_file *f = &c->files[c->nfiles];
	if (c->nfiles >= RFRM_CHUNK_FILES || !(f->text = keep(m, o, &f->len))) {
		nm_out_free(o);
		return;
	}
	c->nfiles++;
	snprintf(f->name, sizeof f->name, "%s", name);
}

static void set_text(rfrm_model *m, rfrm_chunk *c, nm_out *o)
{
	c->text = keep(m, o, &c->text_len);
}

static void aabb_floats(nm_view *v, size_t off, float f[6])
{
	for (int i = 0; i < 6; i++)
		f[i] = nm_f32(v, off + 4 * (size_t)i);
}

/* --- HEAD ----------------------------------------------------------------------- */

static const char *source_name(uint32_t type)
{
	static const char *const n[4] = { "ANIM_UV", "WIND", "CAUSTIC", "FUR" };
	return NM_NAME(n, type);
}

/* CModelAnimUvDataSource at *p: eval system, eval ids, int4 list, byte list. */
static bool anim_uv(nm_view *v, size_t *p, nm_out *o, const char *key)
{
	char k[64];
	size_t q = *p;
	uint32_t ninputs = nm_u32(v, q), nhandles = nm_u32(v, q + 4);
	q += 8;
	if (!nm_view_array(v, q, ninputs, 4))
		return false;
	q += (size_t)ninputs * 4;
	if (!nm_view_array(v, q, nhandles, 4))
		return false;
	for (uint32_t h = 0; h < nhandles; h++) {
		uint32_t len = nm_u32(v, q);
		if (!nm_view_has(v, q + 4, len))
			return false;
		q += 4 + (size_t)len;
	}
	uint32_t fn[3] = { nm_u32(v, q), nm_u32(v, q + 4), nm_u32(v, q + 8) };
	q += 12;
	uint32_t nids = nm_u32(v, q);
	if (!nm_view_array(v, q + 4, nids, 4))
		return false;
	snprintf(k, sizeof k, "%s_inputs", key);
	nm_kv(o, k, "%u", ninputs);
	snprintf(k, sizeof k, "%s_data_handles", key);
	nm_kv(o, k, "%u", nhandles);
	snprintf(k, sizeof k, "%s_functions", key);
	nm_kv(o, k, "%u %u %u", fn[0], fn[1], fn[2]);
	snprintf(k, sizeof k, "%s_eval_ids", key);
	nm_out_printf(o, "%s:", k);
	for (uint32_t i = 0; i < nids; i++)
		nm_out_printf(o, " %u", nm_u32(v, q + 4 + 4 * (size_t)i));
	nm_out_char(o, '\n');
	q += 4 + (size_t)nids * 4;
	uint32_t nvec = nm_u32(v, q);
	if (!nm_view_array(v, q + 4, nvec, 16))
		return false;
	snprintf(k, sizeof k, "%s_vectors", key);
	nm_out_printf(o, "%s:", k);
	for (uint32_t i = 0; i < nvec; i++)
		for (int c = 0; c < 4; c++)
			nm_out_printf(o, " %d", nm_s32(v, q + 4 + 16 * (size_t)i + 4 * (size_t)c));
	nm_out_char(o, '\n');
	q += 4 + (size_t)nvec * 16;
	uint32_t nbytes = nm_u32(v, q);
	if (!nm_view_has(v, q + 4, nbytes))
		return false;
	snprintf(k, sizeof k, "%s_bytes", key);
	nm_kv(o, k, "%u", nbytes);
	*p = q + 4 + nbytes;
	return true;
}

/* HEAD's first 0x2c bytes described once (export/record.h): the mesh counts (derived:
 * they count MESH's meshes by pass) and the bounding box (stored; apply does not
 * compute it again after a vertex edit). */
static void head_fixed(nm_rec *r)
{
	static const char *const keys[5] = {
		"opaque_meshes", "one_pass_translucent_meshes", "two_pass_translucent_meshes",
		"one_bit_meshes", "additive_meshes"
	};
	for (int i = 0; i < 5; i++)
		nm_rec_derived(r, keys[i], "%u", nm_u32(r->v, 4 * (size_t)i));
	nm_rec_floats(r, "bounding_box", 0x14, 6);
}

nm_status rfrm_head_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    nm_edit *ed, nm_error *err)
{
	rfrm_model *m = arg;
	const rfrm_chunk *c = &m->chunk[RC_HEAD];
	nm_view v;
	(void)ctx;
	nm_status s = rfrm_table_load(m->r, &c->item, "HEAD", &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, m->r, "HEAD", (const char *)bytes, len, ed);
	rfrm_item_record(&r, &c->item);
	head_fixed(&r);
	rfrm_rec_replay(&r, c->text + m->head_fixed_len, c->text_len - m->head_fixed_len);
	nm_rec_end(&r);
	nm_view_free(&v);
	return NM_OK;
}

nm_status rfrm_parse_head(rfrm_model *m, nm_view *v, nm_error *err)
{
	rfrm_chunk *c = &m->chunk[RC_HEAD];
	if (!nm_view_has(v, 0, 0x2c))
		return nm_view_fail(v, err, "model header (0x2c bytes)");
	nm_out o;
	nm_rec r;
	nm_out_init(&o);
	nm_rec_write(&r, &o, v);
	head_fixed(&r);
	m->head_fixed_len = o.len;
	for (int i = 0; i < 5; i++)
		m->mesh_counts[i] = nm_u32(v, 4 * (size_t)i);
	aabb_floats(v, 0x14, m->aabb);
	m->has_aabb = true;

	/* Data sources: informative; a layout we cannot follow ends the listing only. */
	size_t p = 0x2c;
	uint32_t n = nm_u32(v, p);
	if (v->bad) {
		nm_kv(&o, "data_sources", "none (the chunk ends after the bounding box)");
		set_text(m, c, &o);
		return NM_OK;
	}
	nm_kv(&o, "data_sources", "%u", n);
	p += 4;
	for (uint32_t i = 0; i < n; i++) {
		char key[32];
		uint32_t type = nm_u32(v, p);
		if (v->bad) {
			nm_kv(&o, "data_sources_error", "data source %u runs past the end of the chunk", i);
			break;
		}
		snprintf(key, sizeof key, "data_source_%u", i);
		nm_kv_enum(&o, key, source_name(type), type);
		p += 4;
		if (type != 0) {
			nm_kv(&o, "data_sources_note",
			      "the layout of this data source is unknown: the listing stops here");
			break;
		}
		if (!anim_uv(v, &p, &o, key)) {
			nm_kv(&o, "data_sources_error",
			      "data source %u runs past the end of the chunk at 0x%llx", i,
			      (unsigned long long)(v->base + v->bad_off));
			break;
		}
	}
	set_text(m, c, &o);
	return NM_OK;
}

/* --- SKHD ----------------------------------------------------------------------- */

nm_status rfrm_parse_skhd(rfrm_model *m, nm_view *v, nm_error *err)
{
	uint32_t u = nm_u32(v, 0);
	if (v->bad)
		return nm_view_fail(v, err, "skinned-model header (4 bytes)");
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "unknown_u32", "%u", u);
	if (v->size > 4)
		nm_kv(&o, "extra_bytes", "%zu", v->size - 4);
	set_text(m, &m->chunk[RC_SKHD], &o);
	m->skin_bones = u;
	return NM_OK;
}

/* --- WDHD ----------------------------------------------------------------------- */

static const char *const box_columns[6] = { "min_x", "min_y", "min_z", "max_x", "max_y", "max_z" };
static const char *const value_column[1] = { "value" };

/* List<f32 x ncols> at *p as a CSV of those columns (boxes, the float list). */
static bool floats_csv(nm_view *v, size_t *p, const char *const *cols, size_t ncols,
		       nm_out *o, uint32_t *count)
{
	size_t stride = 4 * ncols;
	uint32_t n = nm_u32(v, *p);
	if (v->bad || !nm_view_array(v, *p + 4, n, stride))
		return false;
	nm_csv csv = { .ncols = 0 };
	nm_csv_floats(&csv, cols, ncols);
	nm_csv_begin(o, &csv);
	for (uint32_t i = 0; i < n; i++)
		for (size_t k = 0; k < ncols; k++)
			nm_csv_cell_float(o, &csv, k, nm_f32(v, *p + 4 + stride * i + 4 * k));
	*p += 4 + (size_t)n * stride;
	*count = n;
	return true;
}

static bool u32_list(nm_view *v, size_t *p, nm_out *o, const char *key, bool hex)
{
	uint32_t n = nm_u32(v, *p);
	if (v->bad || !nm_view_array(v, *p + 4, n, 4))
		return false;
	nm_out_printf(o, "%s:", key);
	for (uint32_t i = 0; i < n; i++)
		nm_out_printf(o, hex ? " 0x%x" : " %u", nm_u32(v, *p + 4 + 4 * (size_t)i));
	nm_out_char(o, '\n');
	*p += 4 + (size_t)n * 4;
	return true;
}

nm_status rfrm_parse_wdhd(rfrm_model *m, nm_view *v, nm_error *err)
{
	rfrm_chunk *c = &m->chunk[RC_WDHD];
	nm_out hdr, oct, csv;
	nm_out_init(&hdr);
	nm_out_init(&oct);
	nm_out_init(&csv);
	const char *what = "world-model header";
	size_t p = 0;
	uint8_t u = nm_u8(v, 0);
	const uint8_t *type = nm_bytes(v, 1, 4);
	if (!type || !nm_view_has(v, 1, 44))
		goto fail;
	char tname[5];
	rfrm_fourcc_print(tname, type);
	nm_kv(&hdr, "unknown_u8", "%u", u);
	nm_kv_str(&hdr, "octree_type", tname);

	what = "render octree";
	nm_kv_str(&oct, "type", tname);
	nm_kv(&oct, "unknown", "%u", nm_u32(v, 5));
	nm_kv(&oct, "bitmap_count", "%u", nm_u32(v, 9));
	nm_kv(&oct, "bitmap_bits", "%u", nm_u32(v, 13));
	nm_kv(&oct, "node_count", "%u", nm_u32(v, 17));
	float box[6];
	aabb_floats(v, 21, box);
	nm_kv_floats(&oct, "bounding_box", box, 6);
	p = 45;
	if (!u32_list(v, &p, &oct, "bitmap_words", true) ||
	    !u32_list(v, &p, &oct, "node_offsets", false))
		goto fail;
	uint32_t nbytes = nm_u32(v, p);
	const uint8_t *nodes = nm_bytes(v, p + 4, nbytes);
	if (v->bad || !nodes)
		goto fail;
	nm_out_str(&oct, "node_data:");
	for (uint32_t i = 0; i < nbytes; i++)
		nm_out_printf(&oct, " %02x", nodes[i]);
	nm_out_char(&oct, '\n');
	p += 4 + (size_t)nbytes;
	uint32_t n;
	if (!floats_csv(v, &p, box_columns, 6, &csv, &n))
		goto fail;
	nm_kv(&oct, "boxes", "%u (octree_boxes.csv)", n);
	add_file(m, c, "octree.txt", &oct);
	add_file(m, c, "octree_boxes.csv", &csv);

	what = "box list";
	if (!floats_csv(v, &p, box_columns, 6, &csv, &n))
		goto fail;
	nm_kv(&hdr, "boxes", "%u (boxes.csv)", n);
	add_file(m, c, "boxes.csv", &csv);

	what = "float list";
	if (!floats_csv(v, &p, value_column, 1, &csv, &n))
		goto fail;
	nm_kv(&hdr, "floats", "%u (floats.csv)", n);
	add_file(m, c, "floats.csv", &csv);
	if (p != v->size)
		nm_kv(&hdr, "extra_bytes", "%zu", v->size - p);
	set_text(m, c, &hdr);
	nm_out_free(&oct);
	nm_out_free(&csv);
	return NM_OK;
fail:
	/* Show what was read before the break, and say where it broke. */
	set_text(m, c, &hdr);
	if (oct.len)
		add_file(m, c, "octree.txt", &oct);
	nm_out_free(&oct);
	nm_out_free(&csv);
	return nm_view_fail(v, err, "%s", what);
}
