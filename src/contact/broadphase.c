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
#include "core/cpu.h"

#if CS_SIMD_X86
#include <immintrin.h>
#endif

void cs_broadphase_free(cs_broadphase* bp)
{
    free(bp->cell_of);
    free(bp->sorted);
    free(bp->sorted_x);
    free(bp->sorted_y);
    free(bp->sorted_r);
    free(bp->large);
    free(bp->cell_start);
    free(bp->candidates);
    free(bp->pairs);
    for (int t = 0; t < CS_WORKERS_MAX; ++t)
    {
        free(bp->lanes[t].pairs);
        free(bp->lanes[t].candidates);
        free(bp->lanes[t].kept);
    }
    cs_broadphase_list_free(&bp->list);
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

// The bodies sorted[k .. end) (a row of a body's neighbourhood) that are partners of body a (b > a, closer
// than the reach plus margin), appended to candidates[n ..]; returns the new count. Same predicate as
// pair_touches: dx, dy from the neighbour's centre, (r_a + r_b) + margin.
static inline __attribute__((always_inline)) int row_partners(const cs_broadphase* bp, int k, int end,
                                                              double ax, double ay, double ar, double margin,
                                                              int a, int* candidates, int n)
{
    for (; k < end; ++k)
    {
        double dx = bp->sorted_x[k] - ax;
        double dy = bp->sorted_y[k] - ay;
        double reach = ar + bp->sorted_r[k] + margin;
        int b = bp->sorted[k];
        if (b > a && dx * dx + dy * dy < reach * reach)
        {
            candidates[n++] = b;
        }
    }
    return n;
}

#if CS_SIMD_X86
// row_partners four neighbours at a time: the same operations in each lane (no FMA: the build has
// -ffp-contract=off and the target no fma), so the same partners; the last run of a row may read up to three
// entries past end (the next cells' bodies, or the arrays' pad after the last cell), whose lanes are masked
// off.
static inline __attribute__((target("avx2"), always_inline)) int
row_partners_avx2(const cs_broadphase* bp, int k, int end, double ax, double ay, double ar, double margin,
                  int a, int* candidates, int n)
{
    const __m256d vx = _mm256_set1_pd(ax), vy = _mm256_set1_pd(ay), vr = _mm256_set1_pd(ar),
                  vm = _mm256_set1_pd(margin);
    const __m128i va = _mm_set1_epi32(a);
    for (; k < end; k += 4)
    {
        __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(bp->sorted_x + k), vx);
        __m256d dy = _mm256_sub_pd(_mm256_loadu_pd(bp->sorted_y + k), vy);
        __m256d reach = _mm256_add_pd(_mm256_add_pd(vr, _mm256_loadu_pd(bp->sorted_r + k)), vm);
        __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
        __m256d near = _mm256_cmp_pd(d2, _mm256_mul_pd(reach, reach), _CMP_LT_OQ);
        __m128i ids = _mm_loadu_si128((const __m128i*)(bp->sorted + k));
        __m256d after = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_cmpgt_epi32(ids, va)));
        unsigned mask = (unsigned)_mm256_movemask_pd(_mm256_and_pd(near, after));
        if (end - k < 4)
        {
            mask &= (1u << (end - k)) - 1u;
        }
        while (mask != 0)
        {
            candidates[n++] = bp->sorted[k + __builtin_ctz(mask)];
            mask &= mask - 1u;
        }
    }
    return n;
}
#endif

bool cs_broadphase_simd = true;

static bool simd_on(void)
{
    return CS_SIMD_X86 && cs_broadphase_simd && cs_simd_cpu();
}

// The partners of grid body a (cell ca) in its own and the eight neighbouring cells, into candidates (not
// sorted); returns how many. The three cells of a row of the neighbourhood are consecutive in the counting
// sort, so each row is one run of sorted[]. (A macro: one loop around either row test, and the lanes' copy
// compiled for AVX2, which an inline function called from code built without it could not be.)
#define CS_CELL_PARTNERS(row)                                                                                \
    const int cells_x = bp->cells_x, cells_y = bp->cells_y;                                                  \
    int cx = ca % cells_x;                                                                                   \
    int cy = ca / cells_x;                                                                                   \
    int x0 = cx > 0 ? cx - 1 : 0;                                                                            \
    int x1 = cx + 1 < cells_x ? cx + 1 : cells_x - 1;                                                        \
    int n = 0;                                                                                               \
    for (int y = cy > 0 ? cy - 1 : 0; y <= cy + 1 && y < cells_y; ++y)                                       \
    {                                                                                                        \
        n = row(bp, bp->cell_start[y * cells_x + x0], bp->cell_start[y * cells_x + x1 + 1], ax, ay, ar,      \
                margin, a, candidates, n);                                                                   \
    }                                                                                                        \
    return n

