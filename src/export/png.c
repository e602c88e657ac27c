#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export/png.h"
#include "lib/alloc.h"
#include "lib/bands.h"

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

/* One image's stored blocks, each IDAT chunk at an offset of its own (the layout is
 * fixed), so that bands of blocks are written apart (lib/bands.h) and the file's bytes
 * do not depend on how many. Each band's adler32 starts at 1; nm_png_write combines
 * them in order, writes the sum into the last block and only then its chunk's CRC. */
struct png_job {
	uint8_t *file;         /* the file's bytes from file_at on */
	uint64_t file_at;
	const uint8_t *rgba;   /* rows from row0 on */
	unsigned row0;
	unsigned w, channels;
	uint64_t raw;          /* raw bytes: rows of a filter byte and their samples */
	unsigned blocks;
	uint32_t adler[NM_BANDS_MAX];
	uint64_t adler_len[NM_BANDS_MAX];
};

#define PNG_HEAD (8 + 25)  /* signature, IHDR */

/* Where block j's IDAT chunk starts: the first one also holds the zlib header. */
static uint64_t block_offset(unsigned j)
{
	return PNG_HEAD + (uint64_t)j * (NM_PNG_BLOCK + PNG_PER_BLOCK) + (j ? 2 : 0);
}

/* Which RGBA8 byte each sample of a pixel of 1..3 channels takes. */
static const uint8_t sample_of[4][3] = { { 0 }, { 0 }, { 0, 3 }, { 0, 1, 2 } };

/* Samples [s, s_end) of a row of 1..3 channels at d: whole pixels in a loop of their
 * own, the cut ones at either end a sample at a time. */
static uint8_t *samples(const uint8_t *row, unsigned ch, size_t s, size_t s_end, uint8_t *d)
{
	size_t px = s / ch;
	unsigned c = (unsigned)(s % ch);
	for (; c && s < s_end; s++) {   /* the end of a pixel cut at the start */
		*d++ = row[px * 4 + sample_of[ch][c]];
		if (++c == ch) {
			c = 0;
			px++;
		}
	}
	size_t whole = s < s_end ? (s_end - s) / ch : 0;
	const uint8_t *q = row + px * 4;
	for (size_t k = 0; k < whole; k++, q += 4) {
		*d++ = q[0];
		if (ch == 2) {
			*d++ = q[3];
		} else if (ch == 3) {
			*d++ = q[1];
			*d++ = q[2];
		}
	}
	s += whole * ch;
	px += whole;
	for (c = 0; s < s_end; s++, c++)   /* the start of a pixel cut at the end */
		*d++ = row[px * 4 + sample_of[ch][c]];
	return d;
}

/* Raw bytes [at, at + n) (rows of filter 0, None, and the samples) at d. */
static uint8_t *raw_bytes(const struct png_job *j, uint64_t at, size_t n, uint8_t *d)
{
	unsigned ch = j->channels;
	size_t row_len = (size_t)j->w * ch + 1;
	uint64_t y = at / row_len;
	size_t col = (size_t)(at % row_len);
	while (n > 0) {
		const uint8_t *row = j->rgba + (size_t)(y - j->row0) * j->w * 4;
		size_t end = row_len - col < n ? row_len : col + n;
		n -= end - col;
		if (col == 0)
			*d++ = 0;           /* the row's filter: None */
		size_t s = col ? col - 1 : 0, s_end = end - 1;   /* samples */
		if (ch == 4) {
			memcpy(d, row + s, s_end - s);
			d += s_end - s;
		} else {
			d = samples(row, ch, s, s_end, d);
		}
		y++;
		col = 0;
	}
	return d;
}

