/* ASCII CMOD (#celmodel__ascii) read as Celestia reads it and written as binary CMOD
 * (cmod.h, doc/cmod.md "ASCII CMOD"). Facts from CelestiaProject/Celestia
 * src/celutil/tokenizer.cpp (what a token is) and src/celmodel/modelfile.cpp
 * (ModelLoader::TextLoader: the grammar); the code is ours.
 *
 * Tokens: blanks are space, tab, CR, LF; '#' starts a comment to the end of the line;
 * a name is [A-Za-z_][A-Za-z0-9_]*; a number [+-]digits[.digits][(e|E)[+-]digits] (one
 * digit at least, the '+' dropped, an exponent without digits left out of the token);
 * a string is quoted, with the escapes \" \\ \n \uXXXX. What we read beyond that, so
 * that every model we write reads back bit for bit (Celestia stops at each): numbers
 * inf, nan and nan(0xMANTISSA) with a sign, a string escape \xHH for a byte that is not
 * UTF-8, and the vertex semantics nextposition and scalefactor. Where Celestia goes on
 * past something the binary form cannot keep, we do too and say so in notes. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cmod/cmod.h"
#include "lib/alloc.h"

enum tok_kind { TK_END, TK_NAME, TK_NUMBER, TK_STRING, TK_BAD };

typedef struct lexer {
	const char *s, *end, *name;
	unsigned line;
	enum tok_kind kind;
	const char *tok;      /* the token's text (a number without its '+') */
	size_t len;
	unsigned tok_line;
	nm_out *bin;
	cmod_notes *notes;
	cmod_ascii_fault *fault;
	nm_error *err;
} lexer;

static bool is_name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "inf", "nan" or "nan(0xHEX)" at p (after a sign): its length, or 0. */
static size_t special_len(const char *p, const char *end)
{
	size_t n = 0;
	if (end - p >= 3 && (memcmp(p, "inf", 3) == 0 || memcmp(p, "nan", 3) == 0))
		n = 3;
	if (n && p[0] == 'n' && end - p > 5 && memcmp(p + 3, "(0x", 3) == 0) {
		size_t k = 6;
		while (p + k < end && hex_value(p[k]) >= 0)
			k++;
		if (k > 6 && p + k < end && p[k] == ')')
			n = k + 1;
	}
	if (n && p + n < end && is_name_char(p[n]))
		return 0; /* "info", "nanometre": a name */
	return n;
}

/* A number at s (Celestia's NumberStateMachine); TK_BAD when it has no digit. */
static void lex_number(lexer *lx)
{
	const char *p = lx->s, *end = lx->end;
	if (*p == '+')
		p++;
	lx->tok = p;
	const char *q = p;
	if (q < end && *q == '-')
		q++;
	size_t sp = special_len(q, end);
	if (sp) {
		lx->len = (size_t)(q + sp - p);
		lx->s = q + sp;
		lx->kind = TK_NUMBER;
		return;
	}
	bool digits = false;
	while (q < end && is_digit(*q)) {
		q++;
		digits = true;
	}
	if (q < end && *q == '.') {
		q++;
		while (q < end && is_digit(*q)) {
			q++;
			digits = true;
		}
	}
	if (!digits) { /* "-", ".", "+x": Celestia's error token */
		lx->tok = lx->s;
		lx->len = (size_t)(q - lx->s);
		lx->s = q;
		lx->kind = TK_BAD;
		return;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e < end && is_digit(*e)) {
			while (e < end && is_digit(*e))
				e++;
			q = e;
		}
	}
	lx->len = (size_t)(q - p);
	lx->s = q;
	lx->kind = TK_NUMBER;
}

/* A string from its opening quote to its closing one; TK_BAD on an escape Celestia
 * does not know (nor we), or at the end of the file. */
static void lex_string(lexer *lx)
{
	const char *q = lx->s + 1;
	lx->tok = lx->s;
	lx->kind = TK_BAD;
	while (q < lx->end) {
		char c = *q++;
		if (c == '\n')
			lx->line++;
		if (c == '"') {
			lx->kind = TK_STRING;
			break;
		}
		if (c != '\\')
			continue;
		if (q >= lx->end)
			break;
		c = *q++;
		int digits = c == 'u' ? 4 : c == 'x' ? 2 : 0;
		if (!digits && c != '"' && c != '\\' && c != 'n')
			break;
		for (int i = 0; i < digits; i++, q++)
			if (q >= lx->end || hex_value(*q) < 0)
				goto out;
	}
out:
	lx->len = (size_t)(q - lx->tok);
	lx->s = q;
}

