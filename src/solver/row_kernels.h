// The row kernels every velocity-form method is built from: w_i = J_i·v + b_i and v += M⁻¹J_iᵀ Δλ over a
// problem's rows (cs_lcp) or its packed rows (cs_packed_row), the bounds and clamps of one row, and the
// register-resident body halves of the sweeps' fast paths.
#ifndef CS_SOLVER_ROW_KERNELS_H
#define CS_SOLVER_ROW_KERNELS_H

#include "circlesim/lcp.h"
#include "solver/packed_row.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

// J_i · v over the row's two body halves (a static half, index -1, has no columns).
static inline double cs_row_jv(const double* jac6, int a, int b, const double* v)
{
    double s = 0.0;
    if (a >= 0)
    {
        const double* va = v + 3 * a;
        s += jac6[0] * va[0] + jac6[1] * va[1] + jac6[2] * va[2];
    }
    if (b >= 0)
    {
        const double* vb = v + 3 * b;
        s += jac6[3] * vb[0] + jac6[4] * vb[1] + jac6[5] * vb[2];
    }
    return s;
}

// w_i of the regularised problem, (J_i·v + b_i) + ε_i λ_i (Lacoursière eq. (14); ε_i = 0 without cs_lcp.reg),
// with λ_i the row's impulse and v = v* + M⁻¹Jᵀλ: (A + Σ)λ + q read from the velocities.
static inline double cs_row_w(const cs_lcp* p, const double* v, double lambda_i, int i)
{
    double w = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i];
    return p->reg != NULL ? w + p->reg[i] * lambda_i : w;
}

// v += mjt_i · delta: applies an impulse change of row i to its bodies.
static inline void cs_row_apply(const double* mjt6, int a, int b, double delta, double* v)
{
    if (a >= 0)
    {
        double* va = v + 3 * a;
        va[0] += mjt6[0] * delta;
        va[1] += mjt6[1] * delta;
        va[2] += mjt6[2] * delta;
    }
    if (b >= 0)
    {
        double* vb = v + 3 * b;
        vb[0] += mjt6[3] * delta;
        vb[1] += mjt6[4] * delta;
        vb[2] += mjt6[5] * delta;
    }
}

// Bounds of row i (same rule as cs_lcp_bounds, inlined for the hot loops).
static inline void cs_row_bounds(const cs_lcp* p, const double* lambda, int i, double* lo, double* hi)
{
    switch (p->kind[i])
    {
        case CS_ROW_FRICTION:
        {
            // A negative normal impulse can only come from a start point; it gives an empty box.
            double n = lambda[p->link[i]];
            double limit = n > 0.0 ? p->mu[i] * n : 0.0;
            *lo = -limit;
            *hi = limit;
            break;
        }
        case CS_ROW_BOX:
            *lo = p->lo[i];
            *hi = p->hi[i];
            break;
        default:
            *lo = 0.0;
            *hi = INFINITY;
            break;
    }
}

static inline double cs_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

// Keeps the compiler from turning a clamp's branch into a min/max instruction. A sweep is bound by the
// latency of the chain of rows that share bodies; a well-predicted branch adds nothing to that chain,
// a maxsd adds its 4 cycles (measured on Pool 1's position problem: 60 µs with maxsd, 44 µs with the
// branch). The empty volatile asm claims to modify x and may not be hoisted, so the branch stays.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CS_KEEP_BRANCH(x) __asm__ volatile("" : "+x"(x))
#elif defined(__GNUC__) && defined(__aarch64__)
#define CS_KEEP_BRANCH(x) __asm__ volatile("" : "+w"(x))
#else
#define CS_KEEP_BRANCH(x) ((void)0)
#endif

// clamp(x, lo, hi) as branches (see CS_KEEP_BRANCH); the same value as cs_clamp.
static inline double cs_clamp_branch(double x, double lo, double hi)
{
    if (x < lo)
    {
        x = lo;
        CS_KEEP_BRANCH(x);
    }
    else if (x > hi)
    {
        x = hi;
        CS_KEEP_BRANCH(x);
    }
    return x;
}

