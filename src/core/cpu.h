// What the CPU running us can do, for the code paths that pick a vector kernel at run time (the solver's
// sweeps, the broad phase's grid search). Every such path has a scalar twin that gives the same bits.
#ifndef CS_CORE_CPU_H
#define CS_CORE_CPU_H

#include <stdbool.h>

// Whether this build has the x86-64 AVX2 kernels at all (GCC or clang on x86-64).
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CS_SIMD_X86 1
#else
#define CS_SIMD_X86 0
#endif

// True when the AVX2 kernels can run here.
bool cs_simd_cpu(void);

#endif
