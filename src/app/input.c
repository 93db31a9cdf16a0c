// Keys and mouse → model changes. One table lists every key for the help overlay and the README.
#include <math.h>
#include <stdio.h>

#include "app/capture_actions.h"
#include "app/duel.h"
#include "app/race.h"
#include "app/input.h"
#include "app/layout.h"
#include "app/panel.h"
#include "app/pick.h"

static const app_key_help key_help[] = {
    {"1 … 9", "pick solver 1…9 of the registry"},
    {"Tab / Shift+Tab", "next / previous solver"},
    {"+ / −", "α ± 0.1 (clamped to (0, 2]); ω ± 0.1 for psor, pssor, jacobi"},
    {"[ / ]", "halve / double iterations per step"},
    {"W", "warm start on/off"},
    {"F", "friction on/off (frictionless rows)"},
    {"O", "row order: coloured / key (the sweep order)"},
    {"Space", "pause / run"},
    {".", "single step (pauses)"},
    {", / /", "slower / faster: speed ×¼ … ×4"},
    {"R", "reset scene"},
    {"N / P", "next / previous scene in scenes/"},
    {"C", "contact points on/off"},
    {"V", "contact normals on/off"},
    {"I", "impulse arrows on/off"},
    {"M", "colour by mass / contact impulse / divergence (duel)"},
    {"D", "duel on/off: fork into panes (this solver vs the next)"},
    {"Q", "duel: next pane for the keys"},
    {"T", "wall-clock timings in the HUD on/off"},
    {"J", "contacts in their row colour (the coloured sweep order's graph colouring)"},
    {"Y", "per-step plot: RES / kinetic energy / penetration"},
    {"K", "control panel on/off (clickable settings, scenes)"},
    {"Delete / Backspace", "remove the circle under the mouse (in every pane)"},
    {"A", "sleeping islands on/off"},
    {"B", "continuous collision on/off"},
    {"E", "export the plotted series as CSV → captures/"},
    {"X",
     "frozen-step race: every solver on this step's LCP to 1e-4, with the active set found (X again closes)"},
    {"G", "residual plot on/off"},
    {"U", "HUD on/off"},
    {"Z", "fit scene to window"},
    {"H", "this help"},
    {"F12", "PNG screenshot → captures/"},
    {"F9", "start/stop MP4 recording → captures/"},
    {"L", "dump this step's LCP → captures/"},
    {"F5 / F8", "save / load a snapshot of the world (captures/snapshot.json)"},
    {"Esc", "quit"},
    {"wheel", "zoom at cursor (over the panel: scroll it)"},
    {"right drag", "cast a ray: its hit point and normal (a right-click clears it)"},
    {"middle drag / Ctrl+right drag", "pan"},
    {"left drag", "pull a circle with a spring"},
    {"Shift+click", "spawn a circle"},
};

const app_key_help* app_key_help_table(int* count)
{
    *count = (int)(sizeof key_help / sizeof key_help[0]);
    return key_help;
}

// α on the 0.1 grid, never leaving (0, 2]: from 0.1 the '−' key stays at 0.1. For a solver that reads ω
// and not α (psor, pssor, jacobi) the same keys step ω instead, within [0.1, 1.9].
static void step_alpha(app* a, int direction)
{
    const cs_solver_info* uses = cs_solver_at(app_pane_solver(a, a->focus));
    if (uses != NULL && (uses->flags & CS_SOLVER_USES_RELAXATION) && !(uses->flags & CS_SOLVER_USES_ALPHA))
    {
        app_set_relaxation(a, round((app_pane_params(a, a->focus)->relaxation + direction * APP_ALPHA_STEP) /
                                    APP_ALPHA_STEP) *
                                  APP_ALPHA_STEP);
        return;
    }
    double alpha =
        round((app_pane_params(a, a->focus)->alpha + direction * APP_ALPHA_STEP) / APP_ALPHA_STEP) *
        APP_ALPHA_STEP;
    if (alpha < APP_ALPHA_STEP - 1e-9)
    {
        alpha = app_pane_params(a, a->focus)->alpha < APP_ALPHA_STEP ? app_pane_params(a, a->focus)->alpha
                                                                     : APP_ALPHA_STEP;
    }
    app_set_alpha(a, alpha);
    const cs_solver_info* info = cs_solver_at(app_pane_solver(a, a->focus));
    if (info != NULL && (info->flags & CS_SOLVER_USES_ALPHA) == 0)
    {
        app_message(a, "α = %.2g (used by the AMGS solvers, not by %s)", app_pane_params(a, a->focus)->alpha,
                    info->name);
    }
}

static void toggle(app* a, bool* flag, const char* what)
{
    *flag = !*flag;
    app_message(a, "%s %s", what, *flag ? "on" : "off");
}

