// circlesim-cli bench: the benchmark suites of docs/PERFORMANCE.md. Speed is measured here, by a program
// that prints numbers, never by a timed test.
//
// Every case builds a fresh world, runs a short warm-up (caches, page faults, clock ramp-up), then R timed
// repeats of the same run from the same start; the row reported is the repeat with the median wall time.
// Repeats are checked to end in bit-identical states (the world is deterministic on one build).
//
// Suites:
//   paper  pool1, pool2, stacking, stacking150 (scenes/*.json) at 10 and 200 iterations, 1000 steps;
//   scale  square pools of 1k … 100k circles (r 0.21 m) built here with the public world API, 10
//          iterations, 300 steps;
//   churn  workloads whose contacts change every step: scenes/gas.json (20 000 elastic discs) and a pool
//          of 5 000 under a stream of falling rows (stream-N of bench_scenes.h), 10 iterations, 300 steps.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "cli/args.h"
#include "cli/bench_case.h"
#include "cli/bench_options.h"
#include "cli/commands.h"
#include "cli/variants.h"

#define MAX_SCENES     32
#define MAX_ITERATIONS 8

static const char* const paper_scenes[] = {"pool1", "pool2", "stacking", "stacking150"};
static const int scale_sizes[] = {1000, 5000, 20000, 50000, 100000};
static const int churn_sizes[] = {5000}; // the streams' pools

static void help(FILE* out)
{
    fprintf(out,
            "usage: circlesim-cli bench [options]\n"
            "Times whole runs (fresh world, warm-up, then R repeats; the median repeat is reported).\n"
            "  --suite paper|scale|churn  paper (default): pool1, pool2, stacking, stacking150 at 10 and\n"
            "                        200 iterations, 1000 steps; scale: generated pools of 1k, 5k, 20k, 50k\n"
            "                        and 100k circles, 10 iterations, 300 steps; churn: scenes/gas.json and\n"
            "                        stream-5000 (a pool of 5000 under a row of falling circles every 10\n"
            "                        steps), 10 iterations, 300 steps\n"
            "  --scenes LIST         comma-separated scene files instead of the suite's scenes (pool-N\n"
            "                        and stream-N: the generated pool and stream scenes)\n"
            "  --sizes LIST          comma-separated circle counts of the generated pools (scale suite) or\n"
            "                        of the streams' pools (churn suite)\n"
            "  --solvers LIST        comma-separated, or 'all' (default: pgs,amgs for paper, pgs for scale)\n"
            "  --alphas LIST         alpha values for the solvers that use alpha (default 0.2)\n"
            "  --iterations LIST     iterations per step, comma-separated (default: the suite's)\n"
            "  --steps N             steps per run (default: the suite's)\n"
            "  --repeat R            timed repeats per case (default 3)\n"
            "  --warmup N            warm-up steps before the repeats (default 60)\n"
            "  --threads N           1 (default) to 8: the step's stages on worker threads\n"
            "                        (cs_world_set_threads; the same results)\n"
            "  --row-order ORDER     coloured (default) or key: the order the sweeps take the contacts in\n"
            "  --no-simd             sweep one row at a time (no vector lanes; the same results)\n"
            "  --formulation F       relax, split, spook or soft (default: each scene's world.formulation, "
            "else relax)\n"
            "  --scene-dir DIR       where the paper suite's scenes are (default: scenes/, else the\n"
            "                        scenes/ directory next to the binary's parent)\n"
            "  --csv FILE            write the CSV to FILE ('-': to stdout, instead of the table)\n"
            "  --quiet               no table\n"
            "CSV columns: scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,\n"
            "us_per_step,broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,"
            "row_order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,\n"
            "kinetic_energy,threads\n"
            "(the *_us phase columns are means per step; solver_us is the velocity solve, position_us the\n"
            "split-impulse position solve; bytes_per_body is the heap the world holds after the run;\n"
            "quality of the same run: penetrations in m (max over the run, mean of the steps' means),\n"
            "ke_drift the kinetic energy after the last step minus after the first (J), top_error the\n"
            "highest centre at the start minus at the end (m: a stack starts at its exact height), and\n"
            "final_max_speed in m/s, kinetic_energy after the last step in J: of a settled pile, how\n"
            "quiet it went; stream-N: bodies counts the spawned circles too).\n");
}

