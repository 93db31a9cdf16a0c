// The HUD's lines and the settings' names, from the model.
#include <stdio.h>
#include <string.h>

#include "app/duel.h"
#include "app/hud_text.h"

static const char* speed_label(int index)
{
    static const char* labels[APP_SPEED_COUNT] = {"×¼", "×½", "×1", "×2", "×4"};
    return index >= 0 && index < APP_SPEED_COUNT ? labels[index] : "?";
}

// The lines filled so far, and room for how many.
typedef struct hud_text
{
    char (*lines)[HUD_LINE_MAX];
    int n, max;
} hud_text;

// One more line, unless the lines are full.
#define LINE(t, ...)                                                                                         \
    do                                                                                                       \
    {                                                                                                        \
        if ((t)->n < (t)->max)                                                                               \
        {                                                                                                    \
            app_format((t)->lines[(t)->n++], HUD_LINE_MAX, __VA_ARGS__);                                     \
        }                                                                                                    \
    } while (0)

// The solver's own parameters (α, γ, ω as it reads them) after its name.
static void solver_extra(const cs_solver_info* info, const cs_solver_params* params, char* extra, size_t size)
{
    extra[0] = '\0';
    if (info == NULL)
    {
        return;
    }
    size_t used = 0;
    if ((info->flags & CS_SOLVER_USES_ALPHA) != 0)
    {
        used += (size_t)snprintf(extra + used, size - used, "  α %.2f", params->alpha);
    }
    if ((info->flags & CS_SOLVER_USES_GAMMA) != 0 && used < size)
    {
        used += (size_t)snprintf(extra + used, size - used, "  γ %.2f", params->gamma);
    }
    if ((info->flags & CS_SOLVER_USES_RELAXATION) != 0 && used < size)
    {
        app_format(extra + used, size - used, "  ω %.2f", params->relaxation);
    }
}

// The duel's panes and their divergence, the focused pane's solver and its settings (the keys change that
// pane's).
static void settings_lines(const app* a, hud_text* t)
{
    int solver = app_pane_solver(a, a->focus);
    const cs_solver_params* params = app_pane_params(a, a->focus);
    const cs_solver_info* info = cs_solver_at(solver);
    if (a->pane_count > 1)
    {
        double dx = 0.0, dv = 0.0;
        duel_difference(a, &dx, &dv);
        LINE(t, "duel  %d panes, keys → pane %d (Q)", a->pane_count, a->focus + 1);
        LINE(t, "max Δx %.2e m  Δv %.2e m/s", dx, dv);
    }
    char extra[96];
    solver_extra(info, params, extra, sizeof extra);
    LINE(t, "solver %d/%d %s%s", solver + 1, cs_solver_count(), info != NULL ? info->name : "?", extra);
    LINE(t, "iterations %d/step  warm start %s", params->iterations, params->warm_start ? "on" : "off");
}

// The focused pane's world: counts, row order, residuals, time, timings, the world's switches and the
// ray's hit.
static void world_lines(const app* a, const cs_world* world, hud_text* t)
{
    const cs_solver_params* params = app_pane_params(a, a->focus);
    const cs_solver_info* info = cs_solver_at(app_pane_solver(a, a->focus));
    const cs_step_stats* s = cs_world_stats(world);
    LINE(t, "bodies %d  contacts %d  rows %d", cs_world_body_count(world), s->contacts, s->rows);
    // "AVX2 lanes" when the sweeps update four rows per instruction (the same results, only faster).
    bool lanes = params->simd && cs_solver_simd_available() && info != NULL && (info->flags & CS_SOLVER_SIMD);
    LINE(t, "row order %s%s", cs_row_order_name(cs_world_get_def(world)->row_order),
         lanes ? "  AVX2 lanes" : "");
    // Why the solve stopped, unless it simply ran its iterations (a tolerance, or a failure, shows).
    bool stop = s->solve_stop != CS_STOP_BUDGET;
    LINE(t, "res_lcp %.3e  res_nat %.3e%s%s", s->res_lcp, s->res_nat, stop ? "  " : "",
         stop ? cs_solve_stop_name((cs_solve_stop)s->solve_stop) : "");
    LINE(t, "t %.2f s  step %lld", s->time, (long long)s->step);
    if (a->show_timings)
    {
        LINE(t, "step %.2f ms  solver %.2f ms  %.0f FPS", a->step_ms, a->solver_ms, a->fps);
    }
    if (cs_world_get_def(world)->frictionless)
    {
        LINE(t, "frictionless");
    }
    if (cs_world_sleeping_enabled(world) || !cs_world_continuous_enabled(world))
    {
        LINE(t, "sleeping %s (%d awake)  continuous %s", cs_world_sleeping_enabled(world) ? "on" : "off",
             cs_world_awake_count(world), cs_world_continuous_enabled(world) ? "on" : "off");
    }
    if (a->has_ray && a->ray_found)
    {
        const cs_ray_hit* h = &a->ray_hit;
        char what[32];
        app_format(what, sizeof what, h->body >= 0 ? "body %d" : "wall %d", h->body >= 0 ? h->body : h->wall);
        LINE(t, "ray: %s at (%.3f, %.3f)  n (%.2f, %.2f)  f %.3f", what, h->point.x, h->point.y, h->normal.x,
             h->normal.y, h->fraction);
    }
}

int hud_lines(const app* a, char lines[][HUD_LINE_MAX], int max_lines)
{
    hud_text t = {lines, 0, max_lines};
    LINE(&t, "scene  %s", a->world != NULL ? a->info.name : "(none)");
    // Settings lines are those of the focused pane (the one the keys change).
    settings_lines(a, &t);
    const cs_world* world = app_pane_world(a, a->focus);
    if (world != NULL)
    {
        world_lines(a, world, &t);
    }
    // Whether real time is kept depends on the machine, so it is a timing too.
    LINE(&t, "speed %s%s%s", speed_label(a->speed_index), a->paused ? "  PAUSED" : "",
         a->behind && a->show_timings ? "  slower than real time" : "");
    // The REC badge is in the window title (loop.c), not in the frames it records.
    LINE(&t, "H: help");
    return t.n;
}
