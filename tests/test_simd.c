// The vector sweeps (src/solver/simd.h) update runs of four independent rows in the lanes of one vector.
// They are an implementation of the same Gauss-Seidel sweep, so every result must be bit for bit the one of
// the one-row-at-a-time sweep (cs_solver_params.simd = false): whole worlds (hash of every body after
// every step), frozen problems with start points that hit every clamp case, and the split-impulse solve.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/simd.h"

#define CLI CS_BINARY_DIR "/circlesim-cli"
#include "solver/fuse.h"
#include "solver/residual_avx2.h"
#include "solver/solver_internal.h"
#include "solver/split.h"
#include "world/world_internal.h"

// Pool 1 after 100 steps: a settled pile's problem, wall rows among its pairs.
static cs_world* pool1_after_100_steps(void)
{
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
    assert_non_null(w);
    for (int s = 0; s < 100; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    return w;
}

// The vector path must really run where it can: on x86-64 with AVX2 (every CI machine) these tests
// would otherwise compare the scalar sweep with itself.
static void the_vector_path_runs_here(void** state)
{
    (void)state;
#if CS_SIMD_X86
    __builtin_cpu_init();
    assert_int_equal(cs_solver_simd_available(), __builtin_cpu_supports("avx2") != 0);
#endif
    print_message("# vector sweeps available: %s\n", cs_solver_simd_available() ? "yes (AVX2)" : "no");
    if (!cs_solver_simd_available())
    {
        return;
    }
    cs_error err;
    cs_world* w = pool1_after_100_steps();
    const cs_lcp* p = cs_world_last_problem(w);
    cs_solver_params params = cs_solver_params_default();
    cs_solver_work work = {0};
    double* lambda = calloc((size_t)p->row_count, sizeof(double));
    assert_int_equal(cs_solve(p, cs_solver_find("pgs"), &params, &work, lambda, NULL, &err), CS_OK);
    int quads = 0, rows_in_quads = 0, short_quads = 0;
    const cs_sweep_item* items = work.schedule;
    for (int k = 0; k < work.schedule_count; ++k)
    {
        quads += items[k].quad >= 0;
        rows_in_quads += items[k].quad >= 0 ? items[k].count : 0;
        short_quads += items[k].quad >= 0 && items[k].pairs > 0 && items[k].pairs < CS_LANES;
        assert_int_equal(items[k].count, items[k].pairs > 0 ? 2 * items[k].pairs : items[k].count);
    }
    print_message("# pool1 step 100: %d of %d rows in %d quads (%d short)\n", rows_in_quads, p->row_count,
                  quads, short_quads);
    assert_true(rows_in_quads > 9 * p->row_count / 10); // the coloured order feeds the lanes
    // A colour's last two or three pairs share no body but their successors do: they close a short quad
    // (pack_lanes.c, close_short) rather than going one row at a time.
    assert_true(short_quads > 0);
    assert_true(rows_in_quads > 99 * p->row_count / 100);
    free(lambda);
    cs_solver_work_free(&work);
    cs_world_destroy(w);
}

typedef struct world_case
{
    const char* scene;
    const char* solver;
    bool frictionless;
    cs_row_order order;
    int steps;
} world_case;

static cs_world* load_case(const world_case* c, bool simd)
{
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path(c->scene), &info, &err);
    assert_non_null(w);
    if (c->solver != NULL)
    {
        cs_world_set_solver(w, cs_solver_find(c->solver));
    }
    cs_solver_params params = *cs_world_solver_params(w);
    params.simd = simd;
    cs_world_set_solver_params(w, &params);
    cs_world_set_frictionless(w, c->frictionless);
    cs_world_set_row_order(w, c->order);
    return w;
}

