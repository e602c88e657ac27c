#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/gltf.h"
#include "lib/alloc.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define CHUNK_JSON 0x4E4F534Au     /* "JSON" */
#define CHUNK_BIN 0x004E4942u      /* "BIN\0" */
#define FLOAT 5126
#define UINT 5125
#define USHORT 5123
#define ARRAY_BUFFER 34962
#define ELEMENT_ARRAY_BUFFER 34963
#define NUM_WIDTH 23               /* "%+.16e" of a float's double: sign, 17 digits, e±XX */
#define MINMAX_LEN (2 * (2 + 3 * NUM_WIDTH + 2) + 7) /* [a,b,c],"max":[d,e,f] */

/* Where each group's data goes: accessor numbers (bufferView k is accessor k) and
 * BIN offsets, all from counts. */
typedef struct gplan {
	bool own, draws;           /* writes vertices / a primitive */
	bool used;                 /* some group draws with its vertices */
	unsigned nuv;              /* UV sets written (enough for its materials) */
	bool skin;
	size_t owner;              /* the group whose vertices it uses */
	size_t acc;                /* its first vertex accessor (own), POSITION */
	size_t idx_acc;            /* its indices accessor (draws) */
	int mesh;                  /* glTF mesh of an owner, -1 */
} gplan;

typedef struct plan {
	gplan *g;
	size_t naccessors, nmeshes, ibm_acc;
	bool skinned;              /* some mesh carries JOINTS_0 and the model has joints */
	size_t *image_of;          /* driver image -> glTF image, SIZE_MAX when unused */
	/* The hierarchy as written: a joint's parent (-1: a root; a joint in a loop of
	 * parents is a root), and each joint's children as lists in index order. */
	int32_t *parent, *first_child, *next_sibling;
	/* glTF wants a skin's joints under one common root: with several root joints, one
	 * more node ("skeleton", node njoints) holds them. */
	bool extra_root;
	size_t nused_images;
	uint64_t bin_len;
} plan;

/* Accessors of an owner group, in order: POSITION, NORMAL?, TEXCOORD_0..nuv-1, COLOR_0?,
 * JOINTS_0?, WEIGHTS_0?. */
static size_t vertex_accessors(const nm_obj_group *g, const gplan *p)
{
	return 1 + g->has_normals + p->nuv + g->has_colors + 2 * p->skin;
}

static bool material_ok(const nm_gltf_model *m, size_t group)
{
	return m->group_material && m->group_material[group] >= 0 &&
	       (size_t)m->group_material[group] < m->nmaterials;
}

static const nm_gltf_material *material_of(const nm_gltf_model *m, size_t group)
{
	return material_ok(m, group) ? &m->materials[m->group_material[group]] : NULL;
}

static bool image_ok(const nm_gltf_model *m, const nm_gltf_material *mat)
{
	return mat && mat->image >= 0 && (size_t)mat->image < m->nimages &&
	       m->images[mat->image].size > 0;
}

static void plan_free(plan *p)
{
	free(p->g);
	free(p->image_of);
	free(p->parent);
	free(p->first_child);
	free(p->next_sibling);
}

/* Parents without loops, in one pass: walk up from each joint until a joint already
 * settled or one on the current walk (a loop: its members become roots). */
static void plan_hierarchy(const nm_gltf_model *m, plan *p, uint8_t *state)
{
	size_t n = m->njoints;
	for (size_t j = 0; j < n; j++) {
		int32_t par = m->joints[j].parent;
		p->parent[j] = par >= 0 && (size_t)par < n && (size_t)par != j ? par : -1;
		p->first_child[j] = p->next_sibling[j] = -1;
	}
	for (size_t j = 0; j < n; j++) {
		size_t b = j;
		/* state: 0 new, 1 on this walk, 2 settled */
		while (state[b] == 0) {
			state[b] = 1;
			if (p->parent[b] < 0)
				break;
			size_t up = (size_t)p->parent[b];
			if (state[up] == 1) {
				/* A loop from up to b: every member becomes a root. */
				for (size_t c = up; p->parent[c] >= 0 && state[c] == 1;) {
					size_t next = (size_t)p->parent[c];
					p->parent[c] = -1;
					state[c] = 2;
					c = next;
				}
				break;
			}
			b = up;
		}
		for (b = j; state[b] == 1; b = (size_t)p->parent[b]) {
			state[b] = 2;
			if (p->parent[b] < 0)
				break;
		}
	}
	size_t roots = 0;
	for (size_t j = n; j-- > 0;)
		if (p->parent[j] >= 0) {
			p->next_sibling[j] = p->first_child[p->parent[j]];
			p->first_child[p->parent[j]] = (int32_t)j;
		} else {
			roots++;
		}
	p->extra_root = roots > 1;
}

