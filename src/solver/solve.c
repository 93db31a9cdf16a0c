// The solve driver: workspace, per-row precomputation, the sweep loop, history and tolerance.
// Written once here so that every method (registry.c) only supplies a sweep.
#include "circlesim/solver.h"

#include "core/array.h"
#include "solver/fuse.h"
#include "solver/pack.h"
#include "solver/simd.h"
#include "solver/solver_internal.h"
#include "solver/subspace.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

cs_solver_params cs_solver_params_default(void)
{
    cs_solver_params params = {
        .iterations = 10, // the paper's per-step budget (§5)
        .tolerance = 0.0,
        .tolerance_rel = 0.0,
        .tolerance_on = CS_RES_NAT,
        .stagnation_window = 2000,
        .warm_start = true,
        .alpha = 0.2,
        .gamma = 2.0,
        .relaxation = 1.0,
        .amgs_literal = false,
        .simd = true,
        .kgs = 5, // pgs-sm: the paper's experiments (§4), k_gs = 5 and k_sm = 3
        .ksm = 3,
        .subspace_solver = CS_SUBSPACE_CHOLMOD,
    };
    return params;
}

const char* cs_solve_stop_name(cs_solve_stop stop)
{
    static const char* const names[CS_STOP_COUNT] = {"budget",    "converged", "iteration-limit",
                                                     "stagnated", "diverged",  "bad-problem"};
    return (int)stop >= 0 && (int)stop < CS_STOP_COUNT ? names[stop] : "?";
}

bool cs_solve_stop_failed(cs_solve_stop stop)
{
    return stop != CS_STOP_BUDGET && stop != CS_STOP_CONVERGED;
}

bool cs_solver_simd_available(void)
{
    return cs_simd_cpu();
}

cs_status cs_grow_doubles(double** array, int* capacity, int needed, cs_error* err)
{
    if (needed <= *capacity && *array != NULL)
    {
        return CS_OK;
    }
    int cap = cs_grow_capacity(*capacity, needed);
    double* q = realloc(*array, (size_t)cap * sizeof(double));
    if (q == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory growing a solver array to %d entries", cap);
    }
    *array = q;
    *capacity = cap;
    return CS_OK;
}

static bool grow_raw(double** array, size_t count)
{
    double* q = realloc(*array, count * sizeof(double));
    if (q == NULL)
    {
        return false;
    }
    *array = q;
    return true;
}

// Grows the workspace; allocates nothing when the capacities already suffice (the steady state).
static cs_status work_reserve(cs_solver_work* w, int bodies, int rows, cs_error* err)
{
    if (bodies > w->body_capacity || w->v == NULL)
    {
        int cap = cs_grow_capacity(w->body_capacity, bodies);
        // One body more: the zero slot static halves of packed rows point at.
        if (!grow_raw(&w->v, 3 * ((size_t)cap + 1)))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d bodies", cap);
        }
        w->body_capacity = cap;
    }
    if (rows > w->row_capacity || w->mjt == NULL)
    {
        int cap = cs_grow_capacity(w->row_capacity, rows);
        size_t n = (size_t)cap;
        if (!grow_raw(&w->mjt, 6 * n) || !grow_raw(&w->diag, n) || !grow_raw(&w->inv_diag, n) ||
            !grow_raw(&w->x, n) || !grow_raw(&w->scratch, n))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d rows", cap);
        }
        void* q = realloc(w->packed, n * sizeof(cs_packed_row));
        if (q == NULL)
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d rows", cap);
        }
        w->packed = q;
        w->row_capacity = cap;
    }
    return CS_OK;
}

void cs_solver_work_free(cs_solver_work* w)
{
    free(w->v);
    free(w->mjt);
    free(w->diag);
    free(w->inv_diag);
    free(w->x);
    free(w->scratch);
    free(w->dense);
    free(w->purify);
    free(w->history_lcp);
    free(w->history_nat);
    free(w->history_seconds);
    free(w->packed);
    free(w->quads);
    free(w->normal_quads);
    free(w->schedule);
    free(w->schedule_runs);
    if (w->fuse != NULL)
    {
        cs_fuse_plan_free(w->fuse);
        free(w->fuse);
    }
    cs_subspace_free(w->subspace);
    memset(w, 0, sizeof *w);
}

