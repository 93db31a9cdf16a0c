// circlesim-cli run: step a scene headless and report what happened.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"

#define MAX_DUMPS 64

typedef struct dump_request
{
    long step;
    const char* path;
} dump_request;

static void help(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-cli run SCENE [options]\n"
        "       circlesim-cli run --state-in SNAPSHOT --steps N [options]\n"
        "Runs SCENE (a scenes/*.json file) headless and prints a summary.\n"
        "  --steps N           number of steps (default: the scene's \"steps\")\n"
        "%s"
        "%s"
        "  --frictionless      no friction rows\n" CS_ARG_ROW_ORDER_HELP CS_ARG_FORMULATION_HELP
        "  --csv FILE          one row per step: step,time,bodies,contacts,rows,iterations,res_lcp,res_nat,\n"
        "                      max_penetration,mean_penetration,kinetic_energy,max_speed,broadphase_us,\n"
        "                      narrowphase_us,solver_us,position_us,step_us,solve_stop,begin_events,\n"
        "                      end_events,hit_events,awake,position_sweeps\n"
        "  --state-out FILE    a snapshot of the final state (JSON; docs/RELIABILITY.md): resumes bit for "
        "bit\n"
        "  --state-in FILE     start from a snapshot instead of a SCENE (needs --steps: how many more)\n"
        "  --dump-lcp STEP:FILE  write the velocity LCP of step STEP (1-based) to FILE; repeatable\n"
        "  --quiet             no summary\n"
        "--csv -: the CSV on standard output (the summary then goes to stderr).\n",
        cs_arg_solver_help(), CS_ARG_SUBSPACE_HELP);
}

// What the command line asked for.
typedef struct run_options
{
    const char* scene;
    const char* csv_path;
    const char* state_path;
    const char* state_in;
    long steps; // -1: the scene's
    bool quiet;
    int solver;                     // -1: the scene's
    cs_world_options world_options; // (--no-simd is a solver option here)
    cs_solver_params overrides;     // solver options, applied on top of the scene's settings ...
    unsigned given;                 // ... for the method parameters given (CS_SOLVER_USES_*)
    bool params_touched;            // any solver option given
    bool iterations_given;          // --iterations (not a method parameter: every solver reads it)
    dump_request dumps[MAX_DUMPS];
    int dump_count;
} run_options;

// What the steps add up to, for the summary.
typedef struct run_totals
{
    double step_seconds, solver_seconds, worst_penetration, rows;
    bool finite;
} run_totals;

// --dump-lcp STEP:FILE; false (with the message) when v is not that or there are too many.
static bool parse_dump(const char* v, run_options* o)
{
    const char* colon = strchr(v, ':');
    char* end = NULL;
    errno = 0;
    long s = colon ? strtol(v, &end, 10) : 0;
    if (colon == NULL || end != colon || errno != 0 || s < 1 || s > 1000000000 || colon[1] == '\0' ||
        o->dump_count == MAX_DUMPS)
    {
        fprintf(stderr,
                "circlesim-cli run: --dump-lcp: expected STEP:FILE with STEP in [1, 1000000000] (at most "
                "%d), got '%s'\n",
                MAX_DUMPS, v);
        return false;
    }
    o->dumps[o->dump_count].step = s;
    o->dumps[o->dump_count].path = colon + 1;
    o->dump_count += 1;
    return true;
}

// The run's own options (the solver, subspace and world options are args.c's). 1: taken, 0: not one of
// them, -1: a bad value (the message is printed).
static int parse_run_option(const char* cmd, int argc, char** argv, int* i, run_options* o)
{
    const char* a = argv[*i];
    const char* v;
    if (strcmp(a, "--steps") == 0)
    {
        int n;
        if (!cs_arg_next_int(cmd, argc, argv, i, 0, 1000000000, &n))
        {
            return -1;
        }
        o->steps = n;
        return 1;
    }
    if (strcmp(a, "--quiet") == 0)
    {
        o->quiet = true;
        return 1;
    }
    const char** value = strcmp(a, "--csv") == 0         ? &o->csv_path
                         : strcmp(a, "--state-out") == 0 ? &o->state_path
                         : strcmp(a, "--state-in") == 0  ? &o->state_in
                                                         : NULL;
    if (value != NULL)
    {
        return (*value = cs_arg_value(cmd, argc, argv, i)) != NULL ? 1 : -1;
    }
    if (strcmp(a, "--dump-lcp") == 0)
    {
        return (v = cs_arg_value(cmd, argc, argv, i)) != NULL && parse_dump(v, o) ? 1 : -1;
    }
    return 0;
}

