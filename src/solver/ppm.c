// `ppm`: an exact principal pivoting method for the frictional box LCP, crash-started from projected
// Gauss-Seidel.
//
// Each row sits in one of three index sets: at its lower bound (LOW), at its upper bound (UP) or FREE
// inside its box. A guess of the sets fixes λ on LOW/UP rows and leaves a linear system for the FREE ones
// (Erleben's lecture, "A NAÏVE Active Set/Pivoting Method": "Guessing A Solution", y_A = 0 on the set
// where x may be nonzero, x_F = 0 elsewhere, here with box bounds in place of 0):
//     w_F(λ) = ((A + Σ)λ + q)_F = 0,    λ_LOW = l,  λ_UP = u.
// A friction row's bounds are ±μλ_n of its normal row n, so at a bound it is not a constant but the linear
// term λ_t = ±μλ_n: it enters the system as μ·A_{F,t} added to the column of λ_n (the reduced matrix G is
// not symmetric). With λ_n = 0 (n LOW) the friction row is 0 whatever its set. The guess is then verified
// ("Verify if Guess was a Solution": x_A within its bounds, y_F of the right sign): FREE rows need l ≤ λ ≤ u,
// LOW rows w ≥ 0, UP rows w ≤ 0. Every row that fails is moved to the set it asks for — the block principal
// pivot of Júdice & Pires (1994), the naïve method's "guess" made systematic: while the number of
// infeasible rows keeps falling, all of them flip; after JP_RETRIES (ppm_pivot.c) block flips without a new
// best, one row flips at a time, the least index first (Murty's rule, finite for P-matrices, Murty 1974).
//
// What makes this fast and exact on contact problems:
// - The crash start. The sets come from the mid-map of an approximate answer (CRASH_SWEEPS PGS sweeps from
//   the start point): row i is LOW when λ_i − w_i ≤ l_i, UP when ≥ u_i, FREE otherwise, the decision of
//   the min-map reformulation ("Use Minimum Map Reformulation"). PGS finds most of the optimal sets in a few
//   hundred sweeps (the MNS paper's Table 2 measure), so a handful of block pivots correct the rest, where
//   Lemke's method walks one pivot at a time from z = 0 through thousands of bases.
// - The singular A. With redundant contacts (rows > 3 × bodies) A_FF is singular and the FREE system has a
//   family of solutions (w is unique, λ is not). G is factorised with a proximal term, G + εD_FF, and the
//   system solved by the proximal-point iteration x ← x + (G + εD)⁻¹(−w_F(x)) from the previous iterate
//   (iterative refinement against the true G): on a consistent system it converges to the solution nearest
//   the previous λ in the D metric, which keeps the iterate close to the crash's physically sensible λ
//   instead of a vertex with λ_n < 0 that a minimum-norm or pivoted answer would pick.
// - The damping. When the crash is only approximate (PGS on a plateau), the first attempt's free systems
//   turn inconsistent along A's near-null directions and the undamped steps blow λ up; two more attempts
//   start again from the crash's sets with a proximal term of 1e-5, then 1e-3 of A_ii, which damps those
//   steps, and polish the sets they verify at 1e-10.
// - The fallback. Block pivoting has no finiteness theorem here (the frictional BLCP's matrix is no
//   P-matrix) and cycles on collapsing pools (Pool 1 and 2 at step 30). When every attempt ends on its
//   cap, Lemke's method runs on the same problem (lemke_blcp.c) warm-started from the sets with the fewest
//   infeasible rows seen, then, if that warm start ends on a ray, from z = 0 with a pivot cap.
// The answer is accepted only when it solves the true problem (res_nat ≤ PPM_ACCEPT·max(1, |q|∞),
// ppm_pivot.c); the block-pivot cap (cs_solver_params.max_pivots, default DEFAULT_CAP) and the fallback's
// pivot caps turn cycling or an exhausted budget into an error that says so, never a hang.
#include "solver/ppm.h"
#include "solver/operator.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define CRASH_TOL 1e-13 // the crash's PGS stops at this res_nat (relative)

enum
{
    PPM_MAX_ROWS = 4096,  // A and the reduced system take m² doubles each: 256 MiB here
    CRASH_SWEEPS = 20000, // ~0.2 s on a pool of 1 200 rows
    DEFAULT_CAP = 100,    // block pivots (reduced systems solved) per attempt: ~1 s on a frictional pool
    LEMKE_COLD_PER_VARIABLE = 5, // the cold Lemke fallback's pivots per LCP variable per attempt
};

