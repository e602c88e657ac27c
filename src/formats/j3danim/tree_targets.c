/* A directory per target: target.txt, one CSV of keys (or per-frame values) per track
 * that has any, and sampled.csv, the values the game computes at frames 0 .. duration-1.
 * Sizes follow from the counts; the keys are read, and sampled, only when a file is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/csv.h"
#include "export/text.h"
#include "formats/j3danim/j3danim.h"
#include "lib/alloc.h"

/* What every producer of one animation shares. */
typedef struct anim_ctx {
	nm_reader *r;
	const j3danim *a;
} anim_ctx;

/* ---- key CSVs ---------------------------------------------------------------------------- */

static bool integer_values(const j3danim_track *tr)
{
	return tr->unit == J3DANIM_TEXTURE || tr->unit == J3DANIM_VISIBLE;
}

/* keyed: frame,value,tangent_in,tangent_out; per-frame: frame,value (the frame an index). */
static void key_columns(nm_csv *c, const j3danim_track *tr)
{
	memset(c, 0, sizeof *c);
	if (tr->full) {
		nm_csv_col_add(c, "frame", NM_CSV_UINT, 5);
		nm_csv_col_add(c, "value", integer_values(tr) ? NM_CSV_UINT : NM_CSV_FLOAT, 5);
		return;
	}
	static const char *const names[4] = { "frame", "value", "tangent_in", "tangent_out" };
	nm_csv_floats(c, names, 4);
}

/* Keys of tr (count of them) from the file, in scratch memory under o's limits. */
static nm_key *load_keys(const anim_ctx *x, const j3danim_track *tr, nm_out *o, nm_error *err)
{
	nm_key *keys = nm_alloc(o->opt, tr->count ? tr->count : 1, sizeof *keys, err,
				x->a->file, x->a->block_magic, tr->off);
	if (keys && j3danim_track_keys(x->r, x->a, tr, keys, err) != NM_OK) {
		free(keys);
		return NULL;
	}
	return keys;
}

static nm_status produce_keys(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const anim_ctx *x = ctx;
	const j3danim_track *tr = arg;
	nm_key *keys = load_keys(x, tr, o, err);
	if (!keys)
		return err->code;
	nm_csv c;
	key_columns(&c, tr);
	double k = j3danim_unit_scale(x->a, tr);
	nm_csv_begin(o, &c);
	for (size_t i = 0; i < tr->count; i++) {
		if (tr->full) {
			nm_csv_cell_uint(o, &c, 0, i);
			if (integer_values(tr))
				nm_csv_cell_uint(o, &c, 1, (uint64_t)keys[i].value);
			else
				nm_csv_cell_float(o, &c, 1, (float)(keys[i].value * k));
			continue;
		}
		nm_csv_cell_float(o, &c, 0, keys[i].time);
		nm_csv_cell_float(o, &c, 1, (float)(keys[i].value * k));
		nm_csv_cell_float(o, &c, 2, (float)(keys[i].tan_in * k));
		nm_csv_cell_float(o, &c, 3, (float)(keys[i].tan_out * k));
	}
	free(keys);
	return NM_OK;
}

/* ---- sampled.csv ------------------------------------------------------------------------- */

/* The tracks sampled.csv shows, in its column order. */
static size_t sampled_tracks(const j3danim_target *tg, const j3danim_track **out)
{
	if (tg->kind == J3DANIM_TEXMTX) {
		/* The five the game samples: S/T scale, Q rotation, S/T translation. */
		static const int pick[5] = { 0, 3, 7, 2, 5 };
		for (int i = 0; i < 5; i++)
			out[i] = &tg->tracks[pick[i]];
		return 5;
	}
	for (size_t i = 0; i < tg->ntracks; i++)
		out[i] = &tg->tracks[i];
	return tg->ntracks;
}

static void sampled_columns(nm_csv *c, const j3danim_target *tg)
{
	const j3danim_track *tr[9];
	size_t n = sampled_tracks(tg, tr);
	memset(c, 0, sizeof *c);
	nm_csv_col_add(c, "frame", NM_CSV_UINT, 5);
	for (size_t i = 0; i < n; i++) {
		switch (tr[i]->unit) {
		case J3DANIM_COLOR_U8: nm_csv_col_add(c, tr[i]->name, NM_CSV_UINT, 3); break;
		case J3DANIM_COLOR_S10: nm_csv_col_add(c, tr[i]->name, NM_CSV_INT, 6); break;
		case J3DANIM_TEXTURE: nm_csv_col_add(c, tr[i]->name, NM_CSV_UINT, 5); break;
		case J3DANIM_VISIBLE: nm_csv_col_add(c, tr[i]->name, NM_CSV_UINT, 3); break;
		default: nm_csv_col_add(c, tr[i]->name, NM_CSV_FLOAT, 0); break;
		}
	}
}

