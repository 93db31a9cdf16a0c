// The grid broad phase must find exactly the brute-force pair set, in sorted order.
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/broadphase.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static void check_against_brute_force_once(const double* px, const double* py, const double* r, int n,
                                           double margin)
{
    cs_broadphase bp;
    memset(&bp, 0, sizeof bp);
    cs_error err;
    assert_int_equal(cs_broadphase_update(&bp, px, py, r, n, margin, &err), CS_OK);
    int expected = cs_broadphase_brute_force(px, py, r, n, margin, NULL, 0);
    cs_pair* ref = malloc((size_t)(expected + 1) * sizeof *ref);
    cs_broadphase_brute_force(px, py, r, n, margin, ref, expected);
    assert_int_equal(bp.pair_count, expected);
    for (int k = 0; k < expected; ++k)
    {
        assert_int_equal(bp.pairs[k].a, ref[k].a);
        assert_int_equal(bp.pairs[k].b, ref[k].b);
    }
    // The grid is O(N) in memory whatever the extent.
    assert_true(bp.cells_x * bp.cells_y <= 4 * n + 16);
    // The search on threads (chunks of CS_BROADPHASE_CHUNK bodies): the same pairs in the same order, into
    // the same broad phase again.
    for (int threads = 2; threads <= 3; ++threads)
    {
        cs_workers* pool = cs_workers_create(threads);
        assert_non_null(pool);
        assert_int_equal(cs_broadphase_update_on(&bp, px, py, r, n, margin, pool, &err), CS_OK);
        assert_int_equal(bp.pair_count, expected);
        for (int k = 0; k < expected; ++k)
        {
            assert_int_equal(bp.pairs[k].a, ref[k].a);
            assert_int_equal(bp.pairs[k].b, ref[k].b);
        }
        cs_workers_destroy(pool);
    }
    free(ref);
    cs_broadphase_free(&bp);
}

// The grid search one neighbour at a time and four at a time in AVX2 lanes (where the CPU has them): each
// must find the definition's pairs.
static void check_against_brute_force(const double* px, const double* py, const double* r, int n,
                                      double margin)
{
    bool simd = cs_broadphase_simd;
    cs_broadphase_simd = false;
    check_against_brute_force_once(px, py, r, n, margin);
    cs_broadphase_simd = true;
    check_against_brute_force_once(px, py, r, n, margin);
    cs_broadphase_simd = simd;
}

// Circles of radius 0.5 on a unit lattice touch their neighbours exactly (distance² = reach²: no pair with
// margin 0, the test is strict); every seventh is nudged by an ulp towards its right neighbour (a pair).
// Both searches must draw that line where the definition does. (A body a cell: the lanes' runs are rows of
// one to three bodies, masked tails; random_pile_matches_brute_force has several a cell, full runs of four.)
static void lattice_pairs_on_the_boundary(void** state)
{
    (void)state;
    enum
    {
        SIDE = 37,
        N = SIDE * SIDE
    };
    static double px[N], py[N], r[N];
    for (int i = 0; i < N; ++i)
    {
        px[i] = (double)(i % SIDE);
        py[i] = (double)(i / SIDE);
        r[i] = 0.5;
        if (i % 7 == 0)
        {
            px[i] = nextafter(px[i], 1e9);
        }
    }
    int pairs = cs_broadphase_brute_force(px, py, r, N, 0.0, NULL, 0);
    assert_true(pairs > N / 8 && pairs < N / 4); // (the nudged ones' right neighbours only)
    check_against_brute_force(px, py, r, N, 0.0);
    // Grids of about three cells a side, a body or two a cell: a row of the neighbourhood then often ends a
    // row of cells, and reading past it runs into the next row's cells, which are neighbours too.
    for (int trial = 0; trial < 300; ++trial)
    {
        int count = 9 + trial % 7;
        for (int i = 0; i < count; ++i)
        {
            px[i] = uniform(0.0, 3.4);
            py[i] = uniform(0.0, 3.4);
        }
        check_against_brute_force(px, py, r, count, 0.1);
    }
    // Rows of one to nine touching bodies (0.3 k, rounded: some exactly at reach, some not), far apart.
    int n = 0;
    for (int row = 1; row <= 9; ++row)
    {
        for (int k = 0; k < row; ++k, ++n)
        {
            px[n] = 0.3 * k;
            py[n] = 3.0 * row;
            r[n] = 0.15;
        }
    }
    check_against_brute_force(px, py, r, n, 0.0);
    check_against_brute_force(px, py, r, n, 0.05);
}

