// The control panel: one layout function (build) run for clicks and for drawing (ui.h).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/duel.h"
#include "app/panel.h"
#include "app/race.h"
#include "app/scene_list.h"
#include "app/ui.h"

#define PANEL_FILL   RENDER_RGBA(255, 255, 255, 225)
#define PANEL_EDGE   RENDER_RGBA(170, 170, 170, 255)
#define TIP_FILL     RENDER_RGBA(255, 250, 225, 245)
#define TIP_TEXT     RENDER_RGBA(20, 20, 20, 255)
#define SCROLL_THUMB RENDER_RGBA(150, 150, 150, 200)

static const char* const speed_names[APP_SPEED_COUNT] = {"×¼", "×½", "×1", "×2", "×4"};

// The scene files beside the current scene (or in the data directory's scenes/), with descriptions,
// re-read when that directory changes.
static void refresh_scenes(app* a)
{
    char dir[APP_PATH_MAX];
    const char* slash = strrchr(a->scene_path, '/');
    if (slash != NULL)
    {
        app_format(dir, sizeof dir, "%.*s", (int)(slash - a->scene_path), a->scene_path);
    }
    else
    {
        app_format(dir, sizeof dir, "%s/scenes", a->data_dir);
    }
    if (strcmp(dir, a->scene_dir) == 0)
    {
        return;
    }
    app_format(a->scene_dir, sizeof a->scene_dir, "%s", dir);
    a->scene_count = scene_list_dir(dir, a->scene_files, APP_MAX_SCENES);
    for (int i = 0; i < a->scene_count; ++i)
    {
        char path[APP_PATH_MAX + 160];
        app_format(path, sizeof path, "%s/%s", dir, a->scene_files[i]);
        cs_scene_info info = {0};
        cs_error err = {0};
        cs_world* w = cs_scene_load(path, &info, &err);
        app_format(a->scene_descriptions[i], sizeof a->scene_descriptions[i], "%s",
                   w != NULL ? info.description : err.message);
        cs_world_destroy(w);
    }
}

static void solver_rows(app* a, ui* u)
{
    int current = app_pane_solver(a, a->focus);
    int n = cs_solver_count();
    for (int first = 0; first < n; first += 3)
    {
        const char* names[3];
        int count = n - first < 3 ? n - first : 3;
        for (int k = 0; k < count; ++k)
        {
            names[k] = cs_solver_at(first + k)->name;
        }
        int sel = current >= first && current < first + count ? current - first : -1;
        int clicked = ui_buttons(u, names, count, sel, cs_solver_at(first)->description);
        if (clicked >= 0)
        {
            app_set_solver(a, first + clicked);
        }
    }
}

// α, γ, ω (those the solver uses), iterations and tolerance.
static void parameter_rows(app* a, ui* u)
{
    const cs_solver_info* info = cs_solver_at(app_pane_solver(a, a->focus));
    cs_solver_params p = *app_pane_params(a, a->focus);
    char value[32];
    int step;
    if (info != NULL && (info->flags & CS_SOLVER_USES_ALPHA) != 0)
    {
        app_format(value, sizeof value, "%.2f", p.alpha);
        if ((step = ui_stepper(u, "α", value, "AMGS: Ω = αD (± 0.1, in (0, 2])")) != 0)
        {
            double alpha = round((p.alpha + step * APP_ALPHA_STEP) / APP_ALPHA_STEP) * APP_ALPHA_STEP;
            app_set_alpha(a, alpha < APP_ALPHA_STEP ? APP_ALPHA_STEP : alpha);
        }
    }
    if (info != NULL && (info->flags & CS_SOLVER_USES_GAMMA) != 0)
    {
        app_format(value, sizeof value, "%.2f", p.gamma);
        if ((step = ui_stepper(u, "γ", value, "AMGS: γ (± 0.5, > 0)")) != 0 && p.gamma + 0.5 * step > 0.0)
        {
            p.gamma += 0.5 * step;
            app_set_params(a, &p);
        }
    }
    if (info != NULL && (info->flags & CS_SOLVER_USES_RELAXATION) != 0)
    {
        app_format(value, sizeof value, "%.2f", p.relaxation);
        if ((step = ui_stepper(u, "ω", value, "relaxation (± 0.1, in (0, 2))")) != 0)
        {
            double w = round((p.relaxation + 0.1 * step) * 10.0) / 10.0;
            if (w > 0.0 && w < 2.0)
            {
                p.relaxation = w;
                app_set_params(a, &p);
            }
        }
    }
    app_format(value, sizeof value, "%d", p.iterations);
    if ((step = ui_stepper(u, "iterations", value, "per step (halve / double); the most with a tolerance")) !=
        0)
    {
        app_set_iterations(a, step < 0 ? p.iterations / 2 : p.iterations * 2);
    }
    if (p.tolerance > 0.0)
    {
        app_format(value, sizeof value, "%.0e", p.tolerance);
    }
    else
    {
        app_format(value, sizeof value, "off");
    }
    if ((step = ui_stepper(u, "tolerance", value,
                           "stop early at this residual (decades; − from 1e-10: off)")) != 0)
    {
        // off → 1e-2 → … → 1e-10 → off, a decade a click.
        double t = p.tolerance > 0.0 ? p.tolerance * (step > 0 ? 10.0 : 0.1) : (step > 0 ? 0.0 : 1e-2);
        p.tolerance = t > 0.011 || t < 0.99e-10 ? 0.0 : t;
        app_set_params(a, &p);
    }
}

