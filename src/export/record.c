/* One description of a record's fields, for writing its text and reading an edited copy
 * back (record.h). Writing goes straight to the output with text.h's spellings, so a
 * record's text is what it was before it was described this way; reading back writes
 * the same line into a scratch buffer and compares. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/text.h"
#include "lib/alloc.h"

static const struct type_info {
	const char *name;
	unsigned size;
	int64_t min, max;
} types[] = {
	[NM_FIELD_U8] = { "u8", 1, 0, UINT8_MAX },
	[NM_FIELD_S8] = { "s8", 1, INT8_MIN, INT8_MAX },
	[NM_FIELD_U16] = { "u16", 2, 0, UINT16_MAX },
	[NM_FIELD_S16] = { "s16", 2, INT16_MIN, INT16_MAX },
	[NM_FIELD_U32] = { "u32", 4, 0, UINT32_MAX },
	[NM_FIELD_S32] = { "s32", 4, INT32_MIN, INT32_MAX },
	[NM_FIELD_F32] = { "f32", 4, 0, 0 },
};

void nm_rec_write(nm_rec *rec, nm_out *o, nm_view *v)
{
	memset(rec, 0, sizeof *rec);
	rec->o = o;
	rec->v = v;
}

void nm_rec_read(nm_rec *rec, nm_view *v, nm_reader *r, const char *chunk, const char *text,
		 size_t len, nm_edit *ed)
{
	memset(rec, 0, sizeof *rec);
	rec->v = v;
	rec->r = r;
	rec->chunk = chunk;
	rec->text = text;
	rec->len = len;
	rec->ed = ed;
	rec->first = ed->npatches;
	nm_out_init(&rec->scratch);
}

/* Where a field's line goes: the text, or (reading back) the scratch line. */
static nm_out *dest(nm_rec *rec)
{
	if (!rec->ed)
		return rec->o;
	rec->scratch.len = 0;
	return &rec->scratch;
}

static int64_t load(nm_rec *rec, size_t off, nm_field_type t)
{
	switch (t) {
	case NM_FIELD_U8: return nm_u8(rec->v, off);
	case NM_FIELD_S8: return nm_s8(rec->v, off);
	case NM_FIELD_U16: return nm_u16(rec->v, off);
	case NM_FIELD_S16: return nm_s16(rec->v, off);
	case NM_FIELD_U32: return nm_u32(rec->v, off);
	case NM_FIELD_S32: return nm_s32(rec->v, off);
	default: return 0;
	}
}

/* The next line of the new text, its key and value. A line of another key: refused
 * (the record's order is lost after it), unless optional, when the field is taken as
 * absent. Blank lines are skipped. */
static bool take(nm_rec *rec, const char *key, bool optional, const char **val,
		 size_t *vlen, const char **line, size_t *line_len)
{
	size_t klen = strlen(key);
	while (!rec->lost) {
		size_t pos = rec->pos;
		unsigned n = rec->line;
		const char *s, *nl;
		size_t l;
		do {
			if (pos >= rec->len) {
				if (!optional)
					nm_edit_refuse(rec->ed, n + 1, key,
						       "missing (the file ends before it)");
				rec->lost = !optional;
				return false;
			}
			s = rec->text + pos;
			nl = memchr(s, '\n', rec->len - pos);
			l = nl ? (size_t)(nl - s) : rec->len - pos;
			pos += l + (nl != NULL);
			n++;
		} while (l == 0);
		const char *colon = memchr(s, ':', l);
		if (colon && (size_t)(colon - s) == klen && memcmp(s, key, klen) == 0 &&
		    (colon + 1 == s + l || colon[1] == ' ')) {
			rec->pos = pos;
			rec->line = n;
			*line = s;
			*line_len = l;
			*val = colon + 1 < s + l ? colon + 2 : colon + 1;
			*vlen = (size_t)(s + l - *val);
			return true;
		}
		if (optional && colon)
			return false;
		/* Verifying against the new model, whose derived lines may come and go with
		 * the edit (a texture's name after its index): the edited file's order was
		 * checked once, so a line the new record does not have is passed over. */
		if (rec->ed->verify) {
			rec->pos = pos;
			rec->line = n;
			continue;
		}
		if (!colon)
			nm_edit_refuse(rec->ed, n, NULL, "does not parse: not a key: value line");
		else
			nm_edit_refuse(rec->ed, n, key, "expected here, found '%.*s' (fields "
				       "keep their order)", (int)(colon - s), s);
		rec->lost = true;
	}
	return false;
}

