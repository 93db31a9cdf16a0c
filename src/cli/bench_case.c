// One benchmark case of circlesim-cli bench (cmd_bench.c has the suites): every run builds a fresh world
// and is timed whole; the repeats must end in bit-identical states (the world is deterministic on one build).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/bench_case.h"
#include "cli/bench_world.h"

static size_t heap_in_use(void)
{
#if defined(__GLIBC__)
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}

// A scene file's world, or a generated scene's (pool-N: about as tall as wide before it falls; `generated`
// keeps its numbers for a stream's rows).
static cs_world* make_world(const cs_bench_case_scene* scene, const cs_variant* variant, int iterations,
                            const cs_bench_setup* setup, cs_bench_scene* generated, cs_error* err)
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
static bool run_once(const cs_bench_case_scene* scene, const cs_variant* variant, int iterations,
                     const cs_bench_setup* setup, int steps, bool measure_heap, cs_bench_result* out)
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
    double x = ((const cs_bench_result*)a)->seconds, y = ((const cs_bench_result*)b)->seconds;
    return (x > y) - (x < y);
}

// Warm-up, then the repeats; *out is the median repeat (by wall time). Returns 0, or 1 on a failed run or
// repeats that did not end in the same state.
int cs_bench_run_case(const cs_bench_case_scene* scene, const cs_variant* variant, int iterations,
                      const cs_bench_setup* setup, int steps, int repeat, int warmup, cs_bench_result* out)
{
    cs_bench_result runs[CS_BENCH_MAX_REPEAT];
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
