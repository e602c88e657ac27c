#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
#include "lib/alloc.h"
#include "lib/bytes.h"

/* A forward cursor over the reader, buffered so that walking thousands of small tokens
 * costs few system calls; skip() jumps over vertex and index data without reading it. */
typedef struct cursor {
	nm_reader *r;
	uint64_t pos, size;
	uint8_t buf[8192];
	uint64_t buf_pos;
	size_t buf_len;
	const char *chunk;   /* what we are in, for messages */
	nm_error *err;
} cursor;

static nm_status take(cursor *c, void *dst, size_t n, const char *what)
{
	if (n > c->size - c->pos)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, c->pos,
			       "the file ends inside %s", what);
	if (c->pos < c->buf_pos || c->pos + n > c->buf_pos + c->buf_len) {
		if (n > sizeof c->buf) {
			/* Longer than the buffer (a texture name holds up to 65535 bytes). */
			nm_status s = nm_reader_read(c->r, c->pos, dst, n, c->chunk, c->err);
			if (s == NM_OK)
				c->pos += n;
			return s;
		}
		uint64_t left = c->size - c->pos;
		size_t len = left < sizeof c->buf ? (size_t)left : sizeof c->buf;
		nm_status s = nm_reader_read(c->r, c->pos, c->buf, len, c->chunk, c->err);
		if (s != NM_OK)
			return s;
		c->buf_pos = c->pos;
		c->buf_len = len;
	}
	memcpy(dst, c->buf + (c->pos - c->buf_pos), n);
	c->pos += n;
	return NM_OK;
}

static nm_status u16(cursor *c, uint16_t *v, const char *what)
{
	uint8_t b[2];
	nm_status s = take(c, b, 2, what);
	*v = nm_le16(b);
	return s;
}

static nm_status u32(cursor *c, uint32_t *v, const char *what)
{
	uint8_t b[4];
	nm_status s = take(c, b, 4, what);
	*v = nm_le32(b);
	return s;
}

static nm_status floats(cursor *c, float *f, unsigned n, const char *what)
{
	uint8_t b[16];
	nm_status s = take(c, b, n * 4, what);
	for (unsigned i = 0; i < n; i++)
		f[i] = nm_le_f32(b + 4 * i);
	return s;
}

/* Skip count elements of size bytes, checking they are present. */
static nm_status skip(cursor *c, uint64_t count, unsigned size, const char *what)
{
	if (size && count > (c->size - c->pos) / size)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, c->pos,
			       "%llu %s of %u bytes run past the end of the file",
			       (unsigned long long)count, what, size);
	c->pos += count * size;
	return NM_OK;
}

#define TRY(x) do { nm_status s_ = (x); if (s_ != NM_OK) return s_; } while (0)

/* size bytes from the file's data (names), limit-checked; NULL with c->err set. */
static void *alloc(cursor *c, size_t count, size_t size)
{
	return nm_alloc(nm_reader_options(c->r), count, size, c->err, nm_reader_name(c->r),
			c->chunk, c->pos);
}

/* One more zeroed element at the end of *arr (*n in use, room for *cap), which grows by
 * doubling: the number of records is the file's, so every step is limit-checked. NULL
 * with c->err set. */
static void *push(cursor *c, void *arr, size_t *n, size_t *cap, size_t size)
{
	uint8_t *a;
	memcpy(&a, arr, sizeof a);   /* arr points at the array's pointer, whatever its type */
	if (*n == *cap) {
		size_t grown = *cap ? 2 * *cap : 4;
		uint8_t *b = alloc(c, grown, size);
		if (!b)
			return NULL;
		if (*n)
			memcpy(b, a, *n * size);
		free(a);
		a = b;
		memcpy(arr, &a, sizeof a);
		*cap = grown;
	}
	return a + (*n)++ * size;
}

/* Expect a type tag; the value follows. */
static nm_status expect_type(cursor *c, uint16_t want, const char *what)
{
	uint16_t type;
	uint64_t at = c->pos;
	TRY(u16(c, &type, what));
	if (type != want)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "%s has value type %u, expected %u", what, type, want);
	return NM_OK;
}

/* name (len bytes) in quotes, with control bytes, quotes and backslashes escaped, for a
 * one-line note. */
static void quote_name(char *dst, size_t cap, const char *name, size_t len)
{
	size_t n = 0;
	dst[n++] = '"';
	for (size_t i = 0; i < len && n + 6 < cap; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (ch < 0x20 || ch == 0x7f)
			n += (size_t)snprintf(dst + n, cap - n, "\\x%02x", ch);
		else if (ch == '"' || ch == '\\')
			n += (size_t)snprintf(dst + n, cap - n, "\\%c", ch);
		else
			dst[n++] = (char)ch;
	}
	dst[n++] = '"';
	dst[n] = '\0';
}

