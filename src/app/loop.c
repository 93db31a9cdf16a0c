// The viewer's life cycle: SDL window and OpenGL 3.3 core context (libepoxy), one frame, shutdown.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <epoxy/gl.h>

#include "app/capture_actions.h"
#include "app/duel.h"
#include "app/race.h"
#include "app/hud.h"
#include "app/input.h"
#include "app/layout.h"
#include "app/loop.h"
#include "app/script_run.h"

#ifndef CS_SOURCE_DIR
#define CS_SOURCE_DIR "."
#endif

static bool is_data_dir(const char* dir)
{
    char probe[APP_PATH_MAX + 64];
    app_format(probe, sizeof probe, "%s/shaders/circle.vert.glsl", dir);
    return access(probe, R_OK) == 0;
}

// Shaders, font and scenes live in the source tree, baked in at build time; $CIRCLESIM_DATA_DIR or
// --data-dir move them, and a tree next to the executable works too.
static bool resolve_data_dir(const app_config* c, char* out, size_t size)
{
    const char* candidates[3] = {c->data_dir, getenv("CIRCLESIM_DATA_DIR"), CS_SOURCE_DIR};
    for (int i = 0; i < 3; ++i)
    {
        if (candidates[i] != NULL && candidates[i][0] != '\0' && is_data_dir(candidates[i]))
        {
            app_format(out, size, "%s", candidates[i]);
            return true;
        }
    }
    char* base = SDL_GetBasePath();
    bool found = false;
    if (base != NULL)
    {
        app_format(out, size, "%s..", base);
        found = is_data_dir(out);
        if (!found)
        {
            app_format(out, size, "%s", base);
            found = is_data_dir(out);
        }
        SDL_free(base);
    }
    return found;
}

// A scene argument is a path, or a name in scenes/ ("stacking", "stacking.json").
static void resolve_scene(const app* a, const char* arg, char* out, size_t size)
{
    if (arg == NULL)
    {
        app_format(out, size, "%s/scenes/pool1.json", a->data_dir);
        return;
    }
    if (access(arg, F_OK) == 0 || strchr(arg, '/') != NULL)
    {
        app_format(out, size, "%s", arg);
        return;
    }
    app_format(out, size, "%s/scenes/%s", a->data_dir, arg);
    if (access(out, F_OK) == 0)
    {
        return;
    }
    app_format(out, size, "%s/scenes/%s.json", a->data_dir, arg);
    if (access(out, F_OK) != 0)
    {
        app_format(out, size, "%s", arg); // let the loader report the missing file by its given name
    }
}

static void update_sizes(app* a)
{
    SDL_GetWindowSize(a->window, &a->window_w, &a->window_h);
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(a->window, &w, &h);
    a->fb_w = w > 0 ? w : 1;
    a->fb_h = h > 0 ? h : 1;
    // HiDPI: the drawable has more pixels than the window has points.
    a->pixel_ratio = a->window_w > 0 ? (float)a->fb_w / (float)a->window_w : 1.0f;
    if (a->pixel_ratio < 0.5f || !isfinite(a->pixel_ratio))
    {
        a->pixel_ratio = 1.0f;
    }
    a->ui_scale = a->pixel_ratio * a->ui_user;
    if (a->pane_count > 1 && (a->fb_w != a->last_fb_w || a->fb_h != a->last_fb_h))
    {
        app_request_fit(a); // the panes' rectangles changed
    }
    a->last_fb_w = a->fb_w;
    a->last_fb_h = a->fb_h;
    if (a->pane_count < 2 && (a->view.width != a->fb_w || a->view.height != a->fb_h))
    {
        // Until the user zooms or pans, the scene stays fitted to the window.
        render_view_resize(&a->view, a->fb_w, a->fb_h);
        if (!a->view_moved && a->renderer != NULL)
        {
            app_fit_view(a);
        }
    }
}

