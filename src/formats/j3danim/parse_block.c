/* The file header, the block's common fields, and the pieces every kind's parser shares
 * (bounded loads, name tables, tracks and the check that their data lies in the block). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "formats/j3d/j3d.h"
#include "formats/j3danim/j3danim.h"
#include "lib/bytes.h"
#include "lib/view.h"

/* Kinds by the file header's FourCC at 0x04 and the block's magic (10.1's table). */
static const struct kind_magic {
	char file[5], block[5];
	size_t header;       /* block header bytes read */
} kinds[J3DANIM_NKINDS] = {
	[J3DANIM_BCK] = { "bck1", "ANK1", 0x24 },
	[J3DANIM_BCA] = { "bca1", "ANF1", 0x24 },
	[J3DANIM_BTK] = { "btk1", "TTK1", 0x60 },
	[J3DANIM_BRK] = { "brk1", "TRK1", 0x58 },
	[J3DANIM_BPK] = { "bpk1", "PAK1", 0x34 },
	[J3DANIM_BTP] = { "btp1", "TPT1", 0x20 },
	[J3DANIM_BVA] = { "bva1", "VAF1", 0x18 },
	[J3DANIM_BLK] = { "blk1", "CLK1", 0x18 },
	[J3DANIM_BLA] = { "bla1", "CLF1", 0x18 },
};

const char *j3danim_file_kind(j3danim_kind k) { return kinds[k].file; }

static int kind_of_file(const uint8_t *p)
{
	for (int k = 0; k < J3DANIM_NKINDS; k++)
		if (memcmp(p, kinds[k].file, 4) == 0)
			return k;
	return -1;
}

static int kind_of_block(const uint8_t *p)
{
	for (int k = 0; k < J3DANIM_NKINDS; k++)
		if (memcmp(p, kinds[k].block, 4) == 0)
			return k;
	return -1;
}

bool j3danim_probe(const uint8_t *head, size_t len)
{
	return len >= 8 && memcmp(head, "J3D1", 4) == 0 && kind_of_file(head + 4) >= 0;
}

/* ---- memory ---------------------------------------------------------------------- */

/* Every allocation is one link of a list hung from a->mem. */
struct own {
	struct own *next;
	max_align_t data[];
};

void *j3danim_alloc(j3danim *a, size_t count, size_t size)
{
	if (size && count > (SIZE_MAX - sizeof(struct own)) / size)
		return NULL;
	size_t bytes = count * size;
	struct own *o = calloc(1, sizeof *o + (bytes ? bytes : 1));
	if (!o)
		return NULL;
	o->next = a->mem;
	a->mem = o;
	return o->data;
}

void j3danim_free(j3danim *a)
{
	if (!a)
		return;
	for (struct own *o = a->mem, *next; o; o = next) {
		next = o->next;
		free(o);
	}
	free(a);
}

/* ---- messages and loads ---------------------------------------------------------- */

nm_status j3danim_fail(const j3danim *a, nm_error *err, uint64_t rel, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nm_failv(err, NM_E_FORMAT, a->file, a->block_magic, a->block_off + rel, fmt, ap);
	va_end(ap);
	return NM_E_FORMAT;
}

nm_status j3danim_load(j3danim_parse_ctx *p, uint64_t rel, uint64_t len, const char *what,
		       nm_view *v, nm_error *err)
{
	const j3danim *a = p->a;
	if (rel > a->block_avail || len > a->block_avail - rel)
		return j3danim_fail(a, err, rel > a->block_avail ? 0 : rel,
				    "%s (0x%llx bytes at block offset 0x%llx) runs past the end "
				    "of the block (0x%llx bytes in the file)", what,
				    (unsigned long long)len, (unsigned long long)rel,
				    (unsigned long long)a->block_avail);
	return nm_view_load(p->r, a->block_off + rel, (size_t)len, a->block_magic, NM_BIG, v,
			    err);
}

uint32_t j3danim_field(j3danim *a, const char *key, uint32_t v, bool hex)
{
	if (a->nfields < sizeof a->fields / sizeof a->fields[0])
		a->fields[a->nfields++] = (struct j3danim_field){ key, v, hex };
	return v;
}

