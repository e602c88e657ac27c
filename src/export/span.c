#include <string.h>
#include "export/span.h"

static void start_at(nm_span *s, uint64_t at)
{
	if (!s->started) {
		s->started = true;
		s->first = at;
	}
}

bool nm_span_text(nm_span *s, uint64_t n)
{
	bool hit = n && s->pos < s->end && s->pos + n > s->off;
	if (hit)
		start_at(s, s->pos);
	s->pos += n;
	return hit;
}

void nm_span_lines(nm_span *s, uint64_t w, uint64_t count, uint64_t *k0, uint64_t *k1)
{
	*k0 = *k1 = 0;
	if (count && w && s->pos < s->end && s->pos + w * count > s->off) {
		*k0 = s->off > s->pos ? (s->off - s->pos) / w : 0;
		uint64_t e = s->end - s->pos;
		*k1 = e >= w * count ? count : (e + w - 1) / w;
		start_at(s, s->pos + *k0 * w);
	}
	s->pos += w * count;
}

nm_status nm_span_cut(nm_span *s, nm_out *o, const char *file, nm_error *err)
{
	nm_status st = nm_out_status(o);
	if (st != NM_OK)
		return st;
	size_t len = (size_t)(s->end - s->off);
	uint64_t cut = s->started ? s->off - s->first : 0;
	if (o->len - s->base < cut + len)
		return nm_fail(err, NM_E_INTERNAL, file, NULL, s->off,
			       "internal error: a range of %zu bytes made %zu", len,
			       (size_t)(o->len - s->base - (cut < o->len - s->base ? cut : 0)));
	memmove(o->data + s->base, o->data + s->base + cut, len);
	o->len = s->base + len;
	return NM_OK;
}
