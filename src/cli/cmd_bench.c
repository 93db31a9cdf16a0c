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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "circlesim/circlesim.h"
#include "cli/args.h"
#include "cli/bench_options.h"
#include "cli/bench_world.h"
#include "cli/commands.h"
#include "cli/variants.h"

#define MAX_SCENES     32
#define MAX_ITERATIONS 8
#define MAX_REPEAT     101

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

// What a case runs on: a scene file or a generated scene of bench_scenes.h (pool-N, stream-N).
typedef struct bench_scene
{
    char label[64];
    const char* path; // NULL: generated, label names it
    int bodies;
} bench_scene;

typedef struct bench_result
{
    int bodies;
    double seconds;
    double mean_contacts;
    double mean_rows;
    double broadphase_us;
    double narrowphase_us;
    double solver_us;
    double position_us;
    double bytes_per_body;
    // Quality of the same run: how far bodies overlap, how much kinetic energy came or went, how much
    // the top body sank (a stack starts at its exact height), and how still it ends.
    double max_penetration;  // m, over the run
    double mean_penetration; // m, mean over the steps of each step's mean over touching contacts
    double ke_drift;         // J, kinetic energy after the last step minus after the first
    double top_error;        // m, highest centre at the start minus at the end
    double final_max_speed;  // m/s
    double kinetic_energy;   // J, after the last step
    uint64_t hash;
} bench_result;

static size_t heap_in_use(void)
{
#if defined(__GLIBC__)
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}

// World settings every case of a run shares.
typedef struct bench_setup
{
    int threads;
    cs_row_order row_order;
    bool simd;
    int formulation; // -1: the scene's
} bench_setup;

// A scene file's world, or a generated scene's (pool-N: about as tall as wide before it falls; `generated`
// keeps its numbers for a stream's rows).
static cs_world* make_world(const bench_scene* scene, const cs_variant* variant, int iterations,
                            const bench_setup* setup, cs_bench_scene* generated, cs_error* err)
{
    cs_world* w;
    if (scene->path != NULL)
    {
        cs_scene_info info;
        w = cs_scene_load(scene->path, &info, err);
    }
    else if (!cs_bench_scene_make(scene->label, generated))
    {
        cs_fail(err, CS_ERR_USAGE, "%s: not a generated scene (out of memory?)", scene->label);
        return NULL;
    }
    else
    {
        w = cs_bench_world(generated, err);
    }
    if (w == NULL)
    {
        return NULL;
    }
    cs_solver_params params = *cs_world_solver_params(w);
    params.iterations = iterations;
    params.alpha = variant->alpha > 0.0 ? variant->alpha : params.alpha;
    params.tolerance = 0.0;
    params.simd = setup->simd;
    cs_world_set_solver(w, variant->solver);
    cs_world_set_solver_params(w, &params);
    cs_world_set_threads(w, setup->threads);
    cs_world_set_row_order(w, setup->row_order);
    if (setup->formulation >= 0)
    {
        cs_world_set_formulation(w, (cs_formulation)setup->formulation);
    }
    cs_world_enable_contact_events(w, false); // the paper's workloads, as before the engine features
    return w;
}

static double highest_centre(const cs_world* w)
{
    double top = -INFINITY;
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        double y = cs_world_body(w, cs_world_body_id(w, k)).position.y;
        top = y > top ? y : top;
    }
    return top;
}