cs_status cs_solver_work_set_history(cs_solver_work* w, bool on, int max_iterations, cs_error* err)
{
    if (!on)
    {
        w->record_history = false;
        return CS_OK;
    }
    if (max_iterations < 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "history: negative iteration count %d", max_iterations);
    }
    int needed = max_iterations + 1;
    if (needed > w->history_capacity)
    {
        if (!grow_raw(&w->history_lcp, (size_t)needed) || !grow_raw(&w->history_nat, (size_t)needed) ||
            !grow_raw(&w->history_seconds, (size_t)needed))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: history of %d entries", needed);
        }
        w->history_capacity = needed;
    }
    w->record_history = true;
    return CS_OK;
}

// One pass over the rows: every row's packed record (cs_pack_row), A_ii and 1/A_ii into the work's public
// arrays, the M⁻¹Jᵀ columns into work->mjt when the method reads them (`columns`), and the warm start
// v += M⁻¹J_iᵀ λ_i (v must hold v* and lambda the start point). Returns cs_pack_proven: true proves every row
// good for cs_problem_check. (schedule.c's cs_pack_lanes is the same pass for methods that read the rows
// only through the vector schedule.)
static bool precompute_rows(const cs_lcp* p, cs_solver_work* w, const double* lambda, bool columns)
{
    cs_packed_row* packed = w->packed;
    const int32_t zero_slot = 3 * p->body_count;
    double* v = w->v;
    v[zero_slot] = v[zero_slot + 1] = v[zero_slot + 2] = 0.0;
    uint32_t previous_kind = CS_PACK_SKIP;
    int32_t previous_a = -1, previous_b = -1;
    cs_pack_proof proof = cs_pack_proof_start();
    for (int i = 0; i < p->row_count; ++i)
    {
        cs_packed_row* r = packed + i;
        cs_pack_row(p, lambda, i, zero_slot, w, columns, &proof, r);
        uint32_t kind = r->kind;
        int32_t ia = r->a, ib = r->b;
        if (cs_pack_pairs(previous_kind, previous_a, previous_b, r - 1, r, i - 1))
        {
            cs_pack_pair(r - 1, r);
        }
        previous_kind = kind;
        previous_a = ia;
        previous_b = ib;

        // v = v* + M⁻¹Jᵀλ⁰ (DESIGN.md step 5), row by row in file order.
        if (lambda[i] != 0.0)
        {
            cs_pack_apply(r, lambda[i], v);
        }
    }
    return cs_pack_proven(&proof);
}

// Whether every body index of p is in [-1, body_count).
static bool bodies_in_range(const cs_lcp* p)
{
    // One branch-free pass: (unsigned)(index + 1) > body_count for an index outside [-1, body_count),
    // OR-ed into an unsigned, which the compiler vectorises (a bool &= did not: ~12 instructions a row).
    const int* body_a = p->body_a;
    const int* body_b = p->body_b;
    const int rows = p->row_count;
    const unsigned bodies = (unsigned)p->body_count;
    unsigned outside = 0;
    for (int i = 0; i < rows; ++i)
    {
        outside |= ((unsigned)body_a[i] + 1u > bodies) | ((unsigned)body_b[i] + 1u > bodies);
    }
    return outside == 0;
}

static void residuals(const cs_solve_ctx* ctx, double* res_lcp, double* res_nat)
{
    cs_residuals(ctx->p, ctx->work->v, ctx->lambda, res_lcp, res_nat);
}

// Whether cs_solve_finish hands a method all its sweeps at once (cs_solver_entry.sweeps): nothing is
// watched between them.
static bool sweeps_unwatched(const cs_solver_entry* method, const cs_solver_params* params,
                             const cs_solver_work* work)
{
    bool history = work->record_history && work->history_capacity > 0;
    bool tolerance = params->tolerance > 0.0 || params->tolerance_rel > 0.0;
    return method->sweeps != NULL && !(method->info.flags & CS_SOLVER_PIVOTING) && !history && !tolerance;
}