uint8_t j3danim_add_array(j3danim *a, const char *name, uint32_t off, uint32_t count,
			  uint8_t elem, bool is_float, bool is_signed)
{
	/* Twelve slots hold the most any kind has (BTK: S, R, T and their post arrays). */
	uint8_t i = (uint8_t)a->narrays;
	if (a->narrays < sizeof a->arrays / sizeof a->arrays[0])
		a->arrays[a->narrays++] = (j3danim_array){ name, off, count, elem, is_float,
							    is_signed };
	return i;
}

static nm_status load_in_block(void *ctx, uint64_t rel, uint64_t len, const char *what,
			       nm_view *v, nm_error *err)
{
	return j3danim_load(ctx, rel, len, what, v, err);
}

nm_status j3danim_names(j3danim_parse_ctx *p, uint32_t rel, size_t want, const char ***out,
			nm_error *err)
{
	j3danim *a = p->a;
	const char **names = j3danim_alloc(a, want ? want : 1, sizeof *names);
	if (!names)
		return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET,
			       "out of memory");
	*out = names;
	nm_view v;
	uint16_t count;
	j3d_name_src src = { load_in_block, p, a->block_avail };
	nm_status s = j3d_name_view(&src, rel, &count, &v, err);
	if (s != NM_OK)
		return s;
	for (size_t i = 0; s == NM_OK && i < count && i < want; i++) {
		size_t n;
		const char *str = j3d_name_at(&v, i, &n);
		char *copy = str ? j3danim_alloc(a, n + 1, 1) : NULL;
		if (str && !copy)
			s = nm_fail(err, NM_E_NOMEM, a->file, a->block_magic, NM_NO_OFFSET,
				    "out of memory");
		else if (copy)
			memcpy(copy, str, n);
		names[i] = copy;
	}
	nm_view_free(&v);
	return s;
}

void j3danim_track_from(j3danim_track *tr, nm_view *v, size_t off, bool full, const char *name,
			j3danim_unit unit, uint8_t array)
{
	tr->name = name;
	tr->unit = unit;
	tr->full = full;
	tr->used = true;
	tr->count = nm_u16(v, off);
	tr->first = nm_u16(v, off + 2);
	tr->mode = full ? 0 : nm_u16(v, off + 4);
	tr->array = array;
}

/* Where each track's elements lie, and whether they fit in the block; a target whose
 * track does not fit gets that as its problem (the first one found). */
static nm_status place_tracks(j3danim *a, nm_error *err)
{
	for (size_t i = 0; i < a->ntargets; i++) {
		j3danim_target *tg = &a->targets[i];
		for (size_t k = 0; k < tg->ntracks; k++) {
			j3danim_track *tr = &tg->tracks[k];
			const j3danim_array *ar = &a->arrays[tr->array];
			unsigned per = tr->full || tr->count < 2 ? 1 : tr->mode == 0 ? 3 : 4;
			tr->elements = (uint64_t)tr->count * per;
			uint64_t start = (uint64_t)ar->off + (uint64_t)tr->first * ar->elem;
			uint64_t bytes = tr->elements * ar->elem;
			tr->off = a->block_off + start;
			tr->past_count = (uint64_t)tr->first + tr->elements > ar->count;
			a->keys_total += tr->count;
			if (tg->problem || !tr->count)
				continue;
			if (start > a->block_avail || bytes > a->block_avail - start) {
				nm_error e;
				j3danim_fail(a, &e, start > a->block_avail ? 0 : start,
					     "%s of entry %u: %u %s from element %u of the %s array "
					     "(0x%llx bytes at block offset 0x%llx) run past the end "
					     "of the block (0x%llx bytes in the file)", tr->name,
					     tg->index, tr->count, tr->full ? "values" : "keys",
					     tr->first, ar->name, (unsigned long long)bytes,
					     (unsigned long long)start,
					     (unsigned long long)a->block_avail);
				char *msg = j3danim_alloc(a, strlen(e.msg) + 1, 1);
				if (msg)
					memcpy(msg, e.msg, strlen(e.msg));
				tg->problem = msg;
				if (!tg->problem)
					return nm_fail(err, NM_E_NOMEM, a->file, a->block_magic,
						       NM_NO_OFFSET, "out of memory");
			}
		}
	}
	return NM_OK;
}

