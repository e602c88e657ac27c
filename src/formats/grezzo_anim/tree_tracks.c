/* What a target's directory holds in both kinds: one key CSV per track
 * (frame,value,tangent_in,tangent_out as stored, rotations in degrees) and sampled.csv,
 * one row per frame 0 ... duration - 1. Sizes follow from the key counts and the
 * duration; nothing is sampled before a read. */
#include <math.h>
#include <stdio.h>
#include "export/csv.h"
#include "export/text.h"
#include "formats/grezzo_anim/grezzo_anim.h"

#define FRAME_WIDTH 11 /* an s32 with its sign */

static void key_columns(nm_csv *csv)
{
	static const char *const values[] = { "value", "tangent_in", "tangent_out" };
	csv->ncols = 0;
	nm_csv_col_add(csv, "frame", NM_CSV_INT, FRAME_WIDTH);
	nm_csv_floats(csv, values, 3);
}

/* Keys as parsed. Linear, step and per-frame tracks store no tangents: nan there. */
static nm_status produce_keys(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const ga_track *tr = arg;
	nm_csv csv;
	(void)ctx;
	(void)err;
	key_columns(&csv);
	nm_csv_begin(o, &csv);
	for (uint32_t k = 0; k < tr->count && !o->failed; k++) {
		const nm_key *key = &tr->keys[k];
		nm_csv_cell_int(o, &csv, 0, (int64_t)key->time);
		nm_csv_cell_float(o, &csv, 1, key->value);
		nm_csv_cell_float(o, &csv, 2, tr->hermite_tangents ? key->tan_in : NAN);
		nm_csv_cell_float(o, &csv, 3, tr->hermite_tangents ? key->tan_out : NAN);
	}
	return NM_OK;
}

struct sampled {
	const ga_anim *a;
	const ga_target *g;
	const char *const *cols;
	const unsigned *slot;
	size_t n;
};

static void sampled_columns(nm_csv *csv, const struct sampled *sm)
{
	uint32_t last = sm->a->duration ? sm->a->duration - 1 : 0;
	csv->ncols = 0;
	nm_csv_col_add(csv, "frame", NM_CSV_UINT, nm_digits(last));
	for (size_t k = 0; k < sm->n; k++)
		nm_csv_col_add(csv, sm->cols[k], NM_CSV_FLOAT, 0);
}

/* A slot without a track is the model's own value, which this file does not carry:
 * nan (ga_track_sample). Each frame is sampled alone, so a range costs its rows. */
struct sampled_rows {
	const struct sampled *sm;
	nm_csv csv;
};

static void sampled_row(nm_out *o, void *ctx, uint64_t f)
{
	const struct sampled_rows *r = ctx;
	const struct sampled *sm = r->sm;
	nm_csv_cell_uint(o, &r->csv, 0, f);
	for (size_t k = 0; k < sm->n; k++)
		nm_csv_cell_float(o, &r->csv, k + 1,
				  (float)ga_track_sample(sm->g->track[sm->slot[k]], (uint32_t)f));
}

static nm_status sampled_range(void *ctx, void *arg, uint64_t off, size_t len, nm_out *o,
			       nm_error *err)
{
	struct sampled_rows r = { .sm = arg };
	(void)ctx;
	sampled_columns(&r.csv, r.sm);
	return nm_csv_write_range(o, &r.csv, r.sm->a->duration, off, len, sampled_row, &r,
				  r.sm->a->file, err);
}

static nm_status produce_sampled(void *ctx, void *arg, nm_out *o, nm_error *err)
{
	const struct sampled *sm = arg;
	nm_csv csv;
	sampled_columns(&csv, sm);
	uint64_t size = nm_csv_size(&csv, sm->a->duration);
	if (size > SIZE_MAX)
		return nm_fail(err, NM_E_LIMIT, sm->a->file, NULL, NM_NO_OFFSET, "too large");
	return sampled_range(ctx, arg, 0, (size_t)size, o, err);
}

