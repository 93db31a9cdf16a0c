// The CPU check (cpu.h).
#include "core/cpu.h"

#if CS_SIMD_X86

// Asked afresh each time (once per solve or broad-phase search): libgcc fills the CPU model before main, so
// this is a load and a test, and there is no cache for two threads to race on.
bool cs_simd_cpu(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}

#else

bool cs_simd_cpu(void)
{
    return false;
}

#endif