/* A texture: semantic, type tag 5, u16 length, the bytes. Celestia's loader goes on past
 * a name it cannot use (empty, or not a file name it accepts) and leaves the map unset;
 * we leave it unset only when the name cannot be shown at all (empty, or a NUL inside),
 * and note why Celestia would not show it either way. */
static nm_status parse_texture(cursor *c, cmod_material *mat, uint64_t at)
{
	uint16_t sem, len;
	TRY(u16(c, &sem, "the texture semantic"));
	if (sem >= CMOD_TEXTURE_SEMANTICS)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "unknown texture semantic %u", sem);
	TRY(expect_type(c, CMOD_STRING, "a texture name"));
	TRY(u16(c, &len, "a texture name"));
	char *name = alloc(c, (size_t)len + 1, 1);
	if (!name)
		return c->err->code;
	nm_status st = take(c, name, len, "a texture name");
	if (st != NM_OK) {
		free(name);
		return st;
	}
	name[len] = '\0';
	char why[64], quoted[160];
	const char *problem = cmod_texture_name_problem(name, len, why, sizeof why);
	const char *key = cmod_texture_keyword(sem);
	quote_name(quoted, sizeof quoted, name, len);
	if (len == 0 || strlen(name) != len) {
		free(name);
		return cmod_note(&mat->notes, "%s name %s at 0x%llx left out, as Celestia does (%s)",
				 key, quoted, (unsigned long long)at,
				 len ? "it refuses control characters in file names" : "it is empty");
	}
	if (problem)
		st = cmod_note(&mat->notes, "%s name %s at 0x%llx: Celestia does not load it (%s)",
			       key, quoted, (unsigned long long)at, problem);
	free(mat->texture[sem]);
	mat->texture[sem] = name;
	return st;
}

/* Payload size of a value type, for skipping unknown material properties. */
static int type_payload(uint16_t type)
{
	switch (type) {
	case CMOD_FLOAT1: case CMOD_UINT32: return 4;
	case CMOD_FLOAT2: return 8;
	case CMOD_FLOAT3: case CMOD_COLOR: return 12;
	case CMOD_FLOAT4: return 16;
	default: return -1;
	}
}

static nm_status skip_unknown(cursor *c, cmod_material *mat, uint16_t token, uint64_t at)
{
	uint16_t type;
	TRY(u16(c, &type, "a property's value type"));
	if (type == CMOD_STRING) {
		uint16_t len;
		TRY(u16(c, &len, "a string property"));
		TRY(skip(c, len, 1, "string bytes"));
	} else if (type_payload(type) < 0) {
		/* Skipping by the type tag is a guess: a token whose value has no tag (as
		 * 1015 and 1016 have none) makes the walk land inside a value, which is
		 * what this error then names; an unknown token skipped before it is the
		 * likelier cause, so it is named too. */
		char after[96] = "";
		if (mat->nunknown > 0) {
			const cmod_unknown *u = &mat->unknown[mat->nunknown - 1];
			snprintf(after, sizeof after, " (after unknown token %u at 0x%llx, skipped "
				 "as if its value had type %u)", u->token,
				 (unsigned long long)u->offset, u->type);
		}
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "unknown token %u has unknown value type %u%s", token, type, after);
	} else {
		TRY(skip(c, 1, (unsigned)type_payload(type), "property value"));
	}
	cmod_unknown *u = push(c, &mat->unknown, &mat->nunknown, &mat->unknown_cap, sizeof *u);
	if (!u)
		return c->err->code;
	*u = (cmod_unknown){ .token = token, .type = type, .offset = at };
	return NM_OK;
}

