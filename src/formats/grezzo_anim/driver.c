/* The Grezzo animation driver: CMAB (material) and CSAB (skeletal) files, known by their
 * magic; parse (parse_cmab.c, parse_csab.c) into a ga_anim, then the tree (tree_*.c):
 *   /info.txt  /header.txt
 *   CMAB: /mads/ /txpt/ /strt/        CSAB: /joints/
 * See doc/grezzo_anim.md. */
#include <string.h>
#include "export/text.h"
#include "formats/driver.h"
#include "formats/grezzo_anim/grezzo_anim.h"

/* A declared size this far above the file is read as the game reads it: one real CMAB
 * (FORMATS.md 10.10) counts 64 bytes of end padding the file does not have. */
#define SIZE_SLACK 64

static bool ga_probe(const uint8_t *head, size_t len, uint64_t size)
{
	(void)size;
	return len >= 4 && (memcmp(head, "cmab", 4) == 0 || memcmp(head, "csab", 4) == 0);
}

static nm_status ga_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err);

const nm_driver nm_driver_grezzo_anim = {
	.name = "grezzo_anim",
	.description = "Grezzo animation (3DS: CMAB material, CSAB skeletal)",
	.probe = ga_probe,
	.build = ga_build,
};

static void info_text(nm_out *o, nm_reader *r, const ga_anim *a)
{
	nm_info_begin(o, &nm_driver_grezzo_anim, r);
	nm_kv(o, "kind", a->kind == GA_CMAB ? "cmab (material animation)"
					    : "csab (skeletal animation)");
	if (a->kind == GA_CMAB)
		nm_kv(o, "version", "%u", a->version);
	else
		nm_kv(o, "version", "%u (%s)", a->version,
		      a->version > 4 ? "Majora's Mask 3D tracks" : "Ocarina of Time 3D tracks");
	nm_info_size_field(o, "size_field", a->size_field, r);
	nm_kv_enum(o, "loop", ga_loop_name(a->loop), a->loop);
	nm_kv(o, "duration", "%u", a->duration);
	nm_kv(o, "targets", "%u", a->ntargets);
	nm_kv(o, "tracks", "%llu", (unsigned long long)a->ntracks);
	nm_kv(o, "keys", "%llu", (unsigned long long)a->nkeys);
	if (a->kind == GA_CMAB) {
		nm_kv(o, "textures", "%u", a->ntextures);
		nm_kv(o, "strings", "%u", a->nstrings);
		nm_kv(o, "track_headers", "%s", a->short_tracks && a->long_tracks ? "long and short"
				  : a->short_tracks ? "short (u16 fields)" : a->long_tracks
				  ? "long (u32 fields)" : "none");
	} else {
		nm_kv(o, "bones", "%u", a->nbones);
	}
	if (a->duration > GA_MAX_SAMPLED_FRAMES)
		nm_kv(o, "sampled", "none (the duration is past %u frames: no sampled.csv; the key "
		      "CSVs hold every key)", GA_MAX_SAMPLED_FRAMES);
	if (a->anim_count != 1)
		nm_kv(o, "animation_count", "%u (only the first is read)", a->anim_count);
	uint64_t have = nm_reader_size(r);
	if (a->size_field > have && a->size_field - have <= SIZE_SLACK)
		nm_kv(o, "quirks", "the size field counts %llu bytes the file does not have (end "
		      "padding; accepted, as the game does)",
		      (unsigned long long)(a->size_field - have));
}

static nm_status header_text(nm_tree *t, nm_node *root, const ga_anim *a)
{
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "magic", "%s", a->kind == GA_CMAB ? "cmab" : "csab");
	nm_kv(&o, "version", "%u", a->version);
	nm_kv(&o, "size", "%u", a->size_field);
	nm_kv(&o, "unknown_0c", "0x%x", a->unknown_0c);
	if (a->kind == GA_CSAB && a->version > 4)
		nm_kv_floats(&o, "unknown_10", a->v5_floats, 3);
	nm_kv(&o, "animation_count", "%u", a->anim_count);
	nm_kv(&o, "animation_offset", "0x%x", a->anim_off);
	if (a->kind == GA_CMAB) {
		nm_kv(&o, "strt_offset", "0x%x", a->strt_off);
		nm_kv(&o, "texture_data_offset", "0x%x", a->texdata_off);
		nm_kv(&o, "animation_tag", "%d", a->cmab_tag);
	}
	nm_kv(&o, "duration", "%u", a->duration);
	nm_kv_enum(&o, "loop", ga_loop_name(a->loop), a->loop);
	if (a->kind == GA_CMAB) {
		if (a->mads_field)
			nm_kv(&o, "mads_offset", "0x%x (the animation's offset points at 0x%x, where "
			      "no mads is; the list right after the animation header is read)",
			      a->mads_off, a->mads_field);
		else
			nm_kv(&o, "mads_offset", "0x%x", a->mads_off);
		nm_kv(&o, "txpt_offset", "0x%x", a->txpt_off);
	}
	return ga_text(t, root, "header.txt", &o) ? NM_OK : NM_E_NOMEM;
}

/* errors: N comes last, counted by nm_build_any from the error.txt files made. */
static nm_status ga_build(nm_reader *r, nm_tree *t, nm_node *root, nm_error *err)
{
	ga_anim *a = nm_tree_alloc(t, sizeof *a);
	if (!a)
		goto nomem;
	nm_status s = ga_parse(r, t, a, err);
	if (s != NM_OK)
		return s;
	nm_out o;
	nm_out_init(&o);
	info_text(&o, r, a);
	if (!ga_text(t, root, "info.txt", &o) || header_text(t, root, a) != NM_OK)
		goto nomem;
	s = a->kind == GA_CMAB ? ga_tree_cmab(t, root, a, r) : ga_tree_csab(t, root, a, r);
	if (s != NM_OK)
		goto nomem;
	return NM_OK;
nomem:
	return nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET, "out of memory");
}
