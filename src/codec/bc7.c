/* BC7 (BPTC UNORM): one 128-bit block into 16 RGBA texels (see bcn.h).
 *
 * The format as Direct3D 11 and the Khronos Data Format Specification define it: a block
 * starts with its mode, a unary code (mode m is m zero bits, then a one), and the mode
 * fixes everything else: how many subsets (1-3) share the 16 texels and which partition
 * says who belongs where, the endpoints' precision and p-bits (a shared low bit), and 2-,
 * 3- or 4-bit weights. Every field is read from bit 0 upwards, little-endian. A block
 * with no mode (its first byte 0, "mode 8") is reserved: all four channels 0, as the
 * Direct3D specification has the hardware return.
 *
 * tests/bc7.sh checks every mode, partition, rotation and index selection bit for bit
 * against Pillow's decoder (Debian python3-pil). */
#include <stdbool.h>
#include <string.h>
#include "codec/bcn.h"
#include "lib/bytes.h"

struct bc7_mode {
	uint8_t subsets;        /* 1-3 */
	uint8_t partition_bits;
	uint8_t rotation_bits;  /* 2 in modes 4 and 5: which channel trades places with alpha */
	uint8_t selector_bits;  /* 1 in mode 4: which index set colour uses */
	uint8_t color_bits, alpha_bits;
	uint8_t endpoint_pbits; /* one p-bit per endpoint */
	uint8_t shared_pbits;   /* one p-bit per subset, for both its endpoints */
	uint8_t index_bits, index2_bits;
};

static const struct bc7_mode modes[8] = {
	{ 3, 4, 0, 0, 4, 0, 1, 0, 3, 0 },
	{ 2, 6, 0, 0, 6, 0, 0, 1, 3, 0 },
	{ 3, 6, 0, 0, 5, 0, 0, 0, 2, 0 },
	{ 2, 6, 0, 0, 7, 0, 1, 0, 2, 0 },
	{ 1, 0, 2, 1, 5, 6, 0, 0, 2, 3 },
	{ 1, 0, 2, 0, 7, 8, 0, 0, 2, 2 },
	{ 1, 0, 0, 0, 7, 7, 1, 0, 4, 0 },
	{ 2, 6, 0, 0, 5, 5, 1, 0, 2, 0 },
};

