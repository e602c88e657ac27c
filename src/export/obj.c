#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "export/fmt_num.h"
#include "export/obj.h"
#include "export/span.h"
#include "export/text.h"
#include "lib/alloc.h"

#define F NM_CSV_FLOAT_WIDTH
#define V_LINE (2 + 3 * (F + 1))   /* "v" + 3 x (" " + float) + "\n" */
#define VC_LINE (V_LINE + 3 * (F + 1)) /* and r g b */
#define VT_LINE (3 + 2 * (F + 1))
#define VN_LINE (3 + 3 * (F + 1))

/* What the whole file holds: one face form and one v line form for every group. */
struct layout {
	bool vt, vn, color;       /* the file has texture coordinates / normals / colours */
	bool vt_pad, vn_pad;      /* some group lacks them: one placeholder line each */
	unsigned v, wvt, wvn;     /* digits of the largest global index of each kind */
	uint64_t tv, tvt, tvn;    /* totals, placeholders included */
};

static struct layout layout_of(const nm_obj_model *m)
{
	struct layout w = { 0 };
	for (size_t g = 0; g < m->ngroups; g++) {
		const nm_obj_group *gr = &m->groups[g];
		w.vt |= gr->nuvs > 0;
		w.vn |= gr->has_normals;
		w.color |= gr->has_colors;
	}
	for (size_t g = 0; g < m->ngroups; g++) {
		const nm_obj_group *gr = &m->groups[g];
		w.vt_pad |= w.vt && gr->nuvs == 0;
		w.vn_pad |= w.vn && !gr->has_normals;
		if (gr->reuse_vertices)
			continue;
		w.tv += gr->nverts;
		if (gr->nuvs > 0)
			w.tvt += gr->nverts;
		if (gr->has_normals)
			w.tvn += gr->nverts;
	}
	w.tvt += w.vt_pad;
	w.tvn += w.vn_pad;
	w.v = nm_digits(w.tv);
	w.wvt = nm_digits(w.tvt);
	w.wvn = nm_digits(w.tvn);
	return w;
}

/* Width of one "a/b/c" reference: the same in every face of the file. */
static unsigned ref_width(const struct layout *w)
{
	unsigned n = w->v;
	if (w->vt || w->vn)
		n += 1 + (w->vt ? w->wvt : 0);
	if (w->vn)
		n += 1 + w->wvn;
	return n;
}

static uint64_t header_len(const nm_obj_group *g)
{
	return 3 + strlen(g->name) + (g->material ? 8 + strlen(g->material) : 0) +
	       (g->object ? 3 + strlen(g->object) : 0);
}

uint64_t nm_obj_size(const nm_obj_model *m)
{
	struct layout w = layout_of(m);
	uint64_t n = 0;
	if (m->comment)
		n += 3 + strlen(m->comment);
	if (m->mtllib)
		n += 8 + strlen(m->mtllib);
	n += w.vt_pad * (uint64_t)VT_LINE + w.vn_pad * (uint64_t)VN_LINE;
	uint64_t face = 2 + 3 * (1 + (uint64_t)ref_width(&w));
	for (size_t i = 0; i < m->ngroups; i++) {
		const nm_obj_group *g = &m->groups[i];
		n += header_len(g);
		if (!g->reuse_vertices) {
			n += g->nverts * (w.color ? VC_LINE : V_LINE);
			if (g->nuvs > 0)
				n += g->nverts * VT_LINE;
			if (g->has_normals)
				n += g->nverts * VN_LINE;
		}
		n += g->ntris * face;
	}
	return n;
}

/* "v" and n floats: one piece of at most VC_LINE bytes. */
static void floats_line(nm_out *o, const char *tag, const float *f, int n, const float *more,
			int nmore)
{
	char s[VC_LINE];
	char *p = nm_out_begin(o, sizeof s, s), *q = p;
	for (; *tag; tag++)
		*q++ = *tag;
	for (int i = 0; i < n + nmore; i++) {
		*q++ = ' ';
		nm_fmt_sci(q, i < n ? f[i] : more[i - n]);
		q += F;
	}
	*q++ = '\n';
	nm_out_commit(o, p, (size_t)(q - p));
}

