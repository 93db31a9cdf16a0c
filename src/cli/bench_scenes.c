// The benchmark scenes as plain numbers: one formula for circlesim-cli bench and the peer programs
// (bench_scenes.h). The paper's scenes and the gas restate their scene files' generators
// (scenes/*.json through src/scene/scene_generators.c) through the same formulas
// (src/scene/generator_formulas.c, which the peers compile beside this file), so that the same file and the
// same name give bit-identical starting positions and velocities (test_bench_scenes).
#include "cli/bench_scenes.h"

#include "scene/generator_formulas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Pool 1's lattice: r 0.21 m circles 0.44 m apart in a row, rows 0.45 m apart, odd rows shifted by half a
// spacing, the walls 0.14 m clear of the outer circles.
#define POOL_SX     0.44
#define POOL_SY     0.45
#define POOL_RADIUS 0.21
#define WALL_HEIGHT 1.0e4 // the pool's side walls as segments: far above any pile

#define STACK_RADIUS 0.18

// scenes/gas.json: 20 000 discs of r 0.1 m and 1 kg covering 20 % of a closed 56.05 m box at 0.5–3 m/s.
#define GAS_COUNT     20000
#define GAS_SEED      20000
#define GAS_BOX       56.05
#define GAS_RADIUS    0.1
#define PILE_TRIES    1000 // CS_PILE_TRIES of the scene loader
#define STREAM_SPEED  3.0  // m/s, downwards, of every spawned row
#define JITTER        0.01 // m, scenes/pool1-jitter.json
#define JITTER_SEED   1
#define MAX_GENERATED 10000000

static void add_wall(cs_bench_scene* s, double x0, double y0, double x1, double y1, double nx, double ny)
{
    s->walls[s->wall_count++] = (cs_bench_wall){x0, y0, x1, y1, nx, ny};
}

static bool alloc_discs(cs_bench_scene* s, int count)
{
    s->count = count;
    s->discs = calloc((size_t)count, sizeof *s->discs);
    return s->discs != NULL;
}

// The lattice position of circle k of row r: Pool 1's grid generator (origin, spacing, odd-row offset),
// moved by `jitter` from *state.
static void lattice(const cs_bench_scene* s, int r, int k, double jitter, uint64_t* state, cs_bench_disc* d)
{
    cs_gen_grid_point(-s->pool_half + 0.25, 0.22, POOL_SX, POOL_SY, 0.5 * POOL_SX, jitter, r, k, state, &d->x,
                      &d->y);
    d->r = POOL_RADIUS;
}

// count circles in `columns` columns of Pool 1's lattice; Pool 2's masses rise by row from 1 to 3 kg.
static bool pool(cs_bench_scene* s, int count, int columns, bool mass_by_row, double jitter, uint64_t seed)
{
    s->pool_columns = columns;
    s->pool_rows = (count + columns - 1) / columns;
    s->pool_half = 0.5 * (columns * POOL_SX + 0.28);
    if (!alloc_discs(s, count))
    {
        return false;
    }
    uint64_t state = seed;
    for (int i = 0; i < count; ++i)
    {
        int r = i / columns, k = i % columns;
        lattice(s, r, k, jitter, &state, &s->discs[i]);
        s->discs[i].m = mass_by_row ? cs_gen_row_mass(r, s->pool_rows, 1.0, 3.0) : 2.0;
    }
    double h = s->pool_half;
    add_wall(s, 0.0, 0.0, h, 0.0, 0.0, 1.0); // the floor: the segment spans the pool
    s->walls[0].x0 = -h;
    add_wall(s, -h, 0.0, -h, WALL_HEIGHT, 1.0, 0.0);
    add_wall(s, h, 0.0, h, WALL_HEIGHT, -1.0, 0.0);
    s->gravity_y = -9.80665;
    s->friction = 0.1;
    s->restitution = 0.2;
    s->restitution_threshold = 1.0;
    return true;
}

static bool stack(cs_bench_scene* s, int count)
{
    if (!alloc_discs(s, count))
    {
        return false;
    }
    for (int k = 0; k < count; ++k)
    {
        s->discs[k] =
            (cs_bench_disc){0.0, cs_gen_stack_y(0.0, STACK_RADIUS, 0.0, k), 0, 0, STACK_RADIUS, 1.0};
    }
    s->top_exact = s->discs[count - 1].y;
    add_wall(s, 0.0, 0.0, 1.0e3, 0.0, 0.0, 1.0);
    s->walls[0].x0 = -1.0e3;
    s->gravity_y = -9.80665;
    s->friction = 0.1;
    s->restitution = 0.2;
    s->restitution_threshold = 1.0;
    return true;
}

