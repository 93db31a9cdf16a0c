// circlesim viewer — scripted runs: a text file of timed actions, one per line,
//   at FRAME ACTION [ARGUMENT]      (# starts a comment; FRAME counts from 0)
// with ACTION one of: key NAME (an SDL key name: c, space, tab, f12, shift+tab, …), solver NAME,
// alpha A, iterations K, warmstart on|off, pause, resume, screenshot FILE.png, record FILE.mp4
// (starts; `record stop` stops), scene FILE, compare S1,S2[,…] (a duel; `compare off` ends it),
// csv FILE.csv (the plotted series), spawn X,Y (a circle at a world point, as Shift+click), drag
// X0,Y0,X1,Y1,FRAMES (grab the circle at X0,Y0 with the mouse spring and move the grab point to X1,Y1
// over FRAMES frames, then let go), save-state FILE.json / load-state FILE.json (snapshots, as F5 / F8),
// quit. Actions run at the start of their frame, before its simulation step, in file order. Errors name
// FILE:LINE. Parsing only: script_run.h runs them.
#ifndef CS_APP_SCRIPT_H
#define CS_APP_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum script_kind
{
    SCRIPT_KEY,
    SCRIPT_SOLVER,
    SCRIPT_ALPHA,
    SCRIPT_ITERATIONS,
    SCRIPT_WARM_START,
    SCRIPT_PAUSE,
    SCRIPT_RESUME,
    SCRIPT_SCREENSHOT,
    SCRIPT_RECORD,
    SCRIPT_SCENE,
    SCRIPT_QUIT,
    SCRIPT_COMPARE, // compare pgs,amgs: start a duel (compare off: end it)
    SCRIPT_CSV,     // csv FILE.csv: export the plotted series
    SCRIPT_SPAWN,   // spawn X,Y: values[0..1]
    SCRIPT_DRAG,    // drag X0,Y0,X1,Y1,FRAMES: values[0..4]
    SCRIPT_SAVE_STATE,
    SCRIPT_LOAD_STATE,
} script_kind;

typedef struct script_action
{
    int64_t frame;
    script_kind kind;
    int line;
    int key;          // SDL_Keycode for SCRIPT_KEY
    unsigned mod;     // SDL key modifiers for SCRIPT_KEY
    double value;     // alpha, iterations, on/off
    double values[5]; // spawn and drag: world coordinates (and the drag's frame count)
    char text[1024];  // solver name, file name
} script_action;

typedef struct app_script
{
    script_action* actions;
    int count;
    int next; // first action not yet run (actions are sorted by frame, stable)
    // The drag in progress (SCRIPT_DRAG): the grab point moves from..to over frames [start, start + frames).
    bool dragging;
    int64_t drag_start, drag_frames;
    double drag_from[2], drag_to[2];
    char path[1024];
} app_script;

// Parses a script file; on error err holds "FILE:LINE: message".
bool script_load(app_script* s, const char* path, char* err, size_t err_size);
void script_free(app_script* s);
// Warns (stderr) about actions at or after frame_limit, which will never run.
void script_check_limit(const app_script* s, int frame_limit);

#endif
