/* Paths on the real file system, as the front ends check them before writing. */
#ifndef NM_PATH_H
#define NM_PATH_H

#include <stdbool.h>

/* Whether path (a file or folder, existing or not: then its folder) is dir or lies
 * under it, links resolved. */
bool nm_path_inside(const char *path, const char *dir);

#endif
