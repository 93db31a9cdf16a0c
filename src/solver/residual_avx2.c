// The residuals' AVX2 kernel (residual_avx2.h): four contacts' normal/friction pairs at once, pair k in lane
// cs_pair_lane(k) (the packing pass's lane order, simd.h), each lane the operations of residual.c's pair
// path on its pair in their order (no FMA: the library is built with -ffp-contract=off); the terms are then
// added to the sums one by one in row order, so the sums are the scalar pass's bits.
#include "solver/residual_avx2.h"

#include "solver/simd.h"

#if CS_SIMD_X86

#include <math.h>
#include <string.h>

#include "solver/simd_avx2.h"

// The four pairs' twelve Jacobian numbers by lane: jac[c] holds number c (normal row: a's x, y, ω, b's x, y,
// ω; then the friction row's) of pair k in lane cs_pair_lane(k). Rows i .. i + 7 are 48 consecutive
// numbers, pair k's twelve at 12k: three 4 × 4 transposes of the pairs' rows in lane order (0, 2, 1, 3).
static inline CS_AVX2 __attribute__((always_inline)) void pair_jacobians(const double* rows, __m256d jac[12])
{
    for (int g = 0; g < 3; ++g)
    {
        const double* at = rows + 4 * g;
        __m256d r[CS_LANES] = {_mm256_loadu_pd(at), _mm256_loadu_pd(at + 24), _mm256_loadu_pd(at + 12),
                               _mm256_loadu_pd(at + 36)};
        __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
        __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
        jac[4 * g + 0] = _mm256_permute2f128_pd(t0, t2, 0x20);
        jac[4 * g + 1] = _mm256_permute2f128_pd(t1, t3, 0x20);
        jac[4 * g + 2] = _mm256_permute2f128_pd(t0, t2, 0x31);
        jac[4 * g + 3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    }
}

// Whether rows i .. i + 7 are four normal/friction pairs: kinds n f n f n f n f, each friction row linked to
// the row before it and on its bodies. The normal rows' bodies by lane into *a and *b.
static inline CS_AVX2 bool four_pairs(const cs_lcp* p, int i, __m128i* a, __m128i* b)
{
    uint64_t kinds;
    memcpy(&kinds, p->kind + i, sizeof kinds);
    const uint64_t pair_kinds =
        CS_ROW_NORMAL * 0x0001000100010001ull + CS_ROW_FRICTION * 0x0100010001000100ull;
    if (kinds != pair_kinds)
    {
        return false;
    }
    __m256i ra = _mm256_loadu_si256((const __m256i*)(p->body_a + i));
    __m256i rb = _mm256_loadu_si256((const __m256i*)(p->body_b + i));
    __m256i link = _mm256_loadu_si256((const __m256i*)(p->link + i));
    // Each row against its pair partner (0xB1 swaps neighbours): a pair's two rows have the same bodies.
    __m256i same_bodies = _mm256_and_si256(_mm256_cmpeq_epi32(ra, _mm256_shuffle_epi32(ra, 0xB1)),
                                           _mm256_cmpeq_epi32(rb, _mm256_shuffle_epi32(rb, 0xB1)));
    // Odd rows link to i + 2k; the even (normal) rows' links are not read (all-ones there).
    __m256i want = _mm256_add_epi32(_mm256_set1_epi32(i), _mm256_setr_epi32(0, 0, 0, 2, 0, 4, 0, 6));
    __m256i even = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
    __m256i linked = _mm256_or_si256(_mm256_cmpeq_epi32(link, want), even);
    if (_mm256_movemask_epi8(_mm256_and_si256(same_bodies, linked)) != -1)
    {
        return false;
    }
    // The normal rows (i, i + 4, i + 2, i + 6) in lane order.
    const __m256i lanes = _mm256_setr_epi32(0, 4, 2, 6, 0, 4, 2, 6);
    *a = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(ra, lanes));
    *b = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(rb, lanes));
    return true;
}

// (j₀v₀ + j₁v₁) + j₂v₂ by lane (cs_row_jv's order for one half).
static inline CS_AVX2 __m256d dot_lanes(const __m256d* j, __m256d vx, __m256d vy, __m256d vw)
{
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(j[0], vx), _mm256_mul_pd(j[1], vy)),
                         _mm256_mul_pd(j[2], vw));
}

// One half's J·v of the normal rows (into *n) and of the friction rows (*f): j the half's numbers of the
// normal row (its friction row's six later), v from the slots `slot`.
static inline CS_AVX2 void half_jv(const __m256d* j, const double* v, const int32_t* slot, __m256d* n,
                                   __m256d* f)
{
    __m256d vx, vy;
    gather_xy(v, slot, &vx, &vy);
    __m256d vw = gather_w(v, slot);
    *n = dot_lanes(j, vx, vy, vw);
    *f = dot_lanes(j + 6, vx, vy, vw);
}

// x < lo ? lo : (x > hi ? hi : x), lane by lane (cs_clamp: a NaN x stays x).
static inline CS_AVX2 __m256d clamp_lanes(__m256d x, __m256d lo, __m256d hi)
{
    __m256d upper = _mm256_blendv_pd(x, hi, _mm256_cmp_pd(x, hi, _CMP_GT_OQ));
    return _mm256_blendv_pd(upper, lo, _mm256_cmp_pd(x, lo, _CMP_LT_OQ));
}