static nm_status parse_material(cursor *c, cmod_material *mat)
{
	mat->specpower = 1.0f;
	mat->opacity = 1.0f;
	mat->illumination = -1;
	for (;;) {
		uint16_t tok, v16;
		uint64_t at = c->pos;
		TRY(u16(c, &tok, "a material token"));
		switch (tok) {
		case CMOD_END_MATERIAL:
			mat->end = c->pos;
			return NM_OK;
		case CMOD_DIFFUSE:
		case CMOD_SPECULAR:
		case CMOD_EMISSIVE: {
			float *dst = tok == CMOD_DIFFUSE ? mat->diffuse
				   : tok == CMOD_SPECULAR ? mat->specular : mat->emissive;
			mat->stored |= tok == CMOD_DIFFUSE ? CMOD_HAS_DIFFUSE
				     : tok == CMOD_SPECULAR ? CMOD_HAS_SPECULAR : CMOD_HAS_EMISSIVE;
			TRY(expect_type(c, CMOD_COLOR, "a material colour"));
			mat->value_at[tok == CMOD_DIFFUSE ? 0 : tok == CMOD_SPECULAR ? 1 : 2] = c->pos;
			TRY(floats(c, dst, 3, "a material colour"));
			break;
		}
		case CMOD_SPECULAR_POWER:
		case CMOD_OPACITY:
			TRY(expect_type(c, CMOD_FLOAT1, tok == CMOD_OPACITY ? "opacity" : "specpower"));
			mat->stored |= tok == CMOD_OPACITY ? CMOD_HAS_OPACITY : CMOD_HAS_SPECPOWER;
			mat->value_at[tok == CMOD_OPACITY ? 4 : 3] = c->pos;
			TRY(floats(c, tok == CMOD_OPACITY ? &mat->opacity : &mat->specpower, 1,
				   "a material value"));
			break;
		case CMOD_BLEND:
			mat->value_at[5] = c->pos;
			TRY(u16(c, &v16, "the blend mode"));
			if (v16 > 2)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk,
					       at, "unknown blend mode %u", v16);
			mat->blend = v16;
			mat->stored |= CMOD_HAS_BLEND;
			break;
		case CMOD_ILLUMINATION:
			mat->illumination_at = c->pos;
			TRY(u16(c, &v16, "the illumination model"));
			if (v16 > 2)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk,
					       at, "unknown illumination model %u (Cosmographia's "
					       "token 1016)", v16);
			mat->illumination = v16;
			TRY(cmod_note(&mat->notes, "illumination model at 0x%llx: Cosmographia's "
				      "token 1016, which Celestia does not know: it reads the value "
				      "as a type tag, so it refuses the file or misreads what follows",
				      (unsigned long long)at));
			break;
		case CMOD_TEXTURE:
			TRY(parse_texture(c, mat, at));
			break;
		default:
			if (tok >= CMOD_MATERIAL && tok <= CMOD_BLEND && tok != 1008)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk,
					       at, "token %u is not allowed inside a material", tok);
			TRY(skip_unknown(c, mat, tok, at));
			break;
		}
	}
}

unsigned cmod_format_components(int format)
{
	static const unsigned n[] = { 1, 2, 3, 4, 4 };
	return format >= 0 && format < CMOD_FORMAT_COUNT ? n[format] : 0;
}

unsigned cmod_format_size(int format)
{
	return format == CMOD_UB4 ? 4 : cmod_format_components(format) * 4;
}

static nm_status parse_vertexdesc(cursor *c, cmod_mesh *mesh)
{
	uint16_t tok;
	uint64_t at = c->pos;
	TRY(u16(c, &tok, "the vertex description"));
	if (tok != CMOD_VERTEX_DESC)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "expected vertexdesc (1011), found %u", tok);
	for (;;) {
		uint16_t sem, fmt;
		at = c->pos;
		TRY(u16(c, &sem, "the vertex description"));
		if (sem == CMOD_END_VERTEX_DESC && mesh->nattrs == 0)
			return cmod_note(&mesh->notes, "no vertex attributes: Celestia refuses the "
					 "file");
		if (sem == CMOD_END_VERTEX_DESC)
			return NM_OK;
		TRY(u16(c, &fmt, "the vertex description"));
		if (sem >= CMOD_SEMANTIC_COUNT)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "unknown vertex attribute semantic %u", sem);
		if (fmt >= CMOD_FORMAT_COUNT)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "unknown vertex attribute format %u", fmt);
		/* Celestia keeps both and uses the last one (VertexDescription's semantic
		 * map); so do the OBJ, while the CSV and the ASCII form show both. */
		for (unsigned i = 0; i < mesh->nattrs; i++)
			if (mesh->attrs[i].semantic == sem) {
				TRY(cmod_note(&mesh->notes, "attribute %s at 0x%llx appears "
					      "again: Celestia uses the last one", cmod_semantic_label(sem),
					      (unsigned long long)at));
				break;
			}
		/* Current Celestia knows semantics 0-9 only (10 and 11 came and went with
		 * line triangulation, 2020-2022). */
		if (sem > CMOD_POINTSIZE)
			TRY(cmod_note(&mesh->notes, "attribute %s at 0x%llx: Celestia refuses the "
				      "file (it knows semantics 0-9)", cmod_semantic_label(sem),
				      (unsigned long long)at));
		if (mesh->nattrs == CMOD_MAX_ATTRS)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "more than %d vertex attributes", CMOD_MAX_ATTRS);
		mesh->attrs[mesh->nattrs++] = (cmod_attr){ .semantic = sem, .format = fmt,
							   .offset = mesh->stride };
		mesh->stride += cmod_format_size(fmt);
	}
}

