/* An edited PNG into RGBA8 (png_read.h), with libpng's transforms: expand (palette to
 * RGB, tRNS to alpha, grey below 8 bits to 8), 16 bits scaled with rounding, grey to
 * RGB, an opaque alpha added where there is none, interlace passes combined. */
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/png_read.h"
#include "lib/alloc.h"

/* What libpng's callbacks reach: the bytes, and the first message it gave. */
struct png_source {
	const uint8_t *p;
	size_t len, at;
	char why[200];
};

static void on_error(png_structp png, png_const_charp msg)
{
	struct png_source *src = png_get_error_ptr(png);
	if (!src->why[0])
		snprintf(src->why, sizeof src->why, "%s", msg);
	png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;   /* an ancillary chunk libpng skips changes no texel */
}

static void read_bytes(png_structp png, png_bytep out, size_t n)
{
	struct png_source *src = png_get_io_ptr(png);
	if (n > src->len - src->at)
		png_error(png, "the file ends inside a chunk");
	memcpy(out, src->p + src->at, n);
	src->at += n;
}

/* err gets "NAME: why", or why alone when name is NULL. */
static nm_status refuse(nm_error *err, nm_status code, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static nm_status refuse(nm_error *err, nm_status code, const char *name, const char *fmt, ...)
{
	char why[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	err->code = code;
	if (name)
		snprintf(err->msg, sizeof err->msg, "%s: %s", name, why);
	else
		snprintf(err->msg, sizeof err->msg, "%s", why);
	return code;
}

/* The transforms that make every PNG 8-bit RGBA; false when the result is not
 * want_w * 4 bytes a row (it always is for a PNG libpng accepts). */
static bool to_rgba8(png_structp png, png_infop info, unsigned want_w)
{
	int type = png_get_color_type(png, info);
	png_set_expand(png);
	png_set_scale_16(png);
	if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(png);
	if (!(type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	return png_get_rowbytes(png, info) == (size_t)want_w * 4 &&
	       png_get_channels(png, info) == 4 && png_get_bit_depth(png, info) == 8;
}

nm_status nm_png_read_level(const nm_options *opt, const uint8_t *bytes, size_t len,
			    const char *name, unsigned want_w, unsigned want_h, uint8_t **rgba,
			    nm_error *err)
{
	*rgba = NULL;
	if (len < 8 || png_sig_cmp(bytes, 0, 8) != 0)
		return refuse(err, NM_E_FORMAT, name, "is not a PNG (it does not start with "
			      "PNG's signature); a texture level is written back from a PNG of "
			      "%ux%u", want_w, want_h);
	struct png_source src = { bytes, len, 0, "" };
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, on_error,
						 on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return refuse(err, NM_E_NOMEM, name, "out of memory");
	}
	/* Both set before the jump: the buffers to free, whatever libpng did. */
	uint8_t *volatile pixels = NULL;
	png_bytep *volatile rows = NULL;
	nm_status s = NM_OK;
	if (setjmp(png_jmpbuf(png))) {
		s = refuse(err, NM_E_FORMAT, name, "is broken as a PNG (%s)",
			   src.why[0] ? src.why : "libpng refused it");
		goto out;
	}
	png_set_read_fn(png, &src, read_bytes);
	/* An ancillary chunk before IHDR's size is checked takes at most 1 MiB; libpng
	 * allocates nothing by the image's size before png_read_update_info, and by then
	 * the size is the level's. */
	png_set_chunk_malloc_max(png, 1u << 20);
	png_read_info(png, info);
	png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
	if (w != want_w || h != want_h) {
		s = refuse(err, NM_E_INVAL, name, "is %ux%u, the texture level is %ux%u: a "
			   "texture of another size changes the model's layout, which apply does "
			   "not do", (unsigned)w, (unsigned)h, want_w, want_h);
		goto out;
	}
	if (!to_rgba8(png, info, want_w)) {
		s = refuse(err, NM_E_UNSUPPORTED, name, "is a PNG whose rows libpng cannot "
			   "make RGBA of 8 bits");
		goto out;
	}
	/* The texels first: the largest buffer, refused by the limit before the rows. */
	nm_error e;
	pixels = nm_alloc(opt, (uint64_t)want_w * want_h, 4, &e, name ? name : "PNG", NULL,
			  NM_NO_OFFSET);
	rows = pixels ? nm_alloc(opt, want_h, sizeof *rows, &e, name ? name : "PNG", NULL,
				 NM_NO_OFFSET) : NULL;
	if (!rows) {
		s = e.code;
		if (err)
			*err = e;
		goto out;
	}
	for (png_uint_32 y = 0; y < h; y++)
		rows[y] = pixels + (size_t)y * want_w * 4;
	png_read_image(png, rows);
	png_read_end(png, NULL);
out:
	png_destroy_read_struct(&png, &info, NULL);
	free(rows);
	if (s != NM_OK) {
		free(pixels);
		return s;
	}
	*rgba = pixels;
	return NM_OK;
}
