// Runs a script's timed actions: each is what a key, an option or the panel would do.
#include <string.h>

#include "app/capture_actions.h"
#include "app/duel.h"
#include "app/input.h"
#include "app/script_run.h"

// The scripted drag moves the grab point along its line, one step of it per frame, then lets go.
static void drag_frame(app* a)
{
    app_script* s = &a->script;
    if (!s->dragging)
    {
        return;
    }
    double t = (double)(a->frame - s->drag_start) / (double)s->drag_frames;
    if (t >= 1.0 || a->grab_body < 0)
    {
        app_release_grab(a);
        s->dragging = false;
        return;
    }
    a->grab_target.x = s->drag_from[0] + t * (s->drag_to[0] - s->drag_from[0]);
    a->grab_target.y = s->drag_from[1] + t * (s->drag_to[1] - s->drag_from[1]);
}

// "record FILE" starts a recording unless one runs; "record stop" stops the one that runs.
static void run_record(app* a, const script_action* act)
{
    if (strcmp(act->text, "stop") == 0)
    {
        if (a->capture.recording)
        {
            app_toggle_recording(a, NULL);
        }
    }
    else if (!a->capture.recording)
    {
        app_toggle_recording(a, act->text);
    }
}

// "compare off" ends the panes; "compare A,B[,…]" starts them, or says why not and fails the run.
static void run_compare(app* a, const script_action* act)
{
    int solvers[APP_MAX_PANES], count = 0;
    char err[CS_ERROR_MAX];
    if (strcmp(act->text, "off") == 0)
    {
        app_end_panes(a);
        app_request_fit(a);
    }
    else if (!duel_parse(act->text, solvers, &count, err, sizeof err))
    {
        app_message(a, "%s:%d: %s", a->script.path, act->line, err);
        a->exit_status = 1;
    }
    else if (!duel_start(a, solvers, count)) // (its own message says why; this one says where)
    {
        app_message(a, "%s:%d: compare %s: the duel could not start", a->script.path, act->line, act->text);
        a->exit_status = 1;
    }
}

// A drag grabs the circle at its start; drag_frame moves the grab over the following frames. A drag that
// finds no circle at its start does nothing (as a click on empty space).
static void start_drag(app* a, const script_action* act)
{
    app_script* s = &a->script;
    s->dragging = app_grab_at(a, (cs_vec2){act->values[0], act->values[1]});
    s->drag_start = a->frame;
    s->drag_frames = (int64_t)act->values[4];
    s->drag_from[0] = act->values[0];
    s->drag_from[1] = act->values[1];
    s->drag_to[0] = act->values[2];
    s->drag_to[1] = act->values[3];
}

// One action, as the key or the setting it stands for.
static void run_action(app* a, const script_action* act)
{
    switch (act->kind)
    {
        case SCRIPT_KEY:
            app_handle_key(a, act->key, (Uint16)act->mod);
            break;
        case SCRIPT_SOLVER:
            app_set_solver(a, cs_solver_find(act->text));
            break;
        case SCRIPT_ALPHA:
            app_set_alpha(a, act->value);
            break;
        case SCRIPT_ITERATIONS:
            app_set_iterations(a, (int)act->value);
            break;
        case SCRIPT_WARM_START:
            app_set_warm_start(a, act->value != 0.0);
            break;
        case SCRIPT_PAUSE:
            a->paused = true;
            break;
        case SCRIPT_RESUME:
            a->paused = false;
            break;
        case SCRIPT_SCREENSHOT:
            app_request_screenshot(a, act->text);
            break;
        case SCRIPT_RECORD:
            run_record(a, act);
            break;
        case SCRIPT_SCENE:
            app_load_scene(a, act->text);
            break;
        case SCRIPT_COMPARE:
            run_compare(a, act);
            break;
        case SCRIPT_CSV:
            app_export_plots(a, act->text);
            break;
        case SCRIPT_SPAWN:
            app_spawn_circle(a, (cs_vec2){act->values[0], act->values[1]});
            break;
        case SCRIPT_DRAG:
            start_drag(a, act);
            break;
        case SCRIPT_SAVE_STATE:
            app_save_state(a, act->text);
            break;
        case SCRIPT_LOAD_STATE:
            app_load_state(a, act->text);
            break;
        case SCRIPT_QUIT:
            a->quit = true;
            break;
    }
}

// The actions due by this frame in file order, then this frame's step of a running drag.
void script_run_due(app* a)
{
    app_script* s = &a->script;
    while (s->next < s->count && s->actions[s->next].frame <= a->frame)
    {
        run_action(a, &s->actions[s->next++]);
    }
    drag_frame(a);
}
