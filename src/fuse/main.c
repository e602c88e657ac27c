/* mount.nmodel SOURCE MOUNTPOINT [-o opts]: parse the model in the foreground, so a bad
 * file fails with one line and a non-zero exit before anything is mounted; then mount,
 * go to the background (unless -f) and serve the tree with a multithreaded loop. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include "config.h"
#include "formats/driver.h"
#include "fuse/ops.h"

/* libfuse's own messages for these are cryptic; say plainly what is wrong, before any
 * work. A directory something is already mounted on counts as busy. */
static int check_mountpoint(const char *dir)
{
	struct stat st, parent;
	char up[4096];
	if (stat(dir, &st) != 0) {
		fprintf(stderr, "mount.nmodel: %s: mount point does not exist\n", dir);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "mount.nmodel: %s: mount point is not a directory\n", dir);
		return -1;
	}
	snprintf(up, sizeof up, "%s/..", dir);
	if (stat(up, &parent) == 0 && (parent.st_dev != st.st_dev || parent.st_ino == st.st_ino)) {
		fprintf(stderr, "mount.nmodel: %s: mount point is busy (something is mounted there)\n",
			dir);
		return -1;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts cmd = { 0 };
	nm_mount_options opts = { 0 };
	nm_fs fs = { 0 };
	nm_error err;
	struct fuse_session *se = NULL;
	int rc = 1;

	/* Decoded files are large, short-lived blocks freed by other threads than the one
	 * that made them. glibc raises its mmap threshold to the largest block freed, after
	 * which such blocks come from per-thread arenas that keep them: the daemon's RSS then
	 * grows far past -o cache_size (101 MiB for one 6 MB mesh.obj under 8 readers). A
	 * fixed threshold gives every large block back to the kernel when it is freed. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);

	if (nm_mount_parse_options(&args, &opts) != 0)
		goto out;
	if (fuse_parse_cmdline(&args, &cmd) != 0)
		goto out;
	if (opts.show_help || cmd.show_help) {
		nm_mount_usage(argv[0]);
		fuse_cmdline_help();
		fuse_lowlevel_help();
		rc = 0;
		goto out;
	}
	if (opts.show_version || cmd.show_version) {
		printf("mount.nmodel (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		fuse_lowlevel_version();
		rc = 0;
		goto out;
	}
	if (!cmd.mountpoint) {
		fprintf(stderr, "mount.nmodel: no mount point given (try --help)\n");
		goto out;
	}
	if (check_mountpoint(cmd.mountpoint) != 0)
		goto out;
	if (nm_open_model(opts.source, &opts.model, &fs.tree, &err) != NM_OK) {
		fprintf(stderr, "mount.nmodel: %s\n", err.msg);
		goto out;
	}
	stat(opts.source, &fs.source);
	fs.foreground = cmd.foreground;

	se = fuse_session_new(&args, &nm_fuse_ops, sizeof nm_fuse_ops, &fs);
	if (!se)
		goto out;
	if (fuse_set_signal_handlers(se) != 0)
		goto out;
	if (fuse_session_mount(se, cmd.mountpoint) != 0)
		goto out_signals;
	if (!cmd.foreground)
		openlog("mount.nmodel", LOG_PID, LOG_USER);
	fuse_daemonize(cmd.foreground);
	if (cmd.singlethread) {
		rc = fuse_session_loop(se) != 0;
	} else {
		struct fuse_loop_config cfg = { .clone_fd = cmd.clone_fd,
						.max_idle_threads = cmd.max_idle_threads };
		rc = fuse_session_loop_mt(se, &cfg) != 0;
	}
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out:
	if (se)
		fuse_session_destroy(se);
	nm_tree_free(fs.tree);
	free(cmd.mountpoint);
	free(opts.source);
	fuse_opt_free_args(&args);
	return rc;
}
