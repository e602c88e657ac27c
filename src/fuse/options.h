/* Command line of mount.nmodel: SOURCE MOUNTPOINT [-o opts] plus libfuse's own options. */
#ifndef NM_FUSE_OPTIONS_H
#define NM_FUSE_OPTIONS_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include "lib/options.h"

typedef struct nm_mount_options {
	char *source;           /* the model file */
	nm_options model;       /* -o cache_size=MiB, -o max_file_size=MiB, ... */
	int show_help;
	int show_version;
} nm_mount_options;

/* Take our options and the source out of args, leaving libfuse's (mountpoint, -f, -d,
 * -o allow_other, ...) in place and adding the read-only defaults. Returns 0, or -1
 * after printing one line to stderr. */
int nm_mount_parse_options(struct fuse_args *args, nm_mount_options *opts);
void nm_mount_usage(const char *prog);

#endif