// Two worlds, vector sweeps on and off, step by step: the same bits after every step.
static void worlds_are_bit_identical_with_and_without_lanes(void** state)
{
    (void)state;
    const world_case cases[] = {
        {"scenes/pool1.json", NULL, false, CS_ROW_ORDER_COLOURED, 300},
        {"scenes/pool1.json", NULL, true, CS_ROW_ORDER_COLOURED, 150},
        {"scenes/pool2.json", NULL, false, CS_ROW_ORDER_COLOURED, 300},
        {"scenes/pool2.json", NULL, false, CS_ROW_ORDER_KEY, 100},
        {"scenes/stacking.json", NULL, false, CS_ROW_ORDER_COLOURED, 300},
        {"scenes/stacking150.json", NULL, false, CS_ROW_ORDER_COLOURED, 200},
        {"scenes/pile.json", NULL, false, CS_ROW_ORDER_COLOURED, 200},
        {"scenes/pool1.json", "amgs", false, CS_ROW_ORDER_COLOURED, 200},
        {"scenes/pool2.json", "amgs-omega", false, CS_ROW_ORDER_COLOURED, 200},
        {"scenes/pool1.json", "pgs-f32", false, CS_ROW_ORDER_COLOURED, 200}, // float lanes (pgs_f32.h)
        {"scenes/stacking150.json", "pgs-f32", false, CS_ROW_ORDER_COLOURED, 150},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
        const world_case* c = cases + k;
        cs_world* on = load_case(c, true);
        cs_world* off = load_case(c, false);
        for (int s = 0; s < c->steps; ++s)
        {
            assert_int_equal(cs_world_step(on), CS_OK);
            assert_int_equal(cs_world_step(off), CS_OK);
            if (cs_world_hash(on) != cs_world_hash(off))
            {
                fail_msg("%s (%s%s, %s order): vector and scalar sweeps differ at step %d", c->scene,
                         c->solver != NULL ? c->solver : "pgs", c->frictionless ? ", frictionless" : "",
                         cs_row_order_name(c->order), s + 1);
            }
        }
        const cs_lcp* p = cs_world_last_problem(on);
        assert_memory_equal(cs_world_last_lambda(on), cs_world_last_lambda(off),
                            (size_t)p->row_count * sizeof(double));
        cs_world_destroy(on);
        cs_world_destroy(off);
    }
}

// A pool of thousands of contacts, vector lanes against scalar sweeps, the split-impulse solve on the
// velocity quads (the default) and on its own compact rows and schedule (split.c, cs_split_own_min_rows: the
// path it takes where the velocity sweeps are fused): the same bits on both paths, with and without threads.
static void big_pool_is_bit_identical_with_and_without_lanes(void** state)
{
    (void)state;
    int saved = cs_split_own_min_rows;
    uint64_t last[2];
    for (int own = 0; own < 2; ++own)
    {
        cs_split_own_min_rows = own ? 6000 : saved;
        cs_world* on = cs_test_pool(2500, 50);
        cs_world* off = cs_test_pool(2500, 50);
        cs_solver_params params = *cs_world_solver_params(off);
        params.simd = false;
        cs_world_set_solver_params(off, &params);
        assert_true(cs_world_set_threads(on, 2));
        int most = 0;
        for (int s = 0; s < 60; ++s)
        {
            assert_int_equal(cs_world_step(on), CS_OK);
            assert_int_equal(cs_world_step(off), CS_OK);
            most = cs_world_contact_count(on) > most ? cs_world_contact_count(on) : most;
            if (cs_world_hash(on) != cs_world_hash(off))
            {
                cs_split_own_min_rows = saved;
                fail_msg("2 500-circle pool (split %s): vector and scalar sweeps differ at step %d",
                         own ? "on its own rows" : "on the velocity quads", s + 1);
            }
        }
        print_message("# 2 500-circle pool: up to %d contacts\n", most);
        assert_true(most > 6000); // past 6 000 split rows
        if (cs_solver_simd_available())
        {
            // (The split's own schedule has items only when that path ran: with `own`, the last step's.)
            assert_true((on->split_work.item_count > 0) == (own == 1));
        }
        last[own] = cs_world_hash(on);
        cs_world_destroy(on);
        cs_world_destroy(off);
    }
    cs_split_own_min_rows = saved;
    assert_true(last[0] == last[1]);
}

