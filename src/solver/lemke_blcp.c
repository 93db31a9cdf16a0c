// `lemke`: the BLCP of a cs_lcp solved exactly by Lemke's method (lemke.c) on an equivalent LCP.
//
// Every row's impulse is an affine function of nonnegative variables z, and every bound that is not
// λ ≥ 0 becomes a complementarity of its own:
//   normal row (and box [0, ∞)):  λ = z,           z ≥ 0 ⟂ w ≥ 0
//   box [l, ∞):                   λ = l + z,       z ≥ 0 ⟂ w ≥ 0
//   box (−∞, h]:                  λ = h − z,       z ≥ 0 ⟂ −w ≥ 0
//   box [l, h], l < h:            λ = l + z,       z ≥ 0 ⟂ w + c ≥ 0,  c ≥ 0 ⟂ (h − l) − z ≥ 0
//   box (−∞, ∞):                  λ = z⁺ − z⁻,     z⁺ ⟂ w,  z⁻ ⟂ −w
//   box [l, l]:                   λ = l, no variable (w is free)
//   friction row t of normal n:   λ = z⁺ − z⁻,     z⁺ ≥ 0 ⟂ w + β ≥ 0,  z⁻ ≥ 0 ⟂ −w + β ≥ 0,
//                                 β ≥ 0 ⟂ μλ_n − z⁺ − z⁻ ≥ 0
// The friction block is the contact LCP model of Erleben's lecture ("Time Discretization – The Contact LCP
// Model": λ_n, λ_1, λ_2, β, with a non-symmetric A) for the two tangent directions ±t a 2D contact has; there
// β = |w_t| is the slip speed, and its solutions are exactly the box model's (|λ_t| ≤ μλ_n, λ_t = ∓μλ_n
// when w_t ≷ 0, w_t = 0 inside), so Lemke on it is an exact solver of the box friction problem.
// Stewart and Trinkle (1996) show Lemke processes this LCP when A is positive semidefinite.
#include "circlesim/lemke.h"

#include "solver/lemke.h"
#include "solver/operator.h"

#include <math.h>
#include <string.h>

#define LEMKE_ACCEPT 1e-9 // natural residual, relative to max |r|, of an accepted answer

enum
{
    LEMKE_MAX_VARIABLES = 4608,
    COLD_PER_VARIABLE = 20, // the cold start's pivot cap per LCP variable (per ε attempt) // B⁻¹ and the
                            // refactorisation block take n² doubles each: 324 MiB here
    VAR_IMPULSE = 0,
    VAR_FRICTION_SLACK = 1, // β of a friction row
    VAR_BOX_SLACK = 2,      // c of a two-sided box row
};

// The reformulated problem: which row each variable belongs to, and what it does there.
typedef struct blcp_map
{
    const cs_lcp* p;
    const double* A; // m × m, row-major
    int m, n;
    int* var_kind;  // [n]
    int* var_row;   // [n] the row whose impulse (impulse) or bounds (slack) the variable carries
    int* var_sign;  // [n] impulse: λ_row moves by sign·z
    int* row_var;   // [m] the row's first variable, or -1 (a fixed box row)
    int* row_slack; // [m] the row's slack variable, or -1
    double* c0;     // [m] λ at z = 0
    double reg;     // A_ii is taken as (1 + reg)·A_ii (see cs_lemke_begin)
} blcp_map;

// Number of variables of row i, and how λ_i starts.
static int row_layout(const cs_lcp* p, int i, double* c0, bool* slack)
{
    *c0 = 0.0;
    *slack = false;
    if (p->kind[i] == CS_ROW_NORMAL)
    {
        return 1;
    }
    if (p->kind[i] == CS_ROW_FRICTION)
    {
        *slack = true;
        return 3;
    }
    double l = p->lo[i], h = p->hi[i];
    if (l == h)
    {
        *c0 = l;
        return 0;
    }
    if (isfinite(l))
    {
        *c0 = l;
        *slack = isfinite(h);
        return isfinite(h) ? 2 : 1;
    }
    if (isfinite(h))
    {
        *c0 = h;
        return 1;
    }
    return 2; // free: z⁺, z⁻
}