/* The new line is the line as it is now (no edit); its bytes, len at off, are marked
 * as given so (verifying: see nm_rec_read). */
static bool unchanged(nm_rec *rec, const char *line, size_t len, size_t off, size_t n)
{
	const nm_out *o = &rec->scratch;
	if (o->len != len + 1 || memcmp(o->data, line, len) != 0)
		return false;
	if (!rec->ed->verify || off > rec->v->size || n > rec->v->size - off)
		return true;
	if (!rec->same) {
		rec->same = calloc(rec->v->size / 8 + 1, 1);
		if (!rec->same)
			return true;
	}
	for (size_t i = off; i < off + n; i++)
		rec->same[i / 8] |= (uint8_t)(1u << (i % 8));
	return true;
}

/* Verifying: drop the patches of lines whose every byte another line gave as it is. */
static void drop_other_spellings(nm_rec *rec)
{
	nm_edit *ed = rec->ed;
	size_t keep = rec->first;
	for (size_t k = rec->first; k < ed->npatches; k++) {
		nm_patch *p = &ed->patches[k];
		bool covered = rec->same && p->r == rec->r && p->off >= rec->v->base &&
			       p->off - rec->v->base + p->len <= rec->v->size;
		for (size_t i = 0; covered && i < p->len; i++) {
			size_t b = (size_t)(p->off - rec->v->base) + i;
			covered = rec->same[b / 8] >> (b % 8) & 1;
		}
		if (covered) {
			free(p->bytes);
			free(p->field);
			free(p->chunk);
		} else {
			ed->patches[keep++] = *p;
		}
	}
	ed->npatches = keep;
}

/* A value token of at most 63 bytes, NUL-terminated, from *p (spaces skipped). */
static bool token(const char **p, const char *end, char *buf)
{
	while (*p < end && **p == ' ')
		(*p)++;
	size_t n = 0;
	while (*p < end && **p != ' ' && n < 63)
		buf[n++] = *(*p)++;
	buf[n] = '\0';
	return n > 0 && (*p == end || **p == ' ');
}

/* An integer in decimal or 0x-hex (a leading 0 is not octal), in t's range. */
static bool parse_int(nm_rec *rec, const char *key, const char *tok, nm_field_type t,
		      int64_t *out)
{
	const struct type_info *ti = &types[t];
	const char *p = tok;
	bool neg = *p == '-';
	p += neg || *p == '+';
	int base = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10;
	char *end;
	errno = 0;
	unsigned long long u = *p >= '0' && *p <= '9' ? strtoull(p, &end, base) : 0;
	if (!(*p >= '0' && *p <= '9') || *end || errno) {
		nm_edit_refuse(rec->ed, rec->line, key, "%s is not a number (%s)", tok, ti->name);
		return false;
	}
	if ((!neg && u > (unsigned long long)ti->max) ||
	    (neg && u > (unsigned long long)-(ti->min + 1) + 1)) {
		nm_edit_refuse(rec->ed, rec->line, key, "%s is out of range %" PRId64 "..%" PRId64
			       " (%s)", tok, ti->min, ti->max, ti->name);
		return false;
	}
	*out = neg ? -(int64_t)(u - 1) - 1 : (int64_t)u;
	if (neg && u == 0)
		*out = 0;
	return true;
}