// Parses the command line into o; false when the command ends here with *exit_code (0 after --help).
static bool parse_options(const char* cmd, int argc, char** argv, run_options* o, int* exit_code)
{
    *exit_code = 2;
    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        if (cs_arg_is_help(a))
        {
            help(stdout);
            *exit_code = 0;
            return false;
        }
        int r = cs_arg_solver_option(cmd, argc, argv, &i, &o->solver, &o->overrides, &o->given);
        if (r == 0)
        {
            r = cs_arg_subspace_option(cmd, argc, argv, &i, &o->overrides, &o->given);
        }
        if (r > 0)
        {
            o->params_touched = true;
            o->iterations_given |= strcmp(a, "--iterations") == 0;
            continue;
        }
        if (r == 0 && strcmp(a, "--steps") != 0)
        {
            r = cs_arg_world_option(cmd, argc, argv, &i, &o->world_options);
        }
        if (r == 0)
        {
            r = parse_run_option(cmd, argc, argv, &i, o);
        }
        if (r < 0 || (r == 0 && !cs_arg_scene(cmd, a, &o->scene, true)))
        {
            return false;
        }
    }
    if (o->state_in != NULL && (o->scene != NULL || o->steps < 0))
    {
        fprintf(stderr,
                "circlesim-cli run: --state-in replaces SCENE and needs --steps N (how many more steps)\n");
        return false;
    }
    if (o->scene == NULL && o->state_in == NULL)
    {
        fprintf(stderr, "circlesim-cli run: no scene given\n");
        help(stderr);
        return false;
    }
    const char* outputs[2 + MAX_DUMPS] = {o->csv_path, o->state_path};
    const char* output_options[2 + MAX_DUMPS] = {"--csv", "--state-out"};
    for (int d = 0; d < o->dump_count; ++d)
    {
        outputs[2 + d] = o->dumps[d].path;
        output_options[2 + d] = "--dump-lcp";
    }
    return cs_cli_named_files(cmd, output_options + 1, outputs + 1, 1 + o->dump_count) &&
           cs_cli_distinct_outputs(cmd, output_options, outputs, 2 + o->dump_count);
}

// Only options actually given override the scene's solver settings: an option equal to the default still
// overrides a scene that sets another value.
static void apply_solver_overrides(cs_world* w, const run_options* o)
{
    cs_solver_params params = *cs_world_solver_params(w);
    if (o->params_touched)
    {
        const cs_solver_params* overrides = &o->overrides;
        unsigned given = o->given;
        if (o->iterations_given)
            params.iterations = overrides->iterations;
        if (given & CS_SOLVER_USES_ALPHA)
            params.alpha = overrides->alpha;
        if (given & CS_SOLVER_USES_GAMMA)
            params.gamma = overrides->gamma;
        if (given & CS_SOLVER_USES_RELAXATION)
            params.relaxation = overrides->relaxation;
        if (overrides->amgs_literal)
            params.amgs_literal = true;
        if (!overrides->warm_start)
            params.warm_start = false;
        if (!overrides->simd)
            params.simd = false;
        if (given & CS_SOLVER_USES_KGS)
            params.kgs = overrides->kgs;
        if (given & CS_SOLVER_USES_KSM)
            params.ksm = overrides->ksm;
        if (given & CS_SOLVER_USES_SUBSPACE)
            params.subspace_solver = overrides->subspace_solver;
        cs_world_set_solver_params(w, &params);
    }
    if (o->solver >= 0)
    {
        cs_world_set_solver(w, o->solver);
    }
}

