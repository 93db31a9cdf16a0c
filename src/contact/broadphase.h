// Uniform-grid broad phase: candidate circle pairs in a deterministic, sorted order.
#ifndef CS_BROADPHASE_H
#define CS_BROADPHASE_H

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

// Reused across steps; every array grows geometrically and is never freed before destroy.
typedef struct cs_broadphase
{
    int body_capacity;
    int* cell_of;       // [bodies] cell index of each grid body, -1 for large or non-finite bodies
    int* sorted;        // [bodies] body ids ordered by cell (counting sort), ascending within a cell
    double* sorted_xyr; // [3 * bodies] x, y, radius of sorted[k]: the pair loop reads neighbours in a row
    int* large;         // [bodies] ids of bodies too large for the grid (tested against everything)
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
    // Optional (NULL: all): bodies with active[i] == 0 take part in no pair (free slots of the world).
    const uint8_t* active;

    // The grid of the last update (for inspection and tests).
    double cell_size;
    int cells_x, cells_y;
    double origin_x, origin_y;
} cs_broadphase;

void cs_broadphase_free(cs_broadphase* bp);

// Finds every pair (a < b) whose circles are closer than margin: |xa - xb| < ra + rb + margin.
// Pairs come out sorted by (a, b). Bodies with a non-finite position take part in no pair.
cs_status cs_broadphase_update(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                               int count, double margin, cs_error* err);

// The same with the pair search split over pool's threads (NULL: this thread): the same pairs, in the
// same order.
cs_status cs_broadphase_update_on(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                                  int count, double margin, cs_workers* pool, cs_error* err);

// The same predicate by brute force, O(N²), for tests. Returns the pair count; writes at most capacity.
int cs_broadphase_brute_force(const double* px, const double* py, const double* radius, int count,
                              double margin, cs_pair* out, int capacity);

#endif
