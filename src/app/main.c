// circlesim — the interactive viewer. `circlesim [SCENE]` opens a window on the scene (Pool 1 by
// default); `--headless --frames N` renders the same frames off-screen for scripts, demos and tests.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/duel.h"
#include "app/input.h"
#include "app/loop.h"

static void usage(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim [options] [SCENE]\n"
        "  SCENE                 scene file, or a name in scenes/ (default: scenes/pool1.json)\n"
        "  --headless            render off-screen (SDL offscreen driver unless SDL_VIDEODRIVER is set),\n"
        "                        one simulation step per frame\n"
        "  --frames N            quit after N frames (headless default: 300)\n"
        "  --size WxH            window size in points (default 1280x800)\n"
        "  --solver NAME         solver (%s)\n"
        "  --alpha A             AMGS alpha in (0, 2]\n"
        "  --iterations K        iterations per step\n"
        "  --screenshot FILE.png write the last frame as PNG\n"
        "  --record FILE.mp4     record every frame (needs ffmpeg; else PNG frames)\n"
        "  --script FILE         timed actions: 'at FRAME key c', 'at 120 solver amgs', 'at 120 alpha 0.2',\n"
        "                        'at 300 screenshot x.png', iterations K, warmstart on|off, pause, resume,\n"
        "                        record FILE|stop, scene FILE, compare S1,S2, csv FILE, spawn X,Y,\n"
        "                        drag X0,Y0,X1,Y1,FRAMES, save-state FILE, load-state FILE, quit\n"
        "  --capture-dir DIR     where F12/F9/L write (default: captures)\n"
        "  --data-dir DIR        where shaders/, assets/ and scenes/ are (default: the source tree)\n"
        "  --ui-scale S          size of HUD, plot and text (0.5..4, default 1; HiDPI is automatic)\n"
        "  --state-in FILE       start from a snapshot (F5 or `circlesim-cli run --state-out`) instead of a\n"
        "                        scene; with --compare the duel forks from it\n"
        "  --compare S1,S2[,…]   duel: 2-4 solvers side by side in lockstep from the same state\n"
        "                        (a window on the default scene starts with pgs,amgs)\n"
        "  --hud-timings         show wall-clock numbers (step/solver ms, FPS) in the HUD and so in\n"
        "                        captures (off: the same script makes the same pixels)\n"
        "  --help                this text and the keys\n",
        cs_solver_names());
    int count;
    const app_key_help* keys = app_key_help_table(&count);
    fprintf(out, "keys and mouse:\n");
    for (int i = 0; i < count; ++i)
    {
        fprintf(out, "  %-18s %s\n", keys[i].keys, keys[i].action);
    }
}

static bool parse_int(const char* s, int lo, int hi, int* out)
{
    char* end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    {
        return false;
    }
    *out = (int)v;
    return true;
}

// The field of an option whose value is taken as given (a file, a folder, a solver list checked later), or
// NULL.
static const char** plain_option(app_config* c, const char* arg)
{
    return strcmp(arg, "--screenshot") == 0    ? &c->screenshot
           : strcmp(arg, "--record") == 0      ? &c->record
           : strcmp(arg, "--script") == 0      ? &c->script
           : strcmp(arg, "--state-in") == 0    ? &c->state_in
           : strcmp(arg, "--capture-dir") == 0 ? &c->capture_dir
           : strcmp(arg, "--data-dir") == 0    ? &c->data_dir
                                               : NULL;
}

// An option whose value is checked here: 1 taken, 0 not one of them, 2 a bad value (message printed).
static int checked_option(app_config* c, const char* arg, const char* value)
{
    if (strcmp(arg, "--frames") == 0)
    {
        if (!parse_int(value, 1, 100000000, &c->frames))
        {
            fprintf(stderr, "circlesim: --frames '%s' is not a positive integer\n", value);
            return 2;
        }
    }
    else if (strcmp(arg, "--size") == 0)
    {
        char tail;
        if (sscanf(value, "%dx%d%c", &c->width, &c->height, &tail) != 2 || c->width < 16 || c->height < 16 ||
            c->width > 16384 || c->height > 16384)
        {
            fprintf(stderr, "circlesim: --size '%s' is not WxH (16..16384)\n", value);
            return 2;
        }
    }
    else if (strcmp(arg, "--solver") == 0)
    {
        if (cs_solver_find(value) < 0)
        {
            fprintf(stderr, "circlesim: --solver '%s' is not a solver (known: %s)\n", value,
                    cs_solver_names());
            return 2;
        }
        c->solver = value;
    }
    else if (strcmp(arg, "--alpha") == 0)
    {
        char* end = NULL;
        c->alpha = strtod(value, &end);
        if (end == value || *end != '\0' || !(c->alpha > 0.0 && c->alpha <= APP_ALPHA_MAX))
        {
            fprintf(stderr, "circlesim: --alpha '%s' is not in (0, 2]\n", value);
            return 2;
        }
    }
    else if (strcmp(arg, "--iterations") == 0)
    {
        if (!parse_int(value, APP_MIN_ITERATIONS, APP_MAX_ITERATIONS, &c->iterations))
        {
            fprintf(stderr, "circlesim: --iterations '%s' is not an integer in 1..%d\n", value,
                    APP_MAX_ITERATIONS);
            return 2;
        }
    }
    else if (strcmp(arg, "--compare") == 0)
    {
        int solvers[APP_MAX_PANES], count = 0;
        char err[CS_ERROR_MAX];
        if (!duel_parse(value, solvers, &count, err, sizeof err))
        {
            fprintf(stderr, "circlesim: %s\n", err);
            return 2;
        }
        c->compare = value;
    }
    else if (strcmp(arg, "--ui-scale") == 0)
    {
        char* end = NULL;
        c->ui_scale = strtod(value, &end);
        if (end == value || *end != '\0' || !(c->ui_scale >= 0.5 && c->ui_scale <= 4.0))
        {
            fprintf(stderr, "circlesim: --ui-scale '%s' is not in 0.5..4\n", value);
            return 2;
        }
    }
    else
    {
        return 0;
    }
    return 1;
}

