// circlesim — basic types shared by every public header.
#ifndef CIRCLESIM_BASE_H
#define CIRCLESIM_BASE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct cs_vec2
    {
        double x, y;
    } cs_vec2;

    // Errors are values: a status and a one-line message ("FILE:LINE:COL: what, naming the key").
    typedef enum cs_status
    {
        CS_OK = 0,
        CS_ERR_IO,     // missing file, unreadable, cannot write
        CS_ERR_PARSE,  // syntax: bad JSON, bad LCP record, wrong counts
        CS_ERR_VALUE,  // well-formed but invalid: negative mass, unknown key, NaN, …
        CS_ERR_MEMORY, // allocation failed
        CS_ERR_USAGE,  // a caller passed something meaningless (unknown solver name, …)
    } cs_status;

#define CS_ERROR_MAX 512

    typedef struct cs_error
    {
        cs_status status;
        char message[CS_ERROR_MAX];
    } cs_error;

    // Fills err (when not NULL) and returns status, so that `return cs_fail(err, CS_ERR_IO, "...")` reads
    // well.
    cs_status cs_fail(cs_error* err, cs_status status, const char* fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;

    // Monotonic wall clock in seconds, for timings only (never feeds the simulation).
    double cs_seconds(void);

#ifdef __cplusplus
}
#endif

#endif
