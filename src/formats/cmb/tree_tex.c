/* tex/: header.txt, raw.bin, and per texture NAME.txt (the entry), NAME.bin (the undecoded
 * bytes), NAME.png (level 0) and NAME.mipK.png; cube maps as NAME.faceF.png and
 * NAME.faceF.mipK.png. PNGs decode on their first read; in a tree opened for editing
 * each is written back in the texture's format (invert_level). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/png.h"
#include "export/tex_inverse.h"
#include "export/tex_range.h"
#include "export/text.h"
#include "formats/cmb/cmb.h"
#include "lib/alloc.h"
#include "lib/names.h"

struct level_ref {
	cmb_model *m;
	const cmb_texture *tx;
	unsigned face, level;
};

/* The RGBA buffer first: it is the largest, and the limit refuses it before anything
 * else is allocated. */
static nm_status produce_level(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct level_ref *ref = arg;
	const cmb_texture *tx = ref->tx;
	unsigned w = tx->width >> ref->level, h = tx->height >> ref->level;
	size_t size = (size_t)tx->level_size[ref->level];
	uint64_t at = tx->face_off[ref->face] + tx->level_off[ref->level];
	(void)ctx;
	uint8_t *src = NULL;
	const char *file = nm_reader_name(tx->src);
	uint8_t *rgba = nm_alloc(o->opt, (uint64_t)w * h, 4, err, file, "tex", at);
	nm_status s = rgba ? nm_reader_load(tx->src, at, size, "tex", &src, err) : err->code;
	if (s != NM_OK)
		goto out;
	s = nm_pica_decode_threads(tx->fmt, src, size, w, h, rgba, o->threads);
	if (s != NM_OK) {
		nm_fail(err, s, file, "tex", at, "cannot decode %s level %u", tx->stem,
			ref->level);
		goto out;
	}
	s = nm_png_write(o, rgba, w, h, tx->channels);
out:
	free(src);
	free(rgba);
	return s;
}

/* A range of a level's PNG from the rows it holds (export/tex_range.h). */
static nm_status range_level(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			     nm_error *err)
{
	const struct level_ref *ref = arg;
	const cmb_texture *tx = ref->tx;
	(void)ctx;
	nm_tex_level l = { tx->width >> ref->level, tx->height >> ref->level, tx->src,
			   tx->face_off[ref->face] + tx->level_off[ref->level],
			   (size_t)tx->level_size[ref->level] };
	return nm_pica_png_range(tx->fmt, &l, tx->channels, nm_reader_name(tx->src), "tex", off,
				 len, o, err);
}

/* The same for a texture whose data is another file's (ctxb.c): its own producer, so that
 * its inverse is a refusal naming that file (refuse_borrowed). */
static nm_status produce_borrowed(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	return produce_level(ctx, arg, o, err);
}

/* An edit of a texture whose data is another file's: refused, naming the file whose
 * own tree edits it (apply's generic refusal said only that it cannot). */
static nm_status refuse_borrowed(void *ctx, void *arg, const uint8_t *png, size_t len,
				 nm_edit *ed, nm_error *err)
{
	const struct level_ref *ref = arg;
	(void)ctx, (void)png, (void)len, (void)err;
	nm_edit_refuse(ed, 0, NULL, "the texture's data is %s's, beside the model: edit it "
		       "through %s/tex/ instead", ref->tx->src_file, ref->tx->src_file);
	return NM_OK;
}

/* An edited level PNG: the level in the texture's format, and when it is level 0 the
 * face's other levels made from it (export/tex_inverse.h). */
static nm_status invert_level(void *ctx, void *arg, const uint8_t *png, size_t len,
			      nm_edit *ed, nm_error *err)
{
	const struct level_ref *ref = arg;
	const cmb_texture *tx = ref->tx;
	nm_tex_level levels[CMB_MAX_LEVELS];
	(void)ctx;
	for (unsigned k = 0; k < tx->nlevels; k++)
		levels[k] = (nm_tex_level){ tx->width >> k, tx->height >> k, ref->m->r,
					    tx->face_off[ref->face] + tx->level_off[k],
					    (size_t)tx->level_size[k] };
	nm_tex_pica pica = { tx->fmt, ref->m->file, "tex" };
	nm_tex_chain c = { .levels = levels, .nlevels = tx->nlevels,
			   .encode = nm_tex_pica_encode, .decode = nm_tex_pica_decode,
			   .ctx = &pica, .opt = nm_reader_options(ref->m->r), .file = ref->m->file,
			   .chunk = "tex" };
	return nm_tex_invert(&c, ref->level, png, len, ed, err);
}

