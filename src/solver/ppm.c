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
// infeasible rows keeps falling, all of them flip; after JP_RETRIES block flips without a new best, one row
// flips at a time, the least index first (Murty's rule, finite for P-matrices, Murty 1974).
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
// The answer is accepted only when it solves the true problem (res_nat ≤ PPM_ACCEPT·max(1, |q|∞)); the
// block-pivot cap (cs_solver_params.max_pivots, default DEFAULT_CAP) and the fallback's pivot caps turn
// cycling or an exhausted budget into an error that says so, never a hang.
#include "solver/dense_lu.h"
#include "solver/operator.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define PPM_EPS       1e-10 // the proximal term, relative to each row's A_ii (the polish and first attempt)
#define PPM_EPS_MAX   1e-2  // the largest a factorisation may need
#define PPM_ACCEPT    1e-10 // natural residual, relative to max(1, |q|∞), of an accepted answer
#define CRASH_TOL     1e-13 // the crash's PGS stops at this res_nat (relative)
#define FLIP_FRACTION 0.1   // a block pivot flips the rows violated by at least this fraction of the worst
#define FEAS_TOL      1e-12 // a bound or sign violated by less than this (relative) is not a pivot

enum
{
    PPM_MAX_ROWS = 4096,  // A and the reduced system take m² doubles each: 256 MiB here
    CRASH_SWEEPS = 20000, // ~0.2 s on a pool of 1 200 rows
    JP_RETRIES = 3,       // block flips allowed without a new best count (Júdice & Pires's p)
    REFINE_ROUNDS = 30,   // proximal-point rounds per solve
    DEFAULT_CAP = 100,    // block pivots (reduced systems solved) per attempt: ~1 s on a frictional pool
    LEMKE_COLD_PER_VARIABLE = 5, // the cold Lemke fallback's pivots per LCP variable per attempt
    ROW_LOW = -1,
    ROW_FREE = 0,
    ROW_UP = 1,
};

typedef struct ppm
{
    const cs_lcp* p;
    int m, k;         // rows; rows in the current reduced system
    double* a;        // [m·m] A + Σ, row-major
    double* g;        // [m·m] the reduced matrix G + εD, then its LU
    double* lam;      // [m] the iterate
    double* w;        // [m] its contact velocities (A + Σ)λ + q
    double* x;        // [m] the reduced unknowns (λ of the FREE rows)
    double* res;      // [m] −w_F, then the correction
    double* v;        // [3·bodies + 3] velocities
    int* state;       // [m] ROW_LOW / ROW_FREE / ROW_UP
    int* next;        // [m] the set a row asks for (its state when feasible)
    int* slot;        // [m] position in the reduced system, or -1
    int* rows;        // [m] the reduced system's rows
    int* piv;         // [m] LU pivots
    int* best_state;  // [m] the sets of the iterate with the fewest infeasible rows of all attempts
    double* best_lam; // [m] that iterate's λ
    int best_count;   // its infeasible rows (INT_MAX before the first)
    double scale;     // max(1, |q|∞)
    int solves;       // block pivots: reduced systems factorised and solved
    int pivots;       // principal pivots: rows that changed sets
    int cap;          // most solves
    double eps_used;  // the largest proximal term a factorisation needed
} ppm;

// Fixed bounds of a normal or box row.
static void fixed_bounds(const cs_lcp* p, int i, double* lo, double* hi)
{
    *lo = p->kind[i] == CS_ROW_BOX ? p->lo[i] : 0.0;
    *hi = p->kind[i] == CS_ROW_BOX ? p->hi[i] : INFINITY;
}

static bool is_friction(const cs_lcp* p, int i)
{
    return p->kind[i] == CS_ROW_FRICTION;
}

// A row is an unknown of the reduced system when FREE, unless it is friction on a normal row that is not
// (then its λ_n, and so the row, is 0).
static bool in_system(const ppm* s, int i)
{
    if (s->state[i] != ROW_FREE)
    {
        return false;
    }
    return !is_friction(s->p, i) || s->state[s->p->link[i]] == ROW_FREE;
}

