#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "export/text.h"
#include "formats/container/container.h"
#include "formats/driver.h"

extern const nm_driver nm_driver_cmod;
extern const nm_driver nm_driver_cmb, nm_driver_ctxb;
extern const nm_driver nm_driver_grezzo_anim;
extern const nm_driver nm_driver_j3d, nm_driver_j3danim;
extern const nm_driver nm_driver_rfrm_pak, nm_driver_rfrm;
extern const nm_driver nm_driver_rarc, nm_driver_zar, nm_driver_gar;
extern const nm_driver nm_driver_yaz0_wrap, nm_driver_yay0_wrap, nm_driver_lzs_wrap,
	nm_driver_lz_cx_wrap;
extern const nm_driver nm_driver_bti;

/* Magic numbers of four bytes and more first; LZ10/LZ11, known by one byte and a
 * header that decodes, last. */
const nm_driver *const nm_drivers[] = {
	&nm_driver_cmod,
	&nm_driver_cmb, &nm_driver_ctxb,
	&nm_driver_grezzo_anim,
	&nm_driver_j3d, &nm_driver_j3danim,
	&nm_driver_rfrm_pak, &nm_driver_rfrm,
	&nm_driver_rarc, &nm_driver_zar, &nm_driver_gar,
	&nm_driver_yaz0_wrap, &nm_driver_yay0_wrap, &nm_driver_lzs_wrap,
	/* No magic: after every driver that has one (bti.c says how it decides). */
	&nm_driver_bti,
	&nm_driver_lz_cx_wrap,
	NULL
};

nm_status nm_driver_find(nm_reader *r, const nm_driver **out, nm_error *err)
{
	uint8_t head[NM_PROBE_BYTES];
	uint64_t size = nm_reader_size(r);
	size_t len = size < sizeof head ? (size_t)size : sizeof head;
	nm_status s = nm_reader_read(r, 0, head, len, NULL, err);
	if (s != NM_OK)
		return s;
	for (size_t i = 0; nm_drivers[i]; i++)
		if (nm_drivers[i]->probe(head, len, size)) {
			*out = nm_drivers[i];
			return NM_OK;
		}
	/* Every driver by its short name (`nmodel formats` describes each): the descriptions
	 * together no longer fit one message with a long path. */
	char names[sizeof err->msg / 2];
	size_t o = 0;
	for (size_t i = 0; nm_drivers[i] && o < sizeof names; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
				      nm_drivers[i]->name);
	if (len == 0)
		return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(r), NULL, NM_NO_OFFSET,
			       "empty file, not a model (expected one of %s: nmodel formats)",
			       names);
	char shown[4 * 8 + 1];
	o = 0;
	for (size_t i = 0; i < len && i < 8; i++)
		o += (size_t)snprintf(shown + o, sizeof shown - o,
				      isprint(head[i]) && head[i] != '\\' ? "%c" : "\\x%02x",
				      head[i]);
	shown[o] = '\0';
	return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(r), NULL, 0,
		       "not a model this tool reads (starts with \"%s\"; expected one of %s: "
		       "nmodel formats)", shown, names);
}

nm_status nm_build_any(nm_reader *r, nm_tree *t, nm_node *dir, nm_error *err)
{
	const nm_driver *d;
	nm_status s = nm_driver_find(r, &d, err);
	if (s == NM_OK)
		s = d->build(r, t, dir, err);
	if (s == NM_OK && nm_info_errors(t, dir) != NM_OK)
		s = nm_fail(err, NM_E_NOMEM, nm_reader_name(r), NULL, NM_NO_OFFSET,
			    "out of memory");
	return s;
}

/* Counted from the tree after the build rather than by each driver, so the count cannot
 * drift from the files: a driver only has to make an error.txt for each failure. */
nm_status nm_info_errors(nm_tree *t, nm_node *dir)
{
	nm_node *info = nm_child(t, dir, "info.txt");
	if (!info)
		return NM_OK;
	nm_out o;
	nm_out_init(&o);
	nm_kv(&o, "errors", "%zu", nm_error_files(t, dir));
	nm_status s = nm_text_append(t, info, &o);
	nm_out_free(&o);
	return s;
}

nm_status nm_open_model(const char *path, const nm_options *opt, nm_tree **out, nm_error *err)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return nm_folder_open_with(path, opt, NULL, 0, out, err);
	nm_reader *r;
	nm_status s = nm_reader_open_file(path, &r, err);
	if (s != NM_OK)
		return s;
	nm_tree *t = nm_tree_new(opt);
	if (!t) {
		nm_reader_close(r);
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	}
	if (nm_tree_adopt_reader(t, r) != NM_OK) {
		nm_tree_free(t);
		return nm_fail(err, NM_E_NOMEM, path, NULL, NM_NO_OFFSET, "out of memory");
	}
	s = nm_build_any(r, t, nm_tree_root(t), err);
	if (s != NM_OK) {
		nm_tree_free(t);
		return s;
	}
	*out = t;
	return NM_OK;
}

void nm_info_begin(nm_out *o, const nm_driver *d, nm_reader *r)
{
	nm_kv(o, "format", "%s", d->description);
	/* The base name: a tree's content does not depend on where its file lies or how
	 * the front end was given it (messages name the whole path). */
	const char *name = nm_reader_name(r), *slash = strrchr(name, '/');
	nm_kv_str(o, "source", slash && slash[1] ? slash + 1 : name);
	nm_kv(o, "source_size", "%llu", (unsigned long long)nm_reader_size(r));
}

void nm_info_size_field(nm_out *o, const char *key, uint64_t field, nm_reader *r)
{
	unsigned long long f = field, have = nm_reader_size(r);
	if (f == have)
		nm_kv(o, key, "%llu", f);
	else if (f > have)
		nm_kv(o, key, "%llu (the file has %llu bytes: %llu fewer, cut short?)", f, have,
		      f - have);
	else
		nm_kv(o, key, "%llu (the file has %llu bytes: %llu more after the end it gives)",
		      f, have, have - f);
}