// The circle under the mouse goes, in every pane (nothing happens over a panel).
static void remove_hovered(app* a)
{
    if (a->world == NULL || panel_covers(a, a->mouse_x, a->mouse_y))
    {
        return;
    }
    int pane = layout_pane_at(a, a->mouse_x, a->mouse_y);
    int id = pick_body_at(app_pane_world(a, pane), layout_to_world(a, a->mouse_x, a->mouse_y));
    if (id >= 0)
    {
        app_remove_body(a, id);
    }
}

// Keys 1 … 9, Tab: which solver the focused pane runs. False for any other key.
static bool solver_key(app* a, SDL_Keycode key, bool shift)
{
    if (key >= SDLK_1 && key <= SDLK_9)
    {
        int index = (int)(key - SDLK_1);
        if (index < cs_solver_count())
        {
            app_set_solver(a, index);
        }
        else
        {
            app_message(a, "no solver %d (%d registered)", index + 1, cs_solver_count());
        }
        return true;
    }
    if (key == SDLK_TAB)
    {
        int n = cs_solver_count();
        if (n > 0)
        {
            app_set_solver(a, ((app_pane_solver(a, a->focus) + (shift ? -1 : 1)) % n + n) % n);
        }
        return true;
    }
    return false;
}

// The solver's and the world's settings: α/ω, iterations, warm start, friction, row order, sleeping,
// continuous collision. False for any other key.
static bool setting_key(app* a, SDL_Keycode key)
{
    switch (key)
    {
        case SDLK_PLUS:
        case SDLK_EQUALS: // '+' is Shift+'=' on most layouts
        case SDLK_KP_PLUS:
            step_alpha(a, +1);
            return true;
        case SDLK_MINUS:
        case SDLK_KP_MINUS:
            step_alpha(a, -1);
            return true;
        case SDLK_LEFTBRACKET:
            app_set_iterations(a, app_pane_params(a, a->focus)->iterations / 2);
            return true;
        case SDLK_RIGHTBRACKET:
            app_set_iterations(a, app_pane_params(a, a->focus)->iterations * 2);
            return true;
        case SDLK_w:
            app_set_warm_start(a, !app_pane_params(a, a->focus)->warm_start);
            return true;
        case SDLK_f:
            if (a->world != NULL)
            {
                app_set_frictionless(a, !cs_world_get_def(app_pane_world(a, a->focus))->frictionless);
                app_message(a, "friction %s",
                            cs_world_get_def(app_pane_world(a, a->focus))->frictionless ? "off" : "on");
            }
            return true;
        case SDLK_o:
            if (a->world != NULL)
            {
                cs_row_order order =
                    cs_world_get_def(app_pane_world(a, a->focus))->row_order == CS_ROW_ORDER_KEY
                        ? CS_ROW_ORDER_COLOURED
                        : CS_ROW_ORDER_KEY;
                app_set_row_order(a, order);
                app_message(a, "row order %s", cs_row_order_name(order));
            }
            return true;
        case SDLK_a:
            if (app_pane_world(a, a->focus) != NULL)
            {
                app_set_sleeping(a, !cs_world_sleeping_enabled(app_pane_world(a, a->focus)));
            }
            return true;
        case SDLK_b:
            if (app_pane_world(a, a->focus) != NULL)
            {
                app_set_continuous(a, !cs_world_continuous_enabled(app_pane_world(a, a->focus)));
            }
            return true;
        default:
            return false;
    }
}

// Time and scenes: pause, single step, speed, reset, next/previous scene, duel, quit. False for any other
// key.
static bool playback_key(app* a, SDL_Keycode key)
{
    switch (key)
    {
        case SDLK_SPACE:
            a->paused = !a->paused;
            return true;
        case SDLK_PERIOD:
            a->paused = true;
            a->single_steps++;
            return true;
        case SDLK_COMMA:
            a->speed_index = a->speed_index > 0 ? a->speed_index - 1 : 0;
            return true;
        case SDLK_SLASH:
            a->speed_index = a->speed_index < APP_SPEED_COUNT - 1 ? a->speed_index + 1 : APP_SPEED_COUNT - 1;
            return true;
        case SDLK_r:
            app_reset(a);
            return true;
        case SDLK_n:
            app_next_scene(a, +1);
            return true;
        case SDLK_p:
            app_next_scene(a, -1);
            return true;
        case SDLK_d:
            duel_toggle(a);
            return true;
        case SDLK_q:
            a->focus = a->pane_count > 1 ? (a->focus + 1) % a->pane_count : 0;
            return true;
        case SDLK_x:
            race_toggle(a);
            return true;
        case SDLK_DELETE:
        case SDLK_BACKSPACE:
            remove_hovered(a);
            return true;
        case SDLK_ESCAPE:
            a->quit = true;
            return true;
        default:
            return false;
    }
}

