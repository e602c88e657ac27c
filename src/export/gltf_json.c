/* model.glb's JSON chunk (gltf_plan.h): every number in it follows from the counts
 * and the mount-time records, except POSITION's bounds, which are fixed width. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "export/gltf_plan.h"

#define FLOAT 5126
#define UINT 5125
#define USHORT 5123
#define ARRAY_BUFFER 34962
#define ELEMENT_ARRAY_BUFFER 34963

/* A name as a JSON string of printable ASCII: quotes and backslashes escaped, any
 * other byte (control, or not ASCII, which need not be UTF-8) as '_'. */
static void json_name_with(nm_out *o, const char *s, const char *suffix)
{
	nm_out_char(o, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			nm_out_char(o, '\\');
		nm_out_char(o, c >= 0x20 && c < 0x7F ? (char)c : '_');
	}
	nm_out_str(o, suffix);
	nm_out_char(o, '"');
}

void nm_gltf_json_name(nm_out *o, const char *s)
{
	json_name_with(o, s, "");
}

/* A number known at mount (a material colour, a joint's TRS): any width will do, as
 * long as it is the same on every run; not finite becomes fallback. */
static void json_float(nm_out *o, float f, float fallback)
{
	nm_out_printf(o, "%.9g", isfinite(f) ? (double)f : (double)fallback);
}

void nm_gltf_json_floats(nm_out *o, const float *f, int n, float fallback)
{
	nm_out_char(o, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			nm_out_char(o, ',');
		json_float(o, f[i], fallback);
	}
	nm_out_char(o, ']');
}

/* "[a,b,c],"max":[d,e,f]": NM_GLTF_MINMAX_LEN bytes, each number NM_GLTF_NUM_WIDTH wide. */
void nm_gltf_minmax_text(char *buf, const float mn[3], const float mx[3])
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
			memcpy(q, num, NM_GLTF_NUM_WIDTH);
			q += NM_GLTF_NUM_WIDTH;
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

