// circlesim viewer — text formatting shared by every viewer module (a leaf: includes nothing of app/).
#ifndef CS_APP_FORMAT_H
#define CS_APP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

// snprintf that reports truncation (false) instead of warning about it at compile time.
bool app_format(char* out, size_t size, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