// max(x, lo) as a branch, for rows whose upper bound is +∞.
static inline double cs_clamp_lower_branch(double x, double lo)
{
    if (x < lo)
    {
        x = lo;
        CS_KEEP_BRANCH(x);
    }
    return x;
}

// A friction row's box [−limit, limit] from its normal row's current impulse n (cs_row_bounds' rule:
// a negative normal impulse, possible only as a start point, gives an empty box).
static inline double cs_friction_limit(double mu, double n)
{
    return n > 0.0 ? mu * n : 0.0;
}

// Bounds of packed row i of problem p for the generic path.
static inline void cs_pack_bounds(const cs_packed_row* r, const cs_lcp* p, const double* lambda, int i,
                                  double* lo, double* hi)
{
    if (r->kind & CS_PACK_FRICTION)
    {
        double limit = cs_friction_limit(r->mu, lambda[r->link]);
        *lo = -limit;
        *hi = limit;
    }
    else if (r->kind & CS_PACK_NONNEG)
    {
        *lo = 0.0;
        *hi = INFINITY;
    }
    else
    {
        *lo = p->lo[i];
        *hi = p->hi[i];
    }
}

// The velocities of a row's two bodies in registers while one row, or a PAIR of rows, updates them:
// loaded before, stored after. Not for SHARED rows, whose halves are one body.
typedef struct cs_halves
{
    cs_v2 a, b;     // vx, vy of each half
    cs_v2 w;        // ω of (b, a), the layout of jw and mw
    int32_t ia, ib; // where they live in v (read once: stores to v could alias the record otherwise)
} cs_halves;

static inline void cs_halves_load_xy(cs_halves* h, const double* v, int32_t ia, int32_t ib)
{
    h->ia = ia;
    h->ib = ib;
    h->a = cs_v2_load(v + ia);
    h->b = cs_v2_load(v + ib);
}

static inline void cs_halves_load(cs_halves* h, const double* v, const cs_packed_row* r, bool linear)
{
    cs_halves_load_xy(h, v, r->a, r->b);
    if (!linear)
    {
        h->w = cs_v2_set(v[h->ib + 2], v[h->ia + 2]);
    }
}

static inline void cs_halves_store(const cs_halves* h, double* v, bool linear)
{
    cs_v2_store(v + h->ia, h->a);
    cs_v2_store(v + h->ib, h->b);
    if (!linear)
    {
        v[h->ib + 2] = h->w[0];
        v[h->ia + 2] = h->w[1];
    }
}

// Takes the bodies h shares with `last` (the previous row's halves as it stored them) from there rather
// than from the loads: the same bits, but a row that shares a body with the one before (the pools' rows
// share body a, a stack's rows a with b) does not wait for the store-to-load round trip. ω is taken only
// when last has it (it was not a linear row) and h wants it.
static inline void cs_halves_carry(cs_halves* h, const cs_halves* last, bool last_w, bool linear)
{
    bool w = last_w && !linear;
    if (h->ia == last->ia)
    {
        h->a = last->a;
        if (w)
        {
            h->w[1] = last->w[1];
        }
    }
    else if (h->ia == last->ib)
    {
        h->a = last->b;
        if (w)
        {
            h->w[1] = last->w[0];
        }
    }
    if (h->ib == last->ib)
    {
        h->b = last->b;
        if (w)
        {
            h->w[0] = last->w[0];
        }
    }
    else if (h->ib == last->ia)
    {
        h->b = last->a;
        if (w)
        {
            h->w[0] = last->w[1];
        }
    }
}

// w_i / A_ii = (J_i·v + b_i) / A_ii with bias = b_i / A_ii (r->bias, or another right-hand side on the
// same rows: the split-impulse problem), summed as
//     (bias + ((jbx·vbx + jby·vby) + jbw·ωb)) + ((jax·vax + jay·vay) + jaw·ωa)
// with the two halves' partial sums side by side in one vector. Half a comes last: in rows sorted by
// contact key the previous row usually shares body a, so its velocity is the operand that arrives late.
static inline cs_v2 cs_halves_sum_xy(cs_v2 ja, cs_v2 jb, const cs_halves* h)
{
    cs_v2 pb = jb * h->b; // (jbx·vbx, jby·vby)
    cs_v2 pa = ja * h->a;
    return cs_v2_set(pb[0], pa[0]) + cs_v2_set(pb[1], pa[1]);
}

