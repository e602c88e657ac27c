/* What apply.c (edited files, their inverses, problems, the check) and carry.c (changes
 * carried up to the file's bytes) share. */
#ifndef NM_EDIT_APPLY_INTERNAL_H
#define NM_EDIT_APPLY_INTERNAL_H

#include "edit/apply.h"
#include "lib/edit.h"

typedef struct edited_file {
	char *path, *shown;
	uint8_t *bytes;
	size_t len;
} edited_file;

/* A list of malloc'd lines. */
typedef struct line_list {
	char **s;
	size_t n, cap;
} line_list;

struct nm_apply {
	nm_tree *t;
	edited_file *files;
	size_t nfiles, capfiles;
	nm_edit ed;            /* every inverse's patches and refusals */
	line_list problems;    /* conflicts, changes that cannot be carried up, checks */
	line_list notes;       /* what carrying up did (streams encoded again) */
	char *scope;           /* the edits lie under this directory of t ("": all) */
	bool nomem;
};

void nm_lines_add(line_list *l, bool *nomem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "SHOWN:LINE: FIELD" of a patch, for messages about it. */
void nm_apply_patch_name(const nm_apply *a, const nm_patch *p, char *buf, size_t len);

#endif
