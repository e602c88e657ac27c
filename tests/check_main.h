/* The one main() every Check test program shares: run the suite, exit non-zero on any
 * failure. Include it last, after defining the suite function. */
#ifndef NM_TEST_CHECK_MAIN_H
#define NM_TEST_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static int nm_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define NM_CHECK_MAIN(suite_fn) \
	int main(void) { return nm_check_run(suite_fn()); }

#endif
