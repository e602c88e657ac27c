/* The textures a material names. Each texture parameter (DIFT, NMAP, ... with the type
 * TXTR) gets, in mtrl/N.txt after its GUID and usage:
 *   KEY_slot:  the parameter and what it is for ("DIFTTXTR (diffuse)");
 *   KEY_asset: inside a PAK, the directory of the asset with that GUID;
 *   KEY_png:   that asset's level-0 PNG, relative to the model's directory
 *              ("../NAME.txtr/tex/0.png"), or why it has none.
 * mesh.mtl then names those PNGs (obj.c), so a viewer opens a PAK's model with its
 * textures. A model mounted on its own knows only the GUIDs. Finding a PNG reads the
 * texture's form and HEAD (a few small reads), when the model's directory is built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "export/text.h"
#include "formats/container/container.h"
#include "formats/rfrm/rfrm.h"
#include "formats/rfrm/txtr.h"

static const struct slot {
	char id[5];
	const char *use, *mtl;
} slots[] = {
	/* The uses of the ids the corpus models and texture names show; the others (SPCF,
	 * REFS, REFV, FURL, FURF, FURT...) are named by their id only. */
	{ "DIFT", "diffuse", "map_Kd" },
	{ "NMAP", "normal", "map_Bump" },   /* Blender reads map_Bump as a normal map */
	{ "SPCT", "specular", "map_Ks" },
	{ "ICAN", "incandescence", "map_Ke" },
	{ "REFL", "reflection", NULL },
};

static const struct slot *slot_of(const uint8_t *id)
{
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
		if (memcmp(id, slots[i].id, 4) == 0)
			return &slots[i];
	return NULL;
}

const char *rfrm_texture_slot(const uint8_t *id)
{
	const struct slot *s = slot_of(id);
	return s ? s->use : NULL;
}

const char *rfrm_texture_mtl_key(const uint8_t *id)
{
	const struct slot *s = slot_of(id);
	return s ? s->mtl : NULL;
}

/* The PNG of a PAK entry from a model's directory, worked out once per entry (materials
 * of many models may name the same texture; a hostile one may name it a million times)
 * and kept with the PAK: the path, or NULL with why. */
static const char *entry_png(const rfrm_model *m, const rfrm_pak_entry *e, char *why,
			     size_t len)
{
	rfrm_pak *p = (rfrm_pak *)m->pak;   /* only its cache changes, under its lock */
	pthread_mutex_lock(&p->png_lock);
	/* Made on first use: most assets of a big PAK are never a model's texture. */
	if (!p->png && !(p->png = calloc(p->count ? p->count : 1, sizeof *p->png))) {
		pthread_mutex_unlock(&p->png_lock);
		snprintf(why, len, "out of memory");
		return NULL;
	}
	rfrm_pak_png *c = &p->png[e - p->entries];
	if (!c->known) {
		char wname[512], path[64], reason[sizeof ((nm_error *)0)->msg];
		nm_reader *w;
		nm_error err;
		bool ok = false;
		snprintf(wname, sizeof wname, "%s:%s", nm_reader_name(p->r), e->dir);
		if (nm_reader_new_window(p->r, wname, e->off, e->size, &w, &err) != NM_OK) {
			snprintf(reason, sizeof reason, "%s", err.msg);
		} else {
			ok = rfrm_txtr_png_path(w, m->t, path, sizeof path, reason, sizeof reason);
			nm_reader_close(w);
		}
		/* malloc'd, freed with the PAK (rfrm_pak_free): the tree's arena would tie
		 * them to this model's directory, whose content the FUSE daemon may evict
		 * while the PAK's cache still points at them. */
		size_t n = ok ? strlen(e->dir) + strlen(path) + 5 : 0;
		if (ok && (c->png = malloc(n)) != NULL)
			snprintf(c->png, n, "../%s/%s", e->dir, path);
		else if (!ok)
			c->why = strdup(reason);
		c->known = c->png || c->why;
	}
	const char *png = c->png;
	snprintf(why, len, "%s", c->png ? "" : c->why ? c->why : "out of memory");
	pthread_mutex_unlock(&p->png_lock);
	return png;
}

/* A texture file beside a model in a folder (or archive) is named by its GUID: GUID.txtr
 * as nmodelfs and most tools write it (with or without the dashes), or NAME__HEX.txtr
 * as pakpydkctf's exporter does. The 32 hex digits are the GUID's bytes in file order,
 * as rfrm_guid_str prints them. */
static bool names_guid(const char *name, void *ctx)
{
	const char *dashed = ctx;
	char hex[33];
	size_t n = strlen(name), k = 0;
	if (n < 5 || strcasecmp(name + n - 5, ".txtr") != 0)
		return false;
	n -= 5;
	if (n == strlen(dashed) && strncasecmp(name, dashed, n) == 0)
		return true;
	for (const char *p = dashed; *p; p++)
		if (*p != '-')
			hex[k++] = *p;
	hex[k] = '\0';
	return n >= 32 && strncasecmp(name + n - 32, hex, 32) == 0 &&
	       (n == 32 || name[n - 33] == '_');
}

