/* bcn_decode FORMAT WIDTH HEIGHT < BLOCKS > RGBA: decodes raw BCn blocks (FORMAT 1-5 or 7)
 * with nm_bcn_decode and writes WIDTH x HEIGHT RGBA8 texels. For tests/bc7.sh, which
 * compares the result with an independent decoder's. */
#include <stdio.h>
#include <stdlib.h>
#include "codec/bcn.h"

int main(int argc, char **argv)
{
	static const nm_bcn_format formats[8] = { 0, NM_BC1, NM_BC2, NM_BC3, NM_BC4, NM_BC5, 0,
						  NM_BC7 };
	int n = argc == 4 ? atoi(argv[1]) : 0;
	long w = argc == 4 ? atol(argv[2]) : 0, h = argc == 4 ? atol(argv[3]) : 0;
	if (n < 1 || n > 7 || n == 6 || w < 1 || h < 1 || w > 4096 || h > 4096) {
		fprintf(stderr, "usage: bcn_decode FORMAT(1-5, 7) WIDTH HEIGHT < BLOCKS > RGBA\n");
		return 2;
	}
	nm_bcn_format f = formats[n];
	size_t len = (size_t)((w + 3) / 4) * ((h + 3) / 4) * nm_bcn_block_bytes(f);
	uint8_t *src = malloc(len), *rgba = malloc((size_t)w * h * 4);
	if (!src || !rgba || fread(src, 1, len, stdin) != len) {
		fprintf(stderr, "bcn_decode: %zu bytes of blocks expected on stdin\n", len);
		return 1;
	}
	nm_status st = nm_bcn_decode(f, src, len, (unsigned)w, (unsigned)h, rgba);
	if (st != NM_OK) {
		fprintf(stderr, "bcn_decode: %s\n", nm_status_str(st));
		return 1;
	}
	fwrite(rgba, 1, (size_t)w * h * 4, stdout);
	free(src);
	free(rgba);
	return ferror(stdout) ? 1 : 0;
}
