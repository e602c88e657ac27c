/* Command line of mount.nmodel: SOURCE MOUNTPOINT [-o opts] plus the libfuse options it
 * passes on. Every option is checked against one table here, so that a wrong one is
 * refused with our message before libfuse sees it. */
#ifndef NM_FUSE_OPTIONS_H
#define NM_FUSE_OPTIONS_H

/* The libfuse API this is written against (Debian bookworm has 3.14). */
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <stdbool.h>
#include "lib/options.h"

typedef struct nm_fuse_options {
	char *source;           /* the model file as given: messages name it so */
	char *mountpoint;       /* as given; checked by nm_fuse_check_mountpoint */
	nm_options model;       /* -o cache_size=MiB, -o max_file_size=MiB, ... */
	char *log_file;         /* -o log=FILE, or NULL */
	unsigned max_threads;   /* -o max_threads=N, or 0 for libfuse's default */
	unsigned idle_timeout;  /* -o idle_timeout=SECONDS, or 0: never (fuse/idle.h) */
	bool prefill;           /* false with -o noprefill (fuse/prefill.h) */
	bool rw;                /* -o rw: a writable mount (doc/writable.md); else EROFS */
	char *save;             /* -o save=OUT: the model written there at each edit, or NULL */
	char *overlay;          /* -o overlay=DIR: the edits kept there, or NULL: in memory */
	int show_help;
	int show_version;
} nm_fuse_options;

/* Take our options, the source and the mount point out of args, leaving the libfuse
 * options we pass on (-f, -d, -o allow_other, ...) and adding the read-only defaults.
 * Returns 0, or -1 after printing one line. */
int nm_fuse_parse_options(struct fuse_args *args, nm_fuse_options *opts);
void nm_fuse_options_free(nm_fuse_options *opts);
void nm_fuse_usage(const char *prog);

#endif
