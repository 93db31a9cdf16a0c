// The packing of one row (cs_packed_row, packed_row.h), shared by the two packing passes: solve.c's,
// which writes every row's record, and schedule.c's cs_pack_lanes, which writes the rows that go in vector
// lanes straight into their quads and a record only for the others. Both compute every number here, in
// the same operations, so the sweeps see the same bits whichever pass ran.
#ifndef CS_SOLVER_PACK_H
#define CS_SOLVER_PACK_H

#include "solver/simd.h"
#include "solver/solver_internal.h"

#include <float.h>

// What the passes prove about the rows on the numbers they read anyway (check.c's good path: a second pass
// over J, b, λ and A_ii cost ~4 % of Pool 1's step): bad gathers non-finite J, b or λ⁰ (cs_nonfinite_bits),
// ok every A_ii finite and >= 1e-300 and every bound, link and kind proper. The proof holds when
// cs_pack_proven says so; cs_problem_check then only looks at the bodies.
typedef struct cs_pack_proof
{
    cs_u2 bad;
    bool ok;
    bool previous_row_normal; // p->kind[i - 1] == CS_ROW_NORMAL (a world's friction link is proven by it)
} cs_pack_proof;

static inline cs_pack_proof cs_pack_proof_start(void)
{
    cs_pack_proof proof = {{0, 0}, true, false};
    return proof;
}

static inline bool cs_pack_proven(const cs_pack_proof* proof)
{
    return proof->ok && (proof->bad[0] | proof->bad[1]) == 0;
}

// A row's two halves: J (ja, jaw; jb, jbw) and M⁻¹Jᵀ (ma, maw; mb, mbw), all 0 for a static half (-1).
typedef struct cs_pack_halves
{
    cs_v2 ja, jb, ma, mb;
    double jaw, jbw, maw, mbw;
} cs_pack_halves;

static inline __attribute__((always_inline)) cs_pack_halves cs_pack_halves_of(const cs_lcp* p,
                                                                              const double* j, int a, int b)
{
    const cs_v2 zero = {0.0, 0.0};
    cs_pack_halves h = {zero, zero, zero, zero, 0.0, 0.0, 0.0, 0.0};
    if (a >= 0)
    {
        double im = p->inv_mass[a];
        h.ja = cs_v2_load(j);
        h.jaw = j[2];
        h.ma = h.ja * cs_v2_set(im, im);
        h.maw = p->inv_inertia[a] * h.jaw;
    }
    if (b >= 0)
    {
        double im = p->inv_mass[b];
        h.jb = cs_v2_load(j + 3);
        h.jbw = j[5];
        h.mb = h.jb * cs_v2_set(im, im);
        h.mbw = p->inv_inertia[b] * h.jbw;
    }
    return h;
}

// A_ii = J_i M⁻¹ J_iᵀ of two halves on different bodies (cs_pack_row adds the cross terms of one body's).
static inline double cs_pack_diag(const cs_pack_halves* h)
{
    cs_v2 t = h->ja * h->ma + h->jb * h->mb;
    return (t[0] + t[1]) + (h->jaw * h->maw + h->jbw * h->mbw);
}