static void json_accessors(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p,
			   uint64_t *minmax_at)
{
	const nm_obj_model *om = m->mesh;
	bool first = true;
	size_t v = 0;
	nm_out_str(o, ",\"accessors\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const nm_gltf_group_plan *q = &p->g[i];
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
		char buf[NM_GLTF_MINMAX_LEN + 1];
		nm_gltf_minmax_text(buf, (const float[3]){ 0, 0, 0 }, (const float[3]){ 0, 0, 0 });
		nm_out_write(o, buf, NM_GLTF_MINMAX_LEN);
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
	nm_gltf_anim_accessors(o, m, p, &first);
	nm_out_char(o, ']');
}

static void json_views(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p)
{
	const nm_obj_model *om = m->mesh;
	bool first = true;
	uint64_t off = 0;
	nm_out_str(o, ",\"bufferViews\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const nm_gltf_group_plan *q = &p->g[i];
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
	nm_gltf_anim_views(o, m, p, &first, &off);
	nm_out_char(o, ']');
}

static void json_meshes(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p)
{
	const nm_obj_model *om = m->mesh;
	nm_out_str(o, ",\"meshes\":[");
	for (size_t i = 0; i < om->ngroups; i++) {
		const nm_obj_group *g = &om->groups[i];
		const nm_gltf_group_plan *q = &p->g[i];
		if (!q->own)
			continue;
		nm_out_printf(o, "%s{\"name\":", q->mesh ? "," : "");
		nm_gltf_json_name(o, g->object ? g->object : g->name);
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
			if (nm_gltf_material_ok(m, j))
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
static void json_materials(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p)
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
		nm_gltf_json_name(o, mat->name);
		nm_out_str(o, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":");
		nm_gltf_json_floats(o, c, 4, 1);
		nm_out_str(o, ",\"metallicFactor\":0,\"roughnessFactor\":1");
		if (nm_gltf_image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX) {
			nm_out_printf(o, ",\"baseColorTexture\":{\"index\":%zu,\"texCoord\":%u",
				      ntex++, mat->uv < NM_MESH_MAX_UV ? mat->uv : 0);
			/* Present (at its defaults) so that animations may point at it. */
			if (p->material_uv && p->material_uv[i])
				nm_out_str(o, ",\"extensions\":{\"KHR_texture_transform\":{}}");
			nm_out_char(o, '}');
		}
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
		if (nm_gltf_image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX) {
			nm_out_printf(o, "%s{\"sampler\":%zu,\"source\":%zu}", t ? "," : "", t,
				      p->image_of[mat->image]);
			t++;
		}
	}
	nm_out_str(o, "],\"samplers\":[");
	t = 0;
	for (size_t i = 0; i < m->nmaterials; i++) {
		const nm_gltf_material *mat = &m->materials[i];
		if (nm_gltf_image_ok(m, mat) && p->image_of[mat->image] != SIZE_MAX)
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

/* The node a joint hangs from its parent by: its helper, or itself. */
static size_t top_node(const nm_gltf_plan *p, size_t j)
{
	return p->helper_node[j] >= 0 ? (size_t)p->helper_node[j] : j;
}

/* ,"extensions":{"KHR_node_visibility":{"visible":true}} on a node that an animation
 * hides and shows (KHR_animation_pointer animates only a property the node has). */
static void node_end(nm_out *o, const nm_gltf_plan *p, size_t node)
{
	if (p->node_visibility && p->node_visibility[node])
		nm_out_str(o, ",\"extensions\":{\"KHR_node_visibility\":{\"visible\":true}}");
	nm_out_char(o, '}');
}

static void json_nodes(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p)
{
	nm_out_str(o, ",\"nodes\":[");
	for (size_t j = 0; j < m->njoints; j++) {
		const nm_gltf_joint *jt = &m->joints[j];
		nm_out_printf(o, "%s{\"name\":", j ? "," : "");
		nm_gltf_json_name(o, jt->name);
		nm_out_str(o, ",\"translation\":");
		nm_gltf_json_floats(o, jt->t, 3, 0);
		nm_out_str(o, ",\"rotation\":");
		/* A quaternion that is not finite: none. */
		bool finite = isfinite(jt->r[0]) && isfinite(jt->r[1]) && isfinite(jt->r[2]) &&
			      isfinite(jt->r[3]);
		nm_gltf_json_floats(o, finite ? jt->r : (const float[4]){ 0, 0, 0, 1 }, 4, 0);
		nm_out_str(o, ",\"scale\":");
		nm_gltf_json_floats(o, jt->s, 3, 1);
		bool first = true;
		for (int32_t c = p->first_child[j]; c >= 0; c = p->next_sibling[c]) {
			nm_out_printf(o, "%s%zu", first ? ",\"children\":[" : ",", top_node(p, c));
			first = false;
		}
		if (!first)
			nm_out_char(o, ']');
		node_end(o, p, j);
	}
	if (p->extra_root) {
		nm_out_str(o, ",{\"name\":\"skeleton\",\"children\":[");
		bool first = true;
		for (size_t j = 0; j < m->njoints; j++)
			if (p->parent[j] < 0) {
				nm_out_printf(o, "%s%zu", first ? "" : ",", top_node(p, j));
				first = false;
			}
		nm_out_char(o, ']');
		node_end(o, p, m->njoints);
	}
	for (size_t i = 0, n = 0; i < m->mesh->ngroups; i++) {
		const nm_gltf_group_plan *q = &p->g[i];
		if (!q->own)
			continue;
		nm_out_printf(o, "%s{\"name\":", m->njoints || n ? "," : "");
		nm_gltf_json_name(o, m->mesh->groups[i].object ? m->mesh->groups[i].object
							: m->mesh->groups[i].name);
		nm_out_printf(o, ",\"mesh\":%d", q->mesh);
		if (q->skin)
			nm_out_str(o, ",\"skin\":0");
		node_end(o, p, p->first_mesh_node + n);
		n++;
	}
	/* A helper: the joint's translation and the scale that undoes its parent's. */
	for (size_t j = 0; j < m->njoints; j++) {
		const nm_gltf_joint *jt = &m->joints[j];
		if (p->helper_node[j] < 0)
			continue;
		nm_out_str(o, ",{\"name\":");
		json_name_with(o, jt->name, "_helper");
		nm_out_str(o, ",\"translation\":");
		nm_gltf_json_floats(o, jt->helper_t, 3, 0);
		nm_out_str(o, ",\"scale\":");
		nm_gltf_json_floats(o, jt->helper_s, 3, 1);
		nm_out_printf(o, ",\"children\":[%zu]", j);
		node_end(o, p, (size_t)p->helper_node[j]);
	}
	nm_out_str(o, "],\"scenes\":[{\"nodes\":[");
	bool first = true;
	if (p->extra_root) {
		nm_out_printf(o, "%zu", m->njoints);
		first = false;
	}
	for (size_t j = 0; j < m->njoints && !p->extra_root; j++)
		if (p->parent[j] < 0) {
			nm_out_printf(o, "%s%zu", first ? "" : ",", top_node(p, j));
			first = false;
		}
	for (size_t i = 0, n = 0; i < m->mesh->ngroups; i++)
		if (p->g[i].own) {
			nm_out_printf(o, "%s%zu", first ? "" : ",", p->first_mesh_node + n++);
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

/* "extensionsUsed", when the animations use any (none of them is required: a viewer
 * without one still shows the model). */
static void json_extensions(nm_out *o, const nm_gltf_plan *p)
{
	static const char *const names[] = { "KHR_animation_pointer", "KHR_node_visibility",
					     "KHR_texture_transform" };
	bool used[] = { p->uses_pointer, p->uses_visibility, p->uses_uv };
	bool first = true;
	for (size_t k = 0; k < sizeof used / sizeof *used; k++)
		if (used[k]) {
			nm_out_printf(o, "%s\"%s\"", first ? ",\"extensionsUsed\":[" : ",",
				      names[k]);
			first = false;
		}
	if (!first)
		nm_out_char(o, ']');
}

void nm_gltf_json(nm_out *o, const nm_gltf_model *m, const nm_gltf_plan *p, uint64_t *minmax_at)
{
	nm_out_str(o, "{\"asset\":{\"version\":\"2.0\",\"generator\":");
	nm_gltf_json_name(o, m->generator ? m->generator : "nmodelfs");
	nm_out_char(o, '}');
	json_extensions(o, p);
	bool nodes = m->njoints > 0 || p->nmeshes > 0;
	if (nodes)
		json_nodes(o, m, p);
	if (p->nmeshes)
		json_meshes(o, m, p);
	if (m->nmaterials)
		json_materials(o, m, p);
	nm_gltf_anim_json(o, m, p);
	if (p->naccessors + p->nanim_accessors) {
		json_accessors(o, m, p, minmax_at);
		json_views(o, m, p);
	}
	if (p->bin_len)
		nm_out_printf(o, ",\"buffers\":[{\"byteLength\":%llu}]",
			      (unsigned long long)p->bin_len);
	nm_out_char(o, '}');
}
