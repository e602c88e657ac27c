/* model.ascii.cmod: the whole model in Celestia's ASCII form (#celmodel__ascii), and
 * its inverse: the edited file read with parse_ascii.c and written as binary CMOD, the
 * model's new bytes whole (doc/cmod.md "Editing model.ascii.cmod").
 * Every value is spelled so that parse_ascii.c reads back its bits: vertex values use
 * the CSVs' fixed width (Celestia's tokenizer reads "+1.00000000e+00"), so the size is
 * known from the counts; material values the shortest spelling that reads back
 * through a double, as Celestia reads them; -0 keeps its sign, and infinities and NaNs
 * (payload and sign) are words only our reader takes (Celestia reads no spelling of
 * them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/span.h"
#include "export/text.h"
#include "formats/cmod/cmod.h"
#include "lib/alloc.h"
#include "lib/edit.h"

/* Length of the well-formed UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	if (!len || len > n)
		return 0;
	unsigned lo = 0x80, hi = 0xbf; /* the second byte's range (RFC 3629) */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* A texture name in quotes: '"' and '\' escaped, control bytes as \u00XX (Celestia
 * reads those three), UTF-8 as it is, any other byte as \xHH (ours alone: Celestia
 * stops at it, and its binary loader refuses such a name anyway). */
static void quoted(nm_out *o, const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name);
	nm_out_char(o, '"');
	for (size_t i = 0; i < n; i++) {
		size_t u = s[i] >= 0x80 ? utf8_len(s + i, n - i) : 0;
		if (u) {
			nm_out_write(o, s + i, u);
			i += u - 1;
		} else if (s[i] == '"' || s[i] == '\\') {
			nm_out_char(o, '\\');
			nm_out_char(o, (char)s[i]);
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			nm_out_printf(o, "\\u%04x", s[i]);
		} else if (s[i] >= 0x80) {
			nm_out_printf(o, "\\x%02x", s[i]);
		} else {
			nm_out_char(o, (char)s[i]);
		}
	}
	nm_out_char(o, '"');
}

/* A material value: Celestia reads it as a double and converts it to float, so the
 * shortest float spelling is kept where that reads it back, and "%.17g" (which
 * strtod reads back to the very double, hence the float) where it would not. */
static void material_float(nm_out *o, float f)
{
	char s[NM_FLOAT_BUF];
	nm_fmt_float(s, f);
	if (isfinite(f)) {
		float back = (float)strtod(s, NULL);
		if (memcmp(&back, &f, sizeof f) != 0)
			snprintf(s, sizeof s, "%.17g", (double)f);
	}
	nm_out_str(o, s);
}

/* A record's oddities as comments; notes are one line each (names in them escaped). */
static void notes_comment(nm_out *o, const cmod_notes *l)
{
	for (size_t i = 0; i < l->n; i++)
		nm_out_printf(o, "# %s\n", l->v[i]);
}

/* The materials block: a line for each property the material stores, in Celestia's
 * writer's order (which stores only values other than the defaults: files it wrote
 * come back unchanged). */
