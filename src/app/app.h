// circlesim viewer — the application model: every setting the keys change and everything the HUD
// shows lives in one plain struct, with the operations that change it. The viewer's modules stack in
// one direction (scripts/check-includes.sh keeps it so):
//   format, limits, capture, plot_data, script, setting_label   leaves (know nothing of the model)
//   app          the model: state and operations (scenes, settings, stepping)
//   hud_text     the HUD's lines, from the model
//   layout       where panels and the world view go (fits the view)
//   capture_actions, input    model changes from keys, mouse and capture requests
//   script_run, hud           timed actions; drawing
//   loop         window, frame, life cycle (main.c and tests start here)
#ifndef CS_APP_H
#define CS_APP_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "circlesim/circlesim.h"
#include "render/render.h"
#include "app/capture.h"
#include "app/format.h"
#include "app/limits.h"
#include "app/plot_data.h"
#include "app/script.h"
// A slow solver setting must never freeze the window: at most this many steps per frame and
// APP_STEP_BUDGET seconds of stepping; the HUD says so when real time is not kept.
#define APP_MAX_STEPS_PER_FRAME 8
#define APP_STEP_BUDGET         0.05
#define APP_SPEED_COUNT         5 // ×¼ ×½ ×1 ×2 ×4

#define APP_MAX_PANES   4
#define APP_MAX_SCENES  24  // scene files the panel lists
#define APP_MAX_FLASHES 128 // hit events flashing at once
#define APP_FLASH_STEPS 20  // a hit flashes for this many steps (1/3 s at 60 Hz: captures stay reproducible)

// A hit event (cs_world_contact_events) of pane `pane` at step `step`, flashed as a fading ring.
typedef struct app_flash
{
    int pane;
    int64_t step;
    cs_vec2 point;
    double radius;
} app_flash;

// One solver's run in a frozen-step race (race.h).
typedef struct app_race_entry
{
    int solver;
    bool skipped;   // not run (dense solver on a large problem)
    bool converged; // reached the tolerance
    bool failed;    // the method refused the problem (lemke's ray, …): the label says why
    int iterations;
    double seconds;   // wall time of re-solving with exactly `iterations` and no residual checks
    double residual;  // final, on the race's residual
    double* history;  // residual after each iteration (0 = start point), history_count entries
    double* times_ms; // the same points against time: iteration × the solve's mean time per iteration
    int history_count;
    // Rows of the optimal active set it has identified after k = cs_active_set_ks[i] iterations (−1: the
    // solve failed), and at the end of its race; as fractions against k for the plot.
    int set_found[CS_ACTIVE_SET_KS_COUNT];
    int set_found_end;
    double set_k[CS_ACTIVE_SET_KS_COUNT], set_fraction[CS_ACTIVE_SET_KS_COUNT];
    int set_points;
    char label[PLOT_LABEL_MAX];       // "amgs α=0.2: 279 it, active set 100 %"
    char timed_label[PLOT_LABEL_MAX]; // the same with the wall time (only with the timings shown)
} app_race_entry;

typedef struct app_race
{
    bool shown;
    int64_t step; // the frozen step
    int rows;
    double tolerance;
    bool on_lcp; // residual: res_lcp (frictionless) or res_nat
    // The optimal active set (circlesim/active_set.h): set_active rows, from the reference set_source says.
    bool has_set;
    int set_active;
    char set_source[512];
    int count;
    app_race_entry* entries; // cs_solver_count() of them, allocated when the race starts
} app_race;

// A duel's further pane: a clone of the world stepping in lockstep with pane 0 (the app's own world),
// from the same state and warm start, with its own solver settings and plot.
typedef struct app_pane
{
    cs_world* world;
    int solver;
    cs_solver_params params;
    app_plot plot;
} app_pane;

