#include <errno.h>
#include "lib/status.h"

const char *nm_status_str(nm_status s)
{
	switch (s) {
	case NM_OK: return "success";
	case NM_E_IO: return "read error";
	case NM_E_FORMAT: return "malformed data";
	case NM_E_UNSUPPORTED: return "unsupported feature";
	case NM_E_NOMEM: return "out of memory";
	case NM_E_LIMIT: return "limit exceeded";
	case NM_E_NOENT: return "no such file or directory";
	case NM_E_NOTDIR: return "not a directory";
	case NM_E_ISDIR: return "is a directory";
	case NM_E_INVAL: return "invalid argument";
	case NM_E_INTERNAL: return "internal error";
	}
	return "unknown status";
}

/* Only the FUSE edge and the CLI's exit paths need errno values. Everything that is
 * wrong with the model's bytes is EIO to a reader: the file exists but cannot be made. */
int nm_status_errno(nm_status s)
{
	switch (s) {
	case NM_OK: return 0;
	case NM_E_NOMEM: return ENOMEM;
	case NM_E_LIMIT: return EFBIG;
	case NM_E_NOENT: return ENOENT;
	case NM_E_NOTDIR: return ENOTDIR;
	case NM_E_ISDIR: return EISDIR;
	case NM_E_INVAL: return EINVAL;
	case NM_E_IO:
	case NM_E_FORMAT:
	case NM_E_UNSUPPORTED:
	case NM_E_INTERNAL:
		return EIO;
	}
	return EIO;
}
