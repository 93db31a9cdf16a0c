// AMGS in velocity form: the paper's Method 3.1 (Ω = αD, `amgs`, or Ω = ω̄E, `amgs-omega`),
// extended to box and friction rows in the two-sided form derived in docs/amgs.md.
//
// Per row i, with y = (2/γ)x, λ_i the current impulse and e_i = y_i − λ_i:
//     x_i ← x_i − γ/(A_ii + γΩ_ii) · (J_i·v + b_i + γΩ_ii e_i)
//     λ_i ← clamp((2/γ)x_i, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i
// For a normal row (l = 0, u = ∞) e = −(2/γ)x₋, so γΩe = −2Ωx₋ and this is Method 3.1 verbatim.
// For a box its fixed points are exactly the BLCP conditions (w = −γΩe), which the literal
// Method 3.2 (params->amgs_literal, kept for comparison) does not have.
// The sweep costs O(nnz(J)) like PGS: the per-row step γ/(A_ii + γΩ_ii) is precomputed once per
// solve (for Ω = αD it is a constant times the driver's 1/A_ii).
#include "solver/solver_internal.h"

// Per-row coefficients, kept as scalars so that one loop serves both Ω choices without a per-row
// branch, a function pointer or an extra array stream (the sweep should cost what PGS costs):
//   c_i = f · base_i            the step γ/(A_ii + γΩ_ii)
//   κ_i = g + h · c_i           c_i · γΩ_ii, the weight of e_i
// Ω = αD:  base = 1/A_ii (the driver's inv_diag), f = γ/(1+αγ), κ = αγ²/(1+αγ) constant (h = 0).
// Ω = ω̄E: base = γ/(A_ii + γω̄) precomputed in work->scratch, f = 1, g = 0, h = γω̄.
enum
{
    K_F = 0,
    K_G = 1,
    K_H = 2,
    K_BASE = 3, // 0: inv_diag, 1: scratch
};

// Shared set-up: checks γ, derives x⁰ from λ⁰ and, for the literal variant, projects λ⁰.
static cs_status amgs_begin(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    const cs_solver_params* params = ctx->params;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    if (params->amgs_literal)
    {
        // Method 3.2 starts from λ⁰ ← p_BLCP(λ⁰); the driver's v must follow the projection.
        for (int i = 0; i < m; ++i)
        {
            double lo, hi;
            cs_row_bounds(p, ctx->lambda, i, &lo, &hi);
            double l = cs_clamp(ctx->lambda[i], lo, hi);
            if (l != ctx->lambda[i])
            {
                cs_row_apply(w->mjt + 6 * i, p->body_a[i], p->body_b[i], l - ctx->lambda[i], w->v);
                ctx->lambda[i] = l;
            }
        }
    }
    // x⁰ = (γ/2)λ⁰: x is re-derived from λ at every solve, so a warm start (or a solver switch
    // mid-run) carries over through λ alone.
    for (int i = 0; i < m; ++i)
    {
        w->x[i] = 0.5 * params->gamma * ctx->lambda[i];
    }
    return CS_OK;
}

cs_status cs_amgs_begin(cs_solve_ctx* ctx, cs_error* err)
{
    double alpha = ctx->params->alpha, gamma = ctx->params->gamma;
    if (!(alpha > 0.0) || !(gamma > 0.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "AMGS needs alpha > 0 and gamma > 0, got %g and %g", alpha, gamma);
    }
    double ag = alpha * gamma; // γΩ = αγD
    ctx->method[K_F] = gamma / (1.0 + ag);
    ctx->method[K_G] = ag * gamma / (1.0 + ag);
    ctx->method[K_H] = 0.0;
    ctx->method[K_BASE] = 0.0;
    return amgs_begin(ctx);
}