nm_status j3danim_parse(nm_reader *r, j3danim **out, nm_error *err)
{
	const char *file = nm_reader_name(r);
	uint64_t size = nm_reader_size(r);
	*out = NULL;
	uint8_t h[J3DANIM_HEADER_SIZE + 8];
	if (size < sizeof h)
		return nm_fail(err, NM_E_FORMAT, file, NULL, 0,
			       "file of %llu bytes is shorter than the 0x20-byte J3D header and "
			       "its block header", (unsigned long long)size);
	nm_status s = nm_reader_read(r, 0, h, sizeof h, NULL, err);
	if (s != NM_OK)
		return s;
	if (!j3danim_probe(h, sizeof h))
		return nm_fail(err, NM_E_FORMAT, file, NULL, 0,
			       "not a J3D animation (J3D1 and a kind such as bck1 expected)");
	int bk = kind_of_block(h + J3DANIM_HEADER_SIZE);
	if (bk < 0) {
		char m[5];
		for (int k = 0; k < 4; k++) {
			uint8_t b = h[J3DANIM_HEADER_SIZE + k];
			m[k] = b >= 0x20 && b < 0x7F ? (char)b : '?';
		}
		m[4] = '\0';
		return nm_fail(err, NM_E_FORMAT, file, NULL, J3DANIM_HEADER_SIZE,
			       "block \"%s\" is not an animation block (%s expected for %.4s)",
			       m, kinds[kind_of_file(h + 4)].block, (const char *)h + 4);
	}
	j3danim *a = calloc(1, sizeof *a);
	if (!a)
		return nm_fail(err, NM_E_NOMEM, file, NULL, NM_NO_OFFSET, "out of memory");
	*out = a;
	/* The block decides what the data is (the game's loader dispatches on it); a file
	 * FourCC naming another kind is shown in info.txt. */
	a->kind = (j3danim_kind)bk;
	a->file = file;
	memcpy(a->block_magic, kinds[bk].block, 5);
	memcpy(a->file_kind, h + 4, 4);
	a->size_field = nm_be32(h + 8);
	a->block_count = nm_be32(h + 12);
	a->bck_sound = nm_be32(h + 0x1C);
	a->block_off = J3DANIM_HEADER_SIZE;
	a->block_size = nm_be32(h + J3DANIM_HEADER_SIZE + 4);
	uint64_t left = size - a->block_off;
	a->block_avail = a->block_size < left ? a->block_size : left;

	j3danim_parse_ctx p = { .a = a, .r = r };
	size_t hs = kinds[bk].header;
	if (a->block_size < hs)
		return j3danim_fail(a, err, 4, "block size 0x%x is smaller than the 0x%zx-byte "
				    "%s header", a->block_size, hs, a->block_magic);
	s = j3danim_load(&p, 0, hs, "block header", &p.head, err);
	if (s != NM_OK)
		return s;
	a->loop = nm_u8(&p.head, 8);
	a->byte9 = nm_u8(&p.head, 9);
	a->duration = nm_s16(&p.head, bk == J3DANIM_BPK ? 0x0C : 0x0A);
	/* Only ANK1 and TTK1 have a shift; elsewhere 0x09 is padding. */
	a->shift = bk == J3DANIM_BCK || bk == J3DANIM_BTK ? a->byte9 : 0;
	switch (a->kind) {
	case J3DANIM_BCK: case J3DANIM_BCA:
		s = j3danim_parse_transform(&p, err);
		break;
	case J3DANIM_BTK: case J3DANIM_BRK: case J3DANIM_BPK: case J3DANIM_BTP:
		s = j3danim_parse_material(&p, err);
		break;
	default:
		s = j3danim_parse_other(&p, err);
		break;
	}
	nm_view_free(&p.head);
	if (s == NM_OK)
		s = place_tracks(a, err);
	if (s != NM_OK) {
		a->targets = NULL;
		a->ntargets = 0;
		a->keys_total = 0;
	}
	return s;
}
