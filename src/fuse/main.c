/* mount.nmodel SOURCE MOUNTPOINT [-o opts]: parse the model in the foreground, so a bad
 * file fails with one line and a non-zero exit before anything is mounted; then mount,
 * go to the background (unless -f) and serve the tree with a multithreaded loop. */
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "config.h"
#include "formats/driver.h"
#include "fuse/ahead.h"
#include "fuse/idle.h"
#include "fuse/log.h"
#include "fuse/loop.h"
#include "fuse/mountpoint.h"
#include "fuse/ops.h"
#include "fuse/prefill.h"
#include "fuse/swap.h"
#include "fuse/wops.h"
#include "lib/path.h"
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

/* -o rw on a folder: save= names a folder (each changed file is written under it at
 * its path), and neither it nor the overlay lies in the folder read. */
static int check_folder(const nm_fuse_options *opts)
{
	struct stat out;
	const char *in = nm_path_inside(opts->save, opts->source) ? "save"
			 : nm_path_inside(opts->overlay, opts->source) ? "overlay" : NULL;
	if (in) {
		nm_fuse_say("-o %s=%s: inside the folder %s: a save never writes into the "
			    "folder it reads", in, *in == 's' ? opts->save : opts->overlay,
			    opts->source);
		return -1;
	}
	if (opts->save && stat(opts->save, &out) == 0 && !S_ISDIR(out.st_mode)) {
		nm_fuse_say("-o save=%s: not a folder: a folder's mount writes each changed "
			    "file under save=DIR at its path", opts->save);
		return -1;
	}
	return 0;
}

/* -o rw: OUT must not be the model file itself (the same inode, a hard link
 * included), nor inside the mount point. 0 or -1 after saying why. */
static int check_writable(const nm_fuse_options *opts)
{
	struct stat src, out;
	if (stat(opts->source, &src) != 0)
		return 0; /* opening it says why */
	if (S_ISDIR(src.st_mode) && check_folder(opts) != 0)
		return -1;
	if (opts->save && stat(opts->save, &out) == 0 && out.st_dev == src.st_dev &&
	    out.st_ino == src.st_ino) {
		nm_fuse_say("-o save=%s: is %s itself: a save never writes the model it reads",
			    opts->save, opts->source);
		return -1;
	}
	if (nm_path_inside(opts->save, opts->mountpoint) || nm_path_inside(opts->overlay, opts->mountpoint)) {
		nm_fuse_say("-o %s=%s: inside the mount point %s: the daemon would write into "
			    "its own mount", nm_path_inside(opts->save, opts->mountpoint) ? "save" : "overlay",
			    nm_path_inside(opts->save, opts->mountpoint) ? opts->save : opts->overlay,
			    opts->mountpoint);
		return -1;
	}
	return 0;
}

/* A relative save= made absolute (in place): the daemon works from / once in the
 * background, and the user meant where they started it. 0 or -1 (out of memory). */
static int absolute_save(nm_fuse_options *opts)
{
	char cwd[PATH_MAX];
	if (!opts->save || opts->save[0] == '/' || !getcwd(cwd, sizeof cwd))
		return 0;
	char *abs = malloc(strlen(cwd) + strlen(opts->save) + 2);
	if (!abs)
		return -1;
	sprintf(abs, "%s/%s", cwd, opts->save);
	free(opts->save);
	opts->save = abs;
	return 0;
}

/* A libfuse call failed: one line of ours, quoting what libfuse said about it (held by
 * fuse/log.c rather than printed as its own "fuse: ..." line). */
static void failed(const char *what)
{
	const char *why = nm_fuse_log_held();
	nm_fuse_say("%s%s%s", what, *why ? ": " : "", why);
}

/* The loop's threads: libfuse's default count (10) unless -s or -o max_threads says
 * otherwise; -o max_idle_threads as libfuse reads it (unset: UINT_MAX, all kept). */
