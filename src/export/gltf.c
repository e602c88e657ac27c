/* model.glb (gltf.h): the GLB container and its BIN chunk; the layout is planned in
 * gltf_plan.c and the JSON written in gltf_json.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf_plan.h"
#include "lib/alloc.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define CHUNK_JSON 0x4E4F534Au     /* "JSON" */
#define CHUNK_BIN 0x004E4942u      /* "BIN\0" */

static uint64_t total_size(uint64_t json_len, const nm_gltf_plan *p)
{
	uint64_t n = 12 + 8 + ((json_len + 3) & ~(uint64_t)3);
	return p->bin_len ? n + 8 + p->bin_len : n;
}

/* The size from a plan made (0: the JSON cannot be measured). */
static uint64_t size_of(const nm_gltf_model *m, const nm_gltf_plan *p)
{
	nm_out o;
	nm_out_init(&o);
	nm_gltf_json(&o, m, p, NULL);
	uint64_t n = nm_out_status(&o) == NM_OK ? total_size(o.len, p) : 0;
	nm_out_free(&o);
	return n;
}

uint64_t nm_gltf_size(const nm_gltf_model *m)
{
	nm_gltf_plan p;
	nm_error err;
	if (nm_gltf_plan_make(m, NULL, &p, &err) != NM_OK)
		return 0;
	uint64_t n = size_of(m, &p);
	nm_gltf_plan_free(&p);
	return n;
}

/* ---- BIN ------------------------------------------------------------------------- */

static void put32(uint8_t *d, uint32_t v)
{
	d[0] = (uint8_t)v;
	d[1] = (uint8_t)(v >> 8);
	d[2] = (uint8_t)(v >> 16);
	d[3] = (uint8_t)(v >> 24);
}

void nm_gltf_put_floats(nm_out *o, const float *f, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint8_t b[4];
		uint32_t u;
		memcpy(&u, &f[i], 4);
		put32(b, u);
		nm_out_write(o, b, 4);
	}
}

static float finite_or(float f, float fallback)
{
	return isfinite(f) ? f : fallback;
}

/* glTF asks for unit normals, weights that sum to 1, no joint twice: a vertex whose data
 * breaks that is mended here (a zero normal points up, a vertex without weight follows
 * joint 0), so that a damaged file still gives a valid glb. */
/* A position as written (a non-finite coordinate is 0), into the bounds mn, mx (v: the
 * vertex's number; the first sets them). */
static void mend_position(float p[3], uint64_t v, float mn[3], float mx[3])
{
	for (int c = 0; c < 3; c++) {
		p[c] = finite_or(p[c], 0);
		if (v == 0 || p[c] < mn[c])
			mn[c] = p[c];
		if (v == 0 || p[c] > mx[c])
			mx[c] = p[c];
	}
}

static void mend(const nm_obj_group *g, nm_obj_data *d, unsigned nuv, size_t njoints,
		 float mn[3], float mx[3])
{
	for (uint64_t v = 0; v < g->nverts; v++) {
		mend_position(d->positions + 3 * v, v, mn, mx);
		if (d->normals) {
			float *n = d->normals + 3 * v;
			double len = 0;
			for (int c = 0; c < 3; c++) {
				n[c] = finite_or(n[c], 0);
				len += (double)n[c] * n[c];
			}
			len = sqrt(len);
			for (int c = 0; c < 3; c++)
				n[c] = len > 1e-12 ? (float)(n[c] / len) : c == 2;
		}
		/* The shared description's texture coordinates are OBJ's (v = 0 at the image's
		 * bottom row); glTF's v = 0 is its top row. */
		for (unsigned k = 0; k < nuv; k++) {
			float *uv = d->texcoords[k] + 2 * v;
			uv[0] = finite_or(uv[0], 0);
			uv[1] = 1.0f - finite_or(uv[1], 1);
		}
		if (d->colors)
			for (int c = 0; c < 4; c++) {
				float x = d->colors[4 * v + c];
				d->colors[4 * v + c] = !(x >= 0) ? 0 : x > 1 ? 1 : x;
			}
		if (d->joints) {
			uint16_t *j = d->joints + NM_MESH_INFLUENCES * v;
			float *w = d->weights + NM_MESH_INFLUENCES * v, sum = 0;
			for (int a = 0; a < NM_MESH_INFLUENCES; a++) {
				if (!(w[a] > 0) || !isfinite(w[a]) || j[a] >= njoints)
					w[a] = 0;
				for (int b = 0; b < a && w[a] > 0; b++)
					if (w[b] > 0 && j[b] == j[a]) {
						w[b] += w[a];
						w[a] = 0;
					}
			}
			for (int a = 0; a < NM_MESH_INFLUENCES; a++)
				sum += w[a];
			for (int a = 0; a < NM_MESH_INFLUENCES; a++) {
				if (w[a] == 0)
					j[a] = 0;
				w[a] = sum > 0 ? w[a] / sum : a == 0;
			}
		}
	}
}

