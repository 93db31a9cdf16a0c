// The paper's scenes behave: they settle, stay within the penetration budget, stack to the right height,
// and run bit-identically twice.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static cs_world* load(const char* relative, cs_scene_info* info)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(cs_test_source_path(relative), info, &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    return w;
}

static void check_pool(const char* scene)
{
    cs_scene_info info;
    cs_world* w = load(scene, &info);
    assert_string_equal(cs_solver_at(cs_world_solver(w))->name, "pgs");
    assert_int_equal(cs_world_solver_params(w)->iterations, 10);
    double late_penetration = 0.0;
    for (int s = 1; s <= 600; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        const cs_step_stats* st = cs_world_stats(w);
        assert_true(isfinite(st->kinetic_energy) && isfinite(st->res_nat));
        if (s > 540)
        {
            late_penetration = fmax(late_penetration, st->max_penetration);
        }
    }
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        assert_true(isfinite(b.position.x) && isfinite(b.position.y));
        // Nobody left the pool.
        assert_true(b.position.y > 0.0 && fabs(b.position.x) < 3.0);
    }
    printf("# %s: max penetration over the last 60 steps %.3f mm, max speed %.3g m/s\n", scene,
           1e3 * late_penetration, cs_test_max_speed(w));
    assert_true(late_penetration < 0.004);
    assert_true(cs_test_max_speed(w) < 0.05);
    cs_world_destroy(w);
}

static void pool1_settles(void** state)
{
    (void)state;
    check_pool("scenes/pool1.json");
}

static void pool2_settles(void** state)
{
    (void)state;
    check_pool("scenes/pool2.json");
}

static void check_stack(const char* scene, const char* solver, int iterations, double expected_top)
{
    cs_scene_info info;
    cs_world* w = load(scene, &info);
    cs_world_set_solver(w, cs_solver_find(solver));
    cs_solver_params p = *cs_world_solver_params(w);
    p.iterations = iterations;
    p.alpha = 0.2;
    cs_world_set_solver_params(w, &p);
    int n = cs_world_body_count(w);
    double worst_x = 0.0;
    for (int s = 0; s < 3600; ++s)
    {
        cs_world_step(w);
        for (int i = 0; i < n; ++i)
        {
            worst_x = fmax(worst_x, fabs(cs_world_body(w, i).position.x));
        }
    }
    double top = 0.0;
    for (int i = 0; i < n; ++i)
    {
        top = fmax(top, cs_world_body(w, i).position.y);
    }
    printf("# %s, %s at %d iterations: top %.4f m (exact %.2f), max |x| %.3g, max speed %.3g m/s\n", scene,
           solver, iterations, top, expected_top, worst_x, cs_test_max_speed(w));
    assert_true(worst_x <= 1e-9);
    assert_near(top, expected_top, 0.01 * expected_top);
    assert_true(cs_test_max_speed(w) < 1e-3);
    cs_world_destroy(w);
}

static void stacking_rests_at_exact_height(void** state)
{
    (void)state;
    check_stack("scenes/stacking.json", "pgs", 10, 0.18 + 0.36 * 29);
}

static void stacking150_rests_at_exact_height(void** state)
{
    (void)state;
    // 40 PGS sweeps: at 20 the stack still moves at ~0.07 m/s after 60 s (see the closing note of the
    // foundation issue and docs/PHYSICS.md).
    check_stack("scenes/stacking150.json", "pgs", 40, 0.18 + 0.36 * 149);
}

// The paper's point in one test: AMGS with α = 0.2 (over-relaxation ω ≈ 1.43) settles the 150-stack at the
// 20 sweeps per step where PGS cannot.
static void stacking150_amgs_settles_at_20_iterations(void** state)
{
    (void)state;
    check_stack("scenes/stacking150.json", "amgs", 20, 0.18 + 0.36 * 149);
}

static void pool1_is_deterministic(void** state)
{
    (void)state;
    uint64_t hashes[2];
    for (int run = 0; run < 2; ++run)
    {
        cs_scene_info info;
        cs_world* w = load("scenes/pool1.json", &info);
        for (int s = 0; s < 600; ++s)
        {
            cs_world_step(w);
        }
        hashes[run] = cs_world_hash(w);
        cs_world_destroy(w);
    }
    assert_true(hashes[0] == hashes[1]);
}

// Contact keys persist: in a resting stack the same pairs are found step after step, and the warm start
// picks up the previous step's impulses (so the solve starts near its answer).
static void warm_start_follows_contact_keys(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* w = load("scenes/stacking.json", &info);
    for (int s = 0; s < 3000; ++s)
    {
        cs_world_step(w);
    }
    const cs_lcp* p = cs_world_last_problem(w);
    const double* lambda = cs_world_last_lambda(w);
    int rows = p->row_count;
    double previous[128];
    assert_true(rows <= 128);
    memcpy(previous, lambda, (size_t)rows * sizeof(double));
    cs_world_step(w);
    p = cs_world_last_problem(w);
    assert_int_equal(p->row_count, rows);
    for (int i = 0; i < rows; ++i)
    {
        assert_true(p->lambda0[i] == previous[i]);
    }
    // At rest, the floor contact's normal impulse carries the weight of the stack: 30 kg · g · h.
    double floor_impulse = 0.0;
    for (int i = 0; i < rows; ++i)
    {
        if (p->body_a[i] == -1 && p->kind[i] == CS_ROW_NORMAL)
        {
            floor_impulse = cs_world_last_lambda(w)[i];
        }
    }
    assert_near(floor_impulse, 30.0 * 9.80665 / 60.0, 1e-6);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pool1_settles),
        cmocka_unit_test(pool2_settles),
        cmocka_unit_test(stacking_rests_at_exact_height),
        cmocka_unit_test(stacking150_rests_at_exact_height),
        cmocka_unit_test(stacking150_amgs_settles_at_20_iterations),
        cmocka_unit_test(pool1_is_deterministic),
        cmocka_unit_test(warm_start_follows_contact_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