// A frozen Pool 2 problem from start points that reach every branch of the clamps: negative, zero and
// signed-zero normal impulses (an empty friction box), friction at and beyond ±μλ_n, and large biases.
static void frozen_problem_from_hard_start_points(bool frictionless)
{
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool2.json"), &info, &err);
    assert_non_null(w);
    cs_world_set_frictionless(w, frictionless);
    for (int s = 0; s < 60; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
    int m = p.row_count;
    uint64_t seed = 99;
    const double specials[] = {0.0, -0.0, -1.0, 1e-300, 5.0};
    double* v_star = malloc(3 * (size_t)p.body_count * sizeof(double));
    memcpy(v_star, p.v, 3 * (size_t)p.body_count * sizeof(double));
    for (int trial = 0; trial < 24; ++trial)
    {
        // The last four trials start at rest with zero biases, where steps are exactly 0 and signed zeros
        // survive: max(0, −0 − 0) must stay −0, as the scalar branch leaves it.
        bool at_rest = trial >= 20;
        memcpy(p.v, v_star, 3 * (size_t)p.body_count * sizeof(double));
        if (at_rest)
        {
            memset(p.v, 0, 3 * (size_t)p.body_count * sizeof(double));
        }
        for (int i = 0; i < m; ++i)
        {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(seed >> 11) / 9007199254740992.0;
            int pick = (int)((seed >> 3) % 8);
            p.lambda0[i] = pick < 5 ? specials[pick] : (u - 0.3) * 4.0;
            if (at_rest)
            {
                p.lambda0[i] = trial == 20 ? -0.0 : specials[pick % 2];
                p.bias[i] = 0.0;
            }
            else if (trial % 2 == 1)
            {
                p.bias[i] += (u - 0.5) * 2.0;
            }
        }
        cs_solver_params params = cs_solver_params_default();
        params.iterations = 1 + trial % 7;
        // γ ≠ 2 as well: with γ = 2 the factor 2/γ is 1 and products with it are exact, hiding any
        // difference in the order the lanes multiply.
        params.gamma = trial % 4 >= 2 ? 1.7 : 2.0;
        params.alpha = trial % 5 == 0 ? 0.35 : 0.2;
        double* lambda[2];
        cs_solver_work work[2] = {{0}, {0}};
        // Every trial also with pgs-f32, whose float lanes have clamps of their own (simd_avx2_f32.c).
        const char* solvers[] = {"pgs", "amgs", "amgs-omega"};
        const char* pair[] = {solvers[trial % 3], "pgs-f32"};
        for (int k = 0; k < 2; ++k)
        {
            for (int simd = 0; simd < 2; ++simd)
            {
                params.simd = simd == 1;
                lambda[simd] = calloc((size_t)m, sizeof(double));
                assert_int_equal(
                    cs_solve(&p, cs_solver_find(pair[k]), &params, &work[simd], lambda[simd], NULL, &err),
                    CS_OK);
            }
            assert_memory_equal(lambda[0], lambda[1], (size_t)m * sizeof(double));
            assert_memory_equal(work[0].v, work[1].v, 3 * (size_t)p.body_count * sizeof(double));
            for (int simd = 0; simd < 2; ++simd)
            {
                free(lambda[simd]);
                cs_solver_work_free(&work[simd]);
            }
        }
    }
    free(v_star);
    cs_lcp_free(&p);
}

// With friction the lanes take normal/friction pairs, without it normal rows.
static void frozen_problems_from_hard_start_points(void** state)
{
    (void)state;
    frozen_problem_from_hard_start_points(false);
    frozen_problem_from_hard_start_points(true);
}

// The pair quads hold 16 of a pair's 28 numbers (simd.h, cs_pair_quad) and take only pairs whose other
// numbers follow from those bit for bit (cs_pair_compact); any other pair is swept one row at a time. Pool
// 1's problem (wall pairs with a static half among them) with every 16th contact's friction row no longer
// the normal turned a quarter (its M⁻¹J_f,bᵀ is not (−nmby, nmbx)) and every 16th a half no longer −J_n,b:
// those pairs stay out of the lanes, the others go in, and every method with lanes gives the scalar sweep's
// bits, the split solve on the velocity quads too. With p.reg (all 0) the rows take the records' path
// (cs_pack_row, then cs_pair_compact_rows); pssor and pgs-sm build their schedule from records
// (cs_schedule_rows).
static void solve_both_ways(const cs_lcp* p, const char* solver, const bool* broken)
{
    cs_error err;
    int m = p->row_count, count = m / 2;
    double* lambda[2];
    double* split_lambda[2];
    double* split_v[2];
    double* b = malloc((size_t)count * sizeof(double));
    for (int k = 0; k < count; ++k)
    {
        b[k] = p->bias[2 * k];
    }
    cs_solver_work work[2] = {{0}, {0}};
    cs_split_work split[2] = {{0}, {0}};
    for (int simd = 0; simd < 2; ++simd)
    {
        cs_solver_params params = cs_solver_params_default();
        params.simd = simd == 1;
        lambda[simd] = calloc((size_t)m, sizeof(double));
        assert_int_equal(cs_solve(p, cs_solver_find(solver), &params, &work[simd], lambda[simd], NULL, &err),
                         CS_OK);
        split_lambda[simd] = calloc((size_t)count, sizeof(double));
        split_v[simd] = calloc(3 * ((size_t)p->body_count + 1), sizeof(double));
        assert_int_equal(cs_split_work_reserve(&split[simd], &work[simd], simd == 1, 0, 2, count, &err),
                         CS_OK);
        cs_solve_split(&work[simd], p->body_count, 0, 2, count, b, 10, 0.0, simd == 1, &split[simd],
                       split_lambda[simd], split_v[simd]);
    }
    int pairs_in_lanes = 0;
    const cs_sweep_item* items = work[1].schedule;
    for (int k = 0; k < work[1].schedule_count; ++k)
    {
        for (int u = 0; items[k].quad >= 0 && u < items[k].pairs; ++u)
        {
            int contact = items[k].first / 2 + u;
            if (broken[contact])
            {
                fail_msg("%s: contact %d has no compact lanes but went in a pair quad", solver, contact);
            }
            pairs_in_lanes += 1;
        }
    }
    print_message("# %s%s: %d of %d pairs in lanes\n", solver, p->reg != NULL ? " (records' path)" : "",
                  pairs_in_lanes, count);
    if (cs_solver_simd_available())
    {
        // (Pairs 0 and 8 of every 16 are broken, each ending a run of seven; a run's last three pairs go in a
        // short quad: 528 of 604 pairs on both paths, 308 without short quads.)
        assert_true(pairs_in_lanes > 4 * count / 5);
    }
    assert_memory_equal(lambda[0], lambda[1], (size_t)m * sizeof(double));
    assert_memory_equal(work[0].v, work[1].v, 3 * (size_t)p->body_count * sizeof(double));
    assert_memory_equal(split_lambda[0], split_lambda[1], (size_t)count * sizeof(double));
    assert_memory_equal(split_v[0], split_v[1], 3 * ((size_t)p->body_count + 1) * sizeof(double));
    for (int simd = 0; simd < 2; ++simd)
    {
        free(lambda[simd]);
        free(split_lambda[simd]);
        free(split_v[simd]);
        cs_solver_work_free(&work[simd]);
        cs_split_work_free(&split[simd]);
    }
    free(b);
}

// A solve of p with `solver` (simd on, its defaults) into work: its schedule, runs and quads to inspect.
static void solve_into(const cs_lcp* p, const char* solver, cs_solver_work* work)
{
    cs_error err;
    cs_solver_params params = cs_solver_params_default();
    double* lambda = calloc((size_t)p->row_count, sizeof(double));
    assert_int_equal(cs_solve(p, cs_solver_find(solver), &params, work, lambda, NULL, &err), CS_OK);
    free(lambda);
}

// The two builders of the lanes' schedule — the packing pass (cs_pack_lanes, pgs's path) and the records'
// path (cs_schedule_rows, pssor's) — must build one schedule: the same items (rows, quads, short quads'
// pairs) and the same lanes bit for bit, null lanes included. Where short quads are off (cs_fuse_short_quads:
// a problem that may be fused) both must leave them out. Returns the short quads seen.
static int schedules_agree(const cs_lcp* p)
{
    cs_solver_work work[2] = {{0}, {0}};
    solve_into(p, "pgs", &work[0]);
    solve_into(p, "pssor", &work[1]);
    assert_int_equal(work[0].schedule_count, work[1].schedule_count);
    int shorts = 0;
    const cs_sweep_item *xs = work[0].schedule, *ys = work[1].schedule;
    for (int k = 0; k < work[0].schedule_count; ++k)
    {
        const cs_sweep_item *x = xs + k, *y = ys + k;
        if (x->first != y->first || x->count != y->count || x->quad != y->quad || x->pairs != y->pairs)
        {
            fail_msg("item %d: packing pass (%d, %d, quad %d, %d pairs), records' path (%d, %d, quad %d, %d "
                     "pairs)",
                     k, x->first, x->count, x->quad, x->pairs, y->first, y->count, y->quad, y->pairs);
        }
        if (x->quad >= 0 && x->pairs > 0)
        {
            shorts += x->pairs < CS_LANES;
            assert_memory_equal((const cs_pair_quad*)work[0].quads + x->quad,
                                (const cs_pair_quad*)work[1].quads + y->quad, sizeof(cs_pair_quad));
        }
        else if (x->quad >= 0)
        {
            assert_memory_equal((const cs_normal_quad*)work[0].normal_quads + x->quad,
                                (const cs_normal_quad*)work[1].normal_quads + y->quad,
                                sizeof(cs_normal_quad));
        }
    }
    cs_solver_work_free(&work[0]);
    cs_solver_work_free(&work[1]);
    return shorts;
}

// The sweeps walk runs of quads without reading their items (cs_schedule_runs): each run must be quads of
// one kind whose quad indices and rows follow each other, each as long as it can be (the next item does not
// continue it), and every whole pair quad and normal quad must be in one — on both schedule builders' output.
static void check_runs(const cs_solver_work* w, const char* solver)
{
    const cs_sweep_item* items = w->schedule;
    const int32_t* runs = w->schedule_runs;
    int in_runs = 0, quads = 0, starts = 0;
    for (int k = 0; k < w->schedule_count; ++k)
    {
        const cs_sweep_item* it = items + k;
        bool runnable = it->quad >= 0 && (it->pairs == CS_LANES || it->pairs == 0);
        quads += runnable;
        if (!runnable)
        {
            assert_int_equal(runs[k], 0);
            continue;
        }
        assert_true(runs[k] >= 1 && k + runs[k] <= w->schedule_count);
        bool start = k == 0 || runs[k - 1] != runs[k] + 1;
        if (!start)
        {
            continue;
        }
        starts += 1;
        int n = runs[k];
        for (int j = 1; j < n; ++j)
        {
            const cs_sweep_item* next = it + j;
            assert_int_equal(runs[k + j], n - j);
            assert_int_equal(next->pairs, it->pairs);
            assert_int_equal(next->quad, it->quad + j);
            assert_int_equal(next->first, it->first + j * it->count);
        }
        const cs_sweep_item* after = it + n;
        if (k + n < w->schedule_count)
        {
            assert_false(after->quad == it->quad + n && after->pairs == it->pairs &&
                         after->first == it->first + n * it->count); // (maximal)
        }
        in_runs += n;
    }
    print_message("# %s: %d quads in %d runs\n", solver, in_runs, starts);
    assert_int_equal(in_runs, quads);
    assert_true(starts < quads / 4); // (Pool 1's colours: long runs, not one quad each)
}

static void quads_run_in_runs(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        print_message("# no vector sweeps on this CPU: no runs\n");
        return;
    }
    cs_world* w = pool1_after_100_steps();
    const char* solvers[2] = {"pgs", "pssor"};
    for (int k = 0; k < 2; ++k)
    {
        cs_solver_work work = {0};
        solve_into(cs_world_last_problem(w), solvers[k], &work);
        check_runs(&work, solvers[k]);
        cs_solver_work_free(&work);
    }
    cs_world_destroy(w);
}

