/* nmodel subcommands. Each returns the process exit status:
 * 0 success, 1 the model or one of its files could not be read, 2 usage. */
#ifndef NM_CLI_COMMANDS_H
#define NM_CLI_COMMANDS_H

#include "lib/tree.h"

#define NM_EXIT_OK 0
#define NM_EXIT_FAIL 1
#define NM_EXIT_USAGE 2

/* argv[0] is the command's name; opt holds the --name=value options (taken out of argv). */
int nm_cmd_ls(int argc, char **argv, const nm_options *opt);
int nm_cmd_extract(int argc, char **argv, const nm_options *opt);

/* Shared by the commands: open FILE under opt or print one line and return NULL. */
nm_tree *nm_cli_open(const char *path, const nm_options *opt);
/* Write a file node to fd; errors are printed. */
int nm_cli_copy(nm_tree *t, nm_node *n, int fd, const char *shown);

#endif
