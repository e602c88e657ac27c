/* The entry points a reader of the parsed animation uses besides the parsers. */
#include <math.h>
#include <string.h>
#include "formats/grezzo_anim/grezzo_anim.h"

double ga_track_sample(const ga_track *tr, double frame)
{
	if (!tr)
		return NAN;
	return nm_keys_sample(tr->keys, tr->count, tr->interp, frame, NAN);
}

nm_status ga_parse(nm_reader *r, nm_tree *t, ga_anim *out, nm_error *err)
{
	uint8_t magic[4];
	nm_status s = nm_reader_read(r, 0, magic, nm_reader_size(r) < 4 ? 0 : 4, "header", err);
	if (s != NM_OK)
		return s;
	if (nm_reader_size(r) >= 4 && memcmp(magic, "cmab", 4) == 0)
		return ga_parse_cmab(r, t, out, err);
	if (nm_reader_size(r) >= 4 && memcmp(magic, "csab", 4) == 0)
		return ga_parse_csab(r, t, out, err);
	return nm_fail(err, NM_E_UNSUPPORTED, nm_reader_name(r), NULL, 0,
		       "not a Grezzo animation (expected the magic \"cmab\" or \"csab\")");
}
