/* mesh.obj + mesh.mtl: every shape in bind pose (FORMATS.md 3.5, 7).
 *
 * A vertex bound to a DRW1 joint entry is stored in that joint's space and is moved by
 * the joint's world matrix. A vertex bound to an envelope is moved by the skinning
 * matrix sum(w * world * inverse bind), as the game does. FORMATS.md 3.5 says to use
 * it as stored, since that sum is the identity at bind pose; it is only when the
 * inverse bind matrices match the joints, which is not always so: in the corpus's
 * cwwpm_DSLink_cl.bdl every world * inverse bind is a translation by (0, 45, 0), and
 * vertices used as stored leave the skinned body 45 units below the rigid head.
 * Texture coordinates are (s, 1 - t). GX front faces are clockwise, so every triangle
 * is written reversed for OBJ's counter-clockwise front faces.
 *
 * The triangle count needs the display lists walked, which mount does not do: mesh.obj
 * is an NM_SIZE_MEASURE file, produced once on its first stat (ls -l of the root) and
 * then cached like any produced file. mesh.mtl comes from the material tables and is
 * formatted at mount. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/obj.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "formats/j3d/j3d.h"

#define NONE UINT32_MAX

typedef struct vkey {
	uint32_t drw, pos, nrm, tex;
} vkey;

/* One shape's unique vertices and triangles. */
typedef struct obj_shape {
	const j3d_shape *s;
	vkey *keys;
	size_t nkeys, capkeys;
	uint32_t *hash;           /* open addressing: key index + 1, 0 = empty */
	size_t caphash;
	uint32_t *tris;
	size_t ntris, captris;
	int pos_attr, nrm_attr, tex_attr; /* index in the attribute list, -1 when absent */
} obj_shape;

typedef struct obj_build {
	j3d_model *m;
	obj_shape *shapes;
	size_t nshapes;
	obj_shape *cur;
	j3d_mtx_state mtx;
	const j3d_packet *packet;
	uint8_t *pos, *nrm, *tex;          /* loaded arrays (NULL when absent) */
	const j3d_varray *apos, *anrm, *atex;
	float (*drw_mtx)[12];
	uint32_t ndrw;
} obj_build;

static nm_status nomem(obj_build *b, nm_error *err)
{
	return nm_fail(err, NM_E_NOMEM, b->m->file, "mesh.obj", NM_NO_OFFSET, "out of memory");
}

