// The frozen-step race: every registered solver on one frozen problem, like circlesim-cli converge.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/race.h"

void race_clear(app* a)
{
    for (int k = 0; k < a->race.count; ++k)
    {
        free(a->race.entries[k].history);
        free(a->race.entries[k].times_ms);
    }
    free(a->race.entries);
    memset(&a->race, 0, sizeof a->race);
    app_request_fit(a);
}

int race_count(const app* a)
{
    return a->race.shown ? a->race.count : 0;
}

const app_race_entry* race_entry(const app* a, int k)
{
    return k >= 0 && k < race_count(a) ? &a->race.entries[k] : NULL;
}

// Keeps entry e's curves: residual per iteration and the same points against time.
static bool keep_history(app_race_entry* e, const cs_solver_work* work, bool on_lcp, int count)
{
    e->history = malloc((size_t)count * sizeof *e->history);
    e->times_ms = malloc((size_t)count * sizeof *e->times_ms);
    if (e->history == NULL || e->times_ms == NULL)
    {
        return false;
    }
    double per_iteration_ms = e->iterations > 0 ? 1000.0 * e->seconds / e->iterations : 0.0;
    for (int i = 0; i < count; ++i)
    {
        e->history[i] = on_lcp ? work->history_lcp[i] : work->history_nat[i];
        e->times_ms[i] = i * per_iteration_ms;
    }
    e->history_count = count;
    return true;
}

// The MNS Table 2 measure for entry e, with converge --active-set's parameters (the defaults with α, γ
// and the SIMD switch): rows identified after k = 1, 2, 5, 10, 50 iterations, as fractions for the plot.
static void active_set_progress(app_race_entry* e, const app_race* r, const cs_active_set* set,
                                const cs_lcp* problem, const cs_solver_params* pane, cs_solver_work* work,
                                double* lambda)
{
    cs_solver_params params = cs_solver_params_default();
    params.alpha = pane->alpha;
    params.gamma = pane->gamma;
    params.simd = pane->simd;
    if ((cs_solver_at(e->solver)->flags & CS_SOLVER_PIVOTING) != 0)
    {
        // A pivoting method's first iteration is its answer (seconds of pivots on Pool 1): the race's.
        for (int k = 0; k < CS_ACTIVE_SET_KS_COUNT; ++k)
        {
            e->set_found[k] = e->set_found_end;
        }
    }
    else
    {
        cs_active_set_progress(set, problem, e->solver, &params, cs_active_set_ks, CS_ACTIVE_SET_KS_COUNT,
                               work, lambda, e->set_found);
    }
    e->set_points = 0;
    for (int k = 0; k < CS_ACTIVE_SET_KS_COUNT; ++k)
    {
        if (e->set_found[k] >= 0 && r->set_active > 0) // (an empty optimal set has no fraction to plot)
        {
            e->set_k[e->set_points] = cs_active_set_ks[k];
            e->set_fraction[e->set_points++] = (double)e->set_found[k] / r->set_active;
        }
    }
}

// Times the solve as converge times it: the same iteration count again, without the per-iteration
// residuals (which cost more than a sweep), so the time axis is the method's own; the median of three, as
// converge's default --repeat 3.
static bool time_entry(app_race_entry* e, const cs_lcp* problem, const cs_solver_params* params,
                       double* lambda, cs_error* err)
{
    cs_solver_work timing = {0};
    cs_solver_params fixed = *params;
    fixed.tolerance = 0.0;
    fixed.iterations = e->iterations > 0 ? e->iterations : 1;
    double times[3];
    for (int r = 0; r < 3; ++r)
    {
        cs_solver_stats timed;
        if (cs_solve(problem, e->solver, &fixed, &timing, lambda, &timed, err) != CS_OK)
        {
            cs_solver_work_free(&timing);
            return false;
        }
        times[r] = timed.seconds;
    }
    cs_solver_work_free(&timing);
    double lo = times[0] < times[1] ? times[0] : times[1], hi = times[0] < times[1] ? times[1] : times[0];
    e->seconds = times[2] < lo ? lo : (times[2] > hi ? hi : times[2]);
    return true;
}

