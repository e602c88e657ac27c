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
 * Size from counts: each shape is one group with one OBJ vertex per display-list
 * vertex of its triangle primitives, in list order, and its triangles. Both counts
 * come from the mount-time header walk (dl_count.c), so mesh.obj's size is exact at
 * mount and nothing is decoded before its first read. Welding equal vertices (same
 * matrix, position, normal and texcoord indices) would make a smaller file, but how
 * many are equal is only known after every vertex has been read, which is decoding.
 * A face's corners are the vertices its primitive drew, so faces, normals and texture
 * coordinates are the same as welded ones; only the sharing between faces is not
 * written. mesh.mtl comes from the material tables and is formatted at mount. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/obj.h"
#include "export/text.h"
#include "export/triangulate.h"
#include "formats/j3d/j3d.h"

#define NONE UINT32_MAX

/* What mount leaves for the producer: the groups (sizes) and the shape of each. */
struct j3d_mesh {
	nm_obj_model model;
	j3d_shape **shapes;
};
typedef struct j3d_mesh obj_file;

/* One production: the arrays and matrices every group reads. */
typedef struct obj_build {
	j3d_model *m;
	const obj_file *f;
	uint8_t *pos, *nrm, *clr, *tex[8]; /* loaded arrays (NULL when absent) */
	const j3d_varray *apos, *anrm, *aclr, *atex[8];
	float (*drw_mtx)[12];
	uint32_t ndrw;
} obj_build;

/* One group being filled: where its next vertex and triangle go. */
typedef struct obj_fill {
	const obj_build *b;
	const j3d_shape *s;
	const nm_obj_group *g;
	nm_obj_data *d;
	int pos_attr, nrm_attr, clr_attr;  /* index in the attribute list, -1 when absent */
	int tex_attr[8];
	uint64_t nverts, ntris;
	uint32_t *local;                   /* scratch: the primitive's vertex numbers */
	size_t caplocal;
} obj_fill;

static nm_status nomem(const j3d_model *m, nm_error *err)
{
	return nm_fail(err, NM_E_NOMEM, m->file, "mesh.obj", NM_NO_OFFSET, "out of memory");
}

static int find_attr(const j3d_shape *s, uint32_t a1, uint32_t a2)
{
	for (unsigned k = 0; k < s->nattrs; k++)
		if ((s->attrs[k].attr == a1 || s->attrs[k].attr == a2) &&
		    (s->attrs[k].type == J3D_IDX_8 || s->attrs[k].type == J3D_IDX_16))
			return (int)k;
	return -1;
}

static uint32_t attr_value(const j3d_shape *s, int k, const uint8_t *vert)
{
	return k < 0 ? NONE : j3d_dl_value(&s->attrs[k], vert);
}

static const j3d_varray *usable(const j3d_model *m, int slot, unsigned min_comps)
{
	if (!m->vtx1)
		return NULL;
	const j3d_varray *a = &m->vtx1->arrays[slot];
	return a->present && !a->problem && !a->color && a->ncomp >= min_comps ? a : NULL;
}

/* Colour 0 (VTX1 CLR0), as RGBA bytes. */
static const j3d_varray *color_array(const j3d_model *m)
{
	if (!m->vtx1)
		return NULL;
	const j3d_varray *a = &m->vtx1->arrays[J3D_CLR0];
	return a->present && !a->problem && a->color && a->fmt && a->stride ? a : NULL;
}

