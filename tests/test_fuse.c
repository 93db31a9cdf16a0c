// Several sweeps in one pass (solver/fuse.h) give the bits of the same sweeps one after the other: a pool big
// enough to fuse, stepped with the fused sweeps forced on and forced off (cs_fuse_min_rows), must agree in
// every body's state, the velocity solve's λ, the position solve's λ and its sweep counts; and the plans
// must have been built and must overlap the sweeps (else the test would compare sequential with sequential).
// The same for a frictionless pool and one with joints on two threads (the split solve's worker beside the
// fused velocity sweeps), and for a pool whose circles are added in random order (its plan is dropped).
#include "test_support.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/fuse.h"
#include "solver/simd.h"
#include "world/world_internal.h"

enum
{
    STEPS = 80,
    SHUFFLED_CIRCLES = 20000,
};

typedef enum pool_kind
{
    POOL,              // cs_test_pool's
    POOL_FRICTIONLESS, // frictionless, two threads
    POOL_JOINTS,       // with a few distance joints, two threads
    POOL_SHUFFLED,     // its circles added in random order
} pool_kind;

typedef struct run_result
{
    cs_world* w;
    long position_sweeps;             // summed over the steps
    int velocity_plans;               // steps whose velocity solve had a plan
    int split_plans;                  // steps whose position solve had one
    bool overlapped;                  // some plan let a later sweep start before the one below it ended
    long moved, quads_apart, dropped; // the velocity plans' counts (cs_fuse_counts), summed over the steps
    int segments;                     // the most segments of a velocity plan
    int settled, settled_mapped; // steps whose position solve ended after one sweep; of those, with a plan
} run_result;

// cs_test_pool's layout with the circles added in a random order (a fixed LCG shuffle), so that a body's
// contacts lie far apart in the contact list.
static cs_world* shuffled_pool(int count, int columns)
{
    cs_world* w = cs_test_pool(0, columns);
    int* order = malloc((size_t)count * sizeof(int));
    assert_non_null(order);
    uint64_t x = 12345;
    for (int i = 0; i < count; ++i)
    {
        order[i] = i;
    }
    for (int i = count - 1; i > 0; --i)
    {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((x >> 33) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    cs_circle_def d = cs_circle_def_default();
    d.radius = 0.21;
    d.mass = 2.0;
    cs_error err = {CS_OK, ""};
    for (int n = 0; n < count; ++n)
    {
        d.position = cs_test_pool_position(order[n], columns);
        assert_true(cs_world_add_circle(w, &d, &err) >= 0);
    }
    free(order);
    return w;
}

static cs_world* make_pool(pool_kind kind)
{
    if (kind == POOL_SHUFFLED)
    {
        return shuffled_pool(SHUFFLED_CIRCLES, 55);
    }
    cs_world_def def = cs_world_def_default();
    def.frictionless = kind == POOL_FRICTIONLESS;
    cs_world* w = cs_test_pool_def(4000, 55, &def);
    if (kind == POOL)
    {
        return w;
    }
    assert_true(cs_world_set_threads(w, 2));
    cs_error err = {CS_OK, ""};
    for (int i = 0; kind == POOL_JOINTS && i < 40; ++i) // rods between neighbours of the bottom rows
    {
        cs_distance_joint_def j = cs_distance_joint_def_default();
        j.body_a = 3 + 2 * i; // (the three walls are bodies 0 .. 2)
        j.body_b = 4 + 2 * i;
        j.length = 0.44;
        assert_true(cs_world_add_distance_joint(w, &j, &err) >= 0);
    }
    return w;
}

// Whether the plan lets level 1 start on a segment before level 0 has done them all.
static bool overlaps(const cs_fuse_plan* plan)
{
    return plan != NULL && plan->count > 1 && plan->dep[0] < plan->count - 1;
}

// (cs_fuse_min_rows is restored by the tests' teardown, also after a failed assert.)
static run_result run(pool_kind kind, int steps, int min_rows)
{
    cs_fuse_min_rows = min_rows;
    run_result r = {.w = make_pool(kind)};
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(r.w), CS_OK);
        const cs_fuse_plan* v = r.w->work.fuse;
        const cs_fuse_plan* p = &r.w->split_work.fuse;
        r.velocity_plans += v != NULL && v->count > 0;
        r.split_plans += p->count > 0;
        r.overlapped |= overlaps(v) || overlaps(p);
        r.position_sweeps += cs_world_stats(r.w)->position_sweeps;
        r.settled += cs_world_stats(r.w)->position_sweeps == 1;
        r.settled_mapped += cs_world_stats(r.w)->position_sweeps == 1 && p->count > 0;
        if (v != NULL)
        {
            r.moved += v->counts.moved;
            r.quads_apart += v->counts.quads_apart;
            r.dropped += v->counts.dropped;
            r.segments = v->counts.segments > r.segments ? v->counts.segments : r.segments;
        }
    }
    return r;
}

