// One benchmark case of circlesim-cli bench (bench_case.c): a fresh world per run, a warm-up, timed repeats
// checked to end in the same state, and the median repeat with the run's quality numbers.
#ifndef CS_CLI_BENCH_CASE_H
#define CS_CLI_BENCH_CASE_H

#include "circlesim/circlesim.h"
#include "cli/variants.h"

#include <stdbool.h>
#include <stdint.h>

#define CS_BENCH_MAX_REPEAT 101

// What a case runs on: a scene file or a generated scene of bench_scenes.h (pool-N, stream-N).
typedef struct cs_bench_case_scene
{
    char label[64];
    const char* path; // NULL: generated, label names it
    int bodies;
} cs_bench_case_scene;

typedef struct cs_bench_result
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
} cs_bench_result;

// World settings every case of a run shares.
typedef struct cs_bench_setup
{
    int threads;
    cs_row_order row_order;
    bool simd;
    int formulation; // -1: the scene's
} cs_bench_setup;

// Warm-up, then the repeats; *out is the median repeat (by wall time). Returns 0, or 1 on a failed run or
// repeats that did not end in the same state (the message is printed).
int cs_bench_run_case(const cs_bench_case_scene* scene, const cs_variant* variant, int iterations,
                      const cs_bench_setup* setup, int steps, int repeat, int warmup, cs_bench_result* out);

#endif
