/* replay FILE|DIR...: run a fuzz target's function on kept inputs (crash regressions and
 * seeds) in an ordinary build, so `make check` re-runs every input a fuzzer once broke. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
	size_t got = fread(b, 1, (size_t)n, f);
	fclose(f);
	LLVMFuzzerTestOneInput(b, got);
	free(b);
	return 0;
}

#ifdef NM_REPLAY_CODECS
/* The codec target picks its codec from this at run time when replaying. */
int nm_fuzz_codec_id;
#endif

int main(int argc, char **argv)
{
	int files = 0, first = 1;
#ifdef NM_REPLAY_CODECS
	static const char *const names[] = { "", "pica", "gx", "lzss", "inflate" };
	if (argc < 2)
		return 2;
	for (int i = 1; i < 5; i++)
		if (strcmp(argv[1], names[i]) == 0)
			nm_fuzz_codec_id = i;
	if (!nm_fuzz_codec_id)
		return 2;
	first = 2;
#endif
	for (int i = first; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			files += run_file(argv[i]) == 0;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			char p[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
			files += run_file(p) == 0;
		}
		if (d)
			closedir(d);
	}
	printf("replayed %d inputs\n", files);
	return 0;
}