static uint32_t hash_key(const vkey *k)
{
	uint64_t h = 1469598103934665603ull;
	const uint32_t v[4] = { k->drw, k->pos, k->nrm, k->tex };
	for (int i = 0; i < 4; i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return (uint32_t)(h ^ h >> 32);
}

static bool grow_hash(obj_shape *sh)
{
	size_t cap = sh->caphash ? sh->caphash * 2 : 256;
	uint32_t *h = calloc(cap, sizeof *h);
	if (!h)
		return false;
	for (size_t i = 0; i < sh->nkeys; i++) {
		size_t j = hash_key(&sh->keys[i]) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(sh->hash);
	sh->hash = h;
	sh->caphash = cap;
	return true;
}

/* Index of key k among the shape's vertices, added when new; NONE when out of memory. */
static uint32_t vertex_id(obj_shape *sh, const vkey *k)
{
	if ((sh->nkeys + 1) * 2 > sh->caphash && !grow_hash(sh))
		return NONE;
	size_t j = hash_key(k) & (sh->caphash - 1);
	while (sh->hash[j]) {
		const vkey *o = &sh->keys[sh->hash[j] - 1];
		if (!memcmp(o, k, sizeof *k))
			return sh->hash[j] - 1;
		j = (j + 1) & (sh->caphash - 1);
	}
	if (sh->nkeys == sh->capkeys) {
		size_t cap = sh->capkeys ? sh->capkeys * 2 : 256;
		vkey *nk = realloc(sh->keys, cap * sizeof *nk);
		if (!nk)
			return NONE;
		sh->keys = nk;
		sh->capkeys = cap;
	}
	sh->keys[sh->nkeys] = *k;
	sh->hash[j] = (uint32_t)sh->nkeys + 1;
	return (uint32_t)sh->nkeys++;
}

static uint32_t attr_value(const j3d_shape *s, int k, const uint8_t *vert)
{
	return k < 0 ? NONE : j3d_dl_value(&s->attrs[k], vert);
}

static nm_status add_prim(void *ctx, const j3d_prim *p, nm_error *err)
{
	obj_build *b = ctx;
	obj_shape *sh = b->cur;
	const j3d_shape *s = sh->s;
	if (j3d_prim_class(p->op) != J3D_PC_TRIANGLES)
		return NM_OK;
	uint64_t n = j3d_prim_count(p->op, p->nverts);
	uint32_t *ids = malloc(((size_t)p->nverts + 1) * sizeof *ids);
	if (!ids)
		return nomem(b, err);
	for (uint32_t i = 0; i < p->nverts; i++) {
		const uint8_t *v = p->verts + (size_t)i * s->vsize;
		vkey k = { .drw = j3d_mtx_resolve(&b->mtx, s, b->packet, v),
			   .pos = attr_value(s, sh->pos_attr, v),
			   .nrm = attr_value(s, sh->nrm_attr, v),
			   .tex = attr_value(s, sh->tex_attr, v) };
		ids[i] = vertex_id(sh, &k);
		if (ids[i] == NONE) {
			free(ids);
			return nomem(b, err);
		}
	}
	/* A draw too short for a triangle (a strip of two) keeps its vertices but adds no
	 * face; it must not touch the triangle array, which the shape's first such draw
	 * finds still NULL. */
	if (n == 0) {
		free(ids);
		return NM_OK;
	}
	if (sh->ntris + n > sh->captris) {
		size_t cap = sh->captris ? sh->captris : 256;
		while (cap < sh->ntris + n)
			cap *= 2;
		uint32_t *t = realloc(sh->tris, cap * 3 * sizeof *t);
		if (!t) {
			free(ids);
			return nomem(b, err);
		}
		sh->tris = t;
		sh->captris = cap;
	}
	nm_prim kind = p->op == 0x90 ? NM_PRIM_TRIANGLES : p->op == 0x98 ? NM_PRIM_STRIP
		     : p->op == 0xA0 ? NM_PRIM_FAN : NM_PRIM_QUADS;
	/* Triangulate positions in the primitive (never repeated, so none is dropped as
	 * degenerate), then map them to the shape's unique vertices, reversed. */
	uint32_t *local = malloc(((size_t)p->nverts + 1) * sizeof *local);
	if (!local) {
		free(ids);
		return nomem(b, err);
	}
	for (uint32_t i = 0; i < p->nverts; i++)
		local[i] = i;
	uint32_t *t = sh->tris + sh->ntris * 3;
	nm_triangulate(kind, local, p->nverts, t);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t a = ids[t[3 * i]], bb = ids[t[3 * i + 1]], c = ids[t[3 * i + 2]];
		t[3 * i] = a;
		t[3 * i + 1] = c;
		t[3 * i + 2] = bb;
	}
	sh->ntris += n;
	free(local);
	free(ids);
	return NM_OK;
}

static int find_attr(const j3d_shape *s, uint32_t a1, uint32_t a2)
{
	for (unsigned k = 0; k < s->nattrs; k++)
		if ((s->attrs[k].attr == a1 || s->attrs[k].attr == a2) &&
		    (s->attrs[k].type == J3D_IDX_8 || s->attrs[k].type == J3D_IDX_16))
			return (int)k;
	return -1;
}

static const j3d_varray *usable(const j3d_model *m, int slot, unsigned min_comps)
{
	if (!m->vtx1)
		return NULL;
	const j3d_varray *a = &m->vtx1->arrays[slot];
	return a->present && !a->problem && !a->color && a->ncomp >= min_comps ? a : NULL;
}

static nm_status collect_shape(obj_build *b, obj_shape *sh, nm_error *err)
{
	const j3d_shape *s = sh->s;
	sh->pos_attr = find_attr(s, J3D_A_POS, J3D_A_POS);
	sh->nrm_attr = find_attr(s, J3D_A_NRM, J3D_A_NBT);
	sh->tex_attr = find_attr(s, J3D_A_TEX0, J3D_A_TEX0);
	b->cur = sh;
	j3d_mtx_reset(&b->mtx);
	for (uint32_t j = 0; j < s->npackets; j++) {
		uint8_t *dl;
		b->packet = &s->packets[j];
		nm_status st = j3d_dl_load(b->m, s, j, &dl, err);
		if (st != NM_OK)
			return st;
		j3d_mtx_packet(&b->mtx, b->packet);
		st = j3d_dl_walk(s, dl, b->packet->dl_size,
				 b->m->shp1->chunk->off + b->packet->dl_off, b->m->file, add_prim,
				 b, err);
		free(dl);
		if (st != NM_OK)
			return st;
	}
	return NM_OK;
}

static const float identity[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };

static const float *joint_world(const j3d_model *m, uint32_t j)
{
	return m->jnt1 && j < m->jnt1->count ? m->jnt1->joints[j].world : identity;
}

/* The matrix of each DRW1 entry at bind pose: a joint's world matrix, or for an
 * envelope sum(w * world * inverse bind), where a joint without an inverse bind matrix
 * contributes w * identity. Unknown entries and indices give the identity. */
static float (*bind_matrices(const j3d_model *m))[12]
{
	uint32_t n = m->drw1 ? m->drw1->count : 0;
	float (*mx)[12] = malloc((n ? n : 1) * sizeof *mx);
	if (!mx)
		return NULL;
	const j3d_evp1 *e = m->evp1;
	for (uint32_t d = 0; d < n; d++) {
		uint16_t p = m->drw1->params[d];
		if (m->drw1->kinds[d] == 0) {
			memcpy(mx[d], joint_world(m, p), sizeof mx[d]);
			continue;
		}
		if (m->drw1->kinds[d] != 1 || !e || p >= e->count) {
			memcpy(mx[d], identity, sizeof mx[d]);
			continue;
		}
		memset(mx[d], 0, sizeof mx[d]);
		for (uint32_t k = 0; k < e->counts[p]; k++) {
			uint32_t at = e->first[p] + k;
			uint16_t j = e->joints[at];
			float wi[12];
			if (j < e->nibm && m->jnt1 && j < m->jnt1->count)
				j3d_mat_mul(joint_world(m, j), e->ibm[j], wi);
			else
				memcpy(wi, identity, sizeof wi);
			for (int r = 0; r < 12; r++)
				mx[d][r] += e->weights[at] * wi[r];
		}
	}
	return mx;
}

static const float *bind_matrix(const obj_build *b, uint32_t drw)
{
	return b->drw_mtx && drw < b->ndrw ? b->drw_mtx[drw] : identity;
}

/* Element i of an array, zeros when the array is missing or i is past its end (a
 * broken file: the face still shows, at the origin). */
static void element(const j3d_varray *a, const uint8_t *data, uint32_t i, float *out,
		    unsigned n)
{
	float f[9] = { 0 };
	if (a && data && i != NONE && i < a->count)
		j3d_vtx_floats(a, data, i, f);
	memcpy(out, f, n * sizeof *out);
}

static nm_status load_group(void *ctx, size_t g, nm_obj_data *d, nm_error *err)
{
	obj_build *b = ctx;
	const obj_shape *sh = &b->shapes[g];
	(void)err;
	for (size_t i = 0; i < sh->nkeys; i++) {
		const vkey *k = &sh->keys[i];
		const float *mx = bind_matrix(b, k->drw);
		float p[3];
		element(b->apos, b->pos, k->pos, p, 3);
		for (int r = 0; r < 3; r++)
			d->positions[3 * i + r] = mx[4 * r] * p[0] + mx[4 * r + 1] * p[1] +
						  mx[4 * r + 2] * p[2] + mx[4 * r + 3];
		if (d->normals) {
			float nv[3], t[3];
			element(b->anrm, b->nrm, k->nrm, nv, 3);
			for (int r = 0; r < 3; r++)
				t[r] = mx[4 * r] * nv[0] + mx[4 * r + 1] * nv[1] + mx[4 * r + 2] * nv[2];
			float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
			for (int r = 0; r < 3; r++)
				d->normals[3 * i + r] = len > 0 ? t[r] / len : 0.0f;
		}
		if (d->texcoords) {
			float st[2];
			element(b->atex, b->tex, k->tex, st, 2);
			if (b->atex && b->atex->ncomp < 2)
				st[1] = 0.0f;
			d->texcoords[2 * i] = st[0];
			d->texcoords[2 * i + 1] = 1.0f - st[1];
		}
	}
	if (sh->ntris)
		memcpy(d->tris, sh->tris, sh->ntris * 3 * sizeof *d->tris);
	return NM_OK;
}

/* Material name for OBJ/MTL: one token, no spaces. */
static char *mtl_name(const j3d_model *m, int i)
{
	const char *raw = m->mat3->mats[i].name;
	size_t len = raw ? strlen(raw) : 0;
	if (len > J3D_STEM_MAX)
		len = J3D_STEM_MAX;
	char *s = malloc(len + 24);
	if (!s)
		return NULL;
	int n = sprintf(s, "m%d%s", i, len ? "_" : "");
	for (size_t k = 0; k < len; k++) {
		unsigned char ch = (unsigned char)raw[k];
		s[n++] = (char)((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') ||
				(ch >= 'a' && ch <= 'z') || ch == '_' || ch == '-' || ch == '.'
				? ch : '_');
	}
	s[n] = '\0';
	return s;
}

static void free_build(obj_build *b)
{
	for (size_t i = 0; i < b->nshapes; i++) {
		free(b->shapes[i].keys);
		free(b->shapes[i].hash);
		free(b->shapes[i].tris);
	}
	free(b->shapes);
	free(b->drw_mtx);
	free(b->pos);
	free(b->nrm);
	free(b->tex);
}

static nm_status load_array(obj_build *b, const j3d_varray *a, uint8_t **out, nm_error *err)
{
	*out = NULL;
	return a ? j3d_vtx_load(b->m, a, out, err) : NM_OK;
}

static nm_status produce_obj(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	j3d_model *m = ctx;
	obj_build b = { .m = m };
	nm_obj_group *groups = NULL;
	size_t ngroups = 0, skipped = 0;
	uint64_t tris = 0;
	nm_status st = NM_OK;
	(void)arg;
	size_t ns = m->shp1 ? m->shp1->count : 0;
	b.shapes = calloc(ns ? ns : 1, sizeof *b.shapes);
	groups = calloc(ns ? ns : 1, sizeof *groups);
	if (!b.shapes || !groups) {
		st = nomem(&b, err);
		goto done;
	}
	b.drw_mtx = bind_matrices(m);
	b.ndrw = m->drw1 ? m->drw1->count : 0;
	if (!b.drw_mtx) {
		st = nomem(&b, err);
		goto done;
	}
	b.apos = usable(m, J3D_POS, 2);
	b.anrm = usable(m, J3D_NRM, 3);
	b.atex = usable(m, J3D_TEX0, 1);
	if ((st = load_array(&b, b.apos, &b.pos, err)) != NM_OK ||
	    (st = load_array(&b, b.anrm, &b.nrm, err)) != NM_OK ||
	    (st = load_array(&b, b.atex, &b.tex, err)) != NM_OK)
		goto done;
	for (size_t i = 0; i < ns; i++) {
		obj_shape *sh = &b.shapes[b.nshapes];
		sh->s = &m->shp1->shapes[i];
		nm_error serr;
		if (!sh->s->ok || collect_shape(&b, sh, &serr) != NM_OK) {
			/* A shape that cannot be walked is left out (its directory says why). */
			free(sh->keys);
			free(sh->hash);
			free(sh->tris);
			memset(sh, 0, sizeof *sh);
			skipped++;
			continue;
		}
		nm_obj_group *g = &groups[ngroups++];
		char name[32];
		snprintf(name, sizeof name, "shape%zu", i);
		g->name = strdup(name);
		if (sh->s->material >= 0 && m->mat3 && (uint32_t)sh->s->material < m->mat3->count)
			g->material = mtl_name(m, sh->s->material);
		g->nverts = sh->nkeys;
		g->has_normals = b.anrm && sh->nrm_attr >= 0;
		g->has_texcoords = b.atex && sh->tex_attr >= 0;
		g->ntris = sh->ntris;
		tris += sh->ntris;
		b.nshapes++;
		if (!g->name || (sh->s->material >= 0 && m->mat3 &&
				 (uint32_t)sh->s->material < m->mat3->count && !g->material)) {
			st = nomem(&b, err);
			goto done;
		}
	}
	char comment[160];
	snprintf(comment, sizeof comment, "J3D %s via nmodelfs: %zu shapes, %llu triangles%s",
		 m->type, b.nshapes, (unsigned long long)tris,
		 skipped ? " (shapes that could not be decoded are left out)" : "");
	nm_obj_model model = { .mtllib = "mesh.mtl", .comment = comment, .groups = groups,
			       .ngroups = ngroups, .load = load_group, .ctx = &b };
	st = nm_obj_write(&model, o, err);
done:
	for (size_t i = 0; groups && i < ngroups; i++) {
		free(groups[i].name);
		free(groups[i].material);
	}
	free(groups);
	free_build(&b);
	return st;
}

static void write_mtl(nm_out *o, const j3d_model *m)
{
	nm_out_str(o, "# J3D materials via nmodelfs; map_Kd is the material's first texture\n");
	for (uint16_t i = 0; m->mat3 && i < m->mat3->count; i++) {
		const j3d_material *mat = &m->mat3->mats[i];
		char *name = mtl_name(m, i);
		if (!name) {
			o->failed = true;
			return;
		}
		nm_out_printf(o, "\nnewmtl %s\n", name);
		free(name);
		nm_out_str(o, "Kd");
		for (int k = 0; k < 3; k++) {
			nm_out_char(o, ' ');
			nm_out_float(o, mat->color[k] / 255.0f);
		}
		nm_out_char(o, '\n');
		const j3d_tex1 *tx = m->tex1;
		if (mat->texture >= 0 && tx && (uint32_t)mat->texture < tx->count &&
		    tx->tex[mat->texture].ok && tx->tex[mat->texture].stem)
			nm_out_printf(o, "map_Kd %s/%s.png\n", tx->chunk->dir
				      ? nm_node_name(tx->chunk->dir) : "tex1",
				      tx->tex[mat->texture].stem);
	}
}

nm_status j3d_add_obj(nm_tree *t, nm_node *root, j3d_model *m)
{
	nm_out o;
	nm_out_init(&o);
	write_mtl(&o, m);
	nm_node *n = nm_text(t, root, "mesh.mtl", &o);
	nm_out_free(&o);
	if (!n)
		return NM_E_NOMEM;
	/* Size measured on first stat: the triangle count needs the display lists. */
	return nm_lazy(t, root, "mesh.obj", NM_SIZE_MEASURE, produce_obj, m, NULL) ? NM_OK
										   : NM_E_NOMEM;
}
