#include "app/script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <SDL.h>

#include "app/format.h"
#include "app/limits.h"
#include "circlesim/circlesim.h"

static const struct
{
    const char* name;
    script_kind kind;
    bool needs_argument;
} verbs[] = {
    {"key", SCRIPT_KEY, true},
    {"solver", SCRIPT_SOLVER, true},
    {"alpha", SCRIPT_ALPHA, true},
    {"iterations", SCRIPT_ITERATIONS, true},
    {"warmstart", SCRIPT_WARM_START, true},
    {"pause", SCRIPT_PAUSE, false},
    {"resume", SCRIPT_RESUME, false},
    {"screenshot", SCRIPT_SCREENSHOT, true},
    {"record", SCRIPT_RECORD, true},
    {"scene", SCRIPT_SCENE, true},
    {"quit", SCRIPT_QUIT, false},
    {"compare", SCRIPT_COMPARE, true},
    {"csv", SCRIPT_CSV, true},
    {"spawn", SCRIPT_SPAWN, true},
    {"drag", SCRIPT_DRAG, true},
    {"save-state", SCRIPT_SAVE_STATE, true},
    {"load-state", SCRIPT_LOAD_STATE, true},
};
#define VERB_COUNT ((int)(sizeof verbs / sizeof verbs[0]))

static int compare_actions(const void* a, const void* b)
{
    const script_action* x = a;
    const script_action* y = b;
    if (x->frame != y->frame)
    {
        return x->frame < y->frame ? -1 : 1;
    }
    return x->line - y->line; // file order within a frame
}

// Parses "shift+tab", "ctrl+r", "c", "space", "f12" into an SDL keycode and modifiers.
static bool parse_key(const char* text, script_action* act)
{
    act->mod = KMOD_NONE;
    for (;;)
    {
        if (strncasecmp(text, "shift+", 6) == 0 && text[6] != '\0')
        {
            act->mod |= KMOD_LSHIFT;
            text += 6;
        }
        else if (strncasecmp(text, "ctrl+", 5) == 0 && text[5] != '\0')
        {
            act->mod |= KMOD_LCTRL;
            text += 5;
        }
        else
        {
            break;
        }
    }
    SDL_Keycode key = SDL_GetKeyFromName(text);
    if (key == SDLK_UNKNOWN && strlen(text) == 1)
    {
        key = (SDL_Keycode)tolower((unsigned char)text[0]);
    }
    act->key = key;
    return key != SDLK_UNKNOWN;
}

// "X,Y" (spawn) or "X0,Y0,X1,Y1,FRAMES" (drag) into act->values.
static bool parse_numbers(const char* arg, script_action* act)
{
    int want = act->kind == SCRIPT_SPAWN ? 2 : 5;
    const char* p = arg;
    for (int k = 0; k < want; ++k)
    {
        char* end = NULL;
        errno = 0;
        act->values[k] = strtod(p, &end);
        if (errno != 0 || end == p || !isfinite(act->values[k]) || *end != (k + 1 < want ? ',' : '\0'))
        {
            return false;
        }
        p = end + 1;
    }
    double frames = act->values[4];
    return act->kind == SCRIPT_SPAWN || (frames >= 1.0 && frames <= 1e9 && frames == floor(frames));
}

// "at FRAME ACTION [ARGUMENT]" into its words (words[3] NULL without an argument) and the frame.
static bool split_line(char* line, int line_no, const char* path, char* words[4], long long* frame, char* err,
                       size_t err_size)
{
    int count = 0;
    for (char* tok = strtok(line, " \t\r\n"); tok != NULL && count < 4; tok = strtok(NULL, " \t\r\n"))
    {
        words[count++] = tok;
    }
    if (count < 3 || strcmp(words[0], "at") != 0)
    {
        app_format(err, err_size, "%s:%d: expected 'at FRAME ACTION [ARGUMENT]'", path, line_no);
        return false;
    }
    if (count > 3 && strtok(NULL, " \t\r\n") != NULL)
    {
        app_format(err, err_size, "%s:%d: too many words", path, line_no);
        return false;
    }
    char* end = NULL;
    errno = 0;
    *frame = strtoll(words[1], &end, 10);
    if (errno != 0 || *end != '\0' || *frame < 0)
    {
        app_format(err, err_size, "%s:%d: frame '%s' is not a non-negative integer", path, line_no, words[1]);
        return false;
    }
    return true;
}

// The verb's index in verbs[], or VERB_COUNT for none.
static int find_verb(const char* name)
{
    int v = 0;
    while (v < VERB_COUNT && strcmp(verbs[v].name, name) != 0)
    {
        v++;
    }
    return v;
}

// compare's argument: "off" or 2 to 4 comma-separated registered solvers.
static bool check_compare(const char* arg, int line_no, const char* path, char* err, size_t err_size)
{
    if (strcmp(arg, "off") == 0)
    {
        return true;
    }
    char names[1024];
    app_format(names, sizeof names, "%s", arg);
    int count = 0;
    for (char *save = NULL, *name = strtok_r(names, ",", &save); name != NULL;
         name = strtok_r(NULL, ",", &save), ++count)
    {
        if (cs_solver_find(name) < 0)
        {
            app_format(err, err_size, "%s:%d: compare: unknown solver '%s' (known: %s)", path, line_no, name,
                       cs_solver_names());
            return false;
        }
    }
    if (count < 2 || count > 4)
    {
        app_format(err, err_size, "%s:%d: compare takes 2 to 4 comma-separated solvers, or off", path,
                   line_no);
        return false;
    }
    return true;
}

