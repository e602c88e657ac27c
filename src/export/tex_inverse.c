/* A texture level's PNG written back (tex_inverse.h). */
#include <stdlib.h>
#include <string.h>
#include "codec/mip.h"
#include "export/png_read.h"
#include "export/tex_inverse.h"
#include "lib/alloc.h"

/* A status that says why an edit cannot be encoded, as opposed to a model that cannot
 * be read. */
static bool is_refusal(nm_status s)
{
	return s == NM_E_FORMAT || s == NM_E_INVAL || s == NM_E_LIMIT || s == NM_E_UNSUPPORTED;
}

static nm_status next_level(const nm_tex_chain *c, unsigned k, const uint8_t *above,
			    uint8_t **out, nm_error *err)
{
	const nm_tex_level *up = &c->levels[k - 1], *l = &c->levels[k];
	*out = NULL;
	if (l->w != nm_mip_side(up->w) || l->h != nm_mip_side(up->h))
		return nm_fail(err, NM_E_INVAL, c->file, c->chunk, NM_NO_OFFSET, "level %u is "
			       "%ux%u, not half of level %u (%ux%u): it cannot be made from it", k,
			       l->w, l->h, k - 1, up->w, up->h);
	*out = nm_alloc(c->opt, (uint64_t)l->w * l->h, 4, err, c->file, c->chunk, l->off);
	if (!*out)
		return err->code;
	return nm_mip_box(above, up->w, up->h, *out);
}

nm_status nm_tex_mip_chain(const nm_tex_chain *c, uint8_t **levels, nm_error *err)
{
	for (unsigned k = 1; k < c->nlevels; k++) {
		nm_status s = next_level(c, k, levels[k - 1], &levels[k], err);
		if (s != NM_OK) {
			while (k > 1)
				free(levels[--k]);
			return s;
		}
	}
	return NM_OK;
}

/* Level k's texels encoded and patched (derived unless it is the edited level). */
static nm_status encode_level(const nm_tex_chain *c, unsigned k, bool derived,
			      const uint8_t *rgba, nm_edit *ed, nm_error *err)
{
	const nm_tex_level *l = &c->levels[k];
	uint8_t *dst = nm_alloc(c->opt, l->len ? l->len : 1, 1, err, c->file, c->chunk, l->off);
	if (!dst)
		return is_refusal(err->code) ? (nm_edit_refuse(ed, 0, NULL, "%s", err->msg), NM_OK)
					     : err->code;
	nm_error e;
	nm_status s = c->encode(c->ctx, k, rgba, l->w, l->h, dst, l->len, ed, &e);
	if (s != NM_OK) {
		free(dst);
		if (!is_refusal(s)) {
			*err = e;
			return s;
		}
		nm_edit_refuse(ed, 0, NULL, "%s", e.msg);
		return NM_OK;
	}
	uint8_t *was = NULL;
	s = nm_reader_load(l->r, l->off, l->len, c->chunk, &was, err);
	bool same = s == NM_OK && memcmp(was, dst, l->len) == 0;
	free(was);
	if (s == NM_OK && !same) {
		char field[48];
		if (derived) {
			snprintf(field, sizeof field, "mip level %u, made from level 0", k);
			nm_edit_patch_derived(ed, l->r, l->off, dst, l->len, c->chunk, 0, field);
		} else {
			snprintf(field, sizeof field, "level %u", k);
			nm_edit_patch(ed, l->r, l->off, dst, l->len, c->chunk, 0, field);
		}
	}
	free(dst);
	return s;
}

/* Does the level show rgba already (the tree's PNG has these texels)? */
static nm_status shows_already(const nm_tex_chain *c, unsigned k, const uint8_t *rgba,
			       bool *same, nm_error *err)
{
	const nm_tex_level *l = &c->levels[k];
	*same = false;
	if (!c->decode)
		return NM_OK;
	uint8_t *now = nm_alloc(c->opt, (uint64_t)l->w * l->h, 4, err, c->file, c->chunk, l->off);
	uint8_t *src = NULL;
	nm_status s = now ? nm_reader_load(l->r, l->off, l->len, c->chunk, &src, err) : err->code;
	if (s == NM_OK)
		s = c->decode(c->ctx, k, src, l->len, l->w, l->h, now, err);
	*same = s == NM_OK && memcmp(now, rgba, (size_t)l->w * l->h * 4) == 0;
	free(src);
	free(now);
	return s;
}

nm_status nm_tex_invert(const nm_tex_chain *c, unsigned level, const uint8_t *png, size_t len,
			nm_edit *ed, nm_error *err)
{
	if (level >= c->nlevels)
		return nm_fail(err, NM_E_INVAL, c->file, c->chunk, NM_NO_OFFSET,
			       "level %u of a chain of %u", level, c->nlevels);
	const nm_tex_level *l = &c->levels[level];
	uint8_t *rgba;
	nm_error e;
	nm_status s = nm_png_read_level(c->opt, png, len, NULL, l->w, l->h, &rgba, &e);
	if (s != NM_OK) {
		if (!is_refusal(s)) {
			*err = e;
			return s;
		}
		nm_edit_refuse(ed, 0, NULL, "%s", e.msg);
		return NM_OK;
	}
	bool same;
	s = shows_already(c, level, rgba, &same, err);
	if (s != NM_OK || same) {
		free(rgba);
		return s;
	}
	size_t refused = ed->nrefusals;
	s = encode_level(c, level, false, rgba, ed, err);
	/* Level 0 makes the others, each from the one above it; one in memory at a time. */
	for (unsigned k = 1; level == 0 && k < c->nlevels && s == NM_OK &&
			     ed->nrefusals == refused; k++) {
		uint8_t *next;
		s = next_level(c, k, rgba, &next, &e);
		free(rgba);
		rgba = next;
		if (s != NM_OK && is_refusal(s)) {
			nm_edit_refuse(ed, 0, NULL, "%s", e.msg);
			s = NM_OK;
			break;
		}
		if (s != NM_OK)
			*err = e;
		else
			s = encode_level(c, k, true, rgba, ed, err);
	}
	free(rgba);
	return s;
}

nm_status nm_tex_pica_encode(void *ctx, unsigned level, const uint8_t *rgba, unsigned w,
			     unsigned h, uint8_t *dst, size_t len, nm_edit *ed, nm_error *err)
{
	const nm_tex_pica *p = ctx;
	(void)ed;
	nm_status s = nm_pica_encode(p->fmt, rgba, w, h, dst, len);
	if (s != NM_OK)
		nm_fail(err, s, p->file, p->chunk, NM_NO_OFFSET, "level %u (%ux%u %s) cannot be "
			"encoded", level, w, h, nm_pica_format_name(p->fmt));
	return s;
}

nm_status nm_tex_pica_decode(void *ctx, unsigned level, const uint8_t *src, size_t len,
			     unsigned w, unsigned h, uint8_t *rgba, nm_error *err)
{
	const nm_tex_pica *p = ctx;
	nm_status s = nm_pica_decode(p->fmt, src, len, w, h, rgba);
	if (s != NM_OK)
		nm_fail(err, s, p->file, p->chunk, NM_NO_OFFSET, "level %u (%ux%u %s) cannot be "
			"decoded", level, w, h, nm_pica_format_name(p->fmt));
	return s;
}