// The fused-sweep plan of this solve's vector schedule (fuse.h), when its method takes several sweeps at
// once and the problem is big enough; otherwise an empty plan (the sweeps run one by one).
static cs_status plan_fused_sweeps(const cs_lcp* p, const cs_solver_entry* method,
                                   const cs_solver_params* params, cs_solver_work* work, cs_error* err)
{
    if (work->fuse != NULL)
    {
        ((cs_fuse_plan*)work->fuse)->count = 0;
    }
    if (work->schedule_count == 0 || p->row_count < cs_fuse_min_rows || params->iterations < 2 ||
        !sweeps_unwatched(method, params, work))
    {
        return CS_OK;
    }
    if (work->fuse == NULL && (work->fuse = calloc(1, sizeof(cs_fuse_plan))) == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory: fused sweeps for %d rows", p->row_count);
    }
    return cs_fuse_plan_rows(work->fuse, p, work, err);
}

cs_status cs_solve_start(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                         double* lambda, cs_solve_run* run, cs_error* err)
{
    const cs_solver_entry* method = cs_solver_entry_at(solver);
    if (method == NULL)
    {
        return cs_fail(err, CS_ERR_USAGE, "unknown solver index %d (registered: %s)", solver,
                       cs_solver_names());
    }
    if (params->iterations < 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "iterations must be >= 0, got %d", params->iterations);
    }
    if (!(params->tolerance >= 0.0) || !(params->tolerance_rel >= 0.0) || params->stagnation_window < 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "tolerances and the stagnation window must be >= 0, got %g, %g, %d",
                       params->tolerance, params->tolerance_rel, params->stagnation_window);
    }
    // The packing pass below indexes bodies by these: out of range is a malformed problem (the first
    // offending row is looked for only when there is one).
    bool in_range = bodies_in_range(p);
    for (int i = 0; !in_range && i < p->row_count; ++i)
    {
        if (p->body_a[i] < -1 || p->body_a[i] >= p->body_count || p->body_b[i] < -1 ||
            p->body_b[i] >= p->body_count)
        {
            return cs_fail(err, CS_ERR_USAGE, "row %d: body index %d or %d out of range [-1, %d)", i,
                           p->body_a[i], p->body_b[i], p->body_count);
        }
    }
    int bad = cs_lcp_bad_reg_row(p);
    if (bad >= 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "row %d: regularisation %g (finite, >= 0, 0 for a friction row)",
                       bad, p->reg[bad]);
    }
    run->t0 = cs_seconds();
    run->method = method;
    run->defer_residuals = false;
    cs_status s = work_reserve(work, p->body_count, p->row_count, err);
    if (s != CS_OK)
    {
        return s;
    }
    int m = p->row_count;
    // (Not for AMGS's literal variant, whose rule has no vector form.)
    bool lanes = (method->info.flags & CS_SOLVER_SIMD) && !method->own_lanes && params->simd &&
                 !params->amgs_literal && cs_simd_cpu();
    bool packs_lanes = lanes && method->schedule_only; // cs_pack_lanes sets the start point itself
    if (m > 0 && !packs_lanes)                         // lambda may be NULL for an empty problem
    {
        if (params->warm_start)
        {
            memcpy(lambda, p->lambda0, (size_t)m * sizeof(double));
        }
        else
        {
            memset(lambda, 0, (size_t)m * sizeof(double));
        }
    }
    if (p->body_count > 0) // (p->v may be NULL for a problem without bodies)
    {
        memcpy(work->v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    }
    bool rows_good = false;
    work->schedule_count = 0;
    work->lanes_only = false;
    if (work->fuse != NULL) // (no plan of an earlier problem survives a check that refuses this one)
    {
        ((cs_fuse_plan*)work->fuse)->count = 0;
    }
    if (packs_lanes)
    {
        // The rows go straight into the lanes the sweeps read; records only for the others.
        s = cs_pack_lanes(p, work, params->warm_start ? p->lambda0 : NULL, lambda, &rows_good, err);
        lanes = false; // (the schedule is built)
        if (s != CS_OK)
        {
            return s;
        }
    }
    else
    {
        rows_good = precompute_rows(p, work, lambda, (method->info.flags & CS_SOLVER_DENSE) != 0);
    }
    run->check =
        (cs_solver_stats){.stop = CS_STOP_BUDGET, .stop_reason = "", .stop_row = -1, .stop_body = -1};
    cs_solve_ctx ctx = {.p = p, .params = params, .work = work, .lambda = lambda};
    run->ctx = ctx;
    if (!cs_problem_check(p, rows_good, work->diag, lambda, &run->check))
    {
        return CS_OK; // no method runs on it: cs_solve_finish reports the reason
    }
    if (lanes)
    {
        s = cs_schedule_rows(p, work, err);
        if (s != CS_OK)
        {
            return s;
        }
    }
    s = plan_fused_sweeps(p, method, params, work, err);
    if (s != CS_OK)
    {
        return s;
    }
    if (method->begin != NULL)
    {
        return method->begin(&run->ctx, err);
    }
    return CS_OK;
}

