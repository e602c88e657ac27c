/* The extract stamp (stamp.c): lets `nmodel apply` skip the files of DIR that are as
 * `nmodel extract` wrote them, so an apply after one edit costs that edit, not the
 * whole tree. */
#ifndef NM_CLI_STAMP_H
#define NM_CLI_STAMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

typedef struct nm_stamp {
	bool valid;       /* the stamp names this FILE as it is now */
	int64_t begun_ns; /* when the extract began, on the file system's clock */
	int64_t ended_ns; /* when it ended */
} nm_stamp;

/* Before an extract into dir: voids an old stamp; the time on dir's file system's
 * clock, or -1 when it keeps no stamp. */
int64_t nm_stamp_begin(const char *dir);
/* After a whole extract of file into dir (a failure to write it is silent). */
void nm_stamp_write(const char *file, const char *dir, int64_t begun_ns);
/* dir's stamp, valid when it names file as it is now. */
bool nm_stamp_read(const char *file, const char *dir, nm_stamp *s);
/* A file of dir (its stat) is as extract wrote it. */
bool nm_stamp_unchanged(const nm_stamp *s, const struct stat *st);

#endif