static void random_pile_matches_brute_force(void** state)
{
    (void)state;
    enum
    {
        N = 1500 // (two chunks of the search on threads)
    };
    static double px[N], py[N], r[N];
    for (int trial = 0; trial < 5; ++trial)
    {
        for (int i = 0; i < N; ++i)
        {
            r[i] = uniform(0.05, 0.3);
            px[i] = uniform(-6.0, 6.0);
            py[i] = uniform(0.0, 12.0);
        }
        check_against_brute_force(px, py, r, N, 0.02);
    }
}

static void large_and_far_bodies(void** state)
{
    (void)state;
    enum
    {
        N = 1200
    };
    static double px[N], py[N], r[N];
    for (int i = 0; i < N; ++i)
    {
        r[i] = uniform(0.1, 0.2);
        px[i] = uniform(-5.0, 5.0);
        py[i] = uniform(-5.0, 5.0);
    }
    // A few huge circles (would make a diameter-sized cell useless) and a body very far away
    // (would make a fine grid enormous).
    r[7] = 3.0;
    r[500] = 2.5;
    px[900] = 1e7;
    py[900] = -1e7;
    r[1100] = 40.0;
    px[1100] = 30.0;
    check_against_brute_force(px, py, r, N, 0.02);
}

static void non_finite_bodies_take_no_part(void** state)
{
    (void)state;
    double px[4] = {0.0, 0.1, NAN, 0.05};
    double py[4] = {0.0, 0.0, 0.0, INFINITY};
    double r[4] = {0.1, 0.1, 0.1, 0.1};
    check_against_brute_force(px, py, r, 4, 0.0);
    cs_broadphase bp;
    memset(&bp, 0, sizeof bp);
    assert_int_equal(cs_broadphase_update(&bp, px, py, r, 4, 0.0, NULL), CS_OK);
    assert_int_equal(bp.pair_count, 1);
    assert_int_equal(bp.pairs[0].a, 0);
    assert_int_equal(bp.pairs[0].b, 1);
    cs_broadphase_free(&bp);
}

static void margin_is_respected(void** state)
{
    (void)state;
    // Two unit circles 0.015 apart: a pair with margin 0.02, none with margin 0.01.
    double px[2] = {0.0, 2.015};
    double py[2] = {0.0, 0.0};
    double r[2] = {1.0, 1.0};
    cs_broadphase bp;
    memset(&bp, 0, sizeof bp);
    assert_int_equal(cs_broadphase_update(&bp, px, py, r, 2, 0.02, NULL), CS_OK);
    assert_int_equal(bp.pair_count, 1);
    assert_int_equal(cs_broadphase_update(&bp, px, py, r, 2, 0.01, NULL), CS_OK);
    assert_int_equal(bp.pair_count, 0);
    cs_broadphase_free(&bp);
}

// Finite but extreme extents: bodies at ±1e308 span 2e308, which overflows (hi − lo); the update must end
// (it used to loop forever on an inf/NaN cell count) and still find exactly the touching pairs.
static void extreme_extents_end_and_match(void** state)
{
    (void)state;
    const double far = 1e308;
    double px[] = {-far, far, far - 0.0, 0.0, 0.5, -far, 1e-300, DBL_MAX, -DBL_MAX};
    double py[] = {0.0, 0.0, 0.0, 0.0, 0.0, far, 0.0, DBL_MAX, -DBL_MAX};
    double r[] = {0.5, 0.5, 0.5, 0.5, 0.5, 1e-300, 4.9e-324, 0.5, 0.5};
    int n = (int)(sizeof px / sizeof px[0]);
    check_against_brute_force(px, py, r, n, 0.02);
    // Tiny circles (a tiny cell) over a huge extent: the cell count overflows before it is bounded.
    double tx[] = {-far, far, 0.0, 1e-310};
    double ty[] = {-far, far, 0.0, 0.0};
    double tr[] = {1e-300, 1e-300, 1e-300, 1e-300};
    check_against_brute_force(tx, ty, tr, 4, 0.0);
}