// λ from the sets and the reduced unknowns x; friction rows after the rows they are bounded by.
static void assemble(ppm* s)
{
    const cs_lcp* p = s->p;
    for (int i = 0; i < s->m; ++i)
    {
        if (is_friction(p, i))
        {
            continue;
        }
        double lo, hi;
        fixed_bounds(p, i, &lo, &hi);
        s->lam[i] = s->slot[i] >= 0 ? s->x[s->slot[i]] : s->state[i] == ROW_UP ? hi : lo;
    }
    for (int i = 0; i < s->m; ++i)
    {
        if (!is_friction(p, i))
        {
            continue;
        }
        int n = p->link[i];
        double bound = s->state[n] == ROW_FREE ? p->mu[i] * s->lam[n] : 0.0;
        s->lam[i] = s->slot[i] >= 0 ? s->x[s->slot[i]] : s->state[n] != ROW_FREE ? 0.0 : s->state[i] * bound;
    }
}

// w = (A + Σ)λ + q of the iterate, through the velocities (O(nnz(J)), the driver's own residual).
static void velocities(ppm* s)
{
    cs_lcp_velocity(s->p, s->lam, s->v);
    for (int i = 0; i < s->m; ++i)
    {
        s->w[i] = cs_row_w(s->p, s->v, s->lam[i], i);
    }
}

// The crash guess: the mid-map's decision at an approximate answer (λ, w in s->lam, s->w).
static void guess_sets(ppm* s)
{
    const cs_lcp* p = s->p;
    for (int i = 0; i < s->m; ++i)
    {
        double lo, hi;
        if (is_friction(p, i))
        {
            double limit = p->mu[i] * fmax(s->lam[p->link[i]], 0.0);
            lo = -limit;
            hi = limit;
        }
        else
        {
            fixed_bounds(p, i, &lo, &hi);
        }
        double y = s->lam[i] - s->w[i];
        s->state[i] = lo == hi || y <= lo ? ROW_LOW : y >= hi ? ROW_UP : ROW_FREE;
        if (s->state[i] == ROW_LOW && !isfinite(lo))
        {
            s->state[i] = ROW_FREE; // a free row's λ is never at a bound
        }
    }
}

// G = (A + Σ)_{F,F} with the bound friction rows' ±μ A_{F,t} added to their normal row's column, plus the
// proximal term eps·A_ii on the diagonal; factorised in place. False when a pivot is still negligible.
static bool build_system(ppm* s, double eps)
{
    const cs_lcp* p = s->p;
    int m = s->m, k = 0;
    for (int i = 0; i < m; ++i)
    {
        s->slot[i] = in_system(s, i) ? k : -1;
        if (s->slot[i] >= 0)
        {
            s->rows[k++] = i;
        }
    }
    s->k = k;
    double gmax = 0.0;
    for (int r = 0; r < k; ++r)
    {
        const double* arow = s->a + (size_t)s->rows[r] * m;
        double* grow = s->g + (size_t)r * k;
        for (int c = 0; c < k; ++c)
        {
            grow[c] = arow[s->rows[c]];
        }
        for (int t = 0; t < m; ++t)
        {
            if (is_friction(p, t) && s->state[t] != ROW_FREE && s->slot[p->link[t]] >= 0)
            {
                grow[s->slot[p->link[t]]] += s->state[t] * p->mu[t] * arow[t];
            }
        }
        grow[r] += eps * arow[s->rows[r]];
        gmax = fmax(gmax, fabs(grow[r]));
    }
    return cs_dense_lu_factor(s->g, k, s->piv, 1e-14 * (gmax > 0.0 ? gmax : 1.0));
}

// The proximal-point rounds on the factorised system, from the iterate's own λ_F; leaves λ, w of the best
// round. Returns the last reduced residual max|w_F|.
static double solve_system(ppm* s)
{
    int k = s->k;
    for (int r = 0; r < k; ++r)
    {
        s->x[r] = s->lam[s->rows[r]];
    }
    double last = INFINITY;
    for (int round = 0; round <= REFINE_ROUNDS; ++round)
    {
        assemble(s);
        velocities(s);
        double now = 0.0;
        for (int r = 0; r < k; ++r)
        {
            s->res[r] = -s->w[s->rows[r]];
            now = fmax(now, fabs(s->res[r]));
        }
        if (round > 0 && !(now < 0.5 * last))
        {
            if (now > last) // the last round made it worse (inconsistent along a null direction): undo it
            {
                for (int r = 0; r < k; ++r)
                {
                    s->x[r] -= s->res[k + r];
                }
                assemble(s);
                velocities(s);
                now = last;
            }
            return now;
        }
        last = now;
        if (now == 0.0 || round == REFINE_ROUNDS)
        {
            break;
        }
        cs_dense_lu_solve(s->g, k, s->piv, s->res);
        for (int r = 0; r < k; ++r)
        {
            s->x[r] += s->res[r];
            s->res[k + r] = s->res[r]; // kept to undo the round
        }
    }
    return last;
}

