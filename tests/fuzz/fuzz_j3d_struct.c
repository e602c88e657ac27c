/* Structure-aware libFuzzer target for J3D: the input is not a file but a recipe that
 * tests/fixtures/j3d_writer.c turns into a valid BMD/BDL, so every run reaches the
 * display-list and MDL3 code with intact chunks around them (random byte flips of a
 * whole file rarely keep a display list whole, and never reached the BP register 0xBC
 * of issue 13). Then the file goes through the j3d driver: the tree is built, every node
 * listed and stat'ed, and the files the recipe shapes are read: shp1/ (the shapes'
 * records and primitives, which walk shape 0's list), mdl3/ (the packets' commands) and,
 * when the recipe asks, model.glb (the list walked again into a mesh, vertex by vertex).
 * The rest only repeats work: the writer's textures, materials and joints are the same
 * in every run (fuzz_j3d, fuzz_j3d_full and fuzz_bti read them, from these files too),
 * and reading every file made a run cost 3-5 ms. So the model has no TEX1 either.
 *
 * Recipe: byte 0 flags (bits 0-1 variant BMD3/BDL4/BMD2/BDL4, bit 2 chunks shuffled,
 * bit 3 an unknown chunk, bit 4 the known list's absurd vertex count, bit 5 shape 0 gets
 * the list below, bit 6 MDL3 packet 0 gets its list, bit 7 model.glb is read); byte 1 how
 * many commands go to shape 0's list, the rest go to MDL3's. A command is a selector byte
 * and its operands; bytes past the end read as 0. */
#include <stdlib.h>
#include <string.h>
#include "tests/fixtures/j3d_writer.h"
#include "tests/fuzz/run_driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Per list: a 255-vertex draw and commands around it. Every vertex of shape 0's list
 * becomes a row of its primitives' CSV and, with bit 7, a vertex of model.glb: at 8 KiB
 * (1,600 vertices) the mesh and the rows were two thirds of a grown corpus's runs, and
 * the list's code paths do not need more vertices than one full draw. */
#define LIST_MAX (1u << 11)

typedef struct recipe {
	const uint8_t *p;
	size_t left;
} recipe;

static uint8_t next(recipe *r)
{
	if (!r->left)
		return 0;
	r->left--;
	return *r->p++;
}

typedef struct list {
	uint8_t b[LIST_MAX];
	size_t len;
} list;