// One run of `steps` steps from a fresh world; with measure_heap, the heap the world holds afterwards.
static bool run_once(const bench_scene* scene, const cs_variant* variant, int iterations,
                     const bench_setup* setup, int steps, bool measure_heap, bench_result* out)
{
    cs_error err = {CS_OK, ""};
    size_t heap0 = heap_in_use();
    cs_bench_scene generated = {0};
    cs_world* w = make_world(scene, variant, iterations, setup, &generated, &err);
    cs_bench_disc* row = calloc((size_t)generated.stream_columns + 1, sizeof *row);
    if (w == NULL || row == NULL)
    {
        fprintf(stderr, "%s\n", w == NULL ? err.message : "out of memory");
        cs_world_destroy(w);
        cs_bench_scene_free(&generated);
        free(row);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->bodies = cs_world_body_count(w);
    double contacts = 0.0, rows = 0.0, broad = 0.0, narrow = 0.0, solver = 0.0, position = 0.0;
    double pen_sum = 0.0, ke_first = 0.0;
    double top0 = highest_centre(w);
    double t0 = cs_seconds();
    for (int s = 0; s < steps; ++s)
    {
        // A stream's row appears inside the timed loop: adding bodies is part of a churning workload.
        int spawned = cs_bench_stream_row(&generated, s, row);
        if (!cs_bench_world_add(w, &generated, row, spawned, &err) || cs_world_step(w) != CS_OK)
        {
            fprintf(stderr, "%s: step %d: %s\n", scene->label, s + 1,
                    err.status != CS_OK ? err.message : cs_world_last_error(w));
            cs_world_destroy(w);
            cs_bench_scene_free(&generated);
            free(row);
            return false;
        }
        const cs_step_stats* st = cs_world_stats(w);
        contacts += st->contacts;
        rows += st->rows;
        broad += st->broadphase_seconds;
        narrow += st->narrowphase_seconds;
        solver += st->solver_seconds;
        position += st->position_seconds;
        // (Read from the stats the step keeps anyway: no extra pass over the bodies in the timed loop.)
        out->max_penetration =
            st->max_penetration > out->max_penetration ? st->max_penetration : out->max_penetration;
        pen_sum += st->mean_penetration;
        ke_first = s == 0 ? st->kinetic_energy : ke_first;
    }
    out->seconds = cs_seconds() - t0;
    if (steps > 0)
    {
        out->mean_penetration = pen_sum / steps;
        out->ke_drift = cs_world_stats(w)->kinetic_energy - ke_first;
        out->top_error = top0 - highest_centre(w);
        out->final_max_speed = cs_world_max_speed(w);
        out->kinetic_energy = cs_world_stats(w)->kinetic_energy;
    }
    out->bodies = cs_world_body_count(w);
    double n = steps > 0 ? (double)steps : 1.0;
    out->mean_contacts = contacts / n;
    out->mean_rows = rows / n;
    out->broadphase_us = 1e6 * broad / n;
    out->narrowphase_us = 1e6 * narrow / n;
    out->solver_us = 1e6 * solver / n;
    out->position_us = 1e6 * position / n;
    if (measure_heap && out->bodies > 0)
    {
        size_t heap1 = heap_in_use();
        out->bytes_per_body = heap1 > heap0 ? (double)(heap1 - heap0) / out->bodies : 0.0;
    }
    out->hash = cs_world_hash(w);
    cs_world_destroy(w);
    cs_bench_scene_free(&generated);
    free(row);
    return true;
}

static int compare_seconds(const void* a, const void* b)
{
    double x = ((const bench_result*)a)->seconds, y = ((const bench_result*)b)->seconds;
    return (x > y) - (x < y);
}

// Warm-up, then the repeats; *out is the median repeat (by wall time). Returns 0, or 1 on a failed run or
// repeats that did not end in the same state.
static int run_case(const bench_scene* scene, const cs_variant* variant, int iterations,
                    const bench_setup* setup, int steps, int repeat, int warmup, bench_result* out)
{
    bench_result runs[MAX_REPEAT];
    if (warmup > 0 && !run_once(scene, variant, iterations, setup, warmup, false, &runs[0]))
    {
        return 1;
    }
    double bytes = 0.0;
    for (int r = 0; r < repeat; ++r)
    {
        if (!run_once(scene, variant, iterations, setup, steps, r == 0, &runs[r]))
        {
            return 1;
        }
        if (r == 0)
        {
            bytes = runs[0].bytes_per_body;
        }
        else if (runs[r].hash != runs[0].hash)
        {
            fprintf(stderr,
                    "circlesim-cli bench: %s: repeat %d ended in a different state (hash %016llx, not "
                    "%016llx): the step is not deterministic\n",
                    scene->label, r + 1, (unsigned long long)runs[r].hash, (unsigned long long)runs[0].hash);
            return 1;
        }
    }
    qsort(runs, (size_t)repeat, sizeof runs[0], compare_seconds);
    *out = runs[(repeat - 1) / 2];
    out->bytes_per_body = bytes;
    return 0;
}

int cs_cmd_bench(int argc, char** argv)
{
    const char* cmd = "bench";
    const char *suite = "paper", *scene_list = NULL, *sizes_list = NULL, *csv_path = NULL, *scene_dir = NULL;
    int steps = -1, repeat = 3, warmup = 60;
    bench_setup setup = {.threads = 1, .row_order = CS_ROW_ORDER_COLOURED, .simd = true, .formulation = -1};
    int row_order = -1;
    bool quiet = false;
    int solvers[CS_MAX_VARIANTS] = {cs_solver_find("pgs"), cs_solver_find("amgs")};
    int solver_count = 0; // 0: the suite's default
    double alphas[CS_MAX_VARIANTS] = {0.2};
    int alpha_count = 1;
    bool have_alphas = false;
    int iterations[MAX_ITERATIONS];
    int iteration_count = 0;
    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        const char* v;
        bool ok = true;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        {
            help(stdout);
            return 0;
        }
        if (strcmp(a, "--suite") == 0)
        {
            ok = (suite = cs_arg_value(cmd, argc, argv, &i)) != NULL;
            if (ok && strcmp(suite, "paper") != 0 && strcmp(suite, "scale") != 0 &&
                strcmp(suite, "churn") != 0)
            {
                fprintf(stderr, "circlesim-cli bench: --suite: expected paper, scale or churn, got '%s'\n",
                        suite);
                ok = false;
            }
        }
        else if (strcmp(a, "--scenes") == 0)
            ok = (scene_list = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--sizes") == 0)
            ok = (sizes_list = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--scene-dir") == 0)
            ok = (scene_dir = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--solvers") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) &&
                 (solver_count = cs_arg_solver_list(cmd, a, v, solvers, CS_MAX_VARIANTS)) > 0;
        else if (strcmp(a, "--alphas") == 0)
            ok = have_alphas = (v = cs_arg_value(cmd, argc, argv, &i)) &&
                               (alpha_count = cs_arg_double_list(cmd, a, v, alphas, CS_MAX_VARIANTS)) > 0;
        else if (strcmp(a, "--iterations") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) &&
                 (iteration_count =
                      cs_bench_parse_int_list(cmd, a, v, 1, 1000000, iterations, MAX_ITERATIONS)) > 0;
        else if (strcmp(a, "--steps") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) && cs_arg_int(cmd, a, v, 1, 100000000, &steps);
        else if (strcmp(a, "--repeat") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) && cs_arg_int(cmd, a, v, 1, MAX_REPEAT, &repeat);
        else if (strcmp(a, "--warmup") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) && cs_arg_int(cmd, a, v, 0, 100000000, &warmup);
        else if (strcmp(a, "--threads") == 0)
            ok = (v = cs_arg_value(cmd, argc, argv, &i)) && cs_arg_int(cmd, a, v, 1, 8, &setup.threads);
        else if (strcmp(a, "--no-simd") == 0)
            setup.simd = false;
        else if (strcmp(a, "--row-order") == 0)
            ok = cs_arg_next_row_order(cmd, argc, argv, &i, &row_order);
        else if (strcmp(a, "--formulation") == 0)
            ok = cs_arg_next_formulation(cmd, argc, argv, &i, &setup.formulation);
        else if (strcmp(a, "--csv") == 0)
            ok = (csv_path = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--quiet") == 0)
            quiet = true;
        else
        {
            fprintf(stderr, "circlesim-cli bench: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok)
        {
            return 2;
        }
    }
    bool churn = strcmp(suite, "churn") == 0;
    bool scale = churn || strcmp(suite, "scale") == 0; // one solver, 10 iterations, 300 steps
    if (row_order >= 0)
    {
        setup.row_order = (cs_row_order)row_order;
    }
    if (csv_path != NULL && strcmp(csv_path, "-") == 0)
    {
        quiet = true; // stdout carries the CSV alone
    }
    if (iteration_count == 0)
    {
        iterations[iteration_count++] = 10;
        if (!scale)
        {
            iterations[iteration_count++] = 200;
        }
    }
    if (steps < 0)
    {
        steps = scale ? 300 : 1000;
    }
    if (solver_count == 0)
    {
        // The scale suite is about the engine's cost per circle, not the solvers' (that is the paper
        // suite's question), and one solver keeps it under ~5 minutes.
        solver_count = scale ? 1 : 2;
    }
    if (have_alphas && !cs_arg_check_use(cmd, "--alphas", CS_SOLVER_USES_ALPHA, solvers, solver_count))
    {
        return 2;
    }

    // The scenes.
    bench_scene scenes[MAX_SCENES];
    int scene_count = 0;
    static char paths[MAX_SCENES][4096];
    if (scene_list != NULL)
    {
        const char* p = scene_list;
        while (*p != '\0')
        {
            const char* comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
            if (len == 0 || len >= sizeof paths[0] || scene_count == MAX_SCENES)
            {
                fprintf(stderr,
                        "circlesim-cli bench: --scenes: expected at most %d comma-separated files, "
                        "got '%s'\n",
                        MAX_SCENES, scene_list);
                return 2;
            }
            memcpy(paths[scene_count], p, len);
            paths[scene_count][len] = '\0';
            scenes[scene_count].path = paths[scene_count];
            scenes[scene_count].bodies = 0;
            cs_bench_label_from_path(paths[scene_count], scenes[scene_count].label, sizeof scenes[0].label);
            if (cs_bench_generated_name(paths[scene_count]))
            {
                scenes[scene_count].path = NULL; // pool-N, stream-N: built here, as the peers build them
            }
            scene_count += 1;
            p = comma != NULL ? comma + 1 : p + len;
        }
    }
    else if (scale || sizes_list != NULL)
    {
        int sizes[MAX_SCENES];
        int size_count = churn ? (int)(sizeof churn_sizes / sizeof churn_sizes[0])
                               : (int)(sizeof scale_sizes / sizeof scale_sizes[0]);
        memcpy(sizes, churn ? churn_sizes : scale_sizes, (size_t)size_count * sizeof sizes[0]);
        if (sizes_list != NULL && (size_count = cs_bench_parse_int_list(cmd, "--sizes", sizes_list, 1,
                                                                        10000000, sizes, MAX_SCENES - 1)) < 0)
        {
            return 2;
        }
        if (churn)
        {
            if (!cs_bench_find_scene(scene_dir, "gas", paths[0], sizeof paths[0]))
            {
                fprintf(stderr, "circlesim-cli bench: cannot find gas.json (run from the repository root or "
                                "give --scene-dir)\n");
                return 1;
            }
            scenes[scene_count] = (bench_scene){.label = "gas", .path = paths[0]};
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
    }
    else
    {
        for (size_t k = 0; k < sizeof paper_scenes / sizeof paper_scenes[0]; ++k)
        {
            if (!cs_bench_find_scene(scene_dir, paper_scenes[k], paths[scene_count], sizeof paths[0]))
            {
                fprintf(stderr,
                        "circlesim-cli bench: cannot find %s.json (run from the repository root or "
                        "give --scene-dir)\n",
                        paper_scenes[k]);
                return 1;
            }
            scenes[scene_count].path = paths[scene_count];
            scenes[scene_count].bodies = 0;
            snprintf(scenes[scene_count].label, sizeof scenes[0].label, "%s", paper_scenes[k]);
            scene_count += 1;
        }
    }

    cs_variant variants[CS_MAX_VARIANTS];
    int variant_count =
        cs_variants_expand(solvers, solver_count, alphas, alpha_count, variants, CS_MAX_VARIANTS);

    FILE* csv = NULL;
    if (csv_path != NULL)
    {
        csv = strcmp(csv_path, "-") == 0 ? stdout : fopen(csv_path, "w");
        if (csv == NULL)
        {
            fprintf(stderr, "%s: cannot open for writing\n", csv_path);
            return 1;
        }
        fprintf(csv, "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,"
                     "broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_"
                     "order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,kinetic_"
                     "energy,threads\n");
        fflush(csv);
    }
    if (!quiet)
    {
        printf("# %s row order, vector sweeps %s, %d thread%s\n", cs_row_order_name(setup.row_order),
               !setup.simd ? "off" : (cs_solver_simd_available() ? "on (AVX2)" : "unavailable on this CPU"),
               setup.threads, setup.threads > 1 ? "s" : "");
        printf("%-14s %-16s %5s %6s %7s %8s %8s %9s %10s %8s %8s %9s %9s %7s %8s %8s %8s %10s %9s %9s %9s\n",
               "scene", "solver", "iter", "steps", "bodies", "contacts", "rows", "seconds", "us/step",
               "broad", "narrow", "solver", "position", "B/body", "ns/st/b", "maxpen", "meanpen", "KE drift",
               "top err", "vmax", "KE");
        printf("%-14s %-16s %5s %6s %7s %8s %8s %9s %10s %8s %8s %9s %9s %7s %8s %8s %8s %10s %9s %9s %9s\n",
               "", "", "", "", "", "", "", "s", "", "us", "us", "us", "us", "", "", "mm", "mm", "J", "mm",
               "m/s", "J");
        fflush(stdout);
    }
    int status = 0;
    for (int s = 0; s < scene_count && status == 0; ++s)
    {
        for (int it = 0; it < iteration_count && status == 0; ++it)
        {
            for (int k = 0; k < variant_count && status == 0; ++k)
            {
                bench_result r;
                status =
                    run_case(scenes + s, variants + k, iterations[it], &setup, steps, repeat, warmup, &r);
                if (status != 0)
                {
                    break;
                }
                double us = 1e6 * r.seconds / steps;
                double ns_body = r.bodies > 0 ? 1e3 * us / r.bodies : 0.0;
                char label[96];
                if (!quiet)
                {
                    printf("%-14s %-16s %5d %6d %7d %8.1f %8.1f %9.3f %10.2f %8.2f %8.2f %9.2f %9.2f %7.0f "
                           "%8.1f %8.3f %8.3f %10.3g %9.2f %9.2g %9.2g\n",
                           scenes[s].label, cs_variant_label(variants + k, label, sizeof label),
                           iterations[it], steps, r.bodies, r.mean_contacts, r.mean_rows, r.seconds, us,
                           r.broadphase_us, r.narrowphase_us, r.solver_us, r.position_us, r.bytes_per_body,
                           ns_body, 1e3 * r.max_penetration, 1e3 * r.mean_penetration, r.ke_drift,
                           1e3 * r.top_error, r.final_max_speed, r.kinetic_energy);
                    fflush(stdout);
                }
                if (csv != NULL)
                {
                    fprintf(csv, "%s,%s,", scenes[s].label, cs_solver_at(variants[k].solver)->name);
                    cs_variant_print_alpha(csv, variants + k);
                    fprintf(csv,
                            ",%d,%d,%d,%.2f,%.2f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%.2f,%s,%d,%.6e,%.6e,%."
                            "6e,%.6e,%.6e,%.6e,%d\n",
                            iterations[it], steps, r.bodies, r.mean_contacts, r.mean_rows, r.seconds, us,
                            r.broadphase_us, r.narrowphase_us, r.solver_us, r.position_us, r.bytes_per_body,
                            ns_body, cs_row_order_name(setup.row_order),
                            setup.simd && cs_solver_simd_available() ? 1 : 0, r.max_penetration,
                            r.mean_penetration, r.ke_drift, r.top_error, r.final_max_speed, r.kinetic_energy,
                            setup.threads);
                    fflush(csv);
                }
            }
        }
    }
    if (csv != NULL && csv != stdout && fclose(csv) != 0)
    {
        fprintf(stderr, "%s: write failed\n", csv_path);
        status = 1;
    }
    return status;
}
