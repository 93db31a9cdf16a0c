// `ipm`: a primal-dual interior-point method for the box LCP, the comparison method of Morales, Nocedal &
// Smelyanskiy (2008, §4: "a primal-dual algorithm for LCPs applied to the system (1.3)", Wright 1997), with
// Mehrotra's predictor-corrector and a crossover to an exact active-set solve at the end.
//
// With the bounds l ≤ λ ≤ u frozen, the BLCP with A + Σ symmetric PSD is the optimality system of the convex
// QP  min ½λᵀ(A + Σ)λ + qᵀλ  s.t. l ≤ λ ≤ u  (MNS eq. (1.4)). With slacks s_l = λ − l, s_u = u − λ and
// multipliers z_l, z_u for the finite bounds, its KKT system in the form of MNS (1.3)/(4.1) is
//     r_d = (A + Σ)λ + q − z_l + z_u = 0   (w = z_l − z_u: w ≥ 0 at the lower bound, ≤ 0 at the upper),
//     r_l = λ − l − s_l = 0,   r_u = u − λ − s_u = 0,   S_l z_l = σμe,   S_u z_u = σμe,   s, z ≥ 0.
// One driver iteration is one infeasible primal-dual Newton step on it (the start need not be feasible):
// eliminating Δs and Δz leaves the reduced (normal-equations) form
//     (A + Σ + D) Δλ = −r_d + (c_l − z_l r_l)/s_l − (c_u − z_u r_u)/s_u,   D = Z_l S_l⁻¹ + Z_u S_u⁻¹,
// symmetric positive definite on every row with a finite bound. It has A's sparsity pattern, so CHOLMOD
// analyses it once per problem (as pgs-sm's reduced systems: subspace_cholmod.c) and factorises it once per
// iteration; the matrix-free Jacobi-preconditioned CG of subspace_pcg.c solves it instead with
// --subspace-solver pcg, and as the fallback when a factorisation fails. Mehrotra: the affine predictor
// (c = −s∘z) gives σ = (μ_aff/μ)³, the corrector (c = σμ − s∘z − Δs_aff∘Δz_aff) reuses the factor; one step
// length for all variables (a QP's dual residual involves λ, so separate primal and dual steps, which MNS use
// for the LCP form, would not reduce it linearly), the fraction to the boundary τ = 0.9995 (MNS §4).
//
// Friction. A friction row's bounds ∓μλ_n move with its normal row's impulse. PGS reads them from the current
// λ_n row by row and pgs-sm freezes them per subspace phase (a fixed point on the bounds); the IPM did the
// same per iteration first (bounds from the iterate's λ_n, lagged one Newton step), and on Stacking 30 step
// 300 from λ = 0 μ grew from 1e-3 to 5e19 in 12 full steps: a Newton step blind to the bounds' motion pushes
// the friction rows against bounds that then move. So, as newton-minmap/-fb put ∂l/∂λ_n into their Jacobian,
// the IPM keeps the dependence in its Newton step: the bounds are ∓μ s_n with s_n the normal row's slack (=
// λ_n at feasibility, and > 0 always, so the box never empties at an infeasible λ_n ≤ 0), r_l,f = λ_f + μs_n
// − s_l,f and r_u,f = μs_n − λ_f − s_u,f are linear, and eliminating Δs, Δz leaves (A + Σ + D + C)Δλ = rhs
// with one extra entry per friction row, C_fn = μ(z_l/s_l − z_u/s_u)_f: not symmetric, so it is solved by
// GMRES with the symmetric part's factor as the preconditioner (ipm_krylov.c). At a limit point r = 0, so λ
// solves the frictional BLCP; the crossover's polish is pgs-sm's fixed point. No theorem covers friction
// (measured: test_solver_ipm, test_solver_agreement).
//
// Crossover. An interior iterate never sits on a bound, so it reaches a natural residual of about μ/z, and
// the Newton systems grow ill-conditioned as μ → 0 (the more so where A is singular, with friction). Once the
// active set is identified (a row with s·A_ii < z is taken to be at its bound) and stayed the same for one
// iteration — or μ fell by 1e10 — each such row is put on its bound and pgs-sm's subspace phase (pgs_sm.c,
// MNS Algorithm 3.1 steps 1-3) solves the free rows' equations exactly by CHOLMOD (or PCG). The result is
// kept only if its natural residual (from the velocities, with the bounds of its own λ_n) is below the
// interior point's; then every later iteration is a polish iteration, one PGS sweep plus a subspace phase
// (pgs-sm with k_gs = 1, k_sm = 3), which releases rows wrongly held at a bound and moves friction bounds,
// until the residual is at rounding level (the answer is projected on its box after each: the driver always
// sees λ in its box). Otherwise, or when 5 polish iterations do not get there (a wrong active set that the
// friction fixed point does not repair), the IPM goes on from its interior iterate and tries again once μ
// has fallen 100-fold. A step length below 1e-10 for three iterations, or a Newton system neither CHOLMOD nor
// PCG solves, also ends the interior phase (stats.subspace.failed counts the latter): the method then
// polishes from the interior point and does not stall where pgs-sm would progress.
//
// Rows without columns (A_ii = 0: both bodies static or massless) have a fixed w_i = b_i; they are not IPM
// variables, λ_i is set to the bound b_i pushes against (cs_problem_check refused the unsatisfiable ones).
// This file: the start point, the driver (interior, crossover and polish iterations); one iteration's Newton
// step is ipm_step.c's.
#include "solver/operator.h"
#include "solver/ipm.h"
#include "solver/ipm_krylov.h"
#include "solver/subspace.h"

