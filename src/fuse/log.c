#include <errno.h>
#include <fcntl.h>
#include <fuse_log.h>
#include <limits.h>
#include <paths.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include "fuse/log.h"

#define PREFIX "mount.nmodel: "

enum dest { TO_STDERR, TO_SYSLOG, TO_FILE, TO_NOWHERE };

static enum dest now = TO_STDERR;   /* where a message goes at this moment */
static enum dest later = TO_STDERR; /* where it goes once the daemon has detached */
static int log_fd = -1;

/* libfuse's messages: it writes some lines in pieces, so they are put together here;
 * during setup whole lines are held rather than printed. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool holding;
static char held[1024];
static char partial[1024];

static void emit(const char *msg)
{
	switch (now) {
	case TO_STDERR:
		fprintf(stderr, PREFIX "%s\n", msg);
		break;
	case TO_SYSLOG:
		syslog(LOG_ERR, "%s", msg);
		break;
	case TO_FILE: {
		/* One write per line: O_APPEND keeps the lines of several daemons whole. */
		char stamp[40], line[1200];
		struct tm tm;
		time_t t = time(NULL);
		localtime_r(&t, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S%z", &tm);
		int n = snprintf(line, sizeof line, "%s " PREFIX "%s\n", stamp, msg);
		if (n < 0)
			break;
		if ((size_t)n >= sizeof line) {
			n = (int)sizeof line - 1;
			line[n - 1] = '\n';
		}
		ssize_t w = write(log_fd, line, (size_t)n);
		(void)w; /* a log that cannot be written has nowhere to say so */
		break;
	}
	case TO_NOWHERE:
		break;
	}
}

void nm_fuse_say(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	emit(msg);
}

/* One whole line of libfuse's, under lock. */
static void libfuse_line(const char *text)
{
	/* "fuse: " would make the line look like another program's. */
	if (strncmp(text, "fuse: ", 6) == 0)
		text += 6;
	if (!*text)
		return;
	if (!holding) {
		emit(text);
		return;
	}
	size_t n = strlen(held);
	if (snprintf(held + n, sizeof held - n, "%s%s", n ? "; " : "", text) < 0)
		held[n] = '\0';
}

/* The line being written so far, as a whole line (under lock). */
static void flush_partial(void)
{
	libfuse_line(partial);
	partial[0] = '\0';
}

static void from_libfuse(enum fuse_log_level level, const char *fmt, va_list ap)
{
	/* -d's request traces are not errors: they stay as libfuse prints them. */
	if (level == FUSE_LOG_DEBUG) {
		vfprintf(stderr, fmt, ap);
		return;
	}
	pthread_mutex_lock(&lock);
	size_t n = strlen(partial);
	vsnprintf(partial + n, sizeof partial - n, fmt, ap);
	char *nl;
	while ((nl = strchr(partial, '\n'))) {
		*nl = '\0';
		libfuse_line(partial);
		memmove(partial, nl + 1, strlen(nl + 1) + 1);
	}
	if (strlen(partial) == sizeof partial - 1) /* no newline in sight: keep what fits */
		flush_partial();
	pthread_mutex_unlock(&lock);
}

void nm_fuse_log_init(void)
{
	holding = true;
	fuse_set_log_func(from_libfuse);
}

const char *nm_fuse_log_held(void)
{
	pthread_mutex_lock(&lock);
	flush_partial(); /* a line libfuse did not end before it failed */
	pthread_mutex_unlock(&lock);
	return held;
}

void nm_fuse_log_release(void)
{
	const char *text = nm_fuse_log_held();
	pthread_mutex_lock(&lock);
	holding = false;
	if (*text)
		emit(text);
	held[0] = '\0';
	pthread_mutex_unlock(&lock);
}

/* Appended to by every daemon that logs there; readable by others, who may want to know
 * why a file of the mount fails. */
static int open_log(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
}

static bool syslog_present(void)
{
	struct stat st;
	return stat(_PATH_LOG, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* $XDG_STATE_HOME/nmodelfs/mount.nmodel.log, XDG_STATE_HOME defaulting to ~/.local/state:
 * the place the XDG base directory specification gives to logs. Directories it creates
 * are the user's alone (0700), as that specification asks. */
static int open_default(char *path, size_t cap)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char base[PATH_MAX];
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	/* The specification says to ignore a relative XDG_STATE_HOME. */
	if (state && state[0] == '/') {
		snprintf(base, sizeof base, "%s", state);
	} else if (home) {
		snprintf(base, sizeof base, "%s/.local", home);
		mkdir(base, 0700);
		snprintf(base, sizeof base, "%s/.local/state", home);
	} else {
		snprintf(path, cap, "~/.local/state/nmodelfs/mount.nmodel.log");
		errno = ENOENT;
		return -1;
	}
	mkdir(base, 0700);
	int n = snprintf(path, cap, "%s/nmodelfs", base);
	if (n < 0 || (size_t)n + sizeof "/mount.nmodel.log" > cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	mkdir(path, 0700);
	strcat(path, "/mount.nmodel.log");
	return open_log(path);
}

int nm_fuse_log_open(const char *file, bool foreground)
{
	char path[PATH_MAX];
	if (file) {
		log_fd = open_log(file);
		if (log_fd < 0) {
			nm_fuse_say("%s: cannot open the log file: %s", file, strerror(errno));
			return -1;
		}
		later = TO_FILE;
	} else if (foreground) {
		later = TO_STDERR;
	} else if (syslog_present()) {
		later = TO_SYSLOG;
	} else if ((log_fd = open_default(path, sizeof path)) >= 0) {
		later = TO_FILE;
	} else {
		/* Mounting is still worth it; the user learns how to get the messages. */
		nm_fuse_say("no syslog here, and %s: %s: errors will not be logged "
			    "(-o log=FILE names a log)", path, strerror(errno));
		later = TO_NOWHERE;
	}
	return 0;
}

void nm_fuse_log_detach(void)
{
	if (later == TO_SYSLOG)
		openlog("mount.nmodel", LOG_PID, LOG_USER);
	now = later;
}

void nm_fuse_log_close(void)
{
	if (now == TO_SYSLOG)
		closelog();
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
	now = TO_STDERR;
}