static void build_map(blcp_map* map)
{
    const cs_lcp* p = map->p;
    int k = 0;
    for (int i = 0; i < map->m; ++i)
    {
        bool slack;
        int count = row_layout(p, i, &map->c0[i], &slack);
        map->row_var[i] = count > 0 ? k : -1;
        map->row_slack[i] = slack ? k + count - 1 : -1;
        int impulses = count - (slack ? 1 : 0);
        for (int t = 0; t < count; ++t)
        {
            map->var_row[k + t] = i;
            map->var_kind[k + t] = t < impulses                    ? VAR_IMPULSE
                                   : p->kind[i] == CS_ROW_FRICTION ? VAR_FRICTION_SLACK
                                                                   : VAR_BOX_SLACK;
            // Second impulse variable of a row (z⁻), or the only one of a (−∞, h] row: λ moves down.
            bool down = t == 1 || (count == 1 && p->kind[i] == CS_ROW_BOX && !isfinite(p->lo[i]));
            map->var_sign[k + t] = down ? -1 : 1;
        }
        k += count;
    }
    map->n = k;
}

// Column k of M (lemke.h's callback): how ζ changes with z_k.
static void map_column(const void* data, int k, double* out)
{
    const blcp_map* map = data;
    const cs_lcp* p = map->p;
    int n = map->n;
    int r = map->var_row[k];
    if (map->var_kind[k] != VAR_IMPULSE)
    {
        // A slack enters the ζ of its row's impulse variables with coefficient 1.
        memset(out, 0, (size_t)n * sizeof(double));
        int first = map->row_var[r];
        out[first] = 1.0;
        if (map->var_kind[k] == VAR_FRICTION_SLACK)
        {
            out[first + 1] = 1.0;
        }
        return;
    }
    double t = map->var_sign[k];
    const double* a_col = map->A + (size_t)r * map->m; // A is symmetric: row r is column r
    for (int j = 0; j < n; ++j)
    {
        int row = map->var_row[j];
        switch (map->var_kind[j])
        {
            case VAR_IMPULSE:
                out[j] = map->var_sign[j] * t * (row == r ? (1.0 + map->reg) * a_col[row] : a_col[row]);
                break;
            case VAR_FRICTION_SLACK:
                out[j] = (p->link[row] == r ? p->mu[row] * t : 0.0) - (row == r ? 1.0 : 0.0);
                break;
            default:
                out[j] = row == r ? -1.0 : 0.0;
                break;
        }
    }
}

// Carves the method's arrays out of one block of doubles (work->dense): nothing is allocated once the
// block is large enough (the steady state of a viewer running lemke every step).
typedef struct lemke_arrays
{
    blcp_map map;
    cs_lemke lemke;
    double* dense_a; // map.A, writable
    double* rhs;
    double scale; // max(1, |rhs|∞): the accepted residual is relative to it
    int* start;   // [2n] a warm start's first basis (lemke.h), then the guess it is copied from
} lemke_arrays;

static cs_status carve(cs_solver_work* w, const cs_lcp* p, lemke_arrays* out, cs_error* err)
{
    int m = p->row_count;
    int n = 0;
    for (int i = 0; i < m; ++i)
    {
        double c0;
        bool slack;
        n += row_layout(p, i, &c0, &slack);
    }
    if (m > LEMKE_MAX_VARIABLES || n > LEMKE_MAX_VARIABLES)
    {
        return cs_fail(err, CS_ERR_USAGE,
                       "lemke: %d rows reformulate to %d LCP variables; the dense method's limit is %d", m, n,
                       LEMKE_MAX_VARIABLES);
    }
    size_t nn = (size_t)n, mm = (size_t)m;
    size_t doubles = mm * mm + 2 * nn * nn + (7 + CS_LEMKE_RHS) * nn + mm;
    size_t ints = 13 * nn + 1 + 2 * mm;
    size_t total = doubles + (ints + 1) / 2 + 1;
    cs_status s = cs_grow_doubles(&w->dense, &w->dense_capacity, (int)total, err);
    if (s != CS_OK)
    {
        return s;
    }
    double* d = w->dense;
    lemke_arrays a = {0};
    a.map.p = p;
    a.map.m = m;
    a.dense_a = d;
    a.map.A = d, d += mm * mm;
    a.lemke.binv = d, d += nn * nn;
    a.lemke.lu = d, d += nn * nn;
    a.lemke.xb = d, d += nn;
    a.lemke.d = d, d += nn;
    a.lemke.col = d, d += nn;
    a.lemke.z = d, d += nn;
    a.lemke.rhs = d, d += CS_LEMKE_RHS * nn;
    a.rhs = d, d += nn;
    a.lemke.cover = d, d += nn;
    d += nn; // spare
    a.map.c0 = d, d += mm;
    int* q = (int*)d; // the rest of the block holds the integer arrays
    a.lemke.basis = q, q += nn;
    a.lemke.touched = q, q += nn;
    a.lemke.tlist = q, q += nn;
    a.lemke.where = q, q += 2 * nn + 1;
    a.lemke.lu_rows = q, q += nn;
    a.lemke.lu_vars = q, q += nn;
    a.lemke.lu_piv = q, q += nn;
    a.map.var_kind = q, q += nn;
    a.map.var_row = q, q += nn;
    a.map.var_sign = q, q += nn;
    a.map.row_var = q, q += mm;
    a.map.row_slack = q, q += mm;
    a.start = q;
    *out = a;
    return CS_OK;
}

