/* nmodel extract FILE DIR: write the whole tree under DIR (made with its parents when
 * missing), byte-identical to a mount. A file that cannot be produced is reported and
 * left out (never written half), and the exit status says something failed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"

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

static int extract(nm_tree *t, nm_node *dir, const char *path)
{
	nm_node **kids;
	size_t n;
	int rc = nm_cli_children(t, dir, &kids, &n);
	for (size_t i = 0; i < n; i++) {
		char child[4096];
		int ok;
		if (nm_cli_join(child, sizeof child, path, nm_node_name(kids[i])) != 0)
			ok = 0;
		else if (nm_node_type(kids[i]) != NM_NODE_DIR)
			ok = extract_file(t, kids[i], path, child) == NM_EXIT_OK;
		else
			ok = nm_cli_make_dir(child) == 0 && extract(t, kids[i], child) == NM_EXIT_OK;
		if (!ok)
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
	int rc = nm_cli_make_dirs(argv[2]) == 0 ? extract(t, nm_tree_root(t), argv[2])
						  : NM_EXIT_FAIL;
	nm_tree_free(t);
	return rc;
}
