/* The format registry. A driver recognises its files by their first bytes and builds
 * their tree; it reads only through the reader and writes only through the shared
 * writers (export/). Adding a format = one driver struct + one line in registry.c. */
#ifndef NM_DRIVER_H
#define NM_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/reader.h"
#include "lib/tree.h"

#define NM_PROBE_BYTES 64

typedef struct nm_driver {
	const char *name;         /* short id, e.g. "cmod" */
	const char *description;  /* the first line of info.txt, e.g. "Celestia binary CMOD" */
	/* head holds the first min(NM_PROBE_BYTES, size) bytes of the file. */
	bool (*probe)(const uint8_t *head, size_t len, uint64_t size);
	/* Build the tree of r under dir. Fail only when nothing useful can be shown (broken
	 * header); a chunk that fails alone gets an error.txt in its directory instead. */
	nm_status (*build)(nm_reader *r, nm_tree *t, nm_node *dir, nm_error *err);
	/* Its files hold files of their own (an archive's members, a compressed stream's
	 * content): one inside an archive whose bytes overlap another member's is not
	 * opened (container/archive.c says why). */
	bool archive;
} nm_driver;

/* Every driver, in probe order, NULL-terminated. */
extern const nm_driver *const nm_drivers[];

/* The driver for r, or NM_E_UNSUPPORTED with a message naming what was found. */
nm_status nm_driver_find(nm_reader *r, const nm_driver **out, nm_error *err);
/* Probe and build r under dir (archives use this for their members); ends with
 * nm_info_errors. */
nm_status nm_build_any(nm_reader *r, nm_tree *t, nm_node *dir, nm_error *err);
/* The last line of dir/info.txt: `errors: N`, the error.txt files it speaks for
 * (nm_error_files). For an archive that builds a member without nm_build_any. */
nm_status nm_info_errors(nm_tree *t, nm_node *dir);

/* Open path, probe, build a whole tree under a copy of opt (NULL: the defaults); the
 * reader is freed with the tree. A folder gives its folder tree (nm_folder_build). */
nm_status nm_open_model(const char *path, const nm_options *opt, nm_tree **out,
			nm_error *err);

/* The first lines of every info.txt: "format: DESCRIPTION", source name and size. */
void nm_info_begin(nm_out *o, const nm_driver *d, nm_reader *r);
/* `key: FIELD` for a header's own file size, and where the source's size differs, how:
 * `key: 43136 (the file has 40000 bytes: 3136 fewer, cut short?)` or `(... 64 more
 * after the end it gives)`. Not an error by itself: a cut that loses data fails in the
 * chunk that needed it, and one through padding loses nothing. */
void nm_info_size_field(nm_out *o, const char *key, uint64_t field, nm_reader *r);

#endif