#include <math.h>
#include <string.h>

enum
{
    MODE_INTERIOR = 0,
    MODE_POLISH = 1,
    MODE_DONE = 2,
    POLISH_KSM = 3,   // MNS §4's k_sm
    STALL_STEPS = 3,  // iterations with a step length below MIN_STEP before the interior phase gives up
    K_MODE = 0,       // ctx->method slots
    K_MU0 = 1,        // μ at the start point
    K_NEXT_CROSS = 2, // try the crossover once μ <= this
    K_STALLS = 3,
    K_LAST_CHANGES = 4, // rows whose identified bound changed in the last iteration (-1: none yet)
    K_POLISHED = 5,     // polish iterations since the crossover
    K_DEAD = 6,         // 1: the interior phase cannot go on (no return from the polish)
    POLISH_TRIES = 5,   // polish iterations before a crossover that did not finish goes back to the IPM
};

#define MIN_STEP     1e-10
#define CROSS_AFTER  1e-4  // crossover when the active set held still and μ <= this·μ₀ …
#define CROSS_ANYWAY 1e-10 // … or when μ <= this·μ₀
#define CROSS_RETRY  1e-2  // after a rejected crossover: again at μ <= this·μ
#define POLISH_DONE  1e-15 // res_nat <= this·√m·(1 + max|w|): rounding level, as newton.c's floor

enum
{
    ROW_ARRAYS = 19,
    BODY_ARRAYS = 2
};

static cs_ipm_arrays carve(cs_solver_work* work, int m, int bodies)
{
    double* d = work->dense;
    size_t mm = (size_t)m, nb = 3 * (size_t)bodies + 3;
    double** rows[ROW_ARRAYS];
    cs_ipm_arrays a;
    double** list[ROW_ARRAYS] = {&a.lam, &a.sl,  &a.zl,  &a.su,  &a.zu,   &a.lo, &a.hi, &a.w, &a.d, &a.dl,
                                 &a.dsl, &a.dzl, &a.dsu, &a.dzu, &a.keep, &a.at, &a.c,  &a.b, &a.x};
    memcpy(rows, list, sizeof rows);
    for (int k = 0; k < ROW_ARRAYS; ++k)
    {
        *rows[k] = d;
        d += mm;
    }
    a.v = d;
    a.v_keep = d + nb;
    a.krylov = d + 2 * nb;
    return a;
}

// v = v* + M⁻¹Jᵀλ (3·bodies, the zero slot left alone) and w = (A + Σ)λ + q per row.
static void velocities(const cs_lcp* p, const double* lambda, double* v, double* w)
{
    cs_lcp_velocity(p, lambda, v);
    for (int i = 0; w != NULL && i < p->row_count; ++i)
    {
        w[i] = cs_row_w(p, v, lambda[i], i);
    }
}

