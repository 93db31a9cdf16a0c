// circlesim-box2d-v3: the benchmark scenes of circlesim-cli bench run in Box2D v3 (the source of
// ../shared/peers/box2d-v3, built by scripts/peer-box2d-v3.sh), timed the same way and printed in the same
// CSV as circlesim-cli bench and circlesim-peers, so that scripts/bench-vs-peers.sh puts the engines side
// by side — the churning scenes included, which the shared runner (b3bench.c) does not have.
//
// Scenes come from src/cli/bench_scenes.c, the formulas circlesim's bench and scene files use: pool1,
// pool2, pool1-jitter, stacking, stacking150, gas (20 000 elastic discs, e = 1, μ = 0, no gravity,
// restitution at any speed), pool-N and stream-N (pool-N under a falling row every 10 steps). Walls are
// static segments. Box2D's settings are the shared runner's: float, its AVX2 build, its defaults (soft step,
// 4 substeps, relax and restitution passes, continuous collision on), sleeping off, μ and e set on every
// shape so that its mixing rules (sqrt(μa μb), max(ea, eb)) give the scene's values; the gas sets the
// restitution threshold to 0 as scenes/gas.json does.
//
// Usage: circlesim-box2d-v3 --scenes LIST --steps N [--repeat R] [--warmup N] [--substeps S] [--workers W]
//                           [--csv FILE] [--json]
// Each scene: a warm-up run, then R runs from a fresh world; the row is the run with the median wall time
// of its step calls (a stream's spawned row is timed with its step, as circlesim's bench does). Quality is
// measured between the steps, outside the timed calls, as circlesim-cli bench defines it: penetration of
// touching pairs and wall contacts (max over the run, mean of the steps' means), kinetic energy (linear and
// rotational) after the last step minus after the first, highest centre at the start minus at the end,
// final max speed, final kinetic energy. --json instead prints, for one run per scene without warm-up or
// quality pass, exactly the JSON line of the shared runner (run.sh), to check this program against it.
#include "box2d/box2d.h"
#include "cli/bench_scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct run
{
    int bodies;
    double seconds; // the step calls' wall time
    double max_pen, mean_pen, ke_drift, top_error, max_speed, kinetic_energy;
} run;

typedef struct engine
{
    b2WorldId world;
    b2BodyId* ids;
    double* mass; // per body: the scene's mass (the KE and run.sh's quality use it)
    double* radius;
    int count, capacity;
} engine;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void add_discs(engine* e, const cs_bench_scene* s, const cs_bench_disc* d, int n)
{
    for (int i = 0; i < n; ++i)
    {
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        bd.position = (b2Pos){(float)d[i].x, (float)d[i].y};
        bd.linearVelocity = (b2Vec2){(float)d[i].vx, (float)d[i].vy};
        b2BodyId id = b2CreateBody(e->world, &bd);
        b2ShapeDef sd = b2DefaultShapeDef();
        sd.material.friction = (float)s->friction;
        sd.material.restitution = (float)s->restitution;
        sd.density = (float)(d[i].m / (M_PI * d[i].r * d[i].r));
        b2Circle c = {{0, 0}, (float)d[i].r};
        b2CreateCircleShape(id, &sd, &c);
        e->ids[e->count] = id;
        e->mass[e->count] = d[i].m;
        e->radius[e->count] = d[i].r;
        e->count += 1;
    }
}

