// The broad phase's grid (broadphase.h): the cell size, each body's cell and the bodies sorted by cell (a
// counting sort), built in passes over chunks of CS_BROADPHASE_CHUNK bodies that the pool's threads take.
//
// Every pass writes only its chunk's bodies or its chunk's slot of bp->grid_chunks, and what the chunks
// found is combined in chunk order (the mean radius is a sum: its chunks' sums are added in chunk order,
// on one thread too), so the grid is the same for any thread count. What stays on the caller is cheap per
// body: the counts per cell, their prefix sum and each body's place (a few instructions a body); each
// body's cell (two divisions) and the copy of its x, y and radius to its place are chunked.
#include "contact/broadphase.h"

#include <math.h>
#include <string.h>

#include "core/array.h"

static inline double min2(double x, double y)
{
    return x < y ? x : y; // (not fmin: a library call without -ffinite-math, and every value is finite)
}

static inline double max2(double x, double y)
{
    return x > y ? x : y;
}

// cell_of while the grid is built: a large body until it is listed in bp->large.
#define CELL_LARGE (-2)

typedef struct grid_job
{
    cs_broadphase* bp;
    const double *px, *py, *radius;
    int count;
    double large_radius; // pass 2 on
} grid_job;

static void chunk_range(const grid_job* j, int chunk, int* first, int* end)
{
    *first = chunk * CS_BROADPHASE_CHUNK;
    *end = *first + CS_BROADPHASE_CHUNK < j->count ? *first + CS_BROADPHASE_CHUNK : j->count;
}

// Pass 1: the chunk's sum of radii and count of bodies that take part (the mean radius says which are large).
static void measure_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const grid_job* j = ctx;
    int first, end;
    chunk_range(j, chunk, &first, &end);
    cs_grid_chunk* g = j->bp->grid_chunks + chunk;
    g->sum_r = 0.0;
    g->finite = 0;
    for (int i = first; i < end; ++i)
    {
        if (cs_broadphase_takes_part(j->bp, j->px, j->py, i))
        {
            g->sum_r += j->radius[i];
            g->finite += 1;
        }
    }
}

// Pass 2: each body out (-1), large (CELL_LARGE) or in the grid (0 for now); the chunk's largest grid
// radius, its grid bodies' box and its count of large bodies.
static void classify_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const grid_job* j = ctx;
    const cs_broadphase* bp = j->bp;
    const double *px = j->px, *py = j->py, *radius = j->radius;
    int first, end;
    chunk_range(j, chunk, &first, &end);
    const double* base = bp->list.base_radius;
    double max_r = 0.0, max_travel = 0.0, lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY,
           hi_y = -INFINITY;
    int large = 0;
    for (int i = first; i < end; ++i)
    {
        int cell = -1;
        if (cs_broadphase_takes_part(bp, px, py, i))
        {
            cell = radius[i] > j->large_radius ? CELL_LARGE : 0;
            max_travel = base != NULL ? max2(max_travel, radius[i] - base[i]) : 0.0;
        }
        bp->cell_of[i] = cell;
        large += cell == CELL_LARGE;
        if (cell == 0)
        {
            max_r = max2(max_r, radius[i]);
            lo_x = min2(lo_x, px[i]);
            lo_y = min2(lo_y, py[i]);
            hi_x = max2(hi_x, px[i]);
            hi_y = max2(hi_y, py[i]);
        }
    }
    cs_grid_chunk* g = bp->grid_chunks + chunk;
    *g = (cs_grid_chunk){g->sum_r, max_r, max_travel, lo_x, lo_y, hi_x, hi_y, g->finite, large};
}

// Pass 3: each grid body's cell.
static void cell_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const grid_job* j = ctx;
    cs_broadphase* bp = j->bp;
    const int cells_x = bp->cells_x, cells_y = bp->cells_y;
    const double lo_x = bp->origin_x, lo_y = bp->origin_y, half_cell = 0.5 * bp->cell_size;
    int first, end;
    chunk_range(j, chunk, &first, &end);
    for (int i = first; i < end; ++i)
    {
        if (bp->cell_of[i] < 0)
        {
            continue;
        }
        int cx = (int)((0.5 * j->px[i] - 0.5 * lo_x) / half_cell);
        int cy = (int)((0.5 * j->py[i] - 0.5 * lo_y) / half_cell);
        cx = cx < 0 ? 0 : (cx >= cells_x ? cells_x - 1 : cx);
        cy = cy < 0 ? 0 : (cy >= cells_y ? cells_y - 1 : cy);
        bp->cell_of[i] = cy * cells_x + cx;
    }
}

