/* nmodel ls [-l] [-R] FILE [PATH]: names of a directory; -l adds type and exact size
 * (what stat shows through a mount); -R walks the subtree, printing full paths. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"

struct ls_opts {
	int long_format, recursive;
};

static int list(nm_tree *t, nm_node *dir, const char *path, const struct ls_opts *o)
{
	nm_node **kids;
	size_t n;
	nm_error err;
	int rc = NM_EXIT_OK;
	/* A directory that failed to populate is listed with its error.txt, and reported. */
	if (nm_children(t, dir, &kids, &n, &err) != NM_OK) {
		fprintf(stderr, "nmodel: %s: %s\n", path, err.msg);
		rc = NM_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		char child[4096];
		int is_dir = nm_node_type(kids[i]) == NM_NODE_DIR;
		snprintf(child, sizeof child, "%s%s%s", path, strcmp(path, "/") ? "/" : "",
			 nm_node_name(kids[i]));
		const char *shown = o->recursive ? child : nm_node_name(kids[i]);
		if (o->long_format) {
			uint64_t size = 0;
			if (nm_size(t, kids[i], &size, &err) != NM_OK) {
				fprintf(stderr, "nmodel: %s: %s\n", child, err.msg);
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
	while ((c = getopt(argc, argv, "lR")) != -1) {
		if (c == 'l')
			o.long_format = 1;
		else if (c == 'R')
			o.recursive = 1;
		else
			return NM_EXIT_USAGE;
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, "usage: nmodel ls [-l] [-R] FILE [PATH]\n");
		return NM_EXIT_USAGE;
	}
	const char *path = argc - optind == 2 ? argv[optind + 1] : "/";
	nm_tree *t = nm_cli_open(argv[optind], opt);
	if (!t)
		return NM_EXIT_FAIL;
	nm_node *n;
	nm_error err;
	int rc;
	if (nm_resolve(t, path, &n, &err) != NM_OK) {
		fprintf(stderr, "nmodel: %s\n", err.msg);
		rc = NM_EXIT_FAIL;
	} else if (nm_node_type(n) != NM_NODE_DIR) {
		printf("%s\n", nm_node_name(n));
		rc = NM_EXIT_OK;
	} else {
		rc = list(t, n, path[0] == '/' ? path : "/", &o);
	}
	nm_tree_free(t);
	return rc;
}
