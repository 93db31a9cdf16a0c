// AMGS in velocity form: the paper's Method 3.1 (Ω = αD, `amgs`, or Ω = ω̄E, `amgs-omega`),
// extended to box and friction rows in the two-sided form derived in docs/amgs.md.
//
// Per row i, with y = (2/γ)x, λ_i the current impulse and e_i = y_i − λ_i:
//     x_i ← x_i − γ/(A_ii + γΩ_ii) · (J_i·v + b_i + γΩ_ii e_i)
//     λ_i ← clamp((2/γ)x_i, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i
// For a normal row (l = 0, u = ∞) e = −(2/γ)x₋, so γΩe = −2Ωx₋ and this is Method 3.1 verbatim.
// For a box its fixed points are exactly the BLCP conditions (w = −γΩe), which the literal
// Method 3.2 (params->amgs_literal, kept for comparison) does not have.
// The sweep costs O(nnz(J)) like PGS (cs_sweep, sweep.h, with the AMGS rule): the per-row
// step γ/(A_ii + γΩ_ii) is precomputed once per solve (for Ω = αD it is a constant times 1/A_ii).
#include "solver/simd.h"
#include "solver/solver_internal.h"

// The coefficients (cs_rule_state, sweep.h) live in the context between begin and the sweeps:
// method[K_F], [K_G], [K_H] are f, g, h; method[K_ROWS] != 0 when c_i is per row (work->scratch).
enum
{
    K_F = 0,
    K_G = 1,
    K_H = 2,
    K_ROWS = 3,
};

// Shared set-up: derives x⁰ from λ⁰ and, for the literal variant, projects λ⁰.
static cs_status amgs_begin(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    const cs_solver_params* params = ctx->params;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    if (params->amgs_literal)
    {
        // Method 3.2 starts from λ⁰ ← p_BLCP(λ⁰); the driver's v must follow the projection.
        const cs_packed_row* rows = cs_packed_rows(w);
        for (int i = 0; i < m; ++i)
        {
            double lo, hi;
            cs_row_bounds(p, ctx->lambda, i, &lo, &hi);
            double l = cs_clamp(ctx->lambda[i], lo, hi);
            if (l != ctx->lambda[i])
            {
                cs_pack_apply(rows + i, l - ctx->lambda[i], w->v);
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
    if (!isfinite(alpha * gamma * gamma) || !(gamma / (1.0 + alpha * gamma) > 0.0))
    {
        // (issue 13: --alpha 1e308 gave NaN with no message) the coefficients overflow or underflow.
        return cs_fail(err, CS_ERR_USAGE, "AMGS: alpha %g and gamma %g overflow its coefficients", alpha,
                       gamma);
    }
    cs_amgs_set_alpha(ctx, alpha);
    return amgs_begin(ctx);
}

void cs_amgs_set_alpha(cs_solve_ctx* ctx, double alpha)
{
    // γΩ = αγD: c_i·A_ii = γ/(1+αγ) and c_i·γΩ_ii = αγ²/(1+αγ), the same for every row.
    double gamma = ctx->params->gamma;
    double ag = alpha * gamma;
    ctx->method[K_F] = gamma / (1.0 + ag);
    ctx->method[K_G] = ag * gamma / (1.0 + ag);
    ctx->method[K_H] = 0.0;
    ctx->method[K_ROWS] = 0.0;
}

cs_status cs_amgs_adaptive_begin(cs_solve_ctx* ctx, cs_error* err)
{
    if (!(ctx->params->gamma > 0.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "AMGS needs gamma > 0, got %g", ctx->params->gamma);
    }
    cs_amgs_set_alpha(ctx, 1.0 / ctx->params->gamma); // αγ = 1: PGS (docs/amgs.md (b)) until adapted
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
        ctx->work->scratch[i] = diag[i] > 0.0 ? gamma / (diag[i] + g_omega) : 0.0; // c_i
    }
    ctx->method[K_F] = 0.0;
    ctx->method[K_G] = 0.0;
    ctx->method[K_H] = g_omega; // κ_i = γω̄·c_i
    ctx->method[K_ROWS] = 1.0;
    return amgs_begin(ctx);
}

static cs_rule_state amgs_state(const cs_solve_ctx* ctx)
{
    cs_solver_work* w = ctx->work;
    cs_rule_state st = {
        .x = w->x,
        .c = ctx->method[K_ROWS] != 0.0 ? w->scratch : NULL,
        .diag = w->diag,
        .f = ctx->method[K_F],
        .g = ctx->method[K_G],
        .h = ctx->method[K_H],
        .s = 2.0 / ctx->params->gamma, // y = (2/γ)x
        .half_gamma = 0.5 * ctx->params->gamma,
    };
    return st;
}

void cs_amgs_sweep(cs_solve_ctx* ctx)
{
    cs_solver_work* w = ctx->work;
    cs_rule_state st = amgs_state(ctx);
    const cs_packed_row* rows = cs_packed_rows(w);
    // One call site per variant, so that each is specialised (constant f and κ for Ω = αD).
    if (ctx->params->amgs_literal)
    {
        // The paper's Method 3.2 as printed; for normal rows it is Method 3.1 (identical iterates), for a
        // friction row a negative x inside the box is treated as "below zero", which moves the fixed
        // point (docs/amgs.md; tests/test_solver_amgs.c shows it failing to converge).
        cs_sweep(CS_RULE_AMGS_LITERAL, &st, ctx->p, rows, w->v, ctx->lambda, 0, ctx->p->row_count);
    }
    else if (w->schedule_count > 0)
    {
        cs_sweep_lanes(CS_RULE_AMGS, &st, ctx); // runs of independent pairs in vector lanes (simd.h)
    }
    else if (st.c != NULL)
    {
        cs_sweep(CS_RULE_AMGS, &st, ctx->p, rows, w->v, ctx->lambda, 0, ctx->p->row_count);
    }
    else
    {
        cs_rule_state alpha_d = st;
        alpha_d.c = NULL; // visibly constant here, so this call site gets constant f and κ
        cs_sweep(CS_RULE_AMGS, &alpha_d, ctx->p, rows, w->v, ctx->lambda, 0, ctx->p->row_count);
    }
}

// The rule is row-local (x_i, c_i and A_ii belong to row i), so the sweeps fuse as PGS's do (the literal
// variant has no vector schedule, hence no plan).
void cs_amgs_sweeps(cs_solve_ctx* ctx, int sweeps)
{
    cs_rule_state st = amgs_state(ctx);
    cs_sweeps_fused_or(CS_RULE_AMGS, &st, ctx, sweeps, cs_amgs_sweep);
}
