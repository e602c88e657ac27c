/* sweep [-t N] [-f N] [-s SEED] FILE...: hostile-input sweep. For each file, build and
 * walk the whole tree (every file produced, as a mount would) for N truncation points
 * (all of them when N is 0) and N random byte flips. Any crash kills the run; a hang
 * trips an alarm; a file whose bytes differ from its announced size, and a refusal whose
 * message is empty, are failures. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/walk.h"

static const char *current;

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "sweep: a case took longer than 10 s (hang)\n";
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(3);
	_exit(3);
}

static int run_case(const uint8_t *b, size_t len, const char *what, size_t *errors)
{
	nm_tree *t;
	nm_error err;
	walk_stats st;
	current = what;
	alarm(10);
	nm_error_clear(&err);
	if (walk_build(b, len, "sweep", &t, &err) != NM_OK) {
		(*errors)++;
		alarm(0);
		if (!err.msg[0]) {
			fprintf(stderr, "sweep: %s: refused with an empty message\n", what);
			return 1;
		}
		return 0;
	}
	walk_tree(t, &st);
	nm_tree_free(t);
	alarm(0);
	if (st.size_mismatches) {
		fprintf(stderr, "sweep: %s: %zu files differ from their announced size\n", what,
			st.size_mismatches);
		return 1;
	}
	if (st.unexplained) {
		fprintf(stderr, "sweep: %s: %zu failures with an empty message\n", what,
			st.unexplained);
		return 1;
	}
	*errors += st.failed != 0;
	return 0;
}

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

int main(int argc, char **argv)
{
	unsigned long truncs = 0, flips = 1000, seed = 1;
	int c, bad = 0;
	while ((c = getopt(argc, argv, "t:f:s:")) != -1) {
		if (c == 't') truncs = strtoul(optarg, NULL, 10);
		else if (c == 'f') flips = strtoul(optarg, NULL, 10);
		else if (c == 's') seed = strtoul(optarg, NULL, 10);
		else return 2;
	}
	signal(SIGALRM, on_alarm);
	for (int i = optind; i < argc; i++) {
		size_t len, errors = 0, cases = 0;
		uint8_t *orig = load(argv[i], &len);
		if (!orig || len == 0) {
			fprintf(stderr, "sweep: cannot read %s\n", argv[i]);
			return 2;
		}
		uint8_t *b = malloc(len);
		char what[256];
		/* Truncations: every offset, or truncs points spread over the file. */
		size_t step = truncs && truncs < len ? len / truncs : 1;
		for (size_t cut = 0; cut < len; cut += step, cases++) {
			snprintf(what, sizeof what, "%s cut at %zu", argv[i], cut);
			bad |= run_case(orig, cut, what, &errors);
		}
		srand((unsigned)seed);
		for (unsigned long k = 0; k < flips; k++, cases++) {
			memcpy(b, orig, len);
			size_t at = (size_t)rand() % len;
			int nflip = 1 + rand() % 4;
			for (int j = 0; j < nflip; j++, at = (size_t)rand() % len)
				b[at] ^= (uint8_t)(1 + rand() % 255);
			snprintf(what, sizeof what, "%s flip #%lu", argv[i], k);
			bad |= run_case(b, len, what, &errors);
		}
		printf("sweep %s: %zu cases, %zu ended in an error (as they may), no crash, no hang\n",
		       argv[i], cases, errors);
		free(b);
		free(orig);
	}
	return bad;
}
