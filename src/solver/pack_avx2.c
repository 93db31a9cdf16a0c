// The packing pass's AVX2 kernel (cs_avx2_pack_pairs, simd.h): four contacts' normal/friction pairs packed
// into a pair quad's lanes at once, each lane with pack_lanes.c's pack_contact operations on its pair.
#include "solver/simd.h"

#if CS_SIMD_X86

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/simd_avx2.h"

// pack_lanes.c's pack_contact for four contacts at once (cs_avx2_pack_pairs). Pair k (rows i + 2k, its
// normal row, and i + 2k + 1, its friction row) goes in lane cs_pair_lane(k): the order in which gather_xy at
// these offsets takes a component from the four contacts' twelve Jacobian numbers, and load_pairs the
// (normal, friction) values of rows i .. i + 7. Each lane does pack_contact's operations on its pair, in its
// order (no FMA); a static half's numbers are +0 there and here.
static const int32_t pack_rows[CS_LANES] = {0, 24, 12, 36};

// The four pairs' bodies by lane (a, b: index or -1; ia, ib: v slots, the zero slot for -1) and their masses
// (0 for a static half); false unless each is a contact's normal/friction pair on two halves that are not one
// body (pack_contact's first test, and the caller's kind[i] test), the bodies' ids compared eight at a time.
typedef struct pack_bodies
{
    __m128i a, b, ia, ib;
    __m256d ima, iia, imb, iib;
} pack_bodies;

static inline CS_AVX2 __m256d masses_of(const double* mass, __m128i clamped)
{
    int32_t k[CS_LANES];
    _mm_storeu_si128((__m128i*)k, clamped);
    return _mm256_set_pd(mass[k[3]], mass[k[2]], mass[k[1]], mass[k[0]]);
}

static inline CS_AVX2 bool pack_bodies_of(const cs_lcp* p, int i, int32_t zero_slot, pack_bodies* pb)
{
    uint64_t kinds;
    memcpy(&kinds, p->kind + i, sizeof kinds);
    const uint64_t pairs_kinds =
        CS_ROW_NORMAL * 0x0001000100010001ull + CS_ROW_FRICTION * 0x0100010001000100ull;
    __m256i a = _mm256_loadu_si256((const __m256i*)(p->body_a + i)); // a of rows i .. i + 7
    __m256i b = _mm256_loadu_si256((const __m256i*)(p->body_b + i));
    __m256i link = _mm256_loadu_si256((const __m256i*)(p->link + i));
    // Odd rows (friction): the even row's bodies, linked to it. Even rows: a < 0 or a != b.
    __m256i same = _mm256_and_si256(_mm256_cmpeq_epi32(a, _mm256_shuffle_epi32(a, 0xB1)),
                                    _mm256_cmpeq_epi32(b, _mm256_shuffle_epi32(b, 0xB1)));
    __m256i linked = _mm256_cmpeq_epi32(
        link, _mm256_add_epi32(_mm256_set1_epi32(i), _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6)));
    __m256i two = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), a),
                                  _mm256_xor_si256(_mm256_cmpeq_epi32(a, b), _mm256_set1_epi32(-1)));
    __m256i odd = _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1);
    __m256i good = _mm256_and_si256(same, _mm256_blendv_epi8(two, linked, odd));
    if (kinds != pairs_kinds || _mm256_movemask_epi8(good) != -1 || p->body_count == 0)
    {
        return false;
    }
    // The normal rows' bodies in lane order: rows i, i + 4, i + 2, i + 6.
    const __m256i lanes = _mm256_setr_epi32(0, 4, 2, 6, 0, 4, 2, 6);
    pb->a = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a, lanes));
    pb->b = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, lanes));
    __m128i minus_one = _mm_set1_epi32(-1), zero = _mm_setzero_si128();
    __m128i has_a = _mm_cmpgt_epi32(pb->a, minus_one), has_b = _mm_cmpgt_epi32(pb->b, minus_one);
    __m128i zero_slots = _mm_set1_epi32(zero_slot);
    pb->ia = _mm_blendv_epi8(zero_slots, _mm_add_epi32(_mm_add_epi32(pb->a, pb->a), pb->a), has_a);
    pb->ib = _mm_blendv_epi8(zero_slots, _mm_add_epi32(_mm_add_epi32(pb->b, pb->b), pb->b), has_b);
    // (A static half reads body 0's masses, then +0: p has a body.)
    __m128i ca = _mm_max_epi32(pb->a, zero), cb = _mm_max_epi32(pb->b, zero);
    __m256d ma = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(has_a));
    __m256d mb = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(has_b));
    pb->ima = _mm256_and_pd(masses_of(p->inv_mass, ca), ma);
    pb->iia = _mm256_and_pd(masses_of(p->inv_inertia, ca), ma);
    pb->imb = _mm256_and_pd(masses_of(p->inv_mass, cb), mb);
    pb->iib = _mm256_and_pd(masses_of(p->inv_inertia, cb), mb);
    return true;
}