// The stopping rules of a solve with a tolerance (or a history): convergence on the absolute or the
// relative tolerance, stagnation over a window, divergence.
typedef struct stop_rules
{
    bool tolerance; // a tolerance was asked: the solve may converge, stagnate or hit its limit
    double target;  // max(tolerance, tolerance_rel·r₀)
    double r0;      // the start point's residual
    // Stagnation compares windows of `window` iterations: the best residual of each window must be a relative
    // CS_STAGNATION_PROGRESS below the best of the window before. (Not below the best so far: over-relaxed
    // methods first raise the residual well above the start point's, AMGS on Stacking 150 for ~3000 sweeps,
    // and then converge steadily.)
    double best_window;   // the best residual of the current window
    double best_previous; // the best of the window before (+inf during the first)
    int window;           // 0: no stagnation test
} stop_rules;

static stop_rules stop_rules_make(const cs_solver_params* params, double r0)
{
    stop_rules s = {
        .tolerance = params->tolerance > 0.0 || params->tolerance_rel > 0.0,
        .target =
            params->tolerance > params->tolerance_rel * r0 ? params->tolerance : params->tolerance_rel * r0,
        .r0 = r0,
        .best_window = INFINITY,
        .best_previous = INFINITY,
        .window = params->stagnation_window,
    };
    return s;
}

// The stop the residual r after `done` iterations calls for, or CS_STOP_BUDGET to go on.
static cs_solve_stop stop_rules_test(stop_rules* s, double r, int done)
{
    if (!isfinite(r) || (s->r0 > 0.0 && r > CS_DIVERGENCE_RATIO * s->r0))
    {
        return CS_STOP_DIVERGED;
    }
    if (!s->tolerance)
    {
        return CS_STOP_BUDGET;
    }
    if (r <= s->target)
    {
        return CS_STOP_CONVERGED;
    }
    if (s->window <= 0 || done == 0)
    {
        return CS_STOP_BUDGET;
    }
    s->best_window = r < s->best_window ? r : s->best_window;
    if (done % s->window == 0)
    {
        if (!(s->best_window < s->best_previous * (1.0 - CS_STAGNATION_PROGRESS)))
        {
            return CS_STOP_STAGNATED;
        }
        s->best_previous = s->best_window;
        s->best_window = INFINITY;
    }
    return CS_STOP_BUDGET;
}

static double watched(const cs_solver_params* params, double r_lcp, double r_nat)
{
    return params->tolerance_on == CS_RES_LCP ? r_lcp : r_nat;
}

// A problem cs_problem_check refused: no sweep, the start point as the answer.
static void finish_bad(cs_solve_run* run, cs_solver_stats* stats)
{
    if (stats != NULL)
    {
        *stats = run->check;
        stats->iterations = 0;
        stats->seconds = cs_seconds() - run->t0;
        stats->history_count = 0;
        residuals(&run->ctx, &stats->res_lcp, &stats->res_nat);
    }
}