static nm_status make_plan(const nm_gltf_model *m, const nm_options *opt, plan *p,
			   nm_error *err)
{
	const nm_obj_model *om = m->mesh;
	memset(p, 0, sizeof *p);
	p->g = nm_alloc(opt, om->ngroups + 1, sizeof *p->g, err, "model.glb", "groups",
			NM_NO_OFFSET);
	p->image_of = p->g ? nm_alloc(opt, m->nimages + 1, sizeof *p->image_of, err,
				      "model.glb", "images", NM_NO_OFFSET) : NULL;
	size_t nj = m->njoints + 1;
	uint8_t *state = NULL;
	if (p->image_of &&
	    (!(p->parent = nm_alloc(opt, nj, sizeof *p->parent, err, "model.glb", "joints",
				    NM_NO_OFFSET)) ||
	     !(p->first_child = nm_alloc(opt, nj, sizeof *p->first_child, err, "model.glb",
					 "joints", NM_NO_OFFSET)) ||
	     !(p->next_sibling = nm_alloc(opt, nj, sizeof *p->next_sibling, err, "model.glb",
					  "joints", NM_NO_OFFSET)) ||
	     !(state = nm_alloc(opt, nj, 1, err, "model.glb", "joints", NM_NO_OFFSET)))) {
		plan_free(p);
		return err->code;
	}
	if (!p->g || !p->image_of) {
		plan_free(p);
		return err->code;
	}
	plan_hierarchy(m, p, state);
	free(state);
	size_t owner = SIZE_MAX;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		gplan *q = &p->g[i];
		if (!g->reuse_vertices)
			owner = i;
		q->owner = owner;
		q->mesh = -1;
		q->own = !g->reuse_vertices && g->nverts > 0 && g->nverts < UINT32_MAX;
		q->draws = owner != SIZE_MAX && p->g[owner].own && g->ntris > 0;
		/* A mesh has at least one primitive: vertices only some group draws. */
		if (q->draws)
			p->g[owner].used = true;
		/* Enough UV sets for the texture of every material drawn with these vertices. */
		const nm_gltf_material *mat = material_of(m, i);
		if (q->draws && image_ok(m, mat)) {
			unsigned need = (mat->uv < NM_MESH_MAX_UV ? mat->uv : 0) + 1;
			if (p->g[owner].nuv < need)
				p->g[owner].nuv = need;
		}
		if (q->own) {
			q->nuv = g->nuvs > q->nuv ? g->nuvs : q->nuv;
			q->skin = g->has_skin && m->njoints > 0 && m->njoints <= UINT16_MAX;
			p->skinned |= q->skin;
		}
	}
	/* Accessors and BIN offsets in the order the writer writes them: per group, its
	 * vertices (an owner), then its indices. */
	uint64_t bin = 0;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		gplan *q = &p->g[i];
		q->own &= q->used;
		if (q->own) {
			q->acc = p->naccessors;
			q->mesh = (int)p->nmeshes++;
			p->naccessors += vertex_accessors(g, q);
			bin += g->nverts * (12 + 12 * g->has_normals + 8 * (uint64_t)q->nuv +
					    16 * g->has_colors + (8 + 16) * q->skin);
		}
		if (q->draws) {
			q->idx_acc = p->naccessors++;
			bin += g->ntris * 12;
		}
	}
	p->ibm_acc = p->naccessors;
	if (p->skinned) {
		p->naccessors++;
		bin += 64 * (uint64_t)m->njoints;
	}
	for (size_t k = 0; k < m->nimages; k++)
		p->image_of[k] = SIZE_MAX;
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_gltf_material *mat = material_of(m, i);
		if (p->g[i].draws && image_ok(m, mat) && p->image_of[mat->image] == SIZE_MAX)
			p->image_of[mat->image] = p->nused_images++;
	}
	for (size_t k = 0; k < m->nimages; k++)
		if (p->image_of[k] != SIZE_MAX)
			bin += (m->images[k].size + 3) & ~(uint64_t)3;
	p->bin_len = bin;
	return NM_OK;
}