// The rows whose set the iterate contradicts, with the set each asks for in s->next ("Verify if Guess was
// a Solution"); returns their number.
static int infeasible(ppm* s)
{
    const cs_lcp* p = s->p;
    double lam_scale = 1.0;
    for (int i = 0; i < s->m; ++i)
    {
        lam_scale = fmax(lam_scale, fabs(s->lam[i]));
    }
    double tol_l = FEAS_TOL * lam_scale, tol_w = FEAS_TOL * s->scale;
    int count = 0;
    for (int i = 0; i < s->m; ++i)
    {
        int st = s->state[i];
        double lo, hi;
        if (is_friction(p, i))
        {
            if (s->state[p->link[i]] != ROW_FREE)
            {
                s->next[i] = st; // λ_n = 0: the row is 0 in every set
                s->x[i] = 0.0;
                continue;
            }
            double limit = p->mu[i] * s->lam[p->link[i]];
            lo = -limit;
            hi = limit;
        }
        else
        {
            fixed_bounds(p, i, &lo, &hi);
        }
        int want = st;
        double by = 0.0;
        if (st == ROW_FREE)
        {
            want = s->lam[i] < lo - tol_l ? ROW_LOW : s->lam[i] > hi + tol_l ? ROW_UP : ROW_FREE;
            by = (want == ROW_LOW ? lo - s->lam[i] : s->lam[i] - hi) / lam_scale;
        }
        else if (lo < hi && (st == ROW_LOW ? s->w[i] < -tol_w : s->w[i] > tol_w))
        {
            want = ROW_FREE;
            by = fabs(s->w[i]) / s->scale;
        }
        s->next[i] = want;
        s->x[i] = want != st ? by : 0.0;
        count += want != st;
    }
    return count;
}

// Clamps λ into its box (round-off at the bounds) and returns the natural residual on the true problem.
static double final_residual(ppm* s)
{
    const cs_lcp* p = s->p;
    for (int pass = 0; pass < 2; ++pass) // normal and box rows first: friction boxes read their λ_n
    {
        for (int i = 0; i < s->m; ++i)
        {
            if (is_friction(p, i) != (pass == 1))
            {
                continue;
            }
            double lo, hi;
            cs_row_bounds(p, s->lam, i, &lo, &hi);
            s->lam[i] = cs_clamp(s->lam[i], lo, hi);
        }
    }
    cs_lcp_velocity(p, s->lam, s->v);
    double res_lcp, res_nat;
    cs_residuals(p, s->v, s->lam, &res_lcp, &res_nat);
    return res_nat;
}

typedef enum ppm_outcome
{
    PPM_SOLVED,
    PPM_CAP,
    PPM_SINGULAR,
    PPM_INEXACT,
    PPM_LEMKE, // solved by the Lemke fallback; the answer is in work->x
} ppm_outcome;

// Júdice–Pires block principal pivoting with Murty's single pivots as the fallback.
// eps0: the proximal term of this attempt. A large one damps the steps along A's near-null directions (an
// inconsistent free system then moves λ by (rhs outside G's range)/eps, not /1e-10), at the price of
// refinement rounds that may not finish; so once the sets verify at a large eps they are polished at
// PPM_EPS (and pivoting goes on there if the exact solve contradicts them).
static ppm_outcome pivot_loop(ppm* s, double eps0, double* res_nat)
{
    int best = INT_MAX, retries = JP_RETRIES;
    int cap = s->solves + s->cap;
    for (;;)
    {
        double eps = eps0;
        while (!build_system(s, eps))
        {
            eps *= 100.0;
            if (eps > PPM_EPS_MAX)
            {
                return PPM_SINGULAR;
            }
        }
        s->eps_used = fmax(s->eps_used, eps);
        solve_system(s);
        s->solves += 1;
        int count = infeasible(s);
        if (count < s->best_count)
        {
            s->best_count = count;
            memcpy(s->best_state, s->state, (size_t)s->m * sizeof(int));
            memcpy(s->best_lam, s->lam, (size_t)s->m * sizeof(double));
        }
        if (count == 0 && eps0 > PPM_EPS)
        {
            eps0 = PPM_EPS;
            continue;
        }
        if (count == 0)
        {
            *res_nat = final_residual(s);
            return *res_nat <= PPM_ACCEPT * s->scale ? PPM_SOLVED : PPM_INEXACT;
        }
        if (s->solves >= cap)
        {
            *res_nat = final_residual(s);
            return PPM_CAP;
        }
        bool block = count < best || retries > 0;
        if (count < best)
        {
            best = count;
            retries = JP_RETRIES;
        }
        else if (retries > 0)
        {
            retries -= 1;
        }
        double worst = 0.0;
        for (int i = 0; i < s->m; ++i)
        {
            worst = fmax(worst, s->x[i]);
        }
        for (int i = 0; i < s->m; ++i)
        {
            if (s->next[i] != s->state[i] && (!block || s->x[i] >= FLIP_FRACTION * worst))
            {
                s->state[i] = s->next[i];
                s->pivots += 1;
                if (!block)
                {
                    break; // Murty: the least index only
                }
            }
        }
    }
}

