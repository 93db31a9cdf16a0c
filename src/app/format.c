#include "app/format.h"

#include <stdarg.h>
#include <stdio.h>

bool app_format(char* out, size_t size, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(out, size, fmt, args);
    va_end(args);
    return n >= 0 && (size_t)n < size;
}