static nm_status write_blocks(void *arg, unsigned band, unsigned first, unsigned end)
{
	struct png_job *j = arg;
	uint32_t adler = 1;
	for (unsigned b = first; b < end; b++) {
		uint64_t at = (uint64_t)b * NM_PNG_BLOCK;
		size_t n = j->raw - at < NM_PNG_BLOCK ? (size_t)(j->raw - at) : NM_PNG_BLOCK;
		int last = b + 1 == j->blocks;
		struct png_writer pw = { .p = j->file + (block_offset(b) - j->file_at) };
		chunk_begin(&pw, (uint32_t)(n + 5 + (b == 0 ? 2 : 0) + (last ? 4 : 0)), "IDAT");
		if (b == 0) {
			/* CMF 0x78: deflate, 32 KiB window; FLG 0x01: no dictionary, check bits. */
			*pw.p++ = 0x78;
			*pw.p++ = 0x01;
		}
		*pw.p++ = (uint8_t)last;          /* BFINAL, BTYPE 00: stored */
		*pw.p++ = (uint8_t)n;
		*pw.p++ = (uint8_t)(n >> 8);
		*pw.p++ = (uint8_t)~n;
		*pw.p++ = (uint8_t)(~n >> 8);
		uint8_t *data = pw.p;
		pw.p = raw_bytes(j, at, n, data);
		adler = (uint32_t)adler32(adler, data, (uInt)n);
		if (!last)
			chunk_end(&pw);   /* the last one's waits for the whole stream's adler32 */
	}
	uint64_t from = (uint64_t)first * NM_PNG_BLOCK, to = (uint64_t)end * NM_PNG_BLOCK;
	j->adler[band] = adler;
	j->adler_len[band] = (to < j->raw ? to : j->raw) - from;
	return NM_OK;
}

/* Blocks per band at least: 1 MiB, a fraction of a millisecond of copying and checksums
 * against a thread's start of tens of µs. */
#define PNG_MIN_BAND_BLOCKS 16u

static const uint8_t color_types[5] = { 0, 0 /* grey */, 4 /* grey+alpha */, 2 /* RGB */,
					6 /* RGBA */ };

/* The signature and IHDR: the file's first PNG_HEAD bytes. */
static void write_head(uint8_t *file, unsigned w, unsigned h, unsigned channels)
{
	struct png_writer pw = { .p = file };
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
}

nm_status nm_png_write(nm_out *o, const uint8_t *rgba, unsigned w, unsigned h,
		       unsigned channels)
{
	uint64_t size = nm_png_size(w, h, channels);
	if (size == 0 || size > SIZE_MAX)
		return NM_E_INVAL;
	uint8_t *start = nm_out_reserve(o, (size_t)size);
	if (!start)
		return nm_out_status(o);
	write_head(start, w, h, channels);
	struct png_writer pw;
	struct png_job j = { .file = start, .rgba = rgba, .w = w, .channels = channels,
			     .raw = raw_size(w, h, channels) };
	/* Fewer than 2^32 blocks: the raw size is below 2^48 (nm_png_size). */
	j.blocks = (unsigned)((j.raw + NM_PNG_BLOCK - 1) / NM_PNG_BLOCK);
	unsigned bands = nm_bands_count(o->threads, j.blocks, PNG_MIN_BAND_BLOCKS);
	nm_bands_run(bands, j.blocks, write_blocks, &j);
	uint32_t adler = j.adler[0];
	for (unsigned i = 1; i < bands; i++)
		adler = (uint32_t)adler32_combine(adler, j.adler[i], (z_off_t)j.adler_len[i]);
	/* The last block's adler32 and its chunk's CRC, then IEND. */
	pw.chunk_type = start + block_offset(j.blocks - 1) + 4;
	pw.p = start + size - 12 - 8;
	put32(&pw, adler);
	chunk_end(&pw);
	chunk_begin(&pw, 0, "IEND");
	chunk_end(&pw);
	o->len += (size_t)size;
	return NM_OK;
}

