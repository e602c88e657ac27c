/* nmodel: the tree that mount.nmodel shows, without FUSE. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "config.h"
#include "formats/driver.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nmodel [OPTIONS] info FILE\n"
		"       nmodel [OPTIONS] ls [-l] [-R] FILE [PATH]\n"
		"       nmodel [OPTIONS] cat FILE PATH\n"
		"       nmodel [OPTIONS] extract FILE DIR\n"
		"       nmodel formats | --help | --version\n");
}

static void help(void)
{
	usage(stdout);
	printf("\nOPTIONS (the same as mount.nmodel's -o NAME=VALUE, written --NAME=VALUE):\n");
	nm_options_usage(stdout, NM_OPTION_FLAG);
}

nm_tree *nm_cli_open(const char *path, const nm_options *opt)
{
	nm_tree *t;
	nm_error err;
	if (nm_open_model(path, opt, &t, &err) != NM_OK) {
		fprintf(stderr, "nmodel: %s\n", err.msg);
		return NULL;
	}
	return t;
}

int nm_cli_copy(nm_tree *t, nm_node *n, int fd, const char *shown)
{
	static char buf[1 << 16];
	uint64_t off = 0;
	nm_error err;
	for (;;) {
		size_t got;
		if (nm_read(t, n, off, buf, sizeof buf, &got, &err) != NM_OK) {
			fprintf(stderr, "nmodel: %s: %s\n", shown, err.msg);
			return NM_EXIT_FAIL;
		}
		if (got == 0)
			return NM_EXIT_OK;
		for (size_t done = 0; done < got;) {
			ssize_t w = write(fd, buf + done, got - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				fprintf(stderr, "nmodel: %s: write failed: %s\n", shown, strerror(errno));
				return NM_EXIT_FAIL;
			}
			done += (size_t)w;
		}
		off += got;
	}
}

static int cat(const char *file, const char *path, const nm_options *opt)
{
	nm_tree *t = nm_cli_open(file, opt);
	nm_node *n;
	nm_error err;
	int rc = NM_EXIT_FAIL;
	if (!t)
		return NM_EXIT_FAIL;
	if (nm_resolve(t, path, &n, &err) != NM_OK)
		fprintf(stderr, "nmodel: %s\n", err.msg);
	else if (nm_node_type(n) == NM_NODE_DIR)
		fprintf(stderr, "nmodel: %s: is a directory\n", path);
	else
		rc = nm_cli_copy(t, n, STDOUT_FILENO, path);
	nm_tree_free(t);
	return rc;
}

/* Take --name=value options (anywhere before a "--") out of argv into opt. Others
 * (--help, a file named --x=y after "--") stay, and so does the "--" after the command
 * word, for ls's getopt; the commands without options drop it (drop_dashes). 0, or -1
 * after printing why. */
static int take_options(int *argc, char **argv, nm_options *opt)
{
	int kept = 1;
	bool more = true;
	nm_options_init(opt);
	for (int i = 1; i < *argc; i++) {
		if (more && strcmp(argv[i], "--") == 0) {
			more = false;
			if (kept == 1)
				continue; /* before the command word */
		} else if (more && strncmp(argv[i], "--", 2) == 0 && strchr(argv[i], '=')) {
			nm_error err;
			nm_status s = nm_options_parse(opt, argv[i] + 2, &err);
			if (s == NM_OK)
				continue;
			if (s != NM_E_NOENT) {
				fprintf(stderr, "nmodel: --%s\n", err.msg);
				return -1;
			}
		}
		argv[kept++] = argv[i];
	}
	*argc = kept;
	argv[kept] = NULL;
	return 0;
}

/* "nmodel cat -- FILE PATH": the "--" means nothing to a command without options. */
static void drop_dashes(int *argc, char **argv)
{
	if (*argc > 2 && strcmp(argv[2], "--") == 0) {
		memmove(argv + 2, argv + 3, (size_t)(*argc - 2) * sizeof *argv);
		(*argc)--;
	}
}

int main(int argc, char **argv)
{
	nm_options opt;
	if (take_options(&argc, argv, &opt) != 0)
		return NM_EXIT_USAGE;
	if (argc > 1 && strcmp(argv[1], "ls") != 0)
		drop_dashes(&argc, argv);
	if (argc < 2) {
		usage(stderr);
		return NM_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		help();
		return NM_EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("nmodel (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return NM_EXIT_OK;
	}
	if (!strcmp(cmd, "formats")) {
		for (size_t i = 0; nm_drivers[i]; i++)
			printf("%-6s %s\n", nm_drivers[i]->name, nm_drivers[i]->description);
		return NM_EXIT_OK;
	}
	if (!strcmp(cmd, "info") && argc == 3)
		return cat(argv[2], "/info.txt", &opt);
	if (!strcmp(cmd, "cat") && argc == 4)
		return cat(argv[2], argv[3], &opt);
	if (!strcmp(cmd, "ls"))
		return nm_cmd_ls(argc - 1, argv + 1, &opt);
	if (!strcmp(cmd, "extract") && argc == 4)
		return nm_cmd_extract(argc - 1, argv + 1, &opt);
	usage(stderr);
	return NM_EXIT_USAGE;
}
