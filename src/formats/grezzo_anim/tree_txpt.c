/* A CMAB's /txpt/: the textures its palette tracks switch to (FORMATS.md 10.12).
 *   header.txt raw.bin  NAME.txt (the entry, named by its strt string)  NAME.png (level 0,
 *   RGBA, decoded with the CMB texture decoder on its first read)
 * In a tree opened for editing, NAME.png is written back (invert_png).
 * A texture whose level-0 bytes the file lacks is an error (one line in txpt/error.txt,
 * as CMB's tex/ does); an unknown format, sizes that are not multiples of 8 or a side
 * past max_dimension only leave the PNG out, saying why in NAME.txt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec/pica.h"
#include "export/png.h"
#include "export/tex_inverse.h"
#include "export/tex_range.h"
#include "export/text.h"
#include "formats/grezzo_anim/grezzo_anim.h"
#include "lib/alloc.h"

struct png_ref {
	nm_reader *r;
	const char *file;
	nm_pica_format fmt;
	unsigned w, h;
	uint64_t at;
	size_t size;
	unsigned levels;        /* in the file, one after another from at (1: level 0 only) */
};

/* The RGBA buffer first: the largest, refused by the limit before anything else. */
static nm_status produce_png(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct png_ref *ref = arg;
	(void)ctx;
	uint8_t *src = NULL;
	uint8_t *rgba = nm_alloc(o->opt, (uint64_t)ref->w * ref->h, 4, err, ref->file, "txpt",
				 ref->at);
	nm_status s = rgba ? nm_reader_load(ref->r, ref->at, ref->size, "txpt", &src, err)
			   : err->code;
	if (s == NM_OK && (s = nm_pica_decode_threads(ref->fmt, src, ref->size, ref->w, ref->h,
						      rgba, o->threads)) != NM_OK)
		nm_fail(err, s, ref->file, "txpt", ref->at, "cannot decode the texture");
	if (s == NM_OK)
		s = nm_png_write(o, rgba, ref->w, ref->h, 4);
	free(src);
	free(rgba);
	return s;
}

/* A range of NAME.png from the rows it holds (export/tex_range.h). */
static nm_status range_png(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			   nm_error *err)
{
	const struct png_ref *ref = arg;
	nm_tex_level l = { ref->w, ref->h, ref->r, ref->at, ref->size };
	(void)ctx;
	return nm_pica_png_range(ref->fmt, &l, 4, ref->file, "txpt", off, len, o, err);
}

/* NAME.png edited: level 0 in the texture's format, and the levels the file has after it
 * made from it (export/tex_inverse.h), as CMB's tex/ does. */
static nm_status invert_png(void *ctx, void *arg, const uint8_t *png, size_t len,
			    nm_edit *ed, nm_error *err)
{
	const struct png_ref *ref = arg;
	nm_tex_level levels[16];
	uint64_t at = ref->at;
	(void)ctx;
	for (unsigned k = 0; k < ref->levels; k++) {
		size_t size = nm_pica_level_size(ref->fmt, ref->w >> k, ref->h >> k);
		levels[k] = (nm_tex_level){ ref->w >> k, ref->h >> k, ref->r, at, size };
		at += size;
	}
	nm_tex_pica pica = { ref->fmt, ref->file, "txpt" };
	nm_tex_chain c = { .levels = levels, .nlevels = ref->levels,
			   .encode = nm_tex_pica_encode, .decode = nm_tex_pica_decode,
			   .ctx = &pica, .opt = nm_reader_options(ref->r), .file = ref->file,
			   .chunk = "txpt" };
	return nm_tex_invert(&c, 0, png, len, ed, err);
}

/* The levels of the texture that lie in the file, level 0 first (its mip count, as far
 * as PICA's 8x8 tiles and the file's end allow). */
static unsigned file_levels(const ga_texture *x, nm_pica_format fmt, uint64_t at, uint64_t end)
{
	unsigned n = 0;
	while (n < x->mips && n < 16) {
		size_t size = nm_pica_level_size(fmt, x->width >> n, x->height >> n);
		if (!size || at > end || size > end - at)
			break;
		at += size;
		n++;
	}
	return n ? n : 1;
}

/* NAME.png when it can be made; else why not in *why (a texture whose bytes are missing
 * also gets a line in failures). */