typedef struct app
{
    // Environment.
    char data_dir[APP_PATH_MAX];
    char capture_dir[APP_PATH_MAX];
    bool headless;
    int frame_limit;
    SDL_Window* window;
    SDL_GLContext gl;
    render_context* renderer;
    int window_w, window_h; // points (mouse coordinates)
    int fb_w, fb_h;         // framebuffer pixels
    int last_fb_w, last_fb_h;
    float pixel_ratio; // framebuffer pixels per window point (HiDPI), for mouse coordinates
    float ui_user;     // --ui-scale factor (1 by default)
    float ui_scale;    // UI pixels per point: pixel_ratio × ui_user
    bool vsync;        // swaps wait for the display; otherwise frames are paced to 60 Hz

    // Scene: the last good world. error is shown in the window while non-empty.
    cs_world* world;
    cs_scene_info info;
    char scene_path[APP_PATH_MAX];
    char state_path[APP_PATH_MAX]; // the snapshot the world came from (R reloads it); empty for a scene
    char error[CS_ERROR_MAX];

    // Solver settings as the user sees them (mirrored into the world on every change).
    int solver;
    cs_solver_params params;
    bool user_settings; // the user changed them: keep them across R/N/P instead of the scene's

    // What is drawn.
    bool show_contacts, show_normals, show_impulses, show_plot, show_help, show_hud;
    bool show_panel;
    float panel_scroll;       // pixels the control panel's content is scrolled up (panel.c keeps it in range)
    bool show_row_colours;    // contacts in the colour of their rows in the coloured sweep order (J)
    uint32_t* contact_colors; // per contact, filled for drawing
    int contact_color_capacity;
    plot_quantity step_plot; // what the per-step plot shows (Y: RES, kinetic energy, penetration) // the
                             // clickable control panel (K; on in a window, off headless)
    // Wall-clock numbers in the HUD (step/solver ms, FPS, "slower than real time"): off unless asked
    // (T, --hud-timings), so the same script makes the same pixels.
    bool show_timings;
    render_color_mode color_mode;
    render_view view;
    bool view_moved;  // zoomed or panned by the user: resizes and panel toggles keep the view as it is
    bool fit_pending; // the world or the panels changed: layout fits the view before the next use

    // Time.
    bool paused;
    int single_steps; // pending '.' steps
    int speed_index;  // into app_speeds
    double accumulator;
    bool behind;         // the step cap was hit recently
    double behind_until; // wall time until which the HUD keeps saying so
    int steps_last_frame;
    int64_t frame;
    bool quit;
    int exit_status;
    double last_time;
    double step_ms, solver_ms, fps; // smoothed

    // Mouse (framebuffer pixels).
    double mouse_x, mouse_y;
    bool panning;
    int grab_body; // -1: none
    cs_vec2 grab_target;
    cs_vec2 grab_offset; // grab point minus body centre, kept so the body does not jump

    // The right-drag's ray (cs_world_ray_cast_closest), cast again every frame: it stays after the drag
    // until the next right-click (Esc clears it first). ray_hit is what it met in pane 0.
    bool ray_dragging;
    bool has_ray;
    cs_vec2 ray_origin, ray_end;
    bool ray_found;
    cs_ray_hit ray_hit;

    // Recent hit events, flashed (a ring of APP_MAX_FLASHES; the oldest make way).
    app_flash flashes[APP_MAX_FLASHES];
    int flash_count, flash_head;

    app_plot plot;

    // Duel: pane_count 1 is the plain viewer; 2..APP_MAX_PANES panes step in lockstep (duel.h).
    int pane_count;
    app_pane rivals[APP_MAX_PANES - 1]; // panes 1..pane_count-1
    int focus;                          // the pane whose settings the keys and the panel change
    double* divergence;                 // per body, for RENDER_COLOR_VALUE (duel.c)
    int divergence_capacity;

    app_race race; // the frozen-step race (race.h)

    // The panel's scene picker: the scene files beside the current scene, with their descriptions.
    char scene_dir[APP_PATH_MAX];
    int scene_count;
    char scene_files[APP_MAX_SCENES][128];
    char scene_descriptions[APP_MAX_SCENES][256];

    app_capture capture;
    bool title_recording; // the window title shows the REC badge
    app_script script;
    char pending_screenshot[APP_PATH_MAX];
    char final_screenshot[APP_PATH_MAX];
    unsigned char* pixels; // read-back buffer
    size_t pixel_bytes;

    char message[CS_ERROR_MAX]; // transient status line ("saved …")
    double message_until;       // wall time
} app;

extern const double app_speeds[APP_SPEED_COUNT];

// Model operations, used by keys, scripts, the panel and tests ----------------------------------------
bool app_load_scene(app* a, const char* path);
// Makes `world` (owned from now on) the app's world with its scene info, as a loaded scene is: solver
// settings (the user's, else the world's), plot, view, and a duel re-forked from it.
void app_install_world(app* a, cs_world* world, const cs_scene_info* info);
// Snapshots (state_actions.c): the focused pane's world to a file, and a world from one (R then reloads
// it). NULL: <capture dir>/snapshot.json. A file that cannot be read is shown and changes nothing.
bool app_save_state(app* a, const char* path);
bool app_load_state(app* a, const char* path);
void app_reset(app* a);
void app_next_scene(app* a, int direction);
void app_set_solver(app* a, int index);
void app_set_alpha(app* a, double alpha);
// ω of psor, pssor and jacobi, kept in [0.1, 1.9] (inside (0, 2)).
void app_set_relaxation(app* a, double omega);
void app_set_iterations(app* a, int iterations);
void app_set_warm_start(app* a, bool on);
// Every parameter at once (the panel): a change starts a new curve.
void app_set_params(app* a, const cs_solver_params* params);
void app_set_show_plot(app* a, bool on);
// Friction and row order live in the world; each change starts a new plot curve.
void app_set_frictionless(app* a, bool on);
void app_set_row_order(app* a, cs_row_order order);
// Pushes the focused pane's solver, params and history recording into its world; a changed setting
// starts a new plot curve.
void app_apply_settings(app* a);

// Panes: 0 is the app's own world, settings and plot; 1.. are the duel's rivals.
cs_world* app_pane_world(const app* a, int pane);
int app_pane_solver(const app* a, int pane);
const cs_solver_params* app_pane_params(const app* a, int pane);
app_plot* app_pane_plot(app* a, int pane);
// The pane's full setting name ("amgs α=0.2 k=10"), as in its legend and title.
void app_pane_label(const app* a, int pane, char* out, size_t size);
// (Re)makes panes 1..count-1 as clones of pane 0's world (their solver settings are kept); false with a
// message when memory runs out (the duel then ends).
bool app_fork_panes(app* a, int count);
// Destroys the rivals: back to one pane.
void app_end_panes(app* a);
// Advances the simulation by dt seconds of wall time (headless: exactly one step unless paused).
void app_advance(app* a, double dt);
// One simulation step with the mouse spring, statistics and plot data.
void app_step(app* a);
// Removes body `id` from every pane (the panes keep the same ids); false with a message when it is not alive.
bool app_remove_body(app* a, int id);
// Sleeping and continuous collision of the focused pane's world (cs_world_enable_sleeping/_continuous).
void app_set_sleeping(app* a, bool on);
void app_set_continuous(app* a, bool on);
// Asks for the view to be fitted to the world again (layout.c does it before the view is next used),
// unless the user moved it.
void app_request_fit(app* a);
// A short status line shown for a few seconds (and printed in headless mode).
void app_message(app* a, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
double app_now(const app* a);

#endif