/* Longest face line: "f" and 3 x (" " + 20 + "/" + 20 + "/" + 20) and "\n". */
#define FACE_MAX (2 + 3 * (1 + 3 * NM_FMT_UINT_MAX + 2))

/* Global indices of a face corner: a vertex's own, or the placeholder (index 1). */
struct bases {
	uint64_t v0, vt0, vn0;
	bool vt_own, vn_own;
};

static void face(nm_out *o, const struct layout *w, unsigned rw, const uint32_t *t,
		 const struct bases *b)
{
	char s[FACE_MAX];
	char *p = nm_out_begin(o, sizeof s, s), *q = p;
	if (t[0] == NM_OBJ_DROPPED) {
		/* The triangle left out: a comment line of the same length. */
		*q++ = '#';
		memset(q, ' ', 3 * (1 + (size_t)rw));
		q += 3 * (1 + (size_t)rw);
		*q++ = '\n';
		nm_out_commit(o, p, (size_t)(q - p));
		return;
	}
	*q++ = 'f';
	for (int k = 0; k < 3; k++) {
		/* "a/b/c" padded to rw as a whole: the widths of all kinds add up to rw. */
		*q++ = ' ';
		char *ref = q;
		q += nm_fmt_uint(q, b->v0 + t[k] + 1);
		if (w->vt || w->vn)
			*q++ = '/';
		if (w->vt)
			q += nm_fmt_uint(q, b->vt_own ? b->vt0 + t[k] + 1 : 1);
		if (w->vn) {
			*q++ = '/';
			q += nm_fmt_uint(q, b->vn_own ? b->vn0 + t[k] + 1 : 1);
		}
		while (q - ref < (ptrdiff_t)rw)
			*q++ = ' ';
	}
	*q++ = '\n';
	nm_out_commit(o, p, (size_t)(q - p));
}

static float *alloc_floats(const nm_options *opt, const nm_obj_group *g, unsigned per_vertex,
			   const char *file, nm_error *err)
{
	return nm_alloc(opt, g->nverts, per_vertex * sizeof(float), err, file, g->name,
			NM_NO_OFFSET);
}

unsigned nm_obj_uv(const nm_obj_group *g)
{
	return g->obj_uv < g->nuvs && g->obj_uv < NM_MESH_MAX_UV ? g->obj_uv : 0;
}

void nm_obj_data_free(nm_obj_data *d)
{
	free(d->positions);
	free(d->normals);
	for (int k = 0; k < NM_MESH_MAX_UV; k++)
		free(d->texcoords[k]);
	free(d->colors);
	free(d->joints);
	free(d->weights);
	free(d->tris);
	memset(d, 0, sizeof *d);
}

nm_status nm_obj_load(const nm_obj_model *m, size_t i, unsigned want, const nm_options *opt,
		      const char *file, nm_obj_data *d, nm_error *err)
{
	const nm_obj_group *g = &m->groups[i];
	bool own = !g->reuse_vertices;
	memset(d, 0, sizeof *d);
	/* Arrays sized by the group's counts: from the one limit-checked allocator. */
	bool ok = true;
	if (own) {
		ok = (d->positions = alloc_floats(opt, g, 3, file, err)) != NULL;
		if (ok && g->has_normals && (want & NM_WANT_NORMALS))
			ok = (d->normals = alloc_floats(opt, g, 3, file, err)) != NULL;
		for (unsigned k = 0; ok && k < g->nuvs && k < NM_MESH_MAX_UV; k++)
			if ((want & NM_WANT_UVS) || ((want & NM_WANT_OBJ_UV) && k == nm_obj_uv(g)))
				ok = (d->texcoords[k] = alloc_floats(opt, g, 2, file, err)) != NULL;
		if (ok && g->has_colors && (want & NM_WANT_COLORS))
			ok = (d->colors = alloc_floats(opt, g, 4, file, err)) != NULL;
		if (ok && g->has_skin && (want & NM_WANT_SKIN)) {
			ok = (d->weights = alloc_floats(opt, g, NM_MESH_INFLUENCES, file, err)) &&
			     (d->joints = nm_alloc(opt, g->nverts, NM_MESH_INFLUENCES *
						   sizeof *d->joints, err, file, g->name,
						   NM_NO_OFFSET));
		}
	}
	if (ok)
		ok = (d->tris = nm_alloc(opt, g->ntris, 3 * sizeof *d->tris, err, file, g->name,
					 NM_NO_OFFSET)) != NULL;
	nm_status s = ok ? m->load(m->ctx, i, d, err) : err->code;
	for (uint64_t k = 0; s == NM_OK && k < g->ntris * 3; k++)
		if (d->tris[k] != NM_OBJ_DROPPED && d->tris[k] >= g->nverts)
			s = nm_fail(err, NM_E_FORMAT, file, g->name, NM_NO_OFFSET,
				    "triangle %llu uses vertex %u of %llu",
				    (unsigned long long)(k / 3), d->tris[k],
				    (unsigned long long)g->nverts);
	if (s != NM_OK)
		nm_obj_data_free(d);
	return s;
}

