/* Triangle lists from strips and fans, for OBJ output and triangle CSVs. The triangle
 * count depends only on the index count, so sizes are known before indices are read.
 * One rule everywhere (info.txt, per-shape counts, mesh.obj, model.glb): a triangle is
 * what the primitive's indices make, n / 3 per list, n - 2 per strip or fan, 2 per quad;
 * the zero-area triangles that join strips (a repeated index) are kept, as the file
 * has them. Reading indices at mount to drop them would break the exact sizes. */
#ifndef NM_TRIANGULATE_H
#define NM_TRIANGULATE_H

#include <stddef.h>
#include <stdint.h>

typedef enum nm_prim { NM_PRIM_TRIANGLES, NM_PRIM_STRIP, NM_PRIM_FAN, NM_PRIM_QUADS } nm_prim;

/* Triangles that n indices of this kind make. */
uint64_t nm_triangle_count(nm_prim kind, uint64_t n);
/* Write nm_triangle_count(kind, n) * 3 entries to tris. Strips alternate winding so that
 * every triangle faces the same way as the first; quads (a,b,c,d) -> (a,b,c)(a,c,d). */
void nm_triangulate(nm_prim kind, const uint32_t *idx, uint64_t n, uint32_t *tris);

#endif