static const char *channel_names(unsigned c)
{
	static const char *const n[5] = { NULL, "grey", "grey+alpha", "RGB", "RGBA" };
	const char *name = NM_NAME(n, c);
	return name ? name : "?";   /* the count is printed beside it */
}

static void texture_text(nm_out *o, const cmb_model *m, uint32_t i)
{
	const cmb_texture *tx = &m->tex[i];
	nm_kv(o, "index", "%u", i);
	nm_kv_str(o, "name", tx->raw_name);
	nm_kv_str(o, "file_stem", tx->stem);
	nm_kv(o, "entry_offset", "0x%x", tx->entry);
	nm_kv(o, "data_size", "%u", tx->size);
	nm_kv(o, "mip_count", "%u", tx->mips);
	nm_kv(o, "is_etc1", "%u", tx->is_etc1);
	nm_kv(o, "is_cubemap", "%u", tx->is_cube);
	nm_kv(o, "width", "%u", tx->width);
	nm_kv(o, "height", "%u", tx->height);
	nm_kv_enum(o, "format", nm_pica_format_name(tx->fmt), tx->gl_format);
	nm_kv(o, "bits_per_pixel", "%u", nm_pica_bits_per_pixel(tx->fmt));
	nm_kv(o, "data_offset", "0x%x", tx->data_offset);
	if (tx->nfaces > 1) {
		nm_out_str(o, "face_offsets:");
		for (unsigned f = 0; f < tx->nfaces; f++)
			nm_out_printf(o, " 0x%x", tx->face_rel[f]);
		nm_out_char(o, '\n');
	}
	if (tx->src_file) {
		nm_kv_str(o, "data_file", tx->src_file);
		nm_kv(o, "data_absolute", "0x%llx (in %s)", (unsigned long long)tx->face_off[0],
		      tx->src_file);
	} else if (tx->external)
		nm_kv(o, "data_absolute", "none (external)");
	else
		nm_kv(o, "data_absolute", "0x%llx", (unsigned long long)tx->face_off[0]);
	if (tx->overlaps >= 0) {
		const cmb_texture *next = &m->tex[tx->overlaps];
		nm_kv(o, "overlap", "the data (0x%llx bytes from 0x%llx) runs into texture %lld "
		      "at 0x%llx", (unsigned long long)tx->size,
		      (unsigned long long)tx->face_off[0], (long long)tx->overlaps,
		      (unsigned long long)next->face_off[0]);
	}
	nm_kv(o, "levels_shown", "%u", tx->nlevels);
	for (unsigned k = 0; k < tx->nlevels; k++) {
		char key[24];
		snprintf(key, sizeof key, "level%u", k);
		nm_kv(o, key, "%ux%u, %llu bytes at +0x%llx", tx->width >> k, tx->height >> k,
		      (unsigned long long)tx->level_size[k], (unsigned long long)tx->level_off[k]);
	}
	if (tx->fmt != NM_PICA_UNKNOWN && tx->chain_size != tx->size && tx->nfaces == 1)
		nm_kv(o, "size_note", "the levels take %llu bytes, the entry says %u",
		      (unsigned long long)tx->chain_size, tx->size);
	nm_kv(o, "png_channels", "%u (%s)", tx->channels, channel_names(tx->channels));
	if (tx->problem[0])
		nm_kv_str(o, "problem", tx->problem);
}

/* Every name the texture's files will use, so that no two textures collide. stem is
 * the safe name, with ~K already added for the K-th texture of that name. */