// ζ at z = 0: the impulse rows see w(λ = c0) with their sign, β sees μ·c0 of its normal row (0), a box
// slack sees h − l.
static void build_rhs(const blcp_map* map, double* v, double* rhs)
{
    const cs_lcp* p = map->p;
    cs_lcp_velocity(p, map->c0, v);
    for (int k = 0; k < map->n; ++k)
    {
        int i = map->var_row[k];
        switch (map->var_kind[k])
        {
            case VAR_IMPULSE:
                rhs[k] = map->var_sign[k] *
                         (cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i]);
                break;
            case VAR_FRICTION_SLACK:
                rhs[k] = p->mu[i] * map->c0[p->link[i]];
                break;
            default:
                rhs[k] = p->hi[i] - p->lo[i];
                break;
        }
    }
}

// λ = c0 + Σ sign_k z_k from Lemke's z, into work->x (kept there until the first sweep), with its natural
// residual on the true problem (work->v = its velocities).
static double answer(lemke_arrays* a, const cs_lcp* p, cs_solver_work* w)
{
    int m = p->row_count;
    memcpy(w->x, a->map.c0, (size_t)m * sizeof(double));
    for (int k = 0; k < a->map.n; ++k)
    {
        if (a->map.var_kind[k] == VAR_IMPULSE)
        {
            w->x[a->map.var_row[k]] += a->map.var_sign[k] * a->lemke.z[k];
        }
    }
    cs_lcp_velocity(p, w->x, w->v);
    double res_lcp, res_nat;
    cs_residuals(p, w->v, w->x, &res_lcp, &res_nat);
    return res_nat;
}

// The arrays, the map, the dense A + Σ and ζ at z = 0 (the right-hand side); Lemke not yet run.
static cs_status prepare(cs_solve_ctx* ctx, lemke_arrays* a, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    // The driver's cs_problem_check (check.c) has refused malformed data before begin runs.
    cs_status s = carve(w, p, a, err);
    if (s != CS_OK)
    {
        return s;
    }
    build_map(&a->map);
    for (int i = 0; i < m; ++i)
    {
        for (int j = 0; j < m; ++j)
        {
            a->dense_a[(size_t)i * m + j] = cs_dense_entry(p, w->mjt, i, j);
        }
        a->dense_a[(size_t)i * m + i] += p->reg != NULL ? p->reg[i] : 0.0; // A + Σ on SPOOK rows
    }
    build_rhs(&a->map, w->v, a->rhs);
    a->lemke.n = a->map.n;
    a->lemke.r = a->rhs;
    a->lemke.column = map_column;
    a->lemke.data = &a->map;
    a->lemke.start = NULL;
    a->scale = 1.0;
    for (int k = 0; k < a->map.n; ++k)
    {
        a->scale = fmax(a->scale, fabs(a->rhs[k]));
    }
    return CS_OK;
}

