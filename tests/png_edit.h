/* An edited texture level for the apply tests: w x h RGBA8 as the PNG bytes a user would
 * put in DIR (our own writer's: any valid PNG is taken). Include after check.h. */
#ifndef NM_TEST_PNG_EDIT_H
#define NM_TEST_PNG_EDIT_H

#include <check.h>
#include "export/png.h"

static inline nm_out png_of(const uint8_t *rgba, unsigned w, unsigned h)
{
	nm_out o;
	nm_out_init(&o);
	ck_assert_int_eq(nm_png_write(&o, rgba, w, h, 4), NM_OK);
	return o;
}

#endif
