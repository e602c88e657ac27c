/* Unaligned little/big-endian loads from a byte pointer, and the stores that write them
 * (an archive's tables rewritten). The caller has checked bounds. */
#ifndef NM_BYTES_H
#define NM_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t nm_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint16_t nm_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t nm_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint32_t nm_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t nm_le64(const uint8_t *p)
{
	return (uint64_t)nm_le32(p) | (uint64_t)nm_le32(p + 4) << 32;
}
static inline uint64_t nm_be64(const uint8_t *p)
{
	return (uint64_t)nm_be32(p) << 32 | nm_be32(p + 4);
}
static inline float nm_bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}
static inline float nm_le_f32(const uint8_t *p) { return nm_bits_f32(nm_le32(p)); }
static inline float nm_be_f32(const uint8_t *p) { return nm_bits_f32(nm_be32(p)); }
static inline void nm_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline void nm_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