/* A float whose text is that float's (the shortest spelling or any other of the same
 * value): a value between floats would be rounded, which apply never does silently. */
static bool parse_float(nm_rec *rec, const char *key, const char *tok, float *out)
{
	float f;
	nm_float_parse p = nm_parse_float_exact(tok, &f);
	if (p == NM_FLOAT_NOT_A_NUMBER) {
		nm_edit_refuse(rec->ed, rec->line, key, "%s is not a number (f32)", tok);
		return false;
	}
	if (p == NM_FLOAT_BETWEEN) {
		char back[NM_FLOAT_BUF];
		nm_edit_refuse(rec->ed, rec->line, key, "%s is not a float (f32): the nearest is %s",
			       tok, nm_fmt_float(back, f));
		return false;
	}
	*out = f;
	return true;
}

static void store(const nm_rec *rec, nm_field_type t, int64_t x, float f, uint8_t *b)
{
	uint32_t u = (uint32_t)x;
	if (t == NM_FIELD_F32)
		memcpy(&u, &f, 4);
	unsigned n = types[t].size;
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = rec->v->endian == NM_BIG ? 8 * (n - 1 - i) : 8 * i;
		b[i] = (uint8_t)(u >> shift);
	}
}

/* Patch n values of type t at off from the new values, where they differ. */
static void patch(nm_rec *rec, const char *key, size_t off, nm_field_type t,
		  const int64_t *x, const float *f, unsigned n)
{
	unsigned size = types[t].size;
	uint8_t b[64];
	const uint8_t *now = nm_bytes(rec->v, off, (size_t)size * n);
	if (!now || (size_t)size * n > sizeof b) {
		nm_edit_refuse(rec->ed, rec->line, key, "its bytes lie outside the record");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		store(rec, t, x ? x[i] : 0, f ? f[i] : 0, b + (size_t)size * i);
	if (memcmp(b, now, (size_t)size * n) == 0)
		return;
	if (rec->locked) {
		nm_edit_refuse(rec->ed, rec->line, key, "%s", rec->locked);
		return;
	}
	if (rec->v->owned && !rec->orig) {
		nm_error err;
		rec->orig = nm_alloc(nm_reader_options(rec->r), rec->v->size ? rec->v->size : 1, 1,
				     &err, "edit", rec->chunk, rec->v->base);
		if (!rec->orig) {
			rec->ed->nomem = true;
			return;
		}
		memcpy(rec->orig, rec->v->owned, rec->v->size);
	}
	/* The bytes as they were, where an earlier line changed them: this line is the
	 * other spelling of that field, left as it was. */
	if (rec->orig && memcmp(b, rec->orig + off, (size_t)size * n) == 0 &&
	    memcmp(now, rec->orig + off, (size_t)size * n) != 0)
		return;
	/* Later fields of the record read the bytes as edited (two bit fields of one
	 * word), and an edit of bytes an earlier line of this file patched replaces it. */
	if (rec->v->owned)
		memcpy(rec->v->owned + off, b, (size_t)size * n);
	nm_patch *last = rec->ed->npatches ? &rec->ed->patches[rec->ed->npatches - 1] : NULL;
	if (last && last->file == rec->ed->file && last->r == rec->r &&
	    last->off == rec->v->base + off && last->len == (size_t)size * n) {
		memcpy(last->bytes, b, last->len);
		return;
	}
	nm_edit_patch(rec->ed, rec->r, rec->v->base + off, b, (size_t)size * n, rec->chunk,
		      rec->line, key);
}

/* Reading back a field of n values of type t at off. */
static void read_values(nm_rec *rec, const char *key, size_t off, nm_field_type t,
			unsigned n)
{
	const char *val, *line;
	size_t vlen, llen;
	if (!take(rec, key, false, &val, &vlen, &line, &llen) ||
	    unchanged(rec, line, llen, off, (size_t)types[t].size * n))
		return;
	int64_t x[16];
	float f[16];
	const char *p = val, *end = val + vlen;
	char tok[64];
	for (unsigned i = 0; i < n && i < 16; i++) {
		if (!token(&p, end, tok)) {
			nm_edit_refuse(rec->ed, rec->line, key, "expects %u number%s, found %u", n,
				       n == 1 ? "" : "s", i);
			return;
		}
		if (t == NM_FIELD_F32 ? !parse_float(rec, key, tok, &f[i])
				      : !parse_int(rec, key, tok, t, &x[i]))
			return;
	}
	while (p < end && *p == ' ')
		p++;
	if (p < end) {
		nm_edit_refuse(rec->ed, rec->line, key, "expects %u number%s; '%.*s' is more",
			       n, n == 1 ? "" : "s", (int)(end - p), p);
		return;
	}
	patch(rec, key, off, t, x, f, n);
}

void nm_rec_int(nm_rec *rec, const char *key, size_t off, nm_field_type t)
{
	nm_rec_ints(rec, key, off, t, 1);
}

void nm_rec_ints(nm_rec *rec, const char *key, size_t off, nm_field_type t, unsigned n)
{
	nm_out *o = dest(rec);
	nm_out_str(o, key);
	nm_out_char(o, ':');
	for (unsigned i = 0; i < n; i++) {
		nm_out_char(o, ' ');
		nm_out_int(o, load(rec, off + (size_t)i * types[t].size, t));
	}
	nm_out_char(o, '\n');
	if (rec->ed)
		read_values(rec, key, off, t, n);
}

void nm_rec_hex(nm_rec *rec, const char *key, size_t off, nm_field_type t, int digits)
{
	nm_out *o = dest(rec);
	nm_out_str(o, key);
	nm_out_str(o, ": 0x");
	nm_out_hex(o, (uint64_t)load(rec, off, t) & 0xFFFFFFFFu, digits > 0 ? (unsigned)digits : 1);
	nm_out_char(o, '\n');
	if (rec->ed)
		read_values(rec, key, off, t, 1);
}

static float scaled(int64_t x, double mul, double div)
{
	return (float)((double)x * mul / div);
}

void nm_rec_scaled(nm_rec *rec, const char *key, size_t off, nm_field_type t, unsigned n,
		   double mul, double div)
{
	float f[16];
	n = n < 16 ? n : 16;
	for (unsigned i = 0; i < n; i++)
		f[i] = scaled(load(rec, off + (size_t)i * types[t].size, t), mul, div);
	nm_kv_floats(dest(rec), key, f, n);
	const char *val, *line;
	size_t vlen, llen;
	if (!rec->ed || !take(rec, key, false, &val, &vlen, &line, &llen) ||
	    unchanged(rec, line, llen, off, (size_t)types[t].size * n))
		return;
	const struct type_info *ti = &types[t];
	int64_t x[16];
	const char *p = val, *end = val + vlen;
	char tok[64];
	for (unsigned i = 0; i < n; i++) {
		float want;
		if (!token(&p, end, tok)) {
			nm_edit_refuse(rec->ed, rec->line, key, "expects %u numbers, found %u", n, i);
			return;
		}
		if (!parse_float(rec, key, tok, &want))
			return;
		double q = (double)want * div / mul;
		if (!(q >= (double)ti->min - 0.5 && q <= (double)ti->max + 0.5)) {
			nm_edit_refuse(rec->ed, rec->line, key, "%s is out of range %g..%g (%s x %g/%g)",
				       tok, scaled(ti->min, mul, div), scaled(ti->max, mul, div),
				       ti->name, mul, div);
			return;
		}
		int64_t k = (int64_t)(q < 0 ? q - 0.5 : q + 0.5);
		k = k < ti->min ? ti->min : k > ti->max ? ti->max : k;
		float got = scaled(k, mul, div);
		if (memcmp(&got, &want, sizeof got) != 0) {
			char near[NM_FLOAT_BUF];
			nm_fmt_float(near, got);
			nm_edit_refuse(rec->ed, rec->line, key, "%s is not a value this field holds "
				       "(%s x %g/%g): the nearest is %s", tok, ti->name, mul, div, near);
			return;
		}
		x[i] = k;
	}
	while (p < end && *p == ' ')
		p++;
	if (p < end) {
		nm_edit_refuse(rec->ed, rec->line, key, "expects %u numbers; '%.*s' is more", n,
			       (int)(end - p), p);
		return;
	}
	patch(rec, key, off, t, x, NULL, n);
}

void nm_rec_floats(nm_rec *rec, const char *key, size_t off, unsigned n)
{
	float f[16];
	for (unsigned i = 0; i < n && i < 16; i++)
		f[i] = nm_f32(rec->v, off + 4 * (size_t)i);
	nm_kv_floats(dest(rec), key, f, n < 16 ? n : 16);
	if (rec->ed)
		read_values(rec, key, off, NM_FIELD_F32, n);
}

void nm_rec_enum(nm_rec *rec, const char *key, size_t off, nm_field_type t,
		 const nm_rec_names *names, int kind)
{
	uint32_t now = (uint32_t)load(rec, off, t);
	nm_kv_enum(dest(rec), key, names->name(kind, now), now);
	const char *val, *line;
	size_t vlen, llen;
	if (!rec->ed || !take(rec, key, false, &val, &vlen, &line, &llen) ||
	    unchanged(rec, line, llen, off, types[t].size))
		return;
	/* NAME, NAME (NUMBER), or NUMBER; "unknown" only with a number. */
	char name[64] = "", num[64] = "";
	const char *p = val, *end = val + vlen;
	if (p < end && (*p == '-' || (*p >= '0' && *p <= '9'))) {
		token(&p, end, num);
	} else {
		size_t n = 0;
		while (p < end && *p != ' ' && *p != '(' && n < 63)
			name[n++] = *p++;
		name[n] = '\0';
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == '(') {
			const char *close = memchr(p, ')', (size_t)(end - p));
			size_t k = close ? (size_t)(close - p - 1) : 0;
			if (close && k < sizeof num) {
				memcpy(num, p + 1, k);
				num[k] = '\0';
				p = close + 1;
			}
		}
	}
	while (p < end && *p == ' ')
		p++;
	if (p < end || (!name[0] && !num[0]) || (strcmp(name, "unknown") == 0 && !num[0])) {
		nm_edit_refuse(rec->ed, rec->line, key, "'%.*s' does not parse: write NAME, "
			       "NAME (NUMBER) or NUMBER", (int)vlen, val);
		return;
	}
	int64_t x = 0;
	if (num[0] && !parse_int(rec, key, num, t, &x))
		return;
	uint32_t named;
	if (name[0] && strcmp(name, "unknown") != 0) {
		if (!names->value(kind, name, &named)) {
			nm_edit_refuse(rec->ed, rec->line, key, "%s is not a name of this field "
				       "(a number stores any value)", name);
			return;
		}
		if (num[0] && (uint32_t)x != named) {
			nm_edit_refuse(rec->ed, rec->line, key, "%s is 0x%x, not %s", name,
				       (unsigned)named, num);
			return;
		}
		x = named;
		if (x > types[t].max) {
			nm_edit_refuse(rec->ed, rec->line, key, "%s (0x%x) does not fit the field "
				       "(%s)", name, (unsigned)named, types[t].name);
			return;
		}
	}
	patch(rec, key, off, t, &x, NULL, 1);
}