// Pool 1's step-100 problem and its copy with the compact layout broken (below), with short quads allowed
// and, with cs_fuse_min_rows forced below their size, not.
static void both_schedule_builders_build_one_schedule(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        print_message("# no vector sweeps on this CPU: no schedule to compare\n");
        return;
    }
    cs_error err;
    cs_world* w = pool1_after_100_steps();
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
    int with_short = schedules_agree(&p);
    cs_fuse_min_rows = p.row_count; // (restored by the teardown)
    int without = schedules_agree(&p);
    for (int c = 0; c < p.row_count / 2; c += 7)
    {
        p.jac[12 * (size_t)c + 9] += 0.125; // every seventh pair's friction row off the compact layout
    }
    cs_fuse_min_rows = INT32_MAX;
    int broken_short = schedules_agree(&p);
    print_message("# short quads: %d, %d with the layout broken, %d where the solve may be fused\n",
                  with_short, broken_short, without);
    assert_true(with_short > 0 && broken_short > with_short);
    assert_int_equal(without, 0);
    cs_lcp_free(&p);
}

static void pairs_without_the_compact_layout_go_one_row_at_a_time(void** state)
{
    (void)state;
    cs_error err;
    cs_world* w = pool1_after_100_steps();
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
    int count = p.row_count / 2, statics = 0;
    bool* broken = calloc((size_t)count, sizeof(bool));
    for (int c = 0; c < count; ++c)
    {
        double* jn = p.jac + 12 * (size_t)c;
        double* jf = jn + 6;
        assert_int_equal(p.kind[2 * c + 1], CS_ROW_FRICTION); // Pool 1's rows: normal/friction pairs
        statics += p.body_a[2 * c] < 0;
        if (c % 16 == 0)
        {
            jf[3] += 0.125; // J_f,b no longer (−J_n,b y, J_n,b x)
            broken[c] = true;
        }
        else if (c % 16 == 8 && p.body_a[2 * c] >= 0)
        {
            jn[0] += 0x1p-20; // J_n,a no longer −J_n,b
            broken[c] = true;
        }
    }
    assert_true(statics > 0);
    const char* solvers[] = {"pgs", "psor", "amgs", "amgs-omega", "pssor", "pgs-sm"};
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; ++k)
    {
        solve_both_ways(&p, solvers[k], broken);
    }
    assert_int_equal(cs_lcp_reserve_reg(&p, true, &err), CS_OK);
    memset(p.reg, 0, (size_t)p.row_count * sizeof(double));
    solve_both_ways(&p, "pgs", broken);
    free(broken);
    cs_lcp_free(&p);
}

