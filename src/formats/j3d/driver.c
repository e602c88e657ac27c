/* The J3D driver: probe, the file header, the chunk walk, and the pieces every chunk
 * parser shares (bounded loads, name tables, the model's allocations). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/driver.h"
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

/* A BMT (J3D2bmt3) is a material table: MAT3 and TEX1 (maybe MDL3) in the same chunk
 * layout, shown by the same code. */
static const char *const magics[] = { "J3D2bmd3", "J3D2bdl4", "J3D2bmd2", "J3D2bmt3" };

/* ---- allocations ---------------------------------------------------------------- */

char *j3d_strdup(j3d_model *m, const char *s, size_t len)
{
	char *p = nm_tree_alloc_array(m->t, len + 1, 1);
	if (p)
		memcpy(p, s, len);
	return p;
}

/* The MAT3 tables stay loaded until the tree is built; a build that fails before then
 * frees them here. Registered after the j3d_mat3 that holds the view, so it runs
 * before the arena frees that (nm_tree_on_free runs in reverse order). */
static void mat3_view_free(void *p)
{
	nm_view_free(&((j3d_mat3 *)p)->v);
}

/* ---- bounded loads ---------------------------------------------------------------- */

nm_status j3d_chunk_fail(const j3d_chunk *c, const j3d_model *m, nm_error *err, uint64_t rel,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_failv(err, NM_E_FORMAT, m->file, c->magic, c->off + rel, fmt, ap);
	va_end(ap);
	return NM_E_FORMAT;
}

nm_status j3d_load(j3d_model *m, const j3d_chunk *c, uint64_t off, uint64_t len,
		   const char *what, nm_view *v, nm_error *err)
{
	if (off > c->size || len > c->size - off)
		return j3d_chunk_fail(c, m, err, off > c->size ? 0 : off,
				      "%s (0x%llx bytes at chunk offset 0x%llx) runs past the "
				      "end of the chunk (0x%x bytes)", what,
				      (unsigned long long)len, (unsigned long long)off, c->size);
	return nm_view_load(m->r, c->off + off, (size_t)len, c->magic, NM_BIG, v, err);
}

/* j3d_load for a name table (j3d_name_src). */
struct chunk_of { j3d_model *m; const j3d_chunk *c; };
static nm_status load_in_chunk(void *ctx, uint64_t off, uint64_t len, const char *what,
			       nm_view *v, nm_error *err)
{
	const struct chunk_of *x = ctx;
	return j3d_load(x->m, x->c, off, len, what, v, err);
}

nm_status j3d_names(j3d_model *m, const j3d_chunk *c, uint32_t off, size_t want,
		    char ***out, size_t *got, nm_error *err)
{
	nm_view v;
	uint16_t count;
	*out = NULL;
	*got = 0;
	struct chunk_of x = { m, c };
	j3d_name_src src = { load_in_chunk, &x, c->size };
	nm_status s = j3d_name_view(&src, off, &count, &v, err);
	if (s != NM_OK)
		return s;
	char **names = nm_tree_alloc_array(m->t, want ? want : 1, sizeof *names);
	if (!names) {
		nm_view_free(&v);
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < count && i < want; i++) {
		size_t n;
		const char *p = j3d_name_at(&v, i, &n);
		if (p)
			names[i] = j3d_strdup(m, p, n);
	}
	nm_view_free(&v);
	*out = names;
	*got = count;
	return NM_OK;
}

nm_status j3d_names_soft(j3d_model *m, const j3d_chunk *c, uint32_t off, size_t want,
			 char ***out, size_t *got, const char **problem, nm_error *err)
{
	nm_error e;
	*problem = NULL;
	nm_status s = j3d_names(m, c, off, want, out, got, &e);
	if (s == NM_E_NOMEM) {
		*err = e;
		return s;
	}
	if (s != NM_OK) {
		*problem = j3d_strdup(m, e.msg, strlen(e.msg));
		*out = nm_tree_alloc_array(m->t, want ? want : 1, sizeof **out);
		*got = 0;
		if (!*out || !*problem)
			return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET,
				       "out of memory");
	}
	return NM_OK;
}

/* ---- probe and build -------------------------------------------------------------- */

bool j3d_probe_model(const uint8_t *head, size_t len)
{
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (len >= 8 && memcmp(head, magics[i], 8) == 0)
			return true;
	return false;
}

static bool j3d_probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return j3d_probe_model(head, len);
}

static nm_status j3d_build(nm_reader *r, nm_tree *t, nm_node *dir, nm_error *err);

