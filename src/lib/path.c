#include <stdlib.h>
#include <string.h>
#include "lib/path.h"

bool nm_path_inside(const char *path, const char *dir)
{
	if (!path)
		return false;
	char *d = realpath(dir, NULL), *p = realpath(path, NULL);
	if (!p) { /* not there yet: its folder */
		char *copy = strdup(path), *slash = copy ? strrchr(copy, '/') : NULL;
		if (slash)
			*slash = '\0';
		p = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
		free(copy);
	}
	size_t n = d ? strlen(d) : 0;
	bool in = d && p && strncmp(p, d, n) == 0 && (p[n] == '/' || p[n] == '\0' || n == 1);
	free(d);
	free(p);
	return in;
}
