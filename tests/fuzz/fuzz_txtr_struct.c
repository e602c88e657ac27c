/* Structure-aware libFuzzer target for TXTR textures: the input is a recipe that
 * tests/fixtures/txtr_writer.c turns into a texture whose HEAD and GPU buffers are
 * intact, so every run reaches the surface layout, the deswizzle and a texel decoder
 * with arbitrary blocks (random flips of a whole file almost always break its zlib
 * stream first). Then the texture goes through the rfrm driver as in fuzz_rfrm: every
 * file of its tree is listed, sized and produced.
 *
 * Recipe: byte 0 the format (an index into the list below: every decoded format, some
 * shown without PNGs, an unknown code), bytes 1-2 width and height (1..96), byte 3 the
 * level count (1..8), byte 4 the shape (2D, cube map, arrays of 2 and 3, a 3D texture),
 * byte 5 the GPU codec tag (an arithmetic-coded one only for surfaces, whole or short,
 * of at most ARITH_MAX bytes, below), byte 6 how many buffers (1..3), byte 7 flags (bit 0: HEAD's
 * level 0 size off by 16, bit 1: a Wii U form version); the rest is the surface, as
 * stored: repeated to the surface's size, or, with bit 2, as long as it is (a short
 * surface). */
#include <stdlib.h>
#include <string.h>
#include "tests/fixtures/txtr_writer.h"
#include "tests/fuzz/run_driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Retro's arithmetic coder walks its model's 257 ranks for every byte, which made a
 * texture of a few KiB cost 10-20 ms to write, measure and decode: nine tenths of this
 * target's time went there (still a quarter at 2 KiB), while what it exists for (the
 * surface layout, the deswizzle, the texel decoders) sees the same bytes whatever the
 * codec. Larger surfaces take the same LZSS without the arithmetic layer; fuzz_gpu
 * fuzzes the coder itself. 1 KiB: two block-linear levels of 512 bytes. */
#define ARITH_MAX 1024u

static bool arith_coded(int codec) { return (codec >= 4 && codec <= 6) || (codec >= 10 && codec <= 12); }

static uint8_t at(const uint8_t *data, size_t size, size_t i) { return i < size ? data[i] : 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* ASTC 8x5 and 5x4 only, as in the corpus: another block size would rebuild
	 * libastcenc's context on most inputs (fuzz_astc covers the sizes). */
	static const uint32_t formats[] = { 0, 12, 13, 32, 20, 21, 22, 24, 26, 28, 58, 54, 72,
					    1, 14, 27, 83, 52, 99 };
	static const uint32_t shapes[5][2] = { { 1, 1 }, { 3, 6 }, { 5, 2 }, { 5, 3 }, { 2, 4 } };
	uint8_t flags = at(data, size, 7);
	const uint32_t *shape = shapes[at(data, size, 4) % 5];
	rfx_txtr x = {
		.version = flags & 2 ? 10 : 15,
		.type = shape[0],
		.format = formats[at(data, size, 0) % (sizeof formats / sizeof formats[0])],
		.width = 1u + at(data, size, 1) % 96,
		.height = 1u + at(data, size, 2) % 96,
		.depth = shape[1],
		.levels = 1u + at(data, size, 3) % 8,
		.codec = at(data, size, 5) % 14,
		.buffers = 1u + at(data, size, 6) % 3,
		.mip0_bias = flags & 1 ? 16 : 0,
	};
	const uint8_t *payload = size > 8 ? data + 8 : NULL;
	size_t plen = size > 8 ? size - 8 : 0;
	/* The surface: the payload repeated to its size (at most 1 MiB), or as it is. */
	size_t slen = plen, whole = rfx_txtr_surface_size(&x);
	if (!(flags & 4) && whole)
		slen = whole < (1u << 20) ? whole : (1u << 20);
	if (arith_coded(x.codec) && slen > ARITH_MAX)
		x.codec -= 3; /* LZSS8_ARITH -> LZSS8, ... LZSS32_LONG_ARITH -> LZSS32_LONG */
	uint8_t *surf = malloc(slen ? slen : 1);
	if (!surf)
		abort();
	for (size_t i = 0; i < slen; i++)
		surf[i] = plen ? payload[i % plen] : (uint8_t)i;
	rfx_buf b = { 0 };
	if (rfx_txtr_write_surface(&x, surf, slen, &b) == 0)
		nm_fuzz_run_driver("rfrm", NM_FUZZ_EVERY_FILE, b.data, b.len);
	rfx_buf_free(&b);
	free(surf);
	return 0;
}
