/* MTRL: the materials of a model (FORMATS.md 6.4; kinnay's CMaterialCache::SData).
 *
 * Each material: String name (u32 length + bytes), 16-byte MTRL asset GUID, FourCC type,
 * u32 flags, u32 parameter count, then the parameters. Two layouts exist:
 *  - Wii U (kinnay): each parameter is FourCC id, u32 kind (0 texture, 1 color,
 *    2 scalar, 4 layered texture, 5 int4), payload.
 *  - Switch (what the corpus shows): first a table of count x (FourCC id, FourCC type),
 *    then each parameter again as FourCC id, FourCC type (TXTR, COLR, SCLR, INT , INT4,
 *    CPLX), payload.
 * We tell them apart by the word after the first id: a small number is a Wii U kind,
 * four printable bytes a Switch type. Payloads: texture = GUID + usage (u32 flags,
 * filter, wrap x/y/z); color = 4 f32; scalar = f32; int = s32; int4 = 4 s32; layered =
 * u32, 3 colors, u8 flags, then 3 x (GUID, usage only if the GUID is not zero). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "formats/rfrm/rfrm.h"
#include "lib/view.h"

enum param_kind { P_TEXTURE, P_COLOR, P_SCALAR, P_INT, P_LAYERED, P_INT4, P_UNKNOWN };

static enum param_kind kind_of_type(const uint8_t *t)
{
	static const struct { char fourcc[5]; enum param_kind kind; } types[] = {
		{ "TXTR", P_TEXTURE }, { "COLR", P_COLOR }, { "SCLR", P_SCALAR },
		{ "INT ", P_INT }, { "INT4", P_INT4 }, { "CPLX", P_LAYERED },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (memcmp(t, types[i].fourcc, 4) == 0)
			return types[i].kind;
	return P_UNKNOWN;
}

static enum param_kind kind_of_number(uint32_t k)
{
	switch (k) {
	case 0: return P_TEXTURE;
	case 1: return P_COLOR;
	case 2: return P_SCALAR;
	case 3: return P_INT;      /* not in kinnay's table; "Int" ids exist [L] */
	case 4: return P_LAYERED;
	case 5: return P_INT4;
	default: return P_UNKNOWN;
	}
}

static bool printable4(const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		if (p[i] < 0x20 || p[i] >= 0x7f)
			return false;
	return true;
}

/* "DIFT" -> "dift", "LIT " -> "lit": a lower_snake key prefix. */
static void param_key(char out[8], const uint8_t *id)
{
	size_t n = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = id[i];
		if (c == ' ' || c == 0)
			continue;
		out[n++] = isalnum(c) ? (char)tolower(c) : '_';
	}
	if (n == 0)
		out[n++] = '_';
	out[n] = '\0';
}

static void guid_line(nm_rec *r, const char *key, const uint8_t *g)
{
	char s[RFRM_GUID_STR];
	rfrm_guid_str(s, g);
	nm_rec_derived(r, key, "%s", s);
}

/* Texture usage info: flags, filter, wrap x/y/z (s32: -1 is "none"). */
static void usage_record(nm_rec *r, const char *key, size_t off)
{
	char k[48];
	snprintf(k, sizeof k, "%s_flags", key);
	nm_rec_hex(r, k, off, NM_FIELD_U32, 0);
	snprintf(k, sizeof k, "%s_filter", key);
	nm_rec_int(r, k, off + 4, NM_FIELD_S32);
	snprintf(k, sizeof k, "%s_wrap", key);
	nm_rec_ints(r, k, off + 8, NM_FIELD_S32, 3);
}

/* A texture parameter's slot, asset and PNG lines (model_textures.c). Writing, they go
 * to the text and mat remembers the texture; reading back, they are derived lines (what
 * they say follows from the GUID and the PAK), made again into scratch. */
