/* model.ascii.cmod: the whole model in Celestia's ASCII form (#celmodel__ascii).
 * Vertex values use the same fixed-width, round-trip-exact numbers as the CSVs (Celestia's
 * tokenizer reads "+1.00000000e+00"), so the size is known from the counts. Attributes
 * with no ASCII keyword (nextposition, scalefactor) are left out with a comment. */
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/cmod/cmod.h"

static bool has_keyword(const cmod_attr *a) { return cmod_semantic_name(a->semantic) != NULL; }

static void quoted(nm_out *o, const char *s)
{
	nm_out_char(o, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			nm_out_char(o, '\\');
		if (*s == '\n')
			nm_out_str(o, "\\n");
		else
			nm_out_char(o, *s);
	}
	nm_out_char(o, '"');
}

/* A record's oddities as comments; notes are one line each (names in them escaped). */
static void notes_comment(nm_out *o, const cmod_notes *l)
{
	for (size_t i = 0; i < l->n; i++)
		nm_out_printf(o, "# %s\n", l->v[i]);
}

static bool same3(const float *a, float v)
{
	return a[0] == v && a[1] == v && a[2] == v;
}

/* The materials block; lines equal to the defaults are omitted, as Celestia writes. */
static void materials(nm_out *o, const cmod_model *m)
{
	nm_out_str(o, "#celmodel__ascii\n\n");
	for (size_t i = 0; i < m->nmaterials; i++) {
		const cmod_material *mat = &m->materials[i];
		static const struct { const char *key; size_t off; } colors[] = {
			{ "diffuse", offsetof(cmod_material, diffuse) },
			{ "emissive", offsetof(cmod_material, emissive) },
			{ "specular", offsetof(cmod_material, specular) },
		};
		nm_out_str(o, "material\n");
		for (size_t c = 0; c < 3; c++) {
			const float *f = (const float *)((const char *)mat + colors[c].off);
			if (same3(f, 0.0f))
				continue;
			nm_out_str(o, colors[c].key);
			for (int k = 0; k < 3; k++) {
				nm_out_char(o, ' ');
				nm_out_float(o, f[k]);
			}
			nm_out_char(o, '\n');
		}
		if (mat->specpower != 1.0f) {
			nm_out_str(o, "specpower ");
			nm_out_float(o, mat->specpower);
			nm_out_char(o, '\n');
		}
		if (mat->opacity != 1.0f) {
			nm_out_str(o, "opacity ");
			nm_out_float(o, mat->opacity);
			nm_out_char(o, '\n');
		}
		if (mat->blend != 0)
			nm_out_printf(o, "blend %s\n", cmod_blend_name(mat->blend));
		if (mat->illumination >= 0)
			nm_out_printf(o, "# illumination %s: Cosmographia's token 1016, which has "
				      "no ASCII keyword\n", cmod_illumination_name(mat->illumination));
		for (int s = 0; s < CMOD_TEXTURE_SEMANTICS; s++)
			if (mat->texture[s]) {
				nm_out_printf(o, "%s ", cmod_texture_keyword(s));
				quoted(o, mat->texture[s]);
				nm_out_char(o, '\n');
			}
		for (size_t k = 0; k < mat->nunknown; k++)
			nm_out_printf(o, "# unknown token %u skipped\n", mat->unknown[k].token);
		notes_comment(o, &mat->notes);
		nm_out_str(o, "end_material\n\n");
	}
}

static void mesh_head(nm_out *o, const cmod_mesh *mesh, size_t index)
{
	nm_out_printf(o, "mesh\n# mesh %zu\n", index);
	notes_comment(o, &mesh->notes);
	nm_out_str(o, "vertexdesc\n");
	for (unsigned a = 0; a < mesh->nattrs; a++) {
		const cmod_attr *at = &mesh->attrs[a];
		if (has_keyword(at))
			nm_out_printf(o, "%s %s\n", cmod_semantic_name(at->semantic),
				      cmod_format_name(at->format));
		else
			nm_out_printf(o, "# %s %s has no ASCII keyword: left out\n",
				      at->semantic == CMOD_NEXTPOSITION ? "nextposition"
									: "scalefactor",
				      cmod_format_name(at->format));
	}
	nm_out_printf(o, "end_vertexdesc\n\nvertices %u\n", mesh->nverts);
}

static uint64_t row_size(const cmod_mesh *mesh)
{
	uint64_t n = 0;
	for (unsigned a = 0; a < mesh->nattrs; a++)
		if (has_keyword(&mesh->attrs[a]))
			n += cmod_format_components(mesh->attrs[a].format) *
			     (uint64_t)((mesh->attrs[a].format == CMOD_UB4 ? 3 : NM_CSV_FLOAT_WIDTH) + 1);
	return n ? n : 1;
}

static void group_head(nm_out *o, const cmod_group *g)
{
	nm_out_printf(o, "\n%s %lld %u\n", cmod_prim_name(g->prim),
		      g->material == UINT32_MAX ? -1LL : (long long)g->material, g->count);
}

static const char mesh_tail[] = "\nend_mesh\n\n";

static uint64_t ascii_size(cmod_model *m)
{
	nm_out o;
	uint64_t n = strlen(m->ascii_header);
	nm_out_init(&o);
	for (size_t i = 0; i < m->nmeshes; i++) {
		const cmod_mesh *mesh = &m->meshes[i];
		o.len = 0;
		mesh_head(&o, mesh, i);
		n += o.len + (uint64_t)mesh->nverts * row_size(mesh);
		for (size_t g = 0; g < mesh->ngroups; g++) {
			o.len = 0;
			group_head(&o, &mesh->groups[g]);
			n += o.len + (uint64_t)mesh->groups[g].count * (cmod_index_width(mesh) + 1);
		}
		n += strlen(mesh_tail);
	}
	nm_out_free(&o);
	return n;
}

static nm_status produce_ascii(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	cmod_model *m = ctx;
	(void)arg;
	nm_out_str(o, m->ascii_header);
	for (size_t i = 0; i < m->nmeshes; i++) {
		const cmod_mesh *mesh = &m->meshes[i];
		uint8_t *verts;
		nm_status s = cmod_load_vertices(m, mesh, &verts, err);
		if (s != NM_OK)
			return s;
		mesh_head(o, mesh, i);
		for (uint32_t v = 0; v < mesh->nverts; v++)
			cmod_write_vertex(o, mesh, verts, v, ' ', true);
		free(verts);
		for (size_t g = 0; g < mesh->ngroups; g++) {
			uint32_t *idx;
			s = cmod_load_indices(m, mesh, &mesh->groups[g], &idx, err);
			if (s != NM_OK)
				return s;
			group_head(o, &mesh->groups[g]);
			cmod_write_indices(o, mesh, &mesh->groups[g], idx);
			free(idx);
		}
		nm_out_str(o, mesh_tail);
	}
	return NM_OK;
}

nm_status cmod_add_ascii(nm_tree *t, nm_node *root, cmod_model *m)
{
	nm_out o;
	nm_out_init(&o);
	materials(&o, m);
	nm_out_char(&o, '\0');
	if (nm_out_status(&o) != NM_OK)
		return NM_E_NOMEM;
	size_t len;
	m->ascii_header = (char *)nm_out_take(&o, &len);
	return nm_lazy(t, root, "model.ascii.cmod", ascii_size(m), produce_ascii, m, NULL)
	       ? NM_OK : NM_E_NOMEM;
}
