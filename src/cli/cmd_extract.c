/* nmodel extract [-j N] FILE DIR: write the whole tree under DIR (made with its parents
 * when missing), byte-identical to a mount, producing files on N threads (jobs.h; default
 * the number of CPUs; -j1 produces them one after the other on this thread). A file that cannot be produced is reported and
 * left out (never written half), and the exit status says something failed. A chunk
 * that failed to parse is part of the tree (its error.txt), so it does not change the
 * status, but its first line is printed: a damaged model is not extracted silently.
 * A whole extract ends with DIR's stamp (stamp.c), which nmodel apply uses to skip the
 * files nobody changed. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/stamp.h"
#include "cli/jobs.h"

/* One file: to a temporary name beside it, renamed when whole, so a failure leaves
 * nothing. */
static int extract_file(nm_tree *t, nm_node *n, const char *path)
{
	char tmp[4200];
	int dir = (int)(strrchr(path, '/') - path); /* path is DIR/..., never bare */
	snprintf(tmp, sizeof tmp, "%.*s/.%s.part", dir, path, nm_node_name(n));
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		nm_cli_error("%s: %s", tmp, strerror(errno));
		return NM_EXIT_FAIL;
	}
	int rc = nm_cli_copy(t, n, fd, path);
	if (close(fd) != 0 && rc == NM_EXIT_OK) {
		nm_cli_error("%s: %s", tmp, strerror(errno));
		rc = NM_EXIT_FAIL;
	}
	if (rc == NM_EXIT_OK && rename(tmp, path) == 0)
		return NM_EXIT_OK;
	if (rc == NM_EXIT_OK)
		nm_cli_error("%s: %s", path, strerror(errno));
	unlink(tmp);
	return NM_EXIT_FAIL;
}

/* An error.txt the tree made for a chunk that failed: its first line (which names the
 * file, the chunk and the offset) and where the rest is. */
static void warn_error_txt(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	unsigned more = 0;
	if (fgets(line, sizeof line, f)) {
		int c = 0;
		if (!strchr(line, '\n')) /* a longer line: shown cut, the rest skipped */
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		line[strcspn(line, "\n")] = '\0';
		while (c != EOF && (c = fgetc(f)) != EOF)
			more += c == '\n';
		if (more)
			nm_cli_error("warning: %s (%u more in %s)", line, more, path);
		else
			nm_cli_error("warning: %s (%s)", line, path);
	}
	fclose(f);
}

static int extract_queued(nm_tree *t, nm_node *n, const char *path, void *ctx)
{
	(void)ctx;
	return extract_file(t, n, path);
}

/* ctx: the jobs the files go to, or NULL: written here. Text (error.txt among it) is
 * written here either way: it costs a copy, and its warnings come in the tree's order. */
static int extract_one(nm_tree *t, nm_node *n, const char *path, void *ctx)
{
	nm_cli_jobs *jobs = ctx;
	if (nm_node_type(n) == NM_NODE_DIR) {
		if (nm_cli_make_dir(path) != 0)
			return NM_EXIT_FAIL;
		return nm_cli_each_child(t, n, path, extract_one, ctx);
	}
	if (jobs && nm_node_type(n) != NM_NODE_TEXT)
		return nm_cli_jobs_add(jobs, n, path, NULL);
	int rc = extract_file(t, n, path);
	if (rc == NM_EXIT_OK && strcmp(nm_node_name(n), "error.txt") == 0)
		warn_error_txt(path);
	return rc;
}

/* -j N: 1 to this many threads. */
#define MAX_JOBS 256u

int nm_cmd_extract(int argc, char **argv, const nm_options *opt)
{
	unsigned threads = nm_cli_cpus();
	int c;
	optind = 1;
	opterr = 0; /* getopt's own message would not start with "nmodel: " */
	while ((c = getopt(argc, argv, "+j:")) != -1) {
		char *end;
		unsigned long v = c == 'j' ? strtoul(optarg, &end, 10) : 0;
		if (c != 'j' || !*optarg || *end || v < 1 || v > MAX_JOBS) {
			char why[64];
			if (c == 'j')
				snprintf(why, sizeof why, "-j takes 1 to %u threads", MAX_JOBS);
			else
				snprintf(why, sizeof why, "unknown option -%c", optopt);
			return nm_cli_usage_error("extract", why);
		}
		threads = (unsigned)v;
	}
	if (argc - optind != 2)
		return nm_cli_usage_error("extract", "wrong number of arguments");
	const char *file = argv[optind], *dir = argv[optind + 1];
	nm_tree *t = nm_cli_open(file, opt);
	if (!t)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_FAIL;
	if (nm_cli_make_dirs(dir) == 0) {
		int64_t begun = nm_stamp_begin(dir);
		nm_cli_jobs *jobs = nm_cli_jobs_start(t, threads, extract_queued);
		rc = nm_cli_each_child(t, nm_tree_root(t), dir, extract_one, jobs);
		if (jobs && nm_cli_jobs_finish(jobs) != NM_EXIT_OK)
			rc = NM_EXIT_FAIL;
		if (rc == NM_EXIT_OK)
			nm_stamp_write(file, dir, begun);
	}
	nm_tree_free(t);
	return rc;
}