// Rows i .. i + 7's terms (four_pairs holds; a and b are the normal rows' bodies by lane).
static inline CS_AVX2 __attribute__((always_inline)) void four_pair_terms(const cs_lcp* p, const double* v,
                                                                          const double* lambda, int i,
                                                                          __m128i a, __m128i b,
                                                                          double* sum_lcp, double* sum_nat)
{
    // Slots 3·body; a missing half (-1) reads body 0 (p has a body: a pair has one) and is masked out.
    __m128i none = _mm_set1_epi32(-1), zero = _mm_setzero_si128();
    __m128i has_a = _mm_cmpgt_epi32(a, none), has_b = _mm_cmpgt_epi32(b, none);
    __m128i ca = _mm_max_epi32(a, zero), cb = _mm_max_epi32(b, zero);
    int32_t slot_a[CS_LANES], slot_b[CS_LANES];
    _mm_storeu_si128((__m128i*)slot_a, _mm_add_epi32(_mm_add_epi32(ca, ca), ca));
    _mm_storeu_si128((__m128i*)slot_b, _mm_add_epi32(_mm_add_epi32(cb, cb), cb));
    __m256d on_a = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(has_a));
    __m256d on_b = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(has_b));

    // w = ((0 + J_a·v_a) + J_b·v_b) + bias, each half only where the row has it (cs_row_jv).
    __m256d jac[12], an, af, bn_, bf_;
    pair_jacobians(p->jac + 6 * (size_t)i, jac);
    half_jv(jac, v, slot_a, &an, &af);
    half_jv(jac + 3, v, slot_b, &bn_, &bf_);
    __m256d zero_d = _mm256_setzero_pd();
    __m256d sn = _mm256_blendv_pd(zero_d, _mm256_add_pd(zero_d, an), on_a);
    __m256d sf = _mm256_blendv_pd(zero_d, _mm256_add_pd(zero_d, af), on_a);
    sn = _mm256_blendv_pd(sn, _mm256_add_pd(sn, bn_), on_b);
    sf = _mm256_blendv_pd(sf, _mm256_add_pd(sf, bf_), on_b);
    __m256d bias_n, bias_f, ln, lf, mu_n, mu_f;
    load_pairs(p->bias + i, &bias_n, &bias_f);
    load_pairs(lambda + i, &ln, &lf);
    load_pairs(p->mu + i, &mu_n, &mu_f);
    __m256d wn = _mm256_add_pd(sn, bias_n), wf = _mm256_add_pd(sf, bias_f);

    // The normal row: bounds [0, ∞); min(λ, w). The friction row: ±μ λ_normal (0 unless λ_normal > 0).
    __m256d rn = _mm256_sub_pd(ln, clamp_lanes(_mm256_sub_pd(ln, wn), zero_d, _mm256_set1_pd(INFINITY)));
    __m256d m = _mm256_blendv_pd(wn, ln, _mm256_cmp_pd(ln, wn, _CMP_LT_OQ));
    __m256d limit = _mm256_blendv_pd(zero_d, _mm256_mul_pd(mu_f, ln), _mm256_cmp_pd(ln, zero_d, _CMP_GT_OQ));
    __m256d lo = _mm256_xor_pd(limit, _mm256_set1_pd(-0.0));
    __m256d rf = _mm256_sub_pd(lf, clamp_lanes(_mm256_sub_pd(lf, wf), lo, limit));
    double nat_n[CS_LANES], nat_f[CS_LANES], lcp[CS_LANES];
    _mm256_storeu_pd(nat_n, _mm256_mul_pd(rn, rn));
    _mm256_storeu_pd(nat_f, _mm256_mul_pd(rf, rf));
    _mm256_storeu_pd(lcp, _mm256_mul_pd(m, m));
    for (int k = 0; k < CS_LANES; ++k)
    {
        int l = cs_pair_lane(k);
        *sum_nat += nat_n[l];
        *sum_nat += nat_f[l];
        *sum_lcp += lcp[l];
    }
}

bool cs_avx2_residual_cpu(void)
{
    return cs_simd_cpu();
}

CS_AVX2 int cs_avx2_residual_pairs(const cs_lcp* p, const double* v, const double* lambda, int i,
                                   double* sum_lcp, double* sum_nat)
{
    const int rows = p->row_count;
    double s_lcp = *sum_lcp, s_nat = *sum_nat;
    __m128i a, b;
    while (i + 2 * CS_LANES <= rows && four_pairs(p, i, &a, &b))
    {
        four_pair_terms(p, v, lambda, i, a, b, &s_lcp, &s_nat);
        i += 2 * CS_LANES;
    }
    *sum_lcp = s_lcp;
    *sum_nat = s_nat;
    return i;
}

#else

bool cs_avx2_residual_cpu(void)
{
    return false;
}

int cs_avx2_residual_pairs(const cs_lcp* p, const double* v, const double* lambda, int i, double* sum_lcp,
                           double* sum_nat)
{
    (void)p, (void)v, (void)lambda, (void)sum_lcp, (void)sum_nat;
    return i;
}

#endif