// Carves the method's arrays out of work->dense (nothing allocated once it is large enough).
static cs_status carve(cs_solver_work* w, const cs_lcp* p, ppm* s, cs_error* err)
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
    *s = (ppm){.p = p, .m = m};
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
static void build_dense(ppm* s, const cs_solver_work* w)
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
    velocities(s); // w = q
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
static bool lemke_fallback(ppm* s, cs_solve_ctx* ctx, int* pivots, cs_error* err)
{
    cs_solver_work* w = ctx->work;
    int m = s->m;
    if (s->best_count == INT_MAX) // no reduced system was ever solved: the crash's sets (its λ is in work->x)
    {
        memcpy(s->lam, w->x, (size_t)m * sizeof(double));
        velocities(s);
        guess_sets(s);
        memcpy(s->best_state, s->state, (size_t)m * sizeof(int));
        memcpy(s->best_lam, s->lam, (size_t)m * sizeof(double));
    }
    memcpy(s->lam, s->best_lam, (size_t)m * sizeof(double));
    velocities(s);
    for (int i = 0; i < m; ++i)
    {
        int st = s->best_state[i];
        if (is_friction(s->p, i) && s->best_state[s->p->link[i]] != ROW_FREE)
        {
            st = s->w[i] > 0.0 ? ROW_LOW : ROW_UP; // the side it slips to (cs_lemke_warm)
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
    ppm s = {0};
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
    static const double attempts[] = {PPM_EPS, 1e-5, 1e-3};
    if (m > 0)
    {
        memcpy(w->x, s.lam, (size_t)m * sizeof(double));
    }
    double res_nat = INFINITY;
    ppm_outcome outcome = PPM_CAP;
    for (size_t k = 0; k < sizeof attempts / sizeof attempts[0] && outcome != PPM_SOLVED; ++k)
    {
        if (m > 0)
        {
            memcpy(s.lam, w->x, (size_t)m * sizeof(double));
        }
        velocities(&s);
        guess_sets(&s);
        outcome = pivot_loop(&s, attempts[k], &res_nat);
    }
    int lemke_pivots = 0;
    cs_error lemke_err = {0};
    // The fallback runs with the default budget only: --max-pivots K (the viewer race's 50) bounds the
    // block pivots, and a caller who set it wants that bound, not seconds of Lemke pivots.
    if (outcome != PPM_SOLVED && m > 0 && ctx->params->max_pivots <= 0)
    {
        outcome = lemke_fallback(&s, ctx, &lemke_pivots, &lemke_err) ? PPM_LEMKE : outcome;
    }
    ctx->method[0] = s.solves;
    ctx->method[2] = s.pivots;
    ctx->method[3] = lemke_pivots;
    ctx->pivots = s.solves + lemke_pivots;
    cs_lcp_velocity(p, ctx->lambda, w->v);
    switch (outcome)
    {
        case PPM_SOLVED:
            break;
        case PPM_LEMKE:
            return CS_OK; // the answer waits in work->x
        case PPM_CAP:
            return cs_fail(
                err, CS_ERR_VALUE,
                "ppm: block-pivot cap %d reached in each of %d attempts (%d block, %d principal pivots, "
                "last res_nat %.3g): the sets cycle or the budget is too small; %s",
                s.cap, (int)(sizeof attempts / sizeof attempts[0]), s.solves, s.pivots, res_nat,
                fallback_note(ctx, &lemke_err));
        case PPM_SINGULAR:
            return cs_fail(err, CS_ERR_VALUE,
                           "ppm: a reduced system stayed numerically singular with a proximal term of 1e-4 "
                           "A_ii (%d block pivots); %s",
                           s.solves, fallback_note(ctx, &lemke_err));
        case PPM_INEXACT:
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
