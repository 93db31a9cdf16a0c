// Uniform grid rebuilt each step with a counting sort.
//
// The cell is at least the largest "ordinary" diameter plus the margin, so a circle only meets circles
// whose centres lie in its own or the eight neighbouring cells. Circles much larger than the typical one
// would blow the cell size up for everybody; they go to a short "large" list instead and are tested
// against every circle. The cell count is kept below ~4N by growing the cell when bodies are far apart,
// so memory stays O(N) whatever the world's extent.
#include "contact/broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

void cs_broadphase_free(cs_broadphase* bp)
{
    free(bp->cell_of);
    free(bp->sorted);
    free(bp->sorted_xyr);
    free(bp->large);
    free(bp->cell_start);
    free(bp->candidates);
    free(bp->pairs);
    for (int t = 0; t < CS_WORKERS_MAX; ++t)
    {
        free(bp->lanes[t].pairs);
        free(bp->lanes[t].candidates);
    }
    free(bp->chunk_lane);
    free(bp->chunk_first);
    free(bp->chunk_count);
    free(bp->chunk_at);
    memset(bp, 0, sizeof *bp);
}

static bool pair_touches(const double* px, const double* py, const double* radius, int a, int b,
                         double margin)
{
    double dx = px[b] - px[a];
    double dy = py[b] - py[a];
    double reach = radius[a] + radius[b] + margin;
    return dx * dx + dy * dy < reach * reach;
}

// A body with a finite position that is not switched off by bp->active.
static inline bool takes_part(const cs_broadphase* bp, const double* px, const double* py, int i)
{
    return isfinite(px[i]) && isfinite(py[i]) && (bp->active == NULL || bp->active[i]);
}