static int serve(struct fuse_session *se, const struct fuse_cmdline_opts *cmd,
		 const nm_fuse_options *opts, const nm_fuse_fs *fs)
{
	unsigned threads = cmd->singlethread ? 1
			   : opts->max_threads ? opts->max_threads
					       : cmd->max_threads;
	return nm_fuse_loop(se, threads, cmd->max_idle_threads, fs->idle);
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts cmd = { 0 };
	nm_fuse_options opts = { 0 };
	nm_fuse_fs fs = { 0 };
	nm_error err;
	struct fuse_session *se = NULL;
	char *mountpoint = NULL;
	int rc = 1;

	/* Decoded files are large, short-lived blocks freed by other threads than the one
	 * that made them. glibc raises its mmap threshold to the largest block freed, after
	 * which such blocks come from per-thread arenas that keep them: the daemon's RSS then
	 * grows far past -o cache_size (101 MiB for one 6 MB mesh.obj under 8 readers). A
	 * fixed threshold gives every large block back to the kernel when it is freed. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	/* One heap for all threads: the tree evicts archive members' small blocks, and
	 * blocks freed into many per-thread arenas stay resident long after. */
	mallopt(M_ARENA_MAX, 1);
	nm_fuse_log_init();

	if (nm_fuse_parse_options(&args, &opts) != 0) {
		if (*nm_fuse_log_held())
			failed("bad options");
		goto out;
	}
	if (opts.show_help) {
		nm_fuse_usage(argv[0]);
		rc = 0;
		goto out;
	}
	if (opts.show_version) {
		printf("mount.nmodel (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		fflush(stdout); /* before the fusermount3 that fuse_lowlevel_version runs */
		fuse_lowlevel_version();
		rc = 0;
		goto out;
	}
	if (fuse_parse_cmdline(&args, &cmd) != 0) {
		failed("bad options");
		goto out;
	}
	mountpoint = nm_fuse_check_mountpoint(opts.mountpoint);
	if (!mountpoint)
		goto out;
	fs.path = opts.source;
	/* A request about to run a decoder or a parse lets another thread take the next
	 * ones meanwhile (fuse/loop.c). */
	opts.model.before_long_work = nm_fuse_loop_step_aside;
	if (opts.rw && (absolute_save(&opts) != 0 || check_writable(&opts) != 0))
		goto out;
	opts.model.editable = opts.rw; /* record files get their inverses */
	if (nm_open_model(opts.source, &opts.model, &fs.tree, &err) != NM_OK) {
		nm_fuse_say_error(&fs, &err);
		goto out;
	}
	if (opts.rw) {
		/* Inode numbers are per path (fuse/inodes.h), and the trees stay whole. */
		fs.writable = nm_wfs_open(fs.tree, &opts.model, opts.source, opts.save,
					  opts.overlay, &err);
		if (!fs.writable) {
			nm_fuse_say_error(&fs, &err);
			goto out;
		}
	} else {
		/* Inode numbers are node ids: archive members' nodes may come and go. */
		nm_tree_allow_eviction(fs.tree);
	}
	stat(opts.source, &fs.source);
	if (nm_fuse_log_open(opts.log_file, cmd.foreground) != 0)
		goto out;

	se = fs.writable ? fuse_session_new(&args, &nm_fuse_wops, sizeof nm_fuse_wops, &fs)
			 : fuse_session_new(&args, &nm_fuse_ops, sizeof nm_fuse_ops, &fs);
	if (!se) {
		failed("cannot start a FUSE session");
		goto out;
	}
	fs.se = se;
	if (fuse_set_signal_handlers(se) != 0) {
		failed("cannot set signal handlers");
		goto out;
	}
	if (fuse_session_mount(se, mountpoint) != 0) {
		char what[PATH_MAX + 32];
		snprintf(what, sizeof what, "%s: cannot mount", opts.mountpoint);
		failed(what);
		goto out_signals;
	}
	nm_fuse_log_release();
	fuse_daemonize(cmd.foreground);
	nm_fuse_log_detach();
	if (fs.writable && nm_swap_start(fs.writable, se) != 0)
		nm_fuse_say("cannot start the thread that drops the kernel's caches after a save");
	/* The prefill hands files by node id: not under -o rw, whose numbers are per path. */
	if (nm_fuse_prefill_start(&fs, opts.prefill && !fs.writable ? opts.model.cache_size : 0) != 0)
		nm_fuse_say("cannot start the prefill thread: every file is READ on first use");
	/* A reader may want part of a file (head, a file manager's sniffing): by ranges. */
	nm_tree_allow_ranges(fs.tree);
	/* and one large decode may use every CPU (mesh.obj in pieces), or as few threads
	 * as -s and -o max_threads allow the requests. */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned split = cpus > 0 ? (unsigned)cpus : 1;
	if (cmd.singlethread || (opts.max_threads && opts.max_threads < split))
		split = cmd.singlethread ? 1 : opts.max_threads;
	nm_tree_split_threads(fs.tree, split);
	if (opts.prefill && nm_fuse_ahead_start(&fs, opts.model.cache_size) != 0)
		nm_fuse_say("cannot start the producing-ahead thread: files are made on READ");
	if (opts.idle_timeout && !(fs.idle = nm_fuse_idle_start(mountpoint, opts.idle_timeout)))
		nm_fuse_say("cannot start the idle_timeout thread: the mount stays until unmounted");
	rc = serve(se, &cmd, &opts, &fs) != 0;
	nm_fuse_idle_stop(fs.idle);
	nm_fuse_ahead_stop(&fs);
	nm_fuse_prefill_stop(&fs);
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out:
	if (se)
		fuse_session_destroy(se);
	nm_fuse_log_close();
	nm_wfs_close(fs.writable);
	nm_tree_free(fs.tree);
	free(mountpoint);
	free(cmd.mountpoint);
	nm_fuse_options_free(&opts);
	fuse_opt_free_args(&args);
	return rc;
}