// W = J M⁻¹ Jᵀ is singular as soon as rows outnumber its rank (2 per body without friction on circles, 3
// with): pivoting on it, bases that are singular in exact arithmetic look merely ill-conditioned in
// floating point and the pivots follow round-off (Pool 1 at step 300: x_B grows to 1e3, the final basis is
// wrong). So Lemke first runs on the proximal regularisation A + ε·diag(A) (positive definite: every basis
// it meets is nonsingular, its pivots are real), and its final basis is refined against the true A
// (cs_lemke_refine: x_B ← x_B + B_ε⁻¹(r − B x_B), the proximal-point iteration on the fixed basis). The
// answer is accepted only if it solves the true problem (res_nat ≤ LEMKE_ACCEPT·max|r|); otherwise the next
// ε is tried. Returns the last attempt's outcome; *res_nat is INFINITY unless some attempt was solved.
static cs_lemke_outcome run_attempts(lemke_arrays* a, cs_solver_work* w, const double* eps, int count,
                                     double* pivots, double* res_nat)
{
    const cs_lcp* p = a->map.p;
    *pivots = 0.0;
    *res_nat = INFINITY;
    cs_lemke_outcome outcome = CS_LEMKE_RAY;
    for (int attempt = 0; attempt < count; ++attempt)
    {
        a->map.reg = eps[attempt];
        outcome = cs_lemke_run(&a->lemke);
        *pivots += a->lemke.pivots;
        if (outcome == CS_LEMKE_SOLVED)
        {
            a->map.reg = 0.0;
            cs_lemke_refine(&a->lemke, 30);
            *res_nat = answer(a, p, w);
            if (*res_nat <= LEMKE_ACCEPT * a->scale)
            {
                break;
            }
        }
    }
    return outcome;
}

// The default start (lemke_crash.c): the warm start from the sets of a PGS crash, then the cold start from
// z = 0 with the same budget as below (20 pivots per LCP variable per attempt). --max-pivots K keeps the cold
// start alone, so that K bounds every pivot made (the viewer race's 50-pivot reference).
static cs_status begin_from_crash(cs_solve_ctx* ctx, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    int n = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        double c0;
        bool slack;
        n += row_layout(p, i, &c0, &slack);
    }
    ctx->method[2] = n;
    bool from_warm;
    int pivots;
    cs_status s = cs_lemke_crash(ctx, COLD_PER_VARIABLE, &from_warm, &pivots, err);
    ctx->method[0] = pivots;
    ctx->pivots = pivots;
    if (s != CS_OK)
    {
        if (err == NULL || s == CS_ERR_MEMORY)
        {
            return s;
        }
        cs_error why = *err;
        return cs_fail(err, s, "lemke: the crash's purified sets, then %s", why.message);
    }
    cs_lcp_velocity(p, ctx->lambda, ctx->work->v); // the start point until the first sweep (as below)
    return CS_OK;
}

// Lemke runs here, in begin, so that a failure is an error the caller sees; the solution waits in work->x
// and the first sweep makes it the iterate (the driver's history then shows the start point, then the
// answer at iteration 1). method[0] = pivots, method[1] = 1 once the first sweep ran, method[2] = n.
cs_status cs_lemke_begin(cs_solve_ctx* ctx, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    ctx->method[0] = ctx->method[1] = ctx->method[2] = 0.0;
    if (ctx->params->max_pivots <= 0)
    {
        return begin_from_crash(ctx, err);
    }
    lemke_arrays a;
    cs_status s = prepare(ctx, &a, err);
    if (s != CS_OK)
    {
        return s;
    }
    a.lemke.max_pivots =
        ctx->params->max_pivots > 0 ? ctx->params->max_pivots : COLD_PER_VARIABLE * a.map.n + 100;
    // ε = 1e-8, then 1e-6, then the true A (run_attempts); every attempt's failure is kept for the message.
    static const double regularisations[] = {1e-8, 1e-6, 0.0};
    double pivots, res_nat;
    cs_lemke_outcome outcome = run_attempts(&a, w, regularisations, 3, &pivots, &res_nat);
    ctx->method[0] = pivots;
    ctx->pivots = (int)pivots;
    ctx->method[2] = a.map.n;
    if (outcome == CS_LEMKE_RAY)
    {
        int var = a.lemke.entering;
        int k = var >= a.map.n ? var - a.map.n : var;
        return cs_fail(
            err, CS_ERR_VALUE,
            "lemke: ray termination after %.0f pivots in all (row %d's variable cannot enter; tried A + eps "
            "diag(A), eps = 1e-8, 1e-6, and A): no solution Lemke can reach",
            pivots, a.map.var_row[k]);
    }
    if (outcome == CS_LEMKE_SINGULAR)
    {
        return cs_fail(err, CS_ERR_VALUE,
                       "lemke: the basis became numerically singular after %.0f pivots (refactorisation "
                       "found a pivot below 1e-13 of the basis's largest entry)",
                       pivots);
    }
    if (outcome == CS_LEMKE_PIVOT_CAP)
    {
        return cs_fail(
            err, CS_ERR_VALUE,
            "lemke: pivot cap %d reached on %d variables: the pivots cycle or the budget is too small",
            a.lemke.max_pivots, a.map.n);
    }
    if (!(res_nat <= LEMKE_ACCEPT * a.scale))
    {
        return cs_fail(err, CS_ERR_VALUE,
                       "lemke: the final basis (%.0f pivots) leaves residual %.3g on the true problem: A is "
                       "singular along it (redundant contacts) and the pivoting did not find an exact answer",
                       pivots, res_nat);
    }
    // Until the first sweep the iterate is the start point: v back to its velocities (the driver's history
    // entry 0 and every residual are computed from λ and v together).
    cs_lcp_velocity(p, ctx->lambda, w->v);
    return CS_OK;
}