// The grid of an update checked against the definition, computed here on one thread: each body's cell from
// the grid's origin and cell size (-1 out or large; large = more than 4x the mean radius of the bodies that
// take part), the box of the grid bodies, and the bodies sorted by (cell, id). A chunk of a pass skipped or
// combined out of order leaves a body in the wrong cell, a stale place or a wrong box.
static void check_grid(const cs_broadphase* bp, const double* px, const double* py, const double* r,
                       const uint8_t* active, int n, double margin)
{
    double sum_r = 0.0;
    int finite = 0;
    for (int i = 0; i < n; ++i)
    {
        if (isfinite(px[i]) && isfinite(py[i]) && active[i])
        {
            sum_r += r[i];
            finite += 1;
        }
    }
    double large_r = 4.0 * sum_r / finite;
    double lo_x = INFINITY, lo_y = INFINITY, max_r = 0.0;
    int large = 0;
    for (int i = 0; i < n; ++i)
    {
        if (!(isfinite(px[i]) && isfinite(py[i]) && active[i]))
        {
            assert_int_equal(bp->cell_of[i], -1);
        }
        else if (r[i] > large_r)
        {
            assert_int_equal(bp->cell_of[i], -1);
            assert_true(large < bp->large_count);
            assert_int_equal(bp->large[large++], i); // in body order
        }
        else
        {
            lo_x = fmin(lo_x, px[i]);
            lo_y = fmin(lo_y, py[i]);
            max_r = fmax(max_r, r[i]);
        }
    }
    assert_int_equal(bp->large_count, large);
    assert_true(bp->origin_x == lo_x && bp->origin_y == lo_y);
    assert_true(bp->cell_size >= 2.0 * max_r + margin);
    int cells = bp->cells_x * bp->cells_y;
    int* count = calloc((size_t)cells + 1, sizeof *count);
    for (int i = 0; i < n; ++i)
    {
        if (bp->cell_of[i] < 0)
        {
            continue;
        }
        int cx = (int)((0.5 * px[i] - 0.5 * lo_x) / (0.5 * bp->cell_size));
        int cy = (int)((0.5 * py[i] - 0.5 * lo_y) / (0.5 * bp->cell_size));
        cx = cx < bp->cells_x ? cx : bp->cells_x - 1;
        cy = cy < bp->cells_y ? cy : bp->cells_y - 1;
        assert_int_equal(bp->cell_of[i], cy * bp->cells_x + cx);
        count[bp->cell_of[i] + 1] += 1;
    }
    for (int c = 0; c < cells; ++c)
    {
        count[c + 1] += count[c];
        assert_int_equal(bp->cell_start[c], count[c]);
    }
    assert_int_equal(bp->cell_start[cells], count[cells]);
    for (int i = 0; i < n; ++i) // ids ascend within a cell: body i goes to its cell's next place
    {
        int c = bp->cell_of[i];
        if (c >= 0)
        {
            int k = count[c]++;
            assert_int_equal(bp->sorted[k], i);
            assert_true(bp->sorted_x[k] == px[i] && bp->sorted_y[k] == py[i] && bp->sorted_r[k] == r[i]);
        }
    }
    free(count);
}

// The grid built in chunks on 1 (no pool), 2, 3 and 4 threads, twice into the same broad phase (the
// second update must overwrite every chunk's results): the definition's grid every time.
static void grid_on_any_thread_count(void** state)
{
    (void)state;
    enum
    {
        N = 3 * CS_BROADPHASE_CHUNK + 500 // (three full chunks and a part)
    };
    static double px[N], py[N], r[N];
    static uint8_t active[N];
    for (int threads = 1; threads <= 4; ++threads)
    {
        cs_workers* pool = threads > 1 ? cs_workers_create(threads) : NULL;
        assert_true(threads == 1 || pool != NULL);
        cs_broadphase bp;
        memset(&bp, 0, sizeof bp);
        bp.active = active;
        for (int round = 0; round < 2; ++round)
        {
            // Each chunk its own mean radius, and two bodies 3 % either side of the large radius: a chunk
            // of the mean skipped or counted twice moves the bound past one of them.
            double sum_r = 0.0;
            for (int i = 0; i < N; ++i)
            {
                r[i] = uniform(0.05, 0.15) * (1 + i / CS_BROADPHASE_CHUNK);
                px[i] = uniform(-20.0, 20.0) + round;
                py[i] = uniform(0.0, 30.0);
                active[i] = i % 97 != 5;
                sum_r += active[i] ? r[i] : 0.0;
            }
            double large_r = 4.0 * sum_r / (N - N / 97);
            r[10] = 0.97 * large_r;
            r[20] = 1.03 * large_r;
            r[N - 3] = 5.0; // large, in the last chunk
            r[1500] = 4.0;  // large, in the second
            px[2222] = NAN;
            cs_error err;
            assert_int_equal(cs_broadphase_update_on(&bp, px, py, r, N, 0.02, pool, &err), CS_OK);
            check_grid(&bp, px, py, r, active, N, 0.02);
        }
        cs_broadphase_free(&bp);
        cs_workers_destroy(pool);
    }
}

