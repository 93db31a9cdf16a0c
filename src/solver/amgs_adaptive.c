// amgs-adaptive: AMGS with Ω = αD and α chosen from the sweeps themselves (the AMGS paper leaves the choice
// of Ω open). docs/amgs.md (c): for rows inside their box an AMGS sweep is an SOR sweep with ω = 2/(1 + αγ),
// so choosing α is choosing ω, and the classical answer for SOR is Young's optimum from the Jacobi spectral
// radius, ω* = 2/(1 + √(1 − ρ_J²)), with ρ_J² estimated from the Gauss-Seidel convergence ratio
// (ρ_GS = ρ_J² for consistently ordered matrices; Hageman & Young, Applied Iterative Methods, §9):
//   - start with αγ = 1, which is exactly PGS (docs/amgs.md (b));
//   - after each sweep measure the displacement d_k = ‖λ_k − λ_{k−1}‖₂ and its ratio r_k = d_k/d_{k−1};
//   - once r has been steady (|r_k − r_{k−1}| <= 5 % of r_k, after more than 3 sweeps) and is below 1,
//     take ρ_J² = r, ω* from Young's formula (capped at 1.995) and α = (2/ω* − 1)/γ for the rest of the
//     solve, restarting AMGS's modulus variable from the current λ (x = (γ/2)λ, as a fresh `amgs` would).
// One estimate, never revised: docs/amgs.md ('Adaptive α') has the measurements, and why Hageman and
// Young's later increases of ω (on a ratio above (ω − 1)^{3/4}) made it much worse here. Nothing in it is
// problem-specific. Cost per sweep: the AMGS sweep plus one copy and one norm over λ (O(m)).
#include "solver/solver_internal.h"

#include <math.h>
#include <string.h>

enum
{
    K_OMEGA = 4, // ctx->method[0..3] are amgs.c's coefficients; begin leaves 4..7 zero
    K_PREVIOUS = 5,
    K_COUNT = 6, // sweeps so far; −1 once α is fixed
    K_RATIO = 7,
    SETTLE = 3, // sweeps before a ratio is trusted (the first ones carry the start point's transient)
};

static const double omega_max = 1.995; // α >= 0.0025/γ: keeps the step away from the ω = 2 boundary
static const double steady = 0.05;

void cs_amgs_adaptive_sweep(cs_solve_ctx* ctx)
{
    if (ctx->method[K_COUNT] < 0.0)
    {
        cs_amgs_sweep(ctx); // α already chosen
        return;
    }
    int m = ctx->p->row_count;
    double* previous = ctx->work->scratch; // unused by AMGS with Ω = αD
    if (m > 0) // (lambda may be NULL for an empty problem: memcpy from NULL is undefined)
    {
        memcpy(previous, ctx->lambda, (size_t)m * sizeof(double));
    }
    cs_amgs_sweep(ctx);
    double d2 = 0.0;
    for (int i = 0; i < m; ++i)
    {
        double d = ctx->lambda[i] - previous[i];
        d2 += d * d;
    }
    double d = sqrt(d2);
    double last = ctx->method[K_PREVIOUS];
    double count = ctx->method[K_COUNT] + 1.0;
    double r = last > 0.0 ? d / last : 0.0;
    if (count > SETTLE && r < 1.0 && fabs(r - ctx->method[K_RATIO]) <= steady * r)
    {
        double omega = fmin(2.0 / (1.0 + sqrt(1.0 - r)), omega_max);
        cs_amgs_set_alpha(ctx, (2.0 / omega - 1.0) / ctx->params->gamma);
        ctx->method[K_OMEGA] = omega;
        // A fresh AMGS start from the current λ (x = (γ/2)λ, as amgs.c's begin): the modulus variable of
        // the PGS phase holds the cut-off parts at the PGS scale Ω = D/γ, not at the new α's.
        for (int i = 0; i < m; ++i)
        {
            ctx->work->x[i] = 0.5 * ctx->params->gamma * ctx->lambda[i];
        }
        count = -1.0;
    }
    ctx->method[K_PREVIOUS] = d;
    ctx->method[K_COUNT] = count;
    ctx->method[K_RATIO] = r;
}
