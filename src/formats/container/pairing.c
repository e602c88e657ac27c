/* Which animations around a model it takes (nm_pair_animations in container.h): the
 * same rule for every format, each format saying what its models and animations are
 * and how well an animation fits a model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "export/text.h"
#include "formats/container/container.h"

/* A model beside this one, opened only if an animation might belong to it. */
struct other {
	const char *path, *stem;
	nm_reader *r;
	void *model;
	bool opened;
};

struct pairing {
	nm_tree *t;
	const nm_pairing_rules *rules;
	const void *model;
	const char *stem, *path;  /* the model's name without extension; its path around */
	struct other *others;
	size_t nothers, cap_others, cap_taken, cap_left;
	nm_pairs *out;
	bool nomem;
};

const char *nm_path_stem(nm_tree *t, const char *path)
{
	const char *base = path;
	for (const char *c = path; *c; c++)
		if (*c == '/' || *c == ':')
			base = c + 1;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	char *s = nm_tree_alloc(t, n + 1);
	if (s)
		memcpy(s, base, n);
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

static void leave_out(struct pairing *p, const char *path, const char *what, const char *why)
{
	nm_pairs *o = p->out;
	char *line = nm_tree_printf(p->t, "%s: %s%s", path, what, why);
	if (!line || !grow((void **)&o->left, &p->cap_left, o->nleft, sizeof *o->left))
		p->nomem = true;
	else
		o->left[o->nleft++] = line;
}

/* Whether two paths are in the same folder. */
static bool same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
	return la == lb && strncmp(a, b, la) == 0;
}

static uint8_t *head_of(nm_reader *r, uint8_t *head, size_t *len)
{
	nm_error e;
	*len = nm_reader_size(r) < NM_PROBE_BYTES ? (size_t)nm_reader_size(r) : NM_PROBE_BYTES;
	return nm_reader_read(r, 0, head, *len, NULL, &e) == NM_OK ? head : NULL;
}

/* First walk: the models of the same format beside this one. */
static bool collect_model(void *ctx, const char *path, nm_reader *r)
{
	struct pairing *p = ctx;
	uint8_t buf[NM_PROBE_BYTES];
	size_t len;
	if (!head_of(r, buf, &len) || !p->rules->is_model(buf, len))
		return true;
	const char *stem = nm_path_stem(p->t, path), *copy = nm_tree_printf(p->t, "%s", path);
	if (!stem || !copy ||
	    !grow((void **)&p->others, &p->cap_others, p->nothers, sizeof *p->others)) {
		p->nomem = true;
		return false;
	}
	p->others[p->nothers++] = (struct other){ .path = copy, .stem = stem, .r = r };
	return true;
}

/* The model beside this one the animation belongs to instead: one it fits better, or
 * as well with a name that is a longer prefix of the animation's. */
static const char *owner_elsewhere(struct pairing *p, const char *stem, const void *anim,
				   nm_fit mine)
{
	const char *why;
	size_t score = name_score(p->stem, stem);
	for (size_t i = 0; i < p->nothers; i++) {
		struct other *o = &p->others[i];
		if (!o->opened) {
			o->opened = true;
			o->model = p->rules->open_model(p->t, o->r);
		}
		nm_fit f = o->model ? p->rules->fit(p->rules->ctx, o->model, anim, &why)
				    : NM_NO_FIT;
		if (f > mine || (f == mine && name_score(o->stem, stem) > score))
			return o->path;
	}
	return NULL;
}

/* Second walk: each animation, taken or left out with the reason. */
static bool consider_animation(void *ctx, const char *path, nm_reader *r)
{
	struct pairing *p = ctx;
	const nm_pairing_rules *ru = p->rules;
	uint8_t buf[NM_PROBE_BYTES];
	size_t len;
	if (!head_of(r, buf, &len) || !ru->is_animation(buf, len))
		return true;
	nm_error e;
	void *anim = ru->open_animation(p->t, r, &e);
	if (!anim) {
		leave_out(p, path, "it does not read: ", e.msg);
		return !p->nomem;
	}
	const char *why = "";
	nm_fit f = ru->fit(ru->ctx, p->model, anim, &why);
	const char *stem = nm_path_stem(p->t, path);
	const char *owner = f == NM_NO_FIT || !stem ? NULL : owner_elsewhere(p, stem, anim, f);
	nm_pairs *o = p->out;
	if (f == NM_NO_FIT || owner) {
		ru->close_animation(anim);
		/* Animations for other models of the archive are only counted; those that fit
		 * this one, or lie beside it, are named with the reason. */
		if (owner)
			leave_out(p, path, owner, " fits it better or has the longer name");
		else if (same_folder(path, p->path))
			leave_out(p, path, "", why);
		else
			o->others++;
		return !p->nomem;
	}
	const char *copy = nm_tree_printf(p->t, "%s", path);
	if (!stem || !copy || nm_tree_on_free(p->t, ru->close_animation, anim) != NM_OK ||
	    !grow((void **)&o->taken, &p->cap_taken, o->n, sizeof *o->taken)) {
		p->nomem = true;
		return false;
	}
	o->taken[o->n++] = (nm_paired){ .path = copy, .stem = stem, .r = r, .anim = anim };
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

nm_status nm_pair_animations(nm_tree *t, nm_reader *r, const void *model,
			     const nm_pairing_rules *rules, nm_pairs *out, nm_error *err)
{
	const char *name = nm_reader_name(r), *colon = strrchr(name, ':');
	struct pairing p = { .t = t, .rules = rules, .model = model, .out = out,
			     .stem = nm_path_stem(t, name), .path = colon ? colon + 1 : name };
	*out = (nm_pairs){ 0 };
	nm_status s = p.stem ? NM_OK : NM_E_NOMEM;
	if (s == NM_OK)
		s = nm_member_neighbours(t, r, collect_model, &p, err);
	if (s == NM_OK && !p.nomem)
		s = nm_member_neighbours(t, r, consider_animation, &p, err);
	free(p.others);
	/* Both moved whatever the first gives: each frees its malloc'd array. */
	bool taken = to_arena(t, (void **)&out->taken, out->n, sizeof *out->taken);
	bool left = to_arena(t, (void **)&out->left, out->nleft, sizeof *out->left);
	bool ok = taken && left;
	if (s == NM_OK && (p.nomem || !ok))
		s = nm_fail(err, NM_E_NOMEM, name, NULL, NM_NO_OFFSET, "out of memory");
	return s;
}

nm_status nm_pairs_by_name(nm_tree *t, const nm_pairs *p, nm_pair_group **out, size_t *n)
{
	nm_pair_group *g = nm_tree_alloc_array(t, p->n ? p->n : 1, sizeof *g);
	*n = 0;
	for (size_t i = 0; g && i < p->n; i++) {
		size_t k = 0;
		while (k < *n && strcmp(p->taken[g[k].files[0]].stem, p->taken[i].stem))
			k++;
		if (k == *n && !(g[(*n)++].files = nm_tree_alloc_array(t, p->n, sizeof(size_t))))
			return NM_E_NOMEM;
		g[k].files[g[k].n++] = i;
	}
	*out = g;
	return g ? NM_OK : NM_E_NOMEM;
}

void nm_pairs_info(nm_out *o, const nm_pairs *p)
{
	nm_kv(o, "animations", "%zu", p->n);
	for (size_t i = 0; i < p->n; i++)
		nm_kv_str(o, "animation", p->taken[i].path);
	for (size_t i = 0; i < p->nleft; i++)
		nm_kv_str(o, "animation_left_out", p->left[i]);
	if (p->others)
		nm_kv(o, "animations_for_other_models", "%zu", p->others);
}
