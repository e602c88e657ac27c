/* nmodel extract FILE DIR: write the whole tree under DIR (made with its parents when
 * missing), byte-identical to a mount. A file that cannot be produced is reported and
 * left out (never written half), and the exit status says something failed. A chunk
 * that failed to parse is part of the tree (its error.txt), so it does not change the
 * status, but its first line is printed: a damaged model is not extracted silently.
 * A whole extract ends with DIR's stamp (stamp.c), which nmodel apply uses to skip the
 * files nobody changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/stamp.h"

/* One file: to a temporary name, renamed when whole, so a failure leaves nothing. */
static int extract_file(nm_tree *t, nm_node *n, const char *dir, const char *path)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/.%s.part", dir, nm_node_name(n));
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

/* ctx: the directory being written, which holds the temporary names. */
static int extract_one(nm_tree *t, nm_node *n, const char *path, void *ctx)
{
	if (nm_node_type(n) != NM_NODE_DIR) {
		int rc = extract_file(t, n, ctx, path);
		if (rc == NM_EXIT_OK && strcmp(nm_node_name(n), "error.txt") == 0)
			warn_error_txt(path);
		return rc;
	}
	if (nm_cli_make_dir(path) != 0)
		return NM_EXIT_FAIL;
	return nm_cli_each_child(t, n, path, extract_one, (void *)path);
}

int nm_cmd_extract(int argc, char **argv, const nm_options *opt)
{
	(void)argc;
	nm_tree *t = nm_cli_open(argv[1], opt);
	if (!t)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_FAIL;
	if (nm_cli_make_dirs(argv[2]) == 0) {
		int64_t begun = nm_stamp_begin(argv[2]);
		rc = nm_cli_each_child(t, nm_tree_root(t), argv[2], extract_one, argv[2]);
		if (rc == NM_EXIT_OK)
			nm_stamp_write(argv[1], argv[2], begun);
	}
	nm_tree_free(t);
	return rc;
}
