#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse/log.h"
#include "fuse/options.h"

/* libfuse refuses more threads than this (FUSE_LOOP_MT_MAX_THREADS, for idle threads). */
#define MAX_THREADS 100000
/* A year: longer is as good as never, which is 0, the default. */
#define MAX_IDLE_TIMEOUT (366u * 24 * 3600)

enum { KEY_HELP, KEY_VERSION, KEY_DISCARD, KEY_LOG, KEY_MAX_THREADS, KEY_IDLE_TIMEOUT,
       KEY_FSNAME, KEY_NOPREFILL, KEY_RW, KEY_RO, KEY_SAVE, KEY_OVERLAY };

/* Every option mount.nmodel takes. Our limits (cache_size=, ...) are not here: an -o item
 * that matches nothing reaches on_option, which gives it to nm_options_parse (one table
 * for both front ends, lib/options.c) and refuses it when that does not know it either. */
static const struct fuse_opt option_spec[] = {
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	FUSE_OPT_KEY("log=", KEY_LOG),
	FUSE_OPT_KEY("max_threads=", KEY_MAX_THREADS),
	FUSE_OPT_KEY("idle_timeout=", KEY_IDLE_TIMEOUT),
	FUSE_OPT_KEY("fsname=", KEY_FSNAME),
	FUSE_OPT_KEY("noprefill", KEY_NOPREFILL),
	FUSE_OPT_KEY("rw", KEY_RW),
	FUSE_OPT_KEY("ro", KEY_RO),
	FUSE_OPT_KEY("save=", KEY_SAVE),
	FUSE_OPT_KEY("overlay=", KEY_OVERLAY),
	/* mount(8), /etc/fstab and gvfs pass these; they mean nothing to a FUSE session.
	 * x-* too (on_option: a fuse_opt template cannot end in a wildcard). */
	FUSE_OPT_KEY("defaults", KEY_DISCARD),
	FUSE_OPT_KEY("auto", KEY_DISCARD),
	FUSE_OPT_KEY("noauto", KEY_DISCARD),
	FUSE_OPT_KEY("user", KEY_DISCARD),
	FUSE_OPT_KEY("nouser", KEY_DISCARD),
	FUSE_OPT_KEY("users", KEY_DISCARD),
	FUSE_OPT_KEY("_netdev", KEY_DISCARD),
	FUSE_OPT_KEY("nofail", KEY_DISCARD),
	FUSE_OPT_KEY("comment=", KEY_DISCARD),
	/* libfuse's, passed on as they are: fuse_parse_cmdline's (read by main.c's serve;
	 * clone_fd has no use in our loop, fuse/loop.c) ... */
	FUSE_OPT_KEY("-f", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("-d", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("-s", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("debug", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("clone_fd", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("max_idle_threads=", FUSE_OPT_KEY_KEEP),
	/* ... and fuse_session_new's (the session and the kernel's mount options). */
	FUSE_OPT_KEY("allow_other", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("allow_root", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("auto_unmount", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("default_permissions", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("max_read=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("context=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("fscontext=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("defcontext=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("rootcontext=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("user=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("-n", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("suid", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("nosuid", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("dev", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("nodev", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("exec", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("noexec", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("async", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("sync", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("dirsync", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("atime", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_KEY("noatime", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_END
};

/* What on_option needs besides the options: whether the user named the fsname. */
struct parse {
	nm_fuse_options *opts;
	int own_fsname;
};

/* "NAME=N", N from least to most, with the words nm_options_parse uses for a bad value. */
static int take_number(const char *arg, unsigned least, unsigned most, unsigned *out)
{
	const char *v = strchr(arg, '=') + 1;
	char *end = NULL;
	unsigned long n = 0;
	if (*v >= '0' && *v <= '9')
		n = strtoul(v, &end, 10);
	if (!end || *end || n < least || n > most) {
		nm_fuse_say("%.*s: must be a whole number from %u to %u, not \"%s\"",
			    (int)(v - 1 - arg), arg, least, most, v);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

/* "NAME=PATH" into *slot (log=, save=, overlay=); an empty PATH is refused, saying
 * what it needs ("a file name (-o log=FILE)"). */
static int take_path(const char *arg, char **slot, const char *needs)
{
	const char *file = strchr(arg, '=') + 1;
	if (!*file) {
		nm_fuse_say("%.*s: needs %s", (int)(file - 1 - arg), arg, needs);
		return -1;
	}
	free(*slot);
	*slot = strdup(file);
	return *slot ? 0 : -1;
}

/* SOURCE, then MOUNTPOINT, both kept as given; nothing after them. */
static int take_operand(nm_fuse_options *opts, const char *arg)
{
	char **slot = !opts->source ? &opts->source : !opts->mountpoint ? &opts->mountpoint : NULL;
	if (!slot) {
		nm_fuse_say("%s: unexpected argument (usage: mount.nmodel SOURCE MOUNTPOINT "
			    "[-o OPTIONS])", arg);
		return -1;
	}
	*slot = strdup(arg);
	return *slot ? 0 : -1;
}

/* An -o item or a dash option that the table does not know: one of our limits, x-*,
 * or a mistake. */
static int take_other(nm_fuse_options *opts, const char *arg)
{
	nm_error err;
	if (arg[0] == '-') {
		nm_fuse_say("%s: unknown option (see mount.nmodel --help)", arg);
		return -1;
	}
	if (strncmp(arg, "x-", 2) == 0)
		return 0;
	switch (nm_options_parse(&opts->model, arg, &err)) {
	case NM_OK:
		return 0;
	case NM_E_NOENT:
		nm_fuse_say("-o %s: unknown option (see mount.nmodel --help)", arg);
		return -1;
	default:
		nm_fuse_say("%s", err.msg);
		return -1;
	}
}

static int on_option(void *data, const char *arg, int key, struct fuse_args *out)
{
	struct parse *p = data;
	(void)out;
	switch (key) {
	case KEY_HELP:
		p->opts->show_help = 1;
		return 0;
	case KEY_VERSION:
		p->opts->show_version = 1;
		return 0;
	case KEY_DISCARD:
		return 0;
	case KEY_LOG:
		return take_path(arg, &p->opts->log_file, "a file name (-o log=FILE)");
	case KEY_SAVE:
		return take_path(arg, &p->opts->save, "a file or folder name (-o save=OUT)");
	case KEY_OVERLAY:
		return take_path(arg, &p->opts->overlay, "a folder (-o overlay=DIR)");
	case KEY_RW:
	case KEY_RO:
		p->opts->rw = key == KEY_RW; /* the last one given wins, as in mount(8) */
		return 0;
	case KEY_MAX_THREADS:
		return take_number(arg, 1, MAX_THREADS, &p->opts->max_threads);
	case KEY_IDLE_TIMEOUT:
		return take_number(arg, 0, MAX_IDLE_TIMEOUT, &p->opts->idle_timeout);
	case KEY_NOPREFILL:
		p->opts->prefill = false;
		return 0;
	case KEY_FSNAME:
		p->own_fsname = 1;
		return 1;
	case FUSE_OPT_KEY_NONOPT:
		return take_operand(p->opts, arg);
	default:
		return take_other(p->opts, arg);
	}
}

/* fsname is shown by mount(8) and df; commas and backslashes must be escaped there. An
 * absolute path, so that it means the same from anywhere. */
static char *fsname_option(const char *source)
{
	char *abs = realpath(source, NULL);
	const char *src = abs ? abs : source;
	size_t n = strlen(src);
	char *s = malloc(n * 2 + sizeof "-ofsname=");
	if (s) {
		char *p = s + sprintf(s, "-ofsname=");
		for (; *src; src++) {
			if (*src == ',' || *src == '\\')
				*p++ = '\\';
			*p++ = *src;
		}
		*p = '\0';
	}
	free(abs);
	return s;
}

int nm_fuse_parse_options(struct fuse_args *args, nm_fuse_options *opts)
{
	struct parse p = { .opts = opts };
	nm_options_init(&opts->model);
	opts->prefill = true;
	if (fuse_opt_parse(args, &p, option_spec, on_option) != 0)
		return -1;
	if (opts->show_help || opts->show_version)
		return 0;
	if (!opts->source) {
		nm_fuse_say("no model file given (usage: mount.nmodel SOURCE MOUNTPOINT; "
			    "see --help)");
		return -1;
	}
	if (!opts->mountpoint) {
		nm_fuse_say("no mount point given (usage: mount.nmodel SOURCE MOUNTPOINT; "
			    "see --help)");
		return -1;
	}
	if (!opts->rw && (opts->save || opts->overlay)) {
		nm_fuse_say("-o %s: only for a writable mount (add -o rw)",
			    opts->save ? "save=" : "overlay=");
		return -1;
	}
	char *fsname = p.own_fsname ? NULL : fsname_option(opts->source);
	int rc = (!p.own_fsname && (!fsname || fuse_opt_add_arg(args, fsname) != 0)) ||
		 fuse_opt_add_arg(args, opts->rw ? "-osubtype=nmodel,default_permissions"
						 : "-oro,subtype=nmodel,default_permissions") != 0;
	free(fsname);
	return rc ? -1 : 0;
}

void nm_fuse_options_free(nm_fuse_options *opts)
{
	free(opts->source);
	free(opts->mountpoint);
	free(opts->log_file);
	free(opts->save);
	free(opts->overlay);
}

void nm_fuse_usage(const char *prog)
{
	printf("usage: %s SOURCE MOUNTPOINT [-f] [-d] [-s] [-o OPTION[,OPTION...]]\n\n"
	       "Shows the 3D model SOURCE (CMB, BMD/BDL, CMOD, Tropical Freeze models and PAKs)\n"
	       "as a directory tree at MOUNTPOINT, read-only unless -o rw.\n\n"
	       "limits (nmodel takes them as --NAME=VALUE):\n",
	       prog);
	nm_options_usage(stdout, NM_OPTION_MOUNT);
	printf("\nmount options:\n"
	       "    -o log=FILE              where errors go in the background; default syslog,\n"
	       "                             without syslog ~/.local/state/nmodelfs/mount.nmodel.log\n"
	       "    -o max_threads=N         threads answering requests at most; default 10\n"
	       "    -o max_idle_threads=N    of those, kept waiting after a burst; default all\n"
	       "    -o idle_timeout=SECONDS  unmount once nothing has used the mount for that\n"
	       "                             long (no request, nothing open); retried while a\n"
	       "                             process works inside it; default 0: never\n"
	       "    -o noprefill             do not hand the kernel the small files beside the\n"
	       "                             first one read in a directory (each is then read\n"
	       "                             from the daemon on first use), nor produce the\n"
	       "                             large ones ahead of a reader walking it\n"
	       "    -f                       stay in the foreground, errors on stderr\n"
	       "    -d                       debug: foreground, every request printed\n"
	       "    -s                       one thread answers every request in turn\n"
	       "    -o allow_other           let other users see the tree (see fuse(8))\n"
	       "    -o allow_root            let root see the tree\n"
	       "    -o auto_unmount          unmount when mount.nmodel ends\n"
	       "    -o fsname=NAME           what mount(8) and df show; default SOURCE's path\n"
	       "    -o max_read=BYTES, nosuid, nodev, noexec, noatime, ...\n"
	       "                             passed to libfuse and the kernel\n"
	       "    -o clone_fd              accepted, no effect (one thread reads the device\n"
	       "                             at a time)\n"
	       "    -o rw                    writable: a saved file that maps to the model is\n"
	       "                             encoded into it (doc/writable.md); default ro\n"
	       "    -o save=OUT              with rw: the new model written to OUT at each save\n"
	       "                             (never SOURCE; a folder's: each changed file under\n"
	       "                             the folder OUT); without it edits stay in the overlay\n"
	       "    -o overlay=DIR           with rw: the edited files kept in DIR, as nmodel\n"
	       "                             apply reads them; default in memory\n"
	       "    -o defaults, auto, noauto, user, nouser, users, _netdev, nofail,\n"
	       "       comment=..., x-*      accepted and ignored (mount(8), fstab, gvfs)\n"
	       "    -h, --help               this help\n"
	       "    -V, --version            version\n");
}
