/* Where mount.nmodel's messages go. Every line starts with "mount.nmodel: ", whoever wrote
 * it: libfuse's own messages are routed here too. Until the daemon leaves the terminal they
 * go to stderr; after that to -o log=FILE when given, else to syslog, else (no syslog on
 * this machine) to a file in the user's state directory, so that a decode error in the
 * background is never lost in /dev/null. */
#ifndef NM_FUSE_LOG_H
#define NM_FUSE_LOG_H

#include <stdbool.h>

/* Take over libfuse's messages. Until nm_fuse_log_release, they are held (not printed):
 * a libfuse call that fails then ends in one line of ours that quotes them. */
void nm_fuse_log_init(void);
/* What libfuse said since nm_fuse_log_init, as one line ("" when nothing). */
const char *nm_fuse_log_held(void);
/* Print what is held (libfuse's warnings of a setup that worked) and stop holding. */
void nm_fuse_log_release(void);

/* One message, printf-style, without the prefix and the newline. Safe from any thread. */
void nm_fuse_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Choose where messages go once the daemon runs: file (-o log=FILE, or NULL) is opened
 * now, so that a bad one fails the mount. 0, or -1 after saying why. */
int nm_fuse_log_open(const char *file, bool foreground);
/* Switch to that destination: call once the daemon has left the terminal. */
void nm_fuse_log_detach(void);
void nm_fuse_log_close(void);

#endif