const nm_driver nm_driver_j3d = {
	.name = "j3d",
	.description = "J3D model (BMD/BDL/BMT)",
	.probe = j3d_probe,
	.build = j3d_build,
};

static uint32_t fourcc(const char *s)
{
	return (uint32_t)(uint8_t)s[0] << 24 | (uint32_t)(uint8_t)s[1] << 16 |
	       (uint32_t)(uint8_t)s[2] << 8 | (uint8_t)s[3];
}

/* Room for one more chunk in *chunks (count of them, *cap allocated): doubled as chunks
 * are found, so that the array follows the chunks read, not the header's count or the
 * file's announced size (a compressed file announces its size; its bytes may end far
 * sooner). */
static bool chunk_room(j3d_chunk **chunks, size_t count, size_t *cap)
{
	if (count < *cap)
		return true;
	size_t want = *cap ? *cap * 2 : 16;
	j3d_chunk *p = want <= SIZE_MAX / sizeof *p ? realloc(*chunks, want * sizeof *p) : NULL;
	if (!p)
		return false;
	memset(p + count, 0, (want - count) * sizeof *p);
	*chunks = p;
	*cap = want;
	return true;
}

/* The chunk kinds a J3D file holds. */
static const char *const known_kinds[] = { "INF1", "VTX1", "EVP1", "DRW1", "JNT1", "SHP1",
					   "MAT3", "MAT2", "MDL3", "TEX1" };

/* The chunk walk itself, into *found (see chunk_room). */
static nm_status walk_into(j3d_model *m, uint64_t fsize, uint64_t most, j3d_chunk **found,
			   size_t *cap, nm_error *err)
{
	uint64_t off = J3D_HEADER_SIZE;
	for (uint32_t i = 0; i < m->count_field; i++) {
		if (off == fsize && m->size_field == fsize &&
		    m->count_field <= sizeof known_kinds / sizeof known_kinds[0]) {
			/* Whole by its own size, with fewer chunks than counted: real Sunshine
			 * BMTs (nozzlebox, bianco, mirror, sandbombbase: TEX1 alone, count 2) are
			 * shipped so; the game's loader reads on past the end unharmed. A count
			 * above the kinds there are is damage, not a converter's miscount. */
			break;
		}
		if (off == fsize) {
			m->walk_failed = true;
			nm_fail(&m->walk_err, NM_E_FORMAT, m->file, NULL, off,
				"the header lists %u chunks but the file ends after %u",
				m->count_field, i);
			break;
		}
		if (fsize - off < 8 || m->nchunks == most) {
			m->walk_failed = true;
			nm_fail(&m->walk_err, NM_E_FORMAT, m->file, NULL, off,
				"chunk %u header runs past the end of the file", i);
			break;
		}
		uint8_t h[8];
		nm_status s = nm_reader_read(m->r, off, h, 8, NULL, err);
		if (s != NM_OK)
			return s;
		if (!chunk_room(found, m->nchunks, cap))
			return nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory");
		j3d_chunk *c = &(*found)[m->nchunks];
		nm_chunk_magic(c, h);
		c->present = true;
		c->off = off;
		c->size = nm_be32(h + 4);
		c->len = c->size;
		if (c->size < 8) {
			m->walk_failed = true;
			nm_fail(&m->walk_err, NM_E_FORMAT, m->file, c->magic, off,
				"chunk size %u is smaller than its 8-byte header", c->size);
			break;
		}
		m->nchunks++;
		if (c->size > fsize - off) {
			nm_chunk_fail(c, m->file, 0, "chunk of 0x%x bytes runs past the end of the "
				      "file (0x%llx bytes left)", c->size,
				      (unsigned long long)(fsize - off));
			c->size = (uint32_t)(fsize - off);
			c->len = c->size;
			m->walk_failed = true;
			m->walk_err = c->err;
			break;
		}
		off += c->size;
	}
	return NM_OK;
}

/* Walk the chunks by their sizes. A chunk that runs past the end of the file is kept
 * (clamped, marked failed) so its bytes still show; the walk stops there. */