void cs_solve_finish(cs_solve_run* run, cs_solver_stats* stats)
{
    if (run->check.stop == CS_STOP_BAD_PROBLEM)
    {
        finish_bad(run, stats);
        return;
    }
    cs_solve_ctx* ctx = &run->ctx;
    const cs_solver_params* params = ctx->params;
    cs_solver_work* work = ctx->work;
    bool history = work->record_history && work->history_capacity > 0;
    bool tolerance = params->tolerance > 0.0 || params->tolerance_rel > 0.0;
    // Residuals recorded only for the history are an observation, not part of the method: their
    // time is taken out of stats->seconds. A tolerance test is part of the method and is timed.
    double observe_seconds = 0.0;
    int history_count = 0;
    stop_rules rules = stop_rules_make(params, 0.0);
    cs_solve_stop stop = CS_STOP_BUDGET;
    if (history || tolerance)
    {
        double t = cs_seconds();
        double r_lcp, r_nat;
        residuals(ctx, &r_lcp, &r_nat);
        if (history)
        {
            work->history_lcp[0] = r_lcp;
            work->history_nat[0] = r_nat;
            work->history_seconds[0] = t - run->t0;
            history_count = 1;
        }
        rules = stop_rules_make(params, watched(params, r_lcp, r_nat));
        stop = stop_rules_test(&rules, rules.r0, 0); // a start point may already be the answer
        if (!tolerance)
        {
            observe_seconds += cs_seconds() - t;
        }
    }
    int done = 0;
    // A pivoting method's begin either failed (an error, never here) or left the exact answer for its first
    // sweep: one iteration, converged (or, with a tolerance it misses, iteration-limit), whatever the
    // iteration budget (its own is params->max_pivots).
    bool pivoting = (run->method->info.flags & CS_SOLVER_PIVOTING) != 0;
    int budget = pivoting ? 1 : params->iterations;
    if (sweeps_unwatched(run->method, params, work) && stop == CS_STOP_BUDGET)
    {
        run->method->sweeps(ctx, budget); // nothing to watch between them: all at once (fuse.h)
        done = budget;
    }
    while (stop == CS_STOP_BUDGET && done < budget)
    {
        run->method->sweep(ctx);
        done += 1;
        if (!history && !tolerance)
        {
            continue;
        }
        double t = cs_seconds();
        double r_lcp, r_nat;
        residuals(ctx, &r_lcp, &r_nat);
        if (history && done < work->history_capacity)
        {
            work->history_lcp[done] = r_lcp;
            work->history_nat[done] = r_nat;
            work->history_seconds[done] = t - run->t0 - observe_seconds;
            history_count = done + 1;
        }
        stop = stop_rules_test(&rules, watched(params, r_lcp, r_nat), done);
        if (!tolerance)
        {
            observe_seconds += cs_seconds() - t;
        }
    }
    if (stop == CS_STOP_BUDGET && pivoting && !tolerance)
    {
        stop = CS_STOP_CONVERGED;
    }
    if (stop == CS_STOP_BUDGET && tolerance)
    {
        stop = CS_STOP_ITERATION_LIMIT;
    }
    double seconds = cs_seconds() - run->t0 - observe_seconds;

    if (stats != NULL)
    {
        *stats = run->check;
        stats->iterations = done;
        stats->seconds = seconds;
        stats->history_count = history_count;
        stats->subspace = cs_subspace_report(work, run->method->info.flags);
        stats->pivots = ctx->pivots;
        stats->stop = stop;
        if (!run->defer_residuals)
        {
            cs_solve_residuals(run, stats);
        }
    }
}

void cs_solve_residuals(const cs_solve_run* run, cs_solver_stats* stats)
{
    residuals(&run->ctx, &stats->res_lcp, &stats->res_nat);
    // Without a tolerance or a history nothing was watched on the way: the final iterate still is.
    bool finite = isfinite(stats->res_lcp) && isfinite(stats->res_nat);
    stats->stop = finite || stats->stop == CS_STOP_DIVERGED ? stats->stop : CS_STOP_DIVERGED;
    if ((stats->stop == CS_STOP_STAGNATED || stats->stop == CS_STOP_ITERATION_LIMIT) &&
        (run->method->info.flags & CS_SOLVER_SINGLE))
    {
        stats->stop_reason = "single precision: res_nat floors at float round-off (CS_SOLVER_SINGLE)";
    }
}

cs_status cs_solve(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                   double* lambda, cs_solver_stats* stats, cs_error* err)
{
    cs_solve_run run;
    cs_status s = cs_solve_start(p, solver, params, work, lambda, &run, err);
    if (s != CS_OK)
    {
        return s;
    }
    cs_solve_finish(&run, stats);
    return CS_OK;
}
