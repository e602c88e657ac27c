#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse/options.h"

enum { KEY_HELP, KEY_VERSION, KEY_DISCARD };

struct parse_state {
	nm_mount_options *opts;
	unsigned cache_mib;
	unsigned max_file_mib;
};

static const struct fuse_opt option_spec[] = {
	{ "cache_size=%u", offsetof(struct parse_state, cache_mib), 0 },
	{ "max_file_size=%u", offsetof(struct parse_state, max_file_mib), 0 },
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
	struct parse_state *st = data;
	(void)out;
	switch (key) {
	case KEY_HELP:
		st->opts->show_help = 1;
		return 1;   /* libfuse prints its part of the help too */
	case KEY_VERSION:
		st->opts->show_version = 1;
		return 1;
	case KEY_DISCARD:
		return 0;
	case FUSE_OPT_KEY_NONOPT:
		if (!st->opts->source) {
			st->opts->source = realpath(arg, NULL);
			if (!st->opts->source)
				st->opts->source = strdup(arg); /* the open will report it */
			return 0;
		}
		return 1;   /* the mount point, for fuse_parse_cmdline */
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
	struct parse_state st = { .opts = opts, .cache_mib = NM_DEFAULT_CACHE_MIB,
				  .max_file_mib = NM_DEFAULT_MAX_FILE_MIB };
	if (fuse_opt_parse(args, &st, option_spec, on_option) != 0)
		return -1;
	if (st.cache_mib == 0 || st.cache_mib > 1u << 20) {
		fprintf(stderr, "mount.nmodel: cache_size must be between 1 and 1048576 MiB\n");
		return -1;
	}
	if (st.max_file_mib == 0 || st.max_file_mib > 1u << 20) {
		fprintf(stderr, "mount.nmodel: max_file_size must be between 1 and 1048576 MiB\n");
		return -1;
	}
	opts->cache_bytes = (size_t)st.cache_mib << 20;
	opts->max_file_bytes = (size_t)st.max_file_mib << 20;
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
	       "nmodelfs options:\n"
	       "    -o cache_size=MiB      memory for decoded files (default %u)\n"
	       "    -o max_file_size=MiB   largest file or buffer a decoder may make (default %u)\n"
	       "    -h, --help             this help\n"
	       "    -V, --version          version\n\n",
	       prog, NM_DEFAULT_CACHE_MIB, NM_DEFAULT_MAX_FILE_MIB);
}
