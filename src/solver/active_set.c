// The optimal active set (active_set.h): a reference answer's contact velocities decide which rows must sit
// at a bound; an iterate has identified a row when its impulse sits at that same bound.
#include "circlesim/active_set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int cs_active_set_ks[CS_ACTIVE_SET_KS_COUNT] = {1, 2, 5, 10, 50};

// −1 at the lower bound, +1 at the upper, 0 inside, within eps.
static int row_at(const cs_lcp* p, const double* lambda, int i, double eps)
{
    double lo, hi;
    cs_lcp_bounds(p, lambda, i, &lo, &hi);
    if (lambda[i] <= lo + eps)
    {
        return -1;
    }
    if (lambda[i] >= hi - eps)
    {
        return 1;
    }
    return 0;
}

// w_i = J_i v + b_i.
static double contact_velocity(const cs_lcp* p, const double* v, int i)
{
    const double* j = p->jac + 6 * i;
    double w = p->bias[i];
    int a = p->body_a[i], b = p->body_b[i];
    if (a >= 0)
    {
        w += j[0] * v[3 * a] + j[1] * v[3 * a + 1] + j[2] * v[3 * a + 2];
    }
    if (b >= 0)
    {
        w += j[3] * v[3 * b] + j[4] * v[3 * b + 1] + j[5] * v[3 * b + 2];
    }
    return w;
}

// One exact method into `best` within max_pivots (0: its default); appends its refusal to `why`.
static bool exact(const char* name, const cs_lcp* p, cs_solver_work* work, double* best, int max_pivots,
                  cs_active_set* set, char* why, size_t why_size)
{
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = false;
    params.iterations = 1;
    params.max_pivots = max_pivots;
    cs_solver_stats st;
    cs_error err = {CS_OK, ""};
    bool history = work->record_history;
    work->record_history = false;
    int method = cs_solver_find(name);
    bool ok = method >= 0 && cs_solve(p, method, &params, work, best, &st, &err) == CS_OK &&
              st.stop == CS_STOP_CONVERGED;
    work->record_history = history;
    if (ok)
    {
        snprintf(set->source, sizeof set->source, "optimal active set from %s (%d pivots, res_nat %.1e)",
                 name, st.pivots, st.res_nat);
        return true;
    }
    size_t used = strlen(why);
    snprintf(why + used, why_size - used, "%s%s", used > 0 ? "; " : "",
             err.message[0] != '\0' ? err.message : st.stop_reason);
    return false;
}

// The reference answer into `best` (its velocities into work->v), saying where it came from: ppm (fast on
// frictional pools), then lemke, then (without a budget) a converged Newton solve.
static cs_status reference(const cs_lcp* p, cs_solver_work* work, double* best, int max_pivots,
                           cs_active_set* set, cs_error* err)
{
    char refused[400] = "";
    if (exact("ppm", p, work, best, max_pivots, set, refused, sizeof refused) ||
        exact("lemke", p, work, best, max_pivots, set, refused, sizeof refused))
    {
        return CS_OK;
    }
    if (max_pivots > 0)
    {
        return cs_fail(err, CS_ERR_VALUE, "no reference within %d pivots: %s", max_pivots, refused);
    }
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = false;
    params.iterations = 500;
    params.tolerance = 1e-12;
    cs_solver_stats stats;
    cs_error failed = {CS_OK, "newton-minmap is not registered"};
    int newton = cs_solver_find("newton-minmap");
    if (newton < 0 || cs_solve(p, newton, &params, work, best, &stats, &failed) != CS_OK)
    {
        return cs_fail(err, CS_ERR_VALUE, "no reference answer: %s (%s)", failed.message, refused);
    }
    snprintf(set->source, sizeof set->source,
             "%s\noptimal active set from newton-minmap instead (%d iterations, res_nat %.1e%s)", refused,
             stats.iterations, stats.res_nat, stats.res_nat <= 1e-12 ? "" : ", NOT converged");
    return CS_OK;
}

cs_status cs_active_set_find(const cs_lcp* problem, cs_solver_work* work, cs_active_set* set, cs_error* err)
{
    return cs_active_set_find_within(problem, work, 0, set, err);
}

cs_status cs_active_set_find_within(const cs_lcp* problem, cs_solver_work* work, int max_pivots,
                                    cs_active_set* set, cs_error* err)
{
    int m = problem->row_count;
    *set = (cs_active_set){.rows = m};
    double* best = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    set->at = malloc((size_t)(m > 0 ? m : 1));
    if (best == NULL || set->at == NULL)
    {
        free(best);
        cs_active_set_free(set);
        return cs_fail(err, CS_ERR_MEMORY, "active set: out of memory");
    }
    cs_status status = reference(problem, work, best, max_pivots, set, err);
    if (status == CS_OK)
    {
        double scale = 1.0, w_scale = 1.0;
        for (int i = 0; i < m; ++i)
        {
            scale = fmax(scale, fabs(best[i]));
            w_scale = fmax(w_scale, fabs(contact_velocity(problem, work->v, i)));
        }
        set->eps = 1e-9 * scale;
        double w_eps = 1e-9 * w_scale;
        for (int i = 0; i < m; ++i)
        {
            double w = contact_velocity(problem, work->v, i);
            set->at[i] =
                (signed char)(w > w_eps ? -1 : (w < -w_eps && problem->kind[i] != CS_ROW_NORMAL ? 1 : 0));
            set->active += set->at[i] != 0;
        }
    }
    free(best);
    if (status != CS_OK)
    {
        cs_active_set_free(set);
    }
    return status;
}

int cs_active_set_identified(const cs_active_set* set, const cs_lcp* problem, const double* lambda)
{
    int found = 0;
    for (int i = 0; i < set->rows; ++i)
    {
        found += set->at[i] != 0 && row_at(problem, lambda, i, set->eps) == set->at[i];
    }
    return found;
}

void cs_active_set_progress(const cs_active_set* set, const cs_lcp* problem, int solver,
                            const cs_solver_params* params, const int* ks, int count, cs_solver_work* work,
                            double* lambda, int* identified)
{
    bool pivoting = (cs_solver_at(solver)->flags & CS_SOLVER_PIVOTING) != 0;
    bool solved = false;
    for (int k = 0; k < count; ++k)
    {
        if (!(pivoting && k > 0))
        {
            cs_solver_params p = *params;
            p.iterations = ks[k];
            cs_error err = {CS_OK, ""};
            solved = cs_solve(problem, solver, &p, work, lambda, NULL, &err) == CS_OK;
        }
        identified[k] = solved ? cs_active_set_identified(set, problem, lambda) : -1;
    }
}

void cs_active_set_free(cs_active_set* set)
{
    free(set->at);
    set->at = NULL;
}