static nm_status walk_chunks(j3d_model *m, nm_error *err)
{
	uint64_t fsize = nm_reader_size(m->r), most = (fsize - J3D_HEADER_SIZE) / 8;
	size_t cap = 0;
	j3d_chunk *found = NULL;
	nm_status s = walk_into(m, fsize, most, &found, &cap, err);
	m->chunks = s == NM_OK ? nm_tree_alloc_array(m->t, m->nchunks ? m->nchunks : 1,
						     sizeof *m->chunks) : NULL;
	if (m->chunks && m->nchunks)
		memcpy(m->chunks, found, m->nchunks * sizeof *m->chunks);
	free(found);
	if (s != NM_OK)
		return s;
	if (!m->chunks)
		return nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

#define PARSE(field, fn, ...) do { \
	if (!m->field) { \
		m->field = nm_tree_alloc_array(m->t, 1, sizeof *m->field); \
		if (!m->field) \
			return nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory"); \
		m->field->chunk = c; \
		if (fn(m, c, __VA_ARGS__ m->field, &c->err) != NM_OK) { \
			c->failed = true; \
			m->field = NULL; \
		} \
	} \
} while (0)

static nm_status parse_chunks(j3d_model *m, nm_error *err)
{
	for (size_t i = 0; i < m->nchunks; i++) {
		j3d_chunk *c = &m->chunks[i];
		if (c->failed)
			continue;
		/* A second chunk of a known kind is shown raw: the first one wins. */
		switch (c->fourcc) {
		case 0x494E4631: PARSE(inf1, j3d_parse_inf1, ); break;
		case 0x56545831: PARSE(vtx1, j3d_parse_vtx1, ); break;
		case 0x45565031: PARSE(evp1, j3d_parse_evp1, ); break;
		case 0x44525731: PARSE(drw1, j3d_parse_drw1, ); break;
		case 0x4A4E5431: PARSE(jnt1, j3d_parse_jnt1, ); break;
		case 0x53485031: PARSE(shp1, j3d_parse_shp1, ); break;
		case 0x4D415433: PARSE(mat3, j3d_parse_mat3, false, ); break;
		case 0x4D415432: PARSE(mat3, j3d_parse_mat3, true, ); break;
		case 0x4D444C33: PARSE(mdl3, j3d_parse_mdl3, ); break;
		case 0x54455831: PARSE(tex1, j3d_parse_tex1, ); break;
		default: break;
		}
		if (m->mat3 && m->mat3->chunk == c &&
		    nm_tree_on_free(m->t, mat3_view_free, m->mat3) != NM_OK)
			return nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory");
	}
	return NM_OK;
}

static bool is_known(const j3d_model *m, const j3d_chunk *c)
{
	return (m->inf1 && m->inf1->chunk == c) || (m->vtx1 && m->vtx1->chunk == c) ||
	       (m->evp1 && m->evp1->chunk == c) || (m->drw1 && m->drw1->chunk == c) ||
	       (m->jnt1 && m->jnt1->chunk == c) || (m->shp1 && m->shp1->chunk == c) ||
	       (m->mat3 && m->mat3->chunk == c) || (m->mdl3 && m->mdl3->chunk == c) ||
	       (m->tex1 && m->tex1->chunk == c);
}

static bool is_known_kind(uint32_t cc)
{
	for (size_t i = 0; i < sizeof known_kinds / sizeof known_kinds[0]; i++)
		if (cc == fourcc(known_kinds[i]))
			return true;
	return false;
}

static uint64_t total_packets(const j3d_model *m)
{
	uint64_t n = 0;
	for (size_t i = 0; m->shp1 && i < m->shp1->count; i++)
		n += m->shp1->shapes[i].npackets;
	return n;
}

/* Triangles of the shapes mesh.obj and model.glb draw (export/triangulate.h's rule). */
static uint64_t total_triangles(const j3d_model *m)
{
	uint64_t n = 0;
	for (size_t i = 0; m->shp1 && i < m->shp1->count; i++)
		if (m->shp1->shapes[i].ok)
			n += m->shp1->shapes[i].count[J3D_PC_TRIANGLES];
	return n;
}

static void write_info(nm_out *o, j3d_model *m)
{
	nm_info_begin(o, &nm_driver_j3d, m->r);
	nm_kv_str(o, "type", m->type);
	nm_info_size_field(o, "file_size_field", m->size_field, m->r);
	if (!m->walk_failed && m->nchunks < m->count_field)
		nm_kv(o, "chunk_count_field", "%u (the file ends after %zu, where its size field "
		      "says it ends)", m->count_field, m->nchunks);
	else
		nm_kv(o, "chunk_count_field", "%u", m->count_field);
	nm_kv(o, "chunks", "%zu", m->nchunks);
	nm_out_str(o, "chunk_order:");
	for (size_t i = 0; i < m->nchunks; i++)
		nm_out_printf(o, " %s", m->chunks[i].magic);
	nm_out_char(o, '\n');
	nm_kv(o, "joints", "%u", m->jnt1 ? m->jnt1->count : 0);
	nm_kv(o, "materials", "%u", m->mat3 ? m->mat3->count : 0);
	nm_kv(o, "shapes", "%u", m->shp1 ? m->shp1->count : 0);
	nm_kv(o, "textures", "%u", m->tex1 ? m->tex1->count : 0);
	nm_kv(o, "vertices", "%u", m->inf1 ? m->inf1->vertices : 0);
	nm_kv(o, "positions", "%u",
	      m->vtx1 && m->vtx1->arrays[J3D_POS].present ? m->vtx1->arrays[J3D_POS].count : 0);
	nm_kv(o, "triangles", "%llu", (unsigned long long)total_triangles(m));
	nm_kv(o, "packets", "%llu", (unsigned long long)total_packets(m));
	nm_kv(o, "matrix_groups", "%u", m->inf1 ? m->inf1->packets : 0);
	nm_kv(o, "envelopes", "%u", m->evp1 ? m->evp1->count : 0);
	nm_kv(o, "draw_matrices", "%u", m->drw1 ? m->drw1->count : 0);
	/* What model.glb animates (doc/j3danim.md): the files taken, then those around it
	 * left out and why. */
	nm_kv(o, "animations", "%zu", m->anims.n);
	for (size_t i = 0; i < m->anims.n; i++)
		nm_kv_str(o, "animation", m->anims.files[i].path);
	for (size_t i = 0; i < m->anims.nleft; i++)
		nm_kv_str(o, "animation_left_out", m->anims.left[i]);
	if (m->anims.others)
		nm_kv(o, "animations_for_other_models", "%zu", m->anims.others);
	if (m->walk_failed)
		nm_kv_str(o, "error", m->walk_err.msg);
	for (size_t i = 0; i < m->nchunks; i++) {
		const j3d_chunk *c = &m->chunks[i];
		if (c->failed)
			nm_kv_str(o, "chunk_error", c->err.msg);
		else if (!is_known(m, c))
			nm_kv(o, "unknown_chunk", "%s at 0x%llx (0x%x bytes): %s", c->magic,
			      (unsigned long long)c->off, c->size,
			      is_known_kind(c->fourcc) ? "a second chunk of this kind, shown raw"
						       : "not decoded, shown raw");
	}
}

/* Directory name: the magic lower-case, trailing blanks and NULs trimmed. */
static char *chunk_dir_name(nm_tree *t, nm_node *root, const j3d_chunk *c)
{
	char raw[5];
	size_t n = 4;
	for (int k = 0; k < 4; k++) {
		uint8_t b = (uint8_t)(c->fourcc >> (24 - 8 * k));
		raw[k] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
	}
	while (n > 0 && (raw[n - 1] == ' ' || raw[n - 1] == '\0'))
		n--;
	char *safe = nm_safe_name(raw, n);
	if (!safe)
		return NULL;
	static const char *const none[] = { "", NULL };
	char *u = nm_unique_stem(t, root, safe, none);
	free(safe);
	return u;
}

typedef nm_status (*tree_fn)(nm_tree *, j3d_model *, const j3d_chunk *);

static tree_fn tree_for(const j3d_model *m, const j3d_chunk *c)
{
	if (m->inf1 && m->inf1->chunk == c) return j3d_tree_inf1;
	if (m->vtx1 && m->vtx1->chunk == c) return j3d_tree_vtx1;
	if (m->evp1 && m->evp1->chunk == c) return j3d_tree_evp1;
	if (m->drw1 && m->drw1->chunk == c) return j3d_tree_drw1;
	if (m->jnt1 && m->jnt1->chunk == c) return j3d_tree_jnt1;
	if (m->shp1 && m->shp1->chunk == c) return j3d_tree_shp1;
	if (m->mat3 && m->mat3->chunk == c) return j3d_tree_mat3;
	if (m->mdl3 && m->mdl3->chunk == c) return j3d_tree_mdl3;
	if (m->tex1 && m->tex1->chunk == c) return j3d_tree_tex1;
	return NULL;
}

/* Phase 1, in file order: the chunk's directory and raw.bin. */
static nm_status chunk_dir(nm_tree *t, nm_node *root, j3d_model *m, j3d_chunk *c)
{
	char *name = chunk_dir_name(t, root, c);
	if (!name)
		return NM_E_NOMEM;
	c->dir = nm_dir(t, root, name);
	free(name);
	if (!c->dir || !nm_slice(t, c->dir, "raw.bin", m->r, c->off, c->size))
		return NM_E_NOMEM;
	return NM_OK;
}

/* Phase 2: the chunk's files. */
static nm_status chunk_files(nm_tree *t, j3d_model *m, j3d_chunk *c)
{
	tree_fn fn = c->failed ? NULL : tree_for(m, c);
	if (fn)
		return fn(t, m, c);
	/* Failed or unknown chunks: the generic header and, when failed, error.txt. */
	nm_out o;
	nm_out_init(&o);
	j3d_header_begin(&o, c);
	if (!c->failed)
		nm_kv_str(&o, "note", is_known_kind(c->fourcc)
				      ? "a second chunk of this kind; only the first is decoded"
				      : "unknown chunk: not decoded");
	nm_node *h = nm_text(t, c->dir, "header.txt", &o);
	nm_out_free(&o);
	if (!h || (c->failed && !nm_error_file(t, c->dir, &c->err)))
		return NM_E_NOMEM;
	return NM_OK;
}

nm_status j3d_parse_model(nm_tree *t, nm_reader *r, j3d_model **out, nm_error *err)
{
	const char *file = nm_reader_name(r);
	uint8_t h[J3D_HEADER_SIZE];
	if (nm_reader_size(r) < J3D_HEADER_SIZE)
		return nm_fail(err, NM_E_FORMAT, file, NULL, 0,
			       "file of %llu bytes is shorter than the 0x20-byte J3D header",
			       (unsigned long long)nm_reader_size(r));
	nm_status s = nm_reader_read(r, 0, h, sizeof h, NULL, err);
	if (s != NM_OK)
		return s;
	j3d_model *m = nm_tree_alloc(t, sizeof *m);
	if (!m)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	m->t = t;
	m->r = r;
	m->file = file;
	memcpy(m->type, h, 8);
	m->size_field = nm_be32(h + 8);
	m->count_field = nm_be32(h + 12);

	s = walk_chunks(m, err);
	if (s == NM_OK)
		s = parse_chunks(m, err);
	if (s != NM_OK)
		return s;
	j3d_link(m);
	*out = m;
	return NM_OK;
}

static nm_status j3d_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	const char *file = nm_reader_name(r);
	j3d_model *m;
	nm_status s = j3d_parse_model(t, r, &m, err);
	if (s != NM_OK)
		return s;
	/* Counts for the sizes of the shape CSVs and mesh.obj: a header-only walk. */
	s = j3d_count_shapes(m, err);
	if (s == NM_OK)
		s = j3d_pair_animations(m, err);
	if (s != NM_OK)
		return s;

	nm_out o;
	nm_out_init(&o);
	write_info(&o, m);
	if (!nm_text(t, root, "info.txt", &o)) {
		nm_out_free(&o);
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	}
	if (m->walk_failed && !nm_error_file(t, root, &m->walk_err))
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < m->nchunks; i++)
		if ((s = chunk_dir(t, root, m, &m->chunks[i])) != NM_OK)
			return nm_fail(err, s, file, m->chunks[i].magic, m->chunks[i].off,
				       "%s while building the tree", nm_status_str(s));
	/* TEX1 first: material texts and mesh.mtl name its files. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < m->nchunks; i++) {
			j3d_chunk *c = &m->chunks[i];
			bool tex = m->tex1 && m->tex1->chunk == c;
			if (tex != (pass == 0))
				continue;
			if ((s = chunk_files(t, m, c)) != NM_OK)
				return nm_fail(err, s, file, c->magic, c->off,
					       "%s while building the tree", nm_status_str(s));
		}
	/* The material tables were needed only to format mat3/N.txt. */
	if (m->mat3)
		nm_view_free(&m->mat3->v);
	s = j3d_add_obj(t, root, m);
	if (s == NM_OK)
		s = j3d_add_gltf_animated(t, root, m);
	if (s != NM_OK)
		return nm_fail(err, s, file, NULL, NM_NO_OFFSET, "%s while adding mesh.obj",
			       nm_status_str(s));
	return NM_OK;
}

void j3d_header_begin(nm_out *o, const j3d_chunk *c)
{
	nm_kv_str(o, "magic", c->magic);
	nm_kv(o, "offset", "0x%llx", (unsigned long long)c->off);
	nm_kv(o, "size", "%u", c->size);
}

char *j3d_safe_stem(const char *raw)
{
	if (!raw || !raw[0])
		return NULL;
	char *s = nm_safe_name(raw, strlen(raw));
	if (!s || strlen(s) <= J3D_STEM_MAX)
		return s;
	/* Cut before a UTF-8 continuation byte or inside a %XX escape. */
	size_t n = J3D_STEM_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	if (n >= 1 && s[n - 1] == '%')
		n -= 1;
	else if (n >= 2 && s[n - 2] == '%')
		n -= 2;
	s[n] = '\0';
	return s;
}
