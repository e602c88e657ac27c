/* MDL3 (BDL only): one precompiled GX display list per material, which loads the
 * material's BP, XF and CP registers. Header (after the chunk header): u16 count, u16
 * pad, then offsets of the packet table (u32 offset relative to the entry, u32 size),
 * the subpacket table (6 u16 offsets into each packet: channel colours, channel
 * controls, texgens, textures, TEV, pixel; u32 pad), a matrix table (8 bytes per
 * packet), a u8 and a u16 table, and the material name table. Register writes are
 * decoded only when a packet's text is read. */
#include <stdio.h>
#include "export/text.h"
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

nm_status j3d_parse_mdl3(j3d_model *m, const j3d_chunk *c, j3d_mdl3 *d, nm_error *err)
{
	nm_view v;
	nm_status s = j3d_load(m, c, 0, 0x24, "MDL3 header", &v, err);
	if (s != NM_OK)
		return s;
	d->count = nm_u16(&v, 0x08);
	d->off_packets = nm_u32(&v, 0x0C);
	d->off_subpackets = nm_u32(&v, 0x10);
	d->off_matrix = nm_u32(&v, 0x14);
	d->off_unknown = nm_u32(&v, 0x18);
	d->off_indices = nm_u32(&v, 0x1C);
	d->off_names = nm_u32(&v, 0x20);
	nm_view_free(&v);
	d->pkt_off = j3d_alloc(m, d->count, sizeof *d->pkt_off);
	d->pkt_size = j3d_alloc(m, d->count, sizeof *d->pkt_size);
	if (!d->pkt_off || !d->pkt_size)
		return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET, "out of memory");
	if (!d->count)
		return NM_OK;
	s = j3d_load(m, c, d->off_packets, (uint64_t)d->count * 8, "packet table", &v, err);
	if (s != NM_OK)
		return s;
	for (uint16_t i = 0; i < d->count; i++) {
		uint64_t at = (uint64_t)d->off_packets + 8 * (uint64_t)i + nm_u32(&v, 8 * (size_t)i);
		uint32_t size = nm_u32(&v, 8 * (size_t)i + 4);
		if (at > c->size || size > c->size - at) {
			nm_view_free(&v);
			return j3d_chunk_fail(c, m, err, d->off_packets + 8 * (uint64_t)i,
					      "packet %u (0x%x bytes at 0x%llx) runs past the end of "
					      "the chunk", i, size, (unsigned long long)at);
		}
		d->pkt_off[i] = (uint32_t)at;
		d->pkt_size[i] = size;
	}
	nm_view_free(&v);
	/* The subpacket offsets are informational: shown only when the table fits. */
	if (d->off_subpackets && d->off_subpackets < c->size &&
	    (uint64_t)d->count * 0x10 <= c->size - d->off_subpackets) {
		s = j3d_load(m, c, d->off_subpackets, (uint64_t)d->count * 0x10, "subpacket table",
			     &v, err);
		if (s != NM_OK)
			return s;
		d->sub = j3d_alloc(m, d->count, sizeof *d->sub);
		if (!d->sub) {
			nm_view_free(&v);
			return nm_fail(err, NM_E_NOMEM, m->file, c->magic, NM_NO_OFFSET,
				       "out of memory");
		}
		for (uint16_t i = 0; i < d->count; i++)
			for (int k = 0; k < 6; k++)
				d->sub[i][k] = nm_u16(&v, 0x10 * (size_t)i + 2 * (size_t)k);
		nm_view_free(&v);
	}
	if (d->off_names && d->off_names < c->size) {
		nm_error ignored;
		/* A broken name table only loses the names. */
		if (j3d_names(m, c, d->off_names, d->count, &d->names, &d->nnames, &ignored) != NM_OK)
			d->names = NULL;
	}
	return NM_OK;
}