// The world as the shared runner builds it (ground body with the wall segments first, then the discs in
// order), with room for every disc a stream spawns in `steps` steps.
static void engine_create(engine* e, const cs_bench_scene* s, int steps, int workers)
{
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = (b2Vec2){0, (float)s->gravity_y};
    wd.enableSleep = false;
    wd.workerCount = workers;
    if (s->restitution_threshold < wd.restitutionThreshold)
    {
        wd.restitutionThreshold = (float)s->restitution_threshold;
    }
    e->world = b2CreateWorld(&wd);
    b2BodyDef gd = b2DefaultBodyDef();
    b2BodyId ground = b2CreateBody(e->world, &gd);
    for (int k = 0; k < s->wall_count; ++k)
    {
        const cs_bench_wall* w = &s->walls[k];
        b2ShapeDef sd = b2DefaultShapeDef();
        sd.material.friction = (float)s->friction;
        sd.material.restitution = (float)s->restitution;
        b2Segment seg = {{(float)w->x0, (float)w->y0}, {(float)w->x1, (float)w->y1}};
        b2CreateSegmentShape(ground, &sd, &seg);
    }
    int spawns = s->stream_columns * ((steps + CS_BENCH_STREAM_EVERY - 1) / CS_BENCH_STREAM_EVERY);
    e->capacity = s->count + spawns;
    e->count = 0;
    e->ids = malloc(sizeof *e->ids * (size_t)e->capacity);
    e->mass = malloc(sizeof *e->mass * (size_t)e->capacity);
    e->radius = malloc(sizeof *e->radius * (size_t)e->capacity);
    if (e->ids == NULL || e->mass == NULL || e->radius == NULL)
    {
        fprintf(stderr, "circlesim-box2d-v3: out of memory\n");
        exit(1);
    }
    add_discs(e, s, s->discs, s->count);
}

static void engine_destroy(engine* e)
{
    b2DestroyWorld(e->world);
    free(e->ids);
    free(e->mass);
    free(e->radius);
}

static double kinetic(const engine* e)
{
    double ke = 0.0;
    for (int i = 0; i < e->count; ++i)
    {
        b2Vec2 v = b2Body_GetLinearVelocity(e->ids[i]);
        double w = b2Body_GetAngularVelocity(e->ids[i]);
        ke += 0.5 * e->mass[i] * ((double)v.x * v.x + (double)v.y * v.y) +
              0.5 * b2Body_GetRotationalInertia(e->ids[i]) * w * w;
    }
    return ke;
}

static double highest(const engine* e)
{
    double top = -INFINITY;
    for (int i = 0; i < e->count; ++i)
    {
        double y = b2Body_GetPosition(e->ids[i]).y;
        top = y > top ? y : top;
    }
    return top;
}

// One step's penetrations of touching pairs (circle–circle through a uniform grid, circle–wall against the
// walls' half-planes): adds the step's max into *max and returns the step's mean (0 when nothing overlaps).
typedef struct pen_grid
{
    double* x;
    int* cell;
    int* order;
    int* start;
    size_t start_capacity;
} pen_grid;

