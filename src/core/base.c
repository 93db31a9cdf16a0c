// Error values and the clock: the two things every layer needs.
#include "circlesim/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

cs_status cs_fail(cs_error* err, cs_status status, const char* fmt, ...)
{
    if (err != NULL)
    {
        err->status = status;
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
    }
    return status;
}

double cs_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
