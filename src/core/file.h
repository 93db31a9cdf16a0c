// Reading a whole file: the scene loader and the LCP reader both need the text in one NUL-terminated buffer.
#ifndef CS_FILE_H
#define CS_FILE_H

#include <stddef.h>

#include "circlesim/base.h"

// Reads path into a malloc'ed NUL-terminated buffer (*length excludes the terminator; the caller frees it).
// max_bytes > 0 refuses larger files. Errors: "PATH: cannot open: …", "PATH: cannot read: …",
// "PATH: cannot read: larger than N MiB", "PATH: out of memory reading the file".
cs_status cs_read_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err);

#endif