// The scene (or snapshot) with the options applied; NULL when the command ends here with *exit_code. A
// snapshot names the run in messages and the summary (o->scene) and its info.
static cs_world* open_world(const char* cmd, run_options* o, cs_scene_info* info, int* exit_code)
{
    cs_error err = {CS_OK, ""};
    memset(info, 0, sizeof *info);
    cs_world* w =
        o->state_in != NULL ? cs_world_load_state(o->state_in, &err) : cs_scene_load(o->scene, info, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        *exit_code = 1;
        return NULL;
    }
    if (o->state_in != NULL)
    {
        o->scene = o->state_in;
        snprintf(info->name, sizeof info->name, "snapshot");
    }
    cs_cli_print_warnings(info);
    apply_solver_overrides(w, o);
    int chosen = cs_world_solver(w); // --solver, else the scene's
    *exit_code = 2;
    if (!cs_arg_check_solver_use(cmd, o->given, &chosen, 1))
    {
        cs_world_destroy(w);
        return NULL;
    }
    if (o->iterations_given && (cs_solver_at(chosen)->flags & CS_SOLVER_PIVOTING))
    {
        fprintf(
            stderr,
            "circlesim-cli %s: --iterations does nothing for the pivoting method %s (each solve runs to its "
            "answer in one iteration)\n",
            cmd, cs_solver_at(chosen)->name);
        cs_world_destroy(w);
        return NULL;
    }
    cs_world_options_apply(w, &o->world_options);
    if (o->steps < 0)
    {
        o->steps = info->steps;
    }
    return w;
}

static void write_csv_row(FILE* csv, cs_world* w)
{
    const cs_step_stats* st = cs_world_stats(w);
    cs_contact_events ev = cs_world_contact_events(w);
    fprintf(csv,
            "%lld,%.6f,%d,%d,%d,%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%d,%d,%"
            "d,%d,%d\n",
            (long long)st->step, st->time, st->bodies, st->contacts, st->rows, st->iterations, st->res_lcp,
            st->res_nat, st->max_penetration, st->mean_penetration, st->kinetic_energy, cs_world_max_speed(w),
            1e6 * st->broadphase_seconds, 1e6 * st->narrowphase_seconds, 1e6 * st->solver_seconds,
            1e6 * st->position_seconds, 1e6 * st->step_seconds,
            cs_solve_stop_name((cs_solve_stop)st->solve_stop), ev.begin_count, ev.end_count, ev.hit_count,
            cs_world_awake_count(w), st->position_sweeps);
}

// The --dump-lcp files of step s; false when one could not be written (the message is printed).
static bool dump_step(cs_world* w, const run_options* o, const cs_scene_info* info, long s)
{
    bool ok = true;
    for (int d = 0; d < o->dump_count; ++d)
    {
        if (o->dumps[d].step == s)
        {
            cs_error err = {CS_OK, ""};
            cs_lcp* p = (cs_lcp*)cs_world_last_problem(w);
            char name[sizeof info->name + 32];
            snprintf(name, sizeof name, "%s-step%ld", info->name, s);
            memcpy(p->name, name, sizeof p->name - 1); // one token, cut to the field's size
            p->name[sizeof p->name - 1] = '\0';
            if (cs_lcp_write(p, o->dumps[d].path, &err) != CS_OK)
            {
                fprintf(stderr, "%s\n", err.message);
                ok = false;
            }
        }
    }
    return ok;
}

// Steps the world o->steps times (or to a refused step), writing the CSV rows and LCP dumps as it goes;
// returns the exit status so far.
static int run_steps(cs_world* w, const run_options* o, const cs_scene_info* info, FILE* csv, run_totals* t)
{
    int status = 0;
    for (long s = 1; s <= o->steps; ++s)
    {
        if (cs_world_step(w) != CS_OK)
        {
            // A refused step (cs_health) names its step itself; stderr even with --quiet.
            if (cs_world_health(w)->ok)
            {
                fprintf(stderr, "%s: step %ld: %s\n", o->scene, s, cs_world_last_error(w));
            }
            else
            {
                fprintf(stderr, "%s: %s\n", o->scene, cs_world_last_error(w));
            }
            return 1;
        }
        const cs_step_stats* st = cs_world_stats(w);
        t->step_seconds += st->step_seconds;
        t->solver_seconds += st->solver_seconds;
        t->rows += st->rows;
        t->worst_penetration = fmax(t->worst_penetration, st->max_penetration);
        if (!isfinite(st->kinetic_energy))
        {
            t->finite = false;
        }
        if (csv != NULL)
        {
            write_csv_row(csv, w);
        }
        if (!dump_step(w, o, info, s))
        {
            status = 1;
        }
    }
    return status;
}

