// circlesim viewer — the application model: every setting the keys change and everything the HUD
// shows lives in one plain struct. Keys and mouse reach it only through app_handle_key /
// app_handle_event, so tests can inject SDL events and inspect the model and the world.
#ifndef CS_APP_H
#define CS_APP_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "circlesim/circlesim.h"
#include "render/render.h"
#include "app/capture.h"
#include "app/plot_data.h"
#include "app/script.h"

#define APP_PATH_MAX       4096
#define APP_MIN_ITERATIONS 1
#define APP_MAX_ITERATIONS 4096
#define APP_ALPHA_STEP     0.1
#define APP_ALPHA_MAX      2.0
// A slow solver setting must never freeze the window: at most this many steps per frame and
// APP_STEP_BUDGET seconds of stepping; the HUD says so when real time is not kept.
#define APP_MAX_STEPS_PER_FRAME 8
#define APP_STEP_BUDGET         0.05
#define APP_SPEED_COUNT         5 // ×¼ ×½ ×1 ×2 ×4

typedef struct app_config
{
    const char* scene;       // NULL: scenes/pool1.json of the data directory
    const char* data_dir;    // NULL: $CIRCLESIM_DATA_DIR, else the source tree baked in at build time
    const char* capture_dir; // NULL: "captures"
    bool headless;           // off-screen rendering, one simulation step per frame
    int frames;              // > 0: quit after this many frames
    int width, height;       // window size in points (0: default)
    const char* solver;      // overrides of the scene's solver settings (NULL / <= 0 / NaN: keep)
    double alpha;
    int iterations;
    const char* screenshot; // written after the last frame
    const char* record;     // MP4 of every frame
    const char* script;     // timed actions (script.h)
    double ui_scale;        // HUD/plot/text size factor (0: 1)
} app_config;

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
    float pixel_ratio;      // framebuffer pixels per window point (HiDPI), for mouse coordinates
    float ui_user;          // --ui-scale factor (1 by default)
    float ui_scale;         // UI pixels per point: pixel_ratio × ui_user
    bool vsync;             // swaps wait for the display; otherwise frames are paced to 60 Hz

    // Scene: the last good world. error is shown in the window while non-empty.
    cs_world* world;
    cs_scene_info info;
    char scene_path[APP_PATH_MAX];
    char error[CS_ERROR_MAX];

    // Solver settings as the user sees them (mirrored into the world on every change).
    int solver;
    cs_solver_params params;
    bool user_settings; // the user changed them: keep them across R/N/P instead of the scene's

    // What is drawn.
    bool show_contacts, show_normals, show_impulses, show_plot, show_help, show_hud;
    render_color_mode color_mode;
    render_view view;
    bool view_moved; // zoomed or panned by the user: resizes and panel toggles keep the view as it is

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

    app_plot plot;
    app_capture capture;
    app_script script;
    char pending_screenshot[APP_PATH_MAX];
    char final_screenshot[APP_PATH_MAX];
    unsigned char* pixels; // read-back buffer
    size_t pixel_bytes;

    char message[CS_ERROR_MAX]; // transient status line ("saved …")
    double message_until;       // wall time
} app;

extern const double app_speeds[APP_SPEED_COUNT];

// Life cycle (app.c / loop.c) --------------------------------------------------------------------
// Opens the window and GL context, loads the scene (an error there is shown, not fatal) and applies
// the config's overrides. Returns false with err for what makes the viewer unusable (no GL, no shaders,
// bad script), after cleaning up.
bool app_init(app* a, const app_config* config, char* err, size_t err_size);
void app_shutdown(app* a);
// One frame: script actions, events, simulation, drawing, capture, swap.
void app_frame(app* a);
// Runs frames until quit or the frame limit; returns the exit status.
int app_run(app* a);

// Model operations (app.c), used by keys, scripts and tests ------------------------------------------
bool app_load_scene(app* a, const char* path);
void app_reset(app* a);
void app_next_scene(app* a, int direction);
void app_set_solver(app* a, int index);
void app_set_alpha(app* a, double alpha);
// ω of psor, pssor and jacobi, kept in [0.1, 1.9] (inside (0, 2)).
void app_set_relaxation(app* a, double omega);
void app_set_iterations(app* a, int iterations);
void app_set_warm_start(app* a, bool on);
void app_set_show_plot(app* a, bool on);
// Pushes solver, params and history recording into the world; a changed setting starts a new plot curve.
void app_apply_settings(app* a);
// Advances the simulation by dt seconds of wall time (headless: exactly one step unless paused).
void app_advance(app* a, double dt);
// One simulation step with the mouse spring, statistics and plot data.
void app_step(app* a);
void app_fit_view(app* a);
// A short status line shown for a few seconds (and printed in headless mode).
void app_message(app* a, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
double app_now(const app* a);
// snprintf that reports truncation (false) instead of warning about it at compile time.
bool app_format(char* out, size_t size, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// Input (input.c) -------------------------------------------------------------------------------------
typedef struct app_key_help
{
    const char* keys;
    const char* action;
} app_key_help;

const app_key_help* app_key_help_table(int* count);
void app_handle_key(app* a, SDL_Keycode key, Uint16 mod);
void app_handle_event(app* a, const SDL_Event* e);

// Capture actions (capture.c) ------------------------------------------------------------------------
// captures/<scene>-<timestamp><suffix>, creating the directory.
void app_capture_path(app* a, const char* suffix, char* out, size_t out_size);
void app_request_screenshot(app* a, const char* path); // NULL: captures/<scene>-<timestamp>.png
void app_toggle_recording(app* a, const char* path);   // NULL: captures/<scene>-<timestamp>.mp4
void app_dump_lcp(app* a);
// After drawing a frame: pending screenshot and video frame.
void app_capture_frame(app* a);

// HUD (hud.c) ----------------------------------------------------------------------------------------
#define HUD_LINE_MAX  160
#define HUD_MAX_LINES 12
// The HUD's text, one line per entry; returns the line count.
int hud_lines(const app* a, char lines[][HUD_LINE_MAX], int max_lines);
// Width of the plot panel on the right and right edge of the HUD panel (the view fit avoids both).
float hud_plot_width(const app* a);
float hud_panel_right(app* a);
// Draws HUD, plot panel, help overlay, error banner and status line.
void hud_draw(app* a);

#endif