/* Two-subset partitions: bit t is texel t's subset (texels row by row). */
static const uint16_t partition2[64] = {
	0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
	0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
	0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
	0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
	0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
	0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
	0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
	0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

/* Three-subset partitions: texel t's subset in bits 2t and 2t + 1. */
static const uint32_t partition3[64] = {
	0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0,
	0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4,
	0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454,
	0x6a6a4040, 0xa4a45000, 0x1a1a0500, 0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400,
	0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050,
	0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444,
	0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600, 0xaa444444,
	0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
	0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44,
	0x2a4a5254,
};

/* The anchor texel of the second subset (two subsets), and of the second and third
 * (three subsets); the first subset's is texel 0. An anchor's index is stored one bit
 * shorter: its top bit is 0. */
static const uint8_t anchor2[64] = {
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
	15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
	15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6,
	6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
};
static const uint8_t anchor3_second[64] = {
	3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3,
	3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15,
	8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15,
	3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
};
static const uint8_t anchor3_third[64] = {
	15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8,
	15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8,
	15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8,
	15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
};

/* Interpolation weights out of 64, for 2-, 3- and 4-bit indices. */
static const uint8_t weights2[4] = { 0, 21, 43, 64 };
static const uint8_t weights3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const uint8_t weights4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

/* The block as two little-endian 64-bit halves, and the next bit to read. */
struct bits {
	uint64_t lo, hi;
	unsigned pos;
};

/* The next n (at most 8) bits, least significant first. */
static unsigned take(struct bits *b, unsigned n)
{
	unsigned pos = b->pos;
	b->pos += n;
	uint64_t v = pos >= 64 ? b->hi >> (pos - 64)
		   : pos == 0 ? b->lo
			      : b->lo >> pos | b->hi << (64 - pos);
	return (unsigned)(v & ((1u << n) - 1));
}

static unsigned subset_of(const struct bc7_mode *m, unsigned partition, unsigned t)
{
	if (m->subsets == 2)
		return partition2[partition] >> t & 1;
	if (m->subsets == 3)
		return partition3[partition] >> (2 * t) & 3;
	return 0;
}

static bool is_anchor(const struct bc7_mode *m, unsigned partition, unsigned t)
{
	if (t == 0)
		return true;
	if (m->subsets == 2)
		return t == anchor2[partition];
	if (m->subsets == 3)
		return t == anchor3_second[partition] || t == anchor3_third[partition];
	return false;
}

/* A component of `bits` bits (p-bit included) widened to 8 by repeating its top bits. */
static uint8_t widen(unsigned v, unsigned bits)
{
	v <<= 8 - bits;
	return (uint8_t)(v | v >> bits);
}

static uint8_t blend(uint8_t e0, uint8_t e1, unsigned w)
{
	return (uint8_t)(((64 - w) * e0 + w * e1 + 32) >> 6);
}

static const uint8_t *weights_of(unsigned bits)
{
	return bits == 2 ? weights2 : bits == 3 ? weights3 : weights4;
}

void nm_bc7_block(const uint8_t block[16], uint8_t out[64])
{
	unsigned mode = 0;
	while (mode < 8 && !(block[0] >> mode & 1))
		mode++;
	if (mode == 8) {
		memset(out, 0, 64);
		return;
	}
	const struct bc7_mode *m = &modes[mode];
	struct bits b = { nm_le64(block), nm_le64(block + 8), mode + 1 };
	unsigned partition = take(&b, m->partition_bits);
	unsigned rotation = take(&b, m->rotation_bits);
	unsigned selector = take(&b, m->selector_bits);

	/* Endpoints: every red, then every green, blue and alpha (subset by subset, each
	 * subset's two endpoints in turn); then the p-bits. */
	unsigned n = 2u * m->subsets, e[6][4];
	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = c < 3 ? m->color_bits : m->alpha_bits;
		for (unsigned i = 0; i < n; i++)
			e[i][c] = take(&b, bits);
	}
	unsigned pbit[6] = { 0 };
	bool has_pbits = m->endpoint_pbits || m->shared_pbits;
	if (m->endpoint_pbits)
		for (unsigned i = 0; i < n; i++)
			pbit[i] = take(&b, 1);
	else if (m->shared_pbits)
		for (unsigned s = 0; s < m->subsets; s++)
			pbit[2 * s] = pbit[2 * s + 1] = take(&b, 1);
	uint8_t ep[6][4];
	for (unsigned i = 0; i < n; i++)
		for (unsigned c = 0; c < 4; c++) {
			unsigned bits = c < 3 ? m->color_bits : m->alpha_bits;
			if (!bits) {
				ep[i][c] = 255; /* no alpha in the mode: opaque */
				continue;
			}
			unsigned v = e[i][c];
			if (has_pbits) {
				v = v << 1 | pbit[i];
				bits++;
			}
			ep[i][c] = widen(v, bits);
		}

	/* Indices: the primary set for every texel, then the secondary (modes 4 and 5). */
	unsigned idx[16], idx2[16] = { 0 };
	for (unsigned t = 0; t < 16; t++)
		idx[t] = take(&b, m->index_bits - is_anchor(m, partition, t));
	if (m->index2_bits)
		for (unsigned t = 0; t < 16; t++)
			idx2[t] = take(&b, m->index2_bits - (t == 0));

	/* Colour takes the primary set and alpha the secondary, or (mode 4's selector)
	 * the other way round; modes with one set use it for both. */
	const unsigned *ci = idx, *ai = m->index2_bits ? idx2 : idx;
	unsigned cbits = m->index_bits, abits = m->index2_bits ? m->index2_bits : m->index_bits;
	if (selector) {
		const unsigned *tmp = ci;
		ci = ai;
		ai = tmp;
		unsigned tb = cbits;
		cbits = abits;
		abits = tb;
	}
	const uint8_t *cw = weights_of(cbits), *aw = weights_of(abits);
	for (unsigned t = 0; t < 16; t++) {
		unsigned s = subset_of(m, partition, t);
		const uint8_t *e0 = ep[2 * s], *e1 = ep[2 * s + 1];
		uint8_t *px = out + 4 * t;
		for (unsigned c = 0; c < 3; c++)
			px[c] = blend(e0[c], e1[c], cw[ci[t]]);
		px[3] = blend(e0[3], e1[3], aw[ai[t]]);
		if (rotation) {
			uint8_t a = px[3];
			px[3] = px[rotation - 1];
			px[rotation - 1] = a;
		}
	}
}
