// Reading a whole file: the scene loader and the LCP reader both need the text in one NUL-terminated buffer.
#ifndef CS_FILE_H
#define CS_FILE_H

#include <stddef.h>

#include "circlesim/base.h"

// Reads path into a malloc'ed NUL-terminated buffer (*length excludes the terminator; the caller frees it).
// max_bytes > 0 refuses larger files. Errors: "PATH: cannot open: …", "PATH: cannot read: …",
// "PATH: cannot read: larger than N MiB", "PATH: out of memory reading the file".
// A regular file over max_bytes is refused before it is read; a device or pipe when it reaches the limit.
cs_status cs_read_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err);
// The same for text formats: also stops at the first NUL byte ("PATH: byte N is NUL: not a text file"),
// so /dev/zero or a binary file fails at once instead of at the size limit.
cs_status cs_read_text_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err);

// Size limits of the readers (a typo'd path to a disk image must fail fast, not fill memory).
#define CS_SCENE_MAX_FILE_BYTES ((size_t)64 * 1024 * 1024)
// Frozen problems and snapshots are machine-written and scale with the world: a 50 000-circle pool's
// problem is ~60 MB of text, a snapshot of the scene cap (10^6 bodies) ~300 MB.
#define CS_LCP_MAX_FILE_BYTES      ((size_t)256 * 1024 * 1024)
#define CS_SNAPSHOT_MAX_FILE_BYTES ((size_t)512 * 1024 * 1024)

#endif
