/* replay_drivers DRIVER FILE|DIR..., replay_codecs CODEC FILE|DIR...: run a fuzz
 * target's function on kept inputs (crash regressions and seeds) in an ordinary build, so
 * `make check` re-runs every input a fuzzer once broke. */
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

/* The target functions read these to know what to run. */
int nm_fuzz_codec_id;
const char *nm_fuzz_driver_name;
int nm_fuzz_full;

int main(int argc, char **argv)
{
	int files = 0, first;
	static const char *const codecs[] = { "", "pica", "gx", "lzss", "inflate", "gpu",
					      "tegra", "astc", "bcn", "yaz0", "yay0", "lz_cx",
					      "lzs" };
	if (argc < 2) {
		fprintf(stderr, "usage: replay_* TARGET FILE|DIR...\n");
		return 2;
	}
	nm_fuzz_driver_name = argv[1];
	/* A driver's _full target (fuzz_cmb_full): the same driver, reading every file. */
	static char driver[64];
	size_t n = strlen(argv[1]);
	if (n > 5 && n < sizeof driver && strcmp(argv[1] + n - 5, "_full") == 0) {
		memcpy(driver, argv[1], n - 5);
		nm_fuzz_driver_name = driver;
		nm_fuzz_full = 1;
	}
	for (int i = 1; i < (int)(sizeof codecs / sizeof codecs[0]); i++)
		if (strcmp(argv[1], codecs[i]) == 0)
			nm_fuzz_codec_id = i;
	first = 2;
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
