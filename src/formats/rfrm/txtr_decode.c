/* One TXTR level, deswizzled into rows of blocks, to RGBA8 (see txtr.h). The codecs do
 * the compressed formats; the plain ones only spread their channels: R8 as grey, RG8 as
 * (r, g, 0), RGBA8 (and its sRGB twin, whose stored values are kept) as it is. */
#include <string.h>
#include "codec/astc.h"
#include "codec/bcn.h"
#include "formats/rfrm/txtr.h"

void rfrm_txtr_decode_ahead(const rfrm_txtr_format *f, const nm_options *opt)
{
	if (f->kind == RFRM_TEX_ASTC)
		nm_astc_prepare(opt, f->block_w, f->block_h, f->srgb);
}

nm_status rfrm_txtr_decode(const rfrm_txtr_format *f, const nm_options *opt, unsigned threads,
			   const uint8_t *lin, size_t len, unsigned w, unsigned h, uint8_t *rgba)
{
	size_t n = (size_t)w * h;
	switch (f->kind) {
	case RFRM_TEX_R8:
	case RFRM_TEX_RG8:
	case RFRM_TEX_RGBA8:
		if (len < n * f->block_bytes)
			return NM_E_FORMAT;
		break;
	default:
		break;
	}
	switch (f->kind) {
	case RFRM_TEX_R8:
		for (size_t i = 0; i < n; i++) {
			uint8_t *p = rgba + 4 * i;
			p[0] = p[1] = p[2] = lin[i];
			p[3] = 255;
		}
		return NM_OK;
	case RFRM_TEX_RG8:
		for (size_t i = 0; i < n; i++) {
			uint8_t *p = rgba + 4 * i;
			p[0] = lin[2 * i];
			p[1] = lin[2 * i + 1];
			p[2] = 0;
			p[3] = 255;
		}
		return NM_OK;
	case RFRM_TEX_RGBA8:
		memcpy(rgba, lin, n * 4);
		return NM_OK;
	case RFRM_TEX_BCN:
		return nm_bcn_decode((nm_bcn_format)f->bcn, lin, len, w, h, rgba);
	case RFRM_TEX_ASTC:
		return nm_astc_decode_threads(opt, threads, f->block_w, f->block_h, f->srgb, lin,
					      len, w, h, rgba);
	case RFRM_TEX_NONE:
		break;
	}
	return NM_E_UNSUPPORTED;
}