static void world_rows(app* a, ui* u)
{
    const cs_solver_params* p = app_pane_params(a, a->focus);
    cs_world* w = app_pane_world(a, a->focus);
    if (ui_check(u, "warm start", p->warm_start, "start each solve from the last step's impulses"))
    {
        app_set_warm_start(a, !p->warm_start);
    }
    if (w != NULL)
    {
        bool friction = !cs_world_get_def(w)->frictionless;
        if (ui_check(u, "friction", friction, "friction rows (off: the paper's Table 1 setting)"))
        {
            app_set_frictionless(a, friction);
        }
        if (ui_check(u, "sleeping", cs_world_sleeping_enabled(w),
                     "still islands sleep and cost nothing until touched (A)"))
        {
            app_set_sleeping(a, !cs_world_sleeping_enabled(w));
        }
        if (ui_check(u, "continuous", cs_world_continuous_enabled(w),
                     "continuous collision: no fast circle through a static one (B)"))
        {
            app_set_continuous(a, !cs_world_continuous_enabled(w));
        }
        const char* orders[2] = {"coloured", "key order"};
        int order = cs_world_get_def(w)->row_order == CS_ROW_ORDER_KEY ? 1 : 0;
        int clicked = ui_buttons(u, orders, 2, order, "the order the sweeps take the contacts in");
        if (clicked >= 0)
        {
            app_set_row_order(a, clicked == 1 ? CS_ROW_ORDER_KEY : CS_ROW_ORDER_COLOURED);
        }
    }
}

static void draw_rows(app* a, ui* u)
{
    const char* flags[3] = {"contacts", "normals", "impulses"};
    bool* values[3] = {&a->show_contacts, &a->show_normals, &a->show_impulses};
    for (int k = 0; k < 3; ++k)
    {
        if (ui_check(u, flags[k], *values[k], NULL))
        {
            *values[k] = !*values[k];
        }
    }
    if (ui_check(u, "row colours", a->show_row_colours,
                 "contacts in the colour of their rows in the coloured sweep"))
    {
        a->show_row_colours = !a->show_row_colours;
    }
    if (ui_check(u, "residual plots", a->show_plot, NULL))
    {
        app_set_show_plot(a, !a->show_plot);
    }
    const char* quantities[PLOT_QUANTITY_COUNT] = {"RES", "energy", "penetr."};
    int picked =
        ui_buttons(u, quantities, PLOT_QUANTITY_COUNT, (int)a->step_plot, "what the per-step plot shows");
    if (picked >= 0)
    {
        a->step_plot = (plot_quantity)picked;
    }
    const char* modes[3] = {"mass", "impulse", "diverge"};
    int clicked = ui_buttons(u, modes, a->pane_count > 1 ? 3 : 2, (int)a->color_mode, "body colour");
    if (clicked >= 0)
    {
        a->color_mode = (render_color_mode)clicked;
    }
}