// One solver on the problem, from its warm start, to the tolerance (and, with a reference, its progress on
// the optimal active set). false only when memory runs out: a method that refuses the problem is a failed
// entry, as converge prints it.
static bool run_entry(app_race_entry* e, const app_race* r, const cs_active_set* set, const cs_lcp* problem,
                      const cs_solver_params* pane, cs_solver_work* work, double* lambda, cs_error* err)
{
    const cs_solver_info* info = cs_solver_at(e->solver);
    if ((info->flags & CS_SOLVER_DENSE) != 0 && problem->row_count > RACE_DENSE_MAX_ROWS)
    {
        e->skipped = true;
        app_format(e->label, sizeof e->label, "%s: not run (dense, %d rows > %d)", info->name,
                   problem->row_count, RACE_DENSE_MAX_ROWS);
        app_format(e->timed_label, sizeof e->timed_label, "%s", e->label);
        return true;
    }
    // converge's parameters: the defaults with α and γ (here the focused pane's).
    cs_solver_params params = cs_solver_params_default();
    params.alpha = pane->alpha;
    params.gamma = pane->gamma;
    params.iterations = RACE_MAX_ITERATIONS;
    params.tolerance = r->tolerance;
    params.tolerance_on = r->on_lcp ? CS_RES_LCP : CS_RES_NAT;
    params.simd = pane->simd;
    cs_solver_stats stats;
    cs_error refused = {CS_OK, ""};
    if (cs_solve(problem, e->solver, &params, work, lambda, &stats, &refused) != CS_OK)
    {
        e->failed = true;
        app_format(e->label, sizeof e->label, "%s: failed (%s)", info->name, refused.message);
        app_format(e->timed_label, sizeof e->timed_label, "%s", e->label);
        return true;
    }
    e->iterations = stats.iterations;
    e->residual = r->on_lcp ? stats.res_lcp : stats.res_nat;
    e->converged = e->residual <= r->tolerance;
    e->set_found_end = set != NULL ? cs_active_set_identified(set, problem, lambda) : -1;
    // Timed first: the history's time axis is the timed solve's mean time per iteration.
    if (!time_entry(e, problem, &params, lambda, err))
    {
        return false;
    }
    if (!keep_history(e, work, r->on_lcp, stats.history_count))
    {
        cs_fail(err, CS_ERR_MEMORY, "race: out of memory for the residual history");
        return false;
    }
    char alpha[32] = "", found[48] = "";
    if ((info->flags & CS_SOLVER_USES_ALPHA) != 0)
    {
        app_format(alpha, sizeof alpha, " α=%.2g", params.alpha);
    }
    if (set != NULL)
    {
        active_set_progress(e, r, set, problem, pane, work, lambda);
        if (r->set_active > 0)
        {
            app_format(found, sizeof found, ", active set %.0f %%",
                       100.0 * (double)e->set_found_end / r->set_active);
        }
        else
        {
            app_format(found, sizeof found, ", active set empty");
        }
    }
    app_format(e->label, sizeof e->label, "%s%s: %d it%s%s", info->name, alpha, e->iterations,
               e->converged ? "" : " (missed the tolerance)", found);
    app_format(e->timed_label, sizeof e->timed_label, "%s  %.3f ms", e->label, 1000.0 * e->seconds);
    return true;
}

// The reference for the active-set measure: ppm's or lemke's answer as converge --active-set finds it, but
// within RACE_REFERENCE_PIVOTS pivots each (no Newton fallback). A problem without one is raced all the
// same, without the measure.
static void find_active_set(app_race* r, const cs_lcp* problem, cs_active_set* set, bool* found)
{
    cs_solver_work work = {0};
    cs_error err = {CS_OK, ""};
    *found = cs_active_set_find_within(problem, &work, RACE_REFERENCE_PIVOTS, set, &err) == CS_OK;
    cs_solver_work_free(&work);
    r->has_set = *found;
    r->set_active = *found ? set->active : 0;
    app_format(r->set_source, sizeof r->set_source, "%s", *found ? set->source : err.message);
}

bool race_run(app* a, double tolerance)
{
    race_clear(a);
    cs_world* w = app_pane_world(a, a->focus);
    const cs_lcp* frozen = w != NULL ? cs_world_last_problem(w) : NULL;
    if (frozen == NULL || frozen->row_count == 0)
    {
        app_message(a, "race: no contact problem in this step yet (step once)");
        return false;
    }
    cs_error err = {0};
    cs_lcp problem = {0};
    cs_solver_work work = {0};
    double* lambda = malloc((size_t)frozen->row_count * sizeof *lambda);
    app_race* r = &a->race;
    // One entry per registered method, sized when the race starts (no cap to fall off as the registry grows).
    r->entries = calloc((size_t)cs_solver_count(), sizeof *r->entries);
    bool ok = lambda != NULL && r->entries != NULL && cs_lcp_copy(&problem, frozen, &err) == CS_OK &&
              cs_solver_work_set_history(&work, true, RACE_MAX_ITERATIONS, &err) == CS_OK;
    r->step = cs_world_stats(w)->step;
    r->rows = frozen->row_count;
    r->tolerance = tolerance;
    r->on_lcp = cs_world_get_def(w)->frictionless;
    cs_active_set set = {0};
    bool have_set = false;
    if (ok)
    {
        find_active_set(r, &problem, &set, &have_set);
    }
    for (int s = 0; ok && s < cs_solver_count(); ++s)
    {
        app_race_entry* e = &r->entries[r->count++];
        e->solver = s;
        ok = run_entry(e, r, have_set ? &set : NULL, &problem, app_pane_params(a, a->focus), &work, lambda,
                       &err);
    }
    cs_active_set_free(&set);
    free(lambda);
    cs_lcp_free(&problem);
    cs_solver_work_free(&work);
    if (!ok)
    {
        app_message(a, "race failed: %s", err.message[0] != '\0' ? err.message : "out of memory");
        race_clear(a);
        return false;
    }
    r->shown = true;
    app_message(a, "race: step %lld frozen, %d rows, %d solvers to %s <= %g; %s%s", (long long)r->step,
                r->rows, r->count, r->on_lcp ? "res_lcp" : "res_nat", tolerance,
                r->has_set ? "active set found" : "no active-set share: ", r->has_set ? "" : r->set_source);
    return true;
}

void race_toggle(app* a)
{
    if (a->race.shown)
    {
        race_clear(a);
        return;
    }
    race_run(a, RACE_TOLERANCE);
}