static double step_penetration(const engine* e, const cs_bench_scene* s, pen_grid* g, double* max)
{
    int n = e->count;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, rmax = 0.0, sum = 0.0;
    int touching = 0;
    for (int i = 0; i < n; ++i)
    {
        b2Pos p = b2Body_GetPosition(e->ids[i]);
        g->x[2 * i] = p.x;
        g->x[2 * i + 1] = p.y;
        for (int a = 0; a < 2; ++a)
        {
            lo[a] = fmin(lo[a], g->x[2 * i + a]);
            hi[a] = fmax(hi[a], g->x[2 * i + a]);
        }
        rmax = fmax(rmax, e->radius[i]);
        for (int k = 0; k < s->wall_count; ++k)
        {
            const cs_bench_wall* w = &s->walls[k];
            double depth = e->radius[i] - ((g->x[2 * i] - w->x0) * w->nx + (g->x[2 * i + 1] - w->y0) * w->ny);
            if (depth > 0.0)
            {
                sum += depth;
                *max = fmax(*max, depth);
                touching += 1;
            }
        }
    }
    // Cells of 2 rmax (a pair that touches is in neighbouring cells), coarser if the bodies spread far.
    double cell = 2.0 * rmax;
    while ((hi[0] - lo[0]) / cell * ((hi[1] - lo[1]) / cell) > 4.0 * n + 1024.0)
    {
        cell *= 2.0;
    }
    int nx = (int)((hi[0] - lo[0]) / cell) + 1, ny = (int)((hi[1] - lo[1]) / cell) + 1;
    size_t cells = (size_t)nx * (size_t)ny + 1;
    if (cells > g->start_capacity)
    {
        free(g->start);
        g->start = malloc(sizeof *g->start * cells);
        g->start_capacity = cells;
        if (g->start == NULL)
        {
            fprintf(stderr, "circlesim-box2d-v3: out of memory\n");
            exit(1);
        }
    }
    memset(g->start, 0, sizeof *g->start * cells);
    for (int i = 0; i < n; ++i)
    {
        int ix = (int)((g->x[2 * i] - lo[0]) / cell), iy = (int)((g->x[2 * i + 1] - lo[1]) / cell);
        g->cell[i] = iy * nx + ix;
        g->start[g->cell[i] + 1] += 1;
    }
    for (size_t c = 1; c < cells; ++c)
    {
        g->start[c] += g->start[c - 1];
    }
    for (int i = 0; i < n; ++i)
    {
        g->order[g->start[g->cell[i]]++] = i; // start[c] now ends cell c
    }
    for (int i = 0; i < n; ++i)
    {
        int ix = g->cell[i] % nx, iy = g->cell[i] / nx;
        for (int cy = iy - 1; cy <= iy + 1; ++cy)
        {
            for (int cx = ix - 1; cx <= ix + 1; ++cx)
            {
                if (cx < 0 || cy < 0 || cx >= nx || cy >= ny)
                {
                    continue;
                }
                int c = cy * nx + cx, begin = c > 0 ? g->start[c - 1] : 0;
                for (int q = begin; q < g->start[c]; ++q)
                {
                    int j = g->order[q];
                    if (j <= i)
                    {
                        continue;
                    }
                    double dx = g->x[2 * i] - g->x[2 * j], dy = g->x[2 * i + 1] - g->x[2 * j + 1];
                    double depth = e->radius[i] + e->radius[j] - sqrt(dx * dx + dy * dy);
                    if (depth > 0.0)
                    {
                        sum += depth;
                        *max = fmax(*max, depth);
                        touching += 1;
                    }
                }
            }
        }
    }
    return touching > 0 ? sum / touching : 0.0;
}

// One run of `steps` steps from a fresh world; quality between the steps unless `timing_only`.
static void run_once(const cs_bench_scene* s, int steps, int substeps, int workers, bool timing_only,
                     run* out)
{
    engine e;
    engine_create(&e, s, steps, workers);
    cs_bench_disc* row = malloc(sizeof *row * (size_t)(s->stream_columns + 1));
    pen_grid g = {0};
    g.x = malloc(sizeof *g.x * 2 * (size_t)e.capacity);
    g.cell = malloc(sizeof *g.cell * (size_t)e.capacity);
    g.order = malloc(sizeof *g.order * (size_t)e.capacity);
    if (row == NULL || g.x == NULL || g.cell == NULL || g.order == NULL)
    {
        fprintf(stderr, "circlesim-box2d-v3: out of memory\n");
        exit(1);
    }
    memset(out, 0, sizeof *out);
    double top0 = highest(&e), ke_first = 0.0, pen_sum = 0.0;
    for (int step = 0; step < steps; ++step)
    {
        double t0 = now();
        add_discs(&e, s, row, cs_bench_stream_row(s, step, row));
        b2World_Step(e.world, 1.0f / 60.0f, substeps);
        out->seconds += now() - t0;
        if (!timing_only)
        {
            pen_sum += step_penetration(&e, s, &g, &out->max_pen);
            ke_first = step == 0 ? kinetic(&e) : ke_first;
        }
    }
    out->bodies = e.count;
    out->mean_pen = steps > 0 ? pen_sum / steps : 0.0;
    out->kinetic_energy = kinetic(&e);
    out->ke_drift = out->kinetic_energy - ke_first;
    out->top_error = top0 - highest(&e);
    for (int i = 0; i < e.count; ++i)
    {
        b2Vec2 v = b2Body_GetLinearVelocity(e.ids[i]);
        out->max_speed = fmax(out->max_speed, sqrt((double)v.x * v.x + (double)v.y * v.y));
    }
    engine_destroy(&e);
    free(row);
    free(g.x);
    free(g.cell);
    free(g.order);
    free(g.start);
}