/* UV sets of a shape: TEX0..TEX7 up to the last one it has (a gap gives zeros). */
static unsigned uv_sets(const j3d_model *m, const j3d_shape *s)
{
	unsigned n = 0;
	for (unsigned k = 0; k < 8 && k < NM_MESH_MAX_UV; k++)
		if (usable(m, J3D_TEX0 + (int)k, 1) &&
		    find_attr(s, J3D_A_TEX0 + k, J3D_A_TEX0 + k) >= 0)
			n = k + 1;
	return n;
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

/* JOINTS_0/WEIGHTS_0 of a vertex (model.glb) from its DRW1 entry: a joint entry is that
 * joint at weight 1; an envelope is its EVP1 influences (glTF's one set holds four: an
 * envelope with more keeps its four heaviest, which no corpus envelope has; the writer
 * renormalises). Anything unresolved is joint 0 at weight 1, which at bind pose leaves
 * the vertex where it is, as mesh.obj does. */
static void skin_vertex(const j3d_model *m, uint16_t drw, uint16_t *j, float *w)
{
	memset(j, 0, NM_MESH_INFLUENCES * sizeof *j);
	memset(w, 0, NM_MESH_INFLUENCES * sizeof *w);
	w[0] = 1;
	if (!m->drw1 || drw >= m->drw1->count)
		return;
	uint16_t p = m->drw1->params[drw];
	uint32_t njoints = m->jnt1 ? m->jnt1->count : 0;
	if (m->drw1->kinds[drw] == 0) {
		j[0] = p < njoints ? p : 0;
		return;
	}
	const j3d_evp1 *e = m->evp1;
	if (m->drw1->kinds[drw] != 1 || !e || p >= e->count)
		return;
	w[0] = 0;
	for (uint32_t k = 0; k < e->counts[p]; k++) {
		uint32_t at = e->first[p] + k;
		if (e->joints[at] >= njoints || !(e->weights[at] > 0))
			continue;
		/* Into the slot of the lightest influence kept so far, if heavier. */
		int light = 0;
		for (int s = 1; s < NM_MESH_INFLUENCES; s++)
			if (w[s] < w[light])
				light = s;
		if (e->weights[at] > w[light]) {
			j[light] = e->joints[at];
			w[light] = e->weights[at];
		}
	}
}

/* OBJ vertex i of the group from display-list vertex vert of primitive p. */
static void put_vertex(obj_fill *f, uint64_t i, const j3d_prim *pr, const uint8_t *vert)
{
	const obj_build *b = f->b;
	uint16_t drw = j3d_mtx_resolve(f->s, pr, vert);
	const float *mx = bind_matrix(b, drw);
	if (f->d->joints)
		skin_vertex(b->m, drw, f->d->joints + NM_MESH_INFLUENCES * i,
			    f->d->weights + NM_MESH_INFLUENCES * i);
	float p[3];
	element(b->apos, b->pos, attr_value(f->s, f->pos_attr, vert), p, 3);
	for (int r = 0; r < 3; r++)
		f->d->positions[3 * i + r] = mx[4 * r] * p[0] + mx[4 * r + 1] * p[1] +
					     mx[4 * r + 2] * p[2] + mx[4 * r + 3];
	if (f->d->normals) {
		float nv[3], t[3];
		element(b->anrm, b->nrm, attr_value(f->s, f->nrm_attr, vert), nv, 3);
		for (int r = 0; r < 3; r++)
			t[r] = mx[4 * r] * nv[0] + mx[4 * r + 1] * nv[1] + mx[4 * r + 2] * nv[2];
		float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
		for (int r = 0; r < 3; r++)
			f->d->normals[3 * i + r] = len > 0 ? t[r] / len : 0.0f;
	}
	for (int k = 0; k < NM_MESH_MAX_UV; k++) {
		if (!f->d->texcoords[k])
			continue;
		float st[2];
		element(b->atex[k], b->tex[k], attr_value(f->s, f->tex_attr[k], vert), st, 2);
		if (b->atex[k] && b->atex[k]->ncomp < 2)
			st[1] = 0.0f;
		f->d->texcoords[k][2 * i] = st[0];
		f->d->texcoords[k][2 * i + 1] = 1.0f - st[1];
	}
	if (f->d->colors) {
		/* White where the shape has no colour index or it is past the array. */
		uint8_t rgba[4] = { 255, 255, 255, 255 };
		uint32_t ci = attr_value(f->s, f->clr_attr, vert);
		if (b->aclr && b->clr && ci != NONE && ci < b->aclr->count)
			j3d_vtx_color(b->aclr, b->clr, ci, rgba);
		for (int c = 0; c < 4; c++)
			f->d->colors[4 * i + c] = rgba[c] / 255.0f;
	}
}

static nm_status changed(const obj_fill *f, nm_error *err)
{
	return nm_fail(err, NM_E_IO, f->b->m->file, "mesh.obj", NM_NO_OFFSET,
		       "shape %u: the display lists changed since mount", f->s->index);
}

static nm_status add_prim(void *ctx, const j3d_prim *p, nm_error *err)
{
	obj_fill *f = ctx;
	if (j3d_prim_class(p->op) != J3D_PC_TRIANGLES)
		return NM_OK;
	uint64_t n = j3d_prim_count(p->op, p->nverts);
	/* The mount-time counts sized the arrays; never write past them. */
	if (p->nverts > f->g->nverts - f->nverts || n > f->g->ntris - f->ntris)
		return changed(f, err);
	if (p->nverts > f->caplocal) {
		uint32_t *l = realloc(f->local, (size_t)p->nverts * sizeof *l);
		if (!l)
			return nomem(f->b->m, err);
		f->local = l;
		f->caplocal = p->nverts;
	}
	for (uint32_t i = 0; i < p->nverts; i++) {
		f->local[i] = (uint32_t)(f->nverts + i);
		put_vertex(f, f->nverts + i, p, p->verts + (size_t)i * f->s->vsize);
	}
	/* Triangulate the group's vertex numbers (never repeated, so no triangle is
	 * dropped as degenerate), then reverse each one. */
	uint32_t *t = &f->d->tris[3 * f->ntris];
	nm_triangulate(j3d_prim_kind(p->op), f->local, p->nverts, t);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t c = t[3 * i + 1];
		t[3 * i + 1] = t[3 * i + 2];
		t[3 * i + 2] = c;
	}
	f->nverts += p->nverts;
	f->ntris += n;
	return NM_OK;
}