static void write_indices(const nm_obj_group *g, const nm_obj_data *d, nm_out *o)
{
	for (uint64_t k = 0; k < g->ntris; k++) {
		const uint32_t *t = d->tris + 3 * k;
		bool dropped = t[0] == NM_OBJ_DROPPED || t[1] == NM_OBJ_DROPPED ||
			       t[2] == NM_OBJ_DROPPED;
		uint8_t b[12];
		for (int c = 0; c < 3; c++)
			put32(b + 4 * c, dropped ? 0 : t[c]);
		nm_out_write(o, b, 12);
	}
}

/* One group: its vertices when it owns them, then its indices, from one load. */
static nm_status write_group(const nm_gltf_model *m, const nm_gltf_plan *p, size_t i, nm_out *o,
			     float mn[3], float mx[3], nm_error *err)
{
	const nm_obj_group *g = &m->mesh->groups[i];
	const nm_gltf_group_plan *q = &p->g[i];
	nm_obj_data d;
	unsigned want = q->own ? NM_WANT_NORMALS | NM_WANT_UVS | NM_WANT_COLORS |
				 (q->skin ? NM_WANT_SKIN : 0) : 0;
	nm_status s = nm_obj_load(m->mesh, i, want, o->opt, "model.glb", &d, err);
	if (s != NM_OK)
		return s;
	if (!q->own) {
		write_indices(g, &d, o);
		nm_obj_data_free(&d);
		return NM_OK;
	}
	/* UV sets past the group's own, for a material that reads them: zeros. */
	for (unsigned k = g->nuvs; k < q->nuv && s == NM_OK; k++)
		if (!(d.texcoords[k] = nm_alloc(o->opt, g->nverts, 8, err, "model.glb", g->name,
						NM_NO_OFFSET)))
			s = err->code;
	if (s == NM_OK) {
		mend(g, &d, q->nuv, m->njoints, mn, mx);
		nm_gltf_put_floats(o, d.positions, g->nverts * 3);
		if (d.normals)
			nm_gltf_put_floats(o, d.normals, g->nverts * 3);
		for (unsigned k = 0; k < q->nuv; k++)
			nm_gltf_put_floats(o, d.texcoords[k], g->nverts * 2);
		if (d.colors)
			nm_gltf_put_floats(o, d.colors, g->nverts * 4);
		if (q->skin) {
			for (uint64_t v = 0; v < g->nverts * NM_MESH_INFLUENCES; v++) {
				uint8_t b[2] = { (uint8_t)d.joints[v], (uint8_t)(d.joints[v] >> 8) };
				nm_out_write(o, b, 2);
			}
			nm_gltf_put_floats(o, d.weights, g->nverts * NM_MESH_INFLUENCES);
		}
		if (q->draws)
			write_indices(g, &d, o);
	}
	nm_obj_data_free(&d);
	return s;
}

static void write_ibm(const nm_gltf_model *m, nm_out *o)
{
	for (size_t j = 0; j < m->njoints; j++) {
		float f[16];
		for (int k = 0; k < 16; k++)
			f[k] = finite_or(m->joints[j].inverse_bind[k], k % 5 == 0);
		/* glTF requires the last row of an inverse bind matrix to be 0 0 0 1. */
		f[3] = f[7] = f[11] = 0;
		f[15] = 1;
		nm_gltf_put_floats(o, f, 16);
	}
}

static nm_status write_images(const nm_gltf_model *m, const nm_gltf_plan *p, nm_out *o,
			      nm_error *err)
{
	for (size_t k = 0; k < m->nimages; k++) {
		if (p->image_of[k] == SIZE_MAX)
			continue;
		const nm_png_source *img = &m->images[k];
		size_t before = o->len;
		nm_read_hold h;
		if (img->file && nm_tree_peek(img->tree, img->file, &h)) {
			nm_out_write(o, h.data, h.len); /* tex1/NAME.png was read first */
			nm_read_release(img->tree, &h);
		} else {
			nm_status s = img->produce(img->ctx, img->arg, o, err);
			if (s != NM_OK)
				return s;
			if (img->file && nm_out_status(o) == NM_OK)
				nm_tree_offer(img->tree, img->file, o->data + before, o->len - before);
		}
		if (nm_out_status(o) == NM_OK && o->len - before != img->size)
			return nm_fail(err, NM_E_IO, "model.glb", "images", NM_NO_OFFSET,
				       "image %zu is %zu bytes, not the %llu announced", k,
				       o->len - before, (unsigned long long)img->size);
		static const uint8_t zero[3] = { 0, 0, 0 };
		nm_out_write(o, zero, (size_t)((4 - img->size % 4) % 4));
	}
	return NM_OK;
}

