// Projected SOR (`psor`) and its symmetric sweep (`pssor`): PGS (pgs.c, paper eq. (4)) with the step
// scaled by the relaxation factor ω = params.relaxation, in velocity form:
//     λ_i ← clamp(λ_i − ω·(J_i·v + b_i)/A_ii, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i
// For A symmetric positive definite and fixed bounds it converges for every ω in (0, 2) (Cryer 1971, the
// projected Ostrowski–Reich theorem), the range accepted here (and the scene key's). Friction bounds move
// with λ_n; there ω > 1 is not covered and can cycle (tests/test_solver_lab.c keeps friction to ω <= 1).
// ω = 1 is PGS bit for bit (ω·step with ω = 1 is step exactly), and the rule runs in the same vector
// lanes as PGS (simd_avx2.c: one more multiply per row, the same IEEE operations as the scalar rule).
// `pssor` follows each forward sweep with a backward one (rows in reverse order), the projected form of
// SSOR: one iteration costs two sweeps. The backward sweep takes every row through the generic path
// (no pairs, no lanes: a pair's fast path assumes the normal row comes first).
#include "solver/simd.h"
#include "solver/solver_internal.h"

cs_status cs_psor_begin(cs_solve_ctx* ctx, cs_error* err)
{
    double omega = ctx->params->relaxation;
    if (!(omega > 0.0 && omega < 2.0))
    {
        return cs_fail(err, CS_ERR_USAGE, "PSOR needs a relaxation factor in (0, 2), got %g", omega);
    }
    return CS_OK;
}

static cs_rule_state psor_state(const cs_solve_ctx* ctx)
{
    cs_rule_state st = {0};
    st.f = ctx->params->relaxation; // ω (cs_rule_apply's CS_RULE_PSOR)
    return st;
}

void cs_psor_sweep(cs_solve_ctx* ctx)
{
    cs_rule_state st = psor_state(ctx);
    if (ctx->work->schedule_count > 0)
    {
        cs_sweep_lanes(CS_RULE_PSOR, &st, ctx);
        return;
    }
    cs_sweep(CS_RULE_PSOR, &st, ctx->p, cs_packed_rows(ctx->work), ctx->work->v, ctx->lambda, 0,
             ctx->p->row_count);
}

// `sweeps` forward sweeps, fused when the solve has a plan (the rule is row-local: fuse.h), else one by one.
void cs_psor_sweeps(cs_solve_ctx* ctx, int sweeps)
{
    cs_rule_state st = psor_state(ctx);
    cs_sweeps_fused_or(CS_RULE_PSOR, &st, ctx, sweeps, cs_psor_sweep);
}

// Rows m − 1 … 0, each through memory (friction bounds from the current λ[link], as forward).
static void backward_sweep(const cs_rule_state* st, const cs_lcp* p, const cs_packed_row* rows, double* v,
                           double* lambda)
{
    for (int i = p->row_count - 1; i >= 0; --i)
    {
        const cs_packed_row* r = rows + i;
        if (r->kind & CS_PACK_SKIP)
        {
            continue;
        }
        double lo, hi;
        cs_pack_bounds(r, p, lambda, i, &lo, &hi);
        double old = lambda[i];
        double next =
            cs_rule_apply(CS_RULE_PSOR, st, i, cs_pack_step_reg(r, r->bias, v, old), old, lo, hi, false);
        lambda[i] = next;
        cs_pack_apply(r, next - old, v);
    }
}

void cs_pssor_sweep(cs_solve_ctx* ctx)
{
    cs_psor_sweep(ctx);
    cs_rule_state st = psor_state(ctx);
    backward_sweep(&st, ctx->p, cs_packed_rows(ctx->work), ctx->work->v, ctx->lambda);
}