// A row whose half a is a body with no linear J (its x and y numbers 0, J_b not) is not a circle contact's:
// J_a·v_a + J_b·v_b is J_b·v_b, not J_b·(v_b − v_a), so neither the fast paths (CS_PACK_OPPOSED) nor the
// lanes (which treat M⁻¹J_aᵀ = +0 as a static half a) may take its step from the relative velocity. Four such
// contacts on eight different bodies (one quad's worth), each half a moving fast: one PGS sweep from λ = 0 is
// each contact's own solve, written out here, with lanes and without; and a frictionless copy (normal rows).
static void rows_with_a_moving_half_a_of_no_linear_j(bool frictionless)
{
    cs_error err;
    const int contacts = CS_LANES, per = frictionless ? 1 : 2;
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_reserve(&p, 2 * contacts, per * contacts, &err), CS_OK);
    p.body_count = 2 * contacts;
    p.row_count = per * contacts;
    const double ra = 0.3, rb = 0.5, mu = 0.4;
    for (int c = 0; c < contacts; ++c)
    {
        int a = 2 * c, b = 2 * c + 1;
        double ang = 0.4 + 0.7 * c, nx = cos(ang), ny = sin(ang);
        p.inv_mass[a] = 1.0, p.inv_inertia[a] = 2.0;
        p.inv_mass[b] = 0.5 + 0.25 * c, p.inv_inertia[b] = 1.5;
        // Half b approaches along n at 2 m/s; half a moves at 3 m/s along n (and 1 across): read into the
        // normal row's step it would change the approach to −5 m/s.
        double va[3] = {3.0 * nx - ny, 3.0 * ny + nx, 0.7}, vb[3] = {-2.0 * nx + 0.1 * c, -2.0 * ny, 0.3};
        memcpy(p.v + 3 * a, va, sizeof va);
        memcpy(p.v + 3 * b, vb, sizeof vb);
        int n = per * c;
        double jn[6] = {0.0, 0.0, 0.0, nx, ny, 0.0};
        memcpy(p.jac + 6 * n, jn, sizeof jn);
        p.body_a[n] = a, p.body_b[n] = b;
        p.bias[n] = 0.1, p.kind[n] = CS_ROW_NORMAL, p.link[n] = -1, p.mu[n] = 0.0;
        p.lo[n] = 0.0, p.hi[n] = INFINITY, p.lambda0[n] = 0.0;
        if (!frictionless)
        {
            // The friction row of a circle contact on half b, (−n_y, n_x) and its spin, and a spin on half a.
            double jf[6] = {0.0, 0.0, ra, -ny, nx, rb};
            memcpy(p.jac + 6 * (n + 1), jf, sizeof jf);
            p.body_a[n + 1] = a, p.body_b[n + 1] = b;
            p.bias[n + 1] = 0.0, p.kind[n + 1] = CS_ROW_FRICTION, p.link[n + 1] = n, p.mu[n + 1] = mu;
            p.lo[n + 1] = 0.0, p.hi[n + 1] = 0.0, p.lambda0[n + 1] = 0.0;
        }
    }
    for (int simd = 0; simd < 2; ++simd)
    {
        cs_solver_params params = cs_solver_params_default();
        params.iterations = 1;
        params.simd = simd == 1;
        cs_solver_work work = {0};
        double lambda[2 * CS_LANES];
        assert_int_equal(cs_solve(&p, cs_solver_find("pgs"), &params, &work, lambda, NULL, &err), CS_OK);
        for (int c = 0; c < contacts; ++c)
        {
            int a = 2 * c, b = 2 * c + 1, n = per * c;
            const double* jn = p.jac + 6 * n;
            const double *va = p.v + 3 * a, *vb = p.v + 3 * b;
            double ln = fmax(0.0, -(jn[3] * vb[0] + jn[4] * vb[1] + p.bias[n]) / (p.inv_mass[b]));
            assert_true(ln > 0.5); // (b approaches at 2 m/s; with v_a in the step it would read 5 m/s)
            assert_true(fabs(lambda[n] - ln) <= 1e-12 * ln);
            if (!frictionless)
            {
                // The friction row's step at v*: the normal impulse on half b is along n, which t ⟂ n and
                // no spin make invisible to it. A_ff = ra²/I_a + |t|²/m_b + rb²/I_b.
                const double* jf = jn + 6;
                double wf = jf[2] * va[2] + jf[3] * vb[0] + jf[4] * vb[1] + jf[5] * vb[2];
                double aff = ra * ra * p.inv_inertia[a] + p.inv_mass[b] + rb * rb * p.inv_inertia[b];
                double lf = fmin(mu * ln, fmax(-mu * ln, -wf / aff));
                assert_true(fabs(lambda[n + 1] - lf) <= 1e-12 * fabs(lf) + 1e-15);
            }
        }
        cs_solver_work_free(&work);
    }
    cs_lcp_free(&p);
}

