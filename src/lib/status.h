/* One status enum for the whole code base; mapped to errno only at the edges
 * (nm_status_errno), to text by nm_status_str. */
#ifndef NM_STATUS_H
#define NM_STATUS_H

typedef enum nm_status {
	NM_OK = 0,
	NM_E_IO,          /* the source could not be read (or changed under us) */
	NM_E_FORMAT,      /* the bytes do not follow the format */
	NM_E_UNSUPPORTED, /* a valid feature we do not decode */
	NM_E_NOMEM,
	NM_E_LIMIT,       /* a configured limit (size, count) would be exceeded */
	NM_E_NOENT,
	NM_E_NOTDIR,
	NM_E_ISDIR,
	NM_E_INVAL,       /* a caller passed bad arguments */
	NM_E_INTERNAL     /* a bug of ours: a producer wrote other than the size it announced */
} nm_status;

const char *nm_status_str(nm_status s);
int nm_status_errno(nm_status s); /* positive errno */

#endif