static bool open_window(app* a, const app_config* c, char* err, size_t err_size)
{
    if (a->headless && getenv("SDL_VIDEODRIVER") == NULL)
    {
        // A real GL context without a display: SDL's offscreen driver uses EGL (TOOLCHAIN.md).
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
    {
        app_format(err, err_size, "cannot initialise SDL video: %s%s", SDL_GetError(),
                   a->headless ? "" : " (no display? --headless renders off-screen)");
        return false;
    }
    // Without a display SDL falls back to a driver that draws nowhere: a window nobody sees would run
    // forever, so say so (an explicit SDL_VIDEODRIVER is the user's choice and is kept).
    const char* driver = SDL_GetCurrentVideoDriver();
    if (!a->headless && getenv("SDL_VIDEODRIVER") == NULL && driver != NULL &&
        (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0))
    {
        app_format(err, err_size,
                   "no display found (SDL fell back to its '%s' video driver): run it on a desktop, "
                   "under xvfb-run, or with --headless",
                   driver);
        SDL_Quit();
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    int w = c->width > 0 ? c->width : 1280;
    int h = c->height > 0 ? c->height : 800;
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if (a->headless)
    {
        flags |= SDL_WINDOW_HIDDEN;
    }
    a->window = SDL_CreateWindow("circlesim", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (a->window == NULL)
    {
        app_format(err, err_size, "cannot open a %dx%d window: %s", w, h, SDL_GetError());
        return false;
    }
    a->gl = SDL_GL_CreateContext(a->window);
    if (a->gl == NULL)
    {
        app_format(err, err_size, "cannot create an OpenGL 3.3 core context: %s", SDL_GetError());
        return false;
    }
    if (epoxy_gl_version() < 33)
    {
        app_format(err, err_size, "OpenGL 3.3 needed, got %d.%d", epoxy_gl_version() / 10,
                   epoxy_gl_version() % 10);
        return false;
    }
    if (a->headless)
    {
        SDL_GL_SetSwapInterval(0);
    }
    else
    {
        // vsync, adaptive when the driver has it.
        a->vsync = SDL_GL_SetSwapInterval(-1) == 0 || SDL_GL_SetSwapInterval(1) == 0;
    }
    update_sizes(a);
    return true;
}

static bool apply_overrides(app* a, const app_config* c, char* err, size_t err_size)
{
    if (c->solver != NULL)
    {
        int index = cs_solver_find(c->solver);
        if (index < 0)
        {
            app_format(err, err_size, "unknown solver '%s' (known: %s)", c->solver, cs_solver_names());
            return false;
        }
        a->user_settings = true;
        a->solver = index;
    }
    if (isfinite(c->alpha))
    {
        if (!(c->alpha > 0.0 && c->alpha <= APP_ALPHA_MAX))
        {
            app_format(err, err_size, "--alpha %g is outside (0, 2]", c->alpha);
            return false;
        }
        a->user_settings = true;
        a->params.alpha = c->alpha;
    }
    if (c->iterations > 0)
    {
        a->user_settings = true;
        a->params.iterations = c->iterations > APP_MAX_ITERATIONS ? APP_MAX_ITERATIONS : c->iterations;
    }
    if (a->user_settings)
    {
        // No data yet, so this only pushes the settings into the world and relabels the plot.
        app_apply_settings(a);
    }
    // The first impression: a window opened on the default scene shows a PGS-vs-AMGS duel.
    const char* compare = c->compare;
    if (compare == NULL && c->scene == NULL && c->state_in == NULL && !a->headless &&
        cs_solver_find("pgs") >= 0 && cs_solver_find("amgs") >= 0)
    {
        compare = "pgs,amgs";
    }
    if (compare != NULL)
    {
        int solvers[APP_MAX_PANES], count = 0;
        if (!duel_parse(compare, solvers, &count, err, err_size))
        {
            return false;
        }
        if (!duel_start(a, solvers, count))
        {
            app_format(err, err_size, "--compare %s: the duel could not start", compare);
            return false;
        }
    }
    return true;
}

bool app_init(app* a, const app_config* c, char* err, size_t err_size)
{
    memset(a, 0, sizeof *a);
    a->headless = c->headless;
    a->frame_limit = c->frames;
    a->show_contacts = a->show_normals = a->show_plot = a->show_hud = true;
    a->show_timings = c->hud_timings;
    a->show_panel = !c->headless; // headless captures show the world and plots; K or a script adds it
    a->pane_count = 1;
    a->color_mode = RENDER_COLOR_MASS;
    a->speed_index = 2;
    a->grab_body = -1;
    a->ui_user = c->ui_scale > 0.0 ? (float)c->ui_scale : 1.0f;
    cs_world_def defaults = cs_world_def_default();
    a->solver = defaults.solver;
    a->params = defaults.solver_params;
    app_format(a->capture_dir, sizeof a->capture_dir, "%s",
               c->capture_dir != NULL ? c->capture_dir : "captures");
    if (c->screenshot != NULL)
    {
        app_format(a->final_screenshot, sizeof a->final_screenshot, "%s", c->screenshot);
    }
    if (c->script != NULL && !script_load(&a->script, c->script, err, err_size))
    {
        return false;
    }
    if (c->script != NULL)
    {
        script_check_limit(&a->script, a->frame_limit);
    }
    if (!open_window(a, c, err, err_size))
    {
        app_shutdown(a);
        return false;
    }
    if (!resolve_data_dir(c, a->data_dir, sizeof a->data_dir))
    {
        app_format(err, err_size,
                   "cannot find shaders/ and assets/ (tried --data-dir, $CIRCLESIM_DATA_DIR, %s)",
                   CS_SOURCE_DIR);
        app_shutdown(a);
        return false;
    }
    a->renderer = render_create(a->data_dir, a->ui_scale, err, err_size);
    if (a->renderer == NULL)
    {
        app_shutdown(a);
        return false;
    }
    char scene[APP_PATH_MAX];
    resolve_scene(a, c->scene, scene, sizeof scene);
    if (c->state_in != NULL)
    {
        // N/P still walk the scenes folder; R goes back to the snapshot.
        app_format(a->scene_path, sizeof a->scene_path, "%s", scene);
        app_load_state(a, c->state_in);
    }
    else
    {
        app_load_scene(a, scene);
    }
    if (!apply_overrides(a, c, err, err_size))
    {
        app_shutdown(a);
        return false;
    }
    if (c->record != NULL)
    {
        app_toggle_recording(a, c->record);
    }
    a->last_time = app_now(a);
    layout_update(a);
    return true;
}

void app_shutdown(app* a)
{
    if (a->capture.recording)
    {
        app_toggle_recording(a, NULL);
    }
    render_destroy(a->renderer);
    a->renderer = NULL;
    if (a->gl != NULL)
    {
        SDL_GL_DeleteContext(a->gl);
        a->gl = NULL;
    }
    if (a->window != NULL)
    {
        SDL_DestroyWindow(a->window);
        a->window = NULL;
    }
    SDL_Quit();
    if (a->world != NULL)
    {
        cs_world_destroy(a->world);
        a->world = NULL;
    }
    app_end_panes(a);
    race_clear(a);
    free(a->divergence);
    free(a->contact_colors);
    a->contact_colors = NULL;
    a->divergence = NULL;
    plot_data_free(&a->plot);
    script_free(&a->script);
    free(a->capture.frame);
    a->capture.frame = NULL;
    free(a->pixels);
    a->pixels = NULL;
    a->pixel_bytes = 0;
}

// The REC badge lives in the window title, outside the frames being recorded.
static void update_title(app* a)
{
    bool recording = a->capture.recording;
    if (a->window == NULL || (recording == a->title_recording && !recording))
    {
        return;
    }
    char title[256];
    if (recording)
    {
        app_format(title, sizeof title, "circlesim — ● REC %d frames", a->capture.frames);
    }
    else
    {
        app_format(title, sizeof title, "circlesim");
    }
    SDL_SetWindowTitle(a->window, title);
    a->title_recording = recording;
}

// The graph-colour view: each contact in the colour of its rows in the last step's coloured order (key
// order has no colours: grey).
static const uint32_t* row_colours(app* a, const cs_world* w)
{
    static const uint32_t palette[8] = {RENDER_RGBA(230, 25, 75, 255),  RENDER_RGBA(60, 180, 75, 255),
                                        RENDER_RGBA(0, 130, 200, 255),  RENDER_RGBA(245, 130, 48, 255),
                                        RENDER_RGBA(145, 30, 180, 255), RENDER_RGBA(70, 190, 190, 255),
                                        RENDER_RGBA(240, 50, 230, 255), RENDER_RGBA(128, 128, 0, 255)};
    int n = w != NULL ? cs_world_contact_count(w) : 0;
    if (!a->show_row_colours || n == 0)
    {
        return NULL;
    }
    if (n > a->contact_color_capacity)
    {
        uint32_t* grown = realloc(a->contact_colors, (size_t)n * sizeof *grown);
        if (grown == NULL)
        {
            return NULL;
        }
        a->contact_colors = grown;
        a->contact_color_capacity = n;
    }
    for (int k = 0; k < n; ++k)
    {
        int c = cs_world_contact_colour(w, k);
        a->contact_colors[k] = c >= 0 ? palette[c % 8] : RENDER_RGBA(130, 130, 130, 255);
    }
    return a->contact_colors;
}

// The hit flashes of one pane still young at its world's step.
static int pane_flashes(const app* a, int pane, render_flash* out)
{
    const cs_world* w = app_pane_world(a, pane);
    int64_t now = w != NULL ? cs_world_stats(w)->step : 0;
    int n = 0;
    for (int i = 0; i < a->flash_count; ++i)
    {
        const app_flash* f = &a->flashes[i];
        int64_t age = now - f->step;
        if (f->pane == pane && age >= 0 && age < APP_FLASH_STEPS)
        {
            out[n++] = (render_flash){f->point, f->radius, (double)age / APP_FLASH_STEPS};
        }
    }
    return n;
}

// The ray of the right-drag, cast in the pane's world (bodies move under it).
static void pane_ray(app* a, int pane, render_world_options* o)
{
    o->has_ray = a->has_ray;
    o->ray_hit = false;
    if (!a->has_ray)
    {
        return;
    }
    o->ray_origin = a->ray_origin;
    o->ray_end = a->ray_end;
    cs_vec2 d = {a->ray_end.x - a->ray_origin.x, a->ray_end.y - a->ray_origin.y};
    o->ray_hit = cs_world_ray_cast_closest(app_pane_world(a, pane), a->ray_origin, d, &o->hit);
    if (pane == 0)
    {
        a->ray_found = o->ray_hit;
        a->ray_hit = o->hit;
    }
}

static void draw(app* a)
{
    render_begin_frame(a->renderer, a->fb_w, a->fb_h, a->ui_scale);
    render_flash flashes[APP_MAX_FLASHES];
    render_world_options options = {
        .contacts = a->show_contacts,
        .normals = a->show_normals,
        .impulses = a->show_impulses,
        .color_mode = a->color_mode,
        .highlight_body = a->grab_body,
        .has_target = a->grab_body >= 0,
        .target = {a->grab_target.x - a->grab_offset.x, a->grab_target.y - a->grab_offset.y},
    };
    options.flashes = flashes;
    if (a->pane_count < 2)
    {
        options.contact_colors = row_colours(a, a->world);
        options.flash_count = pane_flashes(a, 0, flashes);
        pane_ray(a, 0, &options);
        render_world(a->renderer, a->world, &a->view, &options);
    }
    else
    {
        // The same camera in every pane; the world box is the pane.
        options.body_values = a->color_mode == RENDER_COLOR_VALUE ? duel_divergence(a) : NULL;
        options.body_values_world = a->world; // duel_divergence is in pane 0's order
        for (int i = 0; i < a->pane_count; ++i)
        {
            layout_rect r = layout_pane_rect(a, i);
            options.viewport_x = (int)r.x;
            options.viewport_y = (int)r.y;
            options.viewport_w = (int)r.w;
            options.viewport_h = (int)r.h;
            render_view view = a->view;
            view.width = (int)r.w;
            view.height = (int)r.h;
            options.contact_colors = row_colours(a, app_pane_world(a, i));
            options.flash_count = pane_flashes(a, i, flashes);
            pane_ray(a, i, &options);
            render_world(a->renderer, app_pane_world(a, i), &view, &options);
        }
    }
    hud_draw(a);
    render_end_frame(a->renderer);
}

void app_frame(app* a)
{
    double now = app_now(a);
    double dt = now - a->last_time;
    a->last_time = now;
    if (dt > 0.0)
    {
        a->fps = a->fps > 0.0 ? 0.95 * a->fps + 0.05 / dt : 1.0 / dt;
    }
    script_run_due(a);
    SDL_Event e;
    while (SDL_PollEvent(&e))
    {
        app_handle_event(a, &e);
    }
    update_sizes(a);
    layout_update(a);
    app_advance(a, dt);
    if (a->frame_limit > 0 && a->frame == a->frame_limit - 1 && a->final_screenshot[0] != '\0')
    {
        app_request_screenshot(a, a->final_screenshot);
    }
    draw(a);
    app_capture_frame(a);
    update_title(a);
    SDL_GL_SwapWindow(a->window);
    if (!a->headless && !a->vsync)
    {
        // No vsync (Xvfb, some drivers): pace to 60 Hz instead of spinning a core.
        double spent = app_now(a) - now;
        if (spent < 1.0 / 60.0)
        {
            SDL_Delay((Uint32)((1.0 / 60.0 - spent) * 1000.0));
        }
    }
    a->frame++;
    if (a->frame_limit > 0 && a->frame >= a->frame_limit)
    {
        a->quit = true;
    }
}

int app_run(app* a)
{
    while (!a->quit)
    {
        app_frame(a);
    }
    return a->exit_status;
}
