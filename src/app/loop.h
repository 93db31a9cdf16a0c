// circlesim viewer — the life cycle: window and GL context, one frame (script, events, simulation,
// drawing, capture, swap), shutdown. main.c and the tests start the viewer here.
#ifndef CS_APP_LOOP_H
#define CS_APP_LOOP_H

#include "app/app.h"

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
    const char* compare;    // "pgs,amgs": start a duel of these solvers (duel.h)
    const char* state_in;   // a snapshot to start from instead of a scene (app_load_state)
    bool hud_timings;       // wall-clock numbers in the HUD (off: captures are reproducible)
} app_config;

// Opens the window and GL context, loads the scene (an error there is shown, not fatal) and applies
// the config's overrides. Returns false with err for what makes the viewer unusable (no GL, no shaders,
// bad script), after cleaning up.
bool app_init(app* a, const app_config* config, char* err, size_t err_size);
void app_shutdown(app* a);
// One frame: script actions, events, simulation, drawing, capture, swap.
void app_frame(app* a);
// Runs frames until quit or the frame limit; returns the exit status.
int app_run(app* a);

#endif