static void texture_lines(rfrm_model *m, rfrm_material *mat, const char *key,
			  const uint8_t *id, const uint8_t *guid, nm_rec *r)
{
	if (!r->ed) {
		rfrm_texture_ref(m, mat, key, id, guid, r->o);
		return;
	}
	rfrm_texref one;
	rfrm_material scratch = { .tex = &one };
	nm_out o;
	nm_out_init(&o);
	rfrm_texture_ref(m, &scratch, key, id, guid, &o);
	if (nm_out_status(&o) == NM_OK)
		rfrm_rec_replay(r, (const char *)o.data, o.len);
	nm_out_free(&o);
}

/* One parameter payload at *off; text to o, OBJ facts to mat. */
static nm_status param(rfrm_model *m, nm_view *v, size_t *off, const uint8_t *id,
		       enum param_kind kind, nm_rec *r, rfrm_material *mat, nm_error *err)
{
	char key[8], k[48];
	param_key(key, id);
	size_t p = *off;
	switch (kind) {
	case P_TEXTURE: {
		const uint8_t *g = nm_bytes(v, p, 16);
		if (!g || !nm_view_has(v, p, 36))
			return nm_view_fail(v, err, "texture parameter %s", key);
		snprintf(k, sizeof k, "%s_texture", key);
		guid_line(r, k, g);
		usage_record(r, key, p + 16);
		*off = p + 36;
		texture_lines(m, mat, key, id, g, r);
		return NM_OK;
	}
	case P_COLOR:
		if (!nm_view_has(v, p, 16))
			return nm_view_fail(v, err, "color parameter %s", key);
		snprintf(k, sizeof k, "%s_color", key);
		nm_rec_floats(r, k, p, 4);
		if (memcmp(id, "DIFC", 4) == 0 && !mat->has_color) {
			mat->has_color = true;
			for (int i = 0; i < 4; i++)
				mat->color[i] = nm_f32(v, p + 4 * (size_t)i);
		}
		*off = p + 16;
		return NM_OK;
	case P_SCALAR:
		if (!nm_view_has(v, p, 4))
			return nm_view_fail(v, err, "scalar parameter %s", key);
		snprintf(k, sizeof k, "%s_scalar", key);
		nm_rec_floats(r, k, p, 1);
		*off = p + 4;
		return NM_OK;
	case P_INT:
		if (!nm_view_has(v, p, 4))
			return nm_view_fail(v, err, "int parameter %s", key);
		snprintf(k, sizeof k, "%s_int", key);
		nm_rec_int(r, k, p, NM_FIELD_S32);
		*off = p + 4;
		return NM_OK;
	case P_INT4:
		if (!nm_view_has(v, p, 16))
			return nm_view_fail(v, err, "int4 parameter %s", key);
		snprintf(k, sizeof k, "%s_int4", key);
		nm_rec_ints(r, k, p, NM_FIELD_S32, 4);
		*off = p + 16;
		return NM_OK;
	case P_LAYERED: {
		if (!nm_view_has(v, p, 53))
			return nm_view_fail(v, err, "layered texture parameter %s", key);
		snprintf(k, sizeof k, "%s_layered_unknown", key);
		nm_rec_int(r, k, p, NM_FIELD_U32);
		snprintf(k, sizeof k, "%s_layered_colors", key);
		nm_rec_floats(r, k, p + 4, 12);
		snprintf(k, sizeof k, "%s_layered_flags", key);
		nm_rec_hex(r, k, p + 52, NM_FIELD_U8, 0);
		p += 53;
		for (int layer = 0; layer < 3; layer++) {
			const uint8_t *g = nm_bytes(v, p, 16);
			if (!g)
				return nm_view_fail(v, err, "layer %d of parameter %s", layer, key);
			char lk[32];
			snprintf(lk, sizeof lk, "%s_layer%d", key, layer);
			snprintf(k, sizeof k, "%s_texture", lk);
			if (rfrm_guid_zero(g)) {
				nm_rec_derived(r, k, "none");
				p += 16;
				continue;
			}
			guid_line(r, k, g);
			if (!nm_view_has(v, p + 16, 20))
				return nm_view_fail(v, err, "layer %d of parameter %s", layer, key);
			usage_record(r, lk, p + 16);
			p += 36;
		}
		*off = p;
		return NM_OK;
	}
	case P_UNKNOWN:
		break;
	}
	return nm_view_fail_at(v, err, NM_E_UNSUPPORTED, p,
			       "parameter %s has a type we do not know: its size is unknown, so the materials after it cannot be read",
			       key);
}

