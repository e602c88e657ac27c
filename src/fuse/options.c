#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse/options.h"

enum { KEY_HELP, KEY_VERSION, KEY_DISCARD };

/* Our -o options are not in this table: every -o item libfuse does not match reaches
 * on_option, which gives it to nm_options_parse first (one table, lib/options.c). */
static const struct fuse_opt option_spec[] = {
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	/* mount(8) and /etc/fstab pass these; they mean nothing to a FUSE session. */
	FUSE_OPT_KEY("rw", KEY_DISCARD),
	FUSE_OPT_KEY("ro", KEY_DISCARD),
	FUSE_OPT_KEY("defaults", KEY_DISCARD),
	FUSE_OPT_KEY("auto", KEY_DISCARD),
	FUSE_OPT_KEY("noauto", KEY_DISCARD),
	FUSE_OPT_KEY("user", KEY_DISCARD),
	FUSE_OPT_KEY("nouser", KEY_DISCARD),
	FUSE_OPT_KEY("users", KEY_DISCARD),
	FUSE_OPT_KEY("_netdev", KEY_DISCARD),
	FUSE_OPT_KEY("nofail", KEY_DISCARD),
	FUSE_OPT_KEY("x-", KEY_DISCARD),
	FUSE_OPT_KEY("comment=", KEY_DISCARD),
	FUSE_OPT_END
};

static int on_option(void *data, const char *arg, int key, struct fuse_args *out)
{
	nm_mount_options *opts = data;
	nm_error err;
	(void)out;
	switch (key) {
	case KEY_HELP:
		opts->show_help = 1;
		return 1;   /* libfuse prints its part of the help too */
	case KEY_VERSION:
		opts->show_version = 1;
		return 1;
	case KEY_DISCARD:
		return 0;
	case FUSE_OPT_KEY_NONOPT:
		if (!opts->source) {
			opts->source = realpath(arg, NULL);
			if (!opts->source)
				opts->source = strdup(arg); /* the open will report it */
			return 0;
		}
		return 1;   /* the mount point, for fuse_parse_cmdline */
	case FUSE_OPT_KEY_OPT:
		switch (nm_options_parse(&opts->model, arg, &err)) {
		case NM_OK:
			return 0;
		case NM_E_NOENT:
			return 1;   /* libfuse's (allow_other, max_read, ...) */
		default:
			fprintf(stderr, "mount.nmodel: %s\n", err.msg);
			return -1;
		}
	default:
		return 1;
	}
}

/* fsname is shown by mount(8) and df; commas and backslashes must be escaped there. */
static char *escaped_fsname(const char *src)
{
	size_t n = strlen(src);
	char *s = malloc(n * 2 + sizeof "-ofsname=");
	char *p;
	if (!s)
		return NULL;
	p = s + sprintf(s, "-ofsname=");
	for (; *src; src++) {
		if (*src == ',' || *src == '\\')
			*p++ = '\\';
		*p++ = *src;
	}
	*p = '\0';
	return s;
}

int nm_mount_parse_options(struct fuse_args *args, nm_mount_options *opts)
{
	nm_options_init(&opts->model);
	if (fuse_opt_parse(args, opts, option_spec, on_option) != 0)
		return -1;
	if (opts->show_help || opts->show_version)
		return 0;
	if (!opts->source) {
		fprintf(stderr, "mount.nmodel: no model file given (try --help)\n");
		return -1;
	}
	char *fsname = escaped_fsname(opts->source);
	int rc = !fsname || fuse_opt_add_arg(args, fsname) != 0 ||
		 fuse_opt_add_arg(args, "-oro,subtype=nmodel,default_permissions") != 0;
	free(fsname);
	return rc ? -1 : 0;
}

void nm_mount_usage(const char *prog)
{
	printf("usage: %s SOURCE MOUNTPOINT [options]\n\n"
	       "Shows the 3D model SOURCE (CMB, BMD/BDL, CMOD, Tropical Freeze models and PAKs)\n"
	       "as a read-only directory tree at MOUNTPOINT.\n\n"
	       "nmodelfs options:\n",
	       prog);
	nm_options_usage(stdout, NM_OPTION_MOUNT);
	printf("    -h, --help               this help\n"
	       "    -V, --version            version\n\n");
}
