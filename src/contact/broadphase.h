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
// A world's kept pair list searches with this fraction of the largest grid radius as its skin
// (broadphase_list.c; measured in docs/PERFORMANCE.md "Pairs kept across steps").
#define CS_BROADPHASE_SKIN 0.5
// Entries past the last body in the sorted arrays (read, never taken, by the grid search's runs of four).
#define CS_BROADPHASE_PAD 4

// The grid search reads four neighbours at a time in AVX2 lanes where the CPU has them (the same pairs as
// one at a time: same operations, no FMA). A variable so that a test can compare both; set it only between
// updates.
extern bool cs_broadphase_simd;

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
    int* kept; // the candidates of the chunks it took, while a kept list is built (broadphase_list.c)
    int kept_count, kept_capacity;
    bool out_of_memory;
} cs_broadphase_lane;

// One chunk's findings while the grid is built (broadphase_grid.c).
typedef struct cs_grid_chunk
{
    double sum_r, max_r;           // radii: the sum over bodies that take part; the largest in the grid
    double max_travel;             // the largest radius − list.base_radius (0 without base radii)
    double lo_x, lo_y, hi_x, hi_y; // the box of its grid bodies' centres
    int finite, large;             // bodies that take part; large ones
} cs_grid_chunk;

// The candidate pairs kept across steps (broadphase_list.c): every pair closer than margin + skin when the
// list was built, per body a its partners b > a in order (CSR). While no body has moved, or grown its
// radius, by more than about half the skin since, no other pair can be closer than margin, and a step's
// pairs are the list's pairs that pass the exact test: no grid, no search.
typedef struct cs_broadphase_list
{
    double skin_fraction; // skin = this × the largest grid radius of the last grid; 0: no list (default)
    double skin;          // the skin the list was built with
    double margin;        // the margin it was built for
    int count;            // bodies when it was built; 0: no list
    int* first;           // [count + 1] body a's partners are partners[first[a] .. first[a + 1])
    int* partners;
    int partner_count, partner_capacity;
    double* at; // [3 × count] each body's x, y and radius when built (x NaN: it took part in no pair)
    int body_capacity;
    int held;          // steps the list served since it was built
    int pause;         // steps left to build without a list (one served < 2 steps: a churning world)
    int backoff;       // the next pause's length
    double grid_max_r; // the largest grid radius of the last grid (the next skin's scale)
    // Optional (NULL: none): each body's radius without what it may travel in a step (the world's radii,
    // whose reach r + h|v| the update is given). The last grid's largest difference says whether a list
    // could serve two steps before its bodies leave the skin: if not, none is built.
    const double* base_radius;
    double grid_max_travel;
    bool used; // this update's pairs came from the list
    // Per chunk of bodies while a list is built on threads: where its run starts in its lane, how long
    // it is, and where it goes in partners.
    int *chunk_first, *chunk_count, *chunk_at;
} cs_broadphase_list;

// Reused across steps; every array grows geometrically and is never freed before destroy.
typedef struct cs_broadphase
{
    int body_capacity;
    int* cell_of; // [bodies] cell index of each grid body, -1 for large or non-finite bodies
    // [bodies + CS_BROADPHASE_PAD] body ids ordered by cell (counting sort), ascending within a cell, and the
    // x, y and radius of sorted[k]: the pair loop reads a row of neighbours in runs of four, and the pad (no
    // body: id −1, zeros) lets the last run read past the last body.
    int* sorted;
    double *sorted_x, *sorted_y, *sorted_r;
    int* large;    // [bodies] ids of bodies too large for the grid (tested against everything)
    int* place_of; // [bodies] where a grid body goes in sorted (while the grid is built)
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
    cs_broadphase_list list;

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
// Pairs come out sorted by (a, b). Bodies with a non-finite position take part in no pair. With
// bp->list.skin_fraction > 0 the pairs come from the list kept across steps while it holds (the grid then
// stays as it was: see cs_broadphase_grid_built), the same pairs in the same order.
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

// Whether the last update built the grid (false: its pairs came from the kept list, and the grid is the one
// of an earlier update).
static inline bool cs_broadphase_grid_built(const cs_broadphase* bp)
{
    return !bp->list.used;
}

// The kept list (broadphase_list.c).
void cs_broadphase_list_free(cs_broadphase_list* list);
// Room for a list of count bodies when lists are wanted (with the grid's arrays: a list first built in a
// later step allocates nothing). False: out of memory.
bool cs_broadphase_list_reserve(cs_broadphase_list* list, int count);
// An update's three calls on the list: whether it holds (then this update's pairs come from it; a list
// that stopped holding is dropped and may pause list building), else the skin to search the grid with (0:
// build no list this time; a pause counts down here), and the start of a new list.
bool cs_broadphase_list_use(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                            int count, double margin);
double cs_broadphase_list_skin(cs_broadphase* bp, double margin);
cs_status cs_broadphase_list_start(cs_broadphase* bp, const double* px, const double* py,
                                   const double* radius, int count, double margin, double skin,
                                   cs_error* err);

// The same predicate by brute force, O(N²), for tests. Returns the pair count; writes at most capacity.
int cs_broadphase_brute_force(const double* px, const double* py, const double* radius, int count,
                              double margin, cs_pair* out, int capacity);

#endif
