#include "core/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// A regular file's size is known before reading a byte: refuse one over the limit at once instead of
// reading it first. Devices and pipes have no size; the read loop stops them at the limit.
static cs_status check_size(FILE* f, const char* path, size_t max_bytes, cs_error* err)
{
    struct stat st;
    if (max_bytes > 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > max_bytes)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot read: larger than %zu MiB (%lld bytes)", path,
                       max_bytes / (1024 * 1024), (long long)st.st_size);
    }
    return CS_OK;
}

static cs_status read_all(const char* path, size_t max_bytes, bool text_only, char** text, size_t* length,
                          cs_error* err)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    cs_status status = check_size(f, path, max_bytes, err);
    if (status != CS_OK)
    {
        fclose(f);
        return status;
    }
    size_t capacity = 1 << 16, used = 0;
    char* buffer = malloc(capacity);
    status = buffer != NULL ? CS_OK : CS_ERR_MEMORY;
    while (status == CS_OK)
    {
        if (used + 1 >= capacity)
        {
            if (max_bytes > 0 && capacity >= max_bytes)
            {
                status = cs_fail(err, CS_ERR_IO, "%s: cannot read: larger than %zu MiB", path,
                                 max_bytes / (1024 * 1024));
                break;
            }
            char* grown = realloc(buffer, capacity * 2);
            if (grown == NULL)
            {
                status = CS_ERR_MEMORY;
                break;
            }
            buffer = grown;
            capacity *= 2;
        }
        size_t n = fread(buffer + used, 1, capacity - 1 - used, f);
        // A text format never holds a NUL byte: stop at the first one (/dev/zero, /dev/urandom, a binary
        // file) instead of reading on to the size limit.
        const char* nul = text_only && n > 0 ? memchr(buffer + used, '\0', n) : NULL;
        if (nul != NULL)
        {
            status = cs_fail(err, CS_ERR_PARSE, "%s: byte %zu is NUL: not a text file", path,
                             (size_t)(nul - buffer) + 1);
            break;
        }
        used += n;
        if (n == 0)
        {
            break;
        }
    }
    if (status == CS_OK && ferror(f))
    {
        status = cs_fail(err, CS_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    }
    fclose(f);
    if (status == CS_ERR_MEMORY)
    {
        cs_fail(err, CS_ERR_MEMORY, "%s: out of memory reading the file", path);
    }
    if (status != CS_OK)
    {
        free(buffer);
        return status;
    }
    buffer[used] = '\0';
    *text = buffer;
    *length = used;
    return CS_OK;
}

cs_status cs_read_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err)
{
    return read_all(path, max_bytes, false, text, length, err);
}

cs_status cs_read_text_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err)
{
    return read_all(path, max_bytes, true, text, length, err);
}
