/* The text of an MDL3 packet: one line per register write or command.
 *
 * mdl3/N.txt must have its exact size at mount without decoding, so one walk serves
 * both ends: with an nm_out it writes the lines; without one it only adds up their
 * lengths. Every value is printed at a fixed width (BP values as 6 hex digits, XF and
 * CP values as 8, XF memory floats as the 15-byte CSV float), so a line's length
 * follows from the command header alone: opcode, register or address, word count.
 * Measuring reads those headers and steps over the values; it formats nothing.
 * Each case below keeps the format and its length side by side, written as the same
 * template with every fixed-width field shown as dots: LEN("bp 0x.. ") is the length
 * of "bp 0x%02x ". The tests compare the two on every corpus packet, the fixture's
 * commands of every kind, and every cut of a packet. */
#include <stdio.h>
#include <string.h>
#include "export/text.h"
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

#define LEN(lit) ((uint64_t)sizeof lit - 1)

static uint64_t hex_digits(uint64_t v)
{
	uint64_t n = 1;
	while (v >= 16) {
		v >>= 4;
		n++;
	}
	return n;
}

static const char *or_unknown(const char *name)
{
	return name ? name : "unknown";
}

/* Named XF registers, the four XF memory regions (value also as a float), or bare. */
static uint64_t xf_line(nm_out *o, unsigned addr, const uint8_t *val)
{
	const char *name = gx_xf_reg_name(addr);
	const char *region = addr < 0x100 ? "MATRIX" : addr >= 0x400 && addr < 0x460
			   ? "NORMAL_MATRIX" : addr >= 0x500 && addr < 0x600 ? "DUALTEX_MATRIX"
			   : addr >= 0x600 && addr < 0x680 ? "LIGHT" : NULL;
	if (name) {
		if (o)
			nm_out_printf(o, "xf 0x%04x %s = 0x%08x\n", addr, name, nm_be32(val));
		return LEN("xf 0x.... ") + strlen(name) + LEN(" = 0x........\n");
	}
	if (region) {
		unsigned base = addr < 0x100 ? 0 : addr < 0x460 ? 0x400 : addr < 0x600 ? 0x500 : 0x600;
		if (o) {
			nm_out_printf(o, "xf 0x%04x %s[%u] = 0x%08x (", addr, region, addr - base,
				      nm_be32(val));
			nm_csv_float(o, nm_bits_f32(nm_be32(val)));
			nm_out_str(o, ")\n");
		}
		return LEN("xf 0x.... ") + strlen(region) + LEN("[") + nm_digits(addr - base) +
		       LEN("] = 0x........ (") + NM_CSV_FLOAT_WIDTH + LEN(")\n");
	}
	if (o)
		nm_out_printf(o, "xf 0x%04x = 0x%08x\n", addr, nm_be32(val));
	return LEN("xf 0x.... = 0x........\n");
}

uint64_t j3d_mdl3_commands(nm_out *o, const uint8_t *dl, size_t len)
{
	static const char *const kinds[] = { "position", "normal", "texture", "light" };
	size_t p = 0, nops = 0;
	uint64_t n = 0;
	while (p < len && !(o && o->failed)) {
		uint8_t op = dl[p];
		size_t need = j3d_gx_header_length(op);
		if (!need) {
			if (o)
				nm_out_printf(o, "unknown opcode 0x%02x at 0x%zx: the remaining %zu "
					      "bytes are not decoded\n", op, p, len - p);
			return n + LEN("unknown opcode 0x.. at 0x") + hex_digits(p) +
			       LEN(": the remaining ") + nm_digits(len - p) +
			       LEN(" bytes are not decoded\n");
		}
		if (len - p < need) {
			if (o)
				nm_out_printf(o, "command 0x%02x at 0x%zx is cut off by the end of the "
					      "packet\n", op, p);
			return n + LEN("command 0x.. at 0x") + hex_digits(p) +
			       LEN(" is cut off by the end of the packet\n");
		}
		const uint8_t *q = dl + p;
		switch (op) {
		case 0x00:
			nops++;
			break;
		case 0x08: {
			const char *name = or_unknown(gx_cp_reg_name(q[1]));
			if (o)
				nm_out_printf(o, "cp 0x%02x %s = 0x%08x\n", q[1], name, nm_be32(q + 2));
			n += LEN("cp 0x.. ") + strlen(name) + LEN(" = 0x........\n");
			break;
		}
		case 0x10: {
			size_t words = (size_t)nm_be16(q + 1) + 1;
			unsigned addr = nm_be16(q + 3);
			if ((len - p - 5) / 4 < words) {
				if (o)
					nm_out_printf(o, "xf write of %zu words at 0x%zx is cut off by "
						      "the end of the packet\n", words, p);
				return n + LEN("xf write of ") + nm_digits(words) + LEN(" words at 0x") +
				       hex_digits(p) + LEN(" is cut off by the end of the packet\n");
			}
			for (size_t k = 0; k < words; k++)
				n += xf_line(o, (addr + (unsigned)k) & 0xFFFF, q + 5 + 4 * k);
			need += 4 * words;
			break;
		}
		case 0x20: case 0x28: case 0x30: case 0x38: {
			/* The whole command is its header: index and address are read here. */
			const char *kind = kinds[(op - 0x20) >> 3];
			unsigned index = nm_be16(q + 1), w = nm_be16(q + 3);
			if (o)
				nm_out_printf(o, "xf_load_indexed %s index=%u address=0x%03x count=%u\n",
					      kind, index, w & 0xFFF, (w >> 12) + 1);
			n += LEN("xf_load_indexed ") + strlen(kind) + LEN(" index=") +
			     nm_digits(index) + LEN(" address=0x... count=") +
			     nm_digits((w >> 12) + 1) + LEN("\n");
			break;
		}
		case 0x40:
			if (o)
				nm_out_printf(o, "call_display_list address=0x%08x size=%u\n",
					      nm_be32(q + 1), nm_be32(q + 5));
			n += LEN("call_display_list address=0x........ size=") +
			     nm_digits(nm_be32(q + 5)) + LEN("\n");
			break;
		case 0x48:
			if (o)
				nm_out_str(o, "invalidate_vertex_cache\n");
			n += LEN("invalidate_vertex_cache\n");
			break;
		case 0x61: {
			const char *name = or_unknown(gx_bp_reg_name(q[1]));
			if (o)
				nm_out_printf(o, "bp 0x%02x %s = 0x%06x\n", q[1], name,
					      (unsigned)q[2] << 16 | (unsigned)q[3] << 8 | q[4]);
			n += LEN("bp 0x.. ") + strlen(name) + LEN(" = 0x......\n");
			break;
		}
		}
		p += need;
	}
	if (nops) {
		if (o)
			nm_out_printf(o, "nop_bytes: %zu\n", nops);
		n += LEN("nop_bytes: ") + nm_digits(nops) + LEN("\n");
	}
	return n;
}