// Both worlds in the same state, bit for bit: bodies, both solves' λ, the position sweeps; then frees them.
static void assert_same_bits(run_result on, run_result off)
{
    assert_int_equal(cs_world_body_count(on.w), cs_world_body_count(off.w));
    for (int i = 0; i < cs_world_body_count(on.w); ++i)
    {
        cs_body_state x = cs_world_body(on.w, i), y = cs_world_body(off.w, i);
        assert_memory_equal(&x, &y, sizeof x);
    }
    int rows = on.w->velocity_problem.row_count, contacts = cs_world_contact_count(on.w);
    assert_int_equal(rows, off.w->velocity_problem.row_count);
    assert_int_equal(contacts, cs_world_contact_count(off.w));
    assert_memory_equal(on.w->lambda, off.w->lambda, (size_t)rows * sizeof(double));
    assert_memory_equal(on.w->position_lambda, off.w->position_lambda, (size_t)contacts * sizeof(double));
    assert_true(on.position_sweeps == off.position_sweeps);
    assert_true(cs_world_hash(on.w) == cs_world_hash(off.w));
    cs_world_destroy(on.w);
    cs_world_destroy(off.w);
}

static void fused_sweeps_give_the_same_bits(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip(); // no vector schedule, so nothing to fuse
    }
    run_result on = run(POOL, STEPS, 1000), off = run(POOL, STEPS, INT32_MAX);
    print_message("fused: %d velocity and %d position solves of %d steps, state hash %016llx; %ld units "
                  "moved, %ld quads taken apart, up to %d segments\n",
                  on.velocity_plans, on.split_plans, STEPS, (unsigned long long)cs_world_hash(on.w), on.moved,
                  on.quads_apart, on.segments);
    // The pool has ~9 000 contacts from the first steps: every solve fused (both solves have more than
    // 2 sweeps), none when forced off; the plans moved the wall contacts up, took quads apart and cut many
    // segments (the levels overlap: `overlapped`).
    assert_true(on.velocity_plans > STEPS / 2 && on.split_plans > STEPS / 2 && on.overlapped);
    assert_true(on.moved > 0 && on.quads_apart > 0 && on.segments > 8 && on.dropped == 0);
    // A position solve that ends after its first sweep (settled) maps no plan: it would be wasted.
    print_message("%d settled position solves, %d with a plan mapped\n", on.settled, on.settled_mapped);
    assert_true(on.settled > 0 && on.settled_mapped == 0);
    assert_true(off.velocity_plans == 0 && off.split_plans == 0);
    assert_same_bits(on, off);
}

// Two threads: the split solve runs on the worker beside the fused velocity sweeps. Frictionless (stride 1)
// and with joint rows, the split rows are compacted from the quads' records, which the velocity plan reads
// for the quads it took apart: cs_split_work_reserve writes them before the job is posted (split.c). The
// bits are the same; under -fsanitize=thread no race is reported (docs/PERFORMANCE.md).
static void two_threads_frictionless_and_joints_give_the_same_bits(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip();
    }
    pool_kind kinds[] = {POOL_FRICTIONLESS, POOL_JOINTS};
    for (int k = 0; k < 2; ++k)
    {
        run_result on = run(kinds[k], 40, 1000), off = run(kinds[k], 40, INT32_MAX);
        print_message("%s: %d fused velocity solves of 40, %ld quads taken apart\n",
                      k == 0 ? "frictionless" : "joints", on.velocity_plans, on.quads_apart);
        assert_true(on.velocity_plans > 20 && on.quads_apart > 0 && off.velocity_plans == 0);
        assert_same_bits(on, off);
    }
}

// Circles added in random order: most units would move (the plan is dropped: sequential sweeps, the same
// bits), where the insertion sort of the moved units used to take quadratic time.
static void a_shuffled_pool_drops_the_plan(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip();
    }
    run_result on = run(POOL_SHUFFLED, 6, 1000), off = run(POOL_SHUFFLED, 6, INT32_MAX);
    print_message("shuffled: %d fused velocity solves of 6, %ld dropped, %ld units moved\n",
                  on.velocity_plans, on.dropped, on.moved);
    assert_true(on.dropped >= 5 && on.moved > 0);
    assert_same_bits(on, off);
}