/* Whole commands only: one that would not fit ends the list. */
static bool room(const list *l, size_t n) { return n <= LIST_MAX - l->len; }
static void put8(list *l, unsigned v) { l->b[l->len++] = (uint8_t)v; }
static void put16(list *l, unsigned v) { put8(l, v >> 8); put8(l, v); }
static void copy(list *l, recipe *r, size_t n)
{
	while (n--)
		put8(l, next(r));
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A draw of `count` shape 0 vertices (J3DW_SHAPE0_VSIZE bytes: POS u16, NRM, CLR0, TEX0)
 * whose indices come from a seed; `valid` keeps them inside the fixture's arrays,
 * otherwise about one in six points past them. */
static bool draw(list *l, unsigned op, unsigned count, uint8_t seed, bool valid)
{
	if (!room(l, 3 + (size_t)count * J3DW_SHAPE0_VSIZE))
		return false;
	put8(l, op);
	put16(l, count);
	uint32_t s = 0x9E3779B9u ^ seed * 0x01000193u;
	for (unsigned i = 0; i < count; i++) {
		uint32_t x = xorshift(&s);
		put16(l, x % (J3DW_NPOS + (valid ? 0 : 1)));
		put8(l, (x >> 8) % (J3DW_NNRM + (valid ? 0 : 1)));
		put8(l, (x >> 16) % (J3DW_NCLR0 + (valid ? 0 : 1)));
		put8(l, (x >> 24) % (J3DW_NTEX0 + (valid ? 0 : 1)));
	}
	return true;
}

/* A GX command that is not a draw: which one by k, operands from the recipe. */
static bool command(list *l, recipe *r, unsigned k)
{
	static const uint8_t xf_index_ops[4] = { 0x20, 0x28, 0x30, 0x38 };
	switch (k % 8) {
	case 0: /* BP register, any of the 256 */
		if (!room(l, 5))
			return false;
		put8(l, 0x61);
		copy(l, r, 4);
		return true;
	case 1: /* CP register */
		if (!room(l, 6))
			return false;
		put8(l, 0x08);
		copy(l, r, 5);
		return true;
	case 2: { /* XF: 1-4 words at an address near the named registers or in memory */
		unsigned n = next(r) % 4 + 1, at = next(r);
		static const unsigned bases[4] = { 0x1000, 0x1040, 0x0000, 0x0400 };
		unsigned addr = bases[at & 3] + (at >> 2);
		if (!room(l, 5 + 4 * (size_t)n))
			return false;
		put8(l, 0x10);
		put16(l, n - 1);
		put16(l, addr);
		copy(l, r, 4 * (size_t)n);
		return true;
	}
	case 3: /* indexed XF load */
		if (!room(l, 5))
			return false;
		put8(l, xf_index_ops[next(r) % 4]);
		copy(l, r, 4);
		return true;
	case 4: /* call display list */
		if (!room(l, 9))
			return false;
		put8(l, 0x40);
		copy(l, r, 8);
		return true;
	case 5: /* invalidate vertex cache */
	case 6: /* NOP */
		if (!room(l, 1))
			return false;
		put8(l, k % 8 == 5 ? 0x48 : 0x00);
		return true;
	default: /* any byte as an opcode: most end the list with "unknown opcode" */
		if (!room(l, 1))
			return false;
		put8(l, next(r));
		return true;
	}
}

/* Shape 0's list: draws of every primitive kind (selectors 0-7), other commands (8-15). */
static void shape_list(list *l, recipe *r, unsigned ncommands)
{
	static const uint8_t prims[8] = { 0x80, 0x88, 0x90, 0x98, 0xA0, 0xA8, 0xB0, 0xB8 };
	for (unsigned i = 0; i < ncommands && r->left; i++) {
		uint8_t sel = next(r);
		bool ok;
		if (sel % 16 < 8) {
			unsigned vat = next(r) & 7, count = next(r);
			ok = draw(l, prims[sel % 8] | vat, count, next(r), sel & 0x10);
		} else {
			ok = command(l, r, sel);
		}
		if (!ok)
			return;
	}
}

/* MDL3's list: what material packets hold, BP writes most often. */
static void mdl3_list(list *l, recipe *r)
{
	while (r->left) {
		uint8_t sel = next(r);
		if (!command(l, r, sel % 4 == 3 ? sel >> 2 : 0))
			return;
	}
}

/* What the recipe shapes (above); ctx says whether the mesh is wanted. */
static bool shaped(void *ctx, const char *path, uint64_t size)
{
	(void)size;
	return strncmp(path, "/shp1/", 6) == 0 || strncmp(path, "/mdl3/", 6) == 0 ||
	       (*(const bool *)ctx && strcmp(path, "/model.glb") == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum j3dw_variant variants[4] = { J3DW_BMD3, J3DW_BDL4, J3DW_BMD2,
						       J3DW_BDL4 };
	recipe r = { data, size };
	uint8_t flags = next(&r);
	unsigned nshape = next(&r);
	list *shape = malloc(sizeof *shape), *mdl3 = malloc(sizeof *mdl3);
	if (!shape || !mdl3)
		abort();
	shape->len = mdl3->len = 0;
	shape_list(shape, &r, nshape);
	mdl3_list(mdl3, &r);
	j3dw_opts o = { .variant = variants[flags & 3], .shuffle = flags & 4,
			.unknown_chunk = flags & 8, .absurd_dl_count = flags & 16,
			.no_textures = true };
	if (flags & 32) {
		o.shape0_dl = shape->b;
		o.shape0_dl_len = shape->len;
	}
	if (flags & 64) {
		o.mdl3_dl = mdl3->b;
		o.mdl3_dl_len = mdl3->len;
	}
	size_t len;
	uint8_t *file = j3dw_build(&o, &len);
	if (!file)
		abort(); /* the writer only fails when out of memory */
	bool mesh = flags & 128;
	nm_fuzz_run_driver_reading("j3d", file, len, shaped, &mesh);
	free(file);
	free(shape);
	free(mdl3);
	return 0;
}
