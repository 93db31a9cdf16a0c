// Projected Gauss-Seidel, paper eq. (4), in velocity form (sequential impulses, paper §3): the row
// product (Aλ)_i is J_i·v with v = v* + M⁻¹Jᵀλ kept current, so a sweep costs O(nnz(J)) and A is
// never formed.
#include "solver/solver_internal.h"

void cs_pgs_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    const int m = p->row_count;
    const int* body_a = p->body_a;
    const int* body_b = p->body_b;
    const double* jac = p->jac;
    const double* bias = p->bias;
    const double* mjt = ctx->work->mjt;
    const double* inv_diag = ctx->work->inv_diag;
    double* v = ctx->work->v;
    double* lambda = ctx->lambda;

    for (int i = 0; i < m; ++i)
    {
        double d = inv_diag[i];
        if (d == 0.0)
        {
            continue; // a row with no columns (both halves static or massless): nothing to move
        }
        int a = body_a[i];
        int b = body_b[i];
        double w = cs_row_jv(jac + 6 * i, a, b, v) + bias[i];
        double lo, hi;
        cs_row_bounds(p, lambda, i, &lo, &hi); // friction: from the CURRENT λ[link]
        double old = lambda[i];
        double next = cs_clamp(old - w * d, lo, hi);
        lambda[i] = next;
        cs_row_apply(mjt + 6 * i, a, b, next - old, v);
    }
}
