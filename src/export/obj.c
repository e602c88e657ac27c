#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "export/fmt_num.h"
#include "export/obj.h"
#include "export/text.h"
#include "lib/alloc.h"

#define F NM_CSV_FLOAT_WIDTH
#define V_LINE (2 + 3 * (F + 1))   /* "v" + 3 x (" " + float) + "\n" */
#define VT_LINE (3 + 2 * (F + 1))
#define VN_LINE (3 + 3 * (F + 1))

struct widths {
	unsigned v, vt, vn;       /* digits of the largest global index of each kind */
	uint64_t tv, tvt, tvn;    /* totals */
};

static struct widths widths_of(const nm_obj_model *m)
{
	struct widths w = { 0 };
	for (size_t g = 0; g < m->ngroups; g++) {
		if (m->groups[g].reuse_vertices)
			continue;
		w.tv += m->groups[g].nverts;
		if (m->groups[g].has_texcoords)
			w.tvt += m->groups[g].nverts;
		if (m->groups[g].has_normals)
			w.tvn += m->groups[g].nverts;
	}
	w.v = nm_digits(w.tv);
	w.vt = nm_digits(w.tvt);
	w.vn = nm_digits(w.tvn);
	return w;
}

/* Width of one "a/b/c" reference in a group. */
static unsigned ref_width(const nm_obj_group *g, const struct widths *w)
{
	unsigned n = w->v;
	if (g->has_texcoords || g->has_normals)
		n += 1 + (g->has_texcoords ? w->vt : 0);
	if (g->has_normals)
		n += 1 + w->vn;
	return n;
}

static uint64_t header_len(const nm_obj_model *m, const nm_obj_group *g)
{
	(void)m;
	return 3 + strlen(g->name) + (g->material ? 8 + strlen(g->material) : 0);
}

uint64_t nm_obj_size(const nm_obj_model *m)
{
	struct widths w = widths_of(m);
	uint64_t n = 0;
	if (m->comment)
		n += 3 + strlen(m->comment);
	if (m->mtllib)
		n += 8 + strlen(m->mtllib);
	for (size_t i = 0; i < m->ngroups; i++) {
		const nm_obj_group *g = &m->groups[i];
		n += header_len(m, g);
		if (!g->reuse_vertices) {
			n += g->nverts * V_LINE;
			if (g->has_texcoords)
				n += g->nverts * VT_LINE;
			if (g->has_normals)
				n += g->nverts * VN_LINE;
		}
		n += g->ntris * (2 + 3 * (1 + (uint64_t)ref_width(g, &w)));
	}
	return n;
}

/* "v" and n floats: one piece of at most VN_LINE bytes. */
static void floats_line(nm_out *o, const char *tag, const float *f, int n)
{
	char s[VN_LINE];
	char *p = nm_out_begin(o, sizeof s, s), *q = p;
	for (; *tag; tag++)
		*q++ = *tag;
	for (int i = 0; i < n; i++) {
		*q++ = ' ';
		nm_fmt_sci(q, f[i]);
		q += F;
	}
	*q++ = '\n';
	nm_out_commit(o, p, (size_t)(q - p));
}

/* Longest face line: "f" and 3 x (" " + 20 + "/" + 20 + "/" + 20) and "\n". */
#define FACE_MAX (2 + 3 * (1 + 3 * NM_FMT_UINT_MAX + 2))

static void face(nm_out *o, const nm_obj_group *g, unsigned rw, const uint32_t *t,
		 uint64_t v0, uint64_t vt0, uint64_t vn0)
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
		q += nm_fmt_uint(q, v0 + t[k] + 1);
		if (g->has_texcoords || g->has_normals)
			*q++ = '/';
		if (g->has_texcoords)
			q += nm_fmt_uint(q, vt0 + t[k] + 1);
		if (g->has_normals) {
			*q++ = '/';
			q += nm_fmt_uint(q, vn0 + t[k] + 1);
		}
		while (q - ref < (ptrdiff_t)rw)
			*q++ = ' ';
	}
	*q++ = '\n';
	nm_out_commit(o, p, (size_t)(q - p));
}