// v = v* + M⁻¹Jᵀλ⁰ pair by pair in row order, as pack_contact's warm start; m by lane: the normal row's
// M⁻¹Jᵀ (a: x, y, ω; b: x, y, ω), then the friction row's; l0 by lane: λ⁰ normal, friction.
static inline void pack_warm_start(const double m[12][CS_LANES], const double l0[2][CS_LANES],
                                   const int32_t* ia, const int32_t* ib, double* v)
{
    for (int k = 0; k < CS_LANES; ++k)
    {
        int l = cs_pair_lane(k);
        double ln = l0[0][l], lf = l0[1][l];
        if ((ln != 0.0) | (lf != 0.0))
        {
            double* va = v + ia[l];
            double* vb = v + ib[l];
            double xa = va[0], ya = va[1], wa = va[2], xb = vb[0], yb = vb[1], wb = vb[2];
            if (ln != 0.0)
            {
                xa += m[0][l] * ln, ya += m[1][l] * ln, wa += m[2][l] * ln;
                xb += m[3][l] * ln, yb += m[4][l] * ln, wb += m[5][l] * ln;
            }
            if (lf != 0.0)
            {
                xa += m[6][l] * lf, ya += m[7][l] * lf, wa += m[8][l] * lf;
                xb += m[9][l] * lf, yb += m[10][l] * lf, wb += m[11][l] * lf;
            }
            va[0] = xa, va[1] = ya, va[2] = wa;
            vb[0] = xb, vb[1] = yb, vb[2] = wb;
        }
    }
}

// Whether the eight slots are all different (the zero slot included): each against its rotations by 1 to 4
// covers the 28 pairs.
static inline CS_AVX2 bool slots_distinct(__m128i a, __m128i b)
{
    __m256i s = _mm256_set_m128i(b, a), same = _mm256_setzero_si256();
    for (int r = 1; r <= 4; ++r)
    {
        __m256i rot = _mm256_setr_epi32(r & 7, (r + 1) & 7, (r + 2) & 7, (r + 3) & 7, (r + 4) & 7,
                                        (r + 5) & 7, (r + 6) & 7, (r + 7) & 7);
        same = _mm256_or_si256(same, _mm256_cmpeq_epi32(s, _mm256_permutevar8x32_epi32(s, rot)));
    }
    return _mm256_testz_si256(same, same) != 0;
}

// Both halves' (vx, vy, ω) by lane ([0]: a, [1]: b), or a row's M⁻¹Jᵀ in the same layout.
typedef struct body_lanes
{
    __m256d x[2], y[2], w[2];
} body_lanes;

// v += m·λ in the lanes where `on` (λ != 0), v unchanged elsewhere: pack_contact's warm start of one row.
static inline CS_AVX2 void warm_lanes(body_lanes* v, const body_lanes* m, __m256d l, __m256d on)
{
    for (int h = 0; h < 2; ++h)
    {
        v->x[h] = _mm256_blendv_pd(v->x[h], ADD(v->x[h], MUL(m->x[h], l)), on);
        v->y[h] = _mm256_blendv_pd(v->y[h], ADD(v->y[h], MUL(m->y[h], l)), on);
        v->w[h] = _mm256_blendv_pd(v->w[h], ADD(v->w[h], MUL(m->w[h], l)), on);
    }
}

