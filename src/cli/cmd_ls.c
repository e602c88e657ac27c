/* nmodel ls [-l] [-R] FILE [PATH]: names of a directory; -l adds type and exact size
 * (what stat shows through a mount); -R walks the subtree, printing full paths. */
#include <getopt.h>
#include <stdio.h>
#include "cli/commands.h"
#include "cli/common.h"

struct ls_opts {
	int long_format, recursive;
};

static int list_one(nm_tree *t, nm_node *n, const char *path, void *ctx)
{
	const struct ls_opts *o = ctx;
	int is_dir = nm_node_type(n) == NM_NODE_DIR;
	const char *shown = o->recursive ? path : nm_node_name(n);
	int rc = NM_EXIT_OK;
	if (o->long_format) {
		uint64_t size = 0;
		nm_error err;
		if (nm_size(t, n, &size, &err) != NM_OK) {
			nm_cli_error("%s: %s", path, err.msg);
			rc = NM_EXIT_FAIL;
		}
		printf("%c %12llu %s%s\n", is_dir ? 'd' : '-', (unsigned long long)size, shown,
		       is_dir ? "/" : "");
	} else {
		printf("%s%s\n", shown, is_dir ? "/" : "");
	}
	if (o->recursive && is_dir && nm_cli_each_child(t, n, path, list_one, ctx) != NM_EXIT_OK)
		rc = NM_EXIT_FAIL;
	return rc;
}

int nm_cmd_ls(int argc, char **argv, const nm_options *opt)
{
	struct ls_opts o = { 0 };
	int c;
	optind = 1;
	opterr = 0; /* getopt's own message would not start with "nmodel: " */
	while ((c = getopt(argc, argv, "lR")) != -1) {
		if (c == 'l') {
			o.long_format = 1;
		} else if (c == 'R') {
			o.recursive = 1;
		} else {
			char why[32];
			snprintf(why, sizeof why, "unknown option -%c", optopt);
			return nm_cli_usage_error("ls", why);
		}
	}
	if (optind >= argc || argc - optind > 2)
		return nm_cli_usage_error("ls", "wrong number of arguments");
	const char *path = argc - optind == 2 ? argv[optind + 1] : "/";
	nm_tree *t;
	nm_node *n = nm_cli_open_path(argv[optind], path, opt, &t);
	if (!n)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_OK;
	if (nm_node_type(n) != NM_NODE_DIR)
		printf("%s\n", nm_node_name(n));
	else
		rc = nm_cli_each_child(t, n, path[0] == '/' ? path : "/", list_one, &o);
	nm_tree_free(t);
	return rc;
}