/* ---- JSON ---------------------------------------------------------------------- */

/* A name as a JSON string of printable ASCII: quotes and backslashes escaped, any
 * other byte (control, or not ASCII, which need not be UTF-8) as '_'. */
static void json_name(nm_out *o, const char *s)
{
	nm_out_char(o, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			nm_out_char(o, '\\');
		nm_out_char(o, c >= 0x20 && c < 0x7F ? (char)c : '_');
	}
	nm_out_char(o, '"');
}

/* A number known at mount (a material colour, a joint's TRS): any width will do, as
 * long as it is the same on every run; not finite becomes fallback. */
static void json_float(nm_out *o, float f, float fallback)
{
	nm_out_printf(o, "%.9g", isfinite(f) ? (double)f : (double)fallback);
}

static void json_floats(nm_out *o, const float *f, int n, float fallback)
{
	nm_out_char(o, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			nm_out_char(o, ',');
		json_float(o, f[i], fallback);
	}
	nm_out_char(o, ']');
}

/* "[a,b,c],"max":[d,e,f]": MINMAX_LEN bytes, each number NUM_WIDTH wide. */
static void minmax_text(char *buf, const float mn[3], const float mx[3])
{
	char *q = buf;
	for (int k = 0; k < 2; k++) {
		const float *v = k ? mx : mn;
		if (k)
			q += sprintf(q, ",\"max\":");
		*q++ = '[';
		for (int i = 0; i < 3; i++) {
			char num[40];
			snprintf(num, sizeof num, "%+.16e", (double)v[i]);
			num[0] = num[0] == '+' ? ' ' : num[0];
			memcpy(q, num, NUM_WIDTH);
			q += NUM_WIDTH;
			if (i < 2)
				*q++ = ',';
		}
		*q++ = ']';
	}
}

static void accessor(nm_out *o, bool *first, size_t view, int ctype, uint64_t count,
		     const char *type)
{
	nm_out_printf(o, "%s{\"bufferView\":%zu,\"componentType\":%d,\"count\":%llu,"
		      "\"type\":\"%s\"", *first ? "" : ",", view, ctype,
		      (unsigned long long)count, type);
	*first = false;
}

static void view(nm_out *o, bool *first, uint64_t *off, uint64_t len, int target)
{
	nm_out_printf(o, "%s{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu",
		      *first ? "" : ",", (unsigned long long)*off, (unsigned long long)len);
	if (target)
		nm_out_printf(o, ",\"target\":%d", target);
	nm_out_char(o, '}');
	*off += len;
	*first = false;
}

static void json_accessors(nm_out *o, const nm_gltf_model *m, const plan *p,
			   uint64_t *minmax_at)
{
	const nm_obj_model *om = m->mesh;
	bool first = true;
	size_t v = 0;
	nm_out_str(o, ",\"accessors\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const gplan *q = &p->g[i];
		if (q->draws && !q->own) {
			accessor(o, &first, v++, UINT, g->ntris * 3, "SCALAR");
			nm_out_char(o, '}');
		}
		if (!q->own)
			continue;
		accessor(o, &first, v++, FLOAT, g->nverts, "VEC3");
		nm_out_str(o, ",\"min\":");
		if (minmax_at)
			minmax_at[i] = o->len;
		char buf[MINMAX_LEN + 1];
		minmax_text(buf, (const float[3]){ 0, 0, 0 }, (const float[3]){ 0, 0, 0 });
		nm_out_write(o, buf, MINMAX_LEN);
		nm_out_char(o, '}');
		if (g->has_normals) {
			accessor(o, &first, v++, FLOAT, g->nverts, "VEC3");
			nm_out_char(o, '}');
		}
		for (unsigned k = 0; k < q->nuv; k++) {
			accessor(o, &first, v++, FLOAT, g->nverts, "VEC2");
			nm_out_char(o, '}');
		}
		if (g->has_colors) {
			accessor(o, &first, v++, FLOAT, g->nverts, "VEC4");
			nm_out_char(o, '}');
		}
		if (q->skin) {
			accessor(o, &first, v++, USHORT, g->nverts, "VEC4");
			nm_out_char(o, '}');
			accessor(o, &first, v++, FLOAT, g->nverts, "VEC4");
			nm_out_char(o, '}');
		}
		if (q->draws) {
			accessor(o, &first, v++, UINT, g->ntris * 3, "SCALAR");
			nm_out_char(o, '}');
		}
	}
	if (p->skinned) {
		accessor(o, &first, v++, FLOAT, m->njoints, "MAT4");
		nm_out_char(o, '}');
	}
	nm_out_char(o, ']');
}

