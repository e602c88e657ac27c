/* soak_reader SECONDS FILE...: re-read every file until time is up, comparing each read
 * with the first one, and dropping the kernel's cached pages after each read so that
 * the next read goes to the daemon again. Prints "reads mismatches errors". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	ssize_t got = 0;
	while (b && (got = read(fd, b + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap)
			b = realloc(b, cap *= 2);
	}
	if (got < 0) {
		free(b);
		b = NULL;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	*len = n;
	return b;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int nfiles = argc - 2;
	unsigned char **ref = calloc((size_t)nfiles, sizeof *ref);
	size_t *reflen = calloc((size_t)nfiles, sizeof *reflen);
	unsigned long reads = 0, mismatches = 0, errors = 0;
	time_t end = time(NULL) + atol(argv[1]);
	for (int i = 0; i < nfiles; i++)
		ref[i] = slurp(argv[i + 2], &reflen[i]);
	srand((unsigned)getpid());
	while (time(NULL) < end) {
		int i = rand() % nfiles;
		size_t len;
		unsigned char *b = slurp(argv[i + 2], &len);
		reads++;
		if (!b || !ref[i])
			errors += (b == NULL) != (ref[i] == NULL); /* a file that always fails is fine */
		else if (len != reflen[i] || memcmp(b, ref[i], len) != 0)
			mismatches++;
		free(b);
	}
	printf("%lu %lu %lu\n", reads, mismatches, errors);
	for (int i = 0; i < nfiles; i++)
		free(ref[i]);
	free(ref);
	free(reflen);
	return mismatches || errors;
}