// The bounds of every row from λ's normal impulses (friction: ∓μ·max(λ_n, 0), cs_row_bounds).
static void bounds(const cs_lcp* p, const double* lambda, double* lo, double* hi)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        cs_row_bounds(p, lambda, i, &lo[i], &hi[i]);
    }
}

// λ projected on its box (normal and box rows first, so that friction rows read the projected λ_n); rows
// without columns on the bound their fixed w_i = b_i pushes against.
static void project(const cs_lcp* p, const cs_solver_work* work, const double* lambda, double* out)
{
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < p->row_count; ++i)
        {
            if ((p->kind[i] == CS_ROW_FRICTION) != (pass == 1))
            {
                continue;
            }
            double l, u;
            cs_row_bounds(p, pass == 0 ? lambda : out, i, &l, &u);
            double x = cs_clamp(lambda[i], l, u);
            if (!cs_ipm_row(work, i))
            {
                x = p->bias[i] > 0.0 ? l : p->bias[i] < 0.0 ? u : x;
            }
            out[i] = x;
        }
    }
}

static double residual_nat(const cs_lcp* p, const double* v, const double* lambda)
{
    double r_lcp, r_nat;
    cs_residuals(p, v, lambda, &r_lcp, &r_nat);
    return r_nat;
}

// The driver's λ projected on its box (its friction rows on ±μ of its own λ_n, which a subspace phase moves
// after freezing their box), v from it; a->x is scratch.
static void project_output(const cs_solve_ctx* ctx, const cs_ipm_arrays* a)
{
    project(ctx->p, ctx->work, ctx->lambda, a->x);
    memcpy(ctx->lambda, a->x, (size_t)ctx->p->row_count * sizeof(double));
    velocities(ctx->p, ctx->lambda, ctx->work->v, NULL);
}

// The driver's output from the interior iterate: λ projected on its box, v from it.
static void publish(const cs_solve_ctx* ctx, const cs_ipm_arrays* a)
{
    project(ctx->p, ctx->work, a->lam, ctx->lambda);
    velocities(ctx->p, ctx->lambda, ctx->work->v, NULL);
}

// Start point: λ⁰ = the driver's start (warm or 0); slacks at least θ/A_ii and multipliers θ, θ the largest
// |w| or |q| (so that the start is well inside in the problem's own units; infeasibility is allowed).
static double start_point(cs_solve_ctx* ctx, cs_ipm_arrays* a)
{
    const cs_lcp* p = ctx->p;
    const cs_solver_work* work = ctx->work;
    int m = p->row_count;
    memcpy(a->lam, ctx->lambda, (size_t)m * sizeof(double));
    velocities(p, a->lam, a->v, a->w);
    double theta = 1e-10;
    for (int i = 0; i < m; ++i)
    {
        double q = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], p->v) + p->bias[i];
        theta = fmax(theta, fmax(fabs(a->w[i]), fabs(q)));
    }
    bounds(p, a->lam, a->lo, a->hi);
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < m; ++i)
    {
        a->sl[i] = a->zl[i] = a->su[i] = a->zu[i] = a->at[i] = 0.0;
        if (!cs_ipm_row(work, i))
        {
            continue;
        }
        double slack = theta / work->diag[i];
        if (isfinite(a->lo[i]))
        {
            a->sl[i] = fmax(a->lam[i] - a->lo[i], slack);
            a->zl[i] = theta;
            sum += a->sl[i] * a->zl[i], count += 1;
        }
        if (isfinite(a->hi[i]))
        {
            a->su[i] = fmax(a->hi[i] - a->lam[i], slack);
            a->zu[i] = theta;
            sum += a->su[i] * a->zu[i], count += 1;
        }
    }
    return count > 0 ? sum / count : 0.0;
}

