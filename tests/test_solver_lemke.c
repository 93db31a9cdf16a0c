// `lemke`: the pivoting ground truth against the brute-force enumeration of active sets (solver_fixtures.h)
// on small random problems with and without friction, box rows, the driver's history, and the failures it
// must report (ray termination on an infeasible problem, malformed input, a problem too large).
#include "solver_fixtures.h"

#include "circlesim/lemke.h"

static int lemke(void)
{
    int index = cs_solver_find("lemke");
    assert_true(index >= 0);
    return index;
}

// lemke through its direct API, within its documented pivot budget.
static cs_status solve_lemke(const cs_lcp* p, cs_solver_work* work, double* lambda, cs_error* err)
{
    cs_lemke_stats stats;
    cs_status s = cs_lemke_solve(p, work, lambda, &stats, err);
    if (s == CS_OK)
    {
        assert_true(stats.pivots <= 20 * stats.variables + 100);
    }
    return s;
}

static void test_frictionless_matches_enumeration(void** state)
{
    (void)state;
    check_exact_against_enumeration(solve_lemke, false);
}

static void test_friction_matches_enumeration(void** state)
{
    (void)state;
    check_exact_against_enumeration(solve_lemke, true);
}

static void test_box_rows(void** state)
{
    (void)state;
    check_exact_box_rows(solve_lemke, 1e-12);
}

// Issue 11: on a frozen pool whose A is singular (616 normal rows of Pool 1 at step 300, frictionless), Lemke
// from z = 0 ends on a numerically singular basis (2 468 pivots, 27 Nov 2026); started from the crash's
// answer purified to a vertex (lemke_purify.c), a nonsingular basis near the answer, it needs a few hundred
// pivots (265) and the answer solves the true problem, checked here from the velocities, not from Lemke's
// tableau. The cap is the cold start's failure count: a crash start that no longer helps fails here.
static void test_frozen_pool_purified(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_test_frozen_scene("scenes/pool1.json", 300, false, &p);
    cs_solver_work work = {0};
    cs_error err = {0};
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = true; // from the step's λ0, as `lcp solve` and the world
    double* lambda = malloc((size_t)p.row_count * sizeof(double));
    assert_non_null(lambda);
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, lemke(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_true(stats.pivots < 2468);
    cs_lcp_velocity(&p, lambda, work.v);
    double res_nat = cs_residual_nat(&p, work.v, lambda);
    assert_true(res_nat <= 1e-11);
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// Through cs_solve: history entry 0 is the start point, entry 1 the answer, and nothing after it: a pivoting
// method is not bound by the iteration budget (one iteration, converged, its pivots reported).
static void test_history_and_driver(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 4, 4, true);
    cs_solver_work work = {0};
    cs_error err = {0};
    assert_int_equal(cs_solver_work_set_history(&work, true, 5, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 5;
    double lambda[MAXR];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, lemke(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_int_equal(stats.history_count, 2);
    assert_int_equal(stats.iterations, 1);
    assert_int_equal(stats.stop, CS_STOP_CONVERGED);
    assert_true(stats.pivots >= 0); // the crash's purified basis may be the answer (lemke_crash.c): 0 pivots
    // Entry 0 is the start point's residual, computed from λ⁰ and its own velocities.
    double v0[3 * MAXB], res_lcp0, res_nat0;
    cs_lcp_velocity(&p, p.lambda0, v0);
    res_lcp0 = cs_residual_lcp(&p, v0, p.lambda0);
    res_nat0 = cs_residual_nat(&p, v0, p.lambda0);
    assert_near(work.history_nat[0], res_nat0, 1e-14);
    assert_near(work.history_lcp[0], res_lcp0, 1e-14);
    assert_true(res_nat0 > 1e-3);
    assert_true(work.history_nat[1] <= 1e-12);
    // The velocities are v* + M⁻¹Jᵀλ of the answer.
    double v[3 * MAXB];
    cs_lcp_velocity(&p, lambda, v);
    for (int k = 0; k < 3 * p.body_count; ++k)
    {
        assert_near(work.v[k], v[k], 1e-14);
    }
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// A disc of infinite mass (M⁻¹ = 0, so A = 0) asked to separate (q < 0): no λ ≥ 0 makes w ≥ 0.
static void test_infeasible_problem_is_a_ray(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    infeasible_problem(&p);
    cs_solver_work work = {0};
    double lambda[1];
    cs_lemke_stats stats;
    assert_int_equal(cs_lemke_solve(&p, &work, lambda, &stats, &err), CS_ERR_VALUE);
    // Lemke's ray, or the driver's check refusing the row before any pivot: either way an error that says
    // why.
    assert_true(strstr(err.message, "ray termination") != NULL || strstr(err.message, "bad problem") != NULL);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void expect_rejected(cs_lcp* p, const char* what)
{
    cs_solver_work work = {0};
    double lambda[MAXR];
    cs_lemke_stats stats;
    cs_error err = {0};
    assert_int_equal(cs_lemke_solve(p, &work, lambda, &stats, &err), CS_ERR_VALUE);
    if (strstr(err.message, what) == NULL)
    {
        fail_msg("expected '%s' in: %s", what, err.message);
    }
    cs_solver_work_free(&work);
}

static void test_bad_problems_are_rejected(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 3, 2, true);
    p.bias[0] = NAN;
    expect_rejected(&p, "row 0: non-finite");
    p.bias[0] = -0.5;
    p.kind[0] = CS_ROW_BOX, p.lo[0] = 1.0, p.hi[0] = -1.0;
    expect_rejected(&p, "row 0: empty box");
    p.kind[0] = CS_ROW_NORMAL, p.lo[0] = 0.0, p.hi[0] = INFINITY;
    p.mu[1] = -0.3;
    expect_rejected(&p, "row 1: friction row");
    p.mu[1] = 0.3;
    p.inv_mass[1] = NAN;
    expect_rejected(&p, "body 1");
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frictionless_matches_enumeration),
        cmocka_unit_test(test_friction_matches_enumeration),
        cmocka_unit_test(test_box_rows),
        cmocka_unit_test(test_history_and_driver),
        cmocka_unit_test(test_frozen_pool_purified),
        cmocka_unit_test(test_infeasible_problem_is_a_ray),
        cmocka_unit_test(test_bad_problems_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