/* For a range that ends among group i's v lines, which start at v_at: its first vertices
 * alone through load_head (obj.h). NM_E_UNSUPPORTED when the range goes further, or the
 * driver has no load_head or declines. */
static nm_status load_head(const nm_obj_model *m, size_t i, const nm_span *sp, uint64_t v_at,
			   uint64_t vline, bool colors, const nm_options *opt, nm_obj_data *d,
			   nm_error *err)
{
	const nm_obj_group *g = &m->groups[i];
	memset(d, 0, sizeof *d);
	if (!m->load_head || g->reuse_vertices || sp->end > v_at + g->nverts * vline)
		return NM_E_UNSUPPORTED;
	/* The v lines reaching into the range: those starting before its end. */
	uint64_t count = sp->end > v_at ? (sp->end - v_at + vline - 1) / vline : 0;
	if (count == 0)
		return NM_OK;       /* the range ends in the group's header: nothing to load */
	nm_obj_group head = *g;
	head.nverts = count;
	if (!(d->positions = alloc_floats(opt, &head, 3, "mesh.obj", err)) ||
	    (colors && g->has_colors && !(d->colors = alloc_floats(opt, &head, 4, "mesh.obj", err)))) {
		nm_obj_data_free(d);
		return err->code;
	}
	nm_status s = m->load_head(m->ctx, i, count, d, err);
	if (s != NM_OK)
		nm_obj_data_free(d);
	return s;
}

