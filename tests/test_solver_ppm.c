// `ppm`, block principal pivoting from a PGS crash: against the brute-force enumeration of active sets
// (solver_fixtures.h) on small random problems with and without friction, box rows of every shape, exact on
// a frozen frictional Pool 1 step (issue 11: lemke took 24 s there), its pivot cap as an error that says so,
// and the capped active-set reference the viewer's race uses.
#include "solver_fixtures.h"

#include "circlesim/active_set.h"
#include "circlesim/scene.h"
#include "circlesim/world.h"

static int ppm(void)
{
    int index = cs_solver_find("ppm");
    assert_true(index >= 0);
    return index;
}

// ppm through the driver with at most max_pivots block pivots (0: its default), from λ = 0 or (warm) from
// the problem's λ0.
static cs_status solve_ppm_from(const cs_lcp* p, bool warm, cs_solver_work* work, double* lambda,
                                int max_pivots, cs_solver_stats* stats, cs_error* err)
{
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = warm;
    params.max_pivots = max_pivots;
    return cs_solve(p, ppm(), &params, work, lambda, stats, err);
}

static cs_status solve_ppm(const cs_lcp* p, cs_solver_work* work, double* lambda, int max_pivots,
                           cs_solver_stats* stats, cs_error* err)
{
    return solve_ppm_from(p, false, work, lambda, max_pivots, stats, err);
}

// ppm from λ = 0 with its default budget: one iteration, converged, at least one block pivot.
static cs_status solve_ppm_exact(const cs_lcp* p, cs_solver_work* work, double* lambda, cs_error* err)
{
    cs_solver_stats stats;
    cs_status s = solve_ppm(p, work, lambda, 0, &stats, err);
    if (s == CS_OK)
    {
        assert_int_equal(stats.stop, CS_STOP_CONVERGED);
        assert_int_equal(stats.iterations, 1);
        assert_true(stats.pivots >= 1);
    }
    return s;
}

static void test_frictionless_matches_enumeration(void** state)
{
    (void)state;
    check_exact_against_enumeration(solve_ppm_exact, false);
}

static void test_friction_matches_enumeration(void** state)
{
    (void)state;
    check_exact_against_enumeration(solve_ppm_exact, true);
}

static void test_box_rows(void** state)
{
    (void)state;
    check_exact_box_rows(solve_ppm_exact, 1e-10);
}

// Pool 1 step 100 with friction (1 208 rows, A singular), from the step's warm start as the world and
// `lcp solve` run it, and from λ = 0 (where the crash's PGS is still at res_nat 4.6e-6 after its 20 000
// sweeps, so the first attempt's block pivots do not settle and the damped second attempt finds the sets):
// exact, checked here on the BLCP conditions with w from the answer's own velocities.
static void test_pool1_friction_exact(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_test_frozen_scene("scenes/pool1.json", 100, true, &p);
    int m = p.row_count;
    assert_true(m > 1000);
    int friction_rows = 0;
    for (int i = 0; i < m; ++i)
    {
        friction_rows += p.kind[i] == CS_ROW_FRICTION;
    }
    assert_true(friction_rows > 500);
    cs_solver_work work = {0};
    double* lambda = calloc((size_t)m, sizeof(double));
    double* w = calloc((size_t)m, sizeof(double));
    double* v = calloc(3 * (size_t)p.body_count + 3, sizeof(double));
    for (int warm = 1; warm >= 0; --warm)
    {
        cs_solver_stats stats;
        cs_error err = {0};
        if (solve_ppm_from(&p, warm == 1, &work, lambda, 0, &stats, &err) != CS_OK)
        {
            fail_msg("ppm on Pool 1 step 100 (%s): %s", warm ? "warm" : "from 0", err.message);
        }
        assert_int_equal(stats.stop, CS_STOP_CONVERGED);
        assert_true(stats.res_nat <= 1e-10);
        assert_true(stats.pivots <= (warm ? 5 : 300));
        cs_lcp_velocity(&p, lambda, v);
        for (int i = 0; i < m; ++i)
        {
            w[i] = cs_lcp_row_velocity(&p, v, i);
        }
        assert_true(blcp_holds(&p, lambda, w, 1e-10));
    }
    free(v);
    free(w);
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// Pool 1 step 31 with friction: the crash's sets are hundreds of rows off and the block pivots need more than
// a tiny budget. A cap of 3 is an error naming it, never a hang or a silent answer; the active-set reference
// within 3 pivots then fails with both exact methods' reasons, as the viewer's race reports it. (Step 30
// served until the restitution pass left unmoved rows out: its last attempt now ends on the other error,
// sets that are consistent but inexact.)
static void test_cap_is_an_error(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_test_frozen_scene("scenes/pool1.json", 31, true, &p);
    cs_solver_work work = {0};
    double* lambda = calloc((size_t)p.row_count, sizeof(double));
    cs_solver_stats stats;
    cs_error err = {0};
    assert_int_equal(solve_ppm(&p, &work, lambda, 3, &stats, &err), CS_ERR_VALUE);
    if (strstr(err.message, "ppm: block-pivot cap 3 reached") == NULL)
    {
        fail_msg("unexpected message: %s", err.message);
    }
    cs_active_set set;
    cs_error why = {0};
    assert_int_equal(cs_active_set_find_within(&p, &work, 3, &set, &why), CS_ERR_VALUE);
    assert_non_null(strstr(why.message, "no reference within 3 pivots"));
    assert_non_null(strstr(why.message, "ppm:"));
    assert_non_null(strstr(why.message, "lemke:"));
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// Malformed input is refused by the driver before any pivot, as for every method.
static void test_bad_problem_is_refused(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 3, 2, true);
    p.bias[0] = NAN;
    cs_solver_work work = {0};
    double lambda[MAXR];
    cs_solver_stats stats;
    cs_error err = {0};
    assert_int_equal(solve_ppm(&p, &work, lambda, 0, &stats, &err), CS_OK);
    assert_int_equal(stats.stop, CS_STOP_BAD_PROBLEM);
    assert_int_equal(stats.iterations, 0);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frictionless_matches_enumeration),
        cmocka_unit_test(test_friction_matches_enumeration),
        cmocka_unit_test(test_box_rows),
        cmocka_unit_test(test_pool1_friction_exact),
        cmocka_unit_test(test_cap_is_an_error),
        cmocka_unit_test(test_bad_problem_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
