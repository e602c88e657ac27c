/* Which J3D animations a model takes (doc/j3danim.md, "With their model"): of the
 * animation files around it (nm_member_neighbours: its archive, or its folder in a folder
 * mount), those whose targets fit it best among the models there: an exact fit (as many
 * joint entries as joints, every material name found) before a loose one (a shorter
 * joint table, some names), then the model whose name is the longest prefix of the
 * animation's; models equal on both all take it. Only headers and record tables are
 * read here, at the model's build; keys are read when model.glb is produced
 * (anim_gltf.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "formats/container/container.h"
#include "formats/j3d/j3d.h"
#include "formats/j3danim/j3danim.h"

/* A J3D model beside this one, parsed only if an animation might belong to it. */
struct other {
	const char *path, *stem;
	nm_reader *r;
	j3d_model *m;           /* NULL until parsed */
	bool parsed;
};

struct pairing {
	j3d_model *m;
	const char *stem;       /* the model's own name, without extension */
	const char *path;       /* its path among the neighbours (folder/name) */
	j3d_model *bmt;         /* the material table of the same name beside it, or NULL */
	struct other *others;
	size_t nothers, cap_others;
	j3d_anims *out;
	size_t cap_files, cap_left;
	bool nomem;
};

/* "x.arc:dir/Name.ext" -> "Name", in the tree's arena. */
static const char *stem_of(nm_tree *t, const char *path)
{
	const char *base = path;
	for (const char *c = path; *c; c++)
		if (*c == '/' || *c == ':')
			base = c + 1;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	char *s = nm_tree_alloc(t, n + 1);
	if (s) {
		memcpy(s, base, n);
		s[n] = '\0';
	}
	return s;
}

/* How well a model's name names an animation: its length when it begins the
 * animation's name (pakkun -> pakkun_wait), without case; else 0. */
static size_t name_score(const char *model, const char *anim)
{
	size_t n = strlen(model);
	return strncasecmp(model, anim, n) == 0 ? n : 0;
}

static bool grow(void **arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? 2 * *cap : 8;
	void *p = realloc(*arr, c * size);
	if (!p)
		return false;
	*arr = p;
	*cap = c;
	return true;
}

static void leave_out(struct pairing *p, const char *path, const char *fmt, const char *what)
{
	j3d_anims *o = p->out;
	if (!grow((void **)&o->left, &p->cap_left, o->nleft, sizeof *o->left)) {
		p->nomem = true;
		return;
	}
	char why[512];
	snprintf(why, sizeof why, fmt, what);
	char *line = nm_tree_printf(p->m->t, "%s: %s", path, why);
	if (!line)
		p->nomem = true;
	else
		o->left[o->nleft++] = line;
}

/* Whether name is one of m's materials (MAT3), or of the BMT beside it. */
static bool has_material(const j3d_model *m, const j3d_model *bmt, const char *name)
{
	for (int k = 0; k < 2; k++) {
		const j3d_model *x = k ? bmt : m;
		for (size_t i = 0; x && x->mat3 && i < x->mat3->count; i++)
			if (x->mat3->mats[i].name && strcmp(x->mat3->mats[i].name, name) == 0)
				return true;
	}
	return false;
}

enum fit { NO_FIT, LOOSE_FIT, EXACT_FIT };

/* How a's targets fit m (FORMATS.md 10.9, 10.10), and when not at all why: a joint table
 * as long as JNT1 (shorter: a real quirk, the rest keep their bind pose), material names
 * found in MAT3 or the BMT (all of them; some: entries naming other materials are
 * skipped, as the game skips them), one visibility entry per shape. */
static enum fit fit(const j3d_model *m, const j3d_model *bmt, const j3danim *a,
		    const char **why)
{
	size_t joints = m->jnt1 ? m->jnt1->count : 0, shapes = m->shp1 ? m->shp1->count : 0;
	size_t found = 0;
	switch (a->kind) {
	case J3DANIM_BCK:
	case J3DANIM_BCA:
		*why = !a->ntargets ? "it animates no joint"
		       : "it has more joint entries than the model has joints";
		return !a->ntargets || a->ntargets > joints ? NO_FIT
		       : a->ntargets == joints ? EXACT_FIT : LOOSE_FIT;
	case J3DANIM_BVA:
		*why = "its shape count differs from the model's";
		return a->ntargets == shapes ? EXACT_FIT : NO_FIT;
	case J3DANIM_BLK:
	case J3DANIM_BLA:
		*why = "cluster (blend shape) animations drive data BMD/BDL files do not hold";
		return NO_FIT;
	default:
		for (size_t i = 0; i < a->ntargets; i++)
			found += a->targets[i].name && has_material(m, bmt, a->targets[i].name);
		*why = "it names none of the model's materials";
		return !found ? NO_FIT : found == a->ntargets ? EXACT_FIT : LOOSE_FIT;
	}
}

/* A model beside this one, parsed on first need; NULL when it does not parse. */
static j3d_model *other_model(struct pairing *p, struct other *o)
{
	if (!o->parsed) {
		nm_error e;
		o->parsed = true;
		if (j3d_parse_model(p->m->t, o->r, &o->m, &e) != NM_OK)
			o->m = NULL;
	}
	return o->m;
}

/* The model beside this one that a's file belongs to instead: one it fits better, or
 * as well with a name that is a longer prefix of the animation's. */