// The pairs by definition, honouring bp->active: every (a < b) both taking part and closer than margin.
static int pairs_by_definition(const cs_broadphase* bp, const double* px, const double* py, const double* r,
                               int n, double margin, cs_pair* out)
{
    int count = 0;
    for (int a = 0; a < n; ++a)
    {
        for (int b = a + 1; b < n && cs_broadphase_takes_part(bp, px, py, a); ++b)
        {
            double dx = px[b] - px[a], dy = py[b] - py[a], reach = r[a] + r[b] + margin;
            if (cs_broadphase_takes_part(bp, px, py, b) && dx * dx + dy * dy < reach * reach)
            {
                out[count++] = (cs_pair){a, b};
            }
        }
    }
    return count;
}

// A pair (k, m) whose gap beyond r_k + r_m + margin lies in (lo, hi): 1 when found.
static int find_gap(const double* px, const double* py, const double* r, int n, double margin, double lo,
                    double hi, int* k, int* m, double* gap)
{
    for (int a = 0; a < n; ++a)
    {
        for (int b = a + 1; b < n; ++b)
        {
            double g = hypot(px[b] - px[a], py[b] - py[a]) - r[a] - r[b] - margin;
            if (g > lo && g < hi)
            {
                *k = a, *m = b, *gap = g;
                return 1;
            }
        }
    }
    return 0;
}

// Pairs kept across updates (broadphase_list.c): the bodies drift a little at every update, and now and
// then one jumps onto a far body, grows onto a neighbour beyond the list's skin, is switched off or on,
// goes non-finite, or the margin or the count changes. Every update's pairs are the definition's, in
// order, on 1, 2 and 3 threads; the list serves the drifting updates and none of the others. (A list used
// without its check, or a check that forgets growth, switching or the count, misses or invents pairs.)
static void kept_list_matches_definition(void** state)
{
    (void)state;
    enum
    {
        N = 3 * CS_BROADPHASE_CHUNK + 500,
        UPDATES = 60
    };
    static double px[N], py[N], r[N];
    static uint8_t active[N];
    static cs_pair want[40 * N];
    for (int threads = 1; threads <= 3; ++threads)
    {
        cs_workers* pool = threads > 1 ? cs_workers_create(threads) : NULL;
        assert_true(threads == 1 || pool != NULL);
        for (int i = 0; i < N; ++i)
        {
            r[i] = uniform(0.05, 0.15);
            px[i] = uniform(-12.0, 12.0);
            py[i] = uniform(-12.0, 12.0);
            active[i] = 1;
        }
        cs_broadphase bp;
        memset(&bp, 0, sizeof bp);
        bp.active = active;
        bp.list.skin_fraction = 0.5;
        double margin = 0.02;
        int n = N, served = 0, k = 0, m = 0;
        for (int u = 0; u < UPDATES; ++u)
        {
            bool must_rebuild = true; // (the first two updates: no list yet)
            if (u >= 2)
            {
                for (int i = 0; i < n; ++i)
                {
                    px[i] += uniform(-0.001, 0.001);
                    py[i] += uniform(-0.001, 0.001);
                }
                must_rebuild = false;
            }
            double gap = 0.0;
            switch (u)
            {
                case 15: // body k jumps to touch a far body m
                    k = 7, m = 3000;
                    px[k] = px[m] + r[k] + r[m];
                    py[k] = py[m];
                    must_rebuild = true;
                    break;
                case 25: // body k grows onto m, which was beyond margin + skin (0.5 × 0.15) when the list was
                         // built
                    assert_true(find_gap(px, py, r, n, margin, 0.09, 0.12, &k, &m, &gap));
                    r[k] += gap + 0.001;
                    must_rebuild = true;
                    break;
                case 35: // switched off, then on again
                case 36:
                    active[1234] = u == 36;
                    must_rebuild = true;
                    break;
                case 45: // non-finite, then back
                case 46:
                    px[2000] = u == 45 ? NAN : 0.5;
                    must_rebuild = true;
                    break;
                case 50:
                    margin = 0.03;
                    must_rebuild = true;
                    break;
                case 55:
                    n = N - 1;
                    must_rebuild = true;
                    break;
                default:
                    break;
            }
            cs_error err;
            assert_int_equal(cs_broadphase_update_on(&bp, px, py, r, n, margin, pool, &err), CS_OK);
            if (must_rebuild)
            {
                assert_false(bp.list.used);
            }
            served += bp.list.used;
            int expected = pairs_by_definition(&bp, px, py, r, n, margin, want);
            assert_int_equal(bp.pair_count, expected);
            for (int p = 0; p < expected; ++p)
            {
                assert_int_equal(bp.pairs[p].a, want[p].a);
                assert_int_equal(bp.pairs[p].b, want[p].b);
            }
            if (u == 15 || u == 25)
            {
                bool found = false; // (the pair the list did not hold)
                for (int p = 0; p < expected; ++p)
                {
                    found |= want[p].a == (k < m ? k : m) && want[p].b == (k < m ? m : k);
                }
                assert_true(found);
            }
        }
        // Drifting by at most 1.4 mm an update against a room of 0.49 × 0.5 × ~0.15 m: after each rebuild
        // (a pause of a few updates at most), the list serves until the next event.
        assert_true(served >= 30);
        cs_broadphase_free(&bp);
        cs_workers_destroy(pool);
    }
}

