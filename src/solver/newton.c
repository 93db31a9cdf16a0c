// `newton-minmap` and `newton-fb`: generalised (semismooth) Newton methods on two reformulations of the
// BLCP as a root problem Φ(λ) = 0 (Erleben's lecture, "The Fischer–Newton Method" and its study-group
// challenge, the minimum map; Erleben and Ortiz, ICNAAM 2006):
//   min-map (mid-map for boxes):  Φ_i = λ_i − clamp(λ_i − w_i, l_i, u_i)  (= min(λ_i, w_i) on normal rows),
//                                 the natural residual itself;
//   Fischer–Burmeister:           Φ_i = φ(λ_i, w_i) on normal rows, φ(a, b) = a + b − √(a² + b²), and for
//                                 box and friction rows Billups' box function φ(λ − l, −φ(u − λ, −w)).
// w = Aλ + q comes from the velocities (w = J v + b), and friction bounds l, u = ∓μλ_n move with the
// normal impulse, so a generalised Jacobian row is  H_i = p_i e_iᵀ + q_i A_i + c_i e_nᵀ  (n = the row's
// link): diagonal p, q as on the slide "Generalized Jacobian of The Fischer Reformulation", plus the bound's
// dependence on λ_n. One driver sweep is one Newton iteration:
//   1. Φ and (p, q, c) at λ;
//   2. H Δ = −Φ by restarted GMRES (H is not symmetric once a friction bound is active), matrix-free:
//      A x = J (M⁻¹ Jᵀ x) costs O(nnz(J)); right Jacobi preconditioner p_i + q_i A_ii; inexact Newton
//      with forcing term min(0.5, ‖Φ‖) (quadratic convergence near a regular solution);
//   3. projected Armijo backtracking (slide "Projected Armijo Backtracking Line Search") on the merit
//      θ = ½‖Φ‖²: λ(τ) = P(λ + τΔ), P the projection on the bounds, τ = 1, ½, …; accept
//      θ(λ(τ)) ≤ (1 − 2στ) θ(λ);
//   4. if no τ ≥ 2⁻²⁰ is accepted (a degenerate or singular Newton system), one projected Gauss–Seidel sweep
//      instead, so that the method never stalls where PGS would still progress.
#include "solver/operator.h"

#include <math.h>
#include <string.h>

enum
{
    MERIT_MINMAP = 0,
    MERIT_FB = 1,
    GMRES_RESTART = 30,
    GMRES_MAX_PRODUCTS = 600, // per Newton iteration
    LINE_SEARCH_STEPS = 21,   // τ down to 2⁻²⁰
};

#define ARMIJO_SIGMA 1e-4
#define NEWTON_DONE  1e-15 // ‖Φ‖ <= this · √m · (1 + max |w|): rounding level, an iteration does nothing

// The Newton work arrays, carved from work->dense (grown once in begin; nothing is allocated per sweep).
typedef struct newton_arrays
{
    double *w, *phi, *p, *q, *c, *dx, *trial, *dinv, *ax, *basis, *hess, *g, *cs, *sn, *y, *u, *v_trial;
} newton_arrays;

static size_t newton_doubles(int m, int bodies)
{
    size_t mm = (size_t)m, r = GMRES_RESTART;
    return 9 * mm + (r + 1) * mm + (r + 1) * r + 4 * (r + 1) + 6 * (size_t)bodies + 3;
}

static newton_arrays carve(cs_solver_work* work, int m, int bodies)
{
    size_t mm = (size_t)m, r = GMRES_RESTART;
    double* d = work->dense;
    newton_arrays a;
    a.w = d, d += mm;
    a.phi = d, d += mm;
    a.p = d, d += mm;
    a.q = d, d += mm;
    a.c = d, d += mm;
    a.dx = d, d += mm;
    a.trial = d, d += mm;
    a.dinv = d, d += mm;
    a.ax = d, d += mm;
    a.basis = d, d += (r + 1) * mm;
    a.hess = d, d += (r + 1) * r;
    a.g = d, d += r + 1;
    a.cs = d, d += r + 1;
    a.sn = d, d += r + 1;
    a.y = d, d += r + 1;
    a.u = d, d += 3 * (size_t)bodies;
    a.v_trial = d;
    return a;
}