static void lab_rows(app* a, ui* u)
{
    const char* lab[2] = {a->pane_count > 1 ? "end duel" : "duel", a->race.shown ? "close race" : "race"};
    int clicked = ui_buttons(
        u, lab, 2, -1, "duel: fork into panes (this solver vs the next); race: every solver on this step");
    if (clicked == 0)
    {
        duel_toggle(a);
    }
    else if (clicked == 1)
    {
        race_toggle(a);
    }
    const char* time_buttons[2] = {a->paused ? "run" : "pause", "step"};
    clicked = ui_buttons(u, time_buttons, 2, -1, NULL);
    if (clicked == 0)
    {
        a->paused = !a->paused;
    }
    else if (clicked == 1)
    {
        a->paused = true;
        a->single_steps++;
    }
    const char* state_buttons[2] = {"save state", "load state"};
    clicked = ui_buttons(u, state_buttons, 2, -1, "snapshot of the world: captures/snapshot.json (F5 / F8)");
    if (clicked == 0)
    {
        app_save_state(a, NULL);
    }
    else if (clicked == 1)
    {
        app_load_state(a, NULL);
    }
    int step = ui_stepper(u, "speed", speed_names[a->speed_index], "time scale");
    int speed = a->speed_index + step;
    a->speed_index = speed < 0 ? 0 : (speed >= APP_SPEED_COUNT ? APP_SPEED_COUNT - 1 : speed);
}

static void scene_rows(app* a, ui* u)
{
    refresh_scenes(a);
    for (int first = 0; first < a->scene_count; first += 2)
    {
        char names[2][SCENE_NAME_MAX];
        const char* labels[2];
        int count = a->scene_count - first < 2 ? a->scene_count - first : 2;
        int sel = -1;
        for (int k = 0; k < count; ++k)
        {
            app_format(names[k], sizeof names[k], "%.*s", (int)(strlen(a->scene_files[first + k]) - 5),
                       a->scene_files[first + k]);
            labels[k] = names[k];
            const char* base = strrchr(a->scene_path, '/');
            sel = base != NULL && strcmp(base + 1, a->scene_files[first + k]) == 0 ? k : sel;
        }
        // Each button's tooltip is its scene's description (one tip per row: the hovered button's).
        int hovered = u->pass == UI_DRAW && u->px >= u->x + 0.5f * u->w ? 1 : 0;
        hovered = hovered < count ? hovered : 0;
        int clicked = ui_buttons(u, labels, count, sel, a->scene_descriptions[first + hovered]);
        if (clicked >= 0)
        {
            char path[APP_PATH_MAX + 160];
            app_format(path, sizeof path, "%s/%s", a->scene_dir, a->scene_files[first + clicked]);
            app_load_scene(a, path);
        }
    }
    if (a->world != NULL)
    {
        ui_text(u, a->info.description);
    }
}

// Room for the scroll bar (always kept, so the layout does not jump when it appears).
static float scrollbar_width(const app* a)
{
    return 8.0f * a->ui_scale;
}

static void build(app* a, ui* u)
{
    char caption[64];
    app_format(caption, sizeof caption, a->pane_count > 1 ? "solver, pane %d (Q: next)" : "solver",
               a->focus + 1);
    ui_label(u, caption);
    solver_rows(a, u);
    parameter_rows(a, u);
    world_rows(a, u);
    ui_label(u, "draw");
    draw_rows(a, u);
    ui_label(u, "lab and time");
    lab_rows(a, u);
    ui_label(u, "scene");
    scene_rows(a, u);
}

// The panel's content scrolls inside its rectangle: rows wholly inside it are drawn and hit.
static void begin(app* a, ui* u, ui_pass pass, double x, double y)
{
    layout_rect r = layout_panel_rect(a);
    float pad = 6.0f * a->ui_scale;
    ui_begin(u, a->renderer, pass, r.x + pad, r.y + pad - a->panel_scroll,
             r.w - 2.0f * pad - scrollbar_width(a), (float)x, (float)y);
    ui_clip(u, r.y + 0.5f * pad, r.y + r.h - 0.5f * pad);
}

// How far the content may scroll: its height beyond the panel's (0 when it fits).
static float scroll_range(app* a)
{
    layout_rect r = layout_panel_rect(a);
    if (r.w <= 0.0f)
    {
        return 0.0f;
    }
    ui u;
    float pad = 6.0f * a->ui_scale;
    ui_begin(&u, a->renderer, UI_FIND, r.x + pad, 0.0f, r.w - 2.0f * pad - scrollbar_width(a), -1.0f, -1.0f);
    build(a, &u); // a FIND pass for no label: lays out, changes nothing
    float range = u.y + 2.0f * pad - r.h;
    return range > 0.0f ? range : 0.0f;
}