static void next(lexer *lx)
{
	for (;;) {
		if (lx->s >= lx->end) {
			lx->kind = TK_END;
			lx->tok = lx->s;
			lx->len = 0;
			lx->tok_line = lx->line;
			return;
		}
		char c = *lx->s;
		if (c == '#') {
			while (lx->s < lx->end && *lx->s != '\n' && *lx->s != '\r')
				lx->s++;
			continue;
		}
		if (c == '\n')
			lx->line++;
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		lx->s++;
	}
	lx->tok_line = lx->line;
	char c = *lx->s;
	if (c == '"') {
		lex_string(lx);
	} else if (is_digit(c) || c == '+' || c == '-' || c == '.' ||
		   special_len(lx->s, lx->end)) {
		lex_number(lx);
	} else if (is_name_start(c)) {
		lx->tok = lx->s;
		while (lx->s < lx->end && is_name_char(*lx->s))
			lx->s++;
		lx->len = (size_t)(lx->s - lx->tok);
		lx->kind = TK_NAME;
	} else {
		lx->tok = lx->s++;
		lx->len = 1;
		lx->kind = TK_BAD;
	}
}

static bool is_name(const lexer *lx, const char *word)
{
	return lx->kind == TK_NAME && lx->len == strlen(word) && memcmp(lx->tok, word, lx->len) == 0;
}