static cs_status newton_begin(cs_solve_ctx* ctx, int merit, const char* name, cs_error* err)
{
    // The driver's cs_problem_check (check.c) has refused malformed data before begin runs.
    size_t need = newton_doubles(ctx->p->row_count, ctx->p->body_count);
    if (need > (size_t)1 << 30)
    {
        return cs_fail(err, CS_ERR_USAGE, "%s: problem too large (%d rows)", name, ctx->p->row_count);
    }
    cs_status s = cs_grow_doubles(&ctx->work->dense, &ctx->work->dense_capacity, (int)need, err);
    ctx->method[0] = merit;
    return s;
}

cs_status cs_newton_minmap_begin(cs_solve_ctx* ctx, cs_error* err)
{
    return newton_begin(ctx, MERIT_MINMAP, "newton-minmap", err);
}

cs_status cs_newton_fb_begin(cs_solve_ctx* ctx, cs_error* err)
{
    return newton_begin(ctx, MERIT_FB, "newton-fb", err);
}

// Fischer–Burmeister φ(a, b) = a + b − √(a² + b²) and its partial derivatives; at (0, 0), where φ is not
// differentiable, the B-subdifferential element of the direction (1, 1).
static double fb(double a, double b, double* da, double* db)
{
    double r = sqrt(a * a + b * b);
    if (r == 0.0)
    {
        *da = *db = 1.0 - sqrt(0.5);
        return 0.0;
    }
    *da = 1.0 - a / r;
    *db = 1.0 - b / r;
    return a + b - r;
}

// Φ_i and its Jacobian row (p, q, c) for row i at λ with w_i = wi. dl, du: ∂l/∂λ_n and ∂u/∂λ_n.
static double merit_row(int merit, double x, double wi, double l, double u, double dl, double du, double* p,
                        double* q, double* c)
{
    if (merit == MERIT_MINMAP)
    {
        double y = x - wi;
        if (y <= l && isfinite(l))
        {
            *p = 1.0, *q = 0.0, *c = -dl;
            return x - l;
        }
        if (y >= u && isfinite(u))
        {
            *p = 1.0, *q = 0.0, *c = -du;
            return x - u;
        }
        *p = 0.0, *q = 1.0, *c = 0.0;
        return wi;
    }
    double da1, db1, da2, db2;
    if (isfinite(l) && isfinite(u))
    {
        // Billups: Φ = φ(x − l, −φ(u − x, −w)).
        double inner = fb(u - x, -wi, &da2, &db2);
        double phi = fb(x - l, -inner, &da1, &db1);
        *p = da1 + db1 * da2;
        *q = db1 * db2;
        *c = -da1 * dl - db1 * da2 * du;
        return phi;
    }
    if (isfinite(l))
    {
        double phi = fb(x - l, wi, &da1, &db1);
        *p = da1, *q = db1, *c = -da1 * dl;
        return phi;
    }
    if (isfinite(u))
    {
        double phi = -fb(u - x, -wi, &da1, &db1);
        *p = da1, *q = db1, *c = -da1 * du;
        return phi;
    }
    *p = 0.0, *q = 1.0, *c = 0.0;
    return wi;
}

// Bounds of row i at λ and their derivatives in λ[link] (friction: ∓μ while λ_n > 0).
static void row_bounds(const cs_lcp* p, const double* lambda, int i, double* l, double* u, double* dl,
                       double* du)
{
    cs_row_bounds(p, lambda, i, l, u);
    *dl = *du = 0.0;
    if (p->kind[i] == CS_ROW_FRICTION && lambda[p->link[i]] > 0.0)
    {
        *dl = -p->mu[i];
        *du = p->mu[i];
    }
}

