// The viewer's model operations: scenes, solver settings, stepping with the accumulator and the mouse
// spring. Nothing here draws; everything here is what keys, scripts and tests drive.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
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

bool app_format(char* out, size_t size, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(out, size, fmt, args);
    va_end(args);
    return n >= 0 && (size_t)n < size;
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

// "amgs α=0.2 k=10" — names the current setting in the plot legend.
static void setting_label(const app* a, char* out, size_t size)
{
    const cs_solver_info* info = cs_solver_at(a->solver);
    const char* name = info != NULL ? info->name : "?";
    int n = snprintf(out, size, "%s", name);
    if (info != NULL && (info->flags & CS_SOLVER_USES_ALPHA) != 0 && n > 0 && (size_t)n < size)
    {
        n += snprintf(out + n, size - (size_t)n, " α=%.2g", a->params.alpha);
    }
    if (info != NULL && (info->flags & CS_SOLVER_USES_RELAXATION) != 0 && n > 0 && (size_t)n < size)
    {
        n += snprintf(out + n, size - (size_t)n, " ω=%.2g", a->params.relaxation);
    }
    if (n > 0 && (size_t)n < size)
    {
        n += snprintf(out + n, size - (size_t)n, " k=%d", a->params.iterations);
    }
    if (!a->params.warm_start && n > 0 && (size_t)n < size)
    {
        app_format(out + n, size - (size_t)n, " cold");
    }
}

// Keeps the world's residual history in step with the plot panel: recording costs a residual per
// sweep, so it is on only while the plot is shown (solver timings stay honest otherwise).
static void sync_history(app* a)
{
    if (a->world == NULL)
    {
        return;
    }
    cs_error err = {0};
    if (cs_world_set_record_history(a->world, a->show_plot, &err) != CS_OK)
    {
        app_message(a, "residual history unavailable: %s", err.message);
    }
}

// Pushes the model's solver settings into the world. Never restarts anything: the world keeps its
// bodies and its warm-start λ (cs_world_set_solver / cs_world_set_solver_params promise that).
void app_apply_settings(app* a)
{
    if (a->world != NULL)
    {
        cs_world_set_solver(a->world, a->solver);
        cs_world_set_solver_params(a->world, &a->params);
        sync_history(a);
    }
    char label[PLOT_LABEL_MAX];
    setting_label(a, label, sizeof label);
    plot_data_new_setting(&a->plot, label);
}

void app_fit_view(app* a)
{
    cs_vec2 lo = {-1.0, -1.0}, hi = {1.0, 1.0};
    if (a->world != NULL && (cs_world_body_count(a->world) > 0 || cs_world_wall_count(a->world) > 0))
    {
        cs_world_bounds(a->world, &lo, &hi);
    }
    // Fit into the part of the window the plot panel leaves free, then widen the view to the window.
    int reserved = a->show_plot ? (int)(hud_plot_width(a) + 16.0f * a->ui_scale) : 0;
    int width = a->fb_w - reserved > a->fb_w / 2 ? a->fb_w - reserved : a->fb_w / 2;
    render_view_fit(&a->view, lo, hi, width, a->fb_h, 0.05);
    // Content narrow enough to pass beside the HUD (a stack, a pool in a wide window) is centred in the
    // space between the HUD and the plot instead of under the HUD.
    double left = hud_panel_right(a);
    double content = (hi.x - lo.x) * a->view.scale;
    double shift = 0.5 * (a->fb_w - width);
    if (left > 0.0 && content + left <= width)
    {
        shift -= 0.5 * left;
    }
    a->view.cx += shift / a->view.scale;
    a->view.width = a->fb_w;
    a->view_moved = false;
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
    if (a->world != NULL)
    {
        cs_world_destroy(a->world);
    }
    a->world = world;
    a->info = info;
    if (path != a->scene_path)
    {
        app_format(a->scene_path, sizeof a->scene_path, "%s", path);
    }
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
    a->accumulator = 0.0;
    a->single_steps = 0;
    char label[PLOT_LABEL_MAX];
    setting_label(a, label, sizeof label);
    plot_data_clear(&a->plot, label);
    app_fit_view(a);
    return true;
}

void app_reset(app* a)
{
    if (a->scene_path[0] != '\0')
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
    if (index < 0 || index >= cs_solver_count() || index == a->solver)
    {
        return;
    }
    a->solver = index;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_alpha(app* a, double alpha)
{
    // (0, 2]: keep values on the 0.1 grid so repeated +/- never drift.
    if (!isfinite(alpha) || alpha <= 0.0)
    {
        return;
    }
    alpha = alpha > APP_ALPHA_MAX ? APP_ALPHA_MAX : alpha;
    if (alpha == a->params.alpha)
    {
        return;
    }
    a->params.alpha = alpha;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_relaxation(app* a, double omega)
{
    // Inside (0, 2), the range psor and jacobi accept: [0.1, 1.9] on the 0.1 grid.
    if (!isfinite(omega))
    {
        return;
    }
    omega = omega < APP_ALPHA_STEP ? APP_ALPHA_STEP : omega;
    omega = omega > 2.0 - APP_ALPHA_STEP ? 2.0 - APP_ALPHA_STEP : omega;
    if (omega == a->params.relaxation)
    {
        return;
    }
    a->params.relaxation = omega;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_iterations(app* a, int iterations)
{
    iterations = iterations < APP_MIN_ITERATIONS ? APP_MIN_ITERATIONS : iterations;
    iterations = iterations > APP_MAX_ITERATIONS ? APP_MAX_ITERATIONS : iterations;
    if (iterations == a->params.iterations)
    {
        return;
    }
    a->params.iterations = iterations;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_warm_start(app* a, bool on)
{
    if (on == a->params.warm_start)
    {
        return;
    }
    a->params.warm_start = on;
    a->user_settings = true;
    app_apply_settings(a);
}

void app_set_show_plot(app* a, bool on)
{
    a->show_plot = on;
    sync_history(a);
    if (!a->view_moved)
    {
        app_fit_view(a); // the panel's space changed
    }
}

static void apply_grab_force(app* a)
{
    if (a->grab_body < 0 || a->grab_body >= cs_world_body_count(a->world))
    {
        return;
    }
    cs_body_state b = cs_world_body(a->world, a->grab_body);
    const cs_world_def* def = cs_world_get_def(a->world);
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
    cs_world_set_body_force(a->world, a->grab_body, (cs_vec2){fx, fy});
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
    apply_grab_force(a);
    cs_world_step(a->world);
    const cs_step_stats* s = cs_world_stats(a->world);
    a->step_ms = smooth(a->step_ms, 1000.0 * s->step_seconds);
    a->solver_ms = smooth(a->solver_ms, 1000.0 * s->solver_seconds);
    const double* hist_lcp = NULL;
    const double* hist_nat = NULL;
    int n = a->show_plot ? cs_world_history(a->world, &hist_lcp, &hist_nat) : 0;
    plot_data_record(&a->plot, s->step, s->res_lcp, hist_lcp, n);
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