// What is drawn: contacts, normals, impulses, colours, HUD, plots, panel, help, the view's fit. False for
// any other key.
static bool display_key(app* a, SDL_Keycode key)
{
    switch (key)
    {
        case SDLK_c:
            toggle(a, &a->show_contacts, "contact points");
            return true;
        case SDLK_v:
            toggle(a, &a->show_normals, "contact normals");
            return true;
        case SDLK_i:
            toggle(a, &a->show_impulses, "impulse arrows");
            return true;
        case SDLK_m:
        {
            static const char* names[] = {"mass", "contact impulse", "divergence between panes"};
            int modes = a->pane_count > 1 ? 3 : 2;
            a->color_mode = (render_color_mode)(((int)a->color_mode + 1) % modes);
            app_message(a, "colour by %s", names[a->color_mode]);
            return true;
        }
        case SDLK_t:
            a->show_timings = !a->show_timings;
            app_request_fit(a); // the HUD's width changed
            return true;
        case SDLK_j:
            toggle(a, &a->show_row_colours, "row colours");
            return true;
        case SDLK_y:
            a->step_plot = (plot_quantity)((a->step_plot + 1) % PLOT_QUANTITY_COUNT);
            return true;
        case SDLK_k:
            a->show_panel = !a->show_panel;
            app_request_fit(a);
            return true;
        case SDLK_g:
            app_set_show_plot(a, !a->show_plot);
            return true;
        case SDLK_u:
            a->show_hud = !a->show_hud;
            app_request_fit(a);
            return true;
        case SDLK_z:
            app_fit_view(a);
            return true;
        case SDLK_h:
            a->show_help = !a->show_help;
            return true;
        default:
            return false;
    }
}

// Files into captures/: plot CSV, screenshot, recording, LCP dump, snapshot save/load. False for any other
// key.
static bool capture_key(app* a, SDL_Keycode key)
{
    switch (key)
    {
        case SDLK_e:
            app_export_plots(a, NULL);
            return true;
        case SDLK_F12:
            app_request_screenshot(a, NULL);
            return true;
        case SDLK_F9:
            app_toggle_recording(a, NULL);
            return true;
        case SDLK_l:
            app_dump_lcp(a);
            return true;
        case SDLK_F5:
            app_save_state(a, NULL);
            return true;
        case SDLK_F8:
            app_load_state(a, NULL);
            return true;
        default:
            return false;
    }
}

// Each key belongs to one group (the groups share no key); a key in none does nothing.
void app_handle_key(app* a, SDL_Keycode key, Uint16 mod)
{
    bool shift = (mod & KMOD_SHIFT) != 0;
    if (solver_key(a, key, shift) || setting_key(a, key) || playback_key(a, key) || display_key(a, key))
    {
        return;
    }
    capture_key(a, key);
}

// The circle under a world point (the one with the nearest centre), or -1: on the broad phase (pick.c).
static int pick_body(const app* a, cs_vec2 p)
{
    return pick_body_at(a->world, p);
}

// In a duel the circle appears in every pane: the panes keep the same bodies.
void app_spawn_circle(app* a, cs_vec2 p)
{
    if (a->world == NULL)
    {
        return;
    }
    cs_circle_def def = cs_circle_def_default();
    int n = cs_world_body_count(a->world);
    if (n > 0)
    {
        // Like the most recent body, so a pool gets more of the same.
        cs_body_state last = cs_world_body(a->world, cs_world_body_id(a->world, n - 1));
        def.radius = last.radius;
        def.mass = last.mass;
    }
    def.position = p;
    for (int i = 0; i < a->pane_count || i == 0; ++i)
    {
        cs_error err = {0};
        if (cs_world_add_circle(app_pane_world(a, i), &def, &err) < 0)
        {
            app_message(a, "cannot add a circle: %s", err.message);
        }
    }
}

static void release_grab(app* a)
{
    for (int i = 0; a->grab_body >= 0 && a->world != NULL && (i < a->pane_count || i == 0); ++i)
    {
        cs_world* w = app_pane_world(a, i);
        if (cs_world_body_alive(w, a->grab_body))
        {
            cs_world_set_body_force(w, a->grab_body, (cs_vec2){0.0, 0.0});
        }
    }
    a->grab_body = -1;
}

void app_release_grab(app* a)
{
    release_grab(a);
}

bool app_grab_at(app* a, cs_vec2 p)
{
    release_grab(a);
    a->grab_body = pick_body(a, p);
    if (a->grab_body >= 0)
    {
        cs_body_state b = cs_world_body(a->world, a->grab_body);
        a->grab_offset = (cs_vec2){p.x - b.position.x, p.y - b.position.y};
        a->grab_target = p;
    }
    return a->grab_body >= 0;
}

