/* Box-filtered mip levels (mip.h). */
#include "codec/mip.h"

#include <stddef.h>

nm_status nm_mip_box(const uint8_t *rgba, unsigned w, unsigned h, uint8_t *out)
{
	if (!rgba || !out || !w || !h)
		return NM_E_INVAL;
	unsigned nw = nm_mip_side(w), nh = nm_mip_side(h);
	/* Where a side is 1 the same texel is taken twice: a 2x1 box weighs it 2/4. */
	unsigned dx = w > 1, dy = h > 1;
	for (unsigned y = 0; y < nh; y++)
		for (unsigned x = 0; x < nw; x++) {
			const uint8_t *p = rgba + ((size_t)(2 * y) * w + 2 * x) * 4;
			const uint8_t *right = p + 4 * dx, *down = p + (size_t)w * 4 * dy;
			const uint8_t *diag = down + 4 * dx;
			uint8_t *o = out + ((size_t)y * nw + x) * 4;
			for (unsigned c = 0; c < 4; c++)
				o[c] = (uint8_t)((p[c] + right[c] + down[c] + diag[c] + 2) / 4);
		}
	return NM_OK;
}