// Pass 4: each grid body and its x, y and radius to its place (bp->place_of).
static void scatter_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const grid_job* j = ctx;
    cs_broadphase* bp = j->bp;
    int first, end;
    chunk_range(j, chunk, &first, &end);
    for (int i = first; i < end; ++i)
    {
        if (bp->cell_of[i] >= 0)
        {
            int k = bp->place_of[i];
            bp->sorted[k] = i;
            bp->sorted_x[k] = j->px[i];
            bp->sorted_y[k] = j->py[i];
            bp->sorted_r[k] = j->radius[i];
        }
    }
}

// The chunks' sums in chunk order: the radius above which a body is large (4x the mean; none when fewer
// than two bodies take part).
static double large_radius(const cs_broadphase* bp, int chunks)
{
    double sum_r = 0.0;
    int finite = 0;
    for (int c = 0; c < chunks; ++c)
    {
        sum_r += bp->grid_chunks[c].sum_r;
        finite += bp->grid_chunks[c].finite;
    }
    return finite > 1 ? 4.0 * sum_r / finite : INFINITY;
}

// The chunks' boxes into one (*box: lo_x, lo_y, hi_x, hi_y) and their large bodies into bp->large, in body
// order. Returns the largest grid radius.
static double combine_chunks(cs_broadphase* bp, int count, int chunks, double box[4])
{
    double max_r = 0.0;
    bp->list.grid_max_travel = 0.0;
    box[0] = box[1] = INFINITY;
    box[2] = box[3] = -INFINITY;
    for (int c = 0; c < chunks; ++c)
    {
        const cs_grid_chunk* g = bp->grid_chunks + c;
        max_r = max2(max_r, g->max_r);
        bp->list.grid_max_travel = max2(bp->list.grid_max_travel, g->max_travel);
        box[0] = min2(box[0], g->lo_x);
        box[1] = min2(box[1], g->lo_y);
        box[2] = max2(box[2], g->hi_x);
        box[3] = max2(box[3], g->hi_y);
        int end = (c + 1) * CS_BROADPHASE_CHUNK < count ? (c + 1) * CS_BROADPHASE_CHUNK : count;
        for (int i = c * CS_BROADPHASE_CHUNK; g->large > 0 && i < end; ++i)
        {
            if (bp->cell_of[i] == CELL_LARGE)
            {
                bp->cell_of[i] = -1;
                bp->large[bp->large_count++] = i;
            }
        }
    }
    return max_r;
}

// The cell size and counts: at least the largest grid diameter plus the margin, grown while the box would
// need more than ~4N cells, so memory stays O(N) whatever the world's extent.
static void grid_dimensions(cs_broadphase* bp, const double box[4], double max_r, double margin, int count)
{
    const double lo_x = box[0], lo_y = box[1], hi_x = box[2], hi_y = box[3];
    int cells_x = 1, cells_y = 1;
    double cell = 2.0 * max_r + margin;
    // Extents are taken as halves (hi/2 - lo/2 never overflows), so bodies at -1e308 and +1e308, finite
    // but 2e308 apart, still give a finite grid.
    double half_x = 0.5 * hi_x - 0.5 * lo_x;
    double half_y = 0.5 * hi_y - 0.5 * lo_y;
    if (lo_x <= hi_x)
    {
        if (!(cell > 0.0) || !isfinite(cell))
        {
            cell = 1.0;
        }
        double max_cells = 4.0 * count + 16.0;
        for (;;)
        {
            double nx = floor(half_x / (0.5 * cell)) + 1.0;
            double ny = floor(half_y / (0.5 * cell)) + 1.0;
            if (nx * ny <= max_cells)
            {
                cells_x = (int)nx;
                cells_y = (int)ny;
                break;
            }
            double grown = cell * sqrt(nx * ny / max_cells) * 1.01;
            // A tiny cell over a huge extent overflows the count: jump to a cell of the whole extent
            // (at most 3 x 3 cells), which always fits, so the loop ends.
            cell = isfinite(grown) && grown > cell ? grown : (half_x > half_y ? half_x : half_y);
        }
    }
    bp->cell_size = cell;
    bp->cells_x = cells_x;
    bp->cells_y = cells_y;
    bp->origin_x = lo_x;
    bp->origin_y = lo_y;
}

