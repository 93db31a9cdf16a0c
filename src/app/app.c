// The viewer's model operations: scenes, solver settings, stepping with the accumulator and the mouse
// spring. Nothing here draws; everything here is what keys, scripts and tests drive.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/setting_label.h"
#include "app/scene_list.h"

const double app_speeds[APP_SPEED_COUNT] = {0.25, 0.5, 1.0, 2.0, 4.0};

// Mouse spring: natural frequency and force cap (in multiples of the body's weight). Critically damped
// (ζ = 1) and ω h ≈ 0.26 at h = 1/60, far inside symplectic Euler's stability bound ω h < 2, so the
// spring itself never excites the solver; the cap keeps a body pinned under a pile from being flung.
#define GRAB_FREQUENCY_HZ 2.5
#define GRAB_MAX_WEIGHTS  8.0

double app_now(const app* a)
{
    (void)a;
    return cs_seconds();
}

void app_message(app* a, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, args);
    va_end(args);
    a->message_until = app_now(a) + 4.0;
    // Also on stderr: scripted runs and terminals keep a record of saved files and failures.
    fprintf(stderr, "circlesim: %s\n", a->message);
}

// A pane's settings, wherever they live (pane 0 in the app itself, the others in rivals[]).
typedef struct pane_ref
{
    cs_world* world;
    int* solver;
    cs_solver_params* params;
    app_plot* plot;
} pane_ref;

static pane_ref pane_at(app* a, int pane)
{
    if (pane <= 0 || pane >= a->pane_count)
    {
        return (pane_ref){a->world, &a->solver, &a->params, &a->plot};
    }
    app_pane* p = &a->rivals[pane - 1];
    return (pane_ref){p->world, &p->solver, &p->params, &p->plot};
}

static pane_ref focused(app* a)
{
    return pane_at(a, a->focus);
}

cs_world* app_pane_world(const app* a, int pane)
{
    return pane_at((app*)a, pane).world;
}

int app_pane_solver(const app* a, int pane)
{
    return *pane_at((app*)a, pane).solver;
}

const cs_solver_params* app_pane_params(const app* a, int pane)
{
    return pane_at((app*)a, pane).params;
}

app_plot* app_pane_plot(app* a, int pane)
{
    return pane_at(a, pane).plot;
}

void app_pane_label(const app* a, int pane, char* out, size_t size)
{
    pane_ref p = pane_at((app*)a, pane);
    const cs_world_def* def = p.world != NULL ? cs_world_get_def(p.world) : NULL;
    setting_label(p.params, *p.solver, def != NULL && def->frictionless,
                  def != NULL ? def->row_order : CS_ROW_ORDER_COLOURED, out, size);
}

// Keeps the worlds' residual history in step with the plot panel: recording costs a residual per
// sweep, so it is on only while the plot is shown (solver timings stay honest otherwise).
static void sync_history(app* a)
{
    for (int i = 0; i < a->pane_count; ++i)
    {
        cs_world* w = app_pane_world(a, i);
        cs_error err = {0};
        if (w != NULL && cs_world_set_record_history(w, a->show_plot, &err) != CS_OK)
        {
            app_message(a, "residual history unavailable: %s", err.message);
        }
    }
}

// Pushes the focused pane's solver settings into its world. Never restarts anything: the world keeps
// its bodies and its warm-start λ (cs_world_set_solver / cs_world_set_solver_params promise that).
void app_apply_settings(app* a)
{
    pane_ref p = focused(a);
    if (p.world != NULL)
    {
        cs_world_set_solver(p.world, *p.solver);
        cs_world_set_solver_params(p.world, p.params);
        sync_history(a);
    }
    char label[PLOT_LABEL_MAX];
    app_pane_label(a, a->focus, label, sizeof label);
    plot_data_new_setting(p.plot, label);
}

void app_end_panes(app* a)
{
    for (int i = 0; i + 1 < a->pane_count; ++i)
    {
        cs_world_destroy(a->rivals[i].world);
        a->rivals[i].world = NULL;
        plot_data_free(&a->rivals[i].plot);
    }
    a->pane_count = 1;
    a->focus = 0;
    a->view_moved = false;
    if (a->color_mode == RENDER_COLOR_VALUE)
    {
        a->color_mode = RENDER_COLOR_MASS;
    }
}

