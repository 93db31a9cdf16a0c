// Uniform grid rebuilt each step with a counting sort (broadphase_grid.c), then the pairs from it.
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
    free(bp->place_of);
    free(bp->grid_chunks);
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
        if (!cs_broadphase_takes_part(bp, px, py, a))
        {
            return 0;
        }
        a_large = true;
    }
    if (a_large)
    {
        for (int b = a + 1; b < count; ++b)
        {
            if (cs_broadphase_takes_part(bp, px, py, b) && pair_touches(px, py, radius, a, b, margin))
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
    if (bp->chunk_count[chunk] == 0)
    {
        return; // (a world without pairs may have no list storage yet: no pointer into it)
    }
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
    cs_status st =
        cs_broadphase_build_grid(bp, px, py, radius, count, margin, pool, err); // broadphase_grid.c
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
