// Uniform-grid broad phase: candidate circle pairs in a deterministic, sorted order.
#ifndef CS_BROADPHASE_H
#define CS_BROADPHASE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "circlesim/base.h"
#include "core/workers.h"

// Bodies per chunk of the pair search on threads (cs_broadphase_update_on).
#define CS_BROADPHASE_CHUNK 1024

typedef struct cs_pair
{
    int a, b; // a < b
} cs_pair;

// One thread's pairs in a search on threads: the runs of the chunks it took, one after another.
typedef struct cs_broadphase_lane
{
    cs_pair* pairs;
    int count, capacity;
    int* candidates; // [bodies] scratch: partners of one body before sorting
    int candidates_capacity;
    bool out_of_memory;
} cs_broadphase_lane;

// One chunk's findings while the grid is built (broadphase_grid.c).
typedef struct cs_grid_chunk
{
    double sum_r, max_r;           // radii: the sum over bodies that take part; the largest in the grid
    double lo_x, lo_y, hi_x, hi_y; // the box of its grid bodies' centres
    int finite, large;             // bodies that take part; large ones
} cs_grid_chunk;

// Reused across steps; every array grows geometrically and is never freed before destroy.
typedef struct cs_broadphase
{
    int body_capacity;
    int* cell_of;       // [bodies] cell index of each grid body, -1 for large or non-finite bodies
    int* sorted;        // [bodies] body ids ordered by cell (counting sort), ascending within a cell
    double* sorted_xyr; // [3 * bodies] x, y, radius of sorted[k]: the pair loop reads neighbours in a row
    int* large;         // [bodies] ids of bodies too large for the grid (tested against everything)
    int* place_of;      // [bodies] where a grid body goes in sorted (while the grid is built)
    int large_count;
    int cell_capacity;
    int* cell_start; // [cells + 1]
    int* candidates; // [bodies] scratch: partners of one body before sorting
    cs_pair* pairs;
    int pair_count;
    int pair_capacity;
    // The search on threads: per pool thread, its pairs; per chunk, the thread (lane) that took it, where
    // its run starts there, how long it is, and where it goes in pairs.
    cs_broadphase_lane lanes[CS_WORKERS_MAX];
    int *chunk_lane, *chunk_first, *chunk_count, *chunk_at;
    int chunk_capacity;
    cs_grid_chunk* grid_chunks; // per chunk of bodies, while the grid is built
    int grid_chunk_capacity;
    // Optional (NULL: all): bodies with active[i] == 0 take part in no pair (free slots of the world).
    const uint8_t* active;

    // The grid of the last update (for inspection and tests).
    double cell_size;
    int cells_x, cells_y;
    double origin_x, origin_y;
} cs_broadphase;

void cs_broadphase_free(cs_broadphase* bp);

// A body with a finite position that is not switched off by bp->active.
static inline bool cs_broadphase_takes_part(const cs_broadphase* bp, const double* px, const double* py,
                                            int i)
{
    return isfinite(px[i]) && isfinite(py[i]) && (bp->active == NULL || bp->active[i]);
}

// Finds every pair (a < b) whose circles are closer than margin: |xa - xb| < ra + rb + margin.
// Pairs come out sorted by (a, b). Bodies with a non-finite position take part in no pair.
cs_status cs_broadphase_update(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                               int count, double margin, cs_error* err);

// The same with the pair search split over pool's threads (NULL: this thread): the same pairs, in the
// same order.
cs_status cs_broadphase_update_on(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                                  int count, double margin, cs_workers* pool, cs_error* err);

// The grid of an update (cell size, each body's cell, the bodies sorted by cell, the large ones), its passes
// over chunks of CS_BROADPHASE_CHUNK bodies on pool's threads (NULL: this thread): the same grid for any
// thread count (broadphase_grid.c).
cs_status cs_broadphase_build_grid(cs_broadphase* bp, const double* px, const double* py,
                                   const double* radius, int count, double margin, cs_workers* pool,
                                   cs_error* err);

// The same predicate by brute force, O(N²), for tests. Returns the pair count; writes at most capacity.
int cs_broadphase_brute_force(const double* px, const double* py, const double* radius, int count,
                              double margin, cs_pair* out, int capacity);

#endif