static nm_status fill_group(obj_fill *f, nm_error *err)
{
	const obj_build *b = f->b;
	const j3d_shape *s = f->s;
	/* OBJ groups index their vertices with 32 bits; a list of vertices without
	 * attributes (0 bytes each) can count more. */
	if (f->g->nverts >= UINT32_MAX)
		return nm_fail(err, NM_E_LIMIT, b->m->file, "mesh.obj", NM_NO_OFFSET,
			       "shape %u: %llu vertices are too many for one OBJ group", s->index,
			       (unsigned long long)f->g->nverts);
	nm_status st = j3d_shape_walk(b->m, s, add_prim, f, err);
	if (st != NM_OK)
		return st;
	return f->nverts == f->g->nverts && f->ntris == f->g->ntris ? NM_OK : changed(f, err);
}

static nm_status load_group(void *ctx, size_t g, nm_obj_data *d, nm_error *err)
{
	const obj_build *b = ctx;
	const j3d_shape *s = b->f->shapes[g];
	obj_fill f = { .b = b, .s = s, .g = &b->f->model.groups[g], .d = d,
		       .pos_attr = find_attr(s, J3D_A_POS, J3D_A_POS),
		       .nrm_attr = find_attr(s, J3D_A_NRM, J3D_A_NBT),
		       .clr_attr = find_attr(s, J3D_A_CLR0, J3D_A_CLR0) };
	for (unsigned k = 0; k < 8; k++)
		f.tex_attr[k] = find_attr(s, J3D_A_TEX0 + k, J3D_A_TEX0 + k);
	nm_status st = fill_group(&f, err);
	free(f.local);
	return st;
}

static nm_status load_array(j3d_model *m, const j3d_varray *a, uint8_t **out, nm_error *err)
{
	*out = NULL;
	return a ? j3d_vtx_load(m, a, out, err) : NM_OK;
}

/* Loads what every group reads (the arrays and the bind matrices); j3d_obj_end frees
 * it, also after a failure. */
static nm_status j3d_obj_begin(j3d_model *m, const obj_file *file, obj_build *b,
			       nm_error *err)
{
	*b = (obj_build){ .m = m, .f = file, .apos = usable(m, J3D_POS, 2),
			  .anrm = usable(m, J3D_NRM, 3), .aclr = color_array(m) };
	for (int k = 0; k < NM_MESH_MAX_UV; k++)
		b->atex[k] = usable(m, J3D_TEX0 + k, 1);
	b->drw_mtx = bind_matrices(m);
	b->ndrw = m->drw1 ? m->drw1->count : 0;
	if (!b->drw_mtx)
		return nomem(m, err);
	nm_status st;
	if ((st = load_array(m, b->apos, &b->pos, err)) != NM_OK ||
	    (st = load_array(m, b->anrm, &b->nrm, err)) != NM_OK ||
	    (st = load_array(m, b->aclr, &b->clr, err)) != NM_OK)
		return st;
	for (int k = 0; k < NM_MESH_MAX_UV; k++)
		if ((st = load_array(m, b->atex[k], &b->tex[k], err)) != NM_OK)
			return st;
	return NM_OK;
}

static void j3d_obj_end(obj_build *b)
{
	free(b->drw_mtx);
	free(b->pos);
	free(b->nrm);
	free(b->clr);
	for (int k = 0; k < 8; k++)
		free(b->tex[k]);
}

nm_status j3d_with_mesh(j3d_model *m, j3d_mesh_writer fn, const void *arg, nm_out *o,
			nm_error *err)
{
	const obj_file *file = m->mesh;
	obj_build b;
	nm_status st = j3d_obj_begin(m, file, &b, err);
	if (st == NM_OK) {
		nm_obj_model model = file->model;
		model.ctx = &b;
		st = fn(&model, arg, o, err);
	}
	j3d_obj_end(&b);
	return st;
}