// No list is built while the fastest body (its reach beyond its base radius: the step's travel) would leave
// the skin within two updates; once it slows down, one is built and serves.
static void fast_bodies_build_no_list(void** state)
{
    (void)state;
    enum
    {
        N = 400
    };
    static double px[N], py[N], base[N], reach[N];
    for (int i = 0; i < N; ++i)
    {
        base[i] = uniform(0.05, 0.1);
        px[i] = uniform(-4.0, 4.0);
        py[i] = uniform(-4.0, 4.0);
    }
    cs_broadphase bp;
    memset(&bp, 0, sizeof bp);
    bp.list.skin_fraction = 0.5;
    bp.list.base_radius = base;
    int served = 0;
    for (int u = 0; u < 40; ++u)
    {
        // One fast body for 20 updates (travel 0.03 m: the room is 0.49 × 0.5 × 0.13 ≈ 0.032 m), then none.
        double travel = u < 20 ? 0.03 : 0.001;
        for (int i = 0; i < N; ++i)
        {
            reach[i] = base[i] + (i == 17 ? travel : 0.0);
        }
        cs_error err;
        assert_int_equal(cs_broadphase_update(&bp, px, py, reach, N, 0.02, &err), CS_OK);
        if (u < 20)
        {
            assert_int_equal(bp.list.count, 0);
        }
        served += bp.list.used;
    }
    assert_true(served >= 15);
    cs_broadphase_free(&bp);
}

// Bodies without a partner keep a list without entries (built before any storage exists: no pointer into
// it, which the sanitizer build checks), and it serves.
static void lonely_bodies_keep_an_empty_list(void** state)
{
    (void)state;
    double px[3] = {0.0, 10.0, 20.0}, py[3] = {0.0, 0.0, 0.0}, r[3] = {0.5, 0.5, 0.5};
    cs_broadphase bp;
    memset(&bp, 0, sizeof bp);
    bp.list.skin_fraction = 0.5;
    for (int u = 0; u < 3; ++u)
    {
        cs_error err;
        assert_int_equal(cs_broadphase_update(&bp, px, py, r, 3, 0.02, &err), CS_OK);
        assert_int_equal(bp.pair_count, 0);
        assert_int_equal(bp.list.used, u == 2); // built at the second update, served at the third
    }
    cs_broadphase_free(&bp);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_pile_matches_brute_force),
        cmocka_unit_test(lattice_pairs_on_the_boundary),
        cmocka_unit_test(large_and_far_bodies),
        cmocka_unit_test(kept_list_matches_definition),
        cmocka_unit_test(fast_bodies_build_no_list),
        cmocka_unit_test(lonely_bodies_keep_an_empty_list),
        cmocka_unit_test(non_finite_bodies_take_no_part),
        cmocka_unit_test(margin_is_respected),
        cmocka_unit_test(extreme_extents_end_and_match),
        cmocka_unit_test(grid_on_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
