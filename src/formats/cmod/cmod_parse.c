#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
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
		uint64_t left = c->size - c->pos;
		size_t len = left < sizeof c->buf ? (size_t)left : sizeof c->buf;
		if (n > len)
			return NM_E_INVAL;
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

static nm_status string(cursor *c, char **out, const char *what)
{
	uint16_t len;
	uint64_t at = c->pos;
	TRY(u16(c, &len, what));
	if (len == 0)
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "%s is an empty string", what);
	char *s = malloc((size_t)len + 1);
	if (!s)
		return NM_E_NOMEM;
	nm_status st = take(c, s, len, what);
	if (st != NM_OK) {
		free(s);
		return st;
	}
	s[len] = '\0';
	if (strlen(s) != len) {
		free(s);
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "%s contains a NUL byte", what);
	}
	*out = s;
	return NM_OK;
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
		return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
			       "unknown token %u has unknown value type %u", token, type);
	} else {
		TRY(skip(c, 1, (unsigned)type_payload(type), "property value"));
	}
	cmod_unknown *u = realloc(mat->unknown, (mat->nunknown + 1) * sizeof *u);
	if (!u)
		return NM_E_NOMEM;
	mat->unknown = u;
	u[mat->nunknown++] = (cmod_unknown){ .token = token, .type = type, .offset = at };
	return NM_OK;
}

static nm_status parse_material(cursor *c, cmod_material *mat)
{
	mat->specpower = 1.0f;
	mat->opacity = 1.0f;
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
			TRY(expect_type(c, CMOD_COLOR, "a material colour"));
			TRY(floats(c, dst, 3, "a material colour"));
			break;
		}
		case CMOD_SPECULAR_POWER:
		case CMOD_OPACITY:
			TRY(expect_type(c, CMOD_FLOAT1, tok == CMOD_OPACITY ? "opacity" : "specpower"));
			TRY(floats(c, tok == CMOD_OPACITY ? &mat->opacity : &mat->specpower, 1,
				   "a material value"));
			break;
		case CMOD_BLEND:
			TRY(u16(c, &v16, "the blend mode"));
			if (v16 > 2)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk,
					       at, "unknown blend mode %u", v16);
			mat->blend = v16;
			break;
		case CMOD_TEXTURE: {
			char *name = NULL;
			TRY(u16(c, &v16, "the texture semantic"));
			if (v16 >= CMOD_TEXTURE_SEMANTICS)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk,
					       at, "unknown texture semantic %u", v16);
			TRY(expect_type(c, CMOD_STRING, "a texture name"));
			TRY(string(c, &name, "a texture name"));
			free(mat->texture[v16]);
			mat->texture[v16] = name;
			break;
		}
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
		if (sem == CMOD_END_VERTEX_DESC)
			return NM_OK;
		TRY(u16(c, &fmt, "the vertex description"));
		if (sem >= CMOD_SEMANTIC_COUNT)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "unknown vertex attribute semantic %u", sem);
		if (fmt >= CMOD_FORMAT_COUNT)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "unknown vertex attribute format %u", fmt);
		for (unsigned i = 0; i < mesh->nattrs; i++)
			if (mesh->attrs[i].semantic == sem)
				return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r),
					       c->chunk, at, "attribute %s appears twice",
					       cmod_semantic_name(sem) ? cmod_semantic_name(sem)
								       : "semantic");
		if (mesh->nattrs == CMOD_MAX_ATTRS)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "more than %d vertex attributes", CMOD_MAX_ATTRS);
		mesh->attrs[mesh->nattrs++] = (cmod_attr){ .semantic = sem, .format = fmt,
							   .offset = mesh->stride };
		mesh->stride += cmod_format_size(fmt);
	}
}

static nm_status parse_mesh(cursor *c, cmod_mesh *mesh, size_t nmaterials)
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
		if (g.material != UINT32_MAX && g.material >= nmaterials)
			return nm_fail(c->err, NM_E_FORMAT, nm_reader_name(c->r), c->chunk, at,
				       "primitive group uses material %u of %zu", g.material,
				       nmaterials);
		g.index_offset = c->pos;
		TRY(skip(c, g.count, 4, "indices"));
		cmod_group *gs = realloc(mesh->groups, (mesh->ngroups + 1) * sizeof *gs);
		if (!gs)
			return NM_E_NOMEM;
		mesh->groups = gs;
		gs[mesh->ngroups++] = g;
	}
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
		s = u16(&c, &tok, "a token");
		if (s != NM_OK)
			break;
		if (tok == CMOD_MATERIAL) {
			cmod_material *ms = realloc(m->materials, (m->nmaterials + 1) * sizeof *ms);
			if (!ms) { s = NM_E_NOMEM; break; }
			m->materials = ms;
			cmod_material *mat = &ms[m->nmaterials++];
			memset(mat, 0, sizeof *mat);
			mat->offset = at;
			snprintf(where, sizeof where, "material %zu", m->nmaterials - 1);
			c.chunk = where;
			s = parse_material(&c, mat);
		} else if (tok == CMOD_MESH) {
			cmod_mesh *ms = realloc(m->meshes, (m->nmeshes + 1) * sizeof *ms);
			if (!ms) { s = NM_E_NOMEM; break; }
			m->meshes = ms;
			cmod_mesh *mesh = &ms[m->nmeshes++];
			memset(mesh, 0, sizeof *mesh);
			mesh->offset = at;
			snprintf(where, sizeof where, "mesh %zu", m->nmeshes - 1);
			c.chunk = where;
			s = parse_mesh(&c, mesh, m->nmaterials);
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
		if (c.chunk == where && strncmp(where, "mesh", 4) == 0 && m->nmeshes) {
			free(m->meshes[m->nmeshes - 1].groups);
			m->nmeshes--;
		} else if (c.chunk == where && m->nmaterials) {
			cmod_material *mat = &m->materials[--m->nmaterials];
			for (int i = 0; i < CMOD_TEXTURE_SEMANTICS; i++)
				free(mat->texture[i]);
			free(mat->unknown);
		}
		if (s == NM_E_NOMEM)
			nm_fail(err, s, nm_reader_name(r), c.chunk, c.pos, "out of memory");
		m->truncated = true;
		m->parse_error = *err;
		c.chunk = NULL;
	}
	return s;
}

void cmod_model_free(cmod_model *m)
{
	for (size_t i = 0; i < m->nmaterials; i++) {
		for (int k = 0; k < CMOD_TEXTURE_SEMANTICS; k++)
			free(m->materials[i].texture[k]);
		free(m->materials[i].unknown);
	}
	for (size_t i = 0; i < m->nmeshes; i++)
		free(m->meshes[i].groups);
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