static void materials(nm_out *o, const cmod_model *m)
{
	nm_out_str(o, "#celmodel__ascii\n\n");
	for (size_t i = 0; i < m->nmaterials; i++) {
		const cmod_material *mat = &m->materials[i];
		static const struct { const char *key; size_t off; unsigned bit, n; } props[] = {
			{ "diffuse", offsetof(cmod_material, diffuse), CMOD_HAS_DIFFUSE, 3 },
			{ "emissive", offsetof(cmod_material, emissive), CMOD_HAS_EMISSIVE, 3 },
			{ "specular", offsetof(cmod_material, specular), CMOD_HAS_SPECULAR, 3 },
			{ "specpower", offsetof(cmod_material, specpower), CMOD_HAS_SPECPOWER, 1 },
			{ "opacity", offsetof(cmod_material, opacity), CMOD_HAS_OPACITY, 1 },
		};
		nm_out_str(o, "material\n");
		for (size_t c = 0; c < sizeof props / sizeof props[0]; c++) {
			const float *f = (const float *)((const char *)mat + props[c].off);
			if (!(mat->stored & props[c].bit))
				continue;
			nm_out_str(o, props[c].key);
			for (unsigned k = 0; k < props[c].n; k++) {
				nm_out_char(o, ' ');
				material_float(o, f[k]);
			}
			nm_out_char(o, '\n');
		}
		if (mat->stored & CMOD_HAS_BLEND)
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
	for (unsigned a = 0; a < mesh->nattrs; a++)
		nm_out_printf(o, "%s %s\n", cmod_semantic_name(mesh->attrs[a].semantic),
			      cmod_format_name(mesh->attrs[a].format));
	nm_out_printf(o, "end_vertexdesc\n\nvertices %u\n", mesh->nverts);
}

static uint64_t row_size(const cmod_mesh *mesh)
{
	uint64_t n = 0;
	for (unsigned a = 0; a < mesh->nattrs; a++)
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
			cmod_write_vertex(o, mesh, verts, v, ' ');
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

/* Bytes [off, off+len) of model.ascii.cmod: its vertex rows and index runs are fixed
 * width (export/span.h), so a range loads and writes only the meshes and groups it
 * reaches into, and a large file is made in pieces. */
static nm_status ascii_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			     nm_error *err)
{
	cmod_model *m = ctx;
	(void)arg;
	nm_span sp = nm_span_begin(o, off, len);
	nm_out head;
	nm_out_init(&head);
	nm_status s = NM_OK;
	if (nm_span_text(&sp, strlen(m->ascii_header)))
		nm_out_str(o, m->ascii_header);
	for (size_t i = 0; i < m->nmeshes && s == NM_OK && !nm_span_done(&sp); i++) {
		const cmod_mesh *mesh = &m->meshes[i];
		uint64_t k0, k1;
		head.len = 0;
		mesh_head(&head, mesh, i);
		if (nm_span_text(&sp, head.len))
			nm_out_write(o, head.data, head.len);
		nm_span_lines(&sp, row_size(mesh), mesh->nverts, &k0, &k1);
		uint8_t *verts;
		if (k1 > k0 && (s = cmod_load_vertices(m, mesh, &verts, err)) == NM_OK) {
			for (uint64_t v = k0; v < k1; v++)
				cmod_write_vertex(o, mesh, verts, (uint32_t)v, ' ');
			free(verts);
		}
		for (size_t g = 0; g < mesh->ngroups && s == NM_OK; g++) {
			const cmod_group *grp = &mesh->groups[g];
			head.len = 0;
			group_head(&head, grp);
			if (nm_span_text(&sp, head.len))
				nm_out_write(o, head.data, head.len);
			nm_span_lines(&sp, cmod_index_width(mesh) + 1, grp->count, &k0, &k1);
			uint32_t *idx;
			if (k1 > k0 && (s = cmod_load_indices(m, mesh, grp, &idx, err)) == NM_OK) {
				cmod_write_index_run(o, mesh, grp, idx, (uint32_t)k0, (uint32_t)k1);
				free(idx);
			}
		}
		if (nm_span_text(&sp, strlen(mesh_tail)))
			nm_out_str(o, mesh_tail);
	}
	nm_out_free(&head);
	return s == NM_OK ? nm_span_cut(&sp, o, "model.ascii.cmod", err) : s;
}

/* The materials block as a string (malloc'd), or NULL out of memory. */
static char *ascii_header(const cmod_model *m)
{
	nm_out o;
	size_t len;
	nm_out_init(&o);
	materials(&o, m);
	nm_out_char(&o, '\0');
	if (nm_out_status(&o) == NM_OK)
		return (char *)nm_out_take(&o, &len);
	nm_out_free(&o);
	return NULL;
}

/* The edited file, read and written as binary CMOD: the whole of the model's bytes
 * (the file for a binary source; for an ASCII one, the binary it is mounted through,
 * whose origin writes it back as ASCII: driver.c). */
static nm_status ascii_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			       nm_edit *ed, nm_error *err)
{
	cmod_model *m = ctx;
	(void)arg;
	nm_out bin;
	nm_out_init(&bin);
	bin.opt = nm_reader_options(m->reader);
	cmod_notes notes = { 0 };
	cmod_ascii_fault fault;
	nm_error e;
	nm_status s = cmod_ascii_to_binary("model.ascii.cmod", bytes, len, &bin, &notes,
					   &fault, &e);
	if (s == NM_E_FORMAT) {
		nm_edit_refuse(ed, fault.line, NULL, "%s", fault.why);
		s = NM_OK;
	} else if (s == NM_E_LIMIT) {
		nm_edit_refuse(ed, 0, NULL, "%s", e.msg);
		s = NM_OK;
	} else if (s != NM_OK) {
		*err = e;
	} else {
		for (size_t i = 0; i < notes.n; i++)
			nm_edit_note(ed, "%s", notes.v[i]);
		nm_edit_replace(ed, m->reader, bin.data, bin.len, "model", "model.ascii.cmod");
	}
	cmod_notes_free(&notes);
	nm_out_free(&bin);
	return s;
}

nm_status cmod_add_ascii(nm_tree *t, nm_node *root, cmod_model *m)
{
	if (!(m->ascii_header = ascii_header(m)))
		return NM_E_NOMEM;
	if (nm_tree_split_producer(t, produce_ascii, ascii_range) != NM_OK ||
	    (nm_tree_options(t)->editable &&
	     nm_tree_invert_producer(t, produce_ascii, ascii_inverse) != NM_OK))
		return NM_E_NOMEM;
	return nm_lazy(t, root, "model.ascii.cmod", ascii_size(m), produce_ascii, m, NULL)
	       ? NM_OK : NM_E_NOMEM;
}

nm_status cmod_binary_to_ascii(const char *name, const uint8_t *bin, size_t len,
			       nm_out *out, nm_error *err)
{
	uint8_t *copy = nm_alloc(out->opt, len ? len : 1, 1, err, name, NULL, NM_NO_OFFSET);
	if (!copy)
		return err->code;
	memcpy(copy, bin, len);
	nm_reader *r;
	nm_status s = nm_reader_new_memory(name, copy, len, &r, err);
	if (s != NM_OK) {
		free(copy);
		return s;
	}
	nm_reader_set_options(r, out->opt);
	cmod_model m;
	s = cmod_parse(r, &m, err);
	if (s == NM_OK)
		s = (m.ascii_header = ascii_header(&m)) ? produce_ascii(&m, NULL, out, err)
			: nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	cmod_model_free(&m);
	nm_reader_close(r);
	if (s == NM_OK && nm_out_status(out) != NM_OK)
		s = nm_fail(err, nm_out_status(out), name, NULL, NM_NO_OFFSET,
			    "the ASCII model passes max_file_size or memory");
	return s;
}