// Returns 0 to run, 1 for --help, 2 for a usage error (message printed).
static int parse_args(int argc, char** argv, app_config* c)
{
    c->alpha = NAN;
    for (int i = 1; i < argc; ++i)
    {
        const char* arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        {
            return 1;
        }
        if (strcmp(arg, "--headless") == 0 || strcmp(arg, "--hud-timings") == 0)
        {
            *(strcmp(arg, "--headless") == 0 ? &c->headless : &c->hud_timings) = true;
            continue;
        }
        if (arg[0] == '-' && arg[1] == '-' && value == NULL)
        {
            fprintf(stderr, "circlesim: %s needs a value (see --help)\n", arg);
            return 2;
        }
        const char** plain = plain_option(c, arg);
        int checked = plain != NULL ? 1 : checked_option(c, arg, value);
        if (plain != NULL)
        {
            *plain = value;
        }
        if (checked == 2)
        {
            return 2;
        }
        if (checked == 1)
        {
            i++; // the value
        }
        else if (arg[0] == '-' && arg[1] != '\0')
        {
            fprintf(stderr, "circlesim: unknown option '%s' (see --help)\n", arg);
            return 2;
        }
        else if (c->scene != NULL)
        {
            fprintf(stderr, "circlesim: one scene only ('%s' and '%s')\n", c->scene, arg);
            return 2;
        }
        else
        {
            c->scene = arg;
        }
    }
    if (c->state_in != NULL && c->scene != NULL)
    {
        fprintf(stderr, "circlesim: --state-in replaces SCENE ('%s' and '%s')\n", c->state_in, c->scene);
        return 2;
    }
    if (c->headless && c->frames == 0)
    {
        c->frames = 300;
    }
    return 0;
}

int main(int argc, char** argv)
{
    app_config config = {0};
    int parsed = parse_args(argc, argv, &config);
    if (parsed == 1)
    {
        usage(stdout);
        return 0;
    }
    if (parsed != 0)
    {
        return parsed;
    }
    static app a;
    char err[CS_ERROR_MAX] = "";
    if (!app_init(&a, &config, err, sizeof err))
    {
        fprintf(stderr, "circlesim: %s\n", err);
        return 1;
    }
    app_run(&a);
    if (a.headless)
    {
        // One line for scripts and tests: where the run ended and how to reproduce it bit for bit.
        const cs_solver_info* info = cs_solver_at(a.solver);
        printf("circlesim: scene %s frames %lld steps %lld solver %s alpha %.17g iterations %d warm_start %s "
               "hash %016llx%s\n",
               a.world != NULL ? a.info.name : "(none)", (long long)a.frame,
               a.world != NULL ? (long long)cs_world_stats(a.world)->step : 0LL,
               info != NULL ? info->name : "?", a.params.alpha, a.params.iterations,
               a.params.warm_start ? "on" : "off",
               a.world != NULL ? (unsigned long long)cs_world_hash(a.world) : 0ULL,
               a.error[0] != '\0' ? " (scene error)" : "");
        // A duel's further panes, one line each, with the hash `circlesim-cli run` gives for that solver.
        for (int i = 1; i < a.pane_count; ++i)
        {
            const cs_solver_params* p = app_pane_params(&a, i);
            printf("circlesim: pane %d solver %s alpha %.17g iterations %d warm_start %s hash %016llx\n",
                   i + 1, cs_solver_at(app_pane_solver(&a, i))->name, p->alpha, p->iterations,
                   p->warm_start ? "on" : "off", (unsigned long long)cs_world_hash(app_pane_world(&a, i)));
        }
    }
    app_shutdown(&a); // stops a recording: ffmpeg's exit status lands in exit_status
    return a.exit_status;
}