static void print_summary(const cs_world* w, const run_options* o, const cs_scene_info* info,
                          const run_totals* t)
{
    // (With --csv - the CSV has stdout: the summary goes to stderr.)
    FILE* out = o->csv_path != NULL && strcmp(o->csv_path, "-") == 0 ? stderr : stdout;
    const cs_step_stats* st = cs_world_stats(w);
    const cs_solver_params* p = cs_world_solver_params(w);
    const cs_solver_info* si = cs_solver_at(cs_world_solver(w));
    fprintf(out, "scene        %s (%s)\n", info->name, o->scene);
    fprintf(out, "solver       %s, %d iterations, warm start %s", si->name, p->iterations,
            p->warm_start ? "on" : "off");
    if (si->flags & CS_SOLVER_USES_ALPHA)
        fprintf(out, ", alpha %g", p->alpha);
    if (si->flags & CS_SOLVER_USES_GAMMA)
        fprintf(out, ", gamma %g", p->gamma);
    fprintf(out, "%s, %s row order\n", cs_world_get_def(w)->frictionless ? ", frictionless" : "",
            cs_row_order_name(cs_world_get_def(w)->row_order));
    fprintf(out, "steps        %lld (%.3f s simulated)\n", (long long)st->step, st->time);
    fprintf(out, "bodies       %d\n", cs_world_body_count(w)); // (st->bodies is 0 before the first step)
    fprintf(out, "last step    contacts %d, rows %d, res_lcp %.3e, res_nat %.3e\n", st->contacts, st->rows,
            st->res_lcp, st->res_nat);
    fprintf(out, "mean rows    %.1f\n", st->step > 0 ? t->rows / (double)st->step : 0.0);
    fprintf(out, "penetration  max over run %.3f mm, last step max %.3f mm mean %.3f mm\n",
            1e3 * t->worst_penetration, 1e3 * st->max_penetration, 1e3 * st->mean_penetration);
    fprintf(out, "motion       kinetic energy %.6g J, max speed %.4g m/s\n", st->kinetic_energy,
            cs_world_max_speed(w));
    fprintf(out, "time         %.1f us/step, solver %.1f us/step\n",
            st->step > 0 ? 1e6 * t->step_seconds / (double)st->step : 0.0,
            st->step > 0 ? 1e6 * t->solver_seconds / (double)st->step : 0.0);
    fprintf(out, "state hash   %016llx\n", (unsigned long long)cs_world_hash(w));
    if (!t->finite)
    {
        fprintf(out, "WARNING      the simulation produced non-finite values\n");
    }
}

int cs_cmd_run(int argc, char** argv)
{
    const char* cmd = "run";
    run_options o = {.steps = -1, .solver = -1, .world_options = CS_WORLD_OPTIONS_NONE};
    o.overrides = cs_solver_params_default();
    int exit_code;
    if (!parse_options(cmd, argc, argv, &o, &exit_code))
    {
        return exit_code;
    }
    cs_scene_info info;
    cs_world* w = open_world(cmd, &o, &info, &exit_code);
    if (w == NULL)
    {
        return exit_code;
    }

    FILE* csv = NULL;
    if (o.csv_path != NULL)
    {
        csv = cs_cli_open_output(o.csv_path);
        if (csv == NULL)
        {
            cs_world_destroy(w);
            return 1;
        }
        fprintf(
            csv,
            "step,time,bodies,contacts,rows,iterations,res_lcp,res_nat,max_penetration,mean_penetration,"
            "kinetic_energy,max_speed,broadphase_us,narrowphase_us,solver_us,position_us,step_us,solve_stop,"
            "begin_events,end_events,hit_events,awake,position_sweeps\n");
    }

    run_totals totals = {.finite = true};
    int status = run_steps(w, &o, &info, csv, &totals);
    if (!cs_cli_close_output(csv))
    {
        fprintf(stderr, "%s: write failed\n", o.csv_path);
        status = 1;
    }
    for (int d = 0; d < o.dump_count; ++d)
    {
        if (o.dumps[d].step > o.steps)
        {
            fprintf(stderr, "circlesim-cli run: --dump-lcp %ld: the run has only %ld steps\n",
                    o.dumps[d].step, o.steps);
            status = 1;
        }
    }
    cs_error err = {CS_OK, ""};
    if (o.state_path != NULL && cs_world_save_state(w, o.state_path, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        status = 1;
    }
    if (!o.quiet)
    {
        print_summary(w, &o, &info, &totals);
    }
    if (!totals.finite)
    {
        status = 1;
    }
    cs_world_destroy(w);
    return status;
}