bool app_fork_panes(app* a, int count)
{
    count = count > APP_MAX_PANES ? APP_MAX_PANES : count;
    for (int i = 0; i + 1 < a->pane_count; ++i)
    {
        cs_world_destroy(a->rivals[i].world);
        a->rivals[i].world = NULL;
    }
    if (a->world == NULL || count < 2)
    {
        app_end_panes(a);
        return count < 2;
    }
    for (int i = 1; i < count; ++i)
    {
        app_pane* p = &a->rivals[i - 1];
        cs_error err = {0};
        p->world = cs_world_clone(a->world, &err);
        if (p->world == NULL)
        {
            a->pane_count = i; // the panes made so far are freed by app_end_panes
            app_end_panes(a);
            app_message(a, "cannot fork the world: %s", err.message);
            return false;
        }
        cs_world_set_solver(p->world, p->solver);
        cs_world_set_solver_params(p->world, &p->params);
    }
    a->pane_count = count;
    a->focus = a->focus < count ? a->focus : 0;
    a->view_moved = false;
    sync_history(a);
    for (int i = 0; i < count; ++i)
    {
        char label[PLOT_LABEL_MAX];
        app_pane_label(a, i, label, sizeof label);
        plot_data_clear(app_pane_plot(a, i), label);
    }
    app_request_fit(a); // the panes share the free area
    return true;
}

void app_request_fit(app* a)
{
    a->fit_pending = true;
}

bool app_load_scene(app* a, const char* path)
{
    cs_error err = {0};
    cs_scene_info info = {0};
    cs_world* world = cs_scene_load(path, &info, &err);
    if (world == NULL)
    {
        // Keep the last good world; remember the path so N/P move on from the failed file.
        app_format(a->error, sizeof a->error, "%s",
                   err.message[0] != '\0' ? err.message : "cannot load scene");
        if (path != a->scene_path)
        {
            app_format(a->scene_path, sizeof a->scene_path, "%s", path);
        }
        if (a->headless)
        {
            fprintf(stderr, "circlesim: %s\n", a->error);
        }
        return false;
    }
    if (path != a->scene_path)
    {
        app_format(a->scene_path, sizeof a->scene_path, "%s", path);
    }
    a->state_path[0] = '\0';
    app_install_world(a, world, &info);
    return true;
}

void app_install_world(app* a, cs_world* world, const cs_scene_info* info)
{
    if (a->world != NULL)
    {
        cs_world_destroy(a->world);
    }
    a->world = world;
    a->info = *info;
    a->error[0] = '\0';
    if (a->user_settings)
    {
        cs_world_set_solver(world, a->solver);
        cs_world_set_solver_params(world, &a->params);
    }
    else
    {
        a->solver = cs_world_solver(world);
        a->params = *cs_world_solver_params(world);
    }
    sync_history(a);
    a->grab_body = -1;
    a->flash_count = 0;
    a->has_ray = a->ray_dragging = a->ray_found = false;
    a->accumulator = 0.0;
    a->single_steps = 0;
    char label[PLOT_LABEL_MAX];
    app_pane_label(a, 0, label, sizeof label);
    plot_data_clear(&a->plot, label);
    a->view_moved = false;
    app_request_fit(a);
    if (a->pane_count > 1)
    {
        app_fork_panes(a, a->pane_count); // a duel goes on from the new world's state
    }
}

void app_reset(app* a)
{
    if (a->state_path[0] != '\0')
    {
        app_load_state(a, a->state_path); // state_actions.c: back to the snapshot
    }
    else if (a->scene_path[0] != '\0')
    {
        app_load_scene(a, a->scene_path);
    }
}

void app_next_scene(app* a, int direction)
{
    char fallback[APP_PATH_MAX];
    app_format(fallback, sizeof fallback, "%s/scenes", a->data_dir);
    char next[APP_PATH_MAX];
    if (!scene_list_neighbour(a->scene_path, fallback, direction, next, sizeof next))
    {
        app_message(a, "no scene files next to %s", a->scene_path[0] != '\0' ? a->scene_path : fallback);
        return;
    }
    app_load_scene(a, next);
}