// w = J v + b, Φ(λ) and the Jacobian rows; returns ‖Φ‖². *scale: max |w_i| (when jacobian).
static double evaluate(const cs_lcp* p, int merit, const double* lambda, const double* v, newton_arrays* a,
                       bool jacobian, double* scale)
{
    double sum = 0.0, big = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        // w of the regularised problem (A + Σ)λ + q on SPOOK rows (docs/SOLVERS.md).
        double wi = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i] +
                    (p->reg != NULL ? p->reg[i] * lambda[i] : 0.0);
        double l, u, dl, du, pp, qq, cc;
        row_bounds(p, lambda, i, &l, &u, &dl, &du);
        double phi = merit_row(merit, lambda[i], wi, l, u, dl, du, &pp, &qq, &cc);
        sum += phi * phi;
        if (jacobian)
        {
            big = fmax(big, fabs(wi));
            a->w[i] = wi;
            a->phi[i] = phi;
            a->p[i] = pp;
            a->q[i] = qq;
            a->c[i] = cc;
        }
    }
    if (jacobian)
    {
        *scale = big;
    }
    return sum;
}

// out = H x (H = diag(p) + diag(q) A + the link couplings c).
static void apply_h(const cs_lcp* p, const newton_arrays* a, const double* x, double* out)
{
    cs_apply_a(p, x, a->u, a->ax);
    for (int i = 0; i < p->row_count; ++i)
    {
        double s = a->p[i] * x[i] + a->q[i] * a->ax[i];
        if (a->c[i] != 0.0)
        {
            s += a->c[i] * x[p->link[i]];
        }
        out[i] = s;
    }
}

static double dot(const double* x, const double* y, int m)
{
    double s = 0.0;
    for (int i = 0; i < m; ++i)
    {
        s += x[i] * y[i];
    }
    return s;
}

// One restart cycle of right-preconditioned GMRES on H (D⁻¹ z) = rhs − H dx, adding its correction to
// dx; returns the residual norm estimate and counts products in *products.
static double gmres_cycle(const cs_lcp* p, newton_arrays* a, const double* rhs, double target, int* products)
{
    int m = p->row_count;
    const int r = GMRES_RESTART;
    double* v0 = a->basis;
    apply_h(p, a, a->dx, v0);
    *products += 1;
    for (int i = 0; i < m; ++i)
    {
        v0[i] = rhs[i] - v0[i];
    }
    double beta = sqrt(dot(v0, v0, m));
    if (beta <= target)
    {
        return beta;
    }
    for (int i = 0; i < m; ++i)
    {
        v0[i] /= beta;
    }
    memset(a->g, 0, (size_t)(r + 1) * sizeof(double));
    a->g[0] = beta;
    int k = 0;
    double res = beta;
    while (k < r && res > target && *products < GMRES_MAX_PRODUCTS)
    {
        double* vk = a->basis + (size_t)k * m;
        double* vn = a->basis + (size_t)(k + 1) * m;
        for (int i = 0; i < m; ++i)
        {
            a->trial[i] = a->dinv[i] * vk[i]; // z = D⁻¹ v_k (trial is free during the solve)
        }
        apply_h(p, a, a->trial, vn);
        *products += 1;
        double* h = a->hess + (size_t)k * (r + 1); // column k
        for (int j = 0; j <= k; ++j)               // modified Gram–Schmidt
        {
            const double* vj = a->basis + (size_t)j * m;
            h[j] = dot(vn, vj, m);
            for (int i = 0; i < m; ++i)
            {
                vn[i] -= h[j] * vj[i];
            }
        }
        h[k + 1] = sqrt(dot(vn, vn, m));
        if (h[k + 1] > 0.0)
        {
            for (int i = 0; i < m; ++i)
            {
                vn[i] /= h[k + 1];
            }
        }
        for (int j = 0; j < k; ++j) // earlier Givens rotations
        {
            double t = a->cs[j] * h[j] + a->sn[j] * h[j + 1];
            h[j + 1] = -a->sn[j] * h[j] + a->cs[j] * h[j + 1];
            h[j] = t;
        }
        double den = hypot(h[k], h[k + 1]);
        a->cs[k] = den > 0.0 ? h[k] / den : 1.0;
        a->sn[k] = den > 0.0 ? h[k + 1] / den : 0.0;
        h[k] = den;
        h[k + 1] = 0.0;
        a->g[k + 1] = -a->sn[k] * a->g[k];
        a->g[k] = a->cs[k] * a->g[k];
        res = fabs(a->g[k + 1]);
        k += 1;
        if (den == 0.0)
        {
            break; // breakdown: the Krylov space is exhausted (singular H)
        }
    }
    // y = R⁻¹ g, dx += D⁻¹ V y.
    for (int j = k - 1; j >= 0; --j)
    {
        double s = a->g[j];
        for (int t = j + 1; t < k; ++t)
        {
            s -= a->hess[(size_t)t * (r + 1) + j] * a->y[t];
        }
        double d = a->hess[(size_t)j * (r + 1) + j];
        a->y[j] = d != 0.0 ? s / d : 0.0;
    }
    for (int j = 0; j < k; ++j)
    {
        const double* vj = a->basis + (size_t)j * m;
        for (int i = 0; i < m; ++i)
        {
            a->dx[i] += a->dinv[i] * a->y[j] * vj[i];
        }
    }
    return res;
}