// What the command line asked for, with the suite's defaults filled in (finish_options).
typedef struct bench_args
{
    const char *suite, *scene_list, *sizes_list, *csv_path, *scene_dir;
    int steps, repeat, warmup;
    cs_bench_setup setup;
    int row_order; // -1: coloured
    bool quiet;
    int solvers[CS_MAX_VARIANTS];
    int solver_count; // 0: the suite's default
    double alphas[CS_MAX_VARIANTS];
    int alpha_count;
    bool have_alphas;
    int iterations[MAX_ITERATIONS];
    int iteration_count;
    bool churn, scale; // the suite: scale and churn run one solver, 10 iterations, 300 steps
} bench_args;

// One option at argv[*i] into o; false after a usage message.
static bool parse_option(const char* cmd, int argc, char** argv, int* i, bench_args* o)
{
    const char* a = argv[*i];
    const char* v;
    bool ok = true;
    if (strcmp(a, "--suite") == 0)
    {
        ok = (o->suite = cs_arg_value(cmd, argc, argv, i)) != NULL;
        if (ok && strcmp(o->suite, "paper") != 0 && strcmp(o->suite, "scale") != 0 &&
            strcmp(o->suite, "churn") != 0)
        {
            fprintf(stderr, "circlesim-cli bench: --suite: expected paper, scale or churn, got '%s'\n",
                    o->suite);
            ok = false;
        }
    }
    else if (strcmp(a, "--scenes") == 0)
        ok = (o->scene_list = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--sizes") == 0)
        ok = (o->sizes_list = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--scene-dir") == 0)
        ok = (o->scene_dir = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--solvers") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) &&
             (o->solver_count = cs_arg_solver_list(cmd, a, v, o->solvers, CS_MAX_VARIANTS)) > 0;
    else if (strcmp(a, "--alphas") == 0)
        ok = o->have_alphas =
            (v = cs_arg_value(cmd, argc, argv, i)) &&
            (o->alpha_count = cs_arg_double_list(cmd, a, v, o->alphas, CS_MAX_VARIANTS)) > 0;
    else if (strcmp(a, "--iterations") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) &&
             (o->iteration_count =
                  cs_bench_parse_int_list(cmd, a, v, 1, 1000000, o->iterations, MAX_ITERATIONS)) > 0;
    else if (strcmp(a, "--steps") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) && cs_arg_int(cmd, a, v, 1, 100000000, &o->steps);
    else if (strcmp(a, "--repeat") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) &&
             cs_arg_int(cmd, a, v, 1, CS_BENCH_MAX_REPEAT, &o->repeat);
    else if (strcmp(a, "--warmup") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) && cs_arg_int(cmd, a, v, 0, 100000000, &o->warmup);
    else if (strcmp(a, "--threads") == 0)
        ok = (v = cs_arg_value(cmd, argc, argv, i)) && cs_arg_int(cmd, a, v, 1, 8, &o->setup.threads);
    else if (strcmp(a, "--no-simd") == 0)
        o->setup.simd = false;
    else if (strcmp(a, "--row-order") == 0)
        ok = cs_arg_next_row_order(cmd, argc, argv, i, &o->row_order);
    else if (strcmp(a, "--formulation") == 0)
        ok = cs_arg_next_formulation(cmd, argc, argv, i, &o->setup.formulation);
    else if (strcmp(a, "--csv") == 0)
        ok = (o->csv_path = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--quiet") == 0)
        o->quiet = true;
    else
    {
        fprintf(stderr, "circlesim-cli bench: unknown option '%s' (see --help)\n", a);
        ok = false;
    }
    return ok;
}

// The suite's defaults for what was not given; false after a usage message.
static bool finish_options(const char* cmd, bench_args* o)
{
    o->churn = strcmp(o->suite, "churn") == 0;
    o->scale = o->churn || strcmp(o->suite, "scale") == 0;
    if (o->row_order >= 0)
    {
        o->setup.row_order = (cs_row_order)o->row_order;
    }
    if (o->csv_path != NULL && strcmp(o->csv_path, "-") == 0)
    {
        o->quiet = true; // stdout carries the CSV alone
    }
    if (o->iteration_count == 0)
    {
        o->iterations[o->iteration_count++] = 10;
        if (!o->scale)
        {
            o->iterations[o->iteration_count++] = 200;
        }
    }
    if (o->steps < 0)
    {
        o->steps = o->scale ? 300 : 1000;
    }
    if (o->solver_count == 0)
    {
        // The scale suite is about the engine's cost per circle, not the solvers' (that is the paper
        // suite's question), and one solver keeps it under ~5 minutes.
        o->solver_count = o->scale ? 1 : 2;
    }
    return !o->have_alphas ||
           cs_arg_check_use(cmd, "--alphas", CS_SOLVER_USES_ALPHA, o->solvers, o->solver_count);
}

// The scene files' paths the cases point into (a case's path outlives collect_scenes).
static char scene_paths[MAX_SCENES][4096];

// --scenes A,B,…: each a file, or a generated pool-N / stream-N. Returns 0, or 2 for a bad list.
static int listed_scenes(const bench_args* o, cs_bench_case_scene* scenes, int* count)
{
    int scene_count = 0;
    const char* p = o->scene_list;
    while (*p != '\0')
    {
        const char* comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof scene_paths[0] || scene_count == MAX_SCENES)
        {
            fprintf(stderr,
                    "circlesim-cli bench: --scenes: expected at most %d comma-separated files, "
                    "got '%s'\n",
                    MAX_SCENES, o->scene_list);
            return 2;
        }
        memcpy(scene_paths[scene_count], p, len);
        scene_paths[scene_count][len] = '\0';
        scenes[scene_count].path = scene_paths[scene_count];
        scenes[scene_count].bodies = 0;
        cs_bench_label_from_path(scene_paths[scene_count], scenes[scene_count].label, sizeof scenes[0].label);
        if (cs_bench_generated_name(scene_paths[scene_count]))
        {
            scenes[scene_count].path = NULL; // pool-N, stream-N: built here, as the peers build them
        }
        scene_count += 1;
        p = comma != NULL ? comma + 1 : p + len;
    }
    *count = scene_count;
    return 0;
}

// --scale, --churn, --sizes: generated pools (or streams after the gas scene) of the given sizes. Returns
// 0, 1 without gas.json, 2 for a bad --sizes.
static int sized_scenes(const char* cmd, const bench_args* o, cs_bench_case_scene* scenes, int* count)
{
    int scene_count = 0;
    bool churn = o->churn;
    int sizes[MAX_SCENES];
    int size_count = churn ? (int)(sizeof churn_sizes / sizeof churn_sizes[0])
                           : (int)(sizeof scale_sizes / sizeof scale_sizes[0]);
    memcpy(sizes, churn ? churn_sizes : scale_sizes, (size_t)size_count * sizeof sizes[0]);
    if (o->sizes_list != NULL && (size_count = cs_bench_parse_int_list(cmd, "--sizes", o->sizes_list, 1,
                                                                       10000000, sizes, MAX_SCENES - 1)) < 0)
    {
        return 2;
    }
    if (churn)
    {
        if (!cs_bench_find_scene(o->scene_dir, "gas", scene_paths[0], sizeof scene_paths[0]))
        {
            fprintf(stderr, "circlesim-cli bench: cannot find gas.json (run from the repository root or "
                            "give --scene-dir)\n");
            return 1;
        }
        scenes[scene_count] = (cs_bench_case_scene){.label = "gas", .path = scene_paths[0]};
        scene_count += 1;
    }
    for (int k = 0; k < size_count; ++k)
    {
        scenes[scene_count].path = NULL;
        scenes[scene_count].bodies = sizes[k];
        snprintf(scenes[scene_count].label, sizeof scenes[0].label, "%s-%d", churn ? "stream" : "pool",
                 sizes[k]);
        scene_count += 1;
    }
    *count = scene_count;
    return 0;
}

// The paper's scenes, found in --scene-dir or scenes/. Returns 0, or 1 when one is missing.
static int paper_scene_files(const bench_args* o, cs_bench_case_scene* scenes, int* count)
{
    int scene_count = 0;
    for (size_t k = 0; k < sizeof paper_scenes / sizeof paper_scenes[0]; ++k)
    {
        if (!cs_bench_find_scene(o->scene_dir, paper_scenes[k], scene_paths[scene_count],
                                 sizeof scene_paths[0]))
        {
            fprintf(stderr,
                    "circlesim-cli bench: cannot find %s.json (run from the repository root or "
                    "give --scene-dir)\n",
                    paper_scenes[k]);
            return 1;
        }
        scenes[scene_count].path = scene_paths[scene_count];
        scenes[scene_count].bodies = 0;
        snprintf(scenes[scene_count].label, sizeof scenes[0].label, "%s", paper_scenes[k]);
        scene_count += 1;
    }
    *count = scene_count;
    return 0;
}

// The scenes of --scenes, of the scale and churn suites (or --sizes), or the paper's; 0, or the exit code
// after a message.
static int collect_scenes(const char* cmd, const bench_args* o, cs_bench_case_scene* scenes, int* count)
{
    if (o->scene_list != NULL)
    {
        return listed_scenes(o, scenes, count);
    }
    if (o->scale || o->sizes_list != NULL)
    {
        return sized_scenes(cmd, o, scenes, count);
    }
    return paper_scene_files(o, scenes, count);
}

// --csv FILE (- for stdout) with its header line; false after a message when it cannot be opened. *csv
// stays NULL without --csv.
static bool open_csv(const char* csv_path, FILE** csv)
{
    *csv = NULL;
    if (csv_path == NULL)
    {
        return true;
    }
    *csv = strcmp(csv_path, "-") == 0 ? stdout : fopen(csv_path, "w");
    if (*csv == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing\n", csv_path);
        return false;
    }
    fprintf(*csv, "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,"
                  "broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_"
                  "order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,kinetic_"
                  "energy,threads\n");
    fflush(*csv);
    return true;
}

static void print_table_header(const cs_bench_setup* setup)
{
    printf("# %s row order, vector sweeps %s, %d thread%s\n", cs_row_order_name(setup->row_order),
           !setup->simd ? "off" : (cs_solver_simd_available() ? "on (AVX2)" : "unavailable on this CPU"),
           setup->threads, setup->threads > 1 ? "s" : "");
    printf("%-14s %-16s %5s %6s %7s %8s %8s %9s %10s %8s %8s %9s %9s %7s %8s %8s %8s %10s %9s %9s %9s\n",
           "scene", "solver", "iter", "steps", "bodies", "contacts", "rows", "seconds", "us/step", "broad",
           "narrow", "solver", "position", "B/body", "ns/st/b", "maxpen", "meanpen", "KE drift", "top err",
           "vmax", "KE");
    printf("%-14s %-16s %5s %6s %7s %8s %8s %9s %10s %8s %8s %9s %9s %7s %8s %8s %8s %10s %9s %9s %9s\n", "",
           "", "", "", "", "", "", "s", "", "us", "us", "us", "us", "", "", "mm", "mm", "J", "mm", "m/s",
           "J");
    fflush(stdout);
}

// One case's line of the table and of the CSV (csv NULL: none).
static void report_case(const bench_args* o, const cs_bench_case_scene* scene, const cs_variant* variant,
                        int iterations, const cs_bench_result* r, FILE* csv)
{
    int steps = o->steps;
    double us = 1e6 * r->seconds / steps;
    double ns_body = r->bodies > 0 ? 1e3 * us / r->bodies : 0.0;
    char label[96];
    if (!o->quiet)
    {
        printf("%-14s %-16s %5d %6d %7d %8.1f %8.1f %9.3f %10.2f %8.2f %8.2f %9.2f %9.2f %7.0f "
               "%8.1f %8.3f %8.3f %10.3g %9.2f %9.2g %9.2g\n",
               scene->label, cs_variant_label(variant, label, sizeof label), iterations, steps, r->bodies,
               r->mean_contacts, r->mean_rows, r->seconds, us, r->broadphase_us, r->narrowphase_us,
               r->solver_us, r->position_us, r->bytes_per_body, ns_body, 1e3 * r->max_penetration,
               1e3 * r->mean_penetration, r->ke_drift, 1e3 * r->top_error, r->final_max_speed,
               r->kinetic_energy);
        fflush(stdout);
    }
    if (csv != NULL)
    {
        const cs_bench_setup* setup = &o->setup;
        fprintf(csv, "%s,%s,", scene->label, cs_solver_at(variant->solver)->name);
        cs_variant_print_alpha(csv, variant);
        fprintf(csv,
                ",%d,%d,%d,%.2f,%.2f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%.2f,%s,%d,%.6e,%.6e,%."
                "6e,%.6e,%.6e,%.6e,%d\n",
                iterations, steps, r->bodies, r->mean_contacts, r->mean_rows, r->seconds, us,
                r->broadphase_us, r->narrowphase_us, r->solver_us, r->position_us, r->bytes_per_body, ns_body,
                cs_row_order_name(setup->row_order), setup->simd && cs_solver_simd_available() ? 1 : 0,
                r->max_penetration, r->mean_penetration, r->ke_drift, r->top_error, r->final_max_speed,
                r->kinetic_energy, setup->threads);
        fflush(csv);
    }
}

int cs_cmd_bench(int argc, char** argv)
{
    const char* cmd = "bench";
    bench_args o = {
        .suite = "paper",
        .steps = -1,
        .repeat = 3,
        .warmup = 60,
        .setup = {.threads = 1, .row_order = CS_ROW_ORDER_COLOURED, .simd = true, .formulation = -1},
        .row_order = -1,
        .solvers = {cs_solver_find("pgs"), cs_solver_find("amgs")},
        .alphas = {0.2},
        .alpha_count = 1,
    };
    for (int i = 1; i < argc; ++i)
    {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
        {
            help(stdout);
            return 0;
        }
        if (!parse_option(cmd, argc, argv, &i, &o))
        {
            return 2;
        }
    }
    if (!finish_options(cmd, &o))
    {
        return 2;
    }
    cs_bench_case_scene scenes[MAX_SCENES];
    int scene_count = 0;
    int status = collect_scenes(cmd, &o, scenes, &scene_count);
    if (status != 0)
    {
        return status;
    }
    cs_variant variants[CS_MAX_VARIANTS];
    int variant_count =
        cs_variants_expand(o.solvers, o.solver_count, o.alphas, o.alpha_count, variants, CS_MAX_VARIANTS);
    FILE* csv;
    if (!open_csv(o.csv_path, &csv))
    {
        return 1;
    }
    if (!o.quiet)
    {
        print_table_header(&o.setup);
    }
    for (int s = 0; s < scene_count && status == 0; ++s)
    {
        for (int it = 0; it < o.iteration_count && status == 0; ++it)
        {
            for (int k = 0; k < variant_count && status == 0; ++k)
            {
                cs_bench_result r;
                status = cs_bench_run_case(scenes + s, variants + k, o.iterations[it], &o.setup, o.steps,
                                           o.repeat, o.warmup, &r);
                if (status == 0)
                {
                    report_case(&o, scenes + s, variants + k, o.iterations[it], &r, csv);
                }
            }
        }
    }
    if (csv != NULL && csv != stdout && fclose(csv) != 0)
    {
        fprintf(stderr, "%s: write failed\n", o.csv_path);
        status = 1;
    }
    return status;
}