/* The POSITION bounds of group i, which the JSON holds, without writing it: for a
 * prefix that stops before the group's vertices. */
static nm_status group_bounds(const nm_gltf_model *m, size_t i, const nm_options *opt,
			      float mn[3], float mx[3], nm_error *err)
{
	nm_obj_data d;
	nm_status s = nm_obj_load(m->mesh, i, 0, opt, "model.glb", &d, err);
	if (s != NM_OK)
		return s;
	for (uint64_t v = 0; v < m->mesh->groups[i].nverts; v++)
		mend_position(d.positions + 3 * v, v, mn, mx);
	nm_obj_data_free(&d);
	return NM_OK;
}

/* The file's first end bytes at least (all of it when end is UINT64_MAX): the header,
 * the JSON and the BIN chunk's groups as far as they reach end; the groups past it are
 * loaded for their bounds only. NM_E_UNSUPPORTED when the groups end before end (the
 * inverse binds, images and animations are written whole only). */
static nm_status write_prefix(const nm_gltf_model *m, uint64_t end, nm_out *o, nm_error *err)
{
	nm_gltf_plan p;
	nm_status s = nm_gltf_plan_make(m, o->opt, &p, err);
	if (s != NM_OK)
		return s;
	uint64_t *minmax_at = nm_alloc(o->opt, m->mesh->ngroups + 1, sizeof *minmax_at, err,
				       "model.glb", "groups", NM_NO_OFFSET);
	float (*bounds)[6] = minmax_at ? nm_alloc(o->opt, m->mesh->ngroups + 1, sizeof *bounds,
						  err, "model.glb", "groups", NM_NO_OFFSET)
				       : NULL;
	if (!bounds) {
		s = err->code;
		goto out;
	}
	uint64_t size = nm_gltf_size(m);
	if (size && size <= SIZE_MAX)
		nm_out_expect(o, (size_t)(end < size ? end : size));
	/* Header and JSON chunk header, filled in once the JSON's length is known. */
	size_t start = o->len;
	static const uint8_t blank[20];
	nm_out_write(o, blank, sizeof blank);
	nm_gltf_json(o, m, &p, minmax_at);
	while ((o->len - start) % 4)
		nm_out_char(o, ' ');
	size_t json_len = o->len - start - 20;
	if (p.bin_len) {
		uint8_t h[8];
		put32(h, (uint32_t)p.bin_len);
		put32(h + 4, CHUNK_BIN);
		nm_out_write(o, h, 8);
	}
	for (size_t i = 0; i < m->mesh->ngroups && s == NM_OK; i++)
		if (o->len - start >= end && p.g[i].own)
			s = group_bounds(m, i, o->opt, bounds[i], bounds[i] + 3, err);
		else if (o->len - start < end && (p.g[i].own || p.g[i].draws))
			s = write_group(m, &p, i, o, bounds[i], bounds[i] + 3, err);
	bool rest = o->len - start < end;
	/* A range past the geometry is made whole: what follows it costs a whole production
	 * (the images are the texture files' productions), and an animation's sampling is
	 * only ever run by one production of its model at a time (the cache's), never by a
	 * range beside it. */
	if (s == NM_OK && rest && end != UINT64_MAX)
		s = NM_E_UNSUPPORTED;
	if (s == NM_OK && rest && p.skinned)
		write_ibm(m, o);
	if (s == NM_OK && rest)
		s = write_images(m, &p, o, err);
	if (s == NM_OK && rest)
		s = nm_gltf_anim_write(m, &p, o, err);
	if (s == NM_OK)
		s = nm_out_status(o);
	if (s != NM_OK)
		goto out;
	/* Now that every vertex has been read: the header, and POSITION's bounds. */
	uint8_t *h = o->data + start;
	put32(h, GLB_MAGIC);
	put32(h + 4, 2);
	put32(h + 8, (uint32_t)(rest ? o->len - start : size)); /* the same when whole */
	put32(h + 12, (uint32_t)json_len);
	put32(h + 16, CHUNK_JSON);
	for (size_t i = 0; i < m->mesh->ngroups; i++)
		if (p.g[i].own) {
			char buf[NM_GLTF_MINMAX_LEN + 1];
			nm_gltf_minmax_text(buf, bounds[i], bounds[i] + 3);
			memcpy(o->data + minmax_at[i], buf, NM_GLTF_MINMAX_LEN);
		}
out:
	free(minmax_at);
	free(bounds);
	nm_gltf_plan_free(&p);
	return s;
}

