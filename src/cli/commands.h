/* nmodel subcommands. Each takes its own argv (argv[0] is its name; the --name=value
 * options are already taken out into opt) and returns the process exit status:
 * 0 success, 1 the model or one of its files could not be read, 2 usage. */
#ifndef NM_CLI_COMMANDS_H
#define NM_CLI_COMMANDS_H

#include "lib/options.h"

#define NM_EXIT_OK 0
#define NM_EXIT_FAIL 1
#define NM_EXIT_USAGE 2

int nm_cmd_info(int argc, char **argv, const nm_options *opt);
int nm_cmd_cat(int argc, char **argv, const nm_options *opt);
int nm_cmd_ls(int argc, char **argv, const nm_options *opt);
int nm_cmd_extract(int argc, char **argv, const nm_options *opt);
int nm_cmd_apply(int argc, char **argv, const nm_options *opt);

/* A command used wrongly: one line saying why and how it is used (nmodel.c keeps the
 * usage of each command). Returns NM_EXIT_USAGE. */
int nm_cli_usage_error(const char *cmd, const char *why);

#endif
