/* info.txt and the block's own directory (raw.bin, header.txt, error.txt when its tables
 * do not parse). */
#include <string.h>
#include "export/text.h"
#include "formats/driver.h"
#include "formats/j3danim/j3danim.h"

extern const nm_driver nm_driver_j3danim;

static const char *const what[J3DANIM_NKINDS] = {
	"joint scale/rotation/translation, keyed",
	"joint scale/rotation/translation, one value per frame",
	"texture-matrix scale/rotation/translation, keyed",
	"TEV colour and konst registers, keyed",
	"material colour 0, keyed",
	"texture index per frame",
	"shape visibility per frame",
	"cluster weights, keyed",
	"cluster weights, one value per frame",
};

static uint64_t animated_tracks(const j3danim *a, uint64_t *past_count)
{
	uint64_t n = 0;
	*past_count = 0;
	for (size_t i = 0; i < a->ntargets; i++)
		for (size_t k = 0; k < a->targets[i].ntracks; k++) {
			const j3danim_track *tr = &a->targets[i].tracks[k];
			n += tr->count > 0;
			*past_count += tr->count > 0 && tr->past_count;
		}
	return n;
}

static bool any_problem(const j3danim *a)
{
	for (size_t i = 0; i < a->ntargets; i++)
		if (a->targets[i].problem)
			return true;
	return false;
}

static size_t total_tracks(const j3danim *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ntargets; i++)
		n += a->targets[i].ntracks;
	return n;
}

static void write_info(nm_out *o, nm_reader *r, const j3danim *a, const nm_error *block_err)
{
	nm_info_begin(o, &nm_driver_j3danim, r);
	nm_kv(o, "kind", "%s (%s: %s)", j3danim_kind_name(a->kind), a->block_magic,
	      what[a->kind]);
	if (memcmp(a->file_kind, j3danim_file_kind(a->kind), 4) != 0)
		nm_kv(o, "file_kind", "%s (the block is %s: read as %s, as the game's loader "
		      "does)", a->file_kind, a->block_magic, j3danim_kind_name(a->kind));
	nm_info_size_field(o, "file_size_field", a->size_field, r);
	if (a->block_count == 1)
		nm_kv(o, "block_count_field", "%u", a->block_count);
	else
		nm_kv(o, "block_count_field", "%u (only the first block is read)", a->block_count);
	nm_kv(o, "block_size_field", "%u", a->block_size);
	const char *loop = j3danim_loop_name(a->loop);
	nm_kv(o, "loop_mode", "%s (%u)", loop ? loop : "unknown", a->loop);
	nm_kv(o, "duration", "%d", a->duration);
	if (a->kind == J3DANIM_BCK || a->kind == J3DANIM_BTK)
		nm_kv(o, "rotation_shift", "%u", a->shift);
	if (a->kind == J3DANIM_BCK && a->bck_sound != 0xFFFFFFFFu)
		nm_kv(o, "sound_table_offset", "0x%x", a->bck_sound);
	if (a->kind == J3DANIM_BTK)
		nm_kv(o, "calc_type", "%s (0x%x)", a->calc_type == 1 ? "maya" : "basic",
		      a->calc_type);
	uint64_t past;
	uint64_t animated = animated_tracks(a, &past);
	nm_kv(o, "targets", "%zu", a->ntargets);
	nm_kv(o, "tracks", "%zu", total_tracks(a));
	nm_kv(o, "animated_tracks", "%llu", (unsigned long long)animated);
	nm_kv(o, "keys", "%llu", (unsigned long long)a->keys_total);
	/* Quirks of real files that are read as the game reads them (FORMATS.md 10.10). */
	uint64_t have = nm_reader_size(r);
	if (!block_err && !any_problem(a) && a->size_field > have)
		nm_kv(o, "quirk", "the size fields count %llu bytes past the end of the file "
		      "(end padding; every table and value lies inside the file, and the game "
		      "reads such files)", (unsigned long long)(a->size_field - have));
	if (past)
		nm_kv(o, "quirk", "%llu tracks read values past their array's declared count, "
		      "inside the block (the game reads by pointer)", (unsigned long long)past);
	if (a->kind == J3DANIM_BTK && a->calc_type > 1)
		nm_kv_str(o, "quirk", "calc_type is neither 0 nor 1 (a tool's leftover): the "
			  "game uses basic");
	if (block_err)
		nm_kv_str(o, "error", block_err->msg);
}

static nm_status header_text(nm_tree *t, nm_node *dir, const j3danim *a)
{
	nm_out o;
	nm_out_init(&o);
	nm_kv_str(&o, "magic", a->block_magic);
	nm_kv(&o, "offset", "0x%llx", (unsigned long long)a->block_off);
	nm_kv(&o, "size", "%u", a->block_size);
	for (size_t i = 0; i < a->nfields; i++)
		nm_kv(&o, a->fields[i].key, a->fields[i].hex ? "0x%x" : "%u", a->fields[i].value);
	nm_node *n = nm_text(t, dir, "header.txt", &o);
	nm_out_free(&o);
	return n ? NM_OK : NM_E_NOMEM;
}

nm_status j3danim_tree_info(nm_reader *r, nm_tree *t, nm_node *root, const j3danim *a,
			    const nm_error *block_err)
{
	nm_out o;
	nm_out_init(&o);
	write_info(&o, r, a, block_err);
	nm_node *info = nm_text(t, root, "info.txt", &o);
	nm_out_free(&o);
	if (!info)
		return NM_E_NOMEM;
	char name[5];
	for (int k = 0; k < 4; k++) {
		char c = a->block_magic[k];
		name[k] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
	}
	name[4] = '\0';
	nm_node *dir = nm_dir(t, root, name);
	if (!dir || !nm_slice(t, dir, "raw.bin", r, a->block_off, a->block_avail))
		return NM_E_NOMEM;
	nm_status s = header_text(t, dir, a);
	if (s == NM_OK && block_err && !nm_error_file(t, dir, block_err))
		s = NM_E_NOMEM;
	return s;
}