static nm_status parse_mesh(cursor *c, cmod_mesh *mesh)
{
	uint16_t tok;
	uint32_t n;
	uint64_t at;
	TRY(parse_vertexdesc(c, mesh));
	at = c->pos;
	TRY(u16(c, &tok, "the vertex list"));
	if (tok != CMOD_VERTICES)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "expected vertices (1013), found %u", tok);
	TRY(u32(c, &n, "the vertex count"));
	if (n == 0)
		TRY(cmod_note(&mesh->notes, "no vertices: Celestia refuses the file"));
	mesh->nverts = n;
	mesh->vertex_offset = c->pos;
	TRY(skip(c, n, mesh->stride, "vertices"));
	for (;;) {
		uint16_t prim;
		at = c->pos;
		TRY(u16(c, &prim, "a primitive group"));
		if (prim == CMOD_END_MESH) {
			mesh->end = c->pos;
			return NM_OK;
		}
		if (prim >= CMOD_PRIM_COUNT)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "unknown primitive type %u", prim);
		cmod_group g = { .prim = prim };
		TRY(u32(c, &g.material, "a primitive group"));
		TRY(u32(c, &g.count, "a primitive group"));
		g.index_offset = c->pos;
		TRY(skip(c, g.count, 4, "indices"));
		cmod_group *gp = push(c, &mesh->groups, &mesh->ngroups, &mesh->groups_cap, sizeof *gp);
		if (!gp)
			return c->err->code;
		*gp = g;
	}
}

static void material_free(cmod_material *mat);
static void mesh_free(cmod_mesh *mesh);

/* Celestia's loader takes any material index and draws a group whose material does not
 * exist without one (ModelGeometry's render checks the index against the count). */
static nm_status note_missing_materials(cmod_model *m)
{
	for (size_t i = 0; i < m->nmeshes; i++)
		for (size_t g = 0; g < m->meshes[i].ngroups; g++) {
			cmod_group *grp = &m->meshes[i].groups[g];
			grp->missing_material = grp->material != UINT32_MAX &&
						grp->material >= m->nmaterials;
			if (grp->missing_material)
				TRY(cmod_note(&m->meshes[i].notes, "primitive group %zu uses "
					      "material %u of %zu: Celestia draws it without a "
					      "material", g, grp->material, m->nmaterials));
		}
	return NM_OK;
}

/* "mesh 3" for the last of n records, in where: what the messages inside it name. */
static const char *record_name(char *where, size_t len, const char *what, size_t n)
{
	snprintf(where, len, "%s %zu", what, n - 1);
	return where;
}

