// `lemke` from a crash: Lemke's method started from the complementary basis that the index sets of an
// approximate answer name, instead of from z = 0.
//
// The cold start walks from B = I one complementary pivot at a time (Murty 1988, ch. 2), and on a
// frictional pool of ~1 200 rows (~2 450 LCP variables in Erleben's contact LCP model) it takes thousands of
// pivots of O(n·k) each, minutes in all, through bases on which A = J M⁻¹ Jᵀ is singular (rank ≤ 3 × bodies)
// and round-off decides the pivots. But the answer is a complementary basis, and projected Gauss-Seidel
// finds most of it cheaply (the MNS paper's Table 2 measure): the crash runs PGS sweeps from the start
// point, takes the sets of the mid-map at the point reached (Erleben's lecture, "Use Minimum Map
// Reformulation": λ_i − w_i ≤ l_i at the lower bound, ≥ u_i at the upper, else free; the friction bounds
// ±μλ_n) and hands them to the warm start (cs_lemke_warm, lemke_blcp.c: the basis with z basic on the
// rows off their bound, covered by d = B·1 where it is infeasible). When the crash's sets are the optimal
// ones that basis is the answer after 0 pivots; a few wrong rows cost a few pivots each; and when the warm
// start ends without an exact answer, the cold start runs as before. Nothing is trusted: whatever basis
// ends the pivoting, its λ is accepted only if it solves the true problem (res_nat ≤ 1e-9·max|r|, checked
// in lemke_blcp.c's run_attempts), otherwise the outcome is an error.
#include "solver/lemke_purify.h"
#include "solver/operator.h"

#include <math.h>
#include <string.h>

#define CRASH_TOL 1e-13 // the crash's PGS stops at this res_nat, relative to max(1, |q|∞)

enum
{
    CRASH_SWEEPS = 20000, // at most; ~0.2 s on a pool of 1 200 rows (ppm's crash)
    CRASH_CHUNK = 100,    // sweeps between two residual checks
};

// PGS sweeps on the driver's packed rows from ctx->lambda, in chunks of CRASH_CHUNK, until res_nat ≤ tol or
// max_sweeps in all (operator.h). No stall test: PGS sits on plateaus for thousands of sweeps and then
// converges (Pool 1 step 300 with friction: res_nat 3.8e-5 after 2 000 sweeps, 3e-16 after 20 000).
void cs_crash_sweeps(cs_solve_ctx* ctx, double tol, int max_sweeps)
{
    for (int sweep = 0; sweep < max_sweeps; sweep += CRASH_CHUNK)
    {
        for (int k = 0; k < CRASH_CHUNK; ++k)
        {
            cs_pgs_sweep(ctx);
        }
        double res_lcp, res_nat;
        cs_residuals(ctx->p, ctx->work->v, ctx->lambda, &res_lcp, &res_nat);
        if (!(res_nat > tol))
        {
            return;
        }
    }
}

// The mid-map's sets at (λ, v) into sets (cs_lemke_warm's encoding: −1 lower, 0 free, 1 upper; a friction row
// whose normal is at 0 is at a point box and gets the side its w_t slips to).
static void mid_map_sets(const cs_lcp* p, const double* lambda, const double* v, double* sets)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        double lo, hi;
        cs_lcp_bounds(p, lambda, i, &lo, &hi);
        double w = cs_row_w(p, v, lambda[i], i);
        double y = lambda[i] - w;
        if (p->kind[i] == CS_ROW_FRICTION && !(hi > 0.0))
        {
            sets[i] = w > 0.0 ? -1.0 : 1.0;
            continue;
        }
        sets[i] = lo == hi || y <= lo ? -1.0 : y >= hi ? 1.0 : 0.0;
        if (sets[i] < 0.0 && !isfinite(lo))
        {
            sets[i] = 0.0;
        }
    }
}

cs_status cs_lemke_crash(cs_solve_ctx* ctx, int cold_per_variable, bool* from_warm, int* pivots,
                         cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_solver_work* w = ctx->work;
    int m = p->row_count;
    double scale = 1.0;
    for (int i = 0; i < m; ++i)
    {
        scale = fmax(scale, fabs(cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], p->v) + p->bias[i]));
    }
    // The start point waits in work->scratch (the driver's history begins there); the crash's λ goes to
    // work->x and its sets to ctx->lambda, which cs_lemke_warm reads before it writes anything.
    if (m > 0)
    {
        memcpy(w->scratch, ctx->lambda, (size_t)m * sizeof(double));
    }
    cs_crash_sweeps(ctx, CRASH_TOL * scale, CRASH_SWEEPS);
    if (m > 0)
    {
        memcpy(w->x, ctx->lambda, (size_t)m * sizeof(double));
    }
    mid_map_sets(p, w->x, w->v, ctx->lambda);
    cs_status s = CS_OK;
    *pivots = 0;
    *from_warm = false;
    if (cs_lemke_purify(p, w->v, w->x, ctx->lambda, w) < 0)
    {
        s = cs_fail(err, CS_ERR_MEMORY, "lemke: out of memory purifying the crash's answer");
    }
    else
    {
        // cs_lemke_warm reads the sets and λ first, then uses work->v and work->x as its own.
        s = cs_lemke_warm(ctx, ctx->lambda, w->x, true, cold_per_variable, from_warm, pivots, err);
    }
    if (m > 0)
    {
        memcpy(ctx->lambda, w->scratch, (size_t)m * sizeof(double));
    }
    return s;
}