static char *texture_stem(nm_tree *t, nm_node *dir, const cmb_texture *tx, const char *stem)
{
	const char *exts[8 + 6 * (CMB_MAX_LEVELS + 1) + CMB_MAX_LEVELS];
	char bufs[6 * (CMB_MAX_LEVELS + 1) + CMB_MAX_LEVELS][40];
	size_t n = 0, b = 0;
	exts[n++] = ".png";
	exts[n++] = ".txt";
	exts[n++] = ".bin";
	for (unsigned k = 1; k < tx->nlevels; k++) {
		snprintf(bufs[b], sizeof bufs[b], ".mip%u.png", k);
		exts[n++] = bufs[b++];
	}
	for (unsigned f = 0; tx->nfaces > 1 && f < tx->nfaces; f++)
		for (unsigned k = 0; k < (tx->nlevels ? tx->nlevels : 1); k++) {
			if (k)
				snprintf(bufs[b], sizeof bufs[b], ".face%u.mip%u.png", f, k);
			else
				snprintf(bufs[b], sizeof bufs[b], ".face%u.png", f);
			exts[n++] = bufs[b++];
		}
	exts[n] = NULL;
	return nm_unique_stem(t, dir, stem, exts);
}

struct named_tex { const char *name; uint32_t index; };

static int cmp_named(const void *a, const void *b)
{
	const struct named_tex *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static nm_status add_texture(nm_tree *t, nm_node *dir, cmb_model *m, uint32_t i);

/* Every texture's files, in the order of their names. Repeated names get ~2, ~3... in
 * table order, found by sorting, so that thousands of equal names (a hostile table) cost
 * n log n rather than one nm_unique_stem search per earlier duplicate. Each texture's
 * files are made before the next stem is chosen, so nm_unique_stem sees them. */
static nm_status add_textures(nm_tree *t, nm_node *dir, cmb_model *m)
{
	struct named_tex *v = calloc((size_t)m->ntex + 1, sizeof *v);
	char **safe = calloc((size_t)m->ntex + 1, sizeof *safe);
	nm_status s = NM_E_NOMEM;
	if (!v || !safe)
		goto out;
	for (uint32_t i = 0; i < m->ntex; i++) {
		size_t len = strnlen(m->tex[i].raw_name, CMB_NAME_LEN);
		char def[32];
		snprintf(def, sizeof def, "texture%u", i);
		safe[i] = len ? nm_safe_name(m->tex[i].raw_name, len) : strdup(def);
		if (!safe[i])
			goto out;
		v[i] = (struct named_tex){ safe[i], i };
	}
	qsort(v, m->ntex, sizeof *v, cmp_named);
	for (uint32_t i = 0, run = 0; i < m->ntex; i++) {
		run = i > 0 && strcmp(v[i].name, v[i - 1].name) == 0 ? run + 1 : 0;
		char stem[128];
		if (run)
			snprintf(stem, sizeof stem, "%s~%u", v[i].name, run + 1);
		else
			snprintf(stem, sizeof stem, "%s", v[i].name);
		cmb_texture *tx = &m->tex[v[i].index];
		if (!(tx->stem = texture_stem(t, dir, tx, stem)) ||
		    nm_tree_on_free(t, free, tx->stem) != NM_OK)
			goto out;
		if ((s = add_texture(t, dir, m, v[i].index)) != NM_OK)
			goto out;
	}
	s = NM_OK;
out:
	for (uint32_t i = 0; safe && i < m->ntex; i++)
		free(safe[i]);
	free(safe);
	free(v);
	return s;
}

static nm_status add_levels(nm_tree *t, nm_node *dir, cmb_model *m, cmb_texture *tx)
{
	for (unsigned f = 0; f < tx->nfaces; f++)
		for (unsigned k = 0; k < tx->nlevels; k++) {
			char name[1100];
			char face[16] = "", mip[16] = "";
			if (tx->nfaces > 1)
				snprintf(face, sizeof face, ".face%u", f);
			if (k)
				snprintf(mip, sizeof mip, ".mip%u", k);
			snprintf(name, sizeof name, "%s%s%s.png", tx->stem, face, mip);
			uint64_t size = nm_png_size(tx->width >> k, tx->height >> k, tx->channels);
			struct level_ref *ref = nm_tree_alloc(t, sizeof *ref);
			if (!ref)
				return NM_E_NOMEM;
			*ref = (struct level_ref){ .m = m, .tx = tx, .face = f, .level = k };
			nm_produce_fn fn = tx->src_file ? produce_borrowed : produce_level;
			nm_node *file = size ? nm_lazy(t, dir, name, size, fn, NULL, ref) : NULL;
			if (size && !file)
				return NM_E_NOMEM;
			if (size && tx->nfaces == 1 && k == 0)
				tx->png = (nm_png_source){ size, fn, NULL, ref, t, file };
		}
	return NM_OK;
}

static nm_status add_texture(nm_tree *t, nm_node *dir, cmb_model *m, uint32_t i)
{
	cmb_texture *tx = &m->tex[i];
	char name[1100];
	uint64_t max = nm_tree_options(t)->max_dimension;
	if (tx->nlevels && (tx->width > max || tx->height > max)) {
		/* A damaged texture keeps its damage first: tex/error.txt quotes it. */
		size_t at = tx->damaged ? strlen(tx->problem) : 0;
		snprintf(tx->problem + at, sizeof tx->problem - at, "%s%ux%u is larger than "
			 "max_dimension (%llu): not decoded", at ? "; " : "", tx->width,
			 tx->height, (unsigned long long)max);
		tx->nlevels = 0;
	}
	nm_out o;
	nm_out_init(&o);
	texture_text(&o, m, i);
	snprintf(name, sizeof name, "%s.txt", tx->stem);
	if (!cmb_text(t, dir, name, &o))
		return NM_E_NOMEM;
	snprintf(name, sizeof name, "%s.bin", tx->stem);
	if (!nm_slice(t, dir, name, tx->src, tx->bin_off, tx->bin_len))
		return NM_E_NOMEM;
	return add_levels(t, dir, m, tx);
}

/* A texture whose bytes the file lacks (cut short, or a table pointing outside it) is
 * an error of the file, one line each in tex/error.txt, beside the problem line of its
 * NAME.txt; the textures that are whole still decode. */
static nm_status record_damage(nm_tree *t, nm_node *dir, const cmb_model *m)
{
	nm_out lines;
	nm_out_init(&lines);
	for (uint32_t i = 0; i < m->ntex; i++) {
		const cmb_texture *tx = &m->tex[i];
		if (!tx->damaged)
			continue;
		nm_error e;
		nm_fail(&e, NM_E_FORMAT, m->file, m->chunk[CMB_TEX].name, tx->damaged_at,
			"texture %u (%s): %s", i, tx->stem, tx->problem);
		nm_out_printf(&lines, "%s\n", e.msg);
	}
	return cmb_record_errors(t, dir, &lines);
}

nm_status cmb_tree_tex(nm_tree *t, nm_node *root, cmb_model *m)
{
	cmb_chunk *c = &m->chunk[CMB_TEX];
	nm_node *dir = cmb_chunk_dir(t, root, m, CMB_TEX);
	if (!dir)
		return c->present ? NM_E_NOMEM : NM_OK;
	nm_out o;
	nm_out_init(&o);
	cmb_chunk_header(&o, c);
	if (m->tex) {
		nm_kv(&o, "texture_count", "%u", m->ntex);
		nm_kv(&o, "texture_data", "0x%x%s", m->texdata_off,
		      m->texdata_off ? "" : " (external: the data lies in another file)");
	}
	cmb_text(t, dir, "header.txt", &o);
	nm_status s = m->tex ? add_textures(t, dir, m) : NM_OK;
	if (s == NM_OK && m->tex)
		s = nm_tree_range_producer(t, produce_level, range_level);
	if (s == NM_OK && m->tex)
		s = nm_tree_range_producer(t, produce_borrowed, range_level);
	if (s == NM_OK && m->tex && nm_tree_options(t)->editable)
		s = nm_tree_invert_producer(t, produce_level, invert_level);
	if (s == NM_OK && m->tex && nm_tree_options(t)->editable)
		s = nm_tree_invert_producer(t, produce_borrowed, refuse_borrowed);
	return s == NM_OK ? record_damage(t, dir, m) : s;
}