static void a_moving_half_a_of_no_linear_j_with_friction(void** state)
{
    (void)state;
    rows_with_a_moving_half_a_of_no_linear_j(false);
}

static void a_moving_half_a_of_no_linear_j_frictionless(void** state)
{
    (void)state;
    rows_with_a_moving_half_a_of_no_linear_j(true);
}

// The packer's four pairs at once (cs_avx2_pack_pairs) tell the a half's J/A of the pair quad's structure
// from the Jacobian: J_a = −J_b, which J_a/A = −J_b/A follows from bit for bit. Four of Pool 1's pairs with
// moving a halves that it packs, then one pair's J_n,a x (or y) moved by 2⁻²⁰ with its friction row's J_f,a
// still J_n,a turned a quarter (so M⁻¹J_f,aᵀ still is (−nmay, nmax): the M⁻¹Jᵀ tests pass, the J tests
// must tell): refused.
static void the_packer_refuses_a_normal_row_off_the_structure(void** state)
{
    (void)state;
#if CS_SIMD_X86
    if (!cs_simd_cpu())
    {
        skip();
    }
    cs_error err;
    cs_world* w = pool1_after_100_steps();
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
    int m = p.row_count;
    double* lambda = calloc((size_t)m, sizeof(double));
    double* diag = calloc((size_t)m, sizeof(double));
    double* inv_diag = calloc((size_t)m, sizeof(double));
    double* v = calloc(3 * ((size_t)p.body_count + 1), sizeof(double));
    cs_pair_quad quad;
    cs_pack4_out out = {.quad = &quad,
                        .lambda = lambda,
                        .diag = diag,
                        .inv_diag = inv_diag,
                        .v = v,
                        .zero_slot = 3 * p.body_count};
    int found = -1;
    for (int i = 0; i + 8 <= m && found < 0; i += 8)
    {
        bool moving = true;
        for (int k = 0; k < CS_LANES; ++k)
        {
            moving &= p.body_a[i + 2 * k] >= 0;
        }
        if (moving && cs_avx2_pack_pairs(&p, NULL, i, &out))
        {
            found = i;
        }
    }
    assert_true(found >= 0);
    for (int axis = 0; axis < 2; ++axis)
    {
        double* jn = p.jac + 6 * (size_t)(found + 2);
        double* jf = jn + 6;
        double n0 = jn[axis], f0 = jf[1 - axis];
        jn[axis] += 0x1p-20;
        jf[1 - axis] = axis == 0 ? jn[0] : -jn[1]; // J_f,a = (−J_n,a y, J_n,a x)
        assert_false(cs_avx2_pack_pairs(&p, NULL, found, &out));
        jn[axis] = n0, jf[1 - axis] = f0;
        assert_true(cs_avx2_pack_pairs(&p, NULL, found, &out));
    }
    free(lambda);
    free(diag);
    free(inv_diag);
    free(v);
    cs_lcp_free(&p);
#else
    skip();
#endif
}