nm_status nm_gltf_write(const nm_gltf_model *m, nm_out *o, nm_error *err)
{
	return write_prefix(m, UINT64_MAX, o, err);
}

nm_status nm_gltf_write_range(const nm_gltf_model *m, uint64_t off, size_t len, nm_out *o,
			      nm_error *err)
{
	nm_out prefix;
	nm_out_init(&prefix);
	prefix.opt = o->opt;
	nm_status s = write_prefix(m, off + len, &prefix, err);
	if (s == NM_OK && prefix.len < off + len)
		s = nm_fail(err, NM_E_INTERNAL, "model.glb", NULL, off,
			    "internal error: a prefix of %zu bytes for a range to %llu", prefix.len,
			    (unsigned long long)(off + len));
	if (s == NM_OK)
		nm_out_write(o, prefix.data + off, len);
	nm_out_free(&prefix);
	return s;
}

nm_status nm_gltf_produce(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)arg;
	return nm_gltf_write(ctx, o, err);
}

nm_status nm_gltf_produce_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
				nm_error *err)
{
	(void)arg;
	return nm_gltf_write_range(ctx, off, len, o, err);
}

nm_status nm_gltf_add(nm_tree *t, nm_node *dir, const nm_gltf_model *m, nm_produce_fn produce,
		      void *ctx)
{
	/* One plan for the size and for the animations info.txt says are left out. */
	nm_gltf_plan p;
	nm_error err;
	if (nm_gltf_plan_make(m, NULL, &p, &err) != NM_OK)
		return NM_E_NOMEM;
	uint64_t size = size_of(m, &p);
	nm_out account;
	nm_out_init(&account);
	nm_gltf_anim_account(m, &p, &account);
	nm_gltf_plan_free(&p);
	nm_status s = NM_OK;
	if (size > UINT32_MAX)
		goto out;
	if (!produce) {
		produce = nm_gltf_produce;
		ctx = (void *)m;
		if (nm_tree_range_producer(t, produce, nm_gltf_produce_range) != NM_OK) {
			s = NM_E_NOMEM;
			goto out;
		}
	}
	if (!size || !nm_lazy(t, dir, "model.glb", size, produce, ctx, (void *)m)) {
		s = NM_E_NOMEM;
		goto out;
	}
	/* Said where the model lists its animations. */
	nm_node *info = account.len ? nm_child(t, dir, "info.txt") : NULL;
	if (info && nm_text_append(t, info, &account) == NM_E_NOMEM)
		s = NM_E_NOMEM;
out:
	nm_out_free(&account);
	return s;
}

/* ---- helpers for drivers ----------------------------------------------------------- */

void nm_gltf_alpha_mode(nm_gltf_material *mat, bool test, uint8_t ref, bool blend)
{
	mat->alpha = test ? NM_GLTF_MASK : blend ? NM_GLTF_BLEND : NM_GLTF_OPAQUE;
	mat->alpha_cutoff = test ? ref / 255.0f : 0.5f;
}

void nm_gltf_euler_quat(const float e[3], float q[4])
{
	/* R = Rz * Ry * Rx: q = qz * qy * qx. */
	double cx = cos(e[0] / 2), sx = sin(e[0] / 2), cy = cos(e[1] / 2), sy = sin(e[1] / 2);
	double cz = cos(e[2] / 2), sz = sin(e[2] / 2);
	q[0] = (float)(sx * cy * cz - cx * sy * sz);
	q[1] = (float)(cx * sy * cz + sx * cy * sz);
	q[2] = (float)(cx * cy * sz - sx * sy * cz);
	q[3] = (float)(cx * cy * cz + sx * sy * sz);
}

void nm_gltf_inverse_bind(const float *w, float out[16])
{
	/* Inverse of [A t; 0 1] is [A^-1, -A^-1 t; 0 1]; A^-1 by cofactors. */
	double a[3][3], inv[3][3], t[3];
	for (int r = 0; r < 3; r++) {
		for (int c = 0; c < 3; c++)
			a[r][c] = w[r * 4 + c];
		t[r] = w[r * 4 + 3];
	}
	double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
		     a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
		     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
	if (fabs(det) < 1e-30 || !isfinite(det)) {
		for (int k = 0; k < 16; k++)
			out[k] = k % 5 == 0;
		return;
	}
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
			inv[r][c] = (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]) / det;
		}
	/* Column-major: out[c * 4 + r]. */
	for (int r = 0; r < 3; r++) {
		double tr = 0;
		for (int c = 0; c < 3; c++) {
			out[c * 4 + r] = (float)inv[r][c];
			tr -= inv[r][c] * t[c];
		}
		out[12 + r] = (float)tr;
		out[r * 4 + 3] = 0;
	}
	out[15] = 1;
}
