// `apgd`: accelerated projected gradient (Nesterov's momentum, FISTA form) with adaptive restart
// (O'Donoghue & Candès 2015: restart when the momentum points uphill, gᵀ(x⁺ − x) > 0), the method of
// Mazhar et al. (2015) for contact problems, on the quadratic ½λᵀAλ + qᵀλ over the bounds. The gradient
// Aλ + q = J v(λ) + b is read from velocities, never from A, and the step is the mass-split diagonal D̃⁻¹ of
// `jacobi` (jacobi.c: A ⪯ D̃ = diag(n_i A_ii), so D̃ is a valid Lipschitz metric and no power iteration or
// line search is needed). Per iteration, with y the extrapolated point and θ the momentum counter:
//     x⁺ = clamp(y − D̃⁻¹(A y + q)),  θ⁺ = (1 + √(1 + 4θ²))/2,  y ← x⁺ + ((θ − 1)/θ⁺)(x⁺ − x)
// (θ⁺ = 1 and y = x⁺ on a restart). v is affine in λ, so v(y) = v(x⁺) + β(v(x⁺) − v(x)) costs O(bodies).
// For A symmetric positive definite and fixed bounds the objective error falls as O(1/k²) (with restart,
// linearly); friction bounds (projected with the new λ_n, normal rows first) are outside that theory.
// Cost per iteration O(nnz(J)) + O(bodies + rows).
#include "solver/solver_internal.h"

enum
{
    ROW_ARRAYS = 2,  // y, x⁺
    BODY_ARRAYS = 2, // v(y), v(x) before the step
    THETA = 0,       // ctx->method[THETA]: θ
};

cs_status cs_apgd_begin(cs_solve_ctx* ctx, cs_error* err)
{
    cs_status s = cs_split_scales(ctx, 1.0, ROW_ARRAYS, BODY_ARRAYS, err);
    if (s != CS_OK)
    {
        return s;
    }
    int m = ctx->p->row_count;
    size_t nv = 3 * ((size_t)ctx->p->body_count + 1); // with the zero slot static halves point at
    if (m > 0)                                        // (lambda may be NULL for an empty problem)
    {
        memcpy(ctx->work->dense + m, ctx->lambda, (size_t)m * sizeof(double)); // y = x⁰
    }
    memcpy(cs_split_body_array(ctx, ROW_ARRAYS, 0), ctx->work->v, nv * sizeof(double));
    ctx->method[THETA] = 1.0;
    return CS_OK;
}

void cs_apgd_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    const cs_packed_row* rows = cs_packed_rows(w);
    int m = p->row_count;
    size_t nv = 3 * ((size_t)p->body_count + 1);
    double* y = w->dense + m;
    double* next = w->dense + 2 * (size_t)m;
    double* vy = cs_split_body_array(ctx, ROW_ARRAYS, 0);
    double* vx = cs_split_body_array(ctx, ROW_ARRAYS, 1);
    double* steps = w->scratch;
    double* x = ctx->lambda;

    // x⁺ = clamp(y − D̃⁻¹ g(y)), normal and box rows first so that friction rows see the new λ_n.
    for (int i = 0; i < m; ++i)
    {
        steps[i] = cs_pack_step_reg(rows + i, rows[i].bias, vy, y[i]); // g_i(y) / A_ii
    }
    cs_split_project(ctx, y, steps, y, next, 0);
    cs_split_project(ctx, y, steps, next, next, 1);

    // Restart when g(y)ᵀ(x⁺ − x) > 0: the step went uphill from the last iterate.
    double uphill = 0.0;
    for (int i = 0; i < m; ++i)
    {
        uphill += w->diag[i] * steps[i] * (next[i] - x[i]);
    }
    double theta = ctx->method[THETA];
    double theta_next = 0.5 * (1.0 + sqrt(1.0 + 4.0 * theta * theta));
    double beta = (theta - 1.0) / theta_next;
    if (uphill > 0.0)
    {
        theta_next = 1.0;
        beta = 0.0;
    }
    ctx->method[THETA] = theta_next;

    // v(x⁺) from v(x), then the extrapolation of both λ and v.
    memcpy(vx, w->v, nv * sizeof(double));
    for (int i = 0; i < m; ++i)
    {
        double d = next[i] - x[i];
        if (d != 0.0)
        {
            cs_pack_apply(rows + i, d, w->v);
        }
    }
    for (int i = 0; i < m; ++i)
    {
        y[i] = next[i] + beta * (next[i] - x[i]);
        x[i] = next[i];
    }
    for (size_t k = 0; k < nv; ++k)
    {
        vy[k] = w->v[k] + beta * (w->v[k] - vx[k]);
    }
}