// Both residuals bit for bit as the row-by-row functions (cs_residual_lcp, cs_residual_nat) that take the
// rows one at a time: cs_residuals takes a contact's normal and friction rows together, four such pairs in
// AVX2 lanes where it can (residual_avx2.c), and must add every term in row order. Pool 1's problem (wall
// rows with a static half among them) at the solve's answer and at start points that hit every clamp case,
// and with two rows turned into box rows so that the lanes start off a multiple of eight rows.
static void residual_bits(const cs_lcp* p, const double* lambda, bool lanes_run)
{
    double* v = malloc(3 * (size_t)p->body_count * sizeof(double));
    cs_lcp_velocity(p, lambda, v);
    double res_lcp, res_nat;
    cs_residuals(p, v, lambda, &res_lcp, &res_nat);
    double row_lcp = cs_residual_lcp(p, v, lambda), row_nat = cs_residual_nat(p, v, lambda);
    assert_memory_equal(&res_lcp, &row_lcp, sizeof res_lcp);
    assert_memory_equal(&res_nat, &row_nat, sizeof res_nat);
    if (lanes_run && cs_avx2_residual_cpu())
    {
        // (The kernel really takes Pool 1's rows: from row 0, or from row 4 when rows 2, 3 are box rows.)
        double sum_lcp = 0.0, sum_nat = 0.0;
        int from = p->kind[2] == CS_ROW_BOX ? 4 : 0;
        assert_true(cs_avx2_residual_pairs(p, v, lambda, from, &sum_lcp, &sum_nat) > from + p->row_count / 2);
    }
    free(v);
}

