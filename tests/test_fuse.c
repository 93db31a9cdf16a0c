// Several sweeps in one pass (solver/fuse.h) give the bits of the same sweeps one after the other: a pool big
// enough to fuse, stepped with the fused sweeps forced on and forced off (cs_fuse_min_rows), must agree in
// every body's state, the velocity solve's λ, the position solve's λ and its sweep counts; and the plans
// must have been built and must overlap the sweeps (else the test would compare sequential with sequential).
#include "test_support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/fuse.h"
#include "solver/simd.h"
#include "world/world_internal.h"

enum
{
    STEPS = 80
};

typedef struct run_result
{
    cs_world* w;
    long position_sweeps; // summed over the steps
    int velocity_plans;   // steps whose velocity solve had a plan
    int split_plans;      // steps whose position solve had one
    bool overlapped;      // some plan let a later sweep start before the one below it ended
} run_result;

// Whether the plan lets level 1 start on a segment before level 0 has done them all.
static bool overlaps(const cs_fuse_plan* plan)
{
    return plan != NULL && plan->count > 1 && plan->dep[0] < plan->count - 1;
}

static run_result run(int min_rows)
{
    int saved = cs_fuse_min_rows;
    cs_fuse_min_rows = min_rows;
    run_result r = {cs_test_pool(4000, 55), 0, 0, 0, false};
    for (int s = 0; s < STEPS; ++s)
    {
        assert_int_equal(cs_world_step(r.w), CS_OK);
        const cs_fuse_plan* v = r.w->work.fuse;
        const cs_fuse_plan* p = &r.w->split_work.fuse;
        r.velocity_plans += v != NULL && v->count > 0;
        r.split_plans += p->count > 0;
        r.overlapped |= overlaps(v) || overlaps(p);
        r.position_sweeps += cs_world_stats(r.w)->position_sweeps;
    }
    cs_fuse_min_rows = saved;
    return r;
}

static void fused_sweeps_give_the_same_bits(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        skip(); // no vector schedule, so nothing to fuse
    }
    run_result on = run(1000), off = run(INT32_MAX);
    print_message("fused: %d velocity and %d position solves of %d steps, state hash %016llx\n",
                  on.velocity_plans, on.split_plans, STEPS, (unsigned long long)cs_world_hash(on.w));
    // The pool has ~9 000 contacts from the first steps: every solve fused (both solves have more than
    // 2 sweeps), none when forced off.
    assert_true(on.velocity_plans > STEPS / 2 && on.split_plans > STEPS / 2 && on.overlapped);
    assert_true(off.velocity_plans == 0 && off.split_plans == 0);

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
    cs_world* w = cs_test_pool(4000, 55);
    for (int s = 0; s < 30; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    const cs_lcp* p = cs_world_last_problem(w);
    int m = p->row_count;
    assert_true(m > 10000);
    const char* methods[] = {"pgs", "psor", "amgs", "amgs-omega"};
    int saved = cs_fuse_min_rows;
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
        cs_fuse_min_rows = saved;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fused_sweeps_give_the_same_bits),
        cmocka_unit_test(a_lone_problem_gives_the_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
