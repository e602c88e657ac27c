#include "export/triangulate.h"

uint64_t nm_triangle_count(nm_prim kind, uint64_t n)
{
	switch (kind) {
	case NM_PRIM_TRIANGLES: return n / 3;
	case NM_PRIM_STRIP:
	case NM_PRIM_FAN: return n >= 3 ? n - 2 : 0;
	case NM_PRIM_QUADS: return n / 4 * 2;
	}
	return 0;
}

static void put(uint32_t *t, uint32_t a, uint32_t b, uint32_t c)
{
	t[0] = a;
	t[1] = b;
	t[2] = c;
}

void nm_triangulate(nm_prim kind, const uint32_t *idx, uint64_t n, uint32_t *tris)
{
	uint64_t count = nm_triangle_count(kind, n);
	for (uint64_t k = 0; k < count; k++) {
		uint32_t *t = tris + 3 * k;
		switch (kind) {
		case NM_PRIM_TRIANGLES:
			put(t, idx[3 * k], idx[3 * k + 1], idx[3 * k + 2]);
			break;
		case NM_PRIM_STRIP:
			if (k & 1)
				put(t, idx[k + 1], idx[k], idx[k + 2]);
			else
				put(t, idx[k], idx[k + 1], idx[k + 2]);
			break;
		case NM_PRIM_FAN:
			put(t, idx[0], idx[k + 1], idx[k + 2]);
			break;
		case NM_PRIM_QUADS: {
			const uint32_t *q = idx + 4 * (k / 2);
			if (k & 1)
				put(t, q[0], q[2], q[3]);
			else
				put(t, q[0], q[1], q[2]);
			break;
		}
		}
	}
}