static const char *owner_elsewhere(struct pairing *p, const char *stem, const j3danim *a,
				   enum fit mine)
{
	const char *why;
	size_t score = name_score(p->stem, stem);
	for (size_t i = 0; i < p->nothers; i++) {
		struct other *o = &p->others[i];
		j3d_model *om = other_model(p, o);
		enum fit f = om ? fit(om, NULL, a, &why) : NO_FIT;
		if (f > mine || (f == mine && name_score(o->stem, stem) > score))
			return o->path;
	}
	return NULL;
}

/* Whether two paths are in the same folder. */
static bool same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
	return la == lb && strncmp(a, b, la) == 0;
}

/* First pass: the J3D models beside this one, by their first bytes. */
static bool collect_model(void *ctx, const char *path, nm_reader *r)
{
	struct pairing *p = ctx;
	uint8_t head[NM_PROBE_BYTES];
	size_t len = nm_reader_size(r) < sizeof head ? (size_t)nm_reader_size(r) : sizeof head;
	nm_error e;
	if (nm_reader_read(r, 0, head, len, NULL, &e) != NM_OK ||
	    !j3d_probe_model(head, len))
		return true;
	const char *stem = stem_of(p->m->t, path);
	const char *copy = nm_tree_printf(p->m->t, "%s", path);
	if (!stem || !copy ||
	    !grow((void **)&p->others, &p->cap_others, p->nothers, sizeof *p->others)) {
		p->nomem = true;
		return false;
	}
	/* The model's own material table (SMS: sky.bmd + sky.bmt) lends its names. */
	if (strcasecmp(stem, p->stem) == 0 && len >= 8 && memcmp(head + 4, "bmt3", 4) == 0) {
		if (!p->bmt && j3d_parse_model(p->m->t, r, &p->bmt, &e) != NM_OK)
			p->bmt = NULL;
		return true;
	}
	p->others[p->nothers++] = (struct other){ .path = copy, .stem = stem, .r = r };
	return true;
}

static void free_animation(void *a) { j3danim_free(a); }

/* Second pass: each animation, taken or left out with the reason. */
static bool consider_animation(void *ctx, const char *path, nm_reader *r)
{
	struct pairing *p = ctx;
	uint8_t head[J3DANIM_HEADER_SIZE];
	size_t len = nm_reader_size(r) < sizeof head ? (size_t)nm_reader_size(r) : sizeof head;
	nm_error e;
	if (nm_reader_read(r, 0, head, len, NULL, &e) != NM_OK || !j3danim_probe(head, len))
		return true;
	j3danim *a = NULL;
	if (j3danim_parse(r, &a, &e) != NM_OK) {
		j3danim_free(a);
		leave_out(p, path, "it does not read (%s)", e.msg);
		return !p->nomem;
	}
	const char *why;
	enum fit f = fit(p->m, p->bmt, a, &why);
	const char *stem = stem_of(p->m->t, path);
	const char *owner = f == NO_FIT || !stem ? NULL : owner_elsewhere(p, stem, a, f);
	j3d_anims *o = p->out;
	if (f == NO_FIT || owner) {
		j3danim_free(a);
		/* Animations for other models of the archive are only counted; those that fit
		 * this one, or lie beside it, are named with the reason. */
		if (owner)
			leave_out(p, path, "%s fits it better or has the longer name", owner);
		else if (same_folder(path, p->path))
			leave_out(p, path, "%s", why);
		else
			o->others++;
		return !p->nomem;
	}
	const char *copy = nm_tree_printf(p->m->t, "%s", path);
	if (!stem || !copy || nm_tree_on_free(p->m->t, free_animation, a) != NM_OK ||
	    !grow((void **)&o->files, &p->cap_files, o->n, sizeof *o->files)) {
		p->nomem = true;
		return false;
	}
	o->files[o->n++] = (j3d_anim_file){ .path = copy, .stem = stem, .r = r, .a = a };
	return true;
}

/* Lists in the tree's arena, so they go with the model's tree. */
static bool to_arena(nm_tree *t, void **arr, size_t n, size_t size)
{
	void *copy = nm_tree_alloc_array(t, n ? n : 1, size);
	if (copy && n)
		memcpy(copy, *arr, n * size);
	free(*arr);
	*arr = copy;
	return copy != NULL;
}

nm_status j3d_pair_animations(j3d_model *m, nm_error *err)
{
	const char *colon = strrchr(m->file, ':');
	struct pairing p = { .m = m, .out = &m->anims, .stem = stem_of(m->t, m->file),
			     .path = colon ? colon + 1 : m->file };
	nm_status s = p.stem ? NM_OK : NM_E_NOMEM;
	if (s == NM_OK)
		s = nm_member_neighbours(m->t, m->r, collect_model, &p, err);
	if (s == NM_OK && !p.nomem)
		s = nm_member_neighbours(m->t, m->r, consider_animation, &p, err);
	free(p.others);
	bool ok = to_arena(m->t, (void **)&m->anims.files, m->anims.n, sizeof *m->anims.files) &
		  to_arena(m->t, (void **)&m->anims.left, m->anims.nleft, sizeof *m->anims.left);
	if (s == NM_OK && (p.nomem || !ok))
		s = nm_fail(err, NM_E_NOMEM, m->file, NULL, NM_NO_OFFSET, "out of memory");
	return s;
}
