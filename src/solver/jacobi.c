// `jacobi`: projected Jacobi with mass-splitting damping. Every row takes its step from the same
// velocities (so the rows could be updated in any order, or in parallel):
//     λ_i ← clamp(λ_i − ω/(n_i A_ii) · (J_i·v + b_i), l_i, u_i)   for all i, then v ← v + M⁻¹Jᵀ Δλ
// with n_i the largest number of rows on either of row i's bodies. Why n_i: with u_ib = M_b^{-1/2} J_ibᵀ,
// λᵀAλ = Σ_b ‖Σ_{i on b} λ_i u_ib‖² ≤ Σ_b n_b Σ_{i on b} λ_i² ‖u_ib‖² ≤ Σ_i n_i A_ii λ_i² (Cauchy–Schwarz),
// so A ⪯ D̃ = diag(n_i A_ii): D̃⁻¹ is a safe gradient step, and for A symmetric positive definite with fixed
// bounds the projected iteration converges for every ω in (0, 2) (2D̃/ω − A ≻ 0). Undamped Jacobi (n_i = 1)
// diverges as soon as the rows on a body add up (three contacts pushing one disc the same way: D⁻¹A has the
// eigenvalue 3, so I − D⁻¹A has −2). Friction bounds come from the
// previous iterate's λ_n (a Jacobi step: no theorem covers moving bounds). ω = --relaxation, default 1.
// Regularised rows (cs_lcp.reg): the step is that of (A + Σ)λ + q with A_ii + ε_i in place of A_ii, and
// A + Σ ⪯ diag(n_i A_ii) + Σ ⪯ diag(n_i (A_ii + ε_i)) since n_i >= 1, so the same damping stays safe.
// This is the mass splitting of Tonge et al. (2012) written as a projected iteration; `apgd` (apgd.c)
// accelerates the same step. Cost per iteration O(nnz(J)) + O(bodies).
#include "solver/solver_internal.h"

cs_status cs_split_scales(cs_solve_ctx* ctx, double omega, int row_arrays, int body_arrays, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    int m = p->row_count, b = p->body_count;
    if (body_arrays < 1)
    {
        body_arrays = 1; // the row counts live in the first body array while the scales are made
    }
    long long need = (long long)m * (1 + row_arrays) + 3LL * (b + 1) * body_arrays;
    if (need > 0x7fffffff)
    {
        return cs_fail(err, CS_ERR_MEMORY, "%d rows: too large for the method's buffers", m);
    }
    cs_status s = cs_grow_doubles(&w->dense, &w->dense_capacity, (int)need, err);
    if (s != CS_OK)
    {
        return s;
    }
    double* scale = w->dense;
    double* count = cs_split_body_array(ctx, row_arrays, 0);
    for (int k = 0; k < b; ++k)
    {
        count[k] = 0.0;
    }
    for (int i = 0; i < m; ++i)
    {
        int a = p->body_a[i], c = p->body_b[i];
        if (a >= 0)
        {
            count[a] += 1.0;
        }
        if (c >= 0 && c != a)
        {
            count[c] += 1.0;
        }
    }
    for (int i = 0; i < m; ++i)
    {
        double na = p->body_a[i] >= 0 ? count[p->body_a[i]] : 1.0;
        double nb = p->body_b[i] >= 0 ? count[p->body_b[i]] : 1.0;
        scale[i] = w->diag[i] > 0.0 ? omega / (na > nb ? na : nb) : 0.0; // times the step w_i / A_ii
    }
    return CS_OK;
}

double* cs_split_body_array(const cs_solve_ctx* ctx, int row_arrays, int k)
{
    int m = ctx->p->row_count;
    return ctx->work->dense + (size_t)m * (1 + row_arrays) + 3 * ((size_t)ctx->p->body_count + 1) * k;
}

void cs_split_project(const cs_solve_ctx* ctx, const double* from, const double* steps,
                      const double* bounds_from, double* to, int pass)
{
    const cs_lcp* p = ctx->p;
    const cs_packed_row* rows = cs_packed_rows(ctx->work);
    const double* scale = ctx->work->dense;
    for (int i = 0; i < p->row_count; ++i)
    {
        const cs_packed_row* r = rows + i;
        bool friction = (r->kind & CS_PACK_FRICTION) != 0;
        if ((pass == 0) == friction)
        {
            continue; // pass 0: every row but friction rows; pass 1: friction rows
        }
        if (r->kind & CS_PACK_SKIP)
        {
            to[i] = from[i];
            continue;
        }
        double lo, hi;
        cs_pack_bounds(r, p, bounds_from, i, &lo, &hi);
        to[i] = cs_clamp(from[i] - scale[i] * steps[i], lo, hi);
    }
}

cs_status cs_jacobi_begin(cs_solve_ctx* ctx, cs_error* err)
{
    double omega = ctx->params->relaxation;
    if (!(omega > 0.0 && omega < 2.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "Jacobi needs a relaxation factor in (0, 2), got %g", omega);
    }
    return cs_split_scales(ctx, omega, 1, 1, err);
}

void cs_jacobi_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    const cs_packed_row* rows = cs_packed_rows(w);
    int m = p->row_count;
    double* next = w->dense + m;
    double* steps = w->scratch;
    for (int i = 0; i < m; ++i)
    {
        steps[i] = cs_pack_step_reg(rows + i, rows[i].bias, w->v, ctx->lambda[i]); // w_i / A_ii, one v
    }
    // Bounds from the previous iterate: friction rows see the old λ_n.
    cs_split_project(ctx, ctx->lambda, steps, ctx->lambda, next, 0);
    cs_split_project(ctx, ctx->lambda, steps, ctx->lambda, next, 1);
    for (int i = 0; i < m; ++i)
    {
        double d = next[i] - ctx->lambda[i];
        if (d != 0.0)
        {
            cs_pack_apply(rows + i, d, w->v);
        }
        ctx->lambda[i] = next[i];
    }
}