// Row i of p (start point lambda) into *r (every field; a PAIR's normal row is marked by the caller once it
// has seen the friction row), A_ii and 1/A_ii into w->diag and w->inv_diag, the M⁻¹Jᵀ columns into w->mjt
// when `columns`. A static half (-1) has no columns: its J and M⁻¹Jᵀ are 0 and it points at zero_slot.
static inline __attribute__((always_inline)) void cs_pack_row(const cs_lcp* p, const double* lambda, int i,
                                                              int32_t zero_slot, cs_solver_work* w,
                                                              bool columns, cs_pack_proof* proof,
                                                              cs_packed_row* r)
{
    const int m = p->row_count;
    const double* j = p->jac + 6 * i;
    proof->bad |=
        (cs_nonfinite_bits(cs_v2_load(j)) | cs_nonfinite_bits(cs_v2_load(j + 2))) |
        (cs_nonfinite_bits(cs_v2_load(j + 4)) | cs_nonfinite_bits(cs_v2_set(p->bias[i], lambda[i])));
    int a = p->body_a[i];
    int b = p->body_b[i];
    cs_pack_halves h = cs_pack_halves_of(p, j, a, b);
    cs_v2 ja = h.ja, jb = h.jb, ma = h.ma, mb = h.mb;
    double jaw = h.jaw, jbw = h.jbw, maw = h.maw, mbw = h.mbw;
    double d = cs_pack_diag(&h);
    bool shared = (a >= 0) & (a == b);
    if (shared)
    {
        cs_v2 c = ja * mb;
        d += 2.0 * ((c[0] + c[1]) + jaw * mbw);
    }
    double eps = p->reg != NULL ? p->reg[i] : 0.0;
    d += eps; // A + Σ (Lacoursière eq. (3))
    double inv_d = d > 0.0 ? 1.0 / d : 0.0;
    // (1e-300 is well above the largest d whose 1/d overflows, 1/DBL_MAX ≈ 5.6e-309: conservative.)
    proof->ok &= (d >= 1e-300) & (d <= DBL_MAX);
    w->diag[i] = d;
    w->inv_diag[i] = inv_d;
    if (columns)
    {
        double* mc = w->mjt + 6 * i;
        mc[0] = ma[0], mc[1] = ma[1], mc[2] = maw;
        mc[3] = mb[0], mc[4] = mb[1], mc[5] = mbw;
    }

    cs_v2 s = {inv_d, inv_d};
    r->ja = ja * s;
    r->jb = jb * s;
    r->jw = cs_v2_set(jbw, jaw) * s;
    r->ma = ma;
    r->mb = mb;
    r->mw = cs_v2_set(mbw, maw);
    r->bias = p->bias[i] * inv_d;
    r->mu = 0.0;
    r->a = a >= 0 ? 3 * a : zero_slot;
    r->b = b >= 0 ? 3 * b : zero_slot;
    r->link = -1;
    uint32_t kind = 0;
    int row_kind = p->kind[i];
    switch (row_kind)
    {
        case CS_ROW_FRICTION:
        {
            kind = CS_PACK_FRICTION;
            int link = p->link[i];
            r->link = link;
            r->mu = p->mu[i];
            // (A world's friction row follows its normal row: that link is proven by the kind kept
            // from the row before, any other by looking.)
            proof->ok &= link == i - 1 ? proof->previous_row_normal
                                       : link >= 0 && link < m && p->kind[link] == CS_ROW_NORMAL;
            proof->ok &= (p->mu[i] >= 0.0) & (p->mu[i] < INFINITY);
            break;
        }
        case CS_ROW_BOX:
            kind = p->lo[i] == 0.0 && p->hi[i] == INFINITY ? CS_PACK_NONNEG : 0u;
            proof->ok &= p->lo[i] <= p->hi[i] && p->lo[i] != INFINITY && p->hi[i] != -INFINITY;
            break;
        default:
            kind = CS_PACK_NONNEG;
            proof->ok &= row_kind == CS_ROW_NORMAL;
            break;
    }
    if (eps > 0.0 && row_kind != CS_ROW_FRICTION)
    {
        kind |= CS_PACK_SOFT;
        r->mu = eps * inv_d;
    }
    kind |= d > 0.0 ? 0u : CS_PACK_SKIP;
    bool linear = (jaw == 0.0) & (jbw == 0.0); // (& : no branch per half)
    kind |= linear ? CS_PACK_LINEAR : 0u;
    kind |= linear && cs_pack_opposed(ja, jb, a < 0) ? CS_PACK_OPPOSED : 0u;
    kind |= shared ? CS_PACK_SHARED : 0u;
    r->kind = kind;
    proof->previous_row_normal = row_kind == CS_ROW_NORMAL;
}

// A normal row n followed by its friction row f on the same two bodies (every frictional contact) is
// updated as a pair, with the velocities in registers (CS_PACK_PAIR), when the two rows have the structure of
// a circle contact's (cs_pair_compact: J_a = −J_b, or a static half a): a pair's steps are taken from the
// halves' relative velocity (cs_halves_step_opposed). Kind and bodies compared on values the caller kept in
// registers (reading back two 32-bit stores with one 64-bit load defeats store forwarding), the structure
// last (n is read only when it is a normal row).
static inline bool cs_pack_pairs(uint32_t n_kind, int32_t n_a, int32_t n_b, const cs_packed_row* n,
                                 const cs_packed_row* f, int n_row)
{
    return f->kind == CS_PACK_FRICTION_ROW && f->link == n_row && n_kind == CS_PACK_NORMAL_ROW &&
           n_a == f->a && n_b == f->b && cs_pair_compact_rows(n, f);
}

// Marks n as the normal row of the pair (n, f): (J_f M⁻¹ J_nᵀ)/A_ff, see CS_PACK_PAIR.
static inline void cs_pack_pair(cs_packed_row* n, const cs_packed_row* f)
{
    cs_v2 c = f->ja * n->ma + f->jb * n->mb + f->jw * n->mw;
    n->kind = CS_PACK_NORMAL_ROW | CS_PACK_PAIR;
    n->mu = c[0] + c[1];
}

#endif
