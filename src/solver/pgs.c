// Projected Gauss-Seidel, paper eq. (4), in velocity form (sequential impulses, paper §3): the row
// product (Aλ)_i is J_i·v with v = v* + M⁻¹Jᵀλ kept current, so a sweep costs O(nnz(J)) and A is
// never formed. Rows are swept in file order (cs_sweep, sweep.h):
//     λ_i ← clamp(λ_i − (J_i·v + b_i)/A_ii, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i
// With a vector schedule (simd.h) runs of four independent rows or pairs are updated in the lanes of one
// vector; the order of the updates, and so every bit of the result, is the same.
#include "solver/simd.h"
#include "solver/solver_internal.h"

void cs_pgs_sweep(cs_solve_ctx* ctx)
{
    cs_rule_state none = {0};
    if (ctx->work->schedule_count > 0)
    {
        cs_sweep_lanes(CS_RULE_PGS, &none, ctx);
        return;
    }
    cs_sweep(CS_RULE_PGS, &none, ctx->p, cs_packed_rows(ctx->work), ctx->work->v, ctx->lambda, 0,
             ctx->p->row_count);
}

void cs_pgs_sweeps(cs_solve_ctx* ctx, int sweeps)
{
    cs_rule_state st = {0};
    cs_sweeps_fused_or(CS_RULE_PGS, &st, ctx, sweeps, cs_pgs_sweep);
}