static nm_status write_obj(const nm_obj_model *mesh, const void *arg, nm_out *o,
			   nm_error *err)
{
	(void)arg;
	return nm_obj_write(mesh, o, err);
}

static nm_status produce_obj(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)arg;
	return j3d_with_mesh(ctx, write_obj, NULL, o, err);
}

/* arg: the range, [0] its offset and [1] its length. */
static nm_status write_obj_range(const nm_obj_model *mesh, const void *arg, nm_out *o,
				 nm_error *err)
{
	const uint64_t *r = arg;
	return nm_obj_write_range(mesh, r[0], (size_t)r[1], o, err);
}

static nm_status produce_obj_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
				   nm_error *err)
{
	(void)arg;
	const uint64_t r[2] = { off, len };
	return j3d_with_mesh(ctx, write_obj_range, r, o, err);
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

/* The groups of mesh.obj, from the tables and the mount-time counts. */
static obj_file *obj_groups(nm_tree *t, j3d_model *m)
{
	size_t ns = m->shp1 ? m->shp1->count : 0, ng = 0;
	obj_file *f = nm_tree_alloc(t, sizeof *f);
	nm_obj_group *groups = nm_tree_alloc(t, (ns + 1) * sizeof *groups);
	j3d_shape **shapes = nm_tree_alloc(t, (ns + 1) * sizeof *shapes);
	if (!f || !groups || !shapes)
		return NULL;
	const j3d_varray *anrm = usable(m, J3D_NRM, 3), *aclr = color_array(m);
	uint64_t tris = 0;
	for (size_t i = 0; i < ns; i++) {
		j3d_shape *s = &m->shp1->shapes[i];
		if (!s->ok)
			continue;   /* a shape that cannot be walked is left out (its directory says why) */
		nm_obj_group *g = &groups[ng];
		g->name = nm_tree_printf(t, "shape%zu", i);
		if (!g->name)
			return NULL;
		g->object = g->name;
		if (s->material >= 0 && m->mat3 && (uint32_t)s->material < m->mat3->count) {
			/* vt: the UV set the material's texture is read through. */
			g->obj_uv = m->mat3->mats[s->material].texture_uv;
			char *mat = mtl_name(m, s->material);
			g->material = mat ? nm_tree_printf(t, "%s", mat) : NULL;
			free(mat);
			if (!g->material)
				return NULL;
		}
		g->nverts = s->tri_verts;
		g->has_normals = anrm && find_attr(s, J3D_A_NRM, J3D_A_NBT) >= 0;
		g->nuvs = uv_sets(m, s);
		g->has_colors = aclr && find_attr(s, J3D_A_CLR0, J3D_A_CLR0) >= 0;
		g->has_skin = m->jnt1 && m->jnt1->count > 0;
		g->ntris = s->count[J3D_PC_TRIANGLES];
		tris += g->ntris;
		shapes[ng++] = s;
	}
	const char *comment = nm_tree_printf(t, "J3D %s via nmodelfs: %zu shapes, %llu triangles%s",
					     m->type, ng, (unsigned long long)tris, ng < ns
					     ? " (shapes that could not be decoded are left out)" : "");
	if (!comment)
		return NULL;
	f->model = (nm_obj_model){ .mtllib = "mesh.mtl", .comment = comment, .groups = groups,
				   .ngroups = ng, .load = load_group };
	f->shapes = shapes;
	return f;
}

const nm_obj_model *j3d_mesh_groups(const j3d_model *m)
{
	return m->mesh ? &m->mesh->model : NULL;
}

const j3d_shape *j3d_group_shape(const j3d_model *m, size_t k)
{
	return m->mesh->shapes[k];
}

nm_status j3d_add_obj(nm_tree *t, nm_node *root, j3d_model *m)
{
	nm_out o;
	nm_out_init(&o);
	write_mtl(&o, m);
	nm_node *n = nm_text(t, root, "mesh.mtl", &o);
	nm_out_free(&o);
	obj_file *f = n ? obj_groups(t, m) : NULL;
	if (!f)
		return NM_E_NOMEM;
	m->mesh = f;
	if (nm_tree_split_producer(t, produce_obj, produce_obj_range) != NM_OK)
		return NM_E_NOMEM;
	return nm_lazy(t, root, "mesh.obj", nm_obj_size(&f->model), produce_obj, m, NULL)
	       ? NM_OK : NM_E_NOMEM;
}