/* Reading back a derived line: absent is no edit, the same line is none, another is
 * refused (checked only outside verification: it may follow from an edited field). */
/* A line that cannot be edited: refused when changed, with why (NULL: derived). */
static void read_fixed(nm_rec *rec, const char *key, const char *why)
{
	const char *val, *line;
	size_t vlen, llen;
	if (!take(rec, key, true, &val, &vlen, &line, &llen) || unchanged(rec, line, llen, 0, 0) ||
	    rec->ed->verify)
		return;
	nm_edit_refuse(rec->ed, rec->line, key, "%s: it cannot be edited (it says %.*s)",
		       why ? why : "is derived from the model (an index, offset, count or "
				   "name), not stored here",
		       (int)(rec->scratch.len - strlen(key) - 3), (const char *)rec->scratch.data
		       + strlen(key) + 2);
}

static void read_derived(nm_rec *rec, const char *key) { read_fixed(rec, key, NULL); }

void nm_rec_unstored(nm_rec *rec, const char *key, const char *why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_kvv(dest(rec), key, fmt, ap);
	va_end(ap);
	if (rec->ed)
		read_fixed(rec, key, why);
}

void nm_rec_derived(nm_rec *rec, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_kvv(dest(rec), key, fmt, ap);
	va_end(ap);
	if (rec->ed)
		read_derived(rec, key);
}