// Carves the method's arrays out of work->dense (nothing allocated once it is large enough).
static cs_status carve(cs_solver_work* w, const cs_lcp* p, cs_ppm* s, cs_error* err)
{
    int m = p->row_count;
    if (m > PPM_MAX_ROWS)
    {
        return cs_fail(err, CS_ERR_USAGE, "ppm: %d rows; the dense method's limit is %d", m, PPM_MAX_ROWS);
    }
    size_t mm = (size_t)m, nv = 3 * (size_t)p->body_count + 3;
    size_t doubles = 2 * mm * mm + 7 * mm + nv;
    size_t ints = 7 * mm;
    cs_status st = cs_grow_doubles(&w->dense, &w->dense_capacity, (int)(doubles + (ints + 1) / 2 + 1), err);
    if (st != CS_OK)
    {
        return st;
    }
    double* d = w->dense;
    *s = (cs_ppm){.p = p, .m = m};
    s->a = d, d += mm * mm;
    s->g = d, d += mm * mm;
    s->lam = d, d += mm;
    s->w = d, d += mm;
    s->x = d, d += mm;
    s->res = d, d += 2 * mm; // the correction and its copy
    s->best_lam = d, d += mm;
    s->v = d, d += nv;
    d += mm; // spare: keeps the int block inside the request
    int* q = (int*)d;
    s->state = q, q += mm;
    s->next = q, q += mm;
    s->slot = q, q += mm;
    s->rows = q, q += mm;
    s->piv = q, q += mm;
    s->best_state = q;
    s->best_count = INT_MAX;
    return CS_OK;
}

// A + Σ, dense, and the scale of q.
static void build_dense(cs_ppm* s, const cs_solver_work* w)
{
    const cs_lcp* p = s->p;
    int m = s->m;
    for (int i = 0; i < m; ++i)
    {
        for (int j = 0; j < m; ++j)
        {
            s->a[(size_t)i * m + j] = cs_dense_entry(p, w->mjt, i, j);
        }
        s->a[(size_t)i * m + i] += p->reg != NULL ? p->reg[i] : 0.0;
    }
    memset(s->lam, 0, (size_t)m * sizeof(double));
    cs_ppm_velocities(s); // w = q
    s->scale = 1.0;
    for (int i = 0; i < m; ++i)
    {
        s->scale = fmax(s->scale, fabs(s->w[i]));
    }
}

// The fallback when block pivoting ends without an answer: Lemke's method on the same problem (lemke_blcp.c),
// warm-started from the best sets (cs_lemke_warm; then cold). Block principal pivoting has no finiteness
// theorem on the frictional BLCP (its matrix is no P-matrix) and cycles on collapsing pools; Lemke with the
// lexicographic rule is finite on it (Stewart & Trinkle 1996), and from a basis the crash has mostly right it
// needs a few pivots per wrong row where the cold start walks through every contact. True when it found the
// answer (in work->x); *pivots = its complementary pivots.
static bool lemke_fallback(cs_ppm* s, cs_solve_ctx* ctx, int* pivots, cs_error* err)
{
    cs_solver_work* w = ctx->work;
    int m = s->m;
    if (s->best_count == INT_MAX) // no reduced system was ever solved: the crash's sets (its λ is in work->x)
    {
        memcpy(s->lam, w->x, (size_t)m * sizeof(double));
        cs_ppm_velocities(s);
        cs_ppm_guess_sets(s);
        memcpy(s->best_state, s->state, (size_t)m * sizeof(int));
        memcpy(s->best_lam, s->lam, (size_t)m * sizeof(double));
    }
    memcpy(s->lam, s->best_lam, (size_t)m * sizeof(double));
    cs_ppm_velocities(s);
    for (int i = 0; i < m; ++i)
    {
        int st = s->best_state[i];
        if (cs_ppm_is_friction(s->p, i) && s->best_state[s->p->link[i]] != CS_PPM_ROW_FREE)
        {
            st = s->w[i] > 0.0 ? CS_PPM_ROW_LOW : CS_PPM_ROW_UP; // the side it slips to (cs_lemke_warm)
        }
        w->scratch[i] = st;
        w->x[i] = s->best_lam[i];
    }
    bool from_warm;
    return cs_lemke_warm(ctx, w->scratch, w->x, false, LEMKE_COLD_PER_VARIABLE, &from_warm, pivots, err) ==
           CS_OK;
}

// What became of the Lemke fallback, for the error message.
static const char* fallback_note(const cs_solve_ctx* ctx, const cs_error* lemke_err)
{
    if (ctx->params->max_pivots > 0)
    {
        return "no Lemke fallback under --max-pivots";
    }
    return lemke_err->message;
}