/* The block whose IDAT chunk holds file offset x (the header's bytes: block 0). */
static unsigned block_at(uint64_t x, unsigned blocks)
{
	uint64_t j = x < block_offset(1) ? 0 : (x - block_offset(0) - 2) / (NM_PNG_BLOCK + PNG_PER_BLOCK);
	return j < blocks ? (unsigned)j : blocks - 1;
}

/* A small image's range that reaches the adler32: every row, the whole file made and the
 * range copied out. */
static nm_status whole_range(nm_out *o, const nm_png_image *img, uint64_t size, uint64_t off,
			     size_t len, nm_error *err)
{
	uint8_t *rgba = nm_alloc(o->opt, (uint64_t)img->w * img->h, 4, err, img->file, img->chunk,
				 img->at);
	nm_status s = rgba ? img->rows(img->arg, 0, img->h, rgba, err) : err->code;
	nm_out whole;
	nm_out_init(&whole);
	whole.opt = o->opt;
	if (s == NM_OK)
		s = nm_png_write(&whole, rgba, img->w, img->h, img->channels);
	if (s == NM_OK && whole.len == size)
		nm_out_write(o, whole.data + off, len);
	nm_out_free(&whole);
	free(rgba);
	return s;
}

nm_status nm_png_write_range(nm_out *o, const nm_png_image *img, uint64_t off, size_t len,
			     nm_error *err)
{
	uint64_t size = nm_png_size(img->w, img->h, img->channels);
	if (size == 0 || size > SIZE_MAX || len == 0 || off > size || len > size - off)
		return NM_E_INVAL;
	uint64_t tail = size - 20;   /* the adler32, the last IDAT's CRC over it, IEND */
	if (off + len > tail)
		return size <= NM_PNG_RANGE_WHOLE ? whole_range(o, img, size, off, len, err)
						  : NM_E_UNSUPPORTED;
	uint64_t raw = raw_size(img->w, img->h, img->channels);
	unsigned blocks = (unsigned)((raw + NM_PNG_BLOCK - 1) / NM_PNG_BLOCK);
	/* The chunks the range touches, whole: each one's CRC covers all of its bytes. */
	unsigned b0 = block_at(off, blocks), b1 = block_at(off + len - 1, blocks) + 1;
	uint64_t from = b0 ? block_offset(b0) : 0, to = b1 < blocks ? block_offset(b1) : tail;
	/* Their rows, widened to whole bands of the decoder. */
	uint64_t row_len = (uint64_t)img->w * img->channels + 1;
	uint64_t raw_end = (uint64_t)b1 * NM_PNG_BLOCK < raw ? (uint64_t)b1 * NM_PNG_BLOCK : raw;
	unsigned band = img->band ? img->band : 1;
	unsigned y0 = (unsigned)((uint64_t)b0 * NM_PNG_BLOCK / row_len);
	uint64_t y1 = (raw_end + row_len - 1) / row_len;
	y0 -= y0 % band;
	y1 = (y1 + band - 1) / band * band;
	if (y1 > img->h)
		y1 = img->h;
	uint8_t *rgba = nm_alloc(o->opt, (uint64_t)img->w * (y1 - y0), 4, err, img->file,
				 img->chunk, img->at);
	uint8_t *file = rgba ? nm_alloc(o->opt, to - from, 1, err, img->file, img->chunk, img->at)
			     : NULL;
	nm_status s = file ? img->rows(img->arg, y0, (unsigned)y1, rgba, err) : err->code;
	if (s == NM_OK) {
		if (from == 0)
			write_head(file, img->w, img->h, img->channels);
		struct png_job j = { .file = file, .file_at = from, .rgba = rgba, .row0 = y0,
				     .w = img->w, .channels = img->channels, .raw = raw,
				     .blocks = blocks };
		write_blocks(&j, 0, b0, b1);   /* the last block's CRC waits for the adler32 */
		nm_out_write(o, file + (off - from), len);
	}
	free(file);
	free(rgba);
	return s;
}