// ω̄ = mean(D_ii)/γ over the rows that have columns, recomputed for every problem, so that
// γΩ = mean(D_ii)·E: the scalar Ω of Zheng & Yin / Remark 4.5 matched to D on average.
cs_status cs_amgs_omega_begin(cs_solve_ctx* ctx, cs_error* err)
{
    double gamma = ctx->params->gamma;
    if (!(gamma > 0.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "AMGS needs gamma > 0, got %g", gamma);
    }
    const double* diag = ctx->work->diag;
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < ctx->p->row_count; ++i)
    {
        if (diag[i] > 0.0)
        {
            sum += diag[i];
            count += 1;
        }
    }
    double g_omega = count > 0 ? sum / count : 0.0; // γω̄
    for (int i = 0; i < ctx->p->row_count; ++i)
    {
        ctx->work->scratch[i] = diag[i] > 0.0 ? gamma / (diag[i] + g_omega) : 0.0;
    }
    ctx->method[K_F] = 1.0;
    ctx->method[K_G] = 0.0;
    ctx->method[K_H] = g_omega;
    ctx->method[K_BASE] = 1.0;
    return amgs_begin(ctx);
}

void cs_amgs_sweep(cs_solve_ctx* ctx)
{
    const double f = ctx->method[K_F];
    const double g = ctx->method[K_G];
    const double h = ctx->method[K_H];
    const cs_lcp* p = ctx->p;
    const int m = p->row_count;
    const int* body_a = p->body_a;
    const int* body_b = p->body_b;
    const double* jac = p->jac;
    const double* bias = p->bias;
    const double* mjt = ctx->work->mjt;
    const double* base = ctx->method[K_BASE] == 0.0 ? ctx->work->inv_diag : ctx->work->scratch;
    double* x = ctx->work->x;
    double* v = ctx->work->v;
    double* lambda = ctx->lambda;
    const double s = 2.0 / ctx->params->gamma; // y = (2/γ)x

    if (!ctx->params->amgs_literal)
    {
        for (int i = 0; i < m; ++i)
        {
            double c = f * base[i];
            if (c == 0.0)
            {
                continue; // no columns: nothing to move
            }
            int a = body_a[i];
            int b = body_b[i];
            double w = cs_row_jv(jac + 6 * i, a, b, v) + bias[i];
            double lo, hi;
            cs_row_bounds(p, lambda, i, &lo, &hi); // friction: from the CURRENT λ[link]
            double old = lambda[i];
            double e = s * x[i] - old; // the part of y the box cut off (0 inside the box)
            double xi = x[i] - (c * w + (g + h * c) * e);
            x[i] = xi;
            double next = cs_clamp(s * xi, lo, hi);
            lambda[i] = next;
            cs_row_apply(mjt + 6 * i, a, b, next - old, v);
        }
        return;
    }
    // The paper's Method 3.2 as printed: λ_i = (2/γ) p_BLCP(x_i) and the −2Ω_ii (x₋)_i term of the
    // one-sided LCP kept for every row. For normal rows this is Method 3.1 (identical iterates);
    // for a friction row a negative x inside the box is treated as "below zero", which moves the
    // fixed point (docs/amgs.md; tests/test_solver_amgs.c shows it failing to converge).
    for (int i = 0; i < m; ++i)
    {
        double c = f * base[i];
        if (c == 0.0)
        {
            continue;
        }
        int a = body_a[i];
        int b = body_b[i];
        double w = cs_row_jv(jac + 6 * i, a, b, v) + bias[i];
        double lo, hi;
        cs_row_bounds(p, lambda, i, &lo, &hi);
        double x_minus = x[i] < 0.0 ? -x[i] : 0.0;
        // c·2Ω_ii x₋ = (2/γ)·κ_i·x₋
        double xi = x[i] - (c * w - s * (g + h * c) * x_minus);
        x[i] = xi;
        double old = lambda[i];
        double next = s * cs_clamp(xi, lo, hi);
        lambda[i] = next;
        cs_row_apply(mjt + 6 * i, a, b, next - old, v);
    }
}