static void json_views(nm_out *o, const nm_gltf_model *m, const plan *p)
{
	const nm_obj_model *om = m->mesh;
	bool first = true;
	uint64_t off = 0;
	nm_out_str(o, ",\"bufferViews\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const gplan *q = &p->g[i];
		if (q->draws && !q->own)
			view(o, &first, &off, g->ntris * 12, ELEMENT_ARRAY_BUFFER);
		if (!q->own)
			continue;
		view(o, &first, &off, g->nverts * 12, ARRAY_BUFFER);
		if (g->has_normals)
			view(o, &first, &off, g->nverts * 12, ARRAY_BUFFER);
		for (unsigned k = 0; k < q->nuv; k++)
			view(o, &first, &off, g->nverts * 8, ARRAY_BUFFER);
		if (g->has_colors)
			view(o, &first, &off, g->nverts * 16, ARRAY_BUFFER);
		if (q->skin) {
			view(o, &first, &off, g->nverts * 8, ARRAY_BUFFER);
			view(o, &first, &off, g->nverts * 16, ARRAY_BUFFER);
		}
		if (q->draws)
			view(o, &first, &off, g->ntris * 12, ELEMENT_ARRAY_BUFFER);
	}
	if (p->skinned)
		view(o, &first, &off, 64 * (uint64_t)m->njoints, 0);
	for (size_t k = 0; k < m->nimages; k++)
		if (p->image_of[k] != SIZE_MAX) {
			view(o, &first, &off, m->images[k].size, 0);
			off = (off + 3) & ~(uint64_t)3;
		}
	nm_out_char(o, ']');
}

static void json_meshes(nm_out *o, const nm_gltf_model *m, const plan *p)
{
	const nm_obj_model *om = m->mesh;
	nm_out_str(o, ",\"meshes\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const gplan *q = &p->g[i];
		if (!q->own)
			continue;
		nm_out_printf(o, "%s{\"name\":", q->mesh ? "," : "");
		json_name(o, g->object ? g->object : g->name);
		nm_out_str(o, ",\"primitives\":[");
		bool first = true;
		for (size_t j = i; j < om->ngroups && p->g[j].owner == i; j++) {
			if (!p->g[j].draws)
				continue;
			size_t a = q->acc;
			nm_out_printf(o, "%s{\"attributes\":{\"POSITION\":%zu", first ? "" : ",", a++);
			if (g->has_normals)
				nm_out_printf(o, ",\"NORMAL\":%zu", a++);
			for (unsigned k = 0; k < q->nuv; k++)
				nm_out_printf(o, ",\"TEXCOORD_%u\":%zu", k, a++);
			if (g->has_colors)
				nm_out_printf(o, ",\"COLOR_0\":%zu", a++);
			if (q->skin) {
				nm_out_printf(o, ",\"JOINTS_0\":%zu", a++);
				nm_out_printf(o, ",\"WEIGHTS_0\":%zu", a++);
			}
			nm_out_printf(o, "},\"indices\":%zu", p->g[j].idx_acc);
			if (material_ok(m, j))
				nm_out_printf(o, ",\"material\":%d", m->group_material[j]);
			nm_out_char(o, '}');
			first = false;
		}
		nm_out_str(o, "]}");
	}
	nm_out_char(o, ']');
}

/* A material's texture number: one texture (and sampler) per material with an image,
 * in material order. */