#define SAME(x, y)   _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_castpd_si256(x), _mm256_castpd_si256(y)))
#define AND          _mm256_and_pd
#define OR           _mm256_or_pd
#define CMP          _mm256_cmp_pd
#define NONFINITE(x) SUB(x, x) // 0 exactly for finite x (cs_nonfinite_bits)

CS_AVX2 bool cs_avx2_pack_pairs(const cs_lcp* p, const double* start, int i, cs_pack4_out* out)
{
    pack_bodies pb;
    if (!pack_bodies_of(p, i, out->zero_slot, &pb))
    {
        return false;
    }
    const double* jac = p->jac + 6 * (size_t)i;
    __m256d jnax, jnay, jnaw, jnbx, jnby, jnbw, jfax, jfay, jfaw, jfbx, jfby, jfbw;
    gather_xy(jac, pack_rows, &jnax, &jnay);
    gather_xy(jac + 2, pack_rows, &jnaw, &jnbx);
    gather_xy(jac + 4, pack_rows, &jnby, &jnbw);
    gather_xy(jac + 6, pack_rows, &jfax, &jfay);
    gather_xy(jac + 8, pack_rows, &jfaw, &jfbx);
    gather_xy(jac + 10, pack_rows, &jfby, &jfbw);
    const __m256d zero = _mm256_setzero_pd();
    __m256d bn, bf, mu_n, mu, ln = zero, lf = zero;
    load_pairs(p->bias + i, &bn, &bf);
    load_pairs(p->mu + i, &mu_n, &mu); // (the friction row's)
    if (start != NULL)
    {
        load_pairs(start + i, &ln, &lf);
    }
    // The problem check's share: every number finite (the Jacobians as given, a static half's too).
    __m256d bad = OR(OR(OR(NONFINITE(jnax), NONFINITE(jnay)), OR(NONFINITE(jnaw), NONFINITE(jnbx))),
                     OR(OR(NONFINITE(jnby), NONFINITE(jnbw)), OR(NONFINITE(jfax), NONFINITE(jfay))));
    bad = OR(bad, OR(OR(OR(NONFINITE(jfaw), NONFINITE(jfbx)), OR(NONFINITE(jfby), NONFINITE(jfbw))),
                     OR(OR(NONFINITE(bn), NONFINITE(ln)), OR(NONFINITE(bf), NONFINITE(lf)))));
    // A static half's numbers are +0.
    __m256d has_a = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_cmpgt_epi32(pb.a, _mm_set1_epi32(-1))));
    __m256d has_b = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_cmpgt_epi32(pb.b, _mm_set1_epi32(-1))));
    jnax = AND(jnax, has_a), jnay = AND(jnay, has_a), jnaw = AND(jnaw, has_a);
    jfax = AND(jfax, has_a), jfay = AND(jfay, has_a), jfaw = AND(jfaw, has_a);
    jnbx = AND(jnbx, has_b), jnby = AND(jnby, has_b), jnbw = AND(jnbw, has_b);
    jfbx = AND(jfbx, has_b), jfby = AND(jfby, has_b), jfbw = AND(jfbw, has_b);
    __m256d ima = pb.ima, iia = pb.iia, imb = pb.imb, iib = pb.iib;
    __m256d mnax = MUL(jnax, ima), mnay = MUL(jnay, ima), mnaw = MUL(iia, jnaw);
    __m256d mnbx = MUL(jnbx, imb), mnby = MUL(jnby, imb), mnbw = MUL(iib, jnbw);
    __m256d mfax = MUL(jfax, ima), mfay = MUL(jfay, ima), mfaw = MUL(iia, jfaw);
    __m256d mfbx = MUL(jfbx, imb), mfby = MUL(jfby, imb), mfbw = MUL(iib, jfbw);
    // A_ii = (t[0] + t[1]) + (jaw·maw + jbw·mbw), t = ja·ma + jb·mb, then + 0 (a −0 becomes +0).
    __m256d dn = ADD(ADD(ADD(MUL(jnax, mnax), MUL(jnbx, mnbx)), ADD(MUL(jnay, mnay), MUL(jnby, mnby))),
                     ADD(MUL(jnaw, mnaw), MUL(jnbw, mnbw)));
    __m256d df = ADD(ADD(ADD(MUL(jfax, mfax), MUL(jfbx, mfbx)), ADD(MUL(jfay, mfay), MUL(jfby, mfby))),
                     ADD(MUL(jfaw, mfaw), MUL(jfbw, mfbw)));
    dn = ADD(dn, zero);
    df = ADD(df, zero);
    // What the lanes take: a linear normal row, a friction row with spin terms, both with columns, μ >= 0.
    __m256d linear_n = AND(CMP(jnaw, zero, _CMP_EQ_OQ), CMP(jnbw, zero, _CMP_EQ_OQ));
    __m256d linear_f = AND(CMP(jfaw, zero, _CMP_EQ_OQ), CMP(jfbw, zero, _CMP_EQ_OQ));
    __m256d fits =
        AND(_mm256_andnot_pd(linear_f, linear_n),
            AND(AND(CMP(dn, zero, _CMP_GT_OQ), CMP(df, zero, _CMP_GT_OQ)), CMP(mu, zero, _CMP_GE_OQ)));
    if (_mm256_movemask_pd(fits) != 0xF)
    {
        return false;
    }
    // ... with the structure of the pair quad's lanes, bit for bit (cs_pair_compact, simd_avx2.h's
    // pair_a_half). J/A_ii's a half is checked on J: J_a = −J_b gives J_a/A_ii = −(J_b/A_ii) bit for bit,
    // and a +0 gives +0 where 1/A_ii is finite (A_ii >= 1e-300; a pair with a smaller A_ii goes to
    // pack_contact, which gives the same bits), so J_n,a/A_nn is not computed only to be compared (J_f,a/A_ff
    // is, for the coupling).
    __m256d fixed = pair_static_a(mnax, mnay), same = SAME(jnax, pair_a_half(fixed, jnbx));
    same = AND(same, AND(SAME(jnay, pair_a_half(fixed, jnby)), SAME(jfax, pair_a_half(fixed, jfbx))));
    same = AND(same, AND(SAME(jfay, pair_a_half(fixed, jfby)), SAME(mfax, pair_a_half(fixed, mnay))));
    same = AND(same, AND(SAME(mfay, mnax), SAME(mfbx, _mm256_xor_pd(mnby, _mm256_set1_pd(-0.0)))));
    same = _mm256_andnot_pd(AND(fixed, has_a), same); // a lane's static half a is a static body's (+0 slot)
    const __m256d tiny = _mm256_set1_pd(1e-300), huge = _mm256_set1_pd(DBL_MAX);
    __m256d finite_inverse = AND(CMP(dn, tiny, _CMP_GE_OQ), CMP(df, tiny, _CMP_GE_OQ));
    if (_mm256_movemask_pd(AND(AND(same, finite_inverse), SAME(mfby, mnbx))) != 0xF)
    {
        return false;
    }
    __m256d ok = AND(AND(CMP(dn, huge, _CMP_LE_OQ), CMP(df, huge, _CMP_LE_OQ)),
                     CMP(mu, _mm256_set1_pd(INFINITY), _CMP_LT_OQ));

    const __m256d one = _mm256_set1_pd(1.0);
    __m256d in = _mm256_div_pd(one, dn), inf_ = _mm256_div_pd(one, df);
    __m256d fax = MUL(jfax, inf_), fay = MUL(jfay, inf_), fbx = MUL(jfbx, inf_), fby = MUL(jfby, inf_);
    __m256d fwb = MUL(jfbw, inf_), fwa = MUL(jfaw, inf_);
    __m256d nbx = MUL(jnbx, in), nby = MUL(jnby, in);
    out->ok = _mm256_movemask_pd(ok) == 0xF;
    uint64_t bits[CS_LANES];
    _mm256_storeu_si256((__m256i*)bits, _mm256_castpd_si256(bad));
    out->bad = (bits[0] | bits[1]) | (bits[2] | bits[3]);
    store_pairs(out->lambda + i, ln, lf); // the start point
    store_pairs(out->diag + i, dn, df);
    store_pairs(out->inv_diag + i, in, inf_);
    __m256d c0 = ADD(ADD(MUL(fax, mnax), MUL(fbx, mnbx)), MUL(fwb, mnbw));
    __m256d c1 = ADD(ADD(MUL(fay, mnay), MUL(fby, mnby)), MUL(fwa, mnaw));
    cs_pair_quad* q = out->quad;
    _mm_storeu_si128((__m128i*)q->a, pb.ia);
    _mm_storeu_si128((__m128i*)q->b, pb.ib);
    _mm_storeu_si128((__m128i*)out->a, _mm_shuffle_epi32(pb.ia, 0xD8)); // lanes 0, 2, 1, 3: by pair
    _mm_storeu_si128((__m128i*)out->b, _mm_shuffle_epi32(pb.ib, 0xD8));
    _mm256_storeu_pd(q->nbx, nbx), _mm256_storeu_pd(q->nby, nby);
    _mm256_storeu_pd(q->nmbx, mnbx), _mm256_storeu_pd(q->nmby, mnby);
    _mm256_storeu_pd(q->nmax, mnax), _mm256_storeu_pd(q->nmay, mnay);
    _mm256_storeu_pd(q->nbias, MUL(bn, in)), _mm256_storeu_pd(q->coupling, ADD(c0, c1));
    _mm256_storeu_pd(q->fbx, fbx), _mm256_storeu_pd(q->fby, fby);
    _mm256_storeu_pd(q->fwb, fwb), _mm256_storeu_pd(q->fwa, fwa);
    _mm256_storeu_pd(q->fmwb, mfbw), _mm256_storeu_pd(q->fmwa, mfaw);
    _mm256_storeu_pd(q->fbias, MUL(bf, inf_)), _mm256_storeu_pd(q->mu, mu);

    out->distinct = slots_distinct(pb.ia, pb.ib);
    __m256d warm_n = CMP(ln, zero, _CMP_NEQ_UQ), warm_f = CMP(lf, zero, _CMP_NEQ_UQ); // λ⁰ != 0
    if (_mm256_movemask_pd(OR(warm_n, warm_f)) == 0)
    {
        return true;
    }
    if (out->distinct)
    {
        // Eight different bodies: the pairs' updates touch none twice, so all four at once (a lane whose
        // λ⁰ is 0 keeps the body's numbers, as the scalar update that skips it).
        body_lanes v;
        gather_xy(out->v, q->a, &v.x[0], &v.y[0]);
        gather_xy(out->v, q->b, &v.x[1], &v.y[1]);
        v.w[0] = gather_w(out->v, q->a), v.w[1] = gather_w(out->v, q->b);
        body_lanes mn = {{mnax, mnbx}, {mnay, mnby}, {mnaw, mnbw}},
                   mf = {{mfax, mfbx}, {mfay, mfby}, {mfaw, mfbw}};
        warm_lanes(&v, &mn, ln, warm_n);
        warm_lanes(&v, &mf, lf, warm_f);
        scatter_xy(out->v, q->a, v.x[0], v.y[0]);
        scatter_w(out->v, q->a, v.w[0]);
        scatter_xy(out->v, q->b, v.x[1], v.y[1]);
        scatter_w(out->v, q->b, v.w[1]);
    }
    else
    {
        double m[12][CS_LANES], l0[2][CS_LANES];
        __m256d mv[12] = {mnax, mnay, mnaw, mnbx, mnby, mnbw, mfax, mfay, mfaw, mfbx, mfby, mfbw};
        for (int r = 0; r < 12; ++r)
        {
            _mm256_storeu_pd(m[r], mv[r]);
        }
        _mm256_storeu_pd(l0[0], ln);
        _mm256_storeu_pd(l0[1], lf);
        pack_warm_start((const double(*)[CS_LANES])m, (const double(*)[CS_LANES])l0, q->a, q->b, out->v);
    }
    return true;
}

#endif