// The 4 000-circle pool after 30 steps (its last velocity problem for cs_solve).
static cs_world* stepped_pool(void)
{
    cs_world* w = cs_test_pool(4000, 55);
    for (int s = 0; s < 30; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    return w;
}

// A problem solved through cs_solve (the velocity plan of a lone problem, not the world's): the world's last
// velocity problem, 40 sweeps (three fused passes of up to CS_FUSE_LEVELS_MAX) of each method that fuses
// (pgs, psor at ω = 1.3, amgs and amgs-omega with their per-row x), fused and not.
static void a_lone_problem_gives_the_same_bits(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip();
    }
    cs_world* w = stepped_pool();
    const cs_lcp* p = cs_world_last_problem(w);
    int m = p->row_count;
    assert_true(m > 10000);
    const char* methods[] = {"pgs", "psor", "amgs", "amgs-omega"};
    for (int k = 0; k < 4; ++k)
    {
        double* lambda[2] = {calloc((size_t)m, sizeof(double)), calloc((size_t)m, sizeof(double))};
        cs_solver_work work[2] = {{0}, {0}};
        cs_solver_params params = cs_solver_params_default();
        params.iterations = 40;
        params.relaxation = 1.3;
        cs_error err = {CS_OK, ""};
        for (int f = 0; f < 2; ++f)
        {
            cs_fuse_min_rows = f == 0 ? 1000 : INT32_MAX;
            cs_solver_stats stats;
            assert_int_equal(
                cs_solve(p, cs_solver_find(methods[k]), &params, &work[f], lambda[f], &stats, &err), CS_OK);
            assert_int_equal(stats.iterations, 40);
        }
        print_message("%s: %d segments\n", methods[k], ((const cs_fuse_plan*)work[0].fuse)->count);
        assert_true(overlaps(work[0].fuse));
        assert_true(work[1].fuse == NULL || ((const cs_fuse_plan*)work[1].fuse)->count == 0);
        assert_memory_equal(lambda[0], lambda[1], (size_t)m * sizeof(double));
        assert_memory_equal(work[0].v, work[1].v, 3 * (size_t)p->body_count * sizeof(double));
        for (int f = 0; f < 2; ++f)
        {
            cs_solver_work_free(&work[f]);
            free(lambda[f]);
        }
    }
    cs_world_destroy(w);
}

// A problem that cs_problem_check refuses leaves no plan: the one of the problem solved before it is dropped
// (the world's split solve maps the velocity plan onto its rows even after a refused velocity problem).
static void a_refused_problem_leaves_no_plan(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip();
    }
    cs_world* w = stepped_pool();
    cs_error err = {CS_OK, ""};
    cs_lcp bad = {0};
    assert_int_equal(cs_lcp_copy(&bad, cs_world_last_problem(w), &err), CS_OK);
    int m = bad.row_count;
    double* lambda = calloc((size_t)m, sizeof(double));
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 10;
    cs_solver_stats stats;
    cs_fuse_min_rows = 1000;
    assert_int_equal(cs_solve(&bad, cs_solver_find("pgs"), &params, &work, lambda, &stats, &err), CS_OK);
    const cs_fuse_plan* plan = work.fuse;
    assert_true(plan != NULL && plan->count > 0);
    bad.v[0] = NAN; // a body's velocity not finite: refused
    assert_int_equal(cs_solve(&bad, cs_solver_find("pgs"), &params, &work, lambda, &stats, &err), CS_OK);
    assert_int_equal(stats.stop, CS_STOP_BAD_PROBLEM);
    assert_int_equal(plan->count, 0);
    cs_solver_work_free(&work);
    cs_lcp_free(&bad);
    free(lambda);
    cs_world_destroy(w);
}

// A test that sets cs_fuse_min_rows, restored after it (also after a failed assert).
#define FUSE_TEST(f) cmocka_unit_test_setup_teardown(f, cs_test_save_sweep_knobs, cs_test_restore_sweep_knobs)

int main(void)
{
    const struct CMUnitTest tests[] = {
        FUSE_TEST(fused_sweeps_give_the_same_bits),
        FUSE_TEST(two_threads_frictionless_and_joints_give_the_same_bits),
        FUSE_TEST(a_shuffled_pool_drops_the_plan),
        FUSE_TEST(a_refused_problem_leaves_no_plan),
        FUSE_TEST(a_lone_problem_gives_the_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