static void json_materials(nm_out *o, const nm_gltf_model *m, const plan *p)
{
	static const char *const modes[] = { "OPAQUE", "MASK", "BLEND" };
	size_t ntex = 0;
	nm_out_str(o, ",\"materials\":[");
	for (size_t i = 0; i < m->nmaterials; i++) {
		const nm_gltf_material *mat = &m->materials[i];
		float c[4];
		for (int k = 0; k < 4; k++)
			c[k] = !(mat->color[k] >= 0) ? 0 : mat->color[k] > 1 ? 1 : mat->color[k];
		nm_out_printf(o, "%s{\"name\":", i ? "," : "");
		json_name(o, mat->name);
		nm_out_str(o, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":");
		json_floats(o, c, 4, 1);
		nm_out_str(o, ",\"metallicFactor\":0,\"roughnessFactor\":1");
		if (image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX)
			nm_out_printf(o, ",\"baseColorTexture\":{\"index\":%zu,\"texCoord\":%u}",
				      ntex++, mat->uv < NM_MESH_MAX_UV ? mat->uv : 0);
		nm_out_char(o, '}');
		if (mat->alpha != NM_GLTF_OPAQUE)
			nm_out_printf(o, ",\"alphaMode\":\"%s\"", modes[mat->alpha]);
		if (mat->alpha == NM_GLTF_MASK) {
			nm_out_str(o, ",\"alphaCutoff\":");
			json_float(o, mat->alpha_cutoff < 0 ? 0 : mat->alpha_cutoff, 0.5f);
		}
		if (mat->double_sided)
			nm_out_str(o, ",\"doubleSided\":true");
		nm_out_char(o, '}');
	}
	nm_out_char(o, ']');
	if (!ntex)
		return;
	nm_out_str(o, ",\"textures\":[");
	size_t t = 0;
	for (size_t i = 0; i < m->nmaterials; i++) {
		const nm_gltf_material *mat = &m->materials[i];
		if (image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX) {
			nm_out_printf(o, "%s{\"sampler\":%zu,\"source\":%zu}", t ? "," : "", t,
				      p->image_of[mat->image]);
			t++;
		}
	}
	nm_out_str(o, "],\"samplers\":[");
	t = 0;
	for (size_t i = 0; i < m->nmaterials; i++) {
		const nm_gltf_material *mat = &m->materials[i];
		if (image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX)
			nm_out_printf(o, "%s{\"magFilter\":9729,\"minFilter\":9729,\"wrapS\":%d,"
				      "\"wrapT\":%d}", t++ ? "," : "", mat->wrap_s, mat->wrap_t);
	}
	nm_out_str(o, "],\"images\":[");
	/* bufferViews of the images follow the accessors' one each, in image order. */
	size_t k = 0, n = 0;
	for (size_t i = 0; i < m->nimages; i++)
		if (p->image_of[i] != SIZE_MAX)
			nm_out_printf(o, "%s{\"bufferView\":%zu,\"mimeType\":\"image/png\"}",
				      n++ ? "," : "", p->naccessors + k++);
	nm_out_char(o, ']');
}