static float *alloc_floats(const nm_out *o, const nm_obj_group *g, unsigned per_vertex,
			   nm_error *err)
{
	return nm_alloc(o->opt, g->nverts, per_vertex * sizeof(float), err, "mesh.obj", g->name,
			NM_NO_OFFSET);
}

nm_status nm_obj_write(const nm_obj_model *m, nm_out *o, nm_error *err)
{
	struct widths w = widths_of(m);
	/* The whole file at once: every line after this is written in place. */
	uint64_t size = nm_obj_size(m);
	if (size <= SIZE_MAX)
		nm_out_expect(o, (size_t)size);
	if (m->comment)
		nm_out_printf(o, "# %s\n", m->comment);
	if (m->mtllib)
		nm_out_printf(o, "mtllib %s\n", m->mtllib);
	/* Bases of the vertices the current group's faces refer to. */
	uint64_t v0 = 0, vt0 = 0, vn0 = 0, next_v = 0, next_vt = 0, next_vn = 0;
	for (size_t i = 0; i < m->ngroups; i++) {
		const nm_obj_group *g = &m->groups[i];
		bool own = !g->reuse_vertices;
		nm_obj_data d = { 0 };
		nm_status s = NM_OK;
		/* Arrays sized by the group's counts: from the one limit-checked allocator. */
		if (own && !(d.positions = alloc_floats(o, g, 3, err)))
			s = err->code;
		if (s == NM_OK && own && g->has_normals && !(d.normals = alloc_floats(o, g, 3, err)))
			s = err->code;
		if (s == NM_OK && own && g->has_texcoords &&
		    !(d.texcoords = alloc_floats(o, g, 2, err)))
			s = err->code;
		if (s == NM_OK && !(d.tris = nm_alloc(o->opt, g->ntris, 3 * sizeof *d.tris, err,
						      "mesh.obj", g->name, NM_NO_OFFSET)))
			s = err->code;
		if (s == NM_OK)
			s = m->load(m->ctx, i, &d, err);
		if (s != NM_OK)
			goto fail;
		for (uint64_t k = 0; k < g->ntris * 3; k++)
			if (d.tris[k] != NM_OBJ_DROPPED && d.tris[k] >= g->nverts) {
				s = nm_fail(err, NM_E_FORMAT, "mesh.obj", g->name, NM_NO_OFFSET,
					    "triangle %llu uses vertex %u of %llu",
					    (unsigned long long)(k / 3), d.tris[k],
					    (unsigned long long)g->nverts);
				goto fail;
			}
		nm_out_printf(o, "g %s\n", g->name);
		if (g->material)
			nm_out_printf(o, "usemtl %s\n", g->material);
		if (own) {
			v0 = next_v;
			vt0 = next_vt;
			vn0 = next_vn;
			for (uint64_t k = 0; k < g->nverts; k++)
				floats_line(o, "v", d.positions + k * 3, 3);
			if (g->has_texcoords)
				for (uint64_t k = 0; k < g->nverts; k++)
					floats_line(o, "vt", d.texcoords + k * 2, 2);
			if (g->has_normals)
				for (uint64_t k = 0; k < g->nverts; k++)
					floats_line(o, "vn", d.normals + k * 3, 3);
			next_v += g->nverts;
			next_vt += g->has_texcoords ? g->nverts : 0;
			next_vn += g->has_normals ? g->nverts : 0;
		}
		unsigned rw = ref_width(g, &w);
		for (uint64_t k = 0; k < g->ntris; k++) {
			uint32_t *t = d.tris + k * 3;
			if (t[0] == NM_OBJ_DROPPED || t[1] == NM_OBJ_DROPPED || t[2] == NM_OBJ_DROPPED)
				t[0] = NM_OBJ_DROPPED;
			face(o, g, rw, t, v0, vt0, vn0);
		}
		s = NM_OK;
fail:
		free(d.positions);
		free(d.normals);
		free(d.texcoords);
		free(d.tris);
		if (s != NM_OK)
			return s;
	}
	return nm_out_status(o);
}

nm_status nm_obj_produce(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)arg;
	return nm_obj_write(ctx, o, err);
}