cs_status cs_ipm_begin(cs_solve_ctx* ctx, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    if (cs_subspace_solver_name(ctx->params->subspace_solver) == NULL)
    {
        return cs_fail(err, CS_ERR_USAGE, "ipm: unknown subspace solver %d (cholmod, pcg)",
                       (int)ctx->params->subspace_solver);
    }
    size_t need = ROW_ARRAYS * (size_t)p->row_count + BODY_ARRAYS * (3 * (size_t)p->body_count + 3) +
                  cs_ipm_krylov_doubles(p->row_count);
    if (need > (size_t)1 << 30)
    {
        return cs_fail(err, CS_ERR_USAGE, "ipm: problem too large (%d rows)", p->row_count);
    }
    cs_status s = cs_grow_doubles(&ctx->work->dense, &ctx->work->dense_capacity, (int)need, err);
    cs_subspace* sub = NULL;
    if (s == CS_OK)
    {
        s = cs_subspace_prepare(ctx, true, &sub, err);
    }
    if (s != CS_OK)
    {
        return s;
    }
    if (p->row_count == 0)
    {
        ctx->method[K_MODE] = MODE_DONE; // nothing to solve (and lambda may be NULL)
        return CS_OK;
    }
    cs_ipm_arrays a = carve(ctx->work, p->row_count, p->body_count);
    a.v[3 * p->body_count] = a.v[3 * p->body_count + 1] = a.v[3 * p->body_count + 2] = 0.0;
    double mu0 = start_point(ctx, &a);
    ctx->method[K_MODE] =
        mu0 > 0.0 ? MODE_INTERIOR : MODE_POLISH; // no bound at all: nothing to be interior to
    ctx->method[K_MU0] = mu0;
    ctx->method[K_NEXT_CROSS] = CROSS_AFTER * mu0;
    ctx->method[K_STALLS] = 0.0;
    ctx->method[K_LAST_CHANGES] = -1.0;
    ctx->method[K_POLISHED] = 0.0;
    ctx->method[K_DEAD] = mu0 > 0.0 ? 0.0 : 1.0;
    return CS_OK;
}

// The crossover: rows the interior point says are at a bound put on it, the rest solved exactly by one
// subspace phase. Kept (true) only when the natural residual drops below the interior point's.
static bool crossover(const cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub)
{
    const cs_lcp* p = ctx->p;
    int m = p->row_count;
    cs_solver_work* work = ctx->work;
    size_t nv = 3 * (size_t)p->body_count;
    double before = residual_nat(p, work->v, ctx->lambda);
    memcpy(a->keep, ctx->lambda, (size_t)m * sizeof(double));
    memcpy(a->v_keep, work->v, nv * sizeof(double));
    bounds(p, ctx->lambda, a->lo, a->hi);
    for (int i = 0; i < m; ++i)
    {
        if (cs_ipm_row(work, i) && a->sl[i] > 0.0 && a->sl[i] * work->diag[i] < a->zl[i])
        {
            ctx->lambda[i] = a->lo[i];
        }
        else if (cs_ipm_row(work, i) && a->su[i] > 0.0 && a->su[i] * work->diag[i] < a->zu[i])
        {
            ctx->lambda[i] = a->hi[i];
        }
    }
    velocities(p, ctx->lambda, work->v, NULL);
    sub->beta = 0.0;
    cs_subspace_phase(ctx, sub, POLISH_KSM, false);
    project_output(ctx, a);
    double after = residual_nat(p, work->v, ctx->lambda);
    if (after < before)
    {
        return true;
    }
    memcpy(ctx->lambda, a->keep, (size_t)m * sizeof(double));
    memcpy(work->v, a->v_keep, nv * sizeof(double));
    return false;
}

// Rows whose identified bound (lower −1, upper 1, none 0) differs from the last iteration's, kept in a->at.
static int identification_changes(const cs_solve_ctx* ctx, cs_ipm_arrays* a)
{
    int changes = 0;
    for (int i = 0; i < ctx->p->row_count; ++i)
    {
        double at = 0.0;
        if (cs_ipm_row(ctx->work, i) && a->sl[i] > 0.0 && a->sl[i] * ctx->work->diag[i] < a->zl[i])
        {
            at = -1.0;
        }
        else if (cs_ipm_row(ctx->work, i) && a->su[i] > 0.0 && a->su[i] * ctx->work->diag[i] < a->zu[i])
        {
            at = 1.0;
        }
        changes += at != a->at[i];
        a->at[i] = at;
    }
    return changes;
}

