// Projected Gauss-Seidel, paper eq. (4), in velocity form (sequential impulses, paper §3): the row
// product (Aλ)_i is J_i·v with v = v* + M⁻¹Jᵀλ kept current, so a sweep costs O(nnz(J)) and A is
// never formed. Rows are swept in file order (cs_sweep, solver_internal.h):
//     λ_i ← clamp(λ_i − (J_i·v + b_i)/A_ii, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i
#include "solver/solver_internal.h"

void cs_pgs_sweep(cs_solve_ctx* ctx)
{
    cs_rule_state none = {0};
    cs_sweep(CS_RULE_PGS, &none, ctx->p, cs_packed_rows(ctx->work), ctx->work->v, ctx->lambda);
}

// The split-impulse sweep (cs_solve_split): rows first + k·stride with biases bias[k] (already divided by
// A_ii), bounds [0, +∞). Circle normal rows take the NORMAL_ROW path of cs_sweep with the same operations,
// so the result equals a PGS solve of those rows packed as a problem of their own.
void cs_pgs_split_sweep(const cs_packed_row* rows, int first, int stride, int count, const double* bias,
                        double* lambda, double* v)
{
    cs_rule_state none = {0};
    for (int k = 0; k < count; ++k)
    {
        const cs_packed_row* r = rows + first + (size_t)k * (size_t)stride;
        uint32_t kind = r->kind & ~(uint32_t)CS_PACK_PAIR; // pairs are a property of the velocity problem
        double old = lambda[k];
        if (kind == CS_PACK_NORMAL_ROW)
        {
            cs_halves h;
            cs_halves_load(&h, v, r, true);
            double next = cs_rule_apply(CS_RULE_PGS, &none, k, cs_halves_step(r, bias[k], &h, true), old, 0.0,
                                        INFINITY, true);
            cs_halves_apply(r, &h, next - old, true);
            cs_halves_store(&h, v, true);
            lambda[k] = next;
        }
        else if (!(kind & CS_PACK_SKIP))
        {
            double next =
                cs_rule_apply(CS_RULE_PGS, &none, k, cs_pack_step(r, bias[k], v), old, 0.0, INFINITY, false);
            lambda[k] = next;
            cs_pack_apply(r, next - old, v);
        }
    }
}
