// `ppm`'s block principal pivoting (ppm.c has the method and its description): λ from a guess of the sets,
// the reduced system of the FREE rows with a proximal term and its refinement, the verification of the
// guess, and the Júdice–Pires loop with Murty's single pivots as the fallback.
#include "solver/ppm.h"
#include "solver/dense_lu.h"
#include "solver/operator.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define PPM_EPS_MAX   1e-2  // the largest a factorisation may need
#define PPM_ACCEPT    1e-10 // natural residual, relative to max(1, |q|∞), of an accepted answer
#define FLIP_FRACTION 0.1   // a block pivot flips the rows violated by at least this fraction of the worst
#define FEAS_TOL      1e-12 // a bound or sign violated by less than this (relative) is not a pivot

enum
{
    JP_RETRIES = 3,     // block flips allowed without a new best count (Júdice & Pires's p)
    REFINE_ROUNDS = 30, // proximal-point rounds per solve
};

// Fixed bounds of a normal or box row.
static void fixed_bounds(const cs_lcp* p, int i, double* lo, double* hi)
{
    *lo = p->kind[i] == CS_ROW_BOX ? p->lo[i] : 0.0;
    *hi = p->kind[i] == CS_ROW_BOX ? p->hi[i] : INFINITY;
}

// A row is an unknown of the reduced system when FREE, unless it is friction on a normal row that is not
// (then its λ_n, and so the row, is 0).
static bool in_system(const cs_ppm* s, int i)
{
    if (s->state[i] != CS_PPM_ROW_FREE)
    {
        return false;
    }
    return !cs_ppm_is_friction(s->p, i) || s->state[s->p->link[i]] == CS_PPM_ROW_FREE;
}

// λ from the sets and the reduced unknowns x; friction rows after the rows they are bounded by.
static void assemble(cs_ppm* s)
{
    const cs_lcp* p = s->p;
    for (int i = 0; i < s->m; ++i)
    {
        if (cs_ppm_is_friction(p, i))
        {
            continue;
        }
        double lo, hi;
        fixed_bounds(p, i, &lo, &hi);
        s->lam[i] = s->slot[i] >= 0 ? s->x[s->slot[i]] : s->state[i] == CS_PPM_ROW_UP ? hi : lo;
    }
    for (int i = 0; i < s->m; ++i)
    {
        if (!cs_ppm_is_friction(p, i))
        {
            continue;
        }
        int n = p->link[i];
        double bound = s->state[n] == CS_PPM_ROW_FREE ? p->mu[i] * s->lam[n] : 0.0;
        s->lam[i] = s->slot[i] >= 0                  ? s->x[s->slot[i]]
                    : s->state[n] != CS_PPM_ROW_FREE ? 0.0
                                                     : s->state[i] * bound;
    }
}

// w = (A + Σ)λ + q of the iterate, through the velocities (O(nnz(J)), the driver's own residual).
void cs_ppm_velocities(cs_ppm* s)
{
    cs_lcp_velocity(s->p, s->lam, s->v);
    for (int i = 0; i < s->m; ++i)
    {
        s->w[i] = cs_row_w(s->p, s->v, s->lam[i], i);
    }
}

// The crash guess: the mid-map's decision at an approximate answer (λ, w in s->lam, s->w).
void cs_ppm_guess_sets(cs_ppm* s)
{
    const cs_lcp* p = s->p;
    for (int i = 0; i < s->m; ++i)
    {
        double lo, hi;
        if (cs_ppm_is_friction(p, i))
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
        s->state[i] = lo == hi || y <= lo ? CS_PPM_ROW_LOW : y >= hi ? CS_PPM_ROW_UP : CS_PPM_ROW_FREE;
        if (s->state[i] == CS_PPM_ROW_LOW && !isfinite(lo))
        {
            s->state[i] = CS_PPM_ROW_FREE; // a free row's λ is never at a bound
        }
    }
}

// G = (A + Σ)_{F,F} with the bound friction rows' ±μ A_{F,t} added to their normal row's column, plus the
// proximal term eps·A_ii on the diagonal; factorised in place. False when a pivot is still negligible.
static bool build_system(cs_ppm* s, double eps)
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
            if (cs_ppm_is_friction(p, t) && s->state[t] != CS_PPM_ROW_FREE && s->slot[p->link[t]] >= 0)
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
static double solve_system(cs_ppm* s)
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
        cs_ppm_velocities(s);
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
                cs_ppm_velocities(s);
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
static int infeasible(cs_ppm* s)
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
        if (cs_ppm_is_friction(p, i))
        {
            if (s->state[p->link[i]] != CS_PPM_ROW_FREE)
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
        if (st == CS_PPM_ROW_FREE)
        {
            want = s->lam[i] < lo - tol_l   ? CS_PPM_ROW_LOW
                   : s->lam[i] > hi + tol_l ? CS_PPM_ROW_UP
                                            : CS_PPM_ROW_FREE;
            by = (want == CS_PPM_ROW_LOW ? lo - s->lam[i] : s->lam[i] - hi) / lam_scale;
        }
        else if (lo < hi && (st == CS_PPM_ROW_LOW ? s->w[i] < -tol_w : s->w[i] > tol_w))
        {
            want = CS_PPM_ROW_FREE;
            by = fabs(s->w[i]) / s->scale;
        }
        s->next[i] = want;
        s->x[i] = want != st ? by : 0.0;
        count += want != st;
    }
    return count;
}

// Clamps λ into its box (round-off at the bounds) and returns the natural residual on the true problem.
static double final_residual(cs_ppm* s)
{
    const cs_lcp* p = s->p;
    for (int pass = 0; pass < 2; ++pass) // normal and box rows first: friction boxes read their λ_n
    {
        for (int i = 0; i < s->m; ++i)
        {
            if (cs_ppm_is_friction(p, i) != (pass == 1))
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

// Júdice–Pires block principal pivoting with Murty's single pivots as the fallback.
// eps0: the proximal term of this attempt. A large one damps the steps along A's near-null directions (an
// inconsistent free system then moves λ by (rhs outside G's range)/eps, not /1e-10), at the price of
// refinement rounds that may not finish; so once the sets verify at a large eps they are polished at
// CS_PPM_EPS (and pivoting goes on there if the exact solve contradicts them).
cs_ppm_outcome cs_ppm_pivot_loop(cs_ppm* s, double eps0, double* res_nat)
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
                return CS_PPM_SINGULAR;
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
        if (count == 0 && eps0 > CS_PPM_EPS)
        {
            eps0 = CS_PPM_EPS;
            continue;
        }
        if (count == 0)
        {
            *res_nat = final_residual(s);
            return *res_nat <= PPM_ACCEPT * s->scale ? CS_PPM_SOLVED : CS_PPM_INEXACT;
        }
        if (s->solves >= cap)
        {
            *res_nat = final_residual(s);
            return CS_PPM_CAP;
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