static uint64_t sampled_rows(const j3danim *a)
{
	return a->duration > 0 ? (uint64_t)a->duration : 0;
}

/* A row of sampled.csv: ctx is a struct sampled_rows. */
struct sampled_rows {
	const anim_ctx *x;
	const nm_csv *c;
	const j3danim_track **tr;
	nm_key **keys;
	size_t n;
};

static void sampled_row(nm_out *o, void *ctx, uint64_t f)
{
	const struct sampled_rows *r = ctx;
	nm_csv_cell_uint(o, r->c, 0, f);
	for (size_t i = 0; i < r->n; i++) {
		double v = j3danim_sample(r->x->a, r->tr[i], r->keys[i], (float)f);
		switch (r->c->col[i + 1].kind) {
		case NM_CSV_UINT: nm_csv_cell_uint(o, r->c, i + 1, (uint64_t)v); break;
		case NM_CSV_INT: nm_csv_cell_int(o, r->c, i + 1, (int64_t)v); break;
		default: nm_csv_cell_float(o, r->c, i + 1, (float)v); break;
		}
	}
}

/* Bytes [off, off+len) of sampled.csv: each frame is sampled alone, so a range costs its
 * rows (the whole file from produce_sampled). */
static nm_status sampled_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	const anim_ctx *x = ctx;
	const j3danim_target *tg = arg;
	const j3danim_track *tr[9];
	nm_key *keys[9] = { 0 };
	size_t n = sampled_tracks(tg, tr);
	nm_status s = NM_OK;
	for (size_t i = 0; i < n && s == NM_OK; i++)
		if (!(keys[i] = load_keys(x, tr[i], o, err)))
			s = err->code;
	if (s == NM_OK) {
		nm_csv c;
		sampled_columns(&c, tg);
		struct sampled_rows rows = { x, &c, tr, keys, n };
		s = nm_csv_write_range(o, &c, sampled_rows(x->a), off, len, sampled_row, &rows,
				       x->a->file, err);
	}
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	return s;
}

static nm_status produce_sampled(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const anim_ctx *x = ctx;
	nm_csv c;
	sampled_columns(&c, arg);
	uint64_t size = nm_csv_size(&c, sampled_rows(x->a));
	if (size > SIZE_MAX)
		return nm_fail_limit(err, o->opt, size, x->a->file, x->a->block_magic, NM_NO_OFFSET);
	return sampled_range(ctx, arg, 0, (size_t)size, o, err);
}

/* ---- target.txt and the directories ------------------------------------------------------- */

static const char *const target_kind_names[] = {
	[J3DANIM_JOINT] = "joint", [J3DANIM_TEXMTX] = "texture_matrix",
	[J3DANIM_TEV_COLOR] = "tev_color_register", [J3DANIM_TEV_KONST] = "tev_konst_register",
	[J3DANIM_MAT_COLOR] = "material_color", [J3DANIM_TEX_NO] = "texture_slot",
	[J3DANIM_SHAPE] = "shape", [J3DANIM_CLUSTER] = "cluster",
};

static bool is_material(const j3danim_target *tg)
{
	return tg->kind != J3DANIM_JOINT && tg->kind != J3DANIM_SHAPE &&
	       tg->kind != J3DANIM_CLUSTER;
}

static void target_text(nm_out *o, const j3danim *a, const j3danim_target *tg)
{
	nm_kv_str(o, "target", target_kind_names[tg->kind]);
	nm_kv(o, "entry", "%u", tg->index);
	if (is_material(tg)) {
		if (tg->name)
			nm_kv_str(o, "material", tg->name);
		else
			nm_kv_str(o, "material", "(no name in the name table)");
		nm_kv(o, "material_id_field", "%u", tg->material_id);
	}
	switch (tg->kind) {
	case J3DANIM_TEXMTX:
		nm_kv(o, tg->post ? "post_tex_matrix" : "tex_matrix", "%u", tg->slot);
		nm_kv_floats(o, "center", tg->center, 3);
		break;
	case J3DANIM_TEV_COLOR: case J3DANIM_TEV_KONST:
		nm_kv(o, "register", "%u", tg->slot);
		break;
	case J3DANIM_TEX_NO:
		nm_kv(o, "texture_slot", "%u", tg->slot);
		break;
	default:
		break;
	}
	for (size_t k = 0; k < tg->ntracks; k++) {
		const j3danim_track *tr = &tg->tracks[k];
		const j3danim_array *ar = &a->arrays[tr->array];
		if (tr->full)
			nm_kv(o, tr->name, "%u values from %s[%u]%s", tr->count, ar->name, tr->first,
			      tr->past_count ? " (past the declared count)" : "");
		else if (tr->count >= 2)
			nm_kv(o, tr->name, "%u keys from %s[%u], tangent mode %u%s", tr->count,
			      ar->name, tr->first, tr->mode, tr->used ? "" : " (not used by the game)");
		else if (tr->count == 1)
			nm_kv(o, tr->name, "constant %s[%u]%s", ar->name, tr->first,
			      tr->used ? "" : " (not used by the game)");
		else
			nm_kv_str(o, tr->name, "none");
	}
}

