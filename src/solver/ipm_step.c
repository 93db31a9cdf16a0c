// `ipm`'s Newton step (ipm.c has the method): the reduced system (A + Σ + D + C)Δλ = rhs of the iterate in
// the method's arrays, solved by GMRES on the symmetric part's factor (ipm_krylov.c), Mehrotra's predictor
// and corrector on one factorisation, and the step to the fraction τ of the boundary (MNS §4).
#include "solver/ipm.h"
#include "solver/ipm_krylov.h"

#include <math.h>

#define FRACTION_TO_BOUNDARY 0.9995

// Complementarity target of a bound: affine c = −s∘z, corrector c = σμ − s∘z − Δs_aff∘Δz_aff (Δ from the
// predictor, still in the arrays).
static double target(double s, double z, double ds, double dz, double sigma_mu, bool corrector)
{
    return -s * z + (corrector ? sigma_mu - ds * dz : 0.0);
}

// The Newton right-hand side into a->b (by free row) for the targets above; r_d = w − z_l + z_u,
// r_l = λ − l − s_l, r_u = u − λ − s_u are formed on the fly, and a friction row's coupling adds −C_fn r_l,n.
static void newton_rhs(const cs_lcp* p, const cs_ipm_arrays* a, const cs_subspace* sub, double sigma_mu,
                       bool corrector)
{
    for (int f = 0; f < sub->free_count; ++f)
    {
        int i = sub->free[f];
        double r = -(a->w[i] - a->zl[i] + a->zu[i]);
        if (a->sl[i] > 0.0)
        {
            double c = target(a->sl[i], a->zl[i], a->dsl[i], a->dzl[i], sigma_mu, corrector);
            r += (c - a->zl[i] * (a->lam[i] - a->lo[i] - a->sl[i])) / a->sl[i];
        }
        if (a->su[i] > 0.0)
        {
            double c = target(a->su[i], a->zu[i], a->dsu[i], a->dzu[i], sigma_mu, corrector);
            r -= (c - a->zu[i] * (a->hi[i] - a->lam[i] - a->su[i])) / a->su[i];
        }
        if (a->c[i] != 0.0)
        {
            int n = p->link[i];
            r -= a->c[i] * (a->lam[n] - a->sl[n]); // the normal row's r_l (its lower bound is 0)
        }
        a->b[f] = r; // by free row (the Krylov solve's vectors)
    }
}

// Δs and Δz from Δλ (a->dl) by back-substitution, normal rows before the friction rows that read their Δs_n.
static void recover(const cs_lcp* p, const cs_ipm_arrays* a, const cs_subspace* sub, double sigma_mu,
                    bool corrector)
{
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int f = 0; f < sub->free_count; ++f)
        {
            int i = sub->free[f];
            bool friction = p->kind[i] == CS_ROW_FRICTION;
            if (friction != (pass == 1))
            {
                continue;
            }
            // A friction row's bounds ∓μ s_n move with its normal row's slack: Δl = −μΔs_n, Δu = μΔs_n.
            int n = friction ? p->link[i] : -1;
            double dbound = n >= 0 && a->sl[n] > 0.0 ? p->mu[i] * a->dsl[n] : 0.0;
            double dl = a->dl[i];
            double dsl = 0.0, dzl = 0.0, dsu = 0.0, dzu = 0.0;
            if (a->sl[i] > 0.0)
            {
                double c = target(a->sl[i], a->zl[i], a->dsl[i], a->dzl[i], sigma_mu, corrector);
                dsl = dl + dbound + (a->lam[i] - a->lo[i] - a->sl[i]);
                dzl = (c - a->zl[i] * dsl) / a->sl[i];
            }
            if (a->su[i] > 0.0)
            {
                double c = target(a->su[i], a->zu[i], a->dsu[i], a->dzu[i], sigma_mu, corrector);
                dsu = -dl + dbound + (a->hi[i] - a->lam[i] - a->su[i]);
                dzu = (c - a->zu[i] * dsu) / a->su[i];
            }
            a->dsl[i] = dsl, a->dzl[i] = dzl, a->dsu[i] = dsu, a->dzu[i] = dzu;
        }
    }
}

// The largest α <= 1 with x + αΔx >= 0 for every positive x of the free rows.
static double max_step(const double* x, const double* dx, const cs_subspace* sub)
{
    double alpha = 1.0;
    for (int f = 0; f < sub->free_count; ++f)
    {
        int i = sub->free[f];
        if (x[i] > 0.0 && dx[i] < 0.0)
        {
            alpha = fmin(alpha, -x[i] / dx[i]);
        }
    }
    return alpha;
}

// μ after steps alpha_p (slacks) and alpha_d (multipliers) along the current direction.
static double mu_after(const cs_ipm_arrays* a, const cs_subspace* sub, double alpha_p, double alpha_d)
{
    double sum = 0.0;
    int count = 0;
    for (int f = 0; f < sub->free_count; ++f)
    {
        int i = sub->free[f];
        if (a->sl[i] > 0.0)
        {
            sum += (a->sl[i] + alpha_p * a->dsl[i]) * (a->zl[i] + alpha_d * a->dzl[i]), count += 1;
        }
        if (a->su[i] > 0.0)
        {
            sum += (a->su[i] + alpha_p * a->dsu[i]) * (a->zu[i] + alpha_d * a->dzu[i]), count += 1;
        }
    }
    return count > 0 ? sum / count : 0.0;
}