static double current_mu(const cs_solve_ctx* ctx, const cs_ipm_arrays* a)
{
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < ctx->p->row_count; ++i)
    {
        if (a->sl[i] > 0.0)
        {
            sum += a->sl[i] * a->zl[i], count += 1;
        }
        if (a->su[i] > 0.0)
        {
            sum += a->su[i] * a->zu[i], count += 1;
        }
    }
    return count > 0 ? sum / count : 0.0;
}

// One interior iteration: bounds and w from the iterate, a predictor-corrector step, the output, and the
// crossover when the active set looks identified.
static void interior_iteration(cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub)
{
    const cs_lcp* p = ctx->p;
    velocities(p, a->lam, a->v, a->w);
    bounds(p, a->sl, a->lo, a->hi); // friction bounds lagged: ∓μ s_n of this iterate (see the file comment)
    double mu = current_mu(ctx, a);
    double alpha = mu > 0.0 && isfinite(mu) ? cs_ipm_interior_step(ctx, a, sub, mu) : 0.0;
    publish(ctx, a);
    ctx->method[K_STALLS] = alpha < MIN_STEP ? ctx->method[K_STALLS] + 1.0 : 0.0;
    if (alpha == 0.0 || ctx->method[K_STALLS] >= STALL_STEPS)
    {
        ctx->method[K_MODE] = MODE_POLISH; // the interior phase cannot go on: polish from here
        ctx->method[K_DEAD] = 1.0;
        return;
    }
    mu = current_mu(ctx, a);
    int changes = identification_changes(ctx, a);
    bool settled = ctx->method[K_LAST_CHANGES] == 0.0 && changes == 0;
    ctx->method[K_LAST_CHANGES] = changes;
    double mu0 = ctx->method[K_MU0];
    if ((settled && mu <= ctx->method[K_NEXT_CROSS]) || mu <= CROSS_ANYWAY * mu0)
    {
        if (crossover(ctx, a, sub))
        {
            ctx->method[K_MODE] = MODE_POLISH;
            ctx->method[K_POLISHED] = 0.0;
            ctx->method[K_NEXT_CROSS] = CROSS_RETRY * mu; // should the polish not finish
            return;
        }
        ctx->method[K_NEXT_CROSS] = CROSS_RETRY * mu;
    }
}

// One polish iteration (pgs-sm with k_gs = 1, then the box projection); MODE_DONE once the residual is at
// rounding level. A polish that has not got there after POLISH_TRIES iterations (a wrong active set that the
// friction fixed point cannot repair) goes back to the interior iterate, which carries on to smaller μ.
static void polish_iteration(cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub)
{
    const cs_lcp* p = ctx->p;
    cs_pgs_sweep(ctx);
    sub->stats.pgs_sweeps += 1;
    cs_subspace_phase(ctx, sub, POLISH_KSM, false);
    project_output(ctx, a);
    double big = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        big = fmax(big, fabs(cs_row_w(p, ctx->work->v, ctx->lambda[i], i)));
    }
    if (residual_nat(p, ctx->work->v, ctx->lambda) <= POLISH_DONE * sqrt((double)p->row_count) * (1.0 + big))
    {
        ctx->method[K_MODE] = MODE_DONE;
        return;
    }
    ctx->method[K_POLISHED] += 1.0;
    if (ctx->method[K_DEAD] == 0.0 && ctx->method[K_POLISHED] >= POLISH_TRIES)
    {
        ctx->method[K_MODE] = MODE_INTERIOR;
        ctx->method[K_LAST_CHANGES] = -1.0;
        publish(ctx, a);
    }
}

void cs_ipm_sweep(cs_solve_ctx* ctx)
{
    cs_subspace* sub = ctx->work->subspace;
    cs_ipm_arrays a = carve(ctx->work, ctx->p->row_count, ctx->p->body_count);
    if (ctx->method[K_MODE] == MODE_INTERIOR)
    {
        interior_iteration(ctx, &a, sub);
    }
    else if (ctx->method[K_MODE] == MODE_POLISH)
    {
        polish_iteration(ctx, &a, sub);
    }
}
