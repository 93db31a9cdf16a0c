// circlesim-cli queries: the workload of Box2D v3's `run.sh pool-N STEPS SUBSTEPS WORKERS rays[,sleep]`
// (shared/peers/box2d-v3/b3bench.c) on circlesim: a pool of N circles settles for STEPS steps, then
// 100 000 closest-hit rays (2 m, random origin in the circles' bounds, random direction) and 100 000
// 1 m × 1 m box queries from the same pseudo-random sequence; ns per query and the hit totals. With
// --sleep, sleeping is on, and the awake count and the mean step time of the last tenth are reported.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "cli/args.h"
#include "cli/commands.h"

static void usage(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-cli queries [--bodies N] [--steps S] [--sleep]\n"
        "Settles a pool of N circles (default 5000; the scale suite's layout) for S steps (default 600),\n"
        "then times 100000 closest-hit 2 m rays and 100000 1x1 m box queries (Box2D v3's run.sh rays\n"
        "mode). Prints one line: us_per_step, us_per_step_last_tenth, awake, ns_per_ray, ray_hits,\n"
        "ns_per_aabb, aabb_found.\n"
        "  --sleep   sleeping on\n");
}

// Box2D's bench sequence: a 64-bit LCG, 53 bits per number.
static double next_random(unsigned long long* state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static int run_queries(cs_world* w, int steps)
{
    int tail = steps / 10 > 0 ? steps / 10 : 1;
    double t0 = cs_seconds(), t_tail = 0.0;
    for (int s = 0; s < steps; ++s)
    {
        double ts = cs_seconds();
        if (cs_world_step(w) != CS_OK)
        {
            fprintf(stderr, "queries: step %d: %s\n", s + 1, cs_world_last_error(w));
            return 1;
        }
        t_tail += s >= steps - tail ? cs_seconds() - ts : 0.0;
    }
    double t_run = cs_seconds() - t0;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        lo[0] = fmin(lo[0], b.position.x);
        lo[1] = fmin(lo[1], b.position.y);
        hi[0] = fmax(hi[0], b.position.x);
        hi[1] = fmax(hi[1], b.position.y);
    }
    const int count = 100000;
    unsigned long long state = 12345;
    int hits = 0;
    long long found = 0;
    double r0 = cs_seconds();
    for (int k = 0; k < count; ++k)
    {
        double x = lo[0] + next_random(&state) * (hi[0] - lo[0]),
               y = lo[1] + next_random(&state) * (hi[1] - lo[1]);
        double a = 6.283185307179586 * next_random(&state);
        cs_ray_hit hit;
        hits += cs_world_ray_cast_closest(w, (cs_vec2){x, y}, (cs_vec2){2.0 * cos(a), 2.0 * sin(a)}, &hit);
    }
    double r1 = cs_seconds();
    for (int k = 0; k < count; ++k)
    {
        double x = lo[0] + next_random(&state) * (hi[0] - lo[0]),
               y = lo[1] + next_random(&state) * (hi[1] - lo[1]);
        found += cs_world_query_aabb(w, (cs_vec2){x - 0.5, y - 0.5}, (cs_vec2){x + 0.5, y + 0.5}, NULL, 0);
    }
    double r2 = cs_seconds();
    printf(
        "us_per_step=%.2f us_per_step_last_tenth=%.2f awake=%d ns_per_ray=%.1f ray_hits=%d ns_per_aabb=%.1f "
        "aabb_found=%lld\n",
        1e6 * t_run / steps, 1e6 * t_tail / tail, cs_world_awake_count(w), 1e9 * (r1 - r0) / count, hits,
        1e9 * (r2 - r1) / count, found);
    return 0;
}

int cs_cmd_queries(int argc, char** argv)
{
    const char* cmd = "queries";
    int bodies = 5000, steps = 600;
    bool sleep = false;
    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        if (cs_arg_is_help(a))
        {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--bodies") == 0)
        {
            if (!cs_arg_next_int(cmd, argc, argv, &i, 1, 1000000, &bodies))
            {
                return 2;
            }
        }
        else if (strcmp(a, "--steps") == 0)
        {
            if (!cs_arg_next_int(cmd, argc, argv, &i, 1, 100000000, &steps))
            {
                return 2;
            }
        }
        else if (strcmp(a, "--sleep") == 0)
        {
            sleep = true;
        }
        else
        {
            fprintf(stderr, "%s: unknown option '%s' (see --help)\n", cmd, a);
            return 2;
        }
    }
    cs_error err;
    int columns = (int)lround(sqrt((double)bodies));
    cs_world* w = cs_bench_pool_world(bodies, columns > 0 ? columns : 1, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s: %s\n", cmd, err.message);
        return 1;
    }
    cs_world_enable_sleeping(w, sleep);
    int status = run_queries(w, steps);
    cs_world_destroy(w);
    return status;
}