/* The directory a material target goes in: materials/NAME/ then SUB (+ ~N if taken). */
static nm_node *material_dir(nm_tree *t, nm_node *materials, const j3danim_target *tg)
{
	char *safe = tg->name && tg->name[0] ? nm_safe_name(tg->name, strlen(tg->name)) : NULL;
	char fallback[32];
	snprintf(fallback, sizeof fallback, "entry_%u", tg->index);
	const char *name = safe ? safe : fallback;
	nm_node *m = nm_child(t, materials, name);
	if (!m)
		m = nm_dir(t, materials, name);
	free(safe);
	if (!m)
		return NULL;
	char sub[32];
	switch (tg->kind) {
	case J3DANIM_TEXMTX:
		snprintf(sub, sizeof sub, "%stex_matrix%u", tg->post ? "post_" : "", tg->slot);
		break;
	case J3DANIM_TEV_COLOR: snprintf(sub, sizeof sub, "tev_color%u", tg->slot); break;
	case J3DANIM_TEV_KONST: snprintf(sub, sizeof sub, "tev_konst%u", tg->slot); break;
	case J3DANIM_TEX_NO: snprintf(sub, sizeof sub, "texture%u", tg->slot); break;
	default: snprintf(sub, sizeof sub, "mat_color0"); break;
	}
	static const char *const none[] = { "", NULL };
	char *u = nm_unique_stem(t, m, sub, none);
	nm_node *d = u ? nm_dir(t, m, u) : NULL;
	free(u);
	return d;
}

static nm_node *target_dir(nm_tree *t, nm_node *root, const j3danim_target *tg)
{
	static const char *const top[] = {
		[J3DANIM_JOINT] = "joints", [J3DANIM_SHAPE] = "shapes",
		[J3DANIM_CLUSTER] = "clusters",
	};
	const char *group = is_material(tg) ? "materials" : top[tg->kind];
	nm_node *g = nm_child(t, root, group);
	if (!g && !(g = nm_dir(t, root, group)))
		return NULL;
	if (is_material(tg))
		return material_dir(t, g, tg);
	char name[16];
	snprintf(name, sizeof name, "%u", tg->index);
	return nm_dir(t, g, name);
}

static nm_status target_files(nm_tree *t, nm_node *dir, anim_ctx *x, j3danim_target *tg)
{
	nm_out o;
	nm_out_init(&o);
	target_text(&o, x->a, tg);
	nm_node *txt = nm_text(t, dir, "target.txt", &o);
	nm_out_free(&o);
	if (!txt)
		return NM_E_NOMEM;
	if (tg->problem) {
		nm_error e = { .code = NM_E_FORMAT };
		snprintf(e.msg, sizeof e.msg, "%s", tg->problem);
		return nm_error_file(t, dir, &e) ? NM_OK : NM_E_NOMEM;
	}
	nm_csv c;
	for (size_t k = 0; k < tg->ntracks; k++) {
		j3danim_track *tr = &tg->tracks[k];
		if (!tr->count)
			continue;
		key_columns(&c, tr);
		char name[48];
		snprintf(name, sizeof name, "%s.csv", tr->name);
		if (!nm_lazy_formats(nm_lazy(t, dir, name, nm_csv_size(&c, tr->count), produce_keys,
					     x, tr), x->r))
			return NM_E_NOMEM;
	}
	sampled_columns(&c, tg);
	if (!nm_lazy(t, dir, "sampled.csv", nm_csv_size(&c, sampled_rows(x->a)), produce_sampled,
		     x, tg))
		return NM_E_NOMEM;
	return NM_OK;
}

nm_status j3danim_tree_targets(nm_reader *r, nm_tree *t, nm_node *root, j3danim *a)
{
	anim_ctx *x = nm_tree_alloc(t, sizeof *x);
	if (!x || nm_tree_split_producer(t, produce_sampled, sampled_range) != NM_OK)
		return NM_E_NOMEM;
	x->r = r;
	x->a = a;
	for (size_t i = 0; i < a->ntargets; i++) {
		nm_node *dir = target_dir(t, root, &a->targets[i]);
		if (!dir)
			return NM_E_NOMEM;
		nm_status s = target_files(t, dir, x, &a->targets[i]);
		if (s != NM_OK)
			return s;
	}
	return NM_OK;
}
