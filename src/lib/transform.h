/* Affine transforms shared by the skeleton code of every format. */
#ifndef NM_TRANSFORM_H
#define NM_TRANSFORM_H

/* The 3x4 row-major matrix T * Rz * Ry * Rx * S (rotate about X first, then Y, then Z;
 * angles in radians): the local bone/joint transform of CMB (FORMATS.md 4.3) and J3D
 * (3.5). Column vectors: p' = M * (x, y, z, 1). */
void nm_transform_trs(const float scale[3], const double rot[3], const float trans[3],
		      double out[12]);

#endif