// The first basis of a warm start from box sets (cs_lemke_warm): which variable of each row is basic.
//   normal row, box [l, ∞) or (−∞, h]: z when the row is off the bound it measures from;
//   box [l, h]: z inside the box or at h, c (the slack of z ≤ h − l) at h; free box: z⁺ or z⁻ by λ's sign;
//   friction row t: z⁺ (λ_t ≥ 0) or z⁻ inside its box; at +μλ_n z⁺ and β (the slip speed −w_t), at −μλ_n
//   z⁻ and β. With λ_n = 0 the box is a point and the set says which way the row slips (its w_t's sign):
//   z± is then a degenerate 0 beside β = |w_t| (ζ± and β would be a singular basis).
static void start_basis(const blcp_map* map, const double* sets, const double* lambda, int* start)
{
    const cs_lcp* p = map->p;
    memset(start, 0, (size_t)map->n * sizeof(int));
    for (int i = 0; i < map->m; ++i)
    {
        int k = map->row_var[i];
        if (k < 0)
        {
            continue;
        }
        int st = sets[i] < 0.0 ? -1 : sets[i] > 0.0 ? 1 : 0;
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            start[k + (st > 0 || (st == 0 && lambda[i] >= 0.0) ? 0 : 1)] = 1;
            start[k + 2] = st != 0;
            continue;
        }
        if (p->kind[i] == CS_ROW_NORMAL)
        {
            start[k] = st != -1;
            continue;
        }
        double l = p->lo[i], h = p->hi[i];
        if (isfinite(l) && isfinite(h))
        {
            start[k] = st != -1;
            start[k + 1] = st == 1;
        }
        else if (isfinite(l) || isfinite(h))
        {
            start[k] = isfinite(l) ? st != -1 : st != 1;
        }
        else
        {
            start[k + (lambda[i] >= 0.0 ? 0 : 1)] = 1;
        }
    }
}