static nm_status texture_png(nm_tree *t, nm_node *dir, const ga_anim *a, nm_reader *r,
			     uint16_t i, const char *stem, nm_out *txt, nm_out *failures)
{
	const ga_texture *x = &a->textures[i];
	nm_pica_format fmt = nm_pica_format_from_gl((uint32_t)x->data_type << 16 | x->gl_format);
	size_t size = nm_pica_level_size(fmt, x->width, x->height);
	uint64_t at = (uint64_t)a->texdata_off + x->data_offset;
	uint64_t max = nm_tree_options(t)->max_dimension;
	nm_kv_enum(txt, "format", nm_pica_format_name(fmt),
		   (uint32_t)x->data_type << 16 | x->gl_format);
	if (fmt == NM_PICA_UNKNOWN || size == 0) {
		nm_kv(txt, "png", "none (%s)", fmt == NM_PICA_UNKNOWN ? "a format the PICA decoder "
		      "does not know" : "width and height must be multiples of 8");
		return NM_OK;
	}
	if (x->width > max || x->height > max) {
		nm_kv(txt, "png", "none (a side past max_dimension %llu)", (unsigned long long)max);
		return NM_OK;
	}
	if (!a->texdata_off || at > nm_reader_size(r) || size > nm_reader_size(r) - at) {
		nm_kv(txt, "png", "none (level 0 needs %zu bytes at 0x%llx, past the end of the "
		      "file)", size, (unsigned long long)at);
		nm_out_printf(failures, "%s: txpt at 0x%llx: texture %u (%s): level 0 needs %zu "
			      "bytes at 0x%llx, past the end of the file\n", a->file,
			      (unsigned long long)x->at, i, stem, size, (unsigned long long)at);
		return NM_OK;
	}
	struct png_ref *ref = nm_tree_alloc(t, sizeof *ref);
	if (!ref)
		return NM_E_NOMEM;
	*ref = (struct png_ref){ r, a->file, fmt, x->width, x->height, at, size,
				 file_levels(x, fmt, at, nm_reader_size(r)) };
	char file[NM_SAFE_NAME_MAX + 32];
	snprintf(file, sizeof file, "%s.png", stem);
	nm_kv(txt, "png", "%s (level 0, RGBA)", file);
	return nm_lazy(t, dir, file, nm_png_size(x->width, x->height, 4), produce_png, NULL, ref)
	       ? NM_OK : NM_E_NOMEM;
}

static void texture_text(nm_out *o, const ga_anim *a, uint16_t i)
{
	const ga_texture *x = &a->textures[i];
	nm_kv(o, "index", "%u", i);
	nm_kv(o, "offset", "0x%llx", (unsigned long long)x->at);
	if (x->name)
		nm_kv_str(o, "name", x->name);
	nm_kv(o, "name_index", "%u%s", x->name_index, x->name ? "" : " (not in strt)");
	nm_kv(o, "data_size", "%u", x->size);
	nm_kv(o, "mip_count", "%u", x->mips);
	nm_kv(o, "etc1", "%u", x->etc1);
	nm_kv(o, "cube", "%u", x->cube);
	nm_kv(o, "width", "%u", x->width);
	nm_kv(o, "height", "%u", x->height);
	nm_kv(o, "gl_format", "0x%04x", x->gl_format);
	nm_kv(o, "data_type", "0x%04x", x->data_type);
	nm_kv(o, "data_offset", "0x%x (absolute 0x%llx)", x->data_offset,
	      (unsigned long long)a->texdata_off + x->data_offset);
}

nm_status ga_tree_txpt(nm_tree *t, nm_node *root, ga_anim *a, nm_reader *r)
{
	if (!a->txpt_off)
		return NM_OK;
	nm_node *dir = nm_dir(t, root, "txpt");
	if (!dir || !ga_raw(t, dir, r, a->txpt_off, a->txpt_off + 8 + 0x18 * (uint64_t)a->ntextures))
		return NM_E_NOMEM;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "magic", "txpt");
	nm_kv(&o, "offset", "0x%x", a->txpt_off);
	if (a->txpt_ok) {
		nm_kv(&o, "texture_count", "%u", a->ntextures);
		nm_kv(&o, "unknown_06", "0x%x", a->txpt_unknown);
		nm_kv(&o, "texture_data", "0x%x (the header's; entries' offsets are relative to it)",
		      a->texdata_off);
	} else {
		nm_kv_str(&o, "error", a->txpt_error ? a->txpt_error : "");
	}
	if (!ga_text(t, dir, "header.txt", &o))
		return NM_E_NOMEM;
	if (!a->txpt_ok)
		return ga_error_file(t, dir, a->txpt_error);
	static const char *const exts[] = { ".txt", ".png", NULL };
	nm_out failures;
	nm_out_init(&failures);
	nm_status s = NM_OK;
	for (uint16_t i = 0; i < a->ntextures && s == NM_OK; i++) {
		const ga_texture *x = &a->textures[i];
		char num[16];
		snprintf(num, sizeof num, "%u", i);
		const char *raw = x->name ? x->name : num;
		char *safe = nm_safe_name(raw, strlen(raw));
		char *stem = safe ? nm_unique_stem(t, dir, safe, exts) : NULL;
		free(safe);
		if (!stem) {
			s = NM_E_NOMEM;
			break;
		}
		texture_text(&o, a, i);
		s = texture_png(t, dir, a, r, i, stem, &o, &failures);
		char file[NM_SAFE_NAME_MAX + 32];
		snprintf(file, sizeof file, "%s.txt", stem);
		free(stem);
		if (s == NM_OK && !ga_text(t, dir, file, &o))
			s = NM_E_NOMEM;
	}
	nm_out_free(&o);
	if (s == NM_OK && failures.len && !ga_text(t, dir, "error.txt", &failures))
		s = NM_E_NOMEM;
	if (s == NM_OK)
		s = nm_tree_range_producer(t, produce_png, range_png);
	if (s == NM_OK && nm_tree_options(t)->editable)
		s = nm_tree_invert_producer(t, produce_png, invert_png);
	nm_out_free(&failures);
	return s;
}