void app_set_solver(app* a, int index)
{
    pane_ref p = focused(a);
    if (index < 0 || index >= cs_solver_count() || index == *p.solver)
    {
        return;
    }
    *p.solver = index;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_alpha(app* a, double alpha)
{
    // (0, 2]: keep values on the 0.1 grid so repeated +/- never drift.
    pane_ref p = focused(a);
    if (!isfinite(alpha) || alpha <= 0.0)
    {
        return;
    }
    alpha = alpha > APP_ALPHA_MAX ? APP_ALPHA_MAX : alpha;
    if (alpha == p.params->alpha)
    {
        return;
    }
    p.params->alpha = alpha;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_relaxation(app* a, double omega)
{
    // Inside (0, 2), the range psor and jacobi accept: [0.1, 1.9] on the 0.1 grid.
    pane_ref p = focused(a);
    if (!isfinite(omega))
    {
        return;
    }
    omega = omega < APP_ALPHA_STEP ? APP_ALPHA_STEP : omega;
    omega = omega > 2.0 - APP_ALPHA_STEP ? 2.0 - APP_ALPHA_STEP : omega;
    if (omega == p.params->relaxation)
    {
        return;
    }
    p.params->relaxation = omega;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_iterations(app* a, int iterations)
{
    pane_ref p = focused(a);
    iterations = iterations < APP_MIN_ITERATIONS ? APP_MIN_ITERATIONS : iterations;
    iterations = iterations > APP_MAX_ITERATIONS ? APP_MAX_ITERATIONS : iterations;
    if (iterations == p.params->iterations)
    {
        return;
    }
    p.params->iterations = iterations;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_params(app* a, const cs_solver_params* params)
{
    pane_ref p = focused(a);
    if (memcmp(p.params, params, sizeof *params) == 0)
    {
        return;
    }
    *p.params = *params;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_warm_start(app* a, bool on)
{
    cs_solver_params params = *focused(a).params;
    params.warm_start = on;
    app_set_params(a, &params);
}

void app_set_frictionless(app* a, bool on)
{
    pane_ref p = focused(a);
    if (p.world == NULL || cs_world_get_def(p.world)->frictionless == on)
    {
        return;
    }
    cs_world_set_frictionless(p.world, on);
    app_apply_settings(a); // a new curve: frictionless rows are another problem
}

void app_set_row_order(app* a, cs_row_order order)
{
    pane_ref p = focused(a);
    if (p.world == NULL || cs_world_get_def(p.world)->row_order == order)
    {
        return;
    }
    cs_world_set_row_order(p.world, order);
    app_apply_settings(a); // a new curve: Gauss-Seidel in another order is another method
}

void app_set_show_plot(app* a, bool on)
{
    a->show_plot = on;
    sync_history(a);
    app_request_fit(a); // the panel's space changed
}

// The same spring on the same body of every pane (each computed from that pane's own body state).
static void apply_grab_force(app* a, cs_world* world)
{
    if (a->grab_body < 0 || !cs_world_body_alive(world, a->grab_body))
    {
        return;
    }
    cs_body_state b = cs_world_body(world, a->grab_body);
    const cs_world_def* def = cs_world_get_def(world);
    double w = 2.0 * 3.14159265358979323846 * GRAB_FREQUENCY_HZ;
    double tx = a->grab_target.x - a->grab_offset.x;
    double ty = a->grab_target.y - a->grab_offset.y;
    // m (ω² (target − x) − 2 ω v) − m g: critically damped, gravity compensated so the body rests
    // on the cursor instead of sagging below it.
    double fx = b.mass * (w * w * (tx - b.position.x) - 2.0 * w * b.velocity.x - def->gravity.x);
    double fy = b.mass * (w * w * (ty - b.position.y) - 2.0 * w * b.velocity.y - def->gravity.y);
    double g = hypot(def->gravity.x, def->gravity.y);
    double limit = GRAB_MAX_WEIGHTS * b.mass * (g > 1.0 ? g : 9.80665);
    double f = hypot(fx, fy);
    if (f > limit)
    {
        fx *= limit / f;
        fy *= limit / f;
    }
    cs_world_set_body_force(world, a->grab_body, (cs_vec2){fx, fy});
}

// The hit events of pane `pane`'s last step join the flashing ones.
static void record_hits(app* a, int pane, const cs_world* w)
{
    cs_contact_events events = cs_world_contact_events(w);
    for (int k = 0; k < events.hit_count; ++k)
    {
        const cs_contact_event* e = &events.hit[k];
        double radius = fmax(cs_world_body(w, e->body_b).radius,
                             e->body_a >= 0 ? cs_world_body(w, e->body_a).radius : 0.0);
        a->flashes[a->flash_head] = (app_flash){pane, cs_world_stats(w)->step, e->point, radius};
        a->flash_head = (a->flash_head + 1) % APP_MAX_FLASHES;
        a->flash_count = a->flash_count < APP_MAX_FLASHES ? a->flash_count + 1 : APP_MAX_FLASHES;
    }
}

bool app_remove_body(app* a, int id)
{
    if (a->world == NULL || !cs_world_body_alive(a->world, id))
    {
        app_message(a, "no body %d to remove", id);
        return false;
    }
    if (a->grab_body == id)
    {
        a->grab_body = -1;
    }
    for (int i = 0; i < (a->pane_count > 1 ? a->pane_count : 1); ++i)
    {
        cs_world_remove_circle(app_pane_world(a, i), id);
    }
    app_message(a, "removed body %d (%d left)", id, cs_world_body_count(a->world));
    return true;
}

void app_set_sleeping(app* a, bool on)
{
    cs_world* w = app_pane_world(a, a->focus);
    if (w != NULL)
    {
        cs_world_enable_sleeping(w, on);
        app_message(a, "sleeping %s", on ? "on" : "off");
    }
}

void app_set_continuous(app* a, bool on)
{
    cs_world* w = app_pane_world(a, a->focus);
    if (w != NULL)
    {
        cs_world_enable_continuous(w, on);
        app_message(a, "continuous collision %s", on ? "on" : "off");
    }
}

static double smooth(double old, double value)
{
    return old > 0.0 ? 0.9 * old + 0.1 * value : value;
}

void app_step(app* a)
{
    if (a->world == NULL)
    {
        return;
    }
    // Lockstep: every pane takes this step from the state the panes were forked from, each with its own
    // solver settings; nothing passes between them.
    for (int i = 0; i < (a->pane_count > 1 ? a->pane_count : 1); ++i)
    {
        pane_ref p = pane_at(a, i);
        apply_grab_force(a, p.world);
        if (cs_world_step(p.world) != CS_OK)
        {
            // The world refused the step (a non-finite or exploding value, cs_world_health) and kept the last
            // good state: say where, and pause.
            a->paused = true;
            app_message(a, "%s", cs_world_last_error(p.world));
            return;
        }
        record_hits(a, i, p.world);
        const cs_step_stats* s = cs_world_stats(p.world);
        if (i == 0)
        {
            a->step_ms = smooth(a->step_ms, 1000.0 * s->step_seconds);
            a->solver_ms = smooth(a->solver_ms, 1000.0 * s->solver_seconds);
        }
        const double* hist_lcp = NULL;
        const double* hist_nat = NULL;
        int n = a->show_plot ? cs_world_history(p.world, &hist_lcp, &hist_nat) : 0;
        plot_data_record(p.plot, s, hist_lcp, n);
    }
}

void app_advance(app* a, double dt)
{
    a->steps_last_frame = 0;
    if (a->world == NULL)
    {
        return;
    }
    if (a->paused || a->headless)
    {
        a->accumulator = 0.0;
        a->behind = false;
        if (!a->paused)
        {
            app_step(a);
            a->steps_last_frame = 1;
        }
        for (; a->single_steps > 0; --a->single_steps)
        {
            app_step(a);
            a->steps_last_frame++;
        }
        return;
    }
    double h = cs_world_get_def(a->world)->time_step;
    // A long stall (window dragged, debugger) is not worth catching up on.
    dt = dt > 0.25 ? 0.25 : (dt < 0.0 ? 0.0 : dt);
    a->accumulator += dt * app_speeds[a->speed_index];
    double start = app_now(a);
    while (a->accumulator >= h)
    {
        if (a->steps_last_frame >= APP_MAX_STEPS_PER_FRAME || app_now(a) - start > APP_STEP_BUDGET)
        {
            a->accumulator = 0.0;
            a->behind_until = app_now(a) + 0.5;
            break;
        }
        app_step(a);
        a->accumulator -= h;
        a->steps_last_frame++;
    }
    a->behind = app_now(a) < a->behind_until;
}
