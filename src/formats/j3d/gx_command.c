/* GX FIFO command lengths, in one place: SHP1 display lists (displaylist.c) step over
 * the non-draw commands a list may hold, and MDL3 packets (mdl3_text.c) are nothing but
 * such commands; both must agree on how long each one is. */
#include "formats/j3d/j3d.h"
#include "lib/bytes.h"

/* Bytes of each opcode's fixed part; 0: not a command GX lists hold. An XF write
 * (0x10) is followed by (u16 at +1) + 1 words that this does not count. */
static const uint8_t header_bytes[0x62] = {
	[0x00] = 1,                                  /* NOP */
	[0x08] = 6,                                  /* CP register */
	[0x10] = 5,                                  /* XF registers (header) */
	[0x20] = 5, [0x28] = 5, [0x30] = 5, [0x38] = 5,  /* indexed XF loads */
	[0x40] = 9,                                  /* call display list */
	[0x48] = 1,                                  /* invalidate vertex cache */
	[0x61] = 5,                                  /* BP register */
};

size_t j3d_gx_header_length(uint8_t op)
{
	return op < sizeof header_bytes ? header_bytes[op] : 0;
}

size_t j3d_gx_command_length(const uint8_t *p, size_t left)
{
	size_t n = j3d_gx_header_length(p[0]);
	if (p[0] == 0x10 && left >= 5)
		n += 4 * ((size_t)nm_be16(p + 1) + 1);
	return n;
}
