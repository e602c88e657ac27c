/* nmodel: the tree that mount.nmodel shows, without FUSE. This file reads the options
 * and picks the command; the commands are in cmd_*.c. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "config.h"
#include "formats/driver.h"

static int formats(int argc, char **argv, const nm_options *opt)
{
	(void)argc; (void)argv; (void)opt;
	int width = 0;   /* the longest name: the descriptions line up */
	for (size_t i = 0; nm_drivers[i]; i++)
		if ((int)strlen(nm_drivers[i]->name) > width)
			width = (int)strlen(nm_drivers[i]->name);
	for (size_t i = 0; nm_drivers[i]; i++)
		printf("%-*s %s\n", width, nm_drivers[i]->name, nm_drivers[i]->description);
	return NM_EXIT_OK;
}

static const struct command {
	const char *name;
	int operands;           /* after the name; -1: the command checks them itself */
	const char *usage;      /* after "nmodel [OPTIONS] " */
	int (*run)(int argc, char **argv, const nm_options *opt);
} commands[] = {
	{ "info", 1, "info FILE", nm_cmd_info },
	{ "ls", -1, "ls [-l] [-R] FILE [PATH]", nm_cmd_ls },
	{ "cat", 2, "cat FILE PATH", nm_cmd_cat },
	{ "extract", -1, "extract [-j N] FILE DIR", nm_cmd_extract },
	{ "apply", -1, "apply [--dry-run] FILE DIR [OUT]", nm_cmd_apply },
	{ "formats", 0, "formats", formats },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int nm_cli_usage_error(const char *cmd, const char *why)
{
	nm_cli_error("%s: %s (usage: nmodel [OPTIONS] %s)", cmd, why, command_named(cmd)->usage);
	return NM_EXIT_USAGE;
}

static void help(void)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("%s nmodel [OPTIONS] %s\n", i ? "      " : "usage:", commands[i].usage);
	printf("       nmodel --help | --version\n");
	printf("\nOPTIONS (the same as mount.nmodel's -o NAME=VALUE, written --NAME=VALUE):\n");
	nm_options_usage(stdout, NM_OPTION_FLAG);
}

/* Take --name=value options (anywhere before a "--") out of argv into opt; one that is
 * not ours is a usage error (a file named like one goes after "--"). --help and the like
 * stay, and so does the "--" after the command word, for ls's getopt; the commands
 * without options drop it (drop_dashes). 0, or -1 after printing why. */
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
			if (s == NM_E_NOENT)
				nm_cli_error("%s: unknown option (see nmodel --help)", argv[i]);
			else if (s != NM_OK)
				nm_cli_error("--%s", err.msg);
			if (s != NM_OK)
				return -1;
			continue;
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
	if (argc < 2) {
		nm_cli_error("no command given (see nmodel --help)");
		return NM_EXIT_USAGE;
	}
	const char *word = argv[1];
	if (!strcmp(word, "--help") || !strcmp(word, "-h") || !strcmp(word, "help")) {
		help();
		return NM_EXIT_OK;
	}
	if (!strcmp(word, "--version") || !strcmp(word, "-V")) {
		printf("nmodel (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return NM_EXIT_OK;
	}
	const struct command *c = command_named(word);
	if (!c) {
		nm_cli_error("%s: unknown %s (see nmodel --help)", word,
			     word[0] == '-' ? "option" : "command");
		return NM_EXIT_USAGE;
	}
	if (c->operands >= 0) {
		drop_dashes(&argc, argv);
		if (argc - 2 != c->operands)
			return nm_cli_usage_error(c->name, "wrong number of arguments");
	}
	return c->run(argc - 1, argv + 1, &opt);
}