nm_status cmod_parse(nm_reader *r, cmod_model *m, nm_error *err)
{
	cursor c = { .r = r, .size = nm_reader_size(r), .chunk = "header", .err = err };
	char magic[CMOD_MAGIC_LEN];
	memset(m, 0, sizeof *m);
	m->reader = r;
	TRY(take(&c, magic, sizeof magic, "the header"));
	if (memcmp(magic, CMOD_MAGIC, CMOD_MAGIC_LEN) != 0)
		return nm_fail(err, NM_E_FORMAT, nm_reader_name(r), "header", 0,
			       "expected \"%s\"", CMOD_MAGIC);
	char where[64];
	nm_status s = NM_OK;
	while (c.pos < c.size && s == NM_OK) {
		uint16_t tok;
		uint64_t at = c.pos;
		c.chunk = "header";
		/* Celestia's load() ends quietly when the file ends inside a token. */
		if (c.size - c.pos < 2) {
			s = cmod_note(&m->notes, "1 byte at 0x%llx after the last record: ignored, "
				      "as Celestia does", (unsigned long long)at);
			break;
		}
		s = u16(&c, &tok, "a token");
		if (s != NM_OK)
			break;
		if (tok == CMOD_MATERIAL && m->nmeshes)
			s = cmod_note(&m->notes, "material %zu at 0x%llx comes after a mesh: "
				      "Celestia refuses the file", m->nmaterials,
				      (unsigned long long)at);
		if (s != NM_OK)
			break;
		if (tok == CMOD_MATERIAL) {
			c.chunk = "materials";   /* a refused array names itself */
			cmod_material *mat = push(&c, &m->materials, &m->nmaterials,
						  &m->materials_cap, sizeof *mat);
			if (!mat) {
				s = err->code;
				break;
			}
			mat->offset = at;
			c.chunk = record_name(where, sizeof where, "material", m->nmaterials);
			s = parse_material(&c, mat);
		} else if (tok == CMOD_MESH) {
			c.chunk = "meshes";
			cmod_mesh *mesh = push(&c, &m->meshes, &m->nmeshes, &m->meshes_cap, sizeof *mesh);
			if (!mesh) {
				s = err->code;
				break;
			}
			mesh->offset = at;
			c.chunk = record_name(where, sizeof where, "mesh", m->nmeshes);
			s = parse_mesh(&c, mesh);
			if (s == NM_OK) {
				m->vertices += mesh->nverts;
				for (size_t g = 0; g < mesh->ngroups; g++)
					m->indices += mesh->groups[g].count;
			}
		} else {
			s = nm_fail(err, NM_E_FORMAT, nm_reader_name(r), "top level", at,
				    "unknown token %u (expected material 1001 or mesh 1009)", tok);
		}
	}
	if (s != NM_OK) {
		/* Drop the record that failed half-way; keep the ones before it. */
		if (c.chunk == where && strncmp(where, "mesh", 4) == 0 && m->nmeshes)
			mesh_free(&m->meshes[--m->nmeshes]);
		else if (c.chunk == where && m->nmaterials)
			material_free(&m->materials[--m->nmaterials]);
		if (s == NM_E_NOMEM)
			nm_fail(err, s, nm_reader_name(r), c.chunk, c.pos, "out of memory");
	} else if (note_missing_materials(m) != NM_OK) {
		s = nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			    "out of memory");
	}
	if (s != NM_OK) {
		m->truncated = true;
		m->parse_error = *err;
		if (s != NM_E_NOMEM)
			note_missing_materials(m); /* of what was kept */
	}
	return s;
}

static void material_free(cmod_material *mat)
{
	for (int k = 0; k < CMOD_TEXTURE_SEMANTICS; k++)
		free(mat->texture[k]);
	free(mat->unknown);
	cmod_notes_free(&mat->notes);
}

static void mesh_free(cmod_mesh *mesh)
{
	free(mesh->groups);
	cmod_notes_free(&mesh->notes);
}

void cmod_model_free(cmod_model *m)
{
	for (size_t i = 0; i < m->nmaterials; i++)
		material_free(&m->materials[i]);
	for (size_t i = 0; i < m->nmeshes; i++)
		mesh_free(&m->meshes[i]);
	cmod_notes_free(&m->notes);
	free(m->materials);
	free(m->meshes);
	free(m->ascii_header);
}

nm_status cmod_load_vertices(cmod_model *m, const cmod_mesh *mesh, uint8_t **out,
			     nm_error *err)
{
	/* The parser checked that nverts * stride bytes are in the file. */
	return nm_reader_load(m->reader, mesh->vertex_offset,
			      (size_t)mesh->nverts * mesh->stride, "vertices", out, err);
}

nm_status cmod_load_indices(cmod_model *m, const cmod_mesh *mesh, const cmod_group *g,
			    uint32_t **out, nm_error *err)
{
	uint8_t *raw;
	nm_status s = nm_reader_load(m->reader, g->index_offset, (size_t)g->count * 4,
				     "indices", &raw, err);
	if (s != NM_OK)
		return s;
	uint32_t *idx = (uint32_t *)raw; /* same size: convert in place */
	for (uint32_t i = 0; i < g->count; i++) {
		uint32_t v = nm_le32(raw + 4 * (size_t)i);
		if (v >= mesh->nverts) {
			free(raw);
			return nm_fail(err, NM_E_FORMAT, nm_reader_name(m->reader), "indices",
				       g->index_offset + 4 * (uint64_t)i,
				       "index %u is not below the vertex count %u", v,
				       mesh->nverts);
		}
		idx[i] = v;
	}
	*out = idx;
	return NM_OK;
}

float cmod_component(const cmod_mesh *mesh, const uint8_t *verts, uint32_t v,
		     const cmod_attr *a, unsigned comp)
{
	const uint8_t *p = verts + (size_t)v * mesh->stride + a->offset;
	if (a->format == CMOD_UB4)
		return p[comp];
	return nm_le_f32(p + 4 * comp);
}
