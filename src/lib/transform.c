#include <math.h>
#include "lib/transform.h"

void nm_transform_trs(const float scale[3], const double rot[3], const float trans[3],
		      double out[12])
{
	double sx = sin(rot[0]), cx = cos(rot[0]);
	double sy = sin(rot[1]), cy = cos(rot[1]);
	double sz = sin(rot[2]), cz = cos(rot[2]);
	double r[3][3] = {
		{ cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx },
		{ sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx },
		{ -sy, cy * sx, cy * cx },
	};
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			out[i * 4 + j] = r[i][j] * scale[j];
		out[i * 4 + 3] = trans[i];
	}
}
