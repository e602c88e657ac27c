/* nmodel extract FILE DIR: write the whole tree under DIR, byte-identical to a mount.
 * A file that cannot be produced is reported and left out (never written half), and
 * the exit status says something failed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"

static int extract(nm_tree *t, nm_node *dir, const char *path)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	int rc = NM_EXIT_OK;
	/* A directory that failed to populate is written with its error.txt, and reported. */
	if (nm_children(t, dir, &kids, &n, &err) != NM_OK) {
		fprintf(stderr, "nmodel: %s\n", err.msg);
		rc = NM_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		char child[4096], tmp[4200];
		snprintf(child, sizeof child, "%s/%s", path, nm_node_name(kids[i]));
		if (nm_node_type(kids[i]) == NM_NODE_DIR) {
			if (mkdir(child, 0755) != 0 && errno != EEXIST) {
				fprintf(stderr, "nmodel: %s: %s\n", child, strerror(errno));
				rc = NM_EXIT_FAIL;
				continue;
			}
			if (extract(t, kids[i], child) != NM_EXIT_OK)
				rc = NM_EXIT_FAIL;
			continue;
		}
		/* Write to a temporary name and rename, so a failure leaves no partial file. */
		snprintf(tmp, sizeof tmp, "%s/.%s.part", path, nm_node_name(kids[i]));
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "nmodel: %s: %s\n", tmp, strerror(errno));
			rc = NM_EXIT_FAIL;
			continue;
		}
		int wrc = nm_cli_copy(t, kids[i], fd, child);
		if (close(fd) != 0)
			wrc = NM_EXIT_FAIL;
		if (wrc == NM_EXIT_OK && rename(tmp, child) == 0)
			continue;
		unlink(tmp);
		rc = NM_EXIT_FAIL;
	}
	return rc;
}

int nm_cmd_extract(int argc, char **argv, const nm_options *opt)
{
	(void)argc;
	nm_tree *t = nm_cli_open(argv[1], opt);
	if (!t)
		return NM_EXIT_FAIL;
	if (mkdir(argv[2], 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "nmodel: %s: %s\n", argv[2], strerror(errno));
		nm_tree_free(t);
		return NM_EXIT_FAIL;
	}
	int rc = extract(t, nm_tree_root(t), argv[2]);
	nm_tree_free(t);
	return rc;
}
