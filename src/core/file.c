#include "core/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cs_status cs_read_file(const char* path, size_t max_bytes, char** text, size_t* length, cs_error* err)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    size_t capacity = 1 << 16, used = 0;
    char* buffer = malloc(capacity);
    cs_status status = buffer != NULL ? CS_OK : CS_ERR_MEMORY;
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