// The Newton direction: H dx = −Φ to relative accuracy eta.
static void newton_direction(const cs_lcp* p, const cs_solver_work* work, newton_arrays* a, double phi_norm)
{
    int m = p->row_count;
    for (int i = 0; i < m; ++i)
    {
        double d = a->p[i] + a->q[i] * work->diag[i];
        a->dinv[i] = fabs(d) > 1e-300 ? 1.0 / d : 1.0;
        a->dx[i] = 0.0;
        a->w[i] = -a->phi[i]; // the right-hand side (w is not needed any more)
    }
    double eta = fmin(0.5, phi_norm);
    double target = fmax(eta * phi_norm, 1e-300);
    int products = 0;
    double last = INFINITY;
    while (products < GMRES_MAX_PRODUCTS)
    {
        double res = gmres_cycle(p, a, a->w, target, &products);
        if (res <= target || !(res < 0.999 * last))
        {
            break;
        }
        last = res;
    }
}

// λ_trial = P(λ + τΔ): normal rows onto [0, ∞), box rows onto [lo, hi], friction rows onto ±μλ_n of the
// projected normal row (normal rows come first in the check below: their links are never friction rows).
static void project_step(const cs_lcp* p, const double* lambda, const double* dx, double tau, double* out)
{
    int m = p->row_count;
    for (int i = 0; i < m; ++i)
    {
        double x = lambda[i] + tau * dx[i];
        if (p->kind[i] == CS_ROW_NORMAL)
        {
            x = fmax(x, 0.0);
        }
        else if (p->kind[i] == CS_ROW_BOX)
        {
            x = cs_clamp(x, p->lo[i], p->hi[i]);
        }
        out[i] = x;
    }
    for (int i = 0; i < m; ++i)
    {
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            double limit = cs_friction_limit(p->mu[i], out[p->link[i]]);
            out[i] = cs_clamp(out[i], -limit, limit);
        }
    }
}

void cs_newton_sweep(cs_solve_ctx* ctx)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* work = ctx->work;
    int merit = (int)ctx->method[0];
    int m = p->row_count;
    size_t nv = 3 * (size_t)p->body_count;
    newton_arrays a = carve(work, m, p->body_count);
    double scale;
    double theta2 = evaluate(p, merit, ctx->lambda, work->v, &a, true, &scale); // ‖Φ‖²
    double floor = NEWTON_DONE * sqrt((double)m) * (1.0 + scale);
    if (theta2 <= floor * floor)
    {
        return; // at rounding level: another Krylov solve could not improve it (and costs 600 products)
    }
    newton_direction(p, work, &a, sqrt(theta2));
    for (int step = 0; step < LINE_SEARCH_STEPS; ++step)
    {
        double tau = ldexp(1.0, -step);
        project_step(p, ctx->lambda, a.dx, tau, a.trial);
        cs_lcp_velocity(p, a.trial, a.v_trial);
        double trial2 = evaluate(p, merit, a.trial, a.v_trial, &a, false, NULL);
        if (trial2 <= (1.0 - 2.0 * ARMIJO_SIGMA * tau) * theta2)
        {
            memcpy(ctx->lambda, a.trial, (size_t)m * sizeof(double));
            memcpy(work->v, a.v_trial, nv * sizeof(double));
            return;
        }
    }
    // No sufficient decrease along the projected Newton path: one PGS sweep (sweep.h).
    cs_rule_state none = {0};
    cs_sweep(CS_RULE_PGS, &none, p, cs_packed_rows(work), work->v, ctx->lambda, 0, m);
}