// The argument of act->kind's verb (named verb in messages), checked and parsed into act.
static bool parse_argument(const char* verb, const char* arg, int line_no, const char* path,
                           script_action* act, char* err, size_t err_size)
{
    char* end = NULL;
    switch (act->kind)
    {
        case SCRIPT_KEY:
            if (!parse_key(arg, act))
            {
                app_format(err, err_size, "%s:%d: unknown key name '%s'", path, line_no, arg);
                return false;
            }
            break;
        case SCRIPT_COMPARE:
            return check_compare(arg, line_no, path, err, err_size);
        case SCRIPT_SOLVER:
            if (cs_solver_find(arg) < 0)
            {
                app_format(err, err_size, "%s:%d: unknown solver '%s' (known: %s)", path, line_no, arg,
                           cs_solver_names());
                return false;
            }
            break;
        case SCRIPT_ALPHA:
        case SCRIPT_ITERATIONS:
            errno = 0;
            act->value = strtod(arg, &end);
            if (errno != 0 || *end != '\0' || !isfinite(act->value) || act->value <= 0.0 ||
                (act->kind == SCRIPT_ALPHA && act->value > APP_ALPHA_MAX) ||
                (act->kind == SCRIPT_ITERATIONS &&
                 (act->value != floor(act->value) || act->value > APP_MAX_ITERATIONS)))
            {
                app_format(err, err_size, "%s:%d: bad %s '%s' (%s)", path, line_no, verb, arg,
                           act->kind == SCRIPT_ALPHA ? "0 < alpha <= 2" : "an integer in 1..4096");
                return false;
            }
            break;
        case SCRIPT_SPAWN:
        case SCRIPT_DRAG:
            if (!parse_numbers(arg, act))
            {
                app_format(err, err_size, "%s:%d: %s takes %s (finite numbers%s), not '%s'", path, line_no,
                           verb, act->kind == SCRIPT_SPAWN ? "X,Y" : "X0,Y0,X1,Y1,FRAMES",
                           act->kind == SCRIPT_DRAG ? "; FRAMES an integer >= 1" : "", arg);
                return false;
            }
            break;
        case SCRIPT_WARM_START:
            if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
            {
                app_format(err, err_size, "%s:%d: warmstart takes on or off, not '%s'", path, line_no, arg);
                return false;
            }
            act->value = strcmp(arg, "on") == 0 ? 1.0 : 0.0;
            break;
        default:
            break;
    }
    return true;
}

// One script line: split into words, find the verb, check the argument's presence, parse the argument.
static bool parse_line(char* line, int line_no, const char* path, script_action* act, char* err,
                       size_t err_size)
{
    char* words[4] = {NULL, NULL, NULL, NULL};
    long long frame = 0;
    if (!split_line(line, line_no, path, words, &frame, err, err_size))
    {
        return false;
    }
    *act = (script_action){.frame = frame, .line = line_no};
    int v = find_verb(words[2]);
    if (v == VERB_COUNT)
    {
        app_format(err, err_size,
                   "%s:%d: unknown action '%s' (key, solver, alpha, iterations, warmstart, pause, resume, "
                   "screenshot, record, scene, compare, csv, spawn, drag, save-state, load-state, quit)",
                   path, line_no, words[2]);
        return false;
    }
    act->kind = verbs[v].kind;
    const char* arg = words[3];
    if (verbs[v].needs_argument != (arg != NULL))
    {
        app_format(err, err_size, "%s:%d: '%s' %s", path, line_no, words[2],
                   verbs[v].needs_argument ? "needs an argument" : "takes no argument");
        return false;
    }
    if (arg == NULL)
    {
        return true;
    }
    app_format(act->text, sizeof act->text, "%s", arg);
    return parse_argument(words[2], arg, line_no, path, act, err, err_size);
}

bool script_load(app_script* s, const char* path, char* err, size_t err_size)
{
    *s = (app_script){0};
    app_format(s->path, sizeof s->path, "%s", path);
    FILE* f = fopen(path, "r");
    if (f == NULL)
    {
        app_format(err, err_size, "%s: cannot open script: %s", path, strerror(errno));
        return false;
    }
    char line[2048];
    int line_no = 0;
    int capacity = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != NULL)
    {
        line_no++;
        char* hash = strchr(line, '#');
        if (hash != NULL)
        {
            *hash = '\0';
        }
        char* p = line;
        while (isspace((unsigned char)*p))
        {
            p++;
        }
        if (*p == '\0')
        {
            continue;
        }
        if (s->count == capacity)
        {
            capacity = capacity == 0 ? 16 : 2 * capacity;
            script_action* grown = realloc(s->actions, (size_t)capacity * sizeof *grown);
            if (grown == NULL)
            {
                app_format(err, err_size, "%s:%d: out of memory", path, line_no);
                ok = false;
                break;
            }
            s->actions = grown;
        }
        ok = parse_line(p, line_no, path, &s->actions[s->count], err, err_size);
        if (ok)
        {
            s->count++;
        }
    }
    fclose(f);
    if (!ok)
    {
        script_free(s);
        return false;
    }
    qsort(s->actions, (size_t)s->count, sizeof s->actions[0], compare_actions);
    return true;
}

void script_free(app_script* s)
{
    free(s->actions);
    *s = (app_script){0};
}

void script_check_limit(const app_script* s, int frame_limit)
{
    for (int i = 0; i < s->count && frame_limit > 0; ++i)
    {
        if (s->actions[i].frame >= frame_limit)
        {
            fprintf(
                stderr, "circlesim: %s:%d: frame %lld is not reached with --frames %d (frames are 0..%d)\n",
                s->path, s->actions[i].line, (long long)s->actions[i].frame, frame_limit, frame_limit - 1);
        }
    }
}