// The counting sort's serial part: bodies per cell, their prefix sum, and each grid body's place, from the
// back of its cell in descending id order, so that ids ascend within a cell. Afterwards cell_start[c] is
// the start of cell c.
static void place_bodies(cs_broadphase* bp, int count)
{
    const int cells = bp->cells_x * bp->cells_y;
    int* start = bp->cell_start;
    memset(start, 0, (size_t)(cells + 1) * sizeof(int));
    int grid_count = 0;
    for (int i = 0; i < count; ++i)
    {
        int c = bp->cell_of[i];
        if (c >= 0)
        {
            start[c + 1] += 1;
            grid_count += 1;
        }
    }
    for (int c = 0; c < cells; ++c)
    {
        start[c + 1] += start[c];
    }
    for (int i = count - 1; i >= 0; --i)
    {
        int c = bp->cell_of[i];
        if (c >= 0)
        {
            bp->place_of[i] = --start[c + 1];
        }
    }
    // start[c + 1] now holds the start of cell c: shift by one for the usual layout.
    for (int c = 0; c < cells; ++c)
    {
        start[c] = start[c + 1];
    }
    start[cells] = grid_count;
}

static cs_status reserve(cs_broadphase* bp, int count, int chunks, cs_error* err)
{
    if (count > bp->body_capacity)
    {
        int cap = cs_grow_capacity(bp->body_capacity, count);
        int padded = cap + CS_BROADPHASE_PAD;
        if (!CS_RESIZE(bp->cell_of, cap) || !CS_RESIZE(bp->sorted, padded) || !CS_RESIZE(bp->large, cap) ||
            !CS_RESIZE(bp->candidates, cap) || !CS_RESIZE(bp->place_of, cap) ||
            !CS_RESIZE(bp->sorted_x, padded) || !CS_RESIZE(bp->sorted_y, padded) ||
            !CS_RESIZE(bp->sorted_r, padded))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
        for (int k = bp->body_capacity; k < padded; ++k) // (read past a run's end, never a candidate)
        {
            bp->sorted[k] = -1;
            bp->sorted_x[k] = bp->sorted_y[k] = bp->sorted_r[k] = 0.0;
        }
        bp->body_capacity = cap;
    }
    if (!CS_GROW(bp->grid_chunks, bp->grid_chunk_capacity, chunks) ||
        !cs_broadphase_list_reserve(&bp->list, count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
    }
    return CS_OK;
}

cs_status cs_broadphase_build_grid(cs_broadphase* bp, const double* px, const double* py,
                                   const double* radius, int count, double margin, cs_workers* pool,
                                   cs_error* err)
{
    bp->pair_count = 0;
    bp->large_count = 0;
    const int chunks = (count + CS_BROADPHASE_CHUNK - 1) / CS_BROADPHASE_CHUNK;
    cs_status st = reserve(bp, count, chunks, err);
    if (st != CS_OK || count == 0)
    {
        return st;
    }
    grid_job j = {bp, px, py, radius, count, 0.0};
    cs_workers_for(pool, chunks, measure_chunk, &j);
    j.large_radius = large_radius(bp, chunks);
    cs_workers_for(pool, chunks, classify_chunk, &j);
    double box[4];
    double max_r = combine_chunks(bp, count, chunks, box);
    bp->list.grid_max_r = max_r; // (the scale of the next kept list's skin, broadphase_list.c)
    grid_dimensions(bp, box, max_r, margin, count);
    int cells = bp->cells_x * bp->cells_y;
    if (cells + 1 > bp->cell_capacity && !CS_GROW(bp->cell_start, bp->cell_capacity, cells + 1))
    {
        return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
    }
    cs_workers_for(pool, chunks, cell_chunk, &j);
    place_bodies(bp, count);
    cs_workers_for(pool, chunks, scatter_chunk, &j);
    return CS_OK;
}