// Everything runs in begin, so that a failure is an error the caller sees (as lemke, lemke_blcp.c); the
// answer waits in work->x and the first sweep makes it the iterate. method[0] = block pivots, method[1] = 1
// once the first sweep ran, method[2] = principal pivots, method[3] = the Lemke fallback's pivots; the
// reported pivots (ctx->pivots) are block pivots plus Lemke's.
cs_status cs_ppm_begin(cs_solve_ctx* ctx, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    ctx->method[0] = ctx->method[1] = ctx->method[2] = ctx->method[3] = 0.0;
    cs_ppm s = {0};
    cs_status st = carve(w, p, &s, err);
    if (st != CS_OK)
    {
        return st;
    }
    s.cap = ctx->params->max_pivots > 0 ? ctx->params->max_pivots : DEFAULT_CAP;
    build_dense(&s, w);
    // The crash: PGS sweeps from the start point on the driver's packed rows, then back to the start point
    // (kept in work->scratch) so that the driver's history begins there.
    if (m > 0)
    {
        memcpy(w->scratch, ctx->lambda, (size_t)m * sizeof(double));
    }
    cs_crash_sweeps(ctx, CRASH_TOL * s.scale, CRASH_SWEEPS); // lemke_crash.c
    if (m > 0)
    {
        memcpy(s.lam, ctx->lambda, (size_t)m * sizeof(double));
        memcpy(ctx->lambda, w->scratch, (size_t)m * sizeof(double));
    }
    // Attempts with a growing proximal term (pivot_loop), each from the crash's sets (the crash's λ waits
    // in work->x): the smallest serves crash points that are already converged (one block pivot verifies
    // them); the larger ones crash points that PGS left at a plateau (Pool 1 step 100 from λ = 0: 4.6e-6).
    static const double attempts[] = {CS_PPM_EPS, 1e-5, 1e-3};
    if (m > 0)
    {
        memcpy(w->x, s.lam, (size_t)m * sizeof(double));
    }
    double res_nat = INFINITY;
    cs_ppm_outcome outcome = CS_PPM_CAP;
    for (size_t k = 0; k < sizeof attempts / sizeof attempts[0] && outcome != CS_PPM_SOLVED; ++k)
    {
        if (m > 0)
        {
            memcpy(s.lam, w->x, (size_t)m * sizeof(double));
        }
        cs_ppm_velocities(&s);
        cs_ppm_guess_sets(&s);
        outcome = cs_ppm_pivot_loop(&s, attempts[k], &res_nat);
    }
    int lemke_pivots = 0;
    cs_error lemke_err = {0};
    // The fallback runs with the default budget only: --max-pivots K (the viewer race's 50) bounds the
    // block pivots, and a caller who set it wants that bound, not seconds of Lemke pivots.
    if (outcome != CS_PPM_SOLVED && m > 0 && ctx->params->max_pivots <= 0)
    {
        outcome = lemke_fallback(&s, ctx, &lemke_pivots, &lemke_err) ? CS_PPM_LEMKE : outcome;
    }
    ctx->method[0] = s.solves;
    ctx->method[2] = s.pivots;
    ctx->method[3] = lemke_pivots;
    ctx->pivots = s.solves + lemke_pivots;
    cs_lcp_velocity(p, ctx->lambda, w->v);
    switch (outcome)
    {
        case CS_PPM_SOLVED:
            break;
        case CS_PPM_LEMKE:
            return CS_OK; // the answer waits in work->x
        case CS_PPM_CAP:
            return cs_fail(
                err, CS_ERR_VALUE,
                "ppm: block-pivot cap %d reached in each of %d attempts (%d block, %d principal pivots, "
                "last res_nat %.3g): the sets cycle or the budget is too small; %s",
                s.cap, (int)(sizeof attempts / sizeof attempts[0]), s.solves, s.pivots, res_nat,
                fallback_note(ctx, &lemke_err));
        case CS_PPM_SINGULAR:
            return cs_fail(err, CS_ERR_VALUE,
                           "ppm: a reduced system stayed numerically singular with a proximal term of 1e-4 "
                           "A_ii (%d block pivots); %s",
                           s.solves, fallback_note(ctx, &lemke_err));
        case CS_PPM_INEXACT:
            return cs_fail(
                err, CS_ERR_VALUE,
                "ppm: the sets are consistent but leave res_nat %.3g on the true problem (%d block "
                "pivots): the reduced system is inconsistent along A's null space; %s",
                res_nat, s.solves, fallback_note(ctx, &lemke_err));
    }
    if (m > 0)
    {
        memcpy(w->x, s.lam, (size_t)m * sizeof(double));
    }
    return CS_OK;
}

void cs_ppm_sweep(cs_solve_ctx* ctx)
{
    if (ctx->method[1] != 0.0)
    {
        return; // the answer is exact: later iterations have nothing to do
    }
    ctx->method[1] = 1.0;
    if (ctx->p->row_count > 0)
    {
        memcpy(ctx->lambda, ctx->work->x, (size_t)ctx->p->row_count * sizeof(double));
    }
    cs_lcp_velocity(ctx->p, ctx->lambda, ctx->work->v);
}