nm_status nm_obj_write_range(const nm_obj_model *m, uint64_t off, size_t len, nm_out *o,
			     nm_error *err)
{
	static const float white[3] = { 1, 1, 1 }, up[3] = { 0, 0, 1 }, zero[2] = { 0, 0 };
	struct layout w = layout_of(m);
	unsigned rw = ref_width(&w);
	uint64_t vline = w.color ? VC_LINE : V_LINE, fline = 2 + 3 * (1 + (uint64_t)rw);
	nm_span sp = nm_span_begin(o, off, len);
	/* Every line written after this fits: a range has a line cut at each end. */
	bool whole = off == 0 && len == nm_obj_size(m);
	nm_out_expect(o, len + (whole ? 0 : 2 * (FACE_MAX > VC_LINE ? FACE_MAX : VC_LINE)));
	if (m->comment && nm_span_text(&sp, 3 + strlen(m->comment)))
		nm_out_printf(o, "# %s\n", m->comment);
	if (m->mtllib && nm_span_text(&sp, 8 + strlen(m->mtllib)))
		nm_out_printf(o, "mtllib %s\n", m->mtllib);
	if (w.vt_pad && nm_span_text(&sp, VT_LINE))
		floats_line(o, "vt", zero, 2, NULL, 0);
	if (w.vn_pad && nm_span_text(&sp, VN_LINE))
		floats_line(o, "vn", up, 3, NULL, 0);
	/* Bases of the vertices the current group's faces refer to. */
	struct bases b = { 0 };
	uint64_t next_v = 0, next_vt = w.vt_pad, next_vn = w.vn_pad;
	for (size_t i = 0; i < m->ngroups && !nm_span_done(&sp); i++) {
		const nm_obj_group *g = &m->groups[i];
		bool own = !g->reuse_vertices;
		if (own)
			b = (struct bases){ next_v, next_vt, next_vn, g->nuvs > 0, g->has_normals };
		uint64_t nv = own ? g->nverts : 0, body = nv * vline +
			(g->nuvs > 0 ? nv * VT_LINE : 0) + (g->has_normals ? nv * VN_LINE : 0) +
			g->ntris * fline;
		uint64_t head = header_len(g);
		if (sp.pos + head + body <= sp.off) { /* before the range: counted only */
			sp.pos += head + body;
		} else {
			nm_obj_data d;
			nm_status s = load_head(m, i, &sp, sp.pos + head, vline, w.color, o->opt,
						&d, err);
			if (s == NM_E_UNSUPPORTED)
				s = nm_obj_load(m, i, NM_WANT_NORMALS | NM_WANT_OBJ_UV |
						NM_WANT_COLORS, o->opt, "mesh.obj", &d, err);
			if (s != NM_OK)
				return s;
			if (nm_span_text(&sp, head)) {
				if (g->object)
					nm_out_printf(o, "o %s\n", g->object);
				nm_out_printf(o, "g %s\n", g->name);
				if (g->material)
					nm_out_printf(o, "usemtl %s\n", g->material);
			}
			uint64_t k0, k1;
			nm_span_lines(&sp, vline, nv, &k0, &k1);
			for (uint64_t k = k0; k < k1; k++)
				floats_line(o, "v", d.positions + k * 3, 3,
					    d.colors ? d.colors + k * 4 : white, w.color ? 3 : 0);
			const float *uv = own ? d.texcoords[nm_obj_uv(g)] : NULL;
			nm_span_lines(&sp, VT_LINE, uv ? nv : 0, &k0, &k1);
			for (uint64_t k = k0; k < k1; k++)
				floats_line(o, "vt", uv + k * 2, 2, NULL, 0);
			nm_span_lines(&sp, VN_LINE, d.normals ? nv : 0, &k0, &k1);
			for (uint64_t k = k0; k < k1; k++)
				floats_line(o, "vn", d.normals + k * 3, 3, NULL, 0);
			nm_span_lines(&sp, fline, g->ntris, &k0, &k1);
			for (uint64_t k = k0; k < k1; k++) {
				uint32_t *t = d.tris + k * 3;
				if (t[0] == NM_OBJ_DROPPED || t[1] == NM_OBJ_DROPPED ||
				    t[2] == NM_OBJ_DROPPED)
					t[0] = NM_OBJ_DROPPED;
				face(o, &w, rw, t, &b);
			}
			nm_obj_data_free(&d);
		}
		if (own) {
			next_v += g->nverts;
			next_vt += g->nuvs > 0 ? g->nverts : 0;
			next_vn += g->has_normals ? g->nverts : 0;
		}
	}
	return nm_span_cut(&sp, o, "mesh.obj", err);
}

nm_status nm_obj_write(const nm_obj_model *m, nm_out *o, nm_error *err)
{
	uint64_t size = nm_obj_size(m);
	if (size > SIZE_MAX)
		return nm_fail(err, NM_E_LIMIT, "mesh.obj", NULL, NM_NO_OFFSET, "too large");
	return nm_obj_write_range(m, 0, (size_t)size, o, err);
}

nm_status nm_obj_produce(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)arg;
	return nm_obj_write(ctx, o, err);
}

nm_status nm_obj_produce_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	(void)arg;
	return nm_obj_write_range(ctx, off, len, o, err);
}

nm_node *nm_obj_add(nm_tree *t, nm_node *dir, const nm_obj_model *m)
{
	if (nm_tree_split_producer(t, nm_obj_produce, nm_obj_produce_range) != NM_OK)
		return NULL;
	return nm_lazy(t, dir, "mesh.obj", nm_obj_size(m), nm_obj_produce, (void *)m, NULL);
}