static void json_nodes(nm_out *o, const nm_gltf_model *m, const plan *p)
{
	nm_out_str(o, ",\"nodes\":[");
	for (size_t j = 0; j < m->njoints; j++) {
		const nm_gltf_joint *jt = &m->joints[j];
		nm_out_printf(o, "%s{\"name\":", j ? "," : "");
		json_name(o, jt->name);
		nm_out_str(o, ",\"translation\":");
		json_floats(o, jt->t, 3, 0);
		nm_out_str(o, ",\"rotation\":");
		/* A quaternion that is not finite: none. */
		bool finite = isfinite(jt->r[0]) && isfinite(jt->r[1]) && isfinite(jt->r[2]) &&
			      isfinite(jt->r[3]);
		json_floats(o, finite ? jt->r : (const float[4]){ 0, 0, 0, 1 }, 4, 0);
		nm_out_str(o, ",\"scale\":");
		json_floats(o, jt->s, 3, 1);
		bool first = true;
		for (int32_t c = p->first_child[j]; c >= 0; c = p->next_sibling[c]) {
			nm_out_printf(o, "%s%d", first ? ",\"children\":[" : ",", c);
			first = false;
		}
		nm_out_str(o, first ? "}" : "]}");
	}
	size_t first_mesh = m->njoints + p->extra_root;
	if (p->extra_root) {
		nm_out_str(o, ",{\"name\":\"skeleton\",\"children\":[");
		bool first = true;
		for (size_t j = 0; j < m->njoints; j++)
			if (p->parent[j] < 0) {
				nm_out_printf(o, "%s%zu", first ? "" : ",", j);
				first = false;
			}
		nm_out_str(o, "]}");
	}
	for (size_t i = 0, n = 0; i < m->mesh->ngroups; i++) {
		const gplan *q = &p->g[i];
		if (!q->own)
			continue;
		nm_out_printf(o, "%s{\"name\":", m->njoints || n ? "," : "");
		json_name(o, m->mesh->groups[i].object ? m->mesh->groups[i].object
						       : m->mesh->groups[i].name);
		nm_out_printf(o, ",\"mesh\":%d", q->mesh);
		if (q->skin)
			nm_out_str(o, ",\"skin\":0");
		nm_out_char(o, '}');
		n++;
	}
	nm_out_str(o, "],\"scenes\":[{\"nodes\":[");
	bool first = true;
	if (p->extra_root) {
		nm_out_printf(o, "%zu", m->njoints);
		first = false;
	}
	for (size_t j = 0; j < m->njoints && !p->extra_root; j++)
		if (p->parent[j] < 0) {
			nm_out_printf(o, "%s%zu", first ? "" : ",", j);
			first = false;
		}
	for (size_t i = 0, n = 0; i < m->mesh->ngroups; i++)
		if (p->g[i].own) {
			nm_out_printf(o, "%s%zu", first ? "" : ",", first_mesh + n++);
			first = false;
		}
	nm_out_str(o, "]}],\"scene\":0");
	if (!p->skinned)
		return;
	nm_out_str(o, ",\"skins\":[{\"joints\":[");
	for (size_t j = 0; j < m->njoints; j++)
		nm_out_printf(o, "%s%zu", j ? "," : "", j);
	nm_out_printf(o, "],\"inverseBindMatrices\":%zu}]", p->ibm_acc);
}

/* The JSON; minmax_at (one per group, or NULL) gets where each POSITION's min/max text
 * starts in o. */
static void json(nm_out *o, const nm_gltf_model *m, const plan *p, uint64_t *minmax_at)
{
	nm_out_str(o, "{\"asset\":{\"version\":\"2.0\",\"generator\":");
	json_name(o, m->generator ? m->generator : "nmodelfs");
	nm_out_char(o, '}');
	bool nodes = m->njoints > 0 || p->nmeshes > 0;
	if (nodes)
		json_nodes(o, m, p);
	if (p->nmeshes)
		json_meshes(o, m, p);
	if (m->nmaterials)
		json_materials(o, m, p);
	if (p->naccessors) {
		json_accessors(o, m, p, minmax_at);
		json_views(o, m, p);
	}
	if (p->bin_len)
		nm_out_printf(o, ",\"buffers\":[{\"byteLength\":%llu}]",
			      (unsigned long long)p->bin_len);
	nm_out_char(o, '}');
}

static uint64_t total_size(uint64_t json_len, const plan *p)
{
	uint64_t n = 12 + 8 + ((json_len + 3) & ~(uint64_t)3);
	return p->bin_len ? n + 8 + p->bin_len : n;
}

