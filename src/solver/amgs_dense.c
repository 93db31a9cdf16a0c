// `amgs-dense`: the paper's Method 2.2 on the explicit A = J M⁻¹ Jᵀ, the baseline Method 3.1 was
// made to beat (§3: O(m²) per sweep instead of O(nnz(J))). Slow by design; it exists for the
// timing comparison and as an independent transcription that must give the same iterates as
// `amgs` (Ω = αD). Box and friction rows use the same two-sided form as amgs.c; the literal
// Method 3.2 switch is not offered here.
#include "solver/operator.h"
#include "solver/solver_internal.h"

#include <string.h>

enum
{
    DENSE_MAX_ROWS = 8192, // A takes m² doubles: 512 MiB at this size
};

cs_status cs_amgs_dense_begin(cs_solve_ctx* ctx, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    const cs_solver_params* params = ctx->params;
    int m = p->row_count;
    if (!(params->alpha > 0.0) || !(params->gamma > 0.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "AMGS needs alpha > 0 and gamma > 0, got %g and %g", params->alpha,
                       params->gamma);
    }
    double ag = params->alpha * params->gamma;
    if (!isfinite(ag * params->gamma) || !(params->gamma / (1.0 + ag) > 0.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "AMGS: alpha %g and gamma %g overflow its coefficients",
                       params->alpha, params->gamma);
    }
    if (m > DENSE_MAX_ROWS)
    {
        return cs_fail(err, CS_ERR_USAGE, "amgs-dense: %d rows need a %d x %d matrix; its limit is %d rows",
                       m, m, m, DENSE_MAX_ROWS);
    }
    cs_status s = cs_grow_doubles(&w->dense, &w->dense_capacity, m * m > 0 ? m * m : 1, err);
    if (s != CS_OK)
    {
        return s;
    }
    // Forming A is part of the method's cost (the paper's Method 2.2 needs it every step).
    for (int i = 0; i < m; ++i)
    {
        for (int j = 0; j < m; ++j)
        {
            w->dense[(size_t)i * m + j] = cs_dense_entry(p, w->mjt, i, j);
        }
        w->dense[(size_t)i * m + i] += p->reg != NULL ? p->reg[i] : 0.0; // A + Σ (eq. (3))
    }
    // q = J v* + b into scratch; x⁰ = (γ/2)λ⁰.
    for (int i = 0; i < m; ++i)
    {
        w->scratch[i] = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], p->v) + p->bias[i];
        w->x[i] = 0.5 * params->gamma * ctx->lambda[i];
    }
    return CS_OK;
}

void cs_amgs_dense_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    const int m = p->row_count;
    const double* A = w->dense;
    const double* q = w->scratch;
    double* x = w->x;
    double* lambda = ctx->lambda;
    const double gamma = ctx->params->gamma;
    const double ag = ctx->params->alpha * gamma; // γΩ_ii = αγ A_ii
    const double s = 2.0 / gamma;

    for (int i = 0; i < m; ++i)
    {
        const double* row = A + (size_t)i * m;
        double a_ii = row[i];
        if (!(a_ii > 0.0))
        {
            continue;
        }
        // Σ_{j<i} A_ij λ_j^{k+1} + Σ_{j≥i} A_ij λ_j^k + q_i: λ is updated in place (eq. (14)).
        double r = q[i];
        for (int j = 0; j < m; ++j)
        {
            r += row[j] * lambda[j];
        }
        double lo, hi;
        cs_row_bounds(p, lambda, i, &lo, &hi);
        double e = s * x[i] - lambda[i]; // = −(2/γ)(x₋)_i for an LCP row
        x[i] -= gamma / (a_ii + ag * a_ii) * (r + ag * a_ii * e);
        lambda[i] = cs_clamp(s * x[i], lo, hi);
    }
    // The driver reads residuals from v: rebuild v = v* + M⁻¹Jᵀλ (O(nnz(J)), small next to O(m²)).
    if (p->body_count > 0) // an empty problem may have no arrays at all (memcpy from NULL is undefined)
    {
        memcpy(w->v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    }
    for (int i = 0; i < m; ++i)
    {
        if (lambda[i] != 0.0)
        {
            cs_row_apply(w->mjt + 6 * i, p->body_a[i], p->body_b[i], lambda[i], w->v);
        }
    }
}
