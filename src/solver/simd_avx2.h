// The AVX2 lane helpers shared by the kernels (simd_avx2.c: sweeps; pack_avx2.c: the packing pass's four
// pairs at once): body (x, y) and ω gathered from and scattered to v by slot, and a quad's (normal, friction)
// values read from and written to rows first .. first + 7. Included only where CS_SIMD_X86 (simd.h) holds;
// every function is compiled for AVX2 (CS_AVX2) and called only when cs_simd_cpu() says it may run.
#ifndef CS_SOLVER_SIMD_AVX2_H
#define CS_SOLVER_SIMD_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#define CS_AVX2 __attribute__((target("avx2")))

// (x, y) of four bodies at v + idx[l] → a vector of x and one of y.
static inline CS_AVX2 void gather_xy(const double* v, const int32_t* idx, __m256d* x, __m256d* y)
{
    __m256d t0 =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(v + idx[0])), _mm_loadu_pd(v + idx[2]), 1);
    __m256d t1 =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(v + idx[1])), _mm_loadu_pd(v + idx[3]), 1);
    *x = _mm256_unpacklo_pd(t0, t1);
    *y = _mm256_unpackhi_pd(t0, t1);
}

static inline CS_AVX2 void scatter_xy(double* v, const int32_t* idx, __m256d x, __m256d y)
{
    __m256d t0 = _mm256_unpacklo_pd(x, y); // x0 y0 x2 y2
    __m256d t1 = _mm256_unpackhi_pd(x, y); // x1 y1 x3 y3
    _mm_storeu_pd(v + idx[0], _mm256_castpd256_pd128(t0));
    _mm_storeu_pd(v + idx[1], _mm256_castpd256_pd128(t1));
    _mm_storeu_pd(v + idx[2], _mm256_extractf128_pd(t0, 1));
    _mm_storeu_pd(v + idx[3], _mm256_extractf128_pd(t1, 1));
}

// ω of four bodies (v + idx[l] + 2).
static inline CS_AVX2 __m256d gather_w(const double* v, const int32_t* idx)
{
    return _mm256_set_pd(v[idx[3] + 2], v[idx[2] + 2], v[idx[1] + 2], v[idx[0] + 2]);
}

static inline CS_AVX2 void scatter_w(double* v, const int32_t* idx, __m256d w)
{
    __m128d lo = _mm256_castpd256_pd128(w), hi = _mm256_extractf128_pd(w, 1);
    _mm_storel_pd(v + idx[0] + 2, lo);
    _mm_storeh_pd(v + idx[1] + 2, lo);
    _mm_storel_pd(v + idx[2] + 2, hi);
    _mm_storeh_pd(v + idx[3] + 2, hi);
}

// The lanes of a pair quad (simd.h) whose a half is static, M⁻¹J_n,aᵀ = (+0, +0) bit for bit, as a mask.
static inline CS_AVX2 __m256d pair_static_a(__m256d nmax, __m256d nmay)
{
    __m256i m = _mm256_castpd_si256(_mm256_or_pd(nmax, nmay));
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(m, _mm256_setzero_si256()));
}

// −x where the a half is there, +0 where it is static (mask `fixed`): a pair's a-half number from the b
// half's (cs_pair_quad).
static inline CS_AVX2 __m256d pair_a_half(__m256d fixed, __m256d x)
{
    return _mm256_andnot_pd(fixed, _mm256_xor_pd(x, _mm256_set1_pd(-0.0)));
}

#define LD(field) _mm256_loadu_pd(field)
#define ADD       _mm256_add_pd
#define SUB       _mm256_sub_pd
#define MUL       _mm256_mul_pd

// Values of rows first .. first + 7 (four pairs, n and f interleaved) → n and f by lane (0, 2, 1, 3).
static inline CS_AVX2 void load_pairs(const double* a, __m256d* n, __m256d* f)
{
    __m256d l0 = _mm256_loadu_pd(a), l1 = _mm256_loadu_pd(a + 4);
    *n = _mm256_unpacklo_pd(l0, l1);
    *f = _mm256_unpackhi_pd(l0, l1);
}

static inline CS_AVX2 void store_pairs(double* a, __m256d n, __m256d f)
{
    _mm256_storeu_pd(a, _mm256_unpacklo_pd(n, f));
    _mm256_storeu_pd(a + 4, _mm256_unpackhi_pd(n, f));
}

// The rows 4 .. 7 of a short quad of `pairs` (2 or 3) pairs that are its own: rows first + 4, first + 5 for
// three pairs, none for two.
static inline CS_AVX2 __m256i short_tail(int pairs)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * pairs - 4), _mm256_setr_epi64x(0, 1, 2, 3));
}

// load_pairs and store_pairs for a quad of `pairs` pairs (2 .. 4: a constant CS_LANES folds to them): nothing
// past row first + 2·pairs is read or written, and the lanes past the pairs load +0.
static inline CS_AVX2 void load_pairs_n(const double* a, int pairs, __m256d* n, __m256d* f)
{
    __m256d l0 = _mm256_loadu_pd(a);
    __m256d l1 = pairs == CS_LANES ? _mm256_loadu_pd(a + 4) : _mm256_maskload_pd(a + 4, short_tail(pairs));
    *n = _mm256_unpacklo_pd(l0, l1);
    *f = _mm256_unpackhi_pd(l0, l1);
}

static inline CS_AVX2 void store_pairs_n(double* a, int pairs, __m256d n, __m256d f)
{
    _mm256_storeu_pd(a, _mm256_unpacklo_pd(n, f));
    if (pairs == CS_LANES)
    {
        _mm256_storeu_pd(a + 4, _mm256_unpackhi_pd(n, f));
    }
    else
    {
        _mm256_maskstore_pd(a + 4, short_tail(pairs), _mm256_unpackhi_pd(n, f));
    }
}

#endif
