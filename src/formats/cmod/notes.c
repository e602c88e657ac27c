/* Oddities: what Celestia's binary loader lets pass (and we follow), or refuses where we
 * go on. Facts from CelestiaProject/Celestia src/celmodel/modelfile.cpp
 * (ModelLoader::BinaryLoader::loadMaterial, loadMesh, load), src/celutil/fsutils.cpp
 * (U8FileName) and src/celutil/utf8.cpp (UTF8Validator::validate); see doc/cmod.md. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/text.h"
#include "formats/cmod/cmod.h"

nm_status cmod_note(cmod_notes *l, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **v = realloc(l->v, (l->n + 1) * sizeof *v);
	if (!v)
		return NM_E_NOMEM;
	l->v = v;
	if (!(v[l->n] = strdup(buf)))
		return NM_E_NOMEM;
	l->n++;
	return NM_OK;
}

void cmod_notes_free(cmod_notes *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Windows device names, which U8FileName refuses as a stem whatever the case. */
static bool device_name(const char *name, size_t len)
{
	static const char *const fixed[] = { "CON", "PRN", "AUX", "NUL" };
	const char *dot = NULL;
	for (size_t i = 0; i < len; i++)
		if (name[i] == '.')
			dot = name + i;
	size_t stem = dot ? (size_t)(dot - name) : len;
	char up[5] = "";
	if (stem < 3 || stem > 4)
		return false;
	for (size_t i = 0; i < stem; i++)
		up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
	for (size_t i = 0; i < 4; i++)
		if (strcmp(up, fixed[i]) == 0)
			return true;
	/* COM1..COM9 and LPT1..LPT9 (the superscript forms need bytes above 0x7f, which
	 * are refused before this). */
	return stem == 4 && (strncmp(up, "COM", 3) == 0 || strncmp(up, "LPT", 3) == 0) &&
	       up[3] >= '0' && up[3] <= '9';
}

const char *cmod_texture_name_problem(const char *name, size_t len, char *buf, size_t cap)
{
	if (len == 0)
		return "it is empty";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20)
			return "it refuses control characters in file names";
		/* validate() takes the first byte of every multi-byte UTF-8 sequence for an
		 * error, so any byte above 0x7f makes the name invalid there. */
		if (c >= 0x80)
			return "it takes only ASCII texture names";
		if (strchr("\"/:<>?\\|", c)) {
			snprintf(buf, cap, "it refuses '%c' in file names", c);
			return buf;
		}
		if (c == '*' && !(i + 1 == len && i > 0 && name[i - 1] == '.'))
			return "it refuses '*' in file names except as the extension \".*\"";
	}
	if (name[len - 1] == '.' || name[len - 1] == ' ')
		return "it refuses file names that end in '.' or ' '";
	if (device_name(name, len))
		return "it refuses Windows device names";
	return NULL;
}

/* info.txt lists the first ones only: a hostile file can have one per primitive group,
 * and each record's own text keeps all of its own. */
#define ODDITIES_LISTED 32

static void list_notes(nm_out *o, const cmod_notes *l, const char *what, size_t index,
		       size_t *shown)
{
	for (size_t i = 0; i < l->n && *shown < ODDITIES_LISTED; i++, (*shown)++) {
		nm_out_str(o, "oddity: ");
		if (what)
			nm_out_printf(o, "%s %zu: ", what, index);
		nm_out_printf(o, "%s\n", l->v[i]);
	}
}

void cmod_oddities_text(nm_out *o, const cmod_model *m)
{
	size_t total = m->notes.n, shown = 0;
	for (size_t i = 0; i < m->nmaterials; i++)
		total += m->materials[i].notes.n;
	for (size_t i = 0; i < m->nmeshes; i++)
		total += m->meshes[i].notes.n;
	if (total == 0)
		return;
	if (total > ODDITIES_LISTED)
		nm_kv(o, "oddities", "%zu (the first %d listed; each record's text has its own)",
		      total, ODDITIES_LISTED);
	else
		nm_kv(o, "oddities", "%zu", total);
	list_notes(o, &m->notes, NULL, 0, &shown);
	for (size_t i = 0; i < m->nmaterials; i++)
		list_notes(o, &m->materials[i].notes, "material", i, &shown);
	for (size_t i = 0; i < m->nmeshes; i++)
		list_notes(o, &m->meshes[i].notes, "mesh", i, &shown);
}
