/* An edited CSV read back against the CSV as the tree produces it now (nmodel apply,
 * doc/apply.md): the same header row, the same number of rows, the same number of
 * cells per row. A cell whose text is unchanged is no edit, whatever its spelling
 * would parse to; each changed cell goes to the driver's callback, which stores it in
 * the array's own type or refuses it. Rows cannot be added or removed: that would
 * change the model's layout. */
#ifndef NM_CSV_EDIT_H
#define NM_CSV_EDIT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/edit.h"

typedef struct nm_csv_edit {
	/* Cell col of row (0-based, after the header) changed to text (trimmed, at most
	 * 63 bytes), on line of the file. */
	void (*cell)(void *ctx, uint64_t row, unsigned col, const char *text, unsigned line,
		     nm_edit *ed);
	/* After the changed cells of a row (NULL: none). */
	void (*row_done)(void *ctx, uint64_t row, unsigned line, nm_edit *ed);
	void *ctx;
	uint64_t rows;
	unsigned ncols;
	const char *what;      /* "the array has", in messages: "rows" of what */
} nm_csv_edit;

void nm_csv_read_back(const nm_csv_edit *e, const char *now, size_t now_len,
		      const char *edited, size_t len, nm_edit *ed);

#endif
