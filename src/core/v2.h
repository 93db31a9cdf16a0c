// The two-double vector (cs_v2) the solver's kernels and the world's health check are written with.
#ifndef CS_CORE_V2_H
#define CS_CORE_V2_H

#include <stdint.h>
#include <string.h>

// Two doubles in one 16-byte vector register (SSE2 on x86-64, NEON on arm64). GCC and Clang vector
// extensions: element-wise + − × are the same IEEE operations as on scalars, so a kernel written with
// them gives the same bits as the scalar sums it spells out; it only needs fewer instructions.
typedef double cs_v2 __attribute__((vector_size(16)));

static inline cs_v2 cs_v2_load(const double* p)
{
    cs_v2 x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline void cs_v2_store(double* p, cs_v2 x)
{
    memcpy(p, &x, sizeof x);
}

static inline cs_v2 cs_v2_set(double x0, double x1)
{
    cs_v2 x = {x0, x1};
    return x;
}

// The bits of x − x: +0 (no bit set) for a finite x, NaN for ±inf and NaN. OR-ed over many numbers, the
// result is 0 exactly when all are finite (OR has no rounding: any order, no branch). check.c, solve.c.
typedef uint64_t cs_u2 __attribute__((vector_size(16)));

static inline cs_u2 cs_nonfinite_bits(cs_v2 x)
{
    return (cs_u2)(x - x);
}

#endif
