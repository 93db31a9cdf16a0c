// Duels: fork, compare, colour by divergence.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/duel.h"

bool duel_parse(const char* list, int* solvers, int* count, char* err, size_t err_size)
{
    *count = 0;
    char copy[512];
    if (!app_format(copy, sizeof copy, "%s", list))
    {
        app_format(err, err_size, "--compare '%s' is too long", list);
        return false;
    }
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name != NULL;
         name = strtok_r(NULL, ",", &save))
    {
        int index = cs_solver_find(name);
        if (index < 0)
        {
            app_format(err, err_size, "--compare: '%s' is not a solver (known: %s)", name, cs_solver_names());
            return false;
        }
        if (*count == APP_MAX_PANES)
        {
            app_format(err, err_size, "--compare takes 2 to %d solvers, not more", APP_MAX_PANES);
            return false;
        }
        solvers[(*count)++] = index;
    }
    if (*count < 2)
    {
        app_format(err, err_size, "--compare takes 2 to %d comma-separated solvers (known: %s)",
                   APP_MAX_PANES, cs_solver_names());
        return false;
    }
    return true;
}

bool duel_start(app* a, const int* solvers, int count)
{
    if (count < 2)
    {
        app_end_panes(a);
        return true;
    }
    count = count > APP_MAX_PANES ? APP_MAX_PANES : count;
    for (int i = 0; i < count; ++i)
    {
        if (solvers[i] < 0 || solvers[i] >= cs_solver_count())
        {
            app_message(a, "no solver %d (%d registered)", solvers[i] + 1, cs_solver_count());
            return false;
        }
    }
    // Pane 0 switches without a restart (a new curve); the rivals copy its other settings.
    a->focus = 0;
    app_set_solver(a, solvers[0]);
    for (int i = 1; i < count; ++i)
    {
        a->rivals[i - 1].solver = solvers[i];
        a->rivals[i - 1].params = a->params;
    }
    if (!app_fork_panes(a, count))
    {
        return false;
    }
    char names[256] = "";
    size_t used = 0;
    for (int i = 0; i < count && used < sizeof names; ++i)
    {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i > 0 ? " vs " : "",
                         cs_solver_at(solvers[i])->name);
        used += n > 0 ? (size_t)n : 0;
    }
    app_message(a, "duel: %s from step %lld", names,
                a->world != NULL ? (long long)cs_world_stats(a->world)->step : 0LL);
    return true;
}

void duel_toggle(app* a)
{
    if (a->pane_count > 1)
    {
        app_end_panes(a);
        app_request_fit(a);
        app_message(a, "duel off");
        return;
    }
    int n = cs_solver_count();
    if (n < 2)
    {
        app_message(a, "a duel needs two solvers (%d registered)", n);
        return;
    }
    int solvers[2] = {a->solver, (a->solver + 1) % n};
    duel_start(a, solvers, 2);
}

void duel_difference(const app* a, double* dx, double* dv)
{
    *dx = 0.0;
    *dv = 0.0;
    const cs_world* w0 = a->world;
    for (int p = 1; p < a->pane_count && w0 != NULL; ++p)
    {
        // The panes keep the same ids (spawns and removals go to every pane): compare body by id.
        const cs_world* w = app_pane_world(a, p);
        for (int k = 0; k < cs_world_body_count(w0); ++k)
        {
            int id = cs_world_body_id(w0, k);
            if (!cs_world_body_alive(w, id))
            {
                continue;
            }
            cs_body_state b0 = cs_world_body(w0, id), b = cs_world_body(w, id);
            *dx = fmax(*dx, hypot(b.position.x - b0.position.x, b.position.y - b0.position.y));
            *dv = fmax(*dv, hypot(b.velocity.x - b0.velocity.x, b.velocity.y - b0.velocity.y));
        }
    }
}

const double* duel_divergence(app* a)
{
    if (a->pane_count < 2 || a->world == NULL)
    {
        return NULL;
    }
    int n = cs_world_body_count(a->world);
    if (n > a->divergence_capacity)
    {
        double* grown = realloc(a->divergence, (size_t)n * sizeof *grown);
        if (grown == NULL)
        {
            return NULL;
        }
        a->divergence = grown;
        a->divergence_capacity = n;
    }
    for (int i = 0; i < n; ++i)
    {
        int id = cs_world_body_id(a->world, i);
        cs_body_state b0 = cs_world_body(a->world, id);
        double d = 0.0;
        for (int p = 1; p < a->pane_count; ++p)
        {
            const cs_world* w = app_pane_world(a, p);
            if (cs_world_body_alive(w, id))
            {
                cs_body_state b = cs_world_body(w, id);
                d = fmax(d, hypot(b.position.x - b0.position.x, b.position.y - b0.position.y));
            }
        }
        // log10(d / r) from -9 (identical to print precision) to 0 (a radius apart).
        double t = d > 0.0 ? (log10(d / b0.radius) + 9.0) / 9.0 : 0.0;
        a->divergence[i] = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    }
    return a->divergence;
}
