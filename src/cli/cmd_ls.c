/* nmodel ls [-l] [-R] FILE [PATH]: names of a directory; -l adds type and exact size
 * (what stat shows through a mount); -R walks the subtree, printing full paths. */
#include <getopt.h>
#include <stdio.h>
#include "cli/commands.h"
#include "cli/common.h"

struct ls_opts {
	int long_format, recursive;
};

static int list(nm_tree *t, nm_node *dir, const char *path, const struct ls_opts *o)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	int rc = nm_cli_children(t, dir, &kids, &n);
	for (size_t i = 0; i < n; i++) {
		char child[4096];
		int is_dir = nm_node_type(kids[i]) == NM_NODE_DIR;
		if (nm_cli_join(child, sizeof child, path, nm_node_name(kids[i])) != 0) {
			rc = NM_EXIT_FAIL;
			continue;
		}
		const char *shown = o->recursive ? child : nm_node_name(kids[i]);
		if (o->long_format) {
			uint64_t size = 0;
			if (nm_size(t, kids[i], &size, &err) != NM_OK) {
				nm_cli_error("%s: %s", child, err.msg);
				rc = NM_EXIT_FAIL;
			}
			printf("%c %12llu %s%s\n", is_dir ? 'd' : '-', (unsigned long long)size,
			       shown, is_dir ? "/" : "");
		} else {
			printf("%s%s\n", shown, is_dir ? "/" : "");
		}
		if (o->recursive && is_dir && list(t, kids[i], child, o) != NM_EXIT_OK)
			rc = NM_EXIT_FAIL;
	}
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
	const char *file = argv[optind];
	const char *path = argc - optind == 2 ? argv[optind + 1] : "/";
	nm_tree *t = nm_cli_open(file, opt);
	if (!t)
		return NM_EXIT_FAIL;
	int rc = NM_EXIT_FAIL;
	nm_node *n = nm_cli_resolve(t, file, path);
	if (n && nm_node_type(n) != NM_NODE_DIR) {
		printf("%s\n", nm_node_name(n));
		rc = NM_EXIT_OK;
	} else if (n) {
		rc = list(t, n, path[0] == '/' ? path : "/", &o);
	}
	nm_tree_free(t);
	return rc;
}
