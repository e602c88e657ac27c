#include <string.h>
#include <zlib.h>
#include "export/png.h"

#define PNG_MAX_SIDE 0x7FFFFFFFu   /* the PNG specification's limit */

/* Fixed parts: signature 8, IHDR chunk 12 + 13, zlib header 2 and adler32 4 (inside the
 * IDATs), IEND chunk 12. Each block adds its IDAT chunk's 12 and its own 5-byte header. */
#define PNG_FIXED (8 + 25 + 2 + 4 + 12)
#define PNG_PER_BLOCK (12 + 5)

static uint64_t raw_size(unsigned w, unsigned h, unsigned channels)
{
	return (uint64_t)h * ((uint64_t)w * channels + 1);
}

uint64_t nm_png_size(unsigned w, unsigned h, unsigned channels)
{
	if (w == 0 || h == 0 || w > PNG_MAX_SIDE || h > PNG_MAX_SIDE || channels < 1 ||
	    channels > 4)
		return 0;
	/* Both sides below 2^31 and 4 channels: the raw size is below 2^64 - 2^40. */
	uint64_t raw = raw_size(w, h, channels);
	uint64_t blocks = (raw + NM_PNG_BLOCK - 1) / NM_PNG_BLOCK;
	return PNG_FIXED + blocks * PNG_PER_BLOCK + raw;
}

/* Writes into memory that nm_out reserved for the whole file. */
struct png_writer {
	uint8_t *p;
	uint8_t *chunk_type;    /* where the open chunk's CRC starts */
	uint64_t raw_left;      /* raw bytes not yet written */
	size_t block_left;      /* raw bytes left in the open stored block */
	uint32_t adler;
};

static void put32(struct png_writer *pw, uint32_t v)
{
	pw->p[0] = (uint8_t)(v >> 24);
	pw->p[1] = (uint8_t)(v >> 16);
	pw->p[2] = (uint8_t)(v >> 8);
	pw->p[3] = (uint8_t)v;
	pw->p += 4;
}

static void chunk_begin(struct png_writer *pw, uint32_t len, const char type[4])
{
	put32(pw, len);
	pw->chunk_type = pw->p;
	memcpy(pw->p, type, 4);
	pw->p += 4;
}

static void chunk_end(struct png_writer *pw)
{
	put32(pw, (uint32_t)crc32(0, pw->chunk_type, (uInt)(pw->p - pw->chunk_type)));
}

/* An IDAT holding one stored block; the first also holds the zlib header, the last the
 * adler32 that ends the zlib stream. */
static void block_begin(struct png_writer *pw, int first)
{
	size_t n = pw->raw_left < NM_PNG_BLOCK ? (size_t)pw->raw_left : NM_PNG_BLOCK;
	int last = n == pw->raw_left;
	chunk_begin(pw, (uint32_t)(n + 5 + (first ? 2 : 0) + (last ? 4 : 0)), "IDAT");
	if (first) {
		/* CMF 0x78: deflate, 32 KiB window; FLG 0x01: no dictionary, check bits. */
		*pw->p++ = 0x78;
		*pw->p++ = 0x01;
	}
	*pw->p++ = (uint8_t)last;          /* BFINAL, BTYPE 00: stored */
	*pw->p++ = (uint8_t)n;
	*pw->p++ = (uint8_t)(n >> 8);
	*pw->p++ = (uint8_t)~n;
	*pw->p++ = (uint8_t)(~n >> 8);
	pw->block_left = n;
}

static void put_raw(struct png_writer *pw, const uint8_t *src, size_t n)
{
	while (n > 0) {
		size_t k = n < pw->block_left ? n : pw->block_left;
		memcpy(pw->p, src, k);
		pw->adler = (uint32_t)adler32(pw->adler, src, (uInt)k);
		pw->p += k;
		src += k;
		n -= k;
		pw->block_left -= k;
		pw->raw_left -= k;
		if (pw->block_left == 0) {
			if (pw->raw_left == 0)
				put32(pw, pw->adler);
			chunk_end(pw);
			if (pw->raw_left)
				block_begin(pw, 0);
		}
	}
}

/* One row's samples in the PNG's channels, a stack buffer at a time (no allocation). */
static void put_row(struct png_writer *pw, const uint8_t *rgba, unsigned w, unsigned channels)
{
	static const uint8_t filter_none = 0;
	put_raw(pw, &filter_none, 1);
	if (channels == 4) {
		put_raw(pw, rgba, (size_t)w * 4);
		return;
	}
	uint8_t buf[3 * 1024];
	for (unsigned x = 0; x < w;) {
		unsigned n = w - x < 1024 ? w - x : 1024;
		const uint8_t *s = rgba + (size_t)x * 4;
		uint8_t *d = buf;
		for (unsigned i = 0; i < n; i++, s += 4) {
			*d++ = s[0];
			if (channels == 2)
				*d++ = s[3];
			else if (channels == 3) {
				*d++ = s[1];
				*d++ = s[2];
			}
		}
		put_raw(pw, buf, (size_t)(d - buf));
		x += n;
	}
}

static const uint8_t color_types[5] = { 0, 0 /* grey */, 4 /* grey+alpha */, 2 /* RGB */,
					6 /* RGBA */ };

nm_status nm_png_write(nm_out *o, const uint8_t *rgba, unsigned w, unsigned h,
		       unsigned channels)
{
	uint64_t size = nm_png_size(w, h, channels);
	if (size == 0 || size > SIZE_MAX)
		return NM_E_INVAL;
	struct png_writer pw = { .p = nm_out_reserve(o, (size_t)size), .adler = 1 };
	if (!pw.p)
		return nm_out_status(o);
	uint8_t *start = pw.p;
	static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
	memcpy(pw.p, signature, sizeof signature);
	pw.p += sizeof signature;
	chunk_begin(&pw, 13, "IHDR");
	put32(&pw, w);
	put32(&pw, h);
	*pw.p++ = 8;                       /* bits per sample */
	*pw.p++ = color_types[channels];
	*pw.p++ = 0;                       /* deflate */
	*pw.p++ = 0;                       /* adaptive filtering (we use None) */
	*pw.p++ = 0;                       /* no interlace */
	chunk_end(&pw);
	pw.raw_left = raw_size(w, h, channels);
	block_begin(&pw, 1);
	for (unsigned y = 0; y < h; y++)
		put_row(&pw, rgba + (size_t)y * w * 4, w, channels);
	chunk_begin(&pw, 0, "IEND");
	chunk_end(&pw);
	o->len += (size_t)(pw.p - start);
	return NM_OK;
}