static inline double cs_halves_step(const cs_packed_row* r, double bias, const cs_halves* h, bool linear)
{
    cs_v2 sum = cs_halves_sum_xy(r->ja, r->jb, h);
    if (!linear)
    {
        sum += r->jw * h->w;
    }
    return (bias + sum[0]) + sum[1];
}

// The step of a row whose half a is the opposite of half b (J_a = −J_b in x and y, or a static half a, which
// reads the zero slot's +0): a circle normal row (CS_PACK_OPPOSED) and both rows of a CS_PACK_PAIR
// (cs_pair_compact), from the halves' relative velocity,
//     w_i / A_ii = (bias + (jbx·(vbx − vax) + jby·(vby − vay))) + (jbw·ωb + jaw·ωa)
// — two subtractions where cs_halves_step multiplies both halves and adds them (and vbx − (+0) = vbx exactly,
// so a static half needs no mask in the lanes). The lanes (simd_avx2.c: normal_quad, pair_quad) and the split
// solve's rows (split.c) do these operations in this order. For two bodies moving together (a pile's resting
// pairs) it is also the better-conditioned sum: vb − va of close velocities is exact (Sterbenz), where each
// half's products were rounded at the scale of |v| before they cancelled.
static inline double cs_halves_step_opposed(const cs_packed_row* r, double bias, const cs_halves* h,
                                            bool linear)
{
    cs_v2 p = r->jb * (h->b - h->a);
    double step = bias + (p[0] + p[1]);
    if (!linear)
    {
        cs_v2 q = r->jw * h->w;
        step += q[0] + q[1];
    }
    return step;
}

// v += M⁻¹J_iᵀ·delta on the halves.
static inline void cs_halves_apply_xy(cs_v2 ma, cs_v2 mb, cs_halves* h, double delta)
{
    cs_v2 d = {delta, delta};
    h->a += ma * d;
    h->b += mb * d;
}

static inline void cs_halves_apply(const cs_packed_row* r, cs_halves* h, double delta, bool linear)
{
    cs_halves_apply_xy(r->ma, r->mb, h, delta);
    if (!linear)
    {
        cs_v2 d = {delta, delta};
        h->w += r->mw * d;
    }
}

// The same step and update through memory, for rows of any kind (the generic path). Half a is written
// before half b is read back, so a SHARED row (a == b) accumulates both halves.
static inline double cs_pack_step(const cs_packed_row* r, double bias, const double* v)
{
    const double* va = v + r->a;
    const double* vb = v + r->b;
    return (bias + ((r->jb[0] * vb[0] + r->jb[1] * vb[1]) + r->jw[0] * vb[2])) +
           ((r->ja[0] * va[0] + r->ja[1] * va[1]) + r->jw[1] * va[2]);
}

// The step of the regularised problem (A + Σ)λ + q through memory: cs_pack_step plus, on a regularised row
// (CS_PACK_SOFT), ε_i λ_i / A_ii (kept in mu), λ_i the row's current impulse: the w_i = (J_i·v + b_i) + ε_i
// λ_i of Lacoursière's residual, eq. (14). Every method that reads a row's w from the packed records reads it
// here, so that no method solves the hard problem A λ + q on rows that are soft (docs/SOLVERS.md).
static inline double cs_pack_step_reg(const cs_packed_row* r, double bias, const double* v, double lambda_i)
{
    double step = cs_pack_step(r, bias, v);
    if (r->kind & CS_PACK_SOFT)
    {
        step += r->mu * lambda_i;
    }
    return step;
}

static inline void cs_pack_apply(const cs_packed_row* r, double delta, double* v)
{
    double* va = v + r->a;
    va[0] += r->ma[0] * delta;
    va[1] += r->ma[1] * delta;
    va[2] += r->mw[1] * delta;
    double* vb = v + r->b;
    vb[0] += r->mb[0] * delta;
    vb[1] += r->mb[1] * delta;
    vb[2] += r->mw[0] * delta;
}

#endif