nm_status ga_tree_tracks(nm_tree *t, nm_node *dir, const ga_anim *a, const ga_target *g,
			 const char *const *sampled_cols, const unsigned *sampled_slot,
			 size_t nsampled)
{
	nm_csv csv;
	key_columns(&csv);
	for (unsigned k = 0; k < g->ntracks; k++) {
		const ga_track *tr = g->track[k];
		const char *name = ga_track_name(a, g, k);
		if (!tr || !name)
			continue;
		char file[64];
		snprintf(file, sizeof file, "%s.csv", name);
		if (!nm_lazy(t, dir, file, nm_csv_size(&csv, tr->count), produce_keys, NULL,
			     (void *)tr))
			return NM_E_NOMEM;
	}
	if (a->duration > GA_MAX_SAMPLED_FRAMES)
		return NM_OK; /* info.txt says why */
	struct sampled *sm = nm_tree_alloc(t, sizeof *sm);
	if (!sm)
		return NM_E_NOMEM;
	*sm = (struct sampled){ .a = a, .g = g, .cols = sampled_cols, .slot = sampled_slot,
				.n = nsampled };
	sampled_columns(&csv, sm);
	if (nm_tree_split_producer(t, produce_sampled, sampled_range) != NM_OK)
		return NM_E_NOMEM;
	return nm_lazy(t, dir, "sampled.csv", nm_csv_size(&csv, a->duration), produce_sampled,
		       NULL, sm) ? NM_OK : NM_E_NOMEM;
}

void ga_tracks_text(nm_out *o, const ga_anim *a, const ga_target *g)
{
	nm_out_str(o, "track_offsets:");
	for (unsigned k = 0; k < g->ntracks; k++)
		nm_out_printf(o, " 0x%x", g->track_off[k]);
	nm_out_char(o, '\n');
	for (unsigned k = 0; k < g->ntracks; k++) {
		const ga_track *tr = g->track[k];
		const char *name = ga_track_name(a, g, k);
		if (!name)
			continue;
		if (!tr) {
			nm_kv(o, name, "none");
			continue;
		}
		const char *interp = ga_interp_name(tr->type, a->kind);
		nm_out_printf(o, "%s: %u keys, %s (%u), %s at 0x%llx", name, tr->count,
			      interp ? interp : "unknown", tr->type, ga_form_name(tr->form),
			      (unsigned long long)tr->at);
		if (tr->form == GA_FORM_LONG || tr->form == GA_FORM_SHORT || tr->form == GA_FORM_S16)
			nm_out_printf(o, ", frames %d to %u", tr->start, tr->end_frame);
		if (tr->form == GA_FORM_SHORT || tr->form == GA_FORM_V5_LINEAR) {
			nm_out_str(o, tr->form == GA_FORM_SHORT ? ", unknown_f32 " : ", scale ");
			nm_out_float(o, tr->scale);
		}
		if (tr->form == GA_FORM_SHORT)
			nm_out_printf(o, ", unknown_u32 0x%x", tr->unknown);
		if (tr->form == GA_FORM_V5_LINEAR) {
			nm_out_str(o, ", bias ");
			nm_out_float(o, tr->bias);
		}
		nm_out_char(o, '\n');
	}
}

nm_status ga_error_file(nm_tree *t, nm_node *dir, const char *msg)
{
	nm_out o;
	nm_out_init(&o);
	nm_out_printf(&o, "%s\n", msg ? msg : "unknown error");
	nm_node *n = nm_text(t, dir, "error.txt", &o);
	nm_out_free(&o);
	return n ? NM_OK : NM_E_NOMEM;
}

nm_node *ga_text(nm_tree *t, nm_node *dir, const char *name, nm_out *o)
{
	nm_node *n = nm_text(t, dir, name, o);
	nm_out_free(o);
	return n;
}

bool ga_raw(nm_tree *t, nm_node *dir, nm_reader *r, uint64_t at, uint64_t end)
{
	uint64_t size = nm_reader_size(r);
	if (at > size)
		at = size;
	if (end > size)
		end = size;
	return nm_slice(t, dir, "raw.bin", r, at, end > at ? end - at : 0) != NULL;
}