/* Material names may hold any byte: what is not text (NULs included) escaped. Written
 * straight to the text (a derived line's value is cut at 511 bytes: nm_kvv); read back,
 * compared as a derived line (an edited material whose name is longer is refused). */
static void name_line(nm_rec *r, const uint8_t *name, uint32_t len)
{
	nm_out o;
	nm_out_init(&o);
	if (!r->ed)
		nm_out_str(r->o, "name: ");
	for (uint32_t i = 0; i < len; i++) {
		unsigned char c = name[i];
		if (c == '\\')
			nm_out_str(&o, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			nm_out_printf(&o, "\\x%02x", c);
		else
			nm_out_char(&o, (char)c);
	}
	if (!r->ed) {
		if (o.len)
			nm_out_write(r->o, o.data, o.len);
		nm_out_char(r->o, '\n');
	} else {
		nm_rec_derived(r, "name", "%.*s", (int)o.len, o.data ? (const char *)o.data : "");
	}
	nm_out_free(&o);
}

/* One material at *off, described to r (export/record.h): writing, mat keeps what
 * mesh.mtl needs; reading back (r->ed), mat is scratch. Its name, GUIDs, type, counts
 * and layout are derived lines (another length or type would move what follows). */
static nm_status material(rfrm_model *m, nm_view *v, size_t *off, size_t index,
			  rfrm_material *mat, nm_rec *r, nm_error *err)
{
	bool writing = !r->ed;
	size_t p = *off;
	uint32_t len = nm_u32(v, p);
	const uint8_t *name = nm_bytes(v, p + 4, len);
	if (!name)
		return nm_view_fail(v, err, "name of material %zu (%u bytes)", index, len);
	p += 4 + (size_t)len;
	const uint8_t *guid = nm_bytes(v, p, 16);
	const uint8_t *type = nm_bytes(v, p + 16, 4);
	uint32_t count = nm_u32(v, p + 24);
	if (!guid || !type || v->bad)
		return nm_view_fail(v, err, "header of material %zu", index);
	size_t head = p;
	p += 28;

	if (writing) {
		mat->off = *off;
		mat->name = nm_tree_strndup(m->t, name, len);
		if (!mat->name)
			return nm_fail(err, NM_E_NOMEM, v->file, v->chunk, NM_NO_OFFSET,
				       "out of memory");
	}

	char tname[5];
	rfrm_fourcc_print(tname, type);
	nm_rec_derived(r, "index", "%zu", index);
	nm_rec_derived(r, "offset", "0x%llx", (unsigned long long)(v->base + *off));
	name_line(r, name, len);
	guid_line(r, "material_guid", guid);
	nm_rec_derived_str(r, "type", tname);
	nm_rec_hex(r, "flags", head + 20, NM_FIELD_U32, 0);
	nm_rec_derived(r, "parameters", "%u", count);

	bool switch_layout = false;
	/* Every parameter takes at least 8 bytes: count is checked against real bytes. */
	if (count && !nm_view_array(v, p, count, 8))
		return nm_view_fail(v, err, "parameter list of material %zu (%u entries)", index,
				    count);
	/* Each texture parameter names one texture (model_textures.c): at most count. */
	if (writing && !(mat->tex = nm_tree_alloc_array(m->t, count ? count : 1, sizeof *mat->tex)))
		return nm_fail(err, NM_E_NOMEM, v->file, v->chunk, NM_NO_OFFSET, "out of memory");
	if (count) {
		const uint8_t *w = nm_bytes(v, p + 4, 4);
		switch_layout = mat->switch_layout = w && printable4(w);
		nm_rec_derived(r, "layout", "%s", switch_layout ? "switch (type table, FourCC types)"
								: "wii_u (u32 kinds)");
	}
	if (switch_layout) {
		if (!nm_view_array(v, p, count, 8))
			return nm_view_fail(v, err, "type table of material %zu", index);
		p += (size_t)count * 8; /* the table repeats what each parameter says */
	}
	nm_status s = NM_OK;
	for (uint32_t i = 0; i < count && s == NM_OK; i++) {
		const uint8_t *id = nm_bytes(v, p, 4);
		const uint8_t *kt = nm_bytes(v, p + 4, 4);
		if (!id || !kt) {
			s = nm_view_fail(v, err, "parameter %u of material %zu", i, index);
			break;
		}
		enum param_kind kind = switch_layout ? kind_of_type(kt) : kind_of_number(nm_u32(v, p + 4));
		p += 8;
		s = param(m, v, &p, id, kind, r, mat, err);
	}
	*off = p;
	return s;
}

/* Writing material i: its text kept in the arena, even the broken one's. */
static nm_status write_material(rfrm_model *m, nm_view *v, size_t *off, size_t i,
				rfrm_material *mat, nm_error *err)
{
	nm_out o;
	nm_rec r;
	nm_out_init(&o);
	nm_rec_write(&r, &o, v);
	nm_status s = material(m, v, off, i, mat, &r, err);
	bool ok = nm_out_status(&o) == NM_OK;
	mat->text = ok && o.len ? nm_tree_strndup(m->t, o.data, o.len) : NULL;
	mat->text_len = mat->text ? o.len : 0;
	if ((!ok || (o.len && !mat->text)) && s == NM_OK)
		s = nm_fail(err, NM_E_NOMEM, v->file, v->chunk, NM_NO_OFFSET, "out of memory");
	nm_out_free(&o);
	return s;
}

nm_status rfrm_mtrl_inverse(void *ctx, void *arg, const uint8_t *bytes, size_t len,
			    nm_edit *ed, nm_error *err)
{
	const rfrm_record_ref *ref = arg;
	rfrm_model *m = ref->m;
	rfrm_material scratch = { 0 };
	size_t off = m->mats[ref->index].off;
	nm_view v;
	(void)ctx;
	nm_status s = rfrm_table_load(m->r, &m->chunk[RC_MTRL].item, "MTRL", &v, err);
	if (s != NM_OK)
		return s;
	nm_rec r;
	nm_rec_read(&r, &v, m->r, "MTRL", (const char *)bytes, len, ed);
	s = material(m, &v, &off, ref->index, &scratch, &r, err);
	nm_rec_end(&r);
	nm_view_free(&v);
	return s;
}

nm_status rfrm_parse_mtrl(rfrm_model *m, nm_view *v, nm_error *err)
{
	uint32_t count = nm_u32(v, 0);
	/* A material takes at least 32 bytes. */
	if (!nm_view_array(v, 4, count, 32))
		return nm_view_fail(v, err, "material list of %u entries", count);
	m->mats = nm_tree_alloc_array(m->t, count ? count : 1, sizeof *m->mats);
	if (!m->mats)
		return nm_fail(err, NM_E_NOMEM, m->name, "MTRL", NM_NO_OFFSET, "out of memory");
	size_t off = 4;
	nm_status s = NM_OK;
	for (uint32_t i = 0; i < count; i++) {
		s = write_material(m, v, &off, i, &m->mats[i], err);
		m->nmats = i + 1; /* keep what was read, even the broken one's text */
		m->switch_mtrl |= m->mats[i].switch_layout;
		if (s != NM_OK)
			break;
	}
	if (s == NM_OK && off != v->size)
		s = nm_view_fail_at(v, err, NM_E_FORMAT, off, "%zu bytes after the last material",
				    v->size - off);
	return s;
}