/* The PNG of the texture file beside the model named by guid: its path from the model's
 * directory in the tree's arena (the model's own), or NULL with why. */
static const char *folder_png(rfrm_model *m, const uint8_t *guid, const char **dir, char *why,
			      size_t len)
{
	char g[RFRM_GUID_STR], path[64];
	nm_reader *sib;
	rfrm_guid_str(g, guid);
	if (!nm_member_sibling_where(m->r, names_guid, g, &sib, dir)) {
		*dir = NULL;
		return NULL;
	}
	if (!rfrm_txtr_png_path(sib, m->t, path, sizeof path, why, len))
		return NULL;
	m->folder_textures = true;
	return nm_tree_printf(m->t, "../%s/%s", *dir, path);
}

static void key_line(nm_out *o, const char *key, const char *what, const char *value)
{
	char k[48];
	snprintf(k, sizeof k, "%s_%s", key, what);
	nm_kv_str(o, k, value);
}

void rfrm_texture_ref(rfrm_model *m, rfrm_material *mat, const char *key,
		      const uint8_t *id, const uint8_t *guid, nm_out *o)
{
	char idtext[5], line[640], why[sizeof ((nm_error *)0)->msg];
	rfrm_fourcc_print(idtext, id);
	const char *use = rfrm_texture_slot(id);
	snprintf(line, sizeof line, "%sTXTR (%s)", idtext, use ? use : "use unknown");
	key_line(o, key, "slot", line);
	const char *png = NULL;
	const rfrm_pak_entry *e = m->pak ? rfrm_pak_find(m->pak, guid) : NULL;
	const char *dir = NULL;
	if (!m->pak && (png = folder_png(m, guid, &dir, why, sizeof why)) != NULL) {
		key_line(o, key, "asset", dir);
		key_line(o, key, "png", png);
	} else if (!m->pak && dir) {
		key_line(o, key, "asset", dir);
		snprintf(line, sizeof line, "none (%s)", why);
		key_line(o, key, "png", line);
	} else if (!m->pak) {
		key_line(o, key, "asset", "unknown (the model is mounted on its own: only the GUID is known)");
	} else if (!e) {
		key_line(o, key, "asset", "none (no asset of this PAK has the GUID)");
	} else {
		key_line(o, key, "asset", e->dir);
		if (memcmp(e->type, "TXTR", 4) != 0) {
			char type[5];
			rfrm_fourcc_print(type, (const uint8_t *)e->type);
			snprintf(line, sizeof line, "none (a %s asset, not a TXTR)", type);
			key_line(o, key, "png", line);
		} else if ((png = entry_png(m, e, why, sizeof why)) != NULL) {
			key_line(o, key, "png", png);
		} else {
			snprintf(line, sizeof line, "none (%s)", why);
			key_line(o, key, "png", line);
		}
	}
	/* mat->tex has a slot for each parameter of the material (parse_mtrl.c). */
	rfrm_texref *tex = &mat->tex[mat->ntex++];
	memcpy(tex->id, id, 4);
	memcpy(tex->guid, guid, 16);
	tex->png = png;
}

/* The bytes of the texture asset with this GUID, for model.glb: in a PAK a window of it
 * (made in the model's content, freed with it); beside the model in a folder or
 * archive, the sibling's own reader (its folder outlives the model). NULL: none. */
static nm_reader *texture_reader(rfrm_model *m, const uint8_t *guid)
{
	if (m->pak) {
		const rfrm_pak_entry *e = rfrm_pak_find(m->pak, guid);
		nm_reader *w;
		nm_error err;
		char name[512];
		if (!e || memcmp(e->type, "TXTR", 4) != 0)
			return NULL;
		snprintf(name, sizeof name, "%s:%s", nm_reader_name(m->pak->r), e->dir);
		if (nm_reader_new_window(m->pak->r, name, e->off, e->size, &w, &err) != NM_OK)
			return NULL;
		if (nm_tree_adopt_reader(m->t, w) != NM_OK)
			return NULL;   /* adopt closed it */
		return w;
	}
	char g[RFRM_GUID_STR];
	const char *dir;
	nm_reader *sib;
	rfrm_guid_str(g, guid);
	return nm_member_sibling_where(m->r, names_guid, g, &sib, &dir) ? sib : NULL;
}

bool rfrm_texture_png_source(rfrm_model *m, const rfrm_texref *tex, nm_png_source *src)
{
	nm_reader *r = tex->png ? texture_reader(m, tex->guid) : NULL;
	return r && rfrm_txtr_png_source(r, m->t, src);
}
