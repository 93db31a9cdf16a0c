// The benchmark scenes as plain numbers: one formula for circlesim-cli bench and the peer programs
// (bench_scenes.h). The paper's scenes and the gas restate their scene files' generators
// (scenes/*.json through src/scene/scene_generators.c) operation for operation, so that the same file
// and the same name give bit-identical starting positions and velocities (test_bench_scenes).
#include "cli/bench_scenes.h"

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

uint64_t cs_bench_splitmix64(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double cs_bench_uniform(uint64_t* state, double lo, double hi)
{
    double u = (double)(cs_bench_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

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

// The lattice position of circle k of row r (Pool 1's grid generator: origin + k spacing + odd-row offset).
static void lattice(const cs_bench_scene* s, int r, int k, cs_bench_disc* d)
{
    d->x = -s->pool_half + 0.25 + k * POOL_SX + ((r & 1) != 0 ? 0.5 * POOL_SX : 0.0);
    d->y = 0.22 + r * POOL_SY;
    d->r = POOL_RADIUS;
}

// count circles in `columns` columns of Pool 1's lattice; Pool 2's masses rise by row from 1 to 3 kg.
static bool pool(cs_bench_scene* s, int count, int columns, bool mass_by_row)
{
    s->pool_columns = columns;
    s->pool_rows = (count + columns - 1) / columns;
    s->pool_half = 0.5 * (columns * POOL_SX + 0.28);
    if (!alloc_discs(s, count))
    {
        return false;
    }
    for (int i = 0; i < count; ++i)
    {
        int r = i / columns, k = i % columns;
        double t = s->pool_rows > 1 ? (double)r / (double)(s->pool_rows - 1) : 0.0;
        lattice(s, r, k, &s->discs[i]);
        s->discs[i].m = mass_by_row ? 1.0 + (3.0 - 1.0) * t : 2.0;
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
            (cs_bench_disc){0.0, 0.0 + STACK_RADIUS + k * (2.0 * STACK_RADIUS), 0, 0, STACK_RADIUS, 1.0};
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

// Free of every placed disc (a grid of 2 rmax cells: the 3 × 3 block around the try holds all of them).
typedef struct placer
{
    double cell;
    int nx, ny;
    int* head;
    int* next;
} placer;

static void cell_of(const placer* p, double x, double y, int* ix, int* iy)
{
    double fx = floor(x / p->cell), fy = floor(y / p->cell);
    *ix = fx < 0.0 ? 0 : (fx >= (double)p->nx ? p->nx - 1 : (int)fx);
    *iy = fy < 0.0 ? 0 : (fy >= (double)p->ny ? p->ny - 1 : (int)fy);
}

static bool is_free(const placer* p, const cs_bench_disc* d, double x, double y, double r)
{
    int ix, iy;
    cell_of(p, x, y, &ix, &iy);
    for (int j = iy - 1; j <= iy + 1; ++j)
    {
        for (int i = ix - 1; i <= ix + 1; ++i)
        {
            if (i < 0 || j < 0 || i >= p->nx || j >= p->ny)
            {
                continue;
            }
            for (int k = p->head[j * p->nx + i]; k >= 0; k = p->next[k])
            {
                double dx = x - d[k].x, dy = y - d[k].y, reach = r + d[k].r;
                if (dx * dx + dy * dy < reach * reach)
                {
                    return false;
                }
            }
        }
    }
    return true;
}

// The scene format's "pile" generator with "speed_range": random sequential addition in the box from
// the seed's stream, then speed and direction from a second stream (seed ^ 0x5DEECE66D).
static bool gas(cs_bench_scene* s)
{
    if (!alloc_discs(s, GAS_COUNT))
    {
        return false;
    }
    placer p;
    p.cell = 2.0 * GAS_RADIUS;
    p.nx = p.ny = (int)(GAS_BOX / p.cell) + 1;
    p.head = malloc((size_t)p.nx * (size_t)p.ny * sizeof *p.head);
    p.next = malloc((size_t)GAS_COUNT * sizeof *p.next);
    bool ok = p.head != NULL && p.next != NULL;
    for (int i = 0; ok && i < p.nx * p.ny; ++i)
    {
        p.head[i] = -1;
    }
    uint64_t state = GAS_SEED;
    for (int n = 0; ok && n < GAS_COUNT; ++n)
    {
        const double r = GAS_RADIUS;
        bool placed = false;
        for (int t = 0; t < PILE_TRIES && !placed; ++t)
        {
            double x = cs_bench_uniform(&state, 0.0 + r, GAS_BOX - r);
            double y = cs_bench_uniform(&state, 0.0 + r, GAS_BOX - r);
            if (is_free(&p, s->discs, x, y, r))
            {
                int ix, iy;
                cell_of(&p, x, y, &ix, &iy);
                s->discs[n] = (cs_bench_disc){x, y, 0.0, 0.0, r, 1.0};
                p.next[n] = p.head[iy * p.nx + ix];
                p.head[iy * p.nx + ix] = n;
                placed = true;
            }
        }
        ok = placed;
    }
    uint64_t velocities = (uint64_t)GAS_SEED ^ 0x5DEECE66Dull;
    for (int n = 0; ok && n < GAS_COUNT; ++n)
    {
        double speed = cs_bench_uniform(&velocities, 0.5, 3.0);
        double angle = cs_bench_uniform(&velocities, 0.0, 6.283185307179586);
        s->discs[n].vx = 0.0 + speed * cos(angle);
        s->discs[n].vy = 0.0 + speed * sin(angle);
    }
    free(p.head);
    free(p.next);
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
        ok = pool(out, 221, 13, name[4] == '2');
    else if (strcmp(name, "pool1-jitter") == 0)
    {
        ok = pool(out, 221, 13, false);
        uint64_t state = JITTER_SEED;
        for (int i = 0; ok && i < out->count; ++i)
        {
            out->discs[i].x += cs_bench_uniform(&state, -JITTER, JITTER);
            out->discs[i].y += cs_bench_uniform(&state, -JITTER, JITTER);
        }
    }
    else if (strcmp(name, "stacking") == 0 || strcmp(name, "stacking150") == 0)
        ok = stack(out, name[8] == '\0' ? 30 : 150);
    else if (strcmp(name, "gas") == 0)
        ok = gas(out);
    else if ((n = sized(name, "pool-")) > 0)
        ok = pool(out, n, (int)lround(sqrt((double)n)), false);
    else if ((n = sized(name, "stream-")) > 0)
    {
        ok = pool(out, n, (int)lround(sqrt((double)n)), false);
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
    if (count < 1 || count > MAX_GENERATED || columns < 1 || !pool(out, count, columns, false))
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
        lattice(s, row, k, &out[k]);
        out[k].vx = 0.0;
        out[k].vy = -STREAM_SPEED;
        out[k].m = 2.0;
    }
    return s->stream_columns;
}