static void residuals_are_the_row_by_row_bits(void** state)
{
    (void)state;
    cs_error err;
    cs_world* w = pool1_after_100_steps();
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(w), &err), CS_OK);
    const int m = p.row_count;
    assert_true(m > 64 && p.reg == NULL);
    double* lambda = calloc((size_t)m, sizeof(double));
    cs_solver_params params = cs_solver_params_default();
    cs_solver_work work = {0};
    assert_int_equal(cs_solve(&p, cs_solver_find("pgs"), &params, &work, lambda, NULL, &err), CS_OK);
    residual_bits(&p, lambda, true);
    srand(12);
    for (int trial = 0; trial < 40; ++trial)
    {
        if (trial == 20)
        {
            p.kind[2] = p.kind[3] = CS_ROW_BOX; // lanes from row 4 on
            p.link[3] = -1;
            p.lo[2] = p.lo[3] = -0.5;
            p.hi[2] = p.hi[3] = 0.25;
        }
        // Start points on every side of the bounds: negative normal impulses, friction inside and beyond
        // ±μλ, exact zeros, and the answer scaled.
        for (int i = 0; i < m; ++i)
        {
            double r = (double)rand() / RAND_MAX;
            int pick = rand() % 4;
            lambda[i] = pick == 0 ? 0.0 : pick == 1 ? (r - 0.3) * 2.0 : lambda[i] * (0.5 + r);
        }
        residual_bits(&p, lambda, true);
    }
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
    cs_world_destroy(w);
}

// Rows without bodies (an LCP file may have them, v then NULL): four normal/friction pairs the lanes would
// take, were it not that a missing half reads body 0's slot; the scalar pass never reads v for them.
static void residuals_of_rows_without_bodies(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err;
    assert_int_equal(cs_lcp_reserve(&p, 0, 8, &err), CS_OK);
    p.body_count = 0;
    p.row_count = 8;
    const double jac[6] = {0};
    double lambda[8];
    for (int i = 0; i < 8; ++i)
    {
        bool friction = i % 2 == 1;
        cs_lcp_set_contact_row(&p, i, -1, -1, jac, friction ? 0.0 : 0.1 * (i + 1), friction ? i - 1 : -1, 0.5,
                               0.0);
        lambda[i] = friction ? 0.3 : 0.2 * (i - 3);
    }
    double res_lcp, res_nat;
    cs_residuals(&p, NULL, lambda, &res_lcp, &res_nat);
    double row_lcp = cs_residual_lcp(&p, NULL, lambda), row_nat = cs_residual_nat(&p, NULL, lambda);
    assert_memory_equal(&res_lcp, &row_lcp, sizeof res_lcp);
    assert_memory_equal(&res_nat, &row_nat, sizeof res_nat);
    assert_true(res_nat > 0.0);
    cs_lcp_free(&p);
}

// The CLI's --no-simd: the same solution file, byte for byte, from `lcp solve` both ways.
static void cli_no_simd_gives_the_same_solution(void** state)
{
    (void)state;
    const char* lcp = cs_test_temp_path(".lcp");
    const char* sol[2] = {cs_test_temp_path(".sol"), cs_test_temp_path(".sol")};
    char cmd[2048], out[4096];
    snprintf(cmd, sizeof cmd, "%s run %s --steps 80 --quiet --dump-lcp 80:%s", CLI,
             cs_test_source_path("scenes/pool2.json"), lcp);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    for (int k = 0; k < 2; ++k)
    {
        snprintf(cmd, sizeof cmd, "%s lcp solve %s --solver amgs --iterations 30 --out %s%s", CLI, lcp,
                 sol[k], k == 1 ? " --no-simd" : "");
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    }
    char* text[2];
    size_t size[2];
    for (int k = 0; k < 2; ++k)
    {
        FILE* f = fopen(sol[k], "rb");
        assert_non_null(f);
        text[k] = malloc(1 << 20);
        size[k] = fread(text[k], 1, 1 << 20, f);
        fclose(f);
    }
    assert_true(size[0] > 1000);
    assert_int_equal(size[0], size[1]);
    assert_memory_equal(text[0], text[1], size[0]);
    free(text[0]);
    free(text[1]);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_vector_path_runs_here),
        cmocka_unit_test(worlds_are_bit_identical_with_and_without_lanes),
        cmocka_unit_test_setup_teardown(big_pool_is_bit_identical_with_and_without_lanes,
                                        cs_test_save_sweep_knobs, cs_test_restore_sweep_knobs),
        cmocka_unit_test(frozen_problems_from_hard_start_points),
        cmocka_unit_test(pairs_without_the_compact_layout_go_one_row_at_a_time),
        cmocka_unit_test(quads_run_in_runs),
        cmocka_unit_test_setup_teardown(both_schedule_builders_build_one_schedule, cs_test_save_sweep_knobs,
                                        cs_test_restore_sweep_knobs),
        cmocka_unit_test(the_packer_refuses_a_normal_row_off_the_structure),
        cmocka_unit_test(a_moving_half_a_of_no_linear_j_with_friction),
        cmocka_unit_test(a_moving_half_a_of_no_linear_j_frictionless),
        cmocka_unit_test(cli_no_simd_gives_the_same_solution),
        cmocka_unit_test(residuals_are_the_row_by_row_bits),
        cmocka_unit_test(residuals_of_rows_without_bodies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
