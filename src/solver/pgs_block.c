// `pgs-block`: Lacoursière's blocked Gauss-Seidel (lacoursiere paper, Algorithm 3.1 with the local solve
// around eqs. (18)–(21)): a contact's normal row and the friction row linked to it are one block, solved
// together exactly; every other row (box rows, friction rows without their normal row, normal rows without
// friction) is updated as by PGS. In 2D a contact has one tangent, so the block is 2×2:
//     w = D z + c,   D = [[d_nn, d_nt], [d_nt, d_tt]],   c = w(λ) − D λ   (w(λ) = J v + b, the local residual
//     of Algorithm 3.1 line 7 computed from the current velocities)
// and the local problem is the contact's BLCP: 0 <= z_n ⊥ w_n >= 0, |z_t| <= μ z_n with w_t = 0 inside,
// w_t <= 0 at +μz_n and w_t >= 0 at −μz_n. Instead of the approximate projection of eq. (19) its exact
// answer is found by trying the cases in turn (each is one linear solve, eq. (18) for sticking and eq. (21)
// for sliding, where the sliding direction in 2D is just a sign):
//     separate: z = 0, valid when c_n >= 0;
//     stick:    D z = −c, valid when z_n >= 0 and |z_t| <= μ z_n;
//     slide:    z_t = sμz_n (s = ±1), w_n = 0 → z_n = −c_n / (d_nn + sμ d_nt), valid when z_n >= 0 and
//               s·w_t <= 0.
// When none holds (possible only where d_nn + sμd_nt <= 0: a coupling strong enough that the local problem
// has no solution of these forms) the block falls back to the two rows one after the other, as in PGS.
// For circles J_n has no angular part and n ⊥ t, so d_nt = 0: the block solve then gives PGS's answer for
// the pair (normal first, friction with the new normal impulse); it differs where rows couple (general J).
// Cost per sweep O(nnz(J)) like PGS; d_nt of each block is computed once per solve (begin).
#include "solver/solver_internal.h"

// Per-row state left by begin in the work arrays (this method uses no other per-row state):
//   scratch[i] = index of the friction row of normal row i's block, −1 when i is not a block's normal row,
//                −2 when i is a friction row solved inside its normal row's block;
//   x[i]       = d_nt of the block whose normal row is i.

// J_i M⁻¹ J_jᵀ over the bodies rows i and j share.
static double coupling(const cs_lcp* p, int i, int j)
{
    const int bi[2] = {p->body_a[i], p->body_b[i]};
    const int bj[2] = {p->body_a[j], p->body_b[j]};
    const double* ji = p->jac + 6 * i;
    const double* jj = p->jac + 6 * j;
    double s = 0.0;
    for (int hi = 0; hi < 2; ++hi)
    {
        for (int hj = 0; hj < 2; ++hj)
        {
            int body = bi[hi];
            if (body >= 0 && body == bj[hj])
            {
                const double* x = ji + 3 * hi;
                const double* y = jj + 3 * hj;
                s += p->inv_mass[body] * (x[0] * y[0] + x[1] * y[1]) + p->inv_inertia[body] * x[2] * y[2];
            }
        }
    }
    return s;
}

cs_status cs_pgs_block_begin(cs_solve_ctx* ctx, cs_error* err)
{
    (void)err;
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    for (int i = 0; i < m; ++i)
    {
        w->scratch[i] = -1.0;
        w->x[i] = 0.0;
    }
    // The first friction row linked to each normal row, when both have columns, makes a block with it.
    for (int f = 0; f < m; ++f)
    {
        int n = p->link[f];
        if (p->kind[f] != CS_ROW_FRICTION || n < 0 || n >= m || p->kind[n] != CS_ROW_NORMAL ||
            w->scratch[n] != -1.0 || !(w->diag[n] > 0.0) || !(w->diag[f] > 0.0))
        {
            continue;
        }
        w->scratch[n] = (double)f;
        w->scratch[f] = -2.0;
        w->x[n] = coupling(p, n, f);
    }
    return CS_OK;
}

// The exact answer of the local 2×2 contact problem (cases above); false when none of the cases holds.
static bool local_solve(double dnn, double dnt, double dtt, double cn, double ct, double mu, double* zn,
                        double* zt)
{
    if (cn >= 0.0)
    {
        *zn = *zt = 0.0; // separate
        return true;
    }
    double det = dnn * dtt - dnt * dnt;
    if (det > 1e-14 * dnn * dtt)
    {
        // Stick, eq. (18): z = −D⁻¹c.
        double n = (-cn * dtt + ct * dnt) / det;
        double t = (-ct * dnn + cn * dnt) / det;
        if (n >= 0.0 && fabs(t) <= mu * n)
        {
            *zn = n;
            *zt = t;
            return true;
        }
    }
    for (int k = 0; k < 2; ++k)
    {
        // Slide, eq. (21) with the direction a sign: z_t = sμz_n, w_n = 0.
        double s = k == 0 ? 1.0 : -1.0;
        double denom = dnn + s * mu * dnt;
        if (!(denom > 0.0))
        {
            continue;
        }
        double n = -cn / denom;
        double wt = (dnt + s * mu * dtt) * n + ct;
        if (n >= 0.0 && s * wt <= 0.0)
        {
            *zn = n;
            *zt = s * mu * n;
            return true;
        }
    }
    return false;
}

// One PGS row update through memory (the rows outside blocks, and the fallback).
static void pgs_row(const cs_lcp* p, const cs_packed_row* r, int i, double* v, double* lambda)
{
    if (r->kind & CS_PACK_SKIP)
    {
        return;
    }
    double lo, hi;
    cs_pack_bounds(r, p, lambda, i, &lo, &hi);
    double old = lambda[i];
    double next = cs_clamp(old - cs_pack_step_reg(r, r->bias, v, old), lo, hi);
    lambda[i] = next;
    cs_pack_apply(r, next - old, v);
}

void cs_pgs_block_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    const cs_packed_row* rows = cs_packed_rows(w);
    double* v = w->v;
    double* lambda = ctx->lambda;
    for (int i = 0; i < p->row_count; ++i)
    {
        double role = w->scratch[i];
        if (role == -2.0)
        {
            continue; // solved with its normal row
        }
        if (role < 0.0)
        {
            pgs_row(p, rows + i, i, v, lambda);
            continue;
        }
        int f = (int)role;
        // Algorithm 3.1 lines 6–9: the local residual from the current velocities (w = A_ii·step). A
        // regularised normal row's d_nn includes ε (solve.c) and its w the ε λ_n of eq. (14), so the block is
        // that of A + Σ; friction rows are never regularised.
        double dnn = w->diag[i], dtt = w->diag[f], dnt = w->x[i];
        double ln = lambda[i], lt = lambda[f];
        double wn = dnn * cs_pack_step_reg(rows + i, rows[i].bias, v, ln);
        double wt = dtt * cs_pack_step_reg(rows + f, rows[f].bias, v, lt);
        double cn = wn - (dnn * ln + dnt * lt);
        double ct = wt - (dnt * ln + dtt * lt);
        double zn, zt;
        if (!local_solve(dnn, dnt, dtt, cn, ct, p->mu[f], &zn, &zt))
        {
            pgs_row(p, rows + i, i, v, lambda);
            pgs_row(p, rows + f, f, v, lambda);
            continue;
        }
        // Lines 11–15: the differences onto the bodies.
        lambda[i] = zn;
        lambda[f] = zt;
        cs_pack_apply(rows + i, zn - ln, v);
        cs_pack_apply(rows + f, zt - lt, v);
    }
}
