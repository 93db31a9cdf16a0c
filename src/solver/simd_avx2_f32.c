// pgs-f32's lane kernels (pgs_f32.h): eight normal/friction pairs on sixteen distinct bodies in the lanes of
// AVX2 float vectors, or four on eight in SSE vectors, one body written once in pgs_f32_lanes.h. Each lane
// does pair_f32's operations (pgs_f32.c) in its order, separate multiplies and adds (no FMA:
// -ffp-contract=off, and these functions enable only AVX2), and clamps with max/min in the operand order that
// gives the branches' results (simd_avx2.c's rule; maxps returns its second operand unless first > second):
//     y < lo ? lo : y = max(lo, y),   y > hi ? hi : y = min(hi, y)
// so a lane has the scalar float path's bits.
#include "solver/pgs_f32.h"

#if CS_SIMD_X86

#include <immintrin.h>

#define CS_AVX2 __attribute__((target("avx2")))

// Eight lanes.
#define VEC           __m256
#define W             8
#define V_ADD         _mm256_add_ps
#define V_SUB         _mm256_sub_ps
#define V_MUL         _mm256_mul_ps
#define V_MAX         _mm256_max_ps
#define V_MIN         _mm256_min_ps
#define V_AND         _mm256_and_ps
#define V_XOR         _mm256_xor_ps
#define V_ZERO        _mm256_setzero_ps
#define V_SET1        _mm256_set1_ps
#define V_LD          _mm256_loadu_ps
#define V_ST          _mm256_storeu_ps
#define V_CMPGT(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define V_UNPACKLO    _mm256_unpacklo_ps
#define V_UNPACKHI    _mm256_unpackhi_ps
#define V_SHUFFLE     _mm256_shuffle_ps
#define V_LOAD_BODIES(dv, idx, k)                                                                            \
    _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps((dv) + (idx)[k])),                              \
                         _mm_loadu_ps((dv) + (idx)[(k) + 4]), 1)
#define V_STORE_BODIES(dv, idx, k, t)                                                                        \
    (_mm_storeu_ps((dv) + (idx)[k], _mm256_castps256_ps128(t)),                                              \
     _mm_storeu_ps((dv) + (idx)[(k) + 4], _mm256_extractf128_ps((t), 1)))
#define GATHER  gather8
#define SCATTER scatter8
#define KERNEL  lanes8
#include "solver/pgs_f32_lanes.h"
#undef VEC
#undef W
#undef V_ADD
#undef V_SUB
#undef V_MUL
#undef V_MAX
#undef V_MIN
#undef V_AND
#undef V_XOR
#undef V_ZERO
#undef V_SET1
#undef V_LD
#undef V_ST
#undef V_CMPGT
#undef V_UNPACKLO
#undef V_UNPACKHI
#undef V_SHUFFLE
#undef V_LOAD_BODIES
#undef V_STORE_BODIES
#undef GATHER
#undef SCATTER
#undef KERNEL

// Four lanes (the 128-bit forms of the same operations, VEX-encoded under the avx2 target).
#define VEC                           __m128
#define W                             4
#define V_ADD                         _mm_add_ps
#define V_SUB                         _mm_sub_ps
#define V_MUL                         _mm_mul_ps
#define V_MAX                         _mm_max_ps
#define V_MIN                         _mm_min_ps
#define V_AND                         _mm_and_ps
#define V_XOR                         _mm_xor_ps
#define V_ZERO                        _mm_setzero_ps
#define V_SET1                        _mm_set1_ps
#define V_LD                          _mm_loadu_ps
#define V_ST                          _mm_storeu_ps
#define V_CMPGT(a, b)                 _mm_cmpgt_ps(a, b)
#define V_UNPACKLO                    _mm_unpacklo_ps
#define V_UNPACKHI                    _mm_unpackhi_ps
#define V_SHUFFLE                     _mm_shuffle_ps
#define V_LOAD_BODIES(dv, idx, k)     _mm_loadu_ps((dv) + (idx)[k])
#define V_STORE_BODIES(dv, idx, k, t) _mm_storeu_ps((dv) + (idx)[k], (t))
#define GATHER                        gather4
#define SCATTER                       scatter4
#define KERNEL                        lanes4
#include "solver/pgs_f32_lanes.h"

CS_AVX2 void cs_avx2_sweep_f32(const cs_solve_ctx* ctx, const cs_f32_state* s, cs_f32_rows_fn rows)
{
    for (int k = 0; k < s->item_count; ++k)
    {
        const cs_sweep_item* it = s->item + k;
        if (it->quad < 0)
        {
            rows(ctx, s, it->first, it->first + it->count);
        }
        else if (it->count == 2 * CS_F32_LANES)
        {
            lanes8(s->lanes + it->quad, s->lambda + it->first, s->dv);
        }
        else
        {
            lanes4(s->lanes + it->quad, s->lambda + it->first, s->dv);
        }
    }
}

#endif
