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

void app_handle_key(app* a, SDL_Keycode key, Uint16 mod)
{
    bool shift = (mod & KMOD_SHIFT) != 0;
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
        return;
    }
    switch (key)
    {
        case SDLK_TAB:
        {
            int n = cs_solver_count();
            if (n > 0)
            {
                app_set_solver(a, ((app_pane_solver(a, a->focus) + (shift ? -1 : 1)) % n + n) % n);
            }
            break;
        }
        case SDLK_PLUS:
        case SDLK_EQUALS: // '+' is Shift+'=' on most layouts
        case SDLK_KP_PLUS:
            step_alpha(a, +1);
            break;
        case SDLK_MINUS:
        case SDLK_KP_MINUS:
            step_alpha(a, -1);
            break;
        case SDLK_LEFTBRACKET:
            app_set_iterations(a, app_pane_params(a, a->focus)->iterations / 2);
            break;
        case SDLK_RIGHTBRACKET:
            app_set_iterations(a, app_pane_params(a, a->focus)->iterations * 2);
            break;
        case SDLK_w:
            app_set_warm_start(a, !app_pane_params(a, a->focus)->warm_start);
            break;
        case SDLK_f:
            if (a->world != NULL)
            {
                app_set_frictionless(a, !cs_world_get_def(app_pane_world(a, a->focus))->frictionless);
                app_message(a, "friction %s",
                            cs_world_get_def(app_pane_world(a, a->focus))->frictionless ? "off" : "on");
            }
            break;
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
            break;
        case SDLK_SPACE:
            a->paused = !a->paused;
            break;
        case SDLK_PERIOD:
            a->paused = true;
            a->single_steps++;
            break;
        case SDLK_COMMA:
            a->speed_index = a->speed_index > 0 ? a->speed_index - 1 : 0;
            break;
        case SDLK_SLASH:
            a->speed_index = a->speed_index < APP_SPEED_COUNT - 1 ? a->speed_index + 1 : APP_SPEED_COUNT - 1;
            break;
        case SDLK_r:
            app_reset(a);
            break;
        case SDLK_n:
            app_next_scene(a, +1);
            break;
        case SDLK_p:
            app_next_scene(a, -1);
            break;
        case SDLK_c:
            toggle(a, &a->show_contacts, "contact points");
            break;
        case SDLK_v:
            toggle(a, &a->show_normals, "contact normals");
            break;
        case SDLK_i:
            toggle(a, &a->show_impulses, "impulse arrows");
            break;
        case SDLK_m:
        {
            static const char* names[] = {"mass", "contact impulse", "divergence between panes"};
            int modes = a->pane_count > 1 ? 3 : 2;
            a->color_mode = (render_color_mode)(((int)a->color_mode + 1) % modes);
            app_message(a, "colour by %s", names[a->color_mode]);
            break;
        }
        case SDLK_d:
            duel_toggle(a);
            break;
        case SDLK_q:
            a->focus = a->pane_count > 1 ? (a->focus + 1) % a->pane_count : 0;
            break;
        case SDLK_t:
            a->show_timings = !a->show_timings;
            app_request_fit(a); // the HUD's width changed
            break;
        case SDLK_j:
            toggle(a, &a->show_row_colours, "row colours");
            break;
        case SDLK_y:
            a->step_plot = (plot_quantity)((a->step_plot + 1) % PLOT_QUANTITY_COUNT);
            break;
        case SDLK_k:
            a->show_panel = !a->show_panel;
            app_request_fit(a);
            break;
        case SDLK_x:
            race_toggle(a);
            break;
        case SDLK_DELETE:
        case SDLK_BACKSPACE:
            remove_hovered(a);
            break;
        case SDLK_a:
            if (app_pane_world(a, a->focus) != NULL)
            {
                app_set_sleeping(a, !cs_world_sleeping_enabled(app_pane_world(a, a->focus)));
            }
            break;
        case SDLK_b:
            if (app_pane_world(a, a->focus) != NULL)
            {
                app_set_continuous(a, !cs_world_continuous_enabled(app_pane_world(a, a->focus)));
            }
            break;
        case SDLK_e:
            app_export_plots(a, NULL);
            break;
        case SDLK_g:
            app_set_show_plot(a, !a->show_plot);
            break;
        case SDLK_u:
            a->show_hud = !a->show_hud;
            app_request_fit(a);
            break;
        case SDLK_z:
            app_fit_view(a);
            break;
        case SDLK_h:
            a->show_help = !a->show_help;
            break;
        case SDLK_F12:
            app_request_screenshot(a, NULL);
            break;
        case SDLK_F9:
            app_toggle_recording(a, NULL);
            break;
        case SDLK_l:
            app_dump_lcp(a);
            break;
        case SDLK_F5:
            app_save_state(a, NULL);
            break;
        case SDLK_F8:
            app_load_state(a, NULL);
            break;
        case SDLK_ESCAPE:
            a->quit = true;
            break;
        default:
            break;
    }
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
        {
            double y = e->wheel.preciseY != 0.0f ? e->wheel.preciseY : e->wheel.y;
            if (layout_contains(layout_panel_rect(a), a->mouse_x, a->mouse_y))
            {
                // Three rows a notch, as text views scroll.
                panel_scroll_by(
                    a, (float)(-y * 3.0 * (render_ui_line_height(a->renderer) + 6.0f * a->ui_scale)));
                break;
            }
            if (panel_covers(a, a->mouse_x, a->mouse_y))
            {
                break; // the wheel over a panel leaves the world's zoom alone
            }
            layout_rect pane = layout_pane_rect(a, layout_pane_at(a, a->mouse_x, a->mouse_y));
            render_view_zoom_at(&a->view, a->mouse_x - pane.x, a->mouse_y - pane.y, pow(1.15, y));
            a->view_moved = true;
            break;
        }
        case SDL_MOUSEBUTTONDOWN:
        {
            a->mouse_x = e->button.x * s;
            a->mouse_y = e->button.y * s;
            if (e->button.button == SDL_BUTTON_LEFT && panel_click(a, a->mouse_x, a->mouse_y))
            {
                break; // a click on a panel never reaches the world
            }
            if (panel_covers(a, a->mouse_x, a->mouse_y))
            {
                break;
            }
            cs_vec2 p = layout_to_world(a, a->mouse_x, a->mouse_y);
            bool ctrl = (SDL_GetModState() & KMOD_CTRL) != 0;
            if (e->button.button == SDL_BUTTON_MIDDLE || (e->button.button == SDL_BUTTON_RIGHT && ctrl))
            {
                a->panning = true;
            }
            else if (e->button.button == SDL_BUTTON_RIGHT)
            {
                a->ray_dragging = a->has_ray = true;
                a->ray_origin = a->ray_end = p;
                a->ray_found = false;
            }
            else if (e->button.button == SDL_BUTTON_LEFT)
            {
                if ((SDL_GetModState() & KMOD_SHIFT) != 0)
                {
                    app_spawn_circle(a, p);
                    break;
                }
                app_grab_at(a, p);
            }
            break;
        }
        case SDL_MOUSEBUTTONUP:
            if (e->button.button == SDL_BUTTON_RIGHT && a->ray_dragging)
            {
                a->ray_dragging = false;
                // A click without a drag clears the ray.
                double len = hypot(a->ray_end.x - a->ray_origin.x, a->ray_end.y - a->ray_origin.y);
                a->has_ray = len * a->view.scale >= 3.0;
            }
            if (e->button.button == SDL_BUTTON_RIGHT || e->button.button == SDL_BUTTON_MIDDLE)
            {
                a->panning = false;
            }
            else if (e->button.button == SDL_BUTTON_LEFT)
            {
                release_grab(a);
            }
            break;
        case SDL_MOUSEMOTION:
        {
            double x = e->motion.x * s;
            double y = e->motion.y * s;
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
            break;
        }
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
