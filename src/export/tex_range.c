/* A range of a 3DS texture level's PNG (tex_range.h). */
#include <stdlib.h>
#include "export/png.h"
#include "export/tex_range.h"

struct pica_rows {
	nm_pica_format fmt;
	const nm_tex_level *l;
	const char *file, *chunk;
};

/* Rows [y0, y1), y0 a multiple of 8: the tile rows from y0 / 8 on. */
static nm_status pica_rows(void *arg, unsigned y0, unsigned y1, uint8_t *rgba, nm_error *err)
{
	const struct pica_rows *p = arg;
	size_t strip = nm_pica_level_size(p->fmt, p->l->w, 8), size = strip * ((y1 - y0) / 8);
	uint64_t at = p->l->off + strip * (y0 / 8);
	uint8_t *src = NULL;
	nm_status s = nm_reader_load(p->l->r, at, size, p->chunk, &src, err);
	if (s == NM_OK && (s = nm_pica_decode(p->fmt, src, size, p->l->w, y1 - y0, rgba)) != NM_OK)
		nm_fail(err, s, p->file, p->chunk, at, "cannot decode the %s texture's rows %u..%u",
			nm_pica_format_name(p->fmt), y0, y1 - 1);
	free(src);
	return s;
}

nm_status nm_pica_png_range(nm_pica_format fmt, const nm_tex_level *l, unsigned channels,
			    const char *file, const char *chunk, uint64_t off, size_t len,
			    nm_out *o, nm_error *err)
{
	struct pica_rows p = { fmt, l, file, chunk };
	nm_png_image img = { l->w, l->h, channels, 8, pica_rows, &p, file, chunk, l->off };
	return nm_png_write_range(o, &img, off, len, err);
}
