/* The adaptive arithmetic-coded byte stream under Tropical Freeze (Switch) GPU buffer
 * tags 0x04-0x06 and 0x0a-0x0c (FORMATS.md section 9): an order-0 adaptive model of
 * 256 byte symbols plus an end-of-stream symbol, 16-bit integer arithmetic coding in
 * the style of Witten, Neal and Cleary (CACM 1987), bits packed LSB first. The LZSS
 * layer above it reads its flag bytes, literals and references from this stream.
 *
 * Facts (waxedhyphen/pakpydkctf `AdaptiveArithmeticDecoder`, checked on three real
 * streams): frequencies start at 1, the model is halved when the total reaches 0x3fff,
 * and a symbol's rank moves ahead of the symbols of equal frequency before it. The
 * encoder ends every stream with the end symbol, its two flush bits and 16 zero bits,
 * so a decoder never reads past the stream, and the stream's length follows from the
 * bits the decoder took: see nm_arith_stream_len. */
#ifndef NM_CODEC_ARITH_RETRO_H
#define NM_CODEC_ARITH_RETRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/status.h"

#define NM_ARITH_SYMBOLS 257 /* 256 bytes, then the end of the stream */

typedef struct nm_arith_model {
	uint16_t freq[NM_ARITH_SYMBOLS + 1]; /* by rank 1..257; [0] is a 0 sentinel */
	uint16_t cum[NM_ARITH_SYMBOLS + 1];  /* cum[r] = sum of freq above rank r */
	uint8_t byte_at[NM_ARITH_SYMBOLS + 1]; /* rank -> byte (ranks 1..256) */
	uint16_t rank_of[256];
} nm_arith_model;

typedef struct nm_arith_decoder {
	const uint8_t *src;
	size_t len;
	uint64_t bits;       /* bits taken from src, the 16 read ahead included */
	uint32_t low, high, code;
	nm_status status;    /* sticky: NM_E_FORMAT once it ran past src or went astray */
	bool ended;          /* the end symbol was decoded */
	nm_arith_model model;
} nm_arith_decoder;

/* What nm_arith_next returns besides a byte. */
#define NM_ARITH_END (-1)   /* the end-of-stream symbol */
#define NM_ARITH_ERROR (-2) /* d->status says why */

void nm_arith_decoder_init(nm_arith_decoder *d, const uint8_t *src, size_t len);
/* The next byte 0..255, NM_ARITH_END, or NM_ARITH_ERROR (the stream needs bits past
 * len: cut short). After the end symbol every call returns NM_ARITH_END. */
int nm_arith_next(nm_arith_decoder *d);
/* Once the end symbol was decoded: the bytes the stream occupies (the encoder's bits
 * are the decoder's less the 16 it reads ahead, plus 2 flush bits and 16 padding
 * bits, rounded up to a byte). */
size_t nm_arith_stream_len(const nm_arith_decoder *d);

/* Encode src and the end symbol (for fixtures and tests): a malloc'd stream. */
nm_status nm_arith_encode(const uint8_t *src, size_t len, uint8_t **out, size_t *out_len);

#endif