uint64_t nm_gltf_size(const nm_gltf_model *m)
{
	plan p;
	nm_error err;
	if (make_plan(m, NULL, &p, &err) != NM_OK)
		return 0;
	nm_out o;
	nm_out_init(&o);
	json(&o, m, &p, NULL);
	uint64_t n = nm_out_status(&o) == NM_OK ? total_size(o.len, &p) : 0;
	nm_out_free(&o);
	plan_free(&p);
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

static void put_floats(nm_out *o, const float *f, uint64_t n)
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
static void mend(const nm_obj_group *g, nm_obj_data *d, unsigned nuv, size_t njoints,
		 float mn[3], float mx[3])
{
	for (uint64_t v = 0; v < g->nverts; v++) {
		float *p = d->positions + 3 * v;
		for (int c = 0; c < 3; c++) {
			p[c] = finite_or(p[c], 0);
			if (v == 0 || p[c] < mn[c])
				mn[c] = p[c];
			if (v == 0 || p[c] > mx[c])
				mx[c] = p[c];
		}
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
		for (unsigned k = 0; k < nuv; k++)
			for (int c = 0; c < 2; c++)
				d->texcoords[k][2 * v + c] = finite_or(d->texcoords[k][2 * v + c], 0);
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
static nm_status write_group(const nm_gltf_model *m, const plan *p, size_t i, nm_out *o,
			     float mn[3], float mx[3], nm_error *err)
{
	const nm_obj_group *g = &m->mesh->groups[i];
	const gplan *q = &p->g[i];
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
		put_floats(o, d.positions, g->nverts * 3);
		if (d.normals)
			put_floats(o, d.normals, g->nverts * 3);
		for (unsigned k = 0; k < q->nuv; k++)
			put_floats(o, d.texcoords[k], g->nverts * 2);
		if (d.colors)
			put_floats(o, d.colors, g->nverts * 4);
		if (q->skin) {
			for (uint64_t v = 0; v < g->nverts * NM_MESH_INFLUENCES; v++) {
				uint8_t b[2] = { (uint8_t)d.joints[v], (uint8_t)(d.joints[v] >> 8) };
				nm_out_write(o, b, 2);
			}
			put_floats(o, d.weights, g->nverts * NM_MESH_INFLUENCES);
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
		put_floats(o, f, 16);
	}
}

static nm_status write_images(const nm_gltf_model *m, const plan *p, nm_out *o,
			      nm_error *err)
{
	for (size_t k = 0; k < m->nimages; k++) {
		if (p->image_of[k] == SIZE_MAX)
			continue;
		const nm_png_source *img = &m->images[k];
		size_t before = o->len;
		nm_status s = img->produce(img->ctx, img->arg, o, err);
		if (s != NM_OK)
			return s;
		if (nm_out_status(o) == NM_OK && o->len - before != img->size)
			return nm_fail(err, NM_E_IO, "model.glb", "images", NM_NO_OFFSET,
				       "image %zu is %zu bytes, not the %llu announced", k,
				       o->len - before, (unsigned long long)img->size);
		static const uint8_t zero[3] = { 0, 0, 0 };
		nm_out_write(o, zero, (size_t)((4 - img->size % 4) % 4));
	}
	return NM_OK;
}

nm_status nm_gltf_write(const nm_gltf_model *m, nm_out *o, nm_error *err)
{
	plan p;
	nm_status s = make_plan(m, o->opt, &p, err);
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
		nm_out_expect(o, (size_t)size);
	/* Header and JSON chunk header, filled in once the JSON's length is known. */
	size_t start = o->len;
	static const uint8_t blank[20];
	nm_out_write(o, blank, sizeof blank);
	json(o, m, &p, minmax_at);
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
		if (p.g[i].own || p.g[i].draws)
			s = write_group(m, &p, i, o, bounds[i], bounds[i] + 3, err);
	if (s == NM_OK && p.skinned)
		write_ibm(m, o);
	if (s == NM_OK)
		s = write_images(m, &p, o, err);
	if (s == NM_OK)
		s = nm_out_status(o);
	if (s != NM_OK)
		goto out;
	/* Now that every vertex has been read: the header, and POSITION's bounds. */
	uint8_t *h = o->data + start;
	put32(h, GLB_MAGIC);
	put32(h + 4, 2);
	put32(h + 8, (uint32_t)(o->len - start));
	put32(h + 12, (uint32_t)json_len);
	put32(h + 16, CHUNK_JSON);
	for (size_t i = 0; i < m->mesh->ngroups; i++)
		if (p.g[i].own) {
			char buf[MINMAX_LEN + 1];
			minmax_text(buf, bounds[i], bounds[i] + 3);
			memcpy(o->data + minmax_at[i], buf, MINMAX_LEN);
		}
out:
	free(minmax_at);
	free(bounds);
	plan_free(&p);
	return s;
}

nm_status nm_gltf_produce(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	(void)arg;
	return nm_gltf_write(ctx, o, err);
}

nm_status nm_gltf_add(nm_tree *t, nm_node *dir, const nm_gltf_model *m, nm_produce_fn produce,
		      void *ctx)
{
	uint64_t size = nm_gltf_size(m);
	if (size > UINT32_MAX)
		return NM_OK;
	if (!produce) {
		produce = nm_gltf_produce;
		ctx = (void *)m;
	}
	return size && nm_lazy(t, dir, "model.glb", size, produce, ctx, (void *)m) ? NM_OK
										     : NM_E_NOMEM;
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