void panel_scroll_by(app* a, float dy)
{
    float range = scroll_range(a);
    float s = a->panel_scroll + dy;
    a->panel_scroll = s < 0.0f ? 0.0f : (s > range ? range : s);
}

// The scroll bar's track: the panel's right edge, while the content is taller than the panel.
static layout_rect scrollbar_rect(app* a)
{
    layout_rect r = layout_panel_rect(a);
    float w = scrollbar_width(a);
    return (layout_rect){r.x + r.w - w, r.y, w, r.h};
}

bool panel_covers(app* a, double x, double y)
{
    if (a->renderer == NULL)
    {
        return false;
    }
    float pad = 8.0f * a->ui_scale;
    layout_rect hud = {0.0f, 0.0f, a->show_hud ? layout_hud_right(a) - pad : 0.0f,
                       a->show_hud ? layout_hud_bottom(a) - pad : 0.0f};
    float pw = a->show_plot ? layout_plot_width(a) + 2.0f * pad : 0.0f;
    layout_rect plots = {(float)a->fb_w - pw, 0.0f, pw, (float)a->fb_h};
    return layout_contains(layout_panel_rect(a), x, y) || layout_contains(hud, x, y) ||
           layout_contains(plots, x, y);
}

bool panel_click(app* a, double x, double y)
{
    if (!panel_covers(a, x, y))
    {
        return false;
    }
    if (layout_contains(layout_panel_rect(a), x, y))
    {
        panel_scroll_by(a, 0.0f); // the content may have shrunk (another solver, scene, window size)
        layout_rect bar = scrollbar_rect(a);
        if (layout_contains(bar, x, y))
        {
            // The track pages: above the middle up, below it down.
            panel_scroll_by(a, (y < bar.y + 0.5f * bar.h ? -0.8f : 0.8f) * bar.h);
            return true;
        }
        ui u;
        begin(a, &u, UI_HIT, x, y);
        build(a, &u);
    }
    return true;
}

void panel_draw(app* a)
{
    layout_rect r = layout_panel_rect(a);
    if (r.w <= 0.0f)
    {
        return;
    }
    render_context* rc = a->renderer;
    render_ui_rect(rc, r.x, r.y, r.w, r.h, PANEL_FILL);
    render_ui_line(rc, r.x + r.w, r.y, r.x + r.w, r.y + r.h, 1.0f * a->ui_scale, PANEL_EDGE);
    panel_scroll_by(a, 0.0f);
    float range = scroll_range(a);
    if (range > 0.0f)
    {
        // The thumb's share of the track is the visible share of the content.
        layout_rect bar = scrollbar_rect(a);
        float thumb = bar.h * bar.h / (bar.h + range);
        float at = bar.y + (bar.h - thumb) * a->panel_scroll / range;
        render_ui_rect(rc, bar.x + 2.0f * a->ui_scale, at, bar.w - 3.0f * a->ui_scale, thumb, SCROLL_THUMB);
    }
    ui u;
    begin(a, &u, UI_DRAW, a->mouse_x, a->mouse_y);
    build(a, &u);
    if (u.tip != NULL && u.tip[0] != '\0')
    {
        // The hovered widget's tooltip, wrapped, at the panel's foot.
        render_ui_flush(rc);
        ui tip;
        float pad = 6.0f * a->ui_scale;
        ui_begin(&tip, rc, UI_HIT, r.x + pad, 0.0f, r.w - 2.0f * pad, -1.0f, -1.0f);
        ui_text(&tip, u.tip); // measure
        float h = tip.y + pad;
        float y = r.y + r.h - h - pad;
        render_ui_rect(rc, r.x, y, r.w, h + pad, TIP_FILL);
        ui_begin(&tip, rc, UI_DRAW, r.x + pad, y + pad, r.w - 2.0f * pad, -1.0f, -1.0f);
        ui_text(&tip, u.tip);
    }
}

bool panel_find(app* a, const char* label, double* x, double* y, bool* shown)
{
    if (layout_panel_rect(a).w <= 0.0f)
    {
        return false;
    }
    ui u;
    begin(a, &u, UI_FIND, -1.0, -1.0);
    u.find = label;
    build(a, &u);
    *x = u.fx;
    *y = u.fy;
    if (shown != NULL)
    {
        *shown = u.found_shown;
        return u.found;
    }
    return u.found && u.found_shown;
}