// The wheel scrolls the panel under the mouse, else zooms the pane under it at the cursor.
static void handle_wheel(app* a, const SDL_MouseWheelEvent* wheel)
{
    double y = wheel->preciseY != 0.0f ? wheel->preciseY : wheel->y;
    if (layout_contains(layout_panel_rect(a), a->mouse_x, a->mouse_y))
    {
        // Three rows a notch, as text views scroll.
        panel_scroll_by(a, (float)(-y * 3.0 * (render_ui_line_height(a->renderer) + 6.0f * a->ui_scale)));
        return;
    }
    if (panel_covers(a, a->mouse_x, a->mouse_y))
    {
        return; // the wheel over a panel leaves the world's zoom alone
    }
    layout_rect pane = layout_pane_rect(a, layout_pane_at(a, a->mouse_x, a->mouse_y));
    render_view_zoom_at(&a->view, a->mouse_x - pane.x, a->mouse_y - pane.y, pow(1.15, y));
    a->view_moved = true;
}

// A press: a panel's click, else pan (middle, Ctrl+right), start a ray (right), spawn (Shift+left) or grab
// (left). s is the pixel ratio.
static void handle_button_down(app* a, const SDL_MouseButtonEvent* button, double s)
{
    a->mouse_x = button->x * s;
    a->mouse_y = button->y * s;
    if (button->button == SDL_BUTTON_LEFT && panel_click(a, a->mouse_x, a->mouse_y))
    {
        return; // a click on a panel never reaches the world
    }
    if (panel_covers(a, a->mouse_x, a->mouse_y))
    {
        return;
    }
    cs_vec2 p = layout_to_world(a, a->mouse_x, a->mouse_y);
    bool ctrl = (SDL_GetModState() & KMOD_CTRL) != 0;
    if (button->button == SDL_BUTTON_MIDDLE || (button->button == SDL_BUTTON_RIGHT && ctrl))
    {
        a->panning = true;
    }
    else if (button->button == SDL_BUTTON_RIGHT)
    {
        a->ray_dragging = a->has_ray = true;
        a->ray_origin = a->ray_end = p;
        a->ray_found = false;
    }
    else if (button->button == SDL_BUTTON_LEFT)
    {
        if ((SDL_GetModState() & KMOD_SHIFT) != 0)
        {
            app_spawn_circle(a, p);
            return;
        }
        app_grab_at(a, p);
    }
}

// A release ends the ray's drag, the pan or the grab.
static void handle_button_up(app* a, const SDL_MouseButtonEvent* button)
{
    if (button->button == SDL_BUTTON_RIGHT && a->ray_dragging)
    {
        a->ray_dragging = false;
        // A click without a drag clears the ray.
        double len = hypot(a->ray_end.x - a->ray_origin.x, a->ray_end.y - a->ray_origin.y);
        a->has_ray = len * a->view.scale >= 3.0;
    }
    if (button->button == SDL_BUTTON_RIGHT || button->button == SDL_BUTTON_MIDDLE)
    {
        a->panning = false;
    }
    else if (button->button == SDL_BUTTON_LEFT)
    {
        release_grab(a);
    }
}

// A move pans the view, moves the grab's target and the ray's end. s is the pixel ratio.
static void handle_motion(app* a, const SDL_MouseMotionEvent* motion, double s)
{
    double x = motion->x * s;
    double y = motion->y * s;
    if (a->panning)
    {
        render_view_pan(&a->view, x - a->mouse_x, y - a->mouse_y);
        a->view_moved = true;
    }
    a->mouse_x = x;
    a->mouse_y = y;
    if (a->grab_body >= 0)
    {
        a->grab_target = layout_to_world(a, x, y);
    }
    if (a->ray_dragging)
    {
        a->ray_end = layout_to_world(a, x, y);
    }
}

void app_handle_event(app* a, const SDL_Event* e)
{
    layout_update(a); // a key of this frame may have loaded a scene: the mouse maps through the new view
    double s = a->pixel_ratio > 0.0f ? a->pixel_ratio : 1.0;
    switch (e->type)
    {
        case SDL_QUIT:
            a->quit = true;
            break;
        case SDL_KEYDOWN:
            app_handle_key(a, e->key.keysym.sym, e->key.keysym.mod);
            break;
        case SDL_MOUSEWHEEL:
            handle_wheel(a, &e->wheel);
            break;
        case SDL_MOUSEBUTTONDOWN:
            handle_button_down(a, &e->button, s);
            break;
        case SDL_MOUSEBUTTONUP:
            handle_button_up(a, &e->button);
            break;
        case SDL_MOUSEMOTION:
            handle_motion(a, &e->motion, s);
            break;
        case SDL_DROPFILE:
            if (e->drop.file != NULL)
            {
                app_load_scene(a, e->drop.file);
                SDL_free(e->drop.file);
            }
            break;
        default:
            break;
    }
}