cs_status cs_lemke_warm(cs_solve_ctx* ctx, const double* sets, const double* lambda, bool independent,
                        int cold_per_variable, bool* from_warm, int* pivots_out, cs_error* err)
{
    cs_solver_work* w = ctx->work;
    lemke_arrays a;
    *pivots_out = 0;
    *from_warm = false;
    cs_status s = prepare(ctx, &a, err);
    if (s != CS_OK)
    {
        return s;
    }
    // The guess is kept in start + n: lambda may live in work->x, which an inexact attempt overwrites, and
    // select_start edits the start it is given.
    int* guess = a.start + a.map.n;
    start_basis(&a.map, sets, lambda, guess);
    // The warm start on A + 1e-8·diag(A), then 1e-6 (run_attempts), each from the guess, capped at 2n + 100
    // pivots (it needs a few per wrong row; Pool 1 at step 30 with friction: 45); then the cold start.
    // A purified start (independent) is a nonsingular basis of the true A whose basic solution is the answer
    // to round-off: it is tried on A itself first (on A + 1e-8·diag(A) an ill-conditioned basis moves its
    // basic values by far more than the perturbation, off the answer).
    static const double regularisations[] = {1e-8, 1e-6};
    static const double independent_eps[] = {0.0, 1e-8};
    const double* eps = independent ? independent_eps : regularisations;
    a.lemke.start = a.start;
    a.lemke.keep_start = independent;
    a.lemke.max_pivots = 2 * a.map.n + 100;
    double pivots = 0.0, res_nat = INFINITY;
    cs_lemke_outcome warm = CS_LEMKE_RAY;
    int dropped = 0;
    // A purified start gets one attempt: when its basis is singular on A (with friction the equations' rows
    // can still be dependent where the columns are not) or not the answer, the cold start runs at once.
    int warm_attempts = independent ? 1 : 2;
    for (int attempt = 0; attempt < warm_attempts && !(res_nat <= LEMKE_ACCEPT * a.scale); ++attempt)
    {
        memcpy(a.start, guess, (size_t)a.map.n * sizeof(int));
        double made;
        warm = run_attempts(&a, w, eps + attempt, 1, &made, &res_nat);
        pivots += made;
        dropped = a.lemke.dropped;
    }
    cs_lemke_outcome cold = CS_LEMKE_SOLVED;
    *from_warm = res_nat <= LEMKE_ACCEPT * a.scale;
    if (!*from_warm)
    {
        static const double cold_eps[] = {1e-8, 1e-6, 0.0};
        a.lemke.start = NULL;
        a.lemke.max_pivots = cold_per_variable * a.map.n + 100;
        double made;
        cold = run_attempts(&a, w, cold_eps, 3, &made, &res_nat);
        pivots += made;
    }
    *pivots_out = (int)pivots;
    if (res_nat <= LEMKE_ACCEPT * a.scale)
    {
        return CS_OK;
    }
    static const char* const why[] = {"an inexact answer", "ray termination", "the pivot cap",
                                      "a singular basis"};
    return cs_fail(err, CS_ERR_VALUE,
                   "Lemke from the best sets ended on %s (%d guessed columns dropped as dependent), the cold "
                   "start on %s (cap %d pivots per attempt): %.0f pivots in all, last res_nat %.3g",
                   why[warm], dropped, why[cold], a.lemke.max_pivots, pivots, res_nat);
}

void cs_lemke_sweep(cs_solve_ctx* ctx)
{
    if (ctx->method[1] != 0.0)
    {
        return; // the answer is exact: later iterations have nothing to do
    }
    ctx->method[1] = 1.0;
    if (ctx->p->row_count > 0) // an empty problem may have no arrays (memcpy from NULL is undefined)
    {
        memcpy(ctx->lambda, ctx->work->x, (size_t)ctx->p->row_count * sizeof(double));
    }
    cs_lcp_velocity(ctx->p, ctx->lambda, ctx->work->v);
}

cs_status cs_lemke_solve(const cs_lcp* p, cs_solver_work* work, double* lambda, cs_lemke_stats* stats,
                         cs_error* err)
{
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 1;
    params.warm_start = false;
    params.simd = false;
    cs_solve_run run;
    bool history = work->record_history;
    work->record_history = false;
    cs_status s = cs_solve_start(p, cs_solver_find("lemke"), &params, work, lambda, &run, err);
    if (s == CS_OK)
    {
        cs_solver_stats st;
        cs_solve_finish(&run, &st);
        if (st.stop == CS_STOP_BAD_PROBLEM)
        {
            // The driver refused the problem before any pivot (solve.c, check.c): the direct API says so.
            s = cs_fail(err, CS_ERR_VALUE, "lemke: bad problem: %s %d: %s", st.stop_row >= 0 ? "row" : "body",
                        st.stop_row >= 0 ? st.stop_row : st.stop_body, st.stop_reason);
        }
        if (stats != NULL)
        {
            stats->pivots = (int)run.ctx.method[0];
            stats->variables = (int)run.ctx.method[2];
            stats->res_lcp = st.res_lcp;
            stats->res_nat = st.res_nat;
            stats->seconds = st.seconds;
        }
    }
    work->record_history = history;
    return s;
}
