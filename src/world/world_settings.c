// A world's settings: its definition, the solver and its parameters, threads, row order, formulation,
// friction, and the residual history of the last solve.
#include "world/limits.h"
#include "world/world_internal.h"

const cs_world_def* cs_world_get_def(const cs_world* w)
{
    return &w->def;
}

const cs_step_stats* cs_world_stats(const cs_world* w)
{
    return &w->stats;
}

void cs_world_set_solver(cs_world* w, int solver_index)
{
    if (solver_index >= 0 && solver_index < cs_solver_count())
    {
        w->def.solver = solver_index;
    }
}

int cs_world_solver(const cs_world* w)
{
    return w->def.solver;
}

bool cs_world_set_solver_params(cs_world* w, const cs_solver_params* params)
{
    cs_world_def d = w->def;
    d.solver_params = *params;
    if (d.solver_params.iterations < 1)
    {
        d.solver_params.iterations = 1;
    }
    cs_error why = {CS_OK, ""};
    if (cs_world_def_problem(&d, &why) != NULL) // limits.c: α = 1e308 would be NaN in the next solve
    {
        return false;
    }
    w->def.solver_params = d.solver_params;
    return true;
}

const cs_solver_params* cs_world_solver_params(const cs_world* w)
{
    return &w->def.solver_params;
}

bool cs_world_set_threads(cs_world* w, int threads)
{
    if (threads < 1 || threads > CS_WORKERS_MAX)
    {
        return false;
    }
    if (threads != cs_workers_threads(w->workers))
    {
        // The workers start here (they sleep until a step), so a count that cannot be had is refused now.
        cs_workers* pool = threads > 1 ? cs_workers_create(threads) : NULL;
        if (threads > 1 && pool == NULL)
        {
            return false;
        }
        cs_workers_destroy(w->workers);
        w->workers = pool;
    }
    w->threads = threads;
    return true;
}

int cs_world_threads(const cs_world* w)
{
    return w->threads;
}

bool cs_world_set_row_order(cs_world* w, cs_row_order order)
{
    if (cs_row_order_name(order) == NULL)
    {
        return false;
    }
    w->def.row_order = order;
    return true;
}

bool cs_world_set_formulation(cs_world* w, cs_formulation formulation)
{
    if (cs_formulation_name(formulation) == NULL)
    {
        return false;
    }
    w->def.formulation = formulation;
    return true;
}

void cs_world_set_frictionless(cs_world* w, bool frictionless)
{
    w->def.frictionless = frictionless;
}

cs_status cs_world_set_record_history(cs_world* w, bool on, cs_error* err)
{
    return cs_solver_work_set_history(&w->work, on, w->def.solver_params.iterations, err);
}

int cs_world_history(const cs_world* w, const double** res_lcp, const double** res_nat)
{
    if (res_lcp != NULL)
    {
        *res_lcp = w->work.history_lcp;
    }
    if (res_nat != NULL)
    {
        *res_nat = w->work.history_nat;
    }
    return w->work.record_history ? w->stats.iterations + 1 : 0;
}