static void xf_line(nm_out *o, unsigned addr, uint32_t val)
{
	const char *name = gx_xf_reg_name(addr);
	const char *region = addr < 0x100 ? "MATRIX" : addr >= 0x400 && addr < 0x460
			   ? "NORMAL_MATRIX" : addr >= 0x500 && addr < 0x600 ? "DUALTEX_MATRIX"
			   : addr >= 0x600 && addr < 0x680 ? "LIGHT" : NULL;
	if (name) {
		nm_out_printf(o, "xf 0x%04x %s = 0x%08x\n", addr, name, val);
	} else if (region) {
		unsigned base = addr < 0x100 ? 0 : addr < 0x460 ? 0x400 : addr < 0x600 ? 0x500 : 0x600;
		char f[NM_FLOAT_BUF];
		nm_out_printf(o, "xf 0x%04x %s[%u] = 0x%08x (%s)\n", addr, region, addr - base, val,
			      nm_fmt_float(f, nm_bits_f32(val)));
	} else {
		nm_out_printf(o, "xf 0x%04x = 0x%08x\n", addr, val);
	}
}

void j3d_mdl3_commands(nm_out *o, const uint8_t *dl, size_t len)
{
	size_t p = 0, nops = 0;
	while (p < len && !o->failed) {
		uint8_t op = dl[p];
		size_t need;
		switch (op) {
		case 0x00: need = 1; break;
		case 0x08: need = 6; break;
		case 0x10: need = 5; break;
		case 0x20: case 0x28: case 0x30: case 0x38: need = 5; break;
		case 0x40: need = 9; break;
		case 0x48: need = 1; break;
		case 0x61: need = 5; break;
		default: need = 0; break;
		}
		if (!need) {
			nm_out_printf(o, "unknown opcode 0x%02x at 0x%zx: the remaining %zu bytes are "
				      "not decoded\n", op, p, len - p);
			return;
		}
		if (len - p < need) {
			nm_out_printf(o, "command 0x%02x at 0x%zx is cut off by the end of the "
				      "packet\n", op, p);
			return;
		}
		const uint8_t *q = dl + p;
		switch (op) {
		case 0x00:
			nops++;
			break;
		case 0x08: {
			const char *n = gx_cp_reg_name(q[1]);
			nm_out_printf(o, "cp 0x%02x %s = 0x%08x\n", q[1], n ? n : "unknown",
				      nm_be32(q + 2));
			break;
		}
		case 0x10: {
			size_t n = (size_t)nm_be16(q + 1) + 1;
			unsigned addr = nm_be16(q + 3);
			if ((len - p - 5) / 4 < n) {
				nm_out_printf(o, "xf write of %zu words at 0x%zx is cut off by the end "
					      "of the packet\n", n, p);
				return;
			}
			for (size_t k = 0; k < n; k++)
				xf_line(o, (addr + (unsigned)k) & 0xFFFF, nm_be32(q + 5 + 4 * k));
			need += 4 * n;
			break;
		}
		case 0x20: case 0x28: case 0x30: case 0x38: {
			/* Opcodes 0x20, 0x28, 0x30, 0x38: the switch above let no other in. */
			static const char *const kinds[4] = { "position", "normal", "texture",
							      "light" };
			unsigned w = nm_be16(q + 3);
			nm_out_printf(o, "xf_load_indexed %s index=%u address=0x%03x count=%u\n",
				      kinds[(op - 0x20) >> 3], nm_be16(q + 1), w & 0xFFF,
				      (w >> 12) + 1);
			break;
		}
		case 0x40:
			nm_out_printf(o, "call_display_list address=0x%08x size=%u\n", nm_be32(q + 1),
				      nm_be32(q + 5));
			break;
		case 0x48:
			nm_out_str(o, "invalidate_vertex_cache\n");
			break;
		case 0x61: {
			const char *n = gx_bp_reg_name(q[1]);
			nm_out_printf(o, "bp 0x%02x %s = 0x%06x\n", q[1], n ? n : "unknown",
				      (unsigned)q[2] << 16 | (unsigned)q[3] << 8 | q[4]);
			break;
		}
		}
		p += need;
	}
	if (nops)
		nm_out_printf(o, "nop_bytes: %zu\n", nops);
}
