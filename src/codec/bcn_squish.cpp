/* BC1-BC3 decoding and BC1-BC5 encoding through libsquish (see bcn.h). C++ because
 * libsquish is; no exceptions, no RTTI, nothing of the C++ library. */
#include <squish.h>

extern "C" {
#include "codec/bcn.h"
}

namespace {

int squish_flags(nm_bcn_format f)
{
	switch (f) {
	case NM_BC1: return squish::kDxt1;
	case NM_BC2: return squish::kDxt3;
	case NM_BC3: return squish::kDxt5;
	case NM_BC4: return squish::kBc4;
	case NM_BC5: return squish::kBc5;
	case NM_BC7: break;
	}
	return 0;
}

size_t blocks_bytes(nm_bcn_format f, unsigned w, unsigned h)
{
	return (size_t)((w + 3) / 4) * ((h + 3) / 4) * nm_bcn_block_bytes(f);
}

} // namespace

nm_status nm_squish_decode(nm_bcn_format f, const uint8_t *src, size_t src_len, unsigned w,
			   unsigned h, uint8_t *rgba)
{
	/* libsquish's BC4/BC5 decoding is BC1's (bcn.h). */
	if (f > NM_BC3 || !w || !h || w > 65535 || h > 65535 || !src || !rgba)
		return NM_E_INVAL;
	if (src_len < blocks_bytes(f, w, h))
		return NM_E_FORMAT;
	squish::DecompressImage(rgba, (int)w, (int)h, src, squish_flags(f));
	return NM_OK;
}

nm_status nm_squish_encode(nm_bcn_format f, const uint8_t *rgba, unsigned w, unsigned h,
			   uint8_t *dst, size_t dst_len)
{
	if (f > NM_BC5 || !w || !h || w > 65535 || h > 65535 || !rgba || !dst)
		return NM_E_INVAL;
	if (dst_len < blocks_bytes(f, w, h))
		return NM_E_FORMAT;
	squish::CompressImage(rgba, (int)w, (int)h, dst, squish_flags(f) | squish::kColourRangeFit);
	return NM_OK;
}

void nm_squish_block(nm_bcn_format f, const uint8_t rgba[64], unsigned mask, uint8_t *block)
{
	/* No texel counts (a block wholly past the image's edge): zeros, where libsquish
	 * would divide by its count of texels. */
	if (!mask) {
		for (unsigned i = 0; i < nm_bcn_block_bytes(f); i++)
			block[i] = 0;
		return;
	}
	/* Its best fit; no weighting by alpha: a transparent texel's colour is shown too. */
	squish::CompressMasked(rgba, (int)mask, block,
			       squish_flags(f) | squish::kColourIterativeClusterFit);
}
