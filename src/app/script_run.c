// Runs a script's timed actions: each is what a key, an option or the panel would do.
#include <string.h>

#include "app/capture_actions.h"
#include "app/duel.h"
#include "app/input.h"
#include "app/script_run.h"

void script_run_due(app* a)
{
    app_script* s = &a->script;
    while (s->next < s->count && s->actions[s->next].frame <= a->frame)
    {
        const script_action* act = &s->actions[s->next++];
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
                break;
            case SCRIPT_SCENE:
                app_load_scene(a, act->text);
                break;
            case SCRIPT_COMPARE:
            {
                int solvers[APP_MAX_PANES], count = 0;
                char err[CS_ERROR_MAX];
                if (strcmp(act->text, "off") == 0)
                {
                    app_end_panes(a);
                    app_request_fit(a);
                }
                else if (!duel_parse(act->text, solvers, &count, err, sizeof err) ||
                         !duel_start(a, solvers, count))
                {
                    app_message(a, "%s:%d: %s", a->script.path, act->line, err);
                    a->exit_status = 1;
                }
                break;
            }
            case SCRIPT_CSV:
                app_export_plots(a, act->text);
                break;
            case SCRIPT_QUIT:
                a->quit = true;
                break;
        }
    }
}