// The shared runner's JSON line (b3bench.c), from one plain run: its quality is measured after the run,
// circle–circle penetration over all pairs (n ≤ 3000), the floor's separately, linear kinetic energy.
static void run_json(const cs_bench_scene* s, int steps, int substeps, int workers)
{
    engine e;
    engine_create(&e, s, steps, workers);
    cs_bench_disc* row = malloc(sizeof *row * (size_t)(s->stream_columns + 1));
    double t0 = now();
    for (int step = 0; step < steps; ++step)
    {
        add_discs(&e, s, row, cs_bench_stream_row(s, step, row));
        b2World_Step(e.world, 1.0f / 60.0f, substeps);
    }
    double t = now() - t0;
    int n = e.count, pc = 0;
    double pmax = 0, psum = 0, fmax_pen = 0, ke = 0, vmax = 0, ytop = -1e9;
    double* X = malloc(sizeof *X * 2 * (size_t)n);
    for (int i = 0; i < n; i++)
    {
        b2Pos p = b2Body_GetPosition(e.ids[i]);
        X[2 * i] = p.x;
        X[2 * i + 1] = p.y;
        b2Vec2 v = b2Body_GetLinearVelocity(e.ids[i]);
        double sp = sqrt(v.x * v.x + v.y * v.y);
        ke += 0.5 * e.mass[i] * sp * sp;
        vmax = fmax(vmax, sp);
        ytop = fmax(ytop, X[2 * i + 1]);
        fmax_pen = fmax(fmax_pen, e.radius[i] - X[2 * i + 1]);
    }
    for (int i = 0; n <= 3000 && i < n; i++)
    {
        for (int j = i + 1; j < n; j++)
        {
            double dx = X[2 * i] - X[2 * j], dy = X[2 * i + 1] - X[2 * j + 1];
            double pen = e.radius[i] + e.radius[j] - sqrt(dx * dx + dy * dy);
            if (pen > 0)
            {
                pc++;
                psum += pen;
                pmax = fmax(pmax, pen);
            }
        }
    }
    printf("{\"engine\":\"box2d-v3\",\"scene\":\"%s\",\"steps\":%d,\"substeps\":%d,\"workers\":%d,\"us_per_"
           "step\":%.2f,"
           "\"pen_max_mm\":%.3f,\"pen_mean_mm\":%.3f,\"floor_pen_max_mm\":%.3f,\"ke\":%.3e,\"vmax\":%.3e,"
           "\"top\":%."
           "5f,\"top_err_pct\":%.3f}\n",
           s->name, steps, substeps, workers, 1e6 * t / steps, 1e3 * pmax, pc ? 1e3 * psum / pc : 0,
           1e3 * fmax_pen, ke, vmax, ytop, s->top_exact > 0 ? 100 * (ytop - s->top_exact) / s->top_exact : 0);
    fflush(stdout);
    free(X);
    free(row);
    engine_destroy(&e);
}

static int compare_seconds(const void* a, const void* b)
{
    double x = ((const run*)a)->seconds, y = ((const run*)b)->seconds;
    return (x > y) - (x < y);
}

static int positive(const char* opt, const char* text, int min)
{
    char* end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < min || v > 100000000)
    {
        fprintf(stderr, "circlesim-box2d-v3: %s: expected an integer >= %d, got '%s'\n", opt, min, text);
        exit(2);
    }
    return (int)v;
}