/* The token as a message shows it: quoted, cut, unprintable bytes as \xHH. */
static void shown(const lexer *lx, char *buf, size_t cap)
{
	if (lx->kind == TK_END) {
		snprintf(buf, cap, "the end of the file");
		return;
	}
	size_t n = 0;
	buf[n++] = '\'';
	for (size_t i = 0; i < lx->len && n + 8 < cap; i++) {
		unsigned char ch = (unsigned char)lx->tok[i];
		if (i == 40) {
			n += (size_t)snprintf(buf + n, cap - n, "...");
			break;
		}
		if (ch < 0x20 || ch >= 0x7f || ch == '\'')
			n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", ch);
		else
			buf[n++] = (char)ch;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

/* Stop at the current token: "NAME:LINE: why", and the fault for an edit's refusal. */
__attribute__((format(printf, 2, 3)))
static nm_status fail(lexer *lx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lx->fault->why, sizeof lx->fault->why, fmt, ap);
	va_end(ap);
	lx->fault->line = lx->tok_line;
	char where[300];
	snprintf(where, sizeof where, "%s:%u", lx->name, lx->tok_line);
	return nm_fail(lx->err, NM_E_FORMAT, where, NULL, NM_NO_OFFSET, "%s", lx->fault->why);
}

/* "expected WHAT after 'AFTER', found 'TOKEN'" at the current token. */
static nm_status expected(lexer *lx, const char *what, const char *after)
{
	char found[200];
	shown(lx, found, sizeof found);
	if (lx->kind == TK_BAD && lx->len && lx->tok[0] == '"')
		return fail(lx, "expected %s after '%s': the string %s does not end, or has an "
			    "escape other than \\\" \\\\ \\n \\uXXXX \\xHH", what, after, found);
	return fail(lx, "expected %s after '%s', found %s", what, after, found);
}

#define TRY(x) do { nm_status s_ = (x); if (s_ != NM_OK) return s_; } while (0)

/* The token's text, NUL-terminated, for strtof and friends (numbers are short; a
 * longer one is no number of ours). */
static bool token_copy(const lexer *lx, char *buf, size_t cap)
{
	if (lx->len >= cap)
		return false;
	memcpy(buf, lx->tok, lx->len);
	buf[lx->len] = '\0';
	return true;
}

/* inf, nan, nan(0xM) with an optional '-': the float's bits. */
static bool special_value(const char *t, float *f)
{
	uint32_t sign = 0, bits;
	if (*t == '-') {
		sign = 0x80000000u;
		t++;
	}
	if (strcmp(t, "inf") == 0) {
		bits = 0x7f800000u;
	} else if (strcmp(t, "nan") == 0) {
		bits = 0x7fc00000u;
	} else if (strncmp(t, "nan(0x", 6) == 0) {
		uint64_t m = 0;
		for (t += 6; *t != ')'; t++)
			if ((m = m * 16 + (uint64_t)hex_value(*t)) > 0x7fffff)
				return false;
		if (m == 0)
			return false; /* that would be inf */
		bits = 0x7f800000u | (uint32_t)m;
	} else {
		return false;
	}
	bits |= sign;
	memcpy(f, &bits, 4);
	return true;
}

/* A nonzero digit before any exponent: a decimal that is not zero. */
static bool nonzero_digits(const char *t)
{
	for (; *t && *t != 'e' && *t != 'E'; t++)
		if (*t >= '1' && *t <= '9')
			return true;
	return false;
}

/* A float as Celestia reads a vertex value (from_chars<float>: out of range when it
 * would be infinite, or zero from nonzero digits) or, with via_double, a material
 * value (from_chars<double>, then converted to float: past FLT_MAX by half a unit in
 * the last place it is infinite). */
static nm_status number(lexer *lx, bool via_double, const char *after, float *f)
{
	char t[80];
	if (lx->kind != TK_NUMBER || !token_copy(lx, t, sizeof t))
		return expected(lx, "a number", after);
	if (special_value(t, f))
		return NM_OK;
	if (strncmp(t, "nan", 3) == 0 || strncmp(t, "-nan", 4) == 0)
		return fail(lx, "'%s' after '%s': a NaN's mantissa is 1 to 0x7fffff", t, after);
	char *stop;
	errno = 0;
	if (via_double) {
		double d = strtod(t, &stop);
		bool range = errno == ERANGE && (isinf(d) || (d == 0 && nonzero_digits(t)));
		if (*stop || range)
			return fail(lx, "'%s' after '%s' is not a number Celestia reads as a "
				    "double", t, after);
		/* The float nearest d; at or past FLT_MAX plus half its unit, infinity
		 * (IEEE's conversion, written out: C leaves an out-of-range one undefined). */
		if (fabs(d) >= 0x1.ffffffp127)
			*f = d < 0 ? -INFINITY : INFINITY;
		else
			*f = (float)d;
		return NM_OK;
	}
	*f = strtof(t, &stop);
	bool range = errno == ERANGE && (isinf(*f) || (*f == 0 && nonzero_digits(t)));
	if (*stop || range)
		return fail(lx, "'%s' after '%s' is out of the float range (Celestia refuses it; "
			    "write inf or -inf for an infinity)", t, after);
	return NM_OK;
}

/* An unsigned integer up to max (from_chars<unsigned>: digits only). */
static nm_status integer(lexer *lx, uint64_t max, const char *what, const char *after,
			 uint64_t *v)
{
	if (lx->kind != TK_NUMBER)
		return expected(lx, what, after);
	uint64_t n = 0;
	for (size_t i = 0; i < lx->len; i++) {
		if (!is_digit(lx->tok[i]))
			return expected(lx, what, after);
		n = n * 10 + (uint64_t)(lx->tok[i] - '0');
		if (n > max) {
			char found[200];
			shown(lx, found, sizeof found);
			return fail(lx, "%s %s after '%s' is more than %llu", what, found, after,
				    (unsigned long long)max);
		}
	}
	*v = n;
	return NM_OK;
}

/* The string token unescaped into a malloc'd NUL-terminated buffer (*len bytes, NULs
 * possible). */
static nm_status string_value(lexer *lx, const char *after, char **out, size_t *len)
{
	if (lx->kind != TK_STRING)
		return expected(lx, "a quoted texture name", after);
	char *d = nm_alloc(lx->bin->opt, lx->len, 1, lx->err, lx->name, NULL, NM_NO_OFFSET);
	if (!d)
		return lx->err->code;
	size_t n = 0;
	const char *p = lx->tok + 1, *end = lx->tok + lx->len - 1;
	while (p < end) {
		char c = *p++;
		if (c == '\r') { /* Celestia reads CR, CR LF and LF CR as one LF */
			if (p < end && *p == '\n')
				p++;
			d[n++] = '\n';
			continue;
		}
		if (c != '\\') {
			d[n++] = c;
			continue;
		}
		c = *p++;
		if (c == 'u' || c == 'x') {
			unsigned cp = 0;
			for (int i = 0; i < (c == 'u' ? 4 : 2); i++)
				cp = cp * 16 + (unsigned)hex_value(*p++);
			if (c == 'x') {
				d[n++] = (char)cp;
			} else if (cp < 0x80) { /* UTF-8, as Celestia encodes it */
				d[n++] = (char)cp;
			} else if (cp < 0x800) {
				d[n++] = (char)(0xc0 | cp >> 6);
				d[n++] = (char)(0x80 | (cp & 0x3f));
			} else {
				d[n++] = (char)(0xe0 | cp >> 12);
				d[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
				d[n++] = (char)(0x80 | (cp & 0x3f));
			}
		} else {
			d[n++] = c == 'n' ? '\n' : c;
		}
	}
	d[n] = '\0';
	*out = d;
	*len = n;
	return NM_OK;
}

static int lookup(const lexer *lx, const char *(*name)(int), int count)
{
	for (int i = 0; i < count; i++)
		if (is_name(lx, name(i)))
			return i;
	return -1;
}

static nm_status note(lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static nm_status note(lexer *lx, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (cmod_note(lx->notes, "line %u: %s", lx->tok_line, buf) != NM_OK)
		return nm_fail(lx->err, NM_E_NOMEM, lx->name, NULL, NM_NO_OFFSET, "out of memory");
	return NM_OK;
}

/* A texture line: the name is kept as the binary loader keeps it, except what the
 * binary form cannot hold (a NUL) or Celestia's reader drops before any file name
 * check (empty): those go, with a note. */
static nm_status texture(lexer *lx, cmod_material *mat, int sem)
{
	const char *key = cmod_texture_keyword(sem);
	char *name = NULL;
	size_t len = 0;
	next(lx);
	TRY(string_value(lx, key, &name, &len));
	if (len == 0 || len > UINT16_MAX || strlen(name) != len) {
		free(name);
		return note(lx, "%s name left out, as Celestia does (%s)", key,
			    len == 0 ? "it is empty" : len > UINT16_MAX ? "longer than 65535 bytes"
			    : "a NUL in a file name");
	}
	free(mat->texture[sem]);
	mat->texture[sem] = name;
	return NM_OK;
}

static nm_status material(lexer *lx)
{
	cmod_material mat = { .specpower = 1.0f, .opacity = 1.0f, .illumination = -1 };
	nm_status s = NM_OK;
	for (next(lx); s == NM_OK && lx->kind == TK_NAME && !is_name(lx, "end_material");
	     next(lx)) {
		char key[48];
		snprintf(key, sizeof key, "%.*s", (int)(lx->len < 40 ? lx->len : 40), lx->tok);
		int sem = lookup(lx, cmod_texture_keyword, CMOD_TEXTURE_SEMANTICS);
		if (sem >= 0) {
			s = texture(lx, &mat, sem);
		} else if (is_name(lx, "blend")) {
			next(lx);
			int b = lookup(lx, cmod_blend_name, 3);
			if (b < 0)
				s = expected(lx, "normal, add or premultiplied", "blend");
			mat.blend = b;
			mat.stored |= CMOD_HAS_BLEND;
		} else {
			/* Celestia reads one number for these two and three for anything
			 * else, known or not, and keeps the known ones. */
			bool one = is_name(lx, "specpower") || is_name(lx, "opacity");
			float v[3];
			unsigned at = lx->tok_line;
			for (int i = 0; s == NM_OK && i < (one ? 1 : 3); i++) {
				next(lx);
				s = number(lx, true, key, &v[i]);
			}
			if (s != NM_OK)
				break;
			static const struct { const char *key; unsigned bit; } props[] = {
				{ "diffuse", CMOD_HAS_DIFFUSE }, { "specular", CMOD_HAS_SPECULAR },
				{ "emissive", CMOD_HAS_EMISSIVE }, { "specpower", CMOD_HAS_SPECPOWER },
				{ "opacity", CMOD_HAS_OPACITY },
			};
			float *dst[] = { mat.diffuse, mat.specular, mat.emissive, &mat.specpower,
					 &mat.opacity };
			size_t k = 0;
			while (k < 5 && strcmp(key, props[k].key) != 0)
				k++;
			if (k < 5) {
				memcpy(dst[k], v, (one ? 1 : 3) * sizeof(float));
				mat.stored |= props[k].bit;
			} else {
				unsigned keep = lx->tok_line;
				lx->tok_line = at;
				s = note(lx, "unknown material property '%s' and its three numbers "
					 "skipped, as Celestia does", key);
				lx->tok_line = keep;
			}
		}
	}
	if (s == NM_OK && !is_name(lx, "end_material"))
		s = expected(lx, "a material property or end_material", "material");
	if (s == NM_OK)
		cmod_bin_material(lx->bin, &mat);
	for (int k = 0; k < CMOD_TEXTURE_SEMANTICS; k++)
		free(mat.texture[k]);
	return s;
}

static nm_status vertexdesc(lexer *lx, cmod_attr *attrs, unsigned *nattrs, unsigned *stride)
{
	next(lx);
	if (!is_name(lx, "vertexdesc"))
		return expected(lx, "vertexdesc", "mesh");
	for (next(lx); lx->kind == TK_NAME && !is_name(lx, "end_vertexdesc"); next(lx)) {
		int sem = lookup(lx, cmod_semantic_name, CMOD_SEMANTIC_COUNT);
		if (sem < 0)
			return expected(lx, "a vertex attribute (position, normal, color0...) or "
					"end_vertexdesc", "vertexdesc");
		if (*nattrs == CMOD_MAX_ATTRS)
			return fail(lx, "more than %d vertex attributes (Celestia's limit)",
				    CMOD_MAX_ATTRS);
		next(lx);
		int fmt = lookup(lx, cmod_format_name, CMOD_FORMAT_COUNT);
		if (fmt < 0)
			return expected(lx, "f1, f2, f3, f4 or ub4", cmod_semantic_name(sem));
		attrs[(*nattrs)++] = (cmod_attr){ .semantic = sem, .format = fmt, .offset = *stride };
		*stride += cmod_format_size(fmt);
	}
	if (!is_name(lx, "end_vertexdesc"))
		return expected(lx, "a vertex attribute or end_vertexdesc", "vertexdesc");
	return NM_OK;
}

/* Room for count items of at least two bytes each ("0 ") in what is left of the
 * text: checked before count * size bytes are reserved, so a count cannot make us
 * allocate more than the text could fill. */
static nm_status room_for(lexer *lx, uint64_t count, uint64_t size, const char *what)
{
	uint64_t left = (uint64_t)(lx->end - lx->s);
	if (count > (left + 1) / 2)
		return fail(lx, "%llu %s cannot fit in the %llu bytes left in the file",
			    (unsigned long long)count, what, (unsigned long long)left);
	if (size && !nm_out_reserve(lx->bin, (size_t)(count * size)))
		return nm_fail(lx->err, lx->bin->over_limit ? NM_E_LIMIT : NM_E_NOMEM, lx->name,
			       NULL, NM_NO_OFFSET, "line %u: %llu %s take %llu bytes: %s",
			       lx->tok_line, (unsigned long long)count, what,
			       (unsigned long long)(count * size),
			       lx->bin->over_limit ? "past max_file_size" : "out of memory");
	return NM_OK;
}

static nm_status vertices(lexer *lx, const cmod_attr *attrs, unsigned nattrs,
			  unsigned stride, uint32_t *nverts, size_t mesh)
{
	uint64_t n;
	next(lx);
	if (!is_name(lx, "vertices"))
		return expected(lx, "vertices", "end_vertexdesc");
	next(lx);
	TRY(integer(lx, UINT32_MAX, "a vertex count", "vertices", &n));
	unsigned values = 0;
	for (unsigned a = 0; a < nattrs; a++)
		values += cmod_format_components(attrs[a].format);
	TRY(room_for(lx, n * values, 0, "vertex values"));
	cmod_bin_mesh_begin(lx->bin, attrs, nattrs, (uint32_t)n);
	TRY(room_for(lx, n, stride, "vertex bytes"));
	*nverts = (uint32_t)n;
	for (uint64_t v = 0; values && v < n; v++)
		for (unsigned a = 0; a < nattrs; a++) {
			char after[96];
			snprintf(after, sizeof after, "%s of mesh %zu vertex %llu",
				 cmod_semantic_name(attrs[a].semantic), mesh, (unsigned long long)v);
			for (unsigned c = 0; c < cmod_format_components(attrs[a].format); c++) {
				next(lx);
				if (attrs[a].format == CMOD_UB4) {
					uint64_t b;
					TRY(integer(lx, 255, "an integer 0 to 255", after, &b));
					uint8_t byte = (uint8_t)b;
					nm_out_write(lx->bin, &byte, 1);
				} else {
					float f;
					TRY(number(lx, false, after, &f));
					cmod_bin_f32(lx->bin, f);
				}
			}
		}
	return NM_OK;
}

static nm_status group(lexer *lx, int prim, uint32_t nverts)
{
	const char *kind = cmod_prim_name(prim);
	uint64_t material, count;
	next(lx);
	if (lx->kind == TK_NUMBER && lx->len == 2 && memcmp(lx->tok, "-1", 2) == 0)
		material = UINT32_MAX;
	else
		TRY(integer(lx, UINT32_MAX - 1, "a material index (-1 for none)", kind, &material));
	next(lx);
	TRY(integer(lx, UINT32_MAX, "an index count", kind, &count));
	TRY(room_for(lx, count, 4, "indices"));
	cmod_bin_group(lx->bin, prim, (uint32_t)material, (uint32_t)count);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t idx;
		next(lx);
		TRY(integer(lx, UINT32_MAX, "an index", kind, &idx));
		if (idx >= nverts)
			return fail(lx, "index %llu of a %s group is not below the vertex count %u",
				    (unsigned long long)idx, kind, nverts);
		cmod_bin_u32(lx->bin, (uint32_t)idx);
	}
	return NM_OK;
}

static nm_status mesh(lexer *lx, size_t index)
{
	cmod_attr attrs[CMOD_MAX_ATTRS];
	unsigned nattrs = 0, stride = 0;
	uint32_t nverts = 0;
	TRY(vertexdesc(lx, attrs, &nattrs, &stride));
	TRY(vertices(lx, attrs, nattrs, stride, &nverts, index));
	for (next(lx); lx->kind == TK_NAME && !is_name(lx, "end_mesh"); next(lx)) {
		int prim = lookup(lx, cmod_prim_name, CMOD_PRIM_COUNT);
		if (prim < 0)
			break;
		TRY(group(lx, prim, nverts));
	}
	if (!is_name(lx, "end_mesh"))
		return expected(lx, "a primitive group (trilist, tristrip, trifan, linelist, "
				"linestrip, points, sprites) or end_mesh", "the vertices");
	cmod_bin_u16(lx->bin, CMOD_END_MESH);
	return NM_OK;
}

nm_status cmod_ascii_to_binary(const char *name, const uint8_t *text, size_t len,
			       nm_out *bin, cmod_notes *notes, cmod_ascii_fault *fault,
			       nm_error *err)
{
	lexer lx = { .s = (const char *)text, .end = (const char *)text + len, .name = name,
		     .line = 1, .bin = bin, .notes = notes, .fault = fault, .err = err };
	*fault = (cmod_ascii_fault){ 0 };
	if (len < CMOD_MAGIC_LEN || memcmp(text, CMOD_ASCII_MAGIC, CMOD_MAGIC_LEN) != 0) {
		lx.tok_line = 1;
		return fail(&lx, "expected \"%s\" at the start", CMOD_ASCII_MAGIC);
	}
	lx.s += CMOD_MAGIC_LEN;
	nm_out_write(bin, CMOD_MAGIC, CMOD_MAGIC_LEN);
	size_t meshes = 0;
	/* A material after a mesh: Celestia refuses the file, the binary form holds it
	 * (parse_binary.c says so in info.txt), so we keep it as the binary would. */
	for (next(&lx); lx.kind != TK_END; next(&lx)) {
		if (is_name(&lx, "material"))
			TRY(material(&lx));
		else if (is_name(&lx, "mesh"))
			TRY(mesh(&lx, meshes++));
		else
			return expected(&lx, "material or mesh", meshes ? "end_mesh" : "the header");
		if (nm_out_status(bin) != NM_OK)
			return nm_fail(err, nm_out_status(bin), name, NULL, NM_NO_OFFSET,
				       "line %u: the binary model passes max_file_size or memory",
				       lx.tok_line);
	}
	return nm_out_status(bin) == NM_OK ? NM_OK
	       : nm_fail(err, nm_out_status(bin), name, NULL, NM_NO_OFFSET,
			 "the binary model passes max_file_size or memory");
}
