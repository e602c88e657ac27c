/* The J3D name table (FORMATS.md 3.1), read the same way by the model chunks (JNT1,
 * MAT3, TEX1) and the animation blocks (BTK, BRK, BPK, BTP): u16 count, u16 pad,
 * count x (u16 hash, u16 offset from the table), NUL-terminated strings. */
#include <string.h>
#include "formats/j3d/j3d.h"

nm_status j3d_name_view(const j3d_name_src *src, uint32_t off, uint16_t *count, nm_view *v,
			nm_error *err)
{
	nm_status s = src->load(src->ctx, off, 4, "name table header", v, err);
	if (s != NM_OK)
		return s;
	*count = nm_u16(v, 0);
	nm_view_free(v);
	s = src->load(src->ctx, off, 4 + (uint64_t)*count * 4, "name table", v, err);
	if (s != NM_OK)
		return s;
	uint32_t last = 0;
	for (uint16_t i = 0; i < *count; i++)
		if (nm_u16(v, 6 + 4 * (size_t)i) > last)
			last = nm_u16(v, 6 + 4 * (size_t)i);
	nm_view_free(v);
	/* Strings up to J3D_NAME_MAX bytes past the last offset, so that a table at the
	 * start of a big chunk does not load the whole chunk. */
	uint64_t len = (uint64_t)last + J3D_NAME_MAX;
	if (len > src->size - off)
		len = src->size - off;
	return src->load(src->ctx, off, len, "name strings", v, err);
}

const char *j3d_name_at(const nm_view *v, size_t i, size_t *len)
{
	nm_view t = *v; /* loads mark a view bad; the caller's stays as it was */
	uint16_t so = nm_u16(&t, 6 + 4 * i);
	if (t.bad || so >= v->size)
		return NULL;
	const char *p = (const char *)v->data + so;
	size_t n = strnlen(p, v->size - so);
	*len = n > J3D_NAME_MAX ? J3D_NAME_MAX : n;
	return p;
}
