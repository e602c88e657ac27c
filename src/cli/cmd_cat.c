/* nmodel cat FILE PATH: one file of the tree to stdout, decoded; nmodel info FILE is
 * cat FILE /info.txt. */
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/common.h"

static int cat(const char *file, const char *path, const nm_options *opt)
{
	nm_tree *t;
	nm_node *n = nm_cli_open_path(file, path, opt, &t);
	if (!n)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_FAIL;
	if (nm_node_type(n) == NM_NODE_DIR)
		nm_cli_error("%s: %s: is a directory", file, path);
	else
		rc = nm_cli_copy(t, n, STDOUT_FILENO, path);
	nm_tree_free(t);
	return rc;
}

int nm_cmd_cat(int argc, char **argv, const nm_options *opt)
{
	(void)argc;
	return cat(argv[1], argv[2], opt);
}

int nm_cmd_info(int argc, char **argv, const nm_options *opt)
{
	(void)argc;
	/* A folder's tree is its own files: no info.txt of ours among them. */
	struct stat st;
	if (stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
		nm_cli_error("%s: a folder: each model in it has its own info.txt "
			     "(nmodel ls -R %s lists them)", argv[1], argv[1]);
		return NM_EXIT_FAIL;
	}
	return cat(argv[1], "/info.txt", opt);
}
