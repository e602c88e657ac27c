#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "export/png.h"

struct sink {
	nm_out *out;     /* NULL: only count */
	uint64_t count;
};

static void sink_write(png_structp png, png_bytep data, size_t len)
{
	struct sink *s = png_get_io_ptr(png);
	s->count += len;
	if (s->out)
		nm_out_write(s->out, data, len);
}

static void sink_flush(png_structp png) { (void)png; }

static const int color_types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
				    PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGBA };

/* Encode; rgba NULL encodes a blank image (to measure). */
static nm_status encode(struct sink *s, const uint8_t *rgba, unsigned w, unsigned h,
			unsigned channels)
{
	if (w == 0 || h == 0 || w > NM_PNG_MAX_DIM || h > NM_PNG_MAX_DIM || channels < 1 ||
	    channels > 4)
		return NM_E_INVAL;
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		return NM_E_NOMEM;
	png_infop info = png_create_info_struct(png);
	uint8_t *row = malloc((size_t)w * channels);
	nm_status status = NM_E_NOMEM;
	if (!info || !row)
		goto done;
	if (setjmp(png_jmpbuf(png))) {
		status = NM_E_IO;
		goto done;
	}
	png_set_write_fn(png, s, sink_write, sink_flush);
	png_set_compression_level(png, 0);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_IHDR(png, info, w, h, 8, color_types[channels], PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	memset(row, 0, (size_t)w * channels);
	for (unsigned y = 0; y < h; y++) {
		if (rgba) {
			const uint8_t *src = rgba + (size_t)y * w * 4;
			for (unsigned x = 0; x < w; x++) {
				const uint8_t *p = src + (size_t)x * 4;
				uint8_t *d = row + (size_t)x * channels;
				switch (channels) {
				case 1: d[0] = p[0]; break;
				case 2: d[0] = p[0]; d[1] = p[3]; break;
				case 3: memcpy(d, p, 3); break;
				default: memcpy(d, p, 4); break;
				}
			}
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	status = s->out ? nm_out_status(s->out) : NM_OK;
done:
	png_destroy_write_struct(&png, info ? &info : NULL);
	free(row);
	return status;
}

nm_status nm_png_write(nm_out *o, const uint8_t *rgba, unsigned w, unsigned h,
		       unsigned channels)
{
	struct sink s = { .out = o };
	return encode(&s, rgba, w, h, channels);
}

/* Stored deflate output depends only on the input length, so a blank image of the same
 * shape measures any image of that shape. A small table avoids re-measuring. */
#define SIZE_CACHE 64
static struct { unsigned w, h, c; uint64_t size; } size_cache[SIZE_CACHE];
static unsigned size_cache_next;
static pthread_mutex_t size_lock = PTHREAD_MUTEX_INITIALIZER;

uint64_t nm_png_size(unsigned w, unsigned h, unsigned channels)
{
	pthread_mutex_lock(&size_lock);
	for (unsigned i = 0; i < SIZE_CACHE; i++)
		if (size_cache[i].size && size_cache[i].w == w && size_cache[i].h == h &&
		    size_cache[i].c == channels) {
			uint64_t n = size_cache[i].size;
			pthread_mutex_unlock(&size_lock);
			return n;
		}
	pthread_mutex_unlock(&size_lock);

	struct sink s = { .out = NULL };
	if (encode(&s, NULL, w, h, channels) != NM_OK)
		return 0;

	pthread_mutex_lock(&size_lock);
	unsigned i = size_cache_next++ % SIZE_CACHE;
	size_cache[i].w = w;
	size_cache[i].h = h;
	size_cache[i].c = channels;
	size_cache[i].size = s.count;
	pthread_mutex_unlock(&size_lock);
	return s.count;
}