static inline __attribute__((always_inline)) int cell_partners(const cs_broadphase* bp, int ca, double ax,
                                                               double ay, double ar, double margin, int a,
                                                               int* candidates)
{
    CS_CELL_PARTNERS(row_partners);
}

#if CS_SIMD_X86
static __attribute__((target("avx2"), noinline)) int cell_partners_avx2(const cs_broadphase* bp, int ca,
                                                                        double ax, double ay, double ar,
                                                                        double margin, int a, int* candidates)
{
    CS_CELL_PARTNERS(row_partners_avx2);
}
#else
#define cell_partners_avx2 cell_partners
#endif
#undef CS_CELL_PARTNERS

// Body a's partners b > a, sorted, into candidates; returns how many. (Inlined into the two loops over the
// bodies: a call a body cost ~25 of its ~300 instructions in Pool 1.)
static inline __attribute__((always_inline)) int partners(const cs_broadphase* bp, const double* px,
                                                          const double* py, const double* radius, int count,
                                                          double margin, bool simd, int a, int* candidates)
{
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
        n = simd ? cell_partners_avx2(bp, ca, px[a], py[a], radius[a], margin, a, candidates)
                 : cell_partners(bp, ca, px[a], py[a], radius[a], margin, a, candidates);
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

// How an update finds a body's pairs: from the grid (keeping its candidates as the new list, or not), or
// from the kept list.
typedef enum search_mode
{
    SEARCH_GRID,
    SEARCH_GRID_KEEP,
    SEARCH_LIST
} search_mode;

typedef struct pairs_job
{
    cs_broadphase* bp;
    const double *px, *py, *radius;
    int count;
    double margin;        // the pairs' (the exact test)
    double search_margin; // the grid search's: margin + the list's skin when one is kept
    search_mode mode;
} pairs_job;

// Where a list being built keeps its candidates: the list itself on one thread, a lane's run on the pool.
typedef struct kept_sink
{
    int** kept;
    int *count, *capacity;
} kept_sink;

// Body a's partners in this update into candidates (sorted); returns how many, -1 when out of memory.
// Building a list, all of the grid's candidates are kept (list.first[a]: their start in the sink) and
// those closer than margin returned. (Inlined with a constant mode: bodies_pairs.)
static inline __attribute__((always_inline)) int body_pairs(cs_broadphase* bp, search_mode mode,
                                                            const double* px, const double* py,
                                                            const double* radius, int count, double margin,
                                                            double search_margin, bool simd, int a,
                                                            int* candidates, const kept_sink* s)
{
    cs_broadphase_list* list = &bp->list;
    if (mode == SEARCH_LIST)
    {
        int n = 0;
        for (int k = list->first[a]; k < list->first[a + 1]; ++k)
        {
            int b = list->partners[k];
            if (pair_touches(px, py, radius, a, b, margin)) // (the grid search's test)
            {
                candidates[n++] = b;
            }
        }
        return n;
    }
    int n = partners(bp, px, py, radius, count, search_margin, simd, a, candidates);
    if (mode == SEARCH_GRID)
    {
        return n;
    }
    list->first[a] = *s->count;
    if (n == 0)
    {
        return 0; // (the list may have no storage yet: no pointer into it)
    }
    if (!CS_GROW(*s->kept, *s->capacity, *s->count + n))
    {
        return -1;
    }
    int* kept = *s->kept + *s->count;
    int m = 0;
    for (int k = 0; k < n; ++k)
    {
        int b = candidates[k];
        kept[k] = b;
        if (pair_touches(px, py, radius, a, b, margin))
        {
            candidates[m++] = b;
        }
    }
    *s->count += n;
    return m;
}

// The pairs of bodies [first, end) appended to *pairs (count, capacity), in (a, b) order. False: out of
// memory.
static inline __attribute__((always_inline)) bool bodies_pairs(const pairs_job* j, search_mode mode,
                                                               int first, int end, int* candidates,
                                                               cs_pair** pairs, int* count, int* capacity,
                                                               const kept_sink* s)
{
    cs_broadphase* bp = j->bp;
    const double *px = j->px, *py = j->py, *radius = j->radius;
    const int bodies = j->count;
    const double margin = j->margin, search_margin = j->search_margin;
    const bool simd = simd_on();
    cs_pair* out = *pairs; // (the list's end and room in locals: a store to a pair cannot change them)
    int used = *count, room = *capacity;
    for (int a = first; a < end; ++a)
    {
        int n = body_pairs(bp, mode, px, py, radius, bodies, margin, search_margin, simd, a, candidates, s);
        if (n < 0)
        {
            *count = used;
            return false;
        }
        if (n == 0)
        {
            continue; // (the list may have no storage yet: no pointer into it)
        }
        if (used + n > room)
        {
            if (!CS_GROW(*pairs, *capacity, used + n))
            {
                *count = used;
                return false;
            }
            out = *pairs;
            room = *capacity;
        }
        for (int k = 0; k < n; ++k)
        {
            out[used + k] = (cs_pair){a, candidates[k]};
        }
        used += n;
    }
    *count = used;
    return true;
}

// bodies_pairs specialised for the update's mode.
static bool pairs_of_bodies(const pairs_job* j, int first, int end, int* candidates, cs_pair** pairs,
                            int* count, int* capacity, const kept_sink* s)
{
    switch (j->mode)
    {
        case SEARCH_LIST:
            return bodies_pairs(j, SEARCH_LIST, first, end, candidates, pairs, count, capacity, s);
        case SEARCH_GRID_KEEP:
            return bodies_pairs(j, SEARCH_GRID_KEEP, first, end, candidates, pairs, count, capacity, s);
        default:
            return bodies_pairs(j, SEARCH_GRID, first, end, candidates, pairs, count, capacity, s);
    }
}

// The pairs on the pool's threads: chunks of CS_BROADPHASE_CHUNK bodies, each appending its pairs to its
// thread's list (and saying where); then each chunk copies its run to its place in bp->pairs, in body
// order: the same list as one thread's. A list being built goes the same way.
static void chunk_pairs(void* ctx, int chunk, int thread)
{
    const pairs_job* j = ctx;
    cs_broadphase* bp = j->bp;
    cs_broadphase_lane* lane = bp->lanes + thread;
    int first = chunk * CS_BROADPHASE_CHUNK;
    int end = first + CS_BROADPHASE_CHUNK < j->count ? first + CS_BROADPHASE_CHUNK : j->count;
    bp->chunk_lane[chunk] = thread;
    bp->chunk_first[chunk] = lane->count;
    bp->list.chunk_first[chunk] = lane->kept_count;
    kept_sink sink = {&lane->kept, &lane->kept_count, &lane->kept_capacity};
    lane->out_of_memory =
        lane->out_of_memory ||
        !pairs_of_bodies(j, first, end, lane->candidates, &lane->pairs, &lane->count, &lane->capacity, &sink);
    bp->chunk_count[chunk] = lane->count - bp->chunk_first[chunk];
    bp->list.chunk_count[chunk] = lane->kept_count - bp->list.chunk_first[chunk];
}

static void chunk_copy(void* ctx, int chunk, int thread)
{
    (void)thread;
    const pairs_job* j = ctx;
    cs_broadphase* bp = j->bp;
    const cs_broadphase_lane* lane = bp->lanes + bp->chunk_lane[chunk];
    if (j->mode == SEARCH_GRID_KEEP)
    {
        cs_broadphase_list* list = &bp->list;
        int first = chunk * CS_BROADPHASE_CHUNK;
        int end = first + CS_BROADPHASE_CHUNK < j->count ? first + CS_BROADPHASE_CHUNK : j->count;
        int shift = list->chunk_at[chunk] - list->chunk_first[chunk];
        for (int a = first; a < end; ++a)
        {
            list->first[a] += shift;
        }
        if (list->chunk_count[chunk] > 0)
        {
            memcpy(list->partners + list->chunk_at[chunk], lane->kept + list->chunk_first[chunk],
                   (size_t)list->chunk_count[chunk] * sizeof(int));
        }
    }
    if (bp->chunk_count[chunk] == 0)
    {
        return; // (a world without pairs may have no list storage yet: no pointer into it)
    }
    memcpy(bp->pairs + bp->chunk_at[chunk], lane->pairs + bp->chunk_first[chunk],
           (size_t)bp->chunk_count[chunk] * sizeof(cs_pair));
}

static cs_status out_of_memory(cs_error* err)
{
    return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
}

// Room for the chunks and, in every lane, for as many pairs (and kept candidates) as the lists ever held:
// which chunks a thread takes changes from step to step, and a lane that grew whenever its thread took
// more than before allocated in the steady state (test_alloc, now and then).
static bool reserve_lanes(cs_broadphase* bp, int chunks, int count, int threads)
{
    if (chunks > bp->chunk_capacity)
    {
        int cap = cs_grow_capacity(bp->chunk_capacity, chunks);
        if (!CS_RESIZE(bp->chunk_lane, cap) || !CS_RESIZE(bp->chunk_first, cap) ||
            !CS_RESIZE(bp->chunk_count, cap) || !CS_RESIZE(bp->chunk_at, cap) ||
            !CS_RESIZE(bp->list.chunk_first, cap) || !CS_RESIZE(bp->list.chunk_count, cap) ||
            !CS_RESIZE(bp->list.chunk_at, cap))
        {
            return false;
        }
        bp->chunk_capacity = cap;
    }
    for (int t = 0; t < threads; ++t)
    {
        cs_broadphase_lane* lane = bp->lanes + t;
        if (!CS_GROW(lane->candidates, lane->candidates_capacity, count) ||
            !CS_GROW(lane->pairs, lane->capacity, bp->pair_capacity) ||
            !CS_GROW(lane->kept, lane->kept_capacity, bp->list.partner_capacity))
        {
            return false;
        }
        lane->count = 0;
        lane->kept_count = 0;
        lane->out_of_memory = false;
    }
    return true;
}

// Each chunk's place in the joined list: the prefix of the chunks' counts. Returns the total.
static int chunk_places(const int* counts, int* at, int chunks)
{
    int total = 0;
    for (int c = 0; c < chunks; ++c)
    {
        at[c] = total;
        total += counts[c];
    }
    return total;
}

static cs_status pairs_on_threads(const pairs_job* j, cs_workers* pool, cs_error* err)
{
    cs_broadphase* bp = j->bp;
    int threads = cs_workers_threads(pool);
    int chunks = (j->count + CS_BROADPHASE_CHUNK - 1) / CS_BROADPHASE_CHUNK;
    if (!reserve_lanes(bp, chunks, j->count, threads))
    {
        return out_of_memory(err);
    }
    cs_workers_for(pool, chunks, chunk_pairs, (void*)j);
    for (int t = 0; t < threads; ++t)
    {
        if (bp->lanes[t].out_of_memory)
        {
            return out_of_memory(err);
        }
    }
    int total = chunk_places(bp->chunk_count, bp->chunk_at, chunks);
    if (!CS_GROW(bp->pairs, bp->pair_capacity, total))
    {
        return out_of_memory(err);
    }
    if (j->mode == SEARCH_GRID_KEEP)
    {
        int kept = chunk_places(bp->list.chunk_count, bp->list.chunk_at, chunks);
        if (!CS_GROW(bp->list.partners, bp->list.partner_capacity, kept))
        {
            return out_of_memory(err);
        }
        bp->list.partner_count = kept;
        bp->list.first[j->count] = kept;
    }
    cs_workers_for(pool, chunks, chunk_copy, (void*)j);
    bp->pair_count = total;
    return CS_OK;
}

// Pairs in (a, b) order on this thread: for each body a, its partners b > a, sorted.
static cs_status pairs_here(const pairs_job* j, cs_error* err)
{
    cs_broadphase* bp = j->bp;
    cs_broadphase_list* list = &bp->list; // (a list being built starts empty: cs_broadphase_list_start)
    kept_sink sink = {&list->partners, &list->partner_count, &list->partner_capacity};
    if (!pairs_of_bodies(j, 0, j->count, bp->candidates, &bp->pairs, &bp->pair_count, &bp->pair_capacity,
                         &sink))
    {
        return out_of_memory(err);
    }
    if (j->mode == SEARCH_GRID_KEEP)
    {
        list->first[j->count] = list->partner_count;
    }
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
    pairs_job j = {bp, px, py, radius, count, margin, margin, SEARCH_GRID};
    if (cs_broadphase_list_use(bp, px, py, radius, count, margin)) // broadphase_list.c
    {
        j.mode = SEARCH_LIST;
        bp->pair_count = 0;
    }
    else
    {
        double skin = cs_broadphase_list_skin(bp, margin); // 0: no list this time
        j.search_margin = margin + skin;
        cs_status st = cs_broadphase_build_grid(bp, px, py, radius, count, j.search_margin, pool, err);
        if (st != CS_OK || count == 0)
        {
            return st;
        }
        if (skin > 0.0)
        {
            if ((st = cs_broadphase_list_start(bp, px, py, radius, count, margin, skin, err)) != CS_OK)
            {
                return st;
            }
            j.mode = SEARCH_GRID_KEEP;
        }
    }
    cs_status st =
        pool != NULL && count > CS_BROADPHASE_CHUNK ? pairs_on_threads(&j, pool, err) : pairs_here(&j, err);
    if (st != CS_OK)
    {
        bp->list.count = 0; // (a list half built is no list)
    }
    return st;
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