// One solve of the symmetric part (A + Σ + D) for sub->rhs into sub->step: CHOLMOD on this iteration's
// factor, PCG when asked or when CHOLMOD failed; false when neither gives a finite step.
static bool solve_symmetric(const cs_solve_ctx* ctx, cs_subspace* sub, bool factored)
{
    if (factored && cs_cholmod_backsolve(sub))
    {
        return true;
    }
    return cs_pcg_solve(sub, ctx->work, ctx->p->body_count);
}

// The Newton system (A + Σ + D + C) Δλ = b (b in a->b by free row) into a->dl by GMRES on the symmetric
// factor (ipm_krylov.c); Krylov tolerance 1e-12 with CHOLMOD, 1e-9 with PCG (whose own solves stop at 1e-12).
static bool solve_newton(const cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub, bool factored)
{
    cs_ipm_krylov k = {
        .p = ctx->p,
        .ctx = ctx,
        .sub = sub,
        .factored = factored,
        .solve = solve_symmetric,
        .c = a->c,
        .tolerance = factored ? 1e-12 : 1e-9,
    };
    cs_ipm_krylov_carve(&k, a->krylov, ctx->p->row_count);
    if (!cs_ipm_krylov_solve(&k, a->b, a->x))
    {
        return false;
    }
    for (int f = 0; f < sub->free_count; ++f)
    {
        a->dl[sub->free[f]] = a->x[f];
    }
    return true;
}

// Free set = the IPM rows; D = z_l/s_l + z_u/s_u into a->d (the shift of the reduced matrix); a friction
// row's coupling C_fn = μ(z_l/s_l − z_u/s_u) to its normal row (0 when that row is no IPM variable).
static void reduced_system(const cs_solve_ctx* ctx, const cs_ipm_arrays* a, cs_subspace* sub)
{
    const cs_lcp* p = ctx->p;
    sub->free_count = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        sub->slot[i] = -1;
        a->d[i] = a->c[i] = 0.0;
        if (!cs_ipm_row(ctx->work, i))
        {
            continue;
        }
        double dl = a->sl[i] > 0.0 ? a->zl[i] / a->sl[i] : 0.0;
        double du = a->su[i] > 0.0 ? a->zu[i] / a->su[i] : 0.0;
        a->d[i] = dl + du;
        if (p->kind[i] == CS_ROW_FRICTION && cs_ipm_row(ctx->work, p->link[i]) && a->sl[p->link[i]] > 0.0)
        {
            a->c[i] = p->mu[i] * (dl - du);
        }
        sub->slot[i] = sub->free_count;
        sub->free[sub->free_count++] = i;
    }
    sub->shift = a->d;
    sub->beta = 0.0; // every iteration's matrix is new: start the regularisation ladder afresh
}

// One Mehrotra predictor-corrector step; returns the step length taken (0: no usable Newton system).
double cs_ipm_interior_step(const cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub, double mu)
{
    const cs_lcp* p = ctx->p;
    reduced_system(ctx, a, sub);
    bool factored = ctx->params->subspace_solver == CS_SUBSPACE_CHOLMOD && cs_cholmod_factor(sub);
    sub->stats.solves += 1;
    newton_rhs(p, a, sub, 0.0, false);
    bool ok = solve_newton(ctx, a, sub, factored);
    double sigma_mu = 0.0;
    if (ok)
    {
        recover(p, a, sub, 0.0, false);
        double ap = fmin(max_step(a->sl, a->dsl, sub), max_step(a->su, a->dsu, sub));
        double ad = fmin(max_step(a->zl, a->dzl, sub), max_step(a->zu, a->dzu, sub));
        double sigma = fmin(1.0, pow(mu_after(a, sub, ap, ad) / mu, 3.0));
        sigma_mu = sigma * mu;
        newton_rhs(p, a, sub, sigma_mu, true);
        ok = solve_newton(ctx, a, sub, factored);
    }
    sub->shift = NULL;
    if (!ok)
    {
        sub->stats.failed += 1;
        return 0.0;
    }
    recover(p, a, sub, sigma_mu, true);
    double alpha = fmin(fmin(max_step(a->sl, a->dsl, sub), max_step(a->su, a->dsu, sub)),
                        fmin(max_step(a->zl, a->dzl, sub), max_step(a->zu, a->dzu, sub)));
    alpha = fmin(1.0, FRACTION_TO_BOUNDARY * alpha);
    for (int f = 0; f < sub->free_count; ++f)
    {
        int i = sub->free[f];
        a->lam[i] += alpha * a->dl[i];
        if (a->sl[i] > 0.0)
        {
            a->sl[i] = fmax(a->sl[i] + alpha * a->dsl[i], 0x1p-1022);
            a->zl[i] = fmax(a->zl[i] + alpha * a->dzl[i], 0x1p-1022);
        }
        if (a->su[i] > 0.0)
        {
            a->su[i] = fmax(a->su[i] + alpha * a->dsu[i], 0x1p-1022);
            a->zu[i] = fmax(a->zu[i] + alpha * a->dzu[i], 0x1p-1022);
        }
    }
    return alpha;
}
