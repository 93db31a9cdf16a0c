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
        "Output files: '-' is standard output (the summary then goes to stderr).\n",
        cs_arg_solver_help(), CS_ARG_SUBSPACE_HELP);
}

int cs_cmd_run(int argc, char** argv)
{
    const char* cmd = "run";
    const char* scene = NULL;
    const char* csv_path = NULL;
    const char* state_path = NULL;
    const char* state_in = NULL;
    long steps = -1;
    bool quiet = false;
    int solver = -1;
    cs_world_options world_options = CS_WORLD_OPTIONS_NONE; // (--no-simd is a solver option here)
    cs_solver_params params;
    bool params_touched = false;
    dump_request dumps[MAX_DUMPS];
    int dump_count = 0;

    // Solver options are applied on top of the scene's settings, so collect them on a copy and remember
    // which were given: an option equal to the default still overrides a scene that sets another value.
    cs_solver_params overrides = cs_solver_params_default();
    unsigned given = 0u;           // method parameters given (CS_SOLVER_USES_*)
    bool iterations_given = false; // --iterations (not a method parameter: every solver reads it)
    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        const char* v;
        if (cs_arg_is_help(a))
        {
            help(stdout);
            return 0;
        }
        int r = cs_arg_solver_option(cmd, argc, argv, &i, &solver, &overrides, &given);
        if (r == 0)
        {
            r = cs_arg_subspace_option(cmd, argc, argv, &i, &overrides, &given);
        }
        if (r < 0)
        {
            return 2;
        }
        if (r > 0)
        {
            params_touched = true;
            iterations_given |= strcmp(a, "--iterations") == 0;
            continue;
        }
        if (strcmp(a, "--steps") == 0)
        {
            int n;
            if (!cs_arg_next_int(cmd, argc, argv, &i, 0, 1000000000, &n))
            {
                return 2;
            }
            steps = n;
        }
        else if ((r = cs_arg_world_option(cmd, argc, argv, &i, &world_options)) != 0)
        {
            if (r < 0)
            {
                return 2;
            }
        }
        else if (strcmp(a, "--quiet") == 0)
        {
            quiet = true;
        }
        else if (strcmp(a, "--csv") == 0)
        {
            if (!(csv_path = cs_arg_value(cmd, argc, argv, &i)))
            {
                return 2;
            }
        }
        else if (strcmp(a, "--state-out") == 0)
        {
            if (!(state_path = cs_arg_value(cmd, argc, argv, &i)))
            {
                return 2;
            }
        }
        else if (strcmp(a, "--state-in") == 0)
        {
            if (!(state_in = cs_arg_value(cmd, argc, argv, &i)))
            {
                return 2;
            }
        }
        else if (strcmp(a, "--dump-lcp") == 0)
        {
            if (!(v = cs_arg_value(cmd, argc, argv, &i)))
            {
                return 2;
            }
            const char* colon = strchr(v, ':');
            char* end = NULL;
            errno = 0;
            long s = colon ? strtol(v, &end, 10) : 0;
            if (colon == NULL || end != colon || errno != 0 || s < 1 || s > 1000000000 || colon[1] == '\0' ||
                dump_count == MAX_DUMPS)
            {
                fprintf(
                    stderr,
                    "circlesim-cli run: --dump-lcp: expected STEP:FILE with STEP in [1, 1000000000] (at most "
                    "%d), got '%s'\n",
                    MAX_DUMPS, v);
                return 2;
            }
            dumps[dump_count].step = s;
            dumps[dump_count].path = colon + 1;
            dump_count += 1;
        }
        else if (!cs_arg_scene(cmd, a, &scene, true))
        {
            return 2;
        }
    }
    if (state_in != NULL && (scene != NULL || steps < 0))
    {
        fprintf(stderr,
                "circlesim-cli run: --state-in replaces SCENE and needs --steps N (how many more steps)\n");
        return 2;
    }
    if (scene == NULL && state_in == NULL)
    {
        fprintf(stderr, "circlesim-cli run: no scene given\n");
        help(stderr);
        return 2;
    }

    const char* outputs[2 + MAX_DUMPS] = {csv_path, state_path};
    const char* output_options[2 + MAX_DUMPS] = {"--csv", "--state-out"};
    for (int d = 0; d < dump_count; ++d)
    {
        outputs[2 + d] = dumps[d].path;
        output_options[2 + d] = "--dump-lcp";
    }
    if (!cs_cli_distinct_outputs(cmd, output_options, outputs, 2 + dump_count))
    {
        return 2;
    }

    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    memset(&info, 0, sizeof info);
    cs_world* w = state_in != NULL ? cs_world_load_state(state_in, &err) : cs_scene_load(scene, &info, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (state_in != NULL)
    {
        scene = state_in; // named by the snapshot in messages and the summary
        snprintf(info.name, sizeof info.name, "snapshot");
    }
    cs_cli_print_warnings(&info);
    // Only options actually given override the scene's solver settings.
    params = *cs_world_solver_params(w);
    if (params_touched)
    {
        if (iterations_given)
            params.iterations = overrides.iterations;
        if (given & CS_SOLVER_USES_ALPHA)
            params.alpha = overrides.alpha;
        if (given & CS_SOLVER_USES_GAMMA)
            params.gamma = overrides.gamma;
        if (given & CS_SOLVER_USES_RELAXATION)
            params.relaxation = overrides.relaxation;
        if (overrides.amgs_literal)
            params.amgs_literal = true;
        if (!overrides.warm_start)
            params.warm_start = false;
        if (!overrides.simd)
            params.simd = false;
        if (given & CS_SOLVER_USES_KGS)
            params.kgs = overrides.kgs;
        if (given & CS_SOLVER_USES_KSM)
            params.ksm = overrides.ksm;
        if (given & CS_SOLVER_USES_SUBSPACE)
            params.subspace_solver = overrides.subspace_solver;
        cs_world_set_solver_params(w, &params);
    }
    if (solver >= 0)
    {
        cs_world_set_solver(w, solver);
    }
    int chosen = cs_world_solver(w); // --solver, else the scene's
    if (!cs_arg_check_solver_use(cmd, given, &chosen, 1))
    {
        cs_world_destroy(w);
        return 2;
    }
    if (iterations_given && (cs_solver_at(chosen)->flags & CS_SOLVER_PIVOTING))
    {
        fprintf(
            stderr,
            "circlesim-cli %s: --iterations does nothing for the pivoting method %s (each solve runs to its "
            "answer in one iteration)\n",
            cmd, cs_solver_at(chosen)->name);
        cs_world_destroy(w);
        return 2;
    }
    cs_world_options_apply(w, &world_options);
    if (steps < 0)
    {
        steps = info.steps;
    }

    FILE* csv = NULL;
    if (csv_path != NULL)
    {
        csv = cs_cli_open_output(csv_path);
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

    int status = 0;
    double total_step = 0.0, total_solver = 0.0, worst_penetration = 0.0;
    double sum_rows = 0.0;
    bool finite = true;
    for (long s = 1; s <= steps; ++s)
    {
        if (cs_world_step(w) != CS_OK)
        {
            // A refused step (cs_health) names its step itself; stderr even with --quiet.
            if (cs_world_health(w)->ok)
            {
                fprintf(stderr, "%s: step %ld: %s\n", scene, s, cs_world_last_error(w));
            }
            else
            {
                fprintf(stderr, "%s: %s\n", scene, cs_world_last_error(w));
            }
            status = 1;
            break;
        }
        const cs_step_stats* st = cs_world_stats(w);
        total_step += st->step_seconds;
        total_solver += st->solver_seconds;
        sum_rows += st->rows;
        worst_penetration = fmax(worst_penetration, st->max_penetration);
        if (!isfinite(st->kinetic_energy))
        {
            finite = false;
        }
        if (csv != NULL)
        {
            cs_contact_events ev = cs_world_contact_events(w);
            fprintf(csv,
                    "%lld,%.6f,%d,%d,%d,%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%d,%d,%"
                    "d,%d,%d\n",
                    (long long)st->step, st->time, st->bodies, st->contacts, st->rows, st->iterations,
                    st->res_lcp, st->res_nat, st->max_penetration, st->mean_penetration, st->kinetic_energy,
                    cs_world_max_speed(w), 1e6 * st->broadphase_seconds, 1e6 * st->narrowphase_seconds,
                    1e6 * st->solver_seconds, 1e6 * st->position_seconds, 1e6 * st->step_seconds,
                    cs_solve_stop_name((cs_solve_stop)st->solve_stop), ev.begin_count, ev.end_count,
                    ev.hit_count, cs_world_awake_count(w), st->position_sweeps);
        }
        for (int d = 0; d < dump_count; ++d)
        {
            if (dumps[d].step == s)
            {
                cs_lcp* p = (cs_lcp*)cs_world_last_problem(w);
                char name[sizeof info.name + 32];
                snprintf(name, sizeof name, "%s-step%ld", info.name, s);
                memcpy(p->name, name, sizeof p->name - 1); // one token, cut to the field's size
                p->name[sizeof p->name - 1] = '\0';
                if (cs_lcp_write(p, dumps[d].path, &err) != CS_OK)
                {
                    fprintf(stderr, "%s\n", err.message);
                    status = 1;
                }
            }
        }
    }
    if (!cs_cli_close_output(csv))
    {
        fprintf(stderr, "%s: write failed\n", csv_path);
        status = 1;
    }
    for (int d = 0; d < dump_count; ++d)
    {
        if (dumps[d].step > steps)
        {
            fprintf(stderr, "circlesim-cli run: --dump-lcp %ld: the run has only %ld steps\n", dumps[d].step,
                    steps);
            status = 1;
        }
    }
    if (state_path != NULL && cs_world_save_state(w, state_path, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        status = 1;
    }

    // (With --csv - the CSV has stdout: the summary goes to stderr.)
    FILE* summary = csv_path != NULL && strcmp(csv_path, "-") == 0 ? stderr : stdout;
    if (!quiet)
    {
        const cs_step_stats* st = cs_world_stats(w);
        const cs_solver_params* p = cs_world_solver_params(w);
        const cs_solver_info* si = cs_solver_at(cs_world_solver(w));
        fprintf(summary, "scene        %s (%s)\n", info.name, scene);
        fprintf(summary, "solver       %s, %d iterations, warm start %s", si->name, p->iterations,
                p->warm_start ? "on" : "off");
        if (si->flags & CS_SOLVER_USES_ALPHA)
            fprintf(summary, ", alpha %g", p->alpha);
        if (si->flags & CS_SOLVER_USES_GAMMA)
            fprintf(summary, ", gamma %g", p->gamma);
        fprintf(summary, "%s, %s row order\n", cs_world_get_def(w)->frictionless ? ", frictionless" : "",
                cs_row_order_name(cs_world_get_def(w)->row_order));
        fprintf(summary, "steps        %lld (%.3f s simulated)\n", (long long)st->step, st->time);
        fprintf(summary, "bodies       %d\n",
                cs_world_body_count(w)); // (st->bodies is 0 before the first step)
        fprintf(summary, "last step    contacts %d, rows %d, res_lcp %.3e, res_nat %.3e\n", st->contacts,
                st->rows, st->res_lcp, st->res_nat);
        fprintf(summary, "mean rows    %.1f\n", st->step > 0 ? sum_rows / (double)st->step : 0.0);
        fprintf(summary, "penetration  max over run %.3f mm, last step max %.3f mm mean %.3f mm\n",
                1e3 * worst_penetration, 1e3 * st->max_penetration, 1e3 * st->mean_penetration);
        fprintf(summary, "motion       kinetic energy %.6g J, max speed %.4g m/s\n", st->kinetic_energy,
                cs_world_max_speed(w));
        fprintf(summary, "time         %.1f us/step, solver %.1f us/step\n",
                st->step > 0 ? 1e6 * total_step / (double)st->step : 0.0,
                st->step > 0 ? 1e6 * total_solver / (double)st->step : 0.0);
        fprintf(summary, "state hash   %016llx\n", (unsigned long long)cs_world_hash(w));
        if (!finite)
        {
            fprintf(summary, "WARNING      the simulation produced non-finite values\n");
        }
    }
    if (!finite)
    {
        status = 1;
    }
    cs_world_destroy(w);
    return status;
}