// The scene format's "pile" generator with "speed_range" (cs_gen_pile_place, then cs_gen_pile_velocity).
static bool gas(cs_bench_scene* s)
{
    if (!alloc_discs(s, GAS_COUNT))
    {
        return false;
    }
    cs_gen_pile spec = {.seed = GAS_SEED,
                        .count = GAS_COUNT,
                        .region = {0.0, 0.0, GAS_BOX, GAS_BOX},
                        .radius = GAS_RADIUS,
                        .tries = PILE_TRIES};
    double* x = malloc(GAS_COUNT * sizeof *x);
    double* y = malloc(GAS_COUNT * sizeof *y);
    double* r = malloc(GAS_COUNT * sizeof *r);
    int placed = 0;
    bool ok =
        x != NULL && y != NULL && r != NULL && cs_gen_pile_place(&spec, x, y, r, &placed) == CS_GEN_PILE_OK;
    uint64_t velocities = cs_gen_velocity_seed(GAS_SEED);
    for (int n = 0; ok && n < GAS_COUNT; ++n)
    {
        cs_bench_disc* d = &s->discs[n];
        *d = (cs_bench_disc){x[n], y[n], 0.0, 0.0, r[n], 1.0};
        cs_gen_pile_velocity(&velocities, 0.5, 3.0, 0.0, 0.0, &d->vx, &d->vy);
    }
    free(x);
    free(y);
    free(r);
    add_wall(s, 0.0, 0.0, GAS_BOX, 0.0, 0.0, 1.0);
    add_wall(s, 0.0, 0.0, 0.0, GAS_BOX, 1.0, 0.0);
    add_wall(s, GAS_BOX, GAS_BOX, 0.0, GAS_BOX, 0.0, -1.0);
    add_wall(s, GAS_BOX, GAS_BOX, GAS_BOX, 0.0, -1.0, 0.0);
    s->gravity_y = 0.0;
    s->friction = 0.0;
    s->restitution = 1.0;
    s->restitution_threshold = 0.0;
    return ok;
}

// N from "prefix-N", 1 ≤ N ≤ MAX_GENERATED; -1 otherwise.
static int sized(const char* name, const char* prefix)
{
    size_t len = strlen(prefix);
    if (strncmp(name, prefix, len) != 0 || name[len] < '1' || name[len] > '9')
    {
        return -1;
    }
    char* end = NULL;
    long n = strtol(name + len, &end, 10);
    return *end == '\0' && n <= MAX_GENERATED ? (int)n : -1;
}

bool cs_bench_scene_make(const char* name, cs_bench_scene* out)
{
    memset(out, 0, sizeof *out);
    if (strlen(name) >= sizeof out->name)
    {
        return false;
    }
    snprintf(out->name, sizeof out->name, "%s", name);
    int n;
    bool ok;
    if (strcmp(name, "pool1") == 0 || strcmp(name, "pool2") == 0)
        ok = pool(out, 221, 13, name[4] == '2', 0.0, 0);
    else if (strcmp(name, "pool1-jitter") == 0)
        ok = pool(out, 221, 13, false, JITTER, JITTER_SEED);
    else if (strcmp(name, "stacking") == 0 || strcmp(name, "stacking150") == 0)
        ok = stack(out, name[8] == '\0' ? 30 : 150);
    else if (strcmp(name, "gas") == 0)
        ok = gas(out);
    else if ((n = sized(name, "pool-")) > 0)
        ok = pool(out, n, (int)lround(sqrt((double)n)), false, 0.0, 0);
    else if ((n = sized(name, "stream-")) > 0)
    {
        ok = pool(out, n, (int)lround(sqrt((double)n)), false, 0.0, 0);
        out->stream_columns = out->pool_columns;
    }
    else
        ok = false;
    if (!ok)
    {
        cs_bench_scene_free(out);
    }
    return ok;
}

bool cs_bench_scene_pool(int count, int columns, cs_bench_scene* out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "pool-%d", count);
    if (count < 1 || count > MAX_GENERATED || columns < 1 || !pool(out, count, columns, false, 0.0, 0))
    {
        cs_bench_scene_free(out);
        return false;
    }
    return true;
}

void cs_bench_scene_free(cs_bench_scene* s)
{
    free(s->discs);
    memset(s, 0, sizeof *s);
}

int cs_bench_stream_row(const cs_bench_scene* s, int step, cs_bench_disc* out)
{
    if (s->stream_columns == 0 || step < 0 || step % CS_BENCH_STREAM_EVERY != 0)
    {
        return 0;
    }
    int row = s->pool_rows + step / CS_BENCH_STREAM_EVERY;
    for (int k = 0; k < s->stream_columns; ++k)
    {
        lattice(s, row, k, 0.0, NULL, &out[k]);
        out[k].vx = 0.0;
        out[k].vy = -STREAM_SPEED;
        out[k].m = 2.0;
    }
    return s->stream_columns;
}
