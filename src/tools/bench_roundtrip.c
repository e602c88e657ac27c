/* bench_roundtrip DIR [COUNT]: the time of one statfs() on DIR, in microseconds, best of
 * five runs of COUNT calls (default 20,000). On a FUSE mount the kernel does not cache
 * statfs, so each call is one request and its answer: the round trip every uncached
 * lookup, listing and READ pays. Used by scripts/bench-peers to show what a round trip
 * costs on the machine the table was made on; on tmpfs it is the system call alone. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/statfs.h>
#include <time.h>

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_roundtrip DIR [COUNT]\n");
		return 2;
	}
	long count = argc == 3 ? atol(argv[2]) : 20000;
	if (count <= 0) {
		fprintf(stderr, "bench_roundtrip: COUNT must be positive\n");
		return 2;
	}
	struct statfs st;
	double best = -1;
	for (int run = 0; run < 5; run++) {
		double t0 = now_us();
		for (long i = 0; i < count; i++) {
			if (statfs(argv[1], &st) != 0) {
				perror(argv[1]);
				return 1;
			}
		}
		double per = (now_us() - t0) / (double)count;
		if (best < 0 || per < best)
			best = per;
	}
	printf("%.1f\n", best);
	return 0;
}