static void sort_ints(int* v, int n)
{
    // Insertion sort: a body has a handful of partners.
    for (int i = 1; i < n; ++i)
    {
        int x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x)
        {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
}

// The grid: the cell size, each body's cell (-1: large or not taking part), the bodies sorted by cell.
static cs_status build_grid(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                            int count, double margin, cs_error* err)
{
    bp->pair_count = 0;
    bp->large_count = 0;
    if (count > bp->body_capacity)
    {
        int cap = cs_grow_capacity(bp->body_capacity, count);
        if (!CS_RESIZE(bp->cell_of, cap) || !CS_RESIZE(bp->sorted, cap) || !CS_RESIZE(bp->large, cap) ||
            !CS_RESIZE(bp->candidates, cap) || !CS_RESIZE(bp->sorted_xyr, 3 * cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
        bp->body_capacity = cap;
    }
    if (count == 0)
    {
        return CS_OK;
    }

    // Typical size: mean radius over finite bodies. "Large" = more than 4x the mean.
    double sum_r = 0.0;
    int finite = 0;
    for (int i = 0; i < count; ++i)
    {
        if (takes_part(bp, px, py, i))
        {
            sum_r += radius[i];
            finite += 1;
        }
    }
    double large_radius = finite > 0 ? 4.0 * sum_r / finite : 0.0;
    double max_r = 0.0;
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    for (int i = 0; i < count; ++i)
    {
        bp->cell_of[i] = -1;
        if (!takes_part(bp, px, py, i))
        {
            continue;
        }
        if (radius[i] > large_radius && finite > 1)
        {
            bp->large[bp->large_count++] = i;
            continue;
        }
        // (Comparisons, not fmin/fmax: those are library calls without -ffinite-math, and every value
        // here is finite.)
        bp->cell_of[i] = 0;
        max_r = radius[i] > max_r ? radius[i] : max_r;
        lo_x = px[i] < lo_x ? px[i] : lo_x;
        lo_y = py[i] < lo_y ? py[i] : lo_y;
        hi_x = px[i] > hi_x ? px[i] : hi_x;
        hi_y = py[i] > hi_y ? py[i] : hi_y;
    }

    int grid_count = 0;
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
    int cells = cells_x * cells_y;
    if (cells + 1 > bp->cell_capacity)
    {
        if (!CS_GROW(bp->cell_start, bp->cell_capacity, cells + 1))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
    }
    bp->cell_size = cell;
    bp->cells_x = cells_x;
    bp->cells_y = cells_y;
    bp->origin_x = lo_x;
    bp->origin_y = lo_y;

    // Counting sort by cell.
    memset(bp->cell_start, 0, (size_t)(cells + 1) * sizeof(int));
    for (int i = 0; i < count; ++i)
    {
        if (bp->cell_of[i] < 0)
        {
            continue;
        }
        int cx = (int)((0.5 * px[i] - 0.5 * lo_x) / (0.5 * cell));
        int cy = (int)((0.5 * py[i] - 0.5 * lo_y) / (0.5 * cell));
        cx = cx < 0 ? 0 : (cx >= cells_x ? cells_x - 1 : cx);
        cy = cy < 0 ? 0 : (cy >= cells_y ? cells_y - 1 : cy);
        int c = cy * cells_x + cx;
        bp->cell_of[i] = c;
        bp->cell_start[c + 1] += 1;
        grid_count += 1;
    }
    for (int c = 0; c < cells; ++c)
    {
        bp->cell_start[c + 1] += bp->cell_start[c];
    }
    // Place bodies from the back of each cell, in descending id order, so ids ascend within a cell.
    // Afterwards cell_start[c + 1] holds the start of cell c; shift by one to get the usual layout.
    for (int i = count - 1; i >= 0; --i)
    {
        int c = bp->cell_of[i];
        if (c >= 0)
        {
            int k = --bp->cell_start[c + 1];
            bp->sorted[k] = i;
            bp->sorted_xyr[3 * k] = px[i];
            bp->sorted_xyr[3 * k + 1] = py[i];
            bp->sorted_xyr[3 * k + 2] = radius[i];
        }
    }
    for (int c = 0; c < cells; ++c)
    {
        bp->cell_start[c] = bp->cell_start[c + 1];
    }
    bp->cell_start[cells] = grid_count;
    return CS_OK;
}

// Body a's partners b > a, sorted, into candidates; returns how many. (Inlined into the two loops over the
// bodies: a call a body cost ~25 of its ~300 instructions in Pool 1.)
static inline __attribute__((always_inline)) int partners(const cs_broadphase* bp, const double* px,
                                                          const double* py, const double* radius, int count,
                                                          double margin, int a, int* candidates)
{
    const int cells_x = bp->cells_x, cells_y = bp->cells_y;
    int n = 0;
    int ca = bp->cell_of[a];
    bool a_large = false;
    if (ca < 0)
    {
        if (!takes_part(bp, px, py, a))
        {
            return 0;
        }
        a_large = true;
    }
    if (a_large)
    {
        for (int b = a + 1; b < count; ++b)
        {
            if (takes_part(bp, px, py, b) && pair_touches(px, py, radius, a, b, margin))
            {
                candidates[n++] = b;
            }
        }
    }
    else
    {
        // The three cells of a row of the neighbourhood are consecutive in the counting sort, so
        // each row is one run of sorted[] (and of sorted_xyr). Same predicate as pair_touches.
        int cx = ca % cells_x;
        int cy = ca / cells_x;
        int x0 = cx > 0 ? cx - 1 : 0;
        int x1 = cx + 1 < cells_x ? cx + 1 : cells_x - 1;
        double ax = px[a], ay = py[a], ar = radius[a];
        for (int y = cy > 0 ? cy - 1 : 0; y <= cy + 1 && y < cells_y; ++y)
        {
            int end = bp->cell_start[y * cells_x + x1 + 1];
            for (int k = bp->cell_start[y * cells_x + x0]; k < end; ++k)
            {
                const double* b_xyr = bp->sorted_xyr + 3 * k;
                double dx = b_xyr[0] - ax;
                double dy = b_xyr[1] - ay;
                double reach = ar + b_xyr[2] + margin;
                int b = bp->sorted[k];
                if (b > a && dx * dx + dy * dy < reach * reach)
                {
                    candidates[n++] = b;
                }
            }
        }
        for (int k = 0; k < bp->large_count; ++k)
        {
            int b = bp->large[k];
            if (b > a && pair_touches(px, py, radius, a, b, margin))
            {
                candidates[n++] = b;
            }
        }
    }
    sort_ints(candidates, n);
    return n;
}

// The pairs on the pool's threads: chunks of CS_BROADPHASE_CHUNK bodies, each appending its pairs to its
// thread's list (and saying where); then each chunk copies its run to its place in bp->pairs, in body
// order: the same list as one thread's.
typedef struct pairs_job
{
    cs_broadphase* bp;
    const double *px, *py, *radius;
    int count;
    double margin;
} pairs_job;

static void chunk_pairs(void* ctx, int chunk, int thread)
{
    const pairs_job* j = ctx;
    cs_broadphase* bp = j->bp;
    cs_broadphase_lane* lane = bp->lanes + thread;
    int first = chunk * CS_BROADPHASE_CHUNK;
    int end = first + CS_BROADPHASE_CHUNK < j->count ? first + CS_BROADPHASE_CHUNK : j->count;
    bp->chunk_lane[chunk] = thread;
    bp->chunk_first[chunk] = lane->count;
    for (int a = first; a < end && !lane->out_of_memory; ++a)
    {
        int n = partners(bp, j->px, j->py, j->radius, j->count, j->margin, a, lane->candidates);
        if (!CS_GROW(lane->pairs, lane->capacity, lane->count + n))
        {
            lane->out_of_memory = true;
            break;
        }
        for (int k = 0; k < n; ++k)
        {
            lane->pairs[lane->count + k] = (cs_pair){a, lane->candidates[k]};
        }
        lane->count += n;
    }
    bp->chunk_count[chunk] = lane->count - bp->chunk_first[chunk];
}

static void chunk_copy(void* ctx, int chunk, int thread)
{
    (void)thread;
    cs_broadphase* bp = ctx;
    const cs_broadphase_lane* lane = bp->lanes + bp->chunk_lane[chunk];
    memcpy(bp->pairs + bp->chunk_at[chunk], lane->pairs + bp->chunk_first[chunk],
           (size_t)bp->chunk_count[chunk] * sizeof(cs_pair));
}

static cs_status pairs_on_threads(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                                  int count, double margin, cs_workers* pool, cs_error* err)
{
    int threads = cs_workers_threads(pool);
    int chunks = (count + CS_BROADPHASE_CHUNK - 1) / CS_BROADPHASE_CHUNK;
    if (chunks > bp->chunk_capacity)
    {
        int cap = cs_grow_capacity(bp->chunk_capacity, chunks);
        if (!CS_RESIZE(bp->chunk_lane, cap) || !CS_RESIZE(bp->chunk_first, cap) ||
            !CS_RESIZE(bp->chunk_count, cap) || !CS_RESIZE(bp->chunk_at, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
        bp->chunk_capacity = cap;
    }
    for (int t = 0; t < threads; ++t)
    {
        // Each lane can hold as many pairs as the list ever did: which chunks a thread takes changes from
        // step to step, and a lane that grew whenever its thread took more than before allocated in the
        // steady state (test_alloc, now and then).
        cs_broadphase_lane* lane = bp->lanes + t;
        if (!CS_GROW(lane->candidates, lane->candidates_capacity, count) ||
            !CS_GROW(lane->pairs, lane->capacity, bp->pair_capacity))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
        lane->count = 0;
        lane->out_of_memory = false;
    }
    pairs_job j = {bp, px, py, radius, count, margin};
    cs_workers_for(pool, chunks, chunk_pairs, &j);
    int total = 0;
    for (int t = 0; t < threads; ++t)
    {
        if (bp->lanes[t].out_of_memory)
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
    }
    for (int c = 0; c < chunks; ++c)
    {
        bp->chunk_at[c] = total;
        total += bp->chunk_count[c];
    }
    if (!CS_GROW(bp->pairs, bp->pair_capacity, total))
    {
        return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
    }
    cs_workers_for(pool, chunks, chunk_copy, bp);
    bp->pair_count = total;
    return CS_OK;
}

cs_status cs_broadphase_update(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                               int count, double margin, cs_error* err)
{
    return cs_broadphase_update_on(bp, px, py, radius, count, margin, NULL, err);
}

cs_status cs_broadphase_update_on(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                                  int count, double margin, cs_workers* pool, cs_error* err)
{
    cs_status st = build_grid(bp, px, py, radius, count, margin, err);
    if (st != CS_OK || count == 0)
    {
        return st;
    }
    if (pool != NULL && count > CS_BROADPHASE_CHUNK)
    {
        return pairs_on_threads(bp, px, py, radius, count, margin, pool, err);
    }
    // Pairs in (a, b) order: for each body a, gather partners b > a, sort them, emit (room for all n
    // made once, not tested a pair at a time).
    for (int a = 0; a < count; ++a)
    {
        int n = partners(bp, px, py, radius, count, margin, a, bp->candidates);
        if (n == 0)
        {
            continue; // (the list may have no storage yet: no pointer into it)
        }
        if (!CS_GROW(bp->pairs, bp->pair_capacity, bp->pair_count + n))
        {
            return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
        }
        cs_pair* out = bp->pairs + bp->pair_count;
        for (int k = 0; k < n; ++k)
        {
            out[k] = (cs_pair){a, bp->candidates[k]};
        }
        bp->pair_count += n;
    }
    return CS_OK;
}

int cs_broadphase_brute_force(const double* px, const double* py, const double* radius, int count,
                              double margin, cs_pair* out, int capacity)
{
    int n = 0;
    for (int a = 0; a < count; ++a)
    {
        if (!(isfinite(px[a]) && isfinite(py[a])))
        {
            continue;
        }
        for (int b = a + 1; b < count; ++b)
        {
            if (!(isfinite(px[b]) && isfinite(py[b])))
            {
                continue;
            }
            if (pair_touches(px, py, radius, a, b, margin))
            {
                if (n < capacity)
                {
                    out[n].a = a;
                    out[n].b = b;
                }
                n += 1;
            }
        }
    }
    return n;
}