void nm_rec_derived_str(nm_rec *rec, const char *key, const char *s)
{
	nm_kv_str(dest(rec), key, s);
	if (rec->ed)
		read_derived(rec, key);
}

void nm_rec_bits(nm_rec *rec, const char *key, size_t off, nm_field_type t, unsigned shift,
		 unsigned width, bool hex)
{
	uint32_t mask = width >= 32 ? UINT32_MAX : (1u << width) - 1;
	uint32_t word = (uint32_t)load(rec, off, t);
	nm_out *o = dest(rec);
	nm_out_str(o, key);
	nm_out_str(o, hex ? ": 0x" : ": ");
	if (hex)
		nm_out_hex(o, word >> shift & mask, 1);
	else
		nm_out_uint(o, word >> shift & mask);
	nm_out_char(o, '\n');
	const char *val, *line;
	size_t vlen, llen;
	if (!rec->ed || !take(rec, key, false, &val, &vlen, &line, &llen) ||
	    unchanged(rec, line, llen, 0, 0))
		return;
	char tok[64];
	const char *p = val, *end = val + vlen;
	int64_t x;
	if (!token(&p, end, tok) || p != end) {
		nm_edit_refuse(rec->ed, rec->line, key, "'%.*s' is not one number", (int)vlen, val);
		return;
	}
	if (!parse_int(rec, key, tok, NM_FIELD_U32, &x))
		return;
	if ((uint64_t)x > mask) {
		nm_edit_refuse(rec->ed, rec->line, key, "%s is out of range 0..%u (%u bits)", tok,
			       mask, width);
		return;
	}
	int64_t merged = (word & ~(mask << shift)) | (uint32_t)x << shift;
	patch(rec, key, off, t, &merged, NULL, 1);
}

void nm_rec_derived_floats(nm_rec *rec, const char *key, const float *f, unsigned n)
{
	nm_kv_floats(dest(rec), key, f, n);
	if (rec->ed)
		read_derived(rec, key);
}

void nm_rec_end(nm_rec *rec)
{
	if (!rec->ed)
		return;
	while (!rec->lost && !rec->ed->verify && rec->pos < rec->len) {
		const char *s = rec->text + rec->pos;
		const char *nl = memchr(s, '\n', rec->len - rec->pos);
		size_t l = nl ? (size_t)(nl - s) : rec->len - rec->pos;
		rec->pos += l + (nl != NULL);
		rec->line++;
		if (l == 0)
			continue;
		const char *colon = memchr(s, ':', l);
		nm_edit_refuse(rec->ed, rec->line, NULL, "'%.*s' is not a field of this record",
			       (int)(colon ? (size_t)(colon - s) : l), s);
		break;
	}
	nm_out_free(&rec->scratch);
	if (rec->ed->verify)
		drop_other_spellings(rec);
	free(rec->orig);
	free(rec->same);
	rec->orig = rec->same = NULL;
}