int main(int argc, char** argv)
{
    const char *scenes = NULL, *csv_path = NULL;
    int steps = -1, repeat = 3, warmup = 60, substeps = 4, workers = 1;
    bool json = false;
    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        if (strcmp(a, "--json") == 0)
        {
            json = true;
            continue;
        }
        if (i + 1 >= argc)
        {
            fprintf(stderr, "circlesim-box2d-v3: unknown option or missing value: '%s'\n", a);
            return 2;
        }
        const char* v = argv[++i];
        if (strcmp(a, "--scenes") == 0)
            scenes = v;
        else if (strcmp(a, "--csv") == 0)
            csv_path = v;
        else if (strcmp(a, "--steps") == 0)
            steps = positive(a, v, 1);
        else if (strcmp(a, "--repeat") == 0)
            repeat = positive(a, v, 1);
        else if (strcmp(a, "--warmup") == 0)
            warmup = positive(a, v, 0);
        else if (strcmp(a, "--substeps") == 0)
            substeps = positive(a, v, 1);
        else if (strcmp(a, "--workers") == 0)
            workers = positive(a, v, 1);
        else
        {
            fprintf(stderr, "circlesim-box2d-v3: unknown option '%s'\n", a);
            return 2;
        }
    }
    if (scenes == NULL || steps < 0)
    {
        fprintf(stderr, "usage: circlesim-box2d-v3 --scenes LIST --steps N [--repeat R] [--warmup N] "
                        "[--substeps S] [--workers W] [--csv FILE] [--json]\n");
        return 2;
    }
    FILE* csv = csv_path == NULL || strcmp(csv_path, "-") == 0 ? stdout : fopen(csv_path, "w");
    if (csv == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing\n", csv_path);
        return 1;
    }
    if (!json)
    {
        fprintf(csv, "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,"
                     "broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_"
                     "order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,kinetic_"
                     "energy,threads\n");
    }
    char list[4096];
    snprintf(list, sizeof list, "%s", scenes);
    for (char* name = strtok(list, ","); name != NULL; name = strtok(NULL, ","))
    {
        cs_bench_scene s;
        if (!cs_bench_scene_make(name, &s))
        {
            fprintf(stderr,
                    "circlesim-box2d-v3: --scenes: unknown scene '%s' (pool1, pool2, pool1-jitter, "
                    "stacking, stacking150, gas, pool-N, stream-N)\n",
                    name);
            return 2;
        }
        if (json)
        {
            run_json(&s, steps, substeps, workers);
            cs_bench_scene_free(&s);
            continue;
        }
        run runs[101];
        repeat = repeat < 101 ? repeat : 101;
        if (warmup > 0)
        {
            run_once(&s, warmup, substeps, workers, true, &runs[0]);
        }
        for (int r = 0; r < repeat; ++r)
        {
            run_once(&s, steps, substeps, workers, false, &runs[r]);
        }
        qsort(runs, (size_t)repeat, sizeof runs[0], compare_seconds);
        const run* m = &runs[(repeat - 1) / 2];
        double us = 1e6 * m->seconds / steps;
        // Box2D v3's 4 substeps stand beside circlesim's default 10 iterations (it has no iteration count).
        fprintf(csv, "%s,box2d-v3,,10,%d,%d,,,%.6f,%.3f,,,,,,%.2f,,,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%d\n",
                s.name, steps, m->bodies, m->seconds, us, 1e3 * us / m->bodies, m->max_pen, m->mean_pen,
                m->ke_drift, m->top_error, m->max_speed, m->kinetic_energy, workers);
        fflush(csv);
        cs_bench_scene_free(&s);
    }
    if (csv != stdout && fclose(csv) != 0)
    {
        fprintf(stderr, "%s: write failed\n", csv_path);
        return 1;
    }
    return 0;
}
