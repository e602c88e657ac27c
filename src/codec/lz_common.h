/* What the four Nintendo LZ77 codecs (yaz0, yay0, lz_cx, lzs) share.
 *
 * Decoders: the copy of a back-reference (which may overlap what it writes), the wording
 * of their errors, and the one check every decoder makes before it starts. Encoders
 * (fixture writers and nmodel apply, never run on a mounted file): a hash-chain
 * longest-match finder over the 4 KiB window all four formats have, the cheapest parse
 * over its matches (nm_lz_parse: within 1 % of Nintendo's own encoders on the corpus,
 * scripts/bench), and a writer of flag bits grouped in bytes. */
#ifndef NM_CODEC_LZ_COMMON_H
#define NM_CODEC_LZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "lib/error.h"
#include "lib/out.h"

/* Every format here reaches at most 4096 bytes back. */
#define NM_LZ_WINDOW 4096u

/* Copy n bytes from dist bytes back to dst[out...]. dist <= out (checked by the caller).
 * Byte by byte where the source runs into what this copy writes (dist < n): that is
 * how the formats repeat a short pattern (dist 1 = a run of one byte). */
static inline void nm_lz_copy(uint8_t *dst, size_t out, size_t dist, size_t n)
{
	uint8_t *d = dst + out;
	const uint8_t *s = d - dist;
	if (dist >= n)
		memcpy(d, s, n);
	else if (dist == 1)
		memset(d, s[0], n);
	else
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
}

/* A 4-byte magic at head (len bytes of it). */
bool nm_lz_has_magic(const uint8_t *head, size_t len, const char magic[4]);

/* The magic and hdr_len bytes of header at src: NM_OK, else NM_E_FORMAT worded by
 * nm_lz_fail_header. */
nm_status nm_lz_check_magic(const uint8_t *src, size_t len, const char magic[4],
			    size_t hdr_len, const char *name, const char *codec, nm_error *err);

/* The same, for Nintendo's "magic, then the decompressed size as a big-endian u32"
 * headers (Yaz0, Yay0): *size set on success. */
nm_status nm_lz_check_magic_size(const uint8_t *src, size_t len, const char magic[4],
				 size_t hdr_len, const char *name, const char *codec,
				 uint64_t *size, nm_error *err);

/* What every decoder does first: header_st is its header function's status (having set
 * *announced); then NM_E_INVAL (with a message) for a NULL source, a NULL destination
 * with room asked for, or more output than the header announces. */
nm_status nm_lz_begin(nm_status header_st, const uint64_t *announced, const uint8_t *src,
		      const uint8_t *dst, size_t dst_len, const char *name, const char *codec,
		      nm_error *err);

/* A decoder's failures once its tokens began: the message, and *done (when non-NULL)
 * set to out, the output bytes decoded before it (all good: a damaged archive's
 * members before the damage still read, src/formats/container/unpack.c). */
/* "NAME: CODEC at 0xOFF: the stream ends too early for WHAT (output byte 0xOUT of
 * 0xLEN)". */
nm_status nm_lz_fail_short(nm_error *err, size_t *done, const char *name, const char *codec,
			   uint64_t off, const char *what, size_t out, size_t dst_len);

/* "NAME: CODEC at 0xOFF: back-reference N bytes back at output byte 0xOUT reaches before
 * the start of the output". */
nm_status nm_lz_fail_before_start(nm_error *err, size_t *done, const char *name,
				  const char *codec, uint64_t off, size_t dist, size_t out);

/* "NAME: at 0x0: not a CODEC stream (starts with xx xx xx xx)" or "... too short for a
 * CODEC header (N bytes, needs M)". */
nm_status nm_lz_fail_header(nm_error *err, const char *name, const char *codec,
			    const uint8_t *src, size_t len, size_t need);

/* ---- encoders ----------------------------------------------------------------------- */

typedef struct nm_lz_matcher nm_lz_matcher;

/* A finder over src[0..len): matches reach back 1..max_dist (<= NM_LZ_WINDOW) bytes and
 * are min_len (>= 3) to max_len bytes long. NULL when out of memory (a fixed size, not
 * sized by src). */
nm_lz_matcher *nm_lz_matcher_new(const uint8_t *src, size_t len, size_t max_dist,
				 size_t min_len, size_t max_len);
void nm_lz_matcher_free(nm_lz_matcher *m);

/* The longest match at pos among the positions added so far (its source may run into
 * pos itself: an overlapping copy), or 0 when none is min_len long. */
size_t nm_lz_longest(const nm_lz_matcher *m, size_t pos, size_t *dist);

/* Make positions [pos, pos + n) candidates for later matches; call it for every byte
 * the encoder has emitted, in order. */
void nm_lz_add(nm_lz_matcher *m, size_t pos, size_t n);

/* ---- optimal parsing ---------------------------------------------------------------- */

/* One token of a parse: a literal (len 0) or a back-reference of len bytes dist back. */
typedef struct nm_lz_token {
	uint32_t len;
	uint32_t dist;
} nm_lz_token;

/* What a format's tokens cost, in bits, flag bit included. The cost of a reference
 * depends on its length only (every format here spends the same bits on any distance
 * in its window), so the longest match at a position, cut shorter, gives every shorter
 * match there: the parse is exact for the candidates the finder returns. */
typedef struct nm_lz_costs {
	size_t max_dist, min_len, max_len;
	unsigned literal;
	unsigned (*match)(size_t len);
	/* A longer candidate the window does not hold (LzS: the ring's first zeros), or 0. */
	size_t (*extra)(const uint8_t *src, size_t len, size_t pos, size_t *dist);
} nm_lz_costs;

/* The cheapest parse of src[0..len) under c among the longest match found at each
 * position (a hash chain over the window, CHAIN_MAX candidates) and every cut of it:
 * *tokens (malloc'd, *n of them). Deterministic: the same bytes give the same tokens.
 * Working memory is about 16 bytes a byte of src, refused under opt's max_file_size
 * (NM_E_LIMIT) before it is allocated; NM_E_NOMEM otherwise. */
nm_status nm_lz_parse(const uint8_t *src, size_t len, const nm_lz_costs *c,
		      const nm_options *opt, nm_lz_token **tokens, size_t *n);

/* Flag bits, 8 to a byte, the byte placed in out before the tokens it describes. */
typedef struct nm_lz_flags {
	nm_out *out;
	size_t at;         /* where the current flag byte is in out */
	unsigned n;        /* bits written so far */
	bool lsb_first;    /* LzS; the others fill bytes from the top bit */
} nm_lz_flags;

void nm_lz_flag(nm_lz_flags *f, bool bit);

#endif
